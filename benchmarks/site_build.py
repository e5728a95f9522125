"""Site build time and peak memory, MkDocs route and Zensical route, and the generator's share, cold and warm cache.

Run by hand: python3 benchmarks/site_build.py [--runs N] [--states cold,warm,edit] [--no-zensical] [real] [SIZES...]
(default: real 1000 10000 20000)

`real` is a `git clone` of this checkout's HEAD (history included, so the changelog compares the recent commits that
touched records/, as a build in the repository does; uncommitted changes are not in it). A number is a synthetic
corpus of that many records (benchmarks/make_corpus.py) with the page layouts, a one-line home page, no chapters,
and a nav of the home page and the kind indexes (without a nav, MkDocs lists every record page on every page).
Each run measures, in the same project folder with an empty cache folder (ATLAS_CACHE_DIR) per route, in this order:
  cold   nothing cached: what a fresh machine or CI pays (parse, schema, commit, template and page caches empty)
  warm   the same inputs again: the generated files come from the on-disk copy (generators/site_cache.py)
  edit   one record changed (a comment appended to it): parse and commit caches warm, the page copy misses, so the
         pipeline runs (it re-parses one file)
Routes, each as whole processes timed by /usr/bin/time (CPU = user + sys, wall, peak RSS):
  mkdocs     `mkdocs build` with the atlas plugin; also the CPU seconds spent inside the plugin (the
             generator), measured in the same process (with the child processes it waits for: git and the changelog's
             own-code sides, generators/own_code.py), and its share of the build's CPU time
  zensical   `python -m generators build --out` then `zensical build` on the written tree (the sum; the first
             step's share is printed as the generator's share of this route)
Print `uptime` with the figures: wall time on a shared machine includes other people's work.
PYTHONDONTWRITEBYTECODE is dropped from the commands' environment (every module would be compiled again in every
process, which a contributor's machine does not do), and `compileall` compiles the package once first.
"""
from __future__ import annotations

import argparse
import os
import resource
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

STATES = ("cold", "warm", "edit")


def project(kind: str, into: Path) -> Path:
    """A project folder: mkdocs.yml, records, schema, docs (for `real`, a clone of HEAD with its history)."""
    target = into / "project"
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    if kind == "real":
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(target)], check=True)
        subprocess.run(["git", "-C", str(target), "checkout", "-q", head], check=True)
        return target
    make(int(kind), target)  # with the page layouts and a one-line home page
    from generators.kinds import FOLDER_OF_KIND  # a nav like the real one: home and the kind indexes
    config["nav"] = ["index.md"] + [f"{folder}/index.md" for folder in FOLDER_OF_KIND.values()]
    config["strict"] = False
    config["validation"] = {"nav": {"omitted_files": "ignore"}, "links": {"not_found": "ignore"}}
    (target / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


def timed(command: list[str], cwd: Path, cache: Path) -> tuple[float, float, int, str]:
    """(cpu s, wall s, peak KiB, stdout) of one whole-process run."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ATLAS_CACHE_DIR": str(cache)}
    env.pop("ATLAS_CACHE", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a contributor's machine: modules are compiled once, not per run
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

    def cpu() -> float:
        """This process's CPU seconds and its finished children's (git, and the changelog's own-code sides)."""
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

    def on_files(self, files, config):
        began = cpu()
        try:
            return original(self, files, config)
        finally:
            spent[0] += cpu() - began

    mkdocs_plugin.AtlasPlugin.on_files = on_files
    began = cpu()
    build(load_config(str(Path(folder) / "mkdocs.yml")))
    print(f"generator {spent[0]:.3f} total {cpu() - began:.3f}")


def edit_one_record(folder: Path, n: int) -> None:
    """Change one record's bytes (a comment: the pages stay the same, the inputs do not)."""
    record = sorted((folder / "records" / "formats").glob("*.yaml"))[0]
    with open(record, "a", encoding="utf-8") as handle:
        handle.write(f"# benchmark edit {n}\n")


Figures = dict[str, list[tuple[float, float, int, float]]]  # route -> [(cpu, wall, peak KiB, generator share)]


def one_state(folder: Path, cache: Path, tmp: Path, zensical: bool) -> Figures:
    cpu, wall, peak, out = timed([sys.executable, __file__, "--mkdocs-in-process", str(folder)], folder, cache / "mkdocs")
    generator, total = (float(x) for x in out.split()[1::2])
    figures: Figures = {"mkdocs": [(cpu, wall, peak, generator / total)]}
    if zensical:
        tree = tmp / "z"
        shutil.rmtree(tree, ignore_errors=True)
        first = timed([sys.executable, "-m", "generators", "build", "--out", str(tree / "docs"),
                       "--engine-config", str(tree / "mkdocs.yml")], folder, cache / "zensical")
        second = timed(["zensical", "build", "-f", "mkdocs.yml"], tree, cache / "zensical")
        figures["zensical"] = [(first[0] + second[0], first[1] + second[1], max(first[2], second[2]),
                                first[0] / (first[0] + second[0]))]
    return figures


def line(state: str, route: str, rows: list[tuple[float, float, int, float]]) -> str:
    shares = ", ".join(f"{r[3] * 100:.1f}" for r in rows)
    return (f"  {state:<5} {route:<9} cpu {statistics.median(r[0] for r in rows):7.2f} s  "
            f"wall {statistics.median(r[1] for r in rows):7.2f} s  peak {max(r[2] for r in rows) / 1024:6.0f} MiB  "
            f"generator share median {statistics.median(r[3] for r in rows) * 100:5.1f} % (all: {shares})")


def measure(kind: str, runs: int, states: tuple[str, ...], zensical: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = project(kind, Path(tmp))
        count = sum(1 for _ in (folder / "records").rglob("*.yaml"))
        results: dict[str, Figures] = {s: {} for s in states}
        for n in range(runs):
            cache = Path(tmp) / f"cache-{n}"  # empty: the first state of each run is cold
            for state in states:
                if state == "edit":
                    edit_one_record(folder, n)
                for route, rows in one_state(folder, cache, Path(tmp), zensical).items():
                    results[state].setdefault(route, []).extend(rows)
            print(f"{kind}: run {n + 1} of {runs} done, load {os.getloadavg()[0]:.2f}", flush=True)
        print(f"{kind}: {count} records, {runs} run(s) (states measured one after another in each run):")
        for state in states:
            for route, rows in results[state].items():
                print(line(state, route, rows))
        if "cold" in results and "warm" in results:
            for route in results["cold"]:
                ratio = (statistics.median(r[0] for r in results["warm"][route])
                         / statistics.median(r[0] for r in results["cold"][route]))
                print(f"  {route}: warm / cold CPU {ratio:.2f}")
        print("  uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(), flush=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--mkdocs-in-process"]:
        mkdocs_in_process(argv[1])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog="See the module docstring for the states and routes.")
    parser.add_argument("kinds", nargs="*", metavar="KIND", help="'real' or a synthetic corpus size (default: real 1000 10000 20000)")
    parser.add_argument("--runs", type=int, default=1, help="runs per state and route (default 1)")
    parser.add_argument("--states", default=",".join(STATES), help=f"comma-separated, of {','.join(STATES)}")
    parser.add_argument("--no-zensical", dest="zensical", action="store_false", help="measure the MkDocs route only")
    args = parser.parse_args(argv)
    bad = [k for k in args.kinds if k != "real" and not k.isdigit()]
    if bad:
        parser.error(f"a KIND is 'real' or a number of records, not {', '.join(map(repr, bad))}")
    states = tuple(s for s in args.states.split(",") if s in STATES)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "generators")], check=True)
    for kind in args.kinds or ["real", "1000", "10000", "20000"]:
        measure(kind, args.runs, states, args.zensical)
    print("load:", os.getloadavg(), f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main(sys.argv[1:])
