"""Site build time and peak memory, MkDocs route and Zensical route, and the generator's share of `mkdocs build`.

Run by hand: python3 benchmarks/site_build.py [--runs N] [real] [SIZES...]   (default: real 1000 10000 20000)

`real` is the project's own records and chapters; a number is a synthetic corpus of that many records
(benchmarks/make_corpus.py) with the page layouts, a one-line home page, no chapters, and a nav of the
home page and the kind indexes (without a nav, MkDocs lists every record page on every page: quadratic).
Routes, each as whole processes timed by /usr/bin/time (CPU = user + sys, wall, peak RSS):
  mkdocs     `mkdocs build` with the atlas plugin; also the CPU seconds spent inside the plugin (the
             generator), measured in the same process, and its share of the build's CPU time
  zensical   `python -m generators build --out` then `zensical build` on the written tree (the sum)
Print `uptime` with the figures: wall time on a shared machine includes other people's work.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.make_corpus import make  # noqa: E402


def project(kind: str, into: Path) -> Path:
    """A project folder: mkdocs.yml, records, schema, docs."""
    target = into / "project"
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    if kind == "real":
        for folder in ("records", "schema", "docs"):
            shutil.copytree(ROOT / folder, target / folder)
    else:
        make(int(kind), target)  # with the page layouts and a one-line home page
        from generators.kinds import FOLDER_OF_KIND  # a nav like the real one: home and the kind indexes
        config["nav"] = ["index.md"] + [f"{folder}/index.md" for folder in FOLDER_OF_KIND.values()]
        config["strict"] = False
        config["validation"] = {"nav": {"omitted_files": "ignore"}, "links": {"not_found": "ignore"}}
    (target / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


def timed(command: list[str], cwd: Path, report: Path | None = None) -> tuple[float, float, int, str]:
    """(cpu s, wall s, peak KiB, stdout) of one whole-process run."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ATLAS_CACHE": "off"}
    with tempfile.NamedTemporaryFile("r", suffix=".time") as figures:
        done = subprocess.run(["/usr/bin/time", "-o", figures.name, "-f", "%U %S %e %M", *command], cwd=cwd, env=env,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{command} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        user, system, wall, peak = figures.read().split()[-4:]
    return float(user) + float(system), float(wall), int(peak), done.stdout


def mkdocs_in_process(folder: str) -> None:
    """Child mode: run `mkdocs build` here and print the CPU seconds spent in the atlas plugin and in all."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from generators import mkdocs_plugin

    spent = [0.0]
    original = mkdocs_plugin.AtlasPlugin.on_files

    def on_files(self, files, config):
        began = time.process_time()
        try:
            return original(self, files, config)
        finally:
            spent[0] += time.process_time() - began

    mkdocs_plugin.AtlasPlugin.on_files = on_files
    began = time.process_time()
    build(load_config(str(Path(folder) / "mkdocs.yml")))
    print(f"generator {spent[0]:.3f} total {time.process_time() - began:.3f}")


def measure(kind: str, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = project(kind, Path(tmp))
        count = sum(1 for _ in (folder / "records").rglob("*.yaml"))
        rows: dict[str, list[tuple[float, float, int]]] = {"mkdocs": [], "zensical": []}
        shares = []
        for _ in range(runs):
            cpu, wall, peak, out = timed([sys.executable, __file__, "--mkdocs-in-process", str(folder)], folder)
            generator, total = (float(x) for x in out.split()[1::2])
            shares.append(generator / total)
            rows["mkdocs"].append((cpu, wall, peak))
            tree = Path(tmp) / "z"
            shutil.rmtree(tree, ignore_errors=True)
            first = timed([sys.executable, "-m", "generators", "build", "--out", str(tree / "docs"),
                           "--engine-config", str(tree / "mkdocs.yml")], folder)
            second = timed(["zensical", "build", "-f", "mkdocs.yml"], tree)
            rows["zensical"].append((first[0] + second[0], first[1] + second[1], max(first[2], second[2])))
        print(f"{kind}: {count} records, {runs} run(s):")
        for name, figures in rows.items():
            print(f"  {name:<9} cpu {statistics.median(f[0] for f in figures):7.2f} s  "
                  f"wall {statistics.median(f[1] for f in figures):7.2f} s  peak {max(f[2] for f in figures) / 1024:6.0f} MiB")
        print(f"  generator share of mkdocs build CPU: median {statistics.median(shares) * 100:.1f} % "
              f"(all: {', '.join(f'{s * 100:.1f}' for s in shares)})", flush=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--mkdocs-in-process"]:
        mkdocs_in_process(argv[1])
        return
    runs, kinds = 1, []
    args = iter(argv)
    for arg in args:
        if arg == "--runs":
            runs = int(next(args))
        else:
            kinds.append(arg)
    for kind in kinds or ["real", "1000", "10000", "20000"]:
        measure(kind, runs)
    print("load:", os.getloadavg(), f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main(sys.argv[1:])
