"""Time `check` against the floor (a bare C-loader parse of the same files), as whole processes, in one run.

Run by hand: python3 benchmarks/check_speed.py [--runs N] [--all-pages] [real] [SIZES...]   (default: 1000 10000)

For each size a synthetic corpus is written (benchmarks/make_corpus.py); `real` copies this checkout's records/,
schema/ and docs/ instead (the synthetic corpus holds no file the fast YAML path declines; the real records do).
Then these commands run in turn, N times each, interleaved so a change in the machine's load hits all of them alike:

  bare         benchmarks/bare_parse.py: read and yaml.load(CSafeLoader) every record file, nothing else
  stages       load, validate, link, derive and checks (generators.build.check_tree), no on-disk cache
  stages+cache the same with the on-disk cache filled by an earlier run
  cli          `python -m generators check`, no cache: the stages, plus the chapters rendered (the synthetic
               corpus has the page layouts and no chapters). This is the figure the target is about.
  cli+cache    the same with the on-disk cache filled by an earlier run
  cli+cache+1  the same after one record was edited since (a comment appended): that file is parsed again
  all-pages    `python -m generators check --all-pages` (every record page rendered too), no cache  [with --all-pages]

Printed per command: median user+sys CPU seconds, median wall seconds, largest peak RSS, and the
ratio of its CPU time to bare's. CPU time is the figure to quote on a shared machine (wall time
includes waiting for other people's processes); the load average is printed before and after.

"cold" is a new process with no on-disk cache (ATLAS_CACHE=off) and the package's bytecode compiled, as on a
contributor's machine: PYTHONDONTWRITEBYTECODE is dropped from the commands' environment, and every command runs
once untimed first (which also fills the cache the +cache commands read).
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.make_corpus import make  # noqa: E402

STAGES = "import sys; from pathlib import Path; from generators.build import check_tree; " \
         "atlas, problems = check_tree(Path(sys.argv[1])); print(len(problems), 'problems')"


def timed(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """(user+sys CPU seconds, wall seconds, peak RSS KiB) of one whole-process run, from /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        subprocess.run(["/usr/bin/time", "-o", report.name, "-f", "%U %S %e %M", *command], env=env, cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        user, system, wall, peak = report.read().split()[-4:]
    return float(user) + float(system), float(wall), int(peak)


def commands(corpus: Path, cache: Path, cli: bool) -> dict[str, tuple[list[str], dict[str, str]]]:
    base = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    base["PYTHONPATH"] = str(ROOT)
    cold = {**base, "ATLAS_CACHE": "off"}
    warm = {**base, "ATLAS_CACHE_DIR": str(cache)}
    out = {
        "bare": ([sys.executable, str(ROOT / "benchmarks" / "bare_parse.py"), str(corpus)], base),
        "stages": ([sys.executable, "-c", STAGES, str(corpus)], cold),
        "stages+cache": ([sys.executable, "-c", STAGES, str(corpus)], warm),
    }
    out["cli"] = ([sys.executable, "-m", "generators", "--root", str(corpus), "check"], cold)
    out["cli+cache"] = ([sys.executable, "-m", "generators", "--root", str(corpus), "check"], warm)
    out["cli+cache+1"] = out["cli+cache"]  # measure() edits one record before each of these runs
    if cli:
        out["all-pages"] = ([sys.executable, "-m", "generators", "--root", str(corpus), "check", "--all-pages"], cold)
    return out


def measure(n: int | str, runs: int, cli: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        corpus, cache = Path(tmp) / "corpus", Path(tmp) / "cache"
        if n == "real":
            for folder in ("records", "schema", "docs"):
                shutil.copytree(ROOT / folder, corpus / folder)
        else:
            make(int(n), corpus)
        time.sleep(3.1)  # files younger than load.SETTLED_NS are always read: a real tree's files are older
        count = sum(1 for _ in (corpus / "records").rglob("*.yaml"))
        todo = commands(corpus, cache, cli)
        # every command runs in the temporary folder: `-m` and `-c` put the working folder first on sys.path, so from
        # a checkout they would time that checkout's generators package, not this one's (PYTHONPATH comes after it)
        here = Path(tmp)
        for command, env in todo.values():  # bytecode written, cache filled
            subprocess.run(command, env=env, cwd=here, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False)
        command, env = todo["cli"]
        clean = subprocess.run(command, env=env, cwd=here, capture_output=True, text=True, check=False)
        if clean.returncode != 0:  # a failing check takes the error path (jsonschema's messages): not what is timed
            sys.exit(f"check does not pass on the {n} corpus, so its timings would be of the error path: "
                     f"{(clean.stderr.strip().splitlines() or ['no output'])[-1]}")
        print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        results: dict[str, list[tuple[float, float, int]]] = {name: [] for name in todo}
        edited = sorted((corpus / "records" / "benchmarks").glob("*.yaml"))[0]
        for run in range(runs):
            for name, (command, env) in todo.items():
                if name == "cli+cache+1":
                    with edited.open("a", encoding="utf-8") as handle:
                        handle.write(f"# edit {run}\n")
                results[name].append(timed(command, env, here))
        floor = statistics.median(r[0] for r in results["bare"])
        print(f"{count} records ({n}), {runs} run(s) each:")
        for name, rows in results.items():
            cpu = statistics.median(r[0] for r in rows)
            wall = statistics.median(r[1] for r in rows)
            peak = max(r[2] for r in rows) / 1024
            print(f"  {name:<13} cpu {cpu:6.2f} s  wall {wall:6.2f} s  peak {peak:6.0f} MiB  cpu/bare {cpu / floor:5.2f}")
        shutil.rmtree(cache, ignore_errors=True)


def main(argv: list[str]) -> None:
    runs, cli = 3, False
    sizes: list[int | str] = []
    args = iter(argv)
    for arg in args:
        if arg in ("-h", "--help"):
            print(__doc__)
            return
        if arg == "--runs":
            runs = int(next(args))
        elif arg == "--all-pages":
            cli = True
        elif arg == "real" or arg.isdigit():
            sizes.append(arg if arg == "real" else int(arg))
        else:
            sys.exit(f"unknown argument {arg!r}; see --help")
    for size in sizes or [1000, 10000]:
        measure(size, runs, cli)
        print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main(sys.argv[1:])
