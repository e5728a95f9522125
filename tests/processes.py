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


def _stat(pid: int) -> tuple[str, int, int] | None:
    """A process's state letter, session id and start time (which tells a process from a later one given its pid), or
    None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rpartition(")")[2].split()
        return fields[0], int(fields[3]), int(fields[19])
    except (OSError, IndexError, ValueError):
        return None


def _name(pid: int) -> str:
    """A process's name only (its command line may carry paths or secrets from outside the repository)."""
    try:
        with open(f"/proc/{pid}/comm", "rb") as handle:
            name = handle.read().decode(errors="replace").strip()
    except OSError:
        return "gone"
    return "".join(c if c.isprintable() else "?" for c in name)[:16] or "?"


def signal_process(pid: int, started: int | None, signum: int = signal.SIGKILL) -> bool:
    """Send a signal to the process PID if it is still the one that started at STARTED (any process of that pid when
    None), never to a later process given the same pid; whether it was sent. Where pidfds exist the process is pinned
    first, then checked, then signalled through the pin, so a pid freed and reused meanwhile is never hit."""
    pidfd = None
    if hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal"):
        try:
            pidfd = os.pidfd_open(pid)
        except ProcessLookupError:
            return False
        except OSError:  # no pidfds in this kernel or sandbox
            pidfd = None
    try:
        if started is not None:
            stat = _stat(pid)
            if stat is None or stat[2] != started:
                return False
        if pidfd is not None:
            signal.pidfd_send_signal(pidfd, signum)  # after the check, so the pin shows it was that process
        else:
            os.kill(pid, signum)
        return True
    except (ProcessLookupError, PermissionError):
        return False
    finally:
        if pidfd is not None:
            os.close(pidfd)


def supported() -> bool:
    """Whether this process can list its children (/proc/PID/task/TID/children, Linux with CONFIG_PROC_CHILDREN)."""
    return os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")


def children() -> dict[int, tuple[int, int]]:
    """This process's living children (zombies left out), each with its session id and start time; {} where /proc
    cannot tell."""
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
            living[pid] = stat[1], stat[2]
    return living


def describe(pids: list[int]) -> str:
    """Each process by pid and name, nothing more."""
    return "; ".join(f"{pid} ({_name(pid)})" for pid in sorted(pids))


def end_left(left: dict[int, tuple[int, int]], spared) -> list[int]:
    """Kill the children LEFT and wait for them, then any process they had started, which comes to this process as they
    die, unless SPARED(pid, session, started) (a child it had before, or one a fixture keeps); every pid ended."""
    ended: list[int] = []
    for _ in range(100):
        if not left:
            break
        for pid, (_, started) in sorted(left.items()):
            signal_process(pid, started)
        for pid in sorted(left):
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)  # a child: its pid is not reused before this
        ended.extend(sorted(left))
        left = {pid: facts for pid, facts in children().items() if pid not in ended and not spared(pid, *facts)}
    return ended


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


def _members(session: int, tag: str | None) -> dict[int, int]:
    """Every living process of the session, or whose environment carries the tag, with its start time."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is None or stat[0] in "ZX":
                continue
            if stat[1] == session or (tag is not None and _tag(int(entry)) == tag):
                found[int(entry)] = stat[2]
    return found


def release(process: subprocess.Popen, seconds: float = 30.0) -> None:  # type: ignore[type-arg]
    """End the kept process's whole session (it has been asked to stop, or has stopped) and every process started
    with its mark, and wait until none of it is left: the leader reaped, every other process gone.

    The session is killed as a group only while its leader is not yet reaped (until then no other process can be
    given its number); after that, its processes are found in /proc by session id (a session id is not reused while a
    process has it) and by mark, and each is signalled only if it is still the process found (signal_process)."""
    group, tag = process.pid, _TAGS.get(process.pid)
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)
    process.wait()
    KEPT.discard(group)
    deadline = time.monotonic() + seconds
    while True:
        if os.path.isdir("/proc"):
            members = _members(group, tag)
            for pid, started in members.items():
                signal_process(pid, started)
            _reap_adopted()
            if not members:
                break
        else:  # no /proc to tell: the group, as far as it is still a group
            try:
                os.killpg(group, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                break
        if time.monotonic() > deadline:
            raise AssertionError(f"processes of session {group} or marked {tag} were still there {seconds:.0f} s after SIGKILL")
        time.sleep(0.01)
    _TAGS.pop(group, None)
