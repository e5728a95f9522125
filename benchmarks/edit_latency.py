"""Edit -> visible: seconds from writing one record to the server serving the changed page, per route.

Run by hand: python3 benchmarks/edit_latency.py [--edits N] [--zensical EXE] [--first] [ROUTE ...]
Routes (default: all):
  serve        `mkdocs serve` (MkDocs rebuilds the whole site on each change)
  serve-dirty  `mkdocs serve --dirty --no-strict` (only pages whose Markdown changed are converted and
               written; --no-strict because MkDocs warns on every dirty build and strict aborts on warnings)
  readme       `python -m generators serve`, the README's command: the same dirty reloads with strict mode kept
               (generators/site_commands.py logs MkDocs's dirty-build warning as information)
  watch        `python -m generators build --out DIR --watch`, and Zensical's own server on DIR;
               also prints when the Markdown file itself changed (the generator's share)
  watch-mkdocs the same written tree served by MkDocs without the atlas plugin (`mkdocs serve --dirty
               --no-strict` on the engine config `--engine-config` writes, which lists no plugin of ours): the
               --watch route with another engine's own server
  floor-zensical, floor-mkdocs
               the engine alone, the floor under the two --watch routes: the tree is written once (no --watch
               running) and its generated Markdown page is edited directly, so no atlas code runs between the
               write and the served page
  --first      once a route's server has built the site, every thread of the benchmark, the server and --watch runs
               under SCHED_FIFO (Linux, as root) until the route ends: the timed edits then wait for no other
               process, the nearest a shared machine gets to an idle one (the start-up builds keep the normal policy)
  --zensical EXE (repeatable) runs the Zensical routes once with each executable, to set two releases side by side in
               one run (a venv's bin/zensical; default: the one on PATH)

A copy of the project (mkdocs.yml, records, schema, docs) is made in a temporary folder; one record's
summary is edited N times; the page is fetched over HTTP until it shows the edit. Wall-clock times
on a shared machine: print `uptime` next to them.

Where the time goes under `mkdocs serve` (from its log lines, each stamped when it arrives):
  detect    write -> "Detected file changes": the atlas plugin moves MkDocs's watches to native file
            events (generators/native_watch.py; MkDocs's own polling observer walks the folders every 0.5 s,
            which ATLAS_WATCH=poll keeps)
  settle    -> "Building documentation...": MkDocs waits until no change came for build_delay (0.1 s; 0.05 s
            once the plugin has moved the watches to native events)
  rebuild   -> "Reloading browsers": the whole build (our generator's part is its own log line, `atlas`, and
            `atlas cpu` the CPU time of it)
  serve     -> the page fetched with the edit
  rebuild cpu the CPU time of the rebuild alone (MkDocs's routes: between its log lines above)
  server cpu  the CPU time the server process used from the write to the page served (Linux): on a shared machine
            the wall-clock figures are mostly waiting for a core, these are not (printed for every route, Zensical's
            too; for MkDocs it includes its polling and serving the page the benchmark keeps asking for)
  watch cpu the CPU time `build --watch` used from the write to the Markdown written (the --watch routes)
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = "records/formats/bitnet-b1-58.yaml"
PAGE = "formats/bitnet-b1-58/"
ORIGINAL = "ternary weights."
TIMEOUT = 300.0


ROUTES = ("serve", "serve-dirty", "readme", "watch", "watch-mkdocs", "floor-zensical", "floor-mkdocs")
ZENSICAL_ROUTES = ("watch", "floor-zensical")

def project_copy(into: Path) -> Path:
    project = into / "project"
    project.mkdir()
    shutil.copy2(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    for folder in ("records", "schema", "docs"):
        shutil.copytree(ROOT / folder, project / folder)
    return project


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8", "replace")
    except OSError:
        return ""


def wait_for(predicate, timeout: float = TIMEOUT, step: float = 0.02) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if predicate():
            return time.perf_counter() - start
        time.sleep(step)
    raise TimeoutError("the change never showed")


def edit(project: Path, n: int, path: Path | None = None) -> str:
    """Change the summary in the record (or, given `path`, in that file: a written page) to name edit n."""
    path = project / RECORD if path is None else path
    marker = f"edit number {n}"
    text = path.read_text(encoding="utf-8").replace(ORIGINAL, f"ternary weights, {marker}.")
    if n > 1:
        text = path.read_text(encoding="utf-8").replace(f"edit number {n - 1}", marker)
    path.write_text(text, encoding="utf-8")
    return marker


def start(command: list[str], cwd: Path, log: list[tuple] | None = None) -> subprocess.Popen:
    """Start a server; with `log`, its stderr lines are kept with the moment each arrived and the CPU time the server
    had used by then (None where /proc is not there)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a contributor's machine: modules are compiled once, not per run
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL if log is None else subprocess.PIPE, text=True,
                               start_new_session=True)
    if log is not None:
        def read() -> None:
            for text in process.stderr:
                log.append((time.perf_counter(), text.strip(), cpu_seconds(process.pid)))
        threading.Thread(target=read, daemon=True).start()
    return process


STEPS = (("detect", "Detected file changes"), ("settle", "Building documentation"), ("rebuild", "Reloading browsers"))


def breakdown(log: list[tuple], began: float, served: float) -> dict[str, float]:
    """Seconds per step of one rebuild, from the log lines after `began` ((moment, line) or (moment, line, server CPU
    by then)); plus the generator's own figure, and with CPU figures the rebuild's own CPU time ("rebuild cpu": from
    "Building documentation" to "Reloading browsers", so neither the server's polling nor the pages it serves count)."""
    steps, at, cpu = {}, began, {}
    for name, text in STEPS:
        entry = next((e for e in log if e[0] >= at and text in e[1]), None)
        if entry is None:
            return {}
        steps[name], at, cpu[name] = entry[0] - at, entry[0], entry[2] if len(entry) > 2 else None
    steps["serve"] = served - at
    if cpu["settle"] is not None and cpu["rebuild"] is not None:
        steps["rebuild cpu"] = cpu["rebuild"] - cpu["settle"]
    atlas = [e[1] for e in log if began <= e[0] <= at and "atlas:" in e[1] and " in " in e[1]]
    if atlas:
        figures = atlas[-1].rsplit(" in ", 1)[1].split()
        steps["atlas"] = float(figures[0])
        if len(figures) > 2 and figures[2].startswith("("):  # "0.25 s (0.22 s CPU)": the CPU time of the plugin's thread too
            steps["atlas cpu"] = float(figures[2][1:])
    return steps


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) a process has used so far, from /proc (Linux); None elsewhere. On a loaded machine
    a rebuild's wall-clock time is mostly waiting for a core; its CPU time is not."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, signal.SIGKILL)


def schedule(pids: list[int], first: bool) -> None:
    """Every thread of these processes to SCHED_FIFO (`first`) or back to the normal policy; threads they start later
    inherit it."""
    policy, param = (os.SCHED_FIFO, os.sched_param(10)) if first else (os.SCHED_OTHER, os.sched_param(0))
    for pid in pids:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(ProcessLookupError):  # a thread that ended meanwhile
                os.sched_setscheduler(int(tid), policy, param)


def route(name: str, edits: int, zensical_exe: str = "zensical",
          first: bool = False) -> list[tuple[float, float | None, dict[str, float]]]:
    """[(seconds until served, seconds until the Markdown was written or None, steps)] per edit; `first`: the timed
    edits scheduled ahead of every other process (--first)."""
    with tempfile.TemporaryDirectory() as tmp:
        project = project_copy(Path(tmp))
        port = free_port()
        url = f"http://127.0.0.1:{port}/{PAGE}"
        processes = []
        log: list[tuple] = []
        out = Path(tmp) / "tree" / "docs"
        if name in ("serve", "serve-dirty", "readme"):
            command = [sys.executable, "-m", "mkdocs" if name != "readme" else "generators", "serve",
                       "-a", f"127.0.0.1:{port}"]  # (--no-livereload also stops watching)
            processes.append(start(command + (["--dirty", "--no-strict"] if name == "serve-dirty" else []), project, log))
        else:
            command = [sys.executable, "-m", "generators", "build", "--out", str(out),
                       "--engine-config", str(out.parent / "mkdocs.yml")]
            if name.startswith("watch"):
                processes.append(start(command + ["--watch"], project))
                wait_for(lambda: (out / "index.md").exists())
            else:  # a floor: the tree written once, then only the engine runs
                subprocess.run(command, cwd=project, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            zensical = name in ZENSICAL_ROUTES
            server = ([zensical_exe, "serve", "-f", "mkdocs.yml"] if zensical else
                      [sys.executable, "-m", "mkdocs", "serve", "--dirty", "--no-strict", "-f", "mkdocs.yml"])
            processes.append(start(server + ["-a", f"127.0.0.1:{port}"], out.parent, None if zensical else log))
        try:
            wait_for(lambda: "ternary" in fetch(url), step=0.5)
            if first:
                schedule([os.getpid(), *(p.pid for p in processes)], True)
            results = []
            for n in range(1, edits + 1):
                # let the server settle after the previous rebuild, then edit at a random point of a polling server's
                # 0.5 s cycle: a fixed pause puts every edit at the same point of it (MkDocs's poll then came 0.50 s
                # after each of 9 edits), which measures one phase of the poll rather than its average
                time.sleep(1.0 + random.uniform(0.0, 0.5))
                page = out / "formats" / "bitnet-b1-58.md"
                marker = edit(project, n, page if name.startswith("floor") else None)
                began = time.perf_counter()
                cpu_before = cpu_seconds(processes[-1].pid)
                watch_before = cpu_seconds(processes[0].pid) if name.startswith("watch") else None
                markdown = watch_after = None
                if name.startswith("watch"):
                    wait_for(lambda m=marker, p=page: m in p.read_text(encoding="utf-8"), step=0.005)
                    markdown = time.perf_counter() - began
                    watch_after = cpu_seconds(processes[0].pid)
                wait_for(lambda m=marker: m in fetch(url))
                served = time.perf_counter()
                cpu_after = cpu_seconds(processes[-1].pid)
                time.sleep(0.2)  # the log lines of this rebuild arrive
                steps = breakdown(log, began, served)  # {} for Zensical, whose log is not read
                if cpu_before is not None and cpu_after is not None:
                    steps["server cpu"] = cpu_after - cpu_before
                if watch_before is not None and watch_after is not None:
                    steps["watch cpu"] = watch_after - watch_before
                results.append((served - began, markdown, steps))
            return results
        finally:
            if first:
                schedule([os.getpid()], False)  # the next route's start-up build at the normal policy
            for process in processes:
                stop(process)


def report(label: str, results: list[tuple[float, float | None, dict[str, float]]]) -> None:
    served = [r[0] for r in results]
    line = f"{label:<12} edit->served median {statistics.median(served):6.2f} s (all: {', '.join(f'{s:.2f}' for s in served)})"
    written = [r[1] for r in results if r[1] is not None]
    if written:
        line += f"; edit->Markdown written median {statistics.median(written):.2f} s"
    print(line, flush=True)
    steps = [r[2] for r in results if r[2]]
    if steps:
        print("             where it went, median s: " + ", ".join(
            f"{k} {statistics.median(s[k] for s in steps if k in s):.3f}" for k in (*dict(STEPS), "serve", "atlas", "atlas cpu", "rebuild cpu", "watch cpu", "server cpu")
            if any(k in s for s in steps)), flush=True)


def version(exe: str) -> str:
    """`zensical --version`'s answer, to label a route run with that executable."""
    done = subprocess.run([exe, "--version"], capture_output=True, text=True)
    return done.stdout.strip() or exe


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("routes", nargs="*", metavar="ROUTE", help=f"of {', '.join(ROUTES)} (default: all)")
    parser.add_argument("--edits", type=int, default=3, help="edits timed per route (default 3)")
    parser.add_argument("--first", action="store_true",
                        help="time the edits with the route's processes under SCHED_FIFO (Linux, root): as if idle")
    parser.add_argument("--zensical", action="append", metavar="EXE",
                        help="Zensical executable for the Zensical routes; repeat to run them with each (default: PATH's)")
    args = parser.parse_args(argv)
    unknown = [r for r in args.routes if r not in ROUTES]
    if unknown:
        parser.error(f"unknown route {', '.join(map(repr, unknown))}; routes: {', '.join(ROUTES)}")
    print("load at start:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(), flush=True)
    for name in args.routes or ROUTES:
        if name not in ZENSICAL_ROUTES or not args.zensical:
            report(name, route(name, args.edits, first=args.first))
            continue
        for exe in args.zensical:
            report(f"{name} [zensical {version(exe)}]", route(name, args.edits, exe, args.first))
    print("load:", os.getloadavg(), f"on {os.cpu_count()} cores;",
          subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main(sys.argv[1:])
