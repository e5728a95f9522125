"""Every process a test starts is gone when the test ends; a fixture that keeps one for longer ends it in its teardown.

Each process that runs tests (an xdist worker, or pytest itself with -n0) is made a child subreaper on Linux: a
process its descendants leave behind (a grandchild whose parent exited, a daemon that forked away) becomes its child
rather than init's, so what a test leaves running is found among its own children (/proc/self/task/*/children), however
deeply it was started. conftest.py checks that after every test, and after the last test, when every fixture has been
torn down, that no child is left at all. A fixture that keeps a process past one test (the site build, the browser)
starts it in a session of its own with `kept_environment()` and hands it to `keep`: what it starts is its own, also a
process that leaves the session (Chromium's crash handlers start sessions of their own) but keeps the environment.
`release` ends the whole session and every process of that environment, and waits until none of it is left.
"""
from __future__ import annotations

import contextlib
import ctypes
import glob
import os
import signal
import subprocess
import sys
import time

_PR_SET_CHILD_SUBREAPER = 36
TAG = "ATLAS_TEST_KEPT"  # the environment variable that marks a kept process and what it starts
KEPT: set[int] = set()  # the session ids of the processes fixtures keep past one test
_TAGS: dict[int, str] = {}  # each kept session's tag


def kept_environment(environment: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a process a fixture will keep: marked, so that what it starts is known as its own."""
    return {**(os.environ if environment is None else environment), TAG: f"{os.getpid()}-{len(_TAGS) + len(KEPT)}-{time.monotonic_ns()}"}


def _tag(pid: int) -> str | None:
    """The kept-process mark in a process's environment (a process may overwrite it, as Chromium's zygotes do)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            environment = handle.read()
    except OSError:
        return None
    for entry in environment.split(b"\0"):
        if entry.startswith(TAG.encode() + b"="):
            return entry[len(TAG) + 1:].decode(errors="replace")
    return None


def kept(pid: int, session: int) -> bool:
    """Whether a living process belongs to one a fixture keeps: in its session, or started by it (its environment)."""
    return session in KEPT or (bool(_TAGS) and _tag(pid) in _TAGS.values())


def become_subreaper() -> bool:
    """Whether this process now adopts the processes its descendants leave behind (Linux only)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return bool(ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and session id, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rpartition(")")[2].split()
    except OSError:
        return None
    return fields[0], int(fields[3])


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode(errors="replace").strip()[:200] or f"pid {pid}"
    except OSError:
        return f"pid {pid}"


def children() -> dict[int, int]:
    """This process's living children (zombies left out), each with its session id; {} where /proc cannot tell."""
    pids: set[int] = set()
    for path in glob.glob(f"/proc/{os.getpid()}/task/*/children"):
        try:
            with open(path, encoding="ascii") as handle:
                pids.update(int(pid) for pid in handle.read().split())
        except OSError:
            continue
    living = {}
    for pid in pids:
        stat = _stat(pid)
        if stat is not None and stat[0] not in "ZX":
            living[pid] = stat[1]
    return living


def describe(pids: list[int]) -> str:
    return "; ".join(f"{pid}: {_command(pid)}" for pid in sorted(pids))


def keep(process: subprocess.Popen, environment: dict[str, str]) -> None:  # type: ignore[type-arg]
    """A process started with start_new_session=True and `environment` (from kept_environment) that a fixture keeps
    past one test, with all it starts."""
    KEPT.add(process.pid)
    _TAGS[process.pid] = environment[TAG]


def _reap_adopted() -> None:
    """Reap the exited processes left to this process (a subreaper adopts them, and nothing else waits for them): its
    zombie children other than the kept processes' leaders, which their Popen waits for. Called as a kept process is
    released, when no test's own process is running."""
    for path in glob.glob(f"/proc/{os.getpid()}/task/*/children"):
        try:
            with open(path, encoding="ascii") as handle:
                pids = [int(pid) for pid in handle.read().split()]
        except OSError:
            continue
        for pid in pids:
            stat = _stat(pid)
            if pid not in KEPT and stat is not None and stat[0] == "Z":
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)


def _marked(tag: str) -> list[int]:
    """Every living process whose environment carries the tag."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _tag(int(entry)) == tag:
            stat = _stat(int(entry))
            if stat is not None and stat[0] not in "ZX":
                found.append(int(entry))
    return found


def release(process: subprocess.Popen, seconds: float = 30.0) -> None:  # type: ignore[type-arg]
    """End the kept process's whole session (it has been asked to stop, or has stopped) and every process started
    with its mark, and wait until none of it is left: the leader reaped, every other process gone."""
    group, tag = process.pid, _TAGS.get(process.pid)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)
    process.wait()
    KEPT.discard(group)
    deadline = time.monotonic() + seconds
    while True:
        marked = _marked(tag) if tag is not None and os.path.isdir("/proc") else []
        for pid in marked:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        _reap_adopted()
        try:
            os.killpg(group, 0)
        except (ProcessLookupError, PermissionError):
            if not marked:
                break
        if time.monotonic() > deadline:
            raise AssertionError(f"processes of session {group} or marked {tag} were still there {seconds:.0f} s after SIGKILL")
        time.sleep(0.01)
    _TAGS.pop(group, None)
