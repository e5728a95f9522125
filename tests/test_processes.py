"""The suite's own check that no test leaves a process running (tests/processes.py, conftest.py)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from . import processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="child subreapers are Linux's")


@pytest.fixture(autouse=True)
def _subreaper():
    """Where this process cannot adopt orphans or list its children (a sandbox without the prctl, a kernel without
    /proc/PID/task/TID/children) the suite runs unchecked; these tests have nothing to test there."""
    if not (processes.become_subreaper() and processes.supported()):
        pytest.skip("this process cannot adopt orphans or list its children here")


def _until(test, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while not test():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def test_a_process_whose_parent_exited_is_adopted_and_seen():
    """A shell that starts a process in the background and exits: the process is left to the test's process, where
    the check after each test sees it (init would have taken it unseen)."""
    before = set(processes.children())
    shell = subprocess.run(["sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!"], capture_output=True, text=True, check=True)
    orphan = int(shell.stdout)
    try:
        assert orphan not in before and _until(lambda: orphan in processes.children())
    finally:
        os.kill(orphan, signal.SIGKILL)
        os.waitpid(orphan, 0)
    assert orphan not in processes.children()


def test_release_ends_a_kept_session_with_every_process_it_started():
    """A kept process's own session, and a process it started that left the session (as Chromium's crash handlers do),
    are its own while it is kept, and gone when it is released."""
    environment = processes.kept_environment()
    process = subprocess.Popen(["sh", "-c", "sleep 30 & setsid sleep 30 & echo $! && wait"], start_new_session=True,
                               env=environment, stdout=subprocess.PIPE, text=True)
    processes.keep(process, environment)
    assert process.stdout is not None
    away = int(process.stdout.readline())
    process.stdout.close()
    assert _until(lambda: processes._stat(away) is not None and processes._stat(away)[1] == away)  # its own session
    assert processes.kept(process.pid, process.pid) and processes.kept(away, away)
    assert not processes.kept(os.getpid(), os.getsid(0))
    processes.release(process)
    assert process.returncode == -signal.SIGKILL and not processes.kept(away, away)
    assert processes._stat(away) is None or processes._stat(away)[0] in "ZX"
    with pytest.raises(ProcessLookupError):
        os.killpg(process.pid, 0)


def test_a_left_process_is_named_by_pid_and_name_only_and_ended_with_what_it_started():
    """The report names a process by pid and name, never its arguments (which may carry paths from outside the
    repository); ending it ends the processes it started too, which come to this process as it dies."""
    before = processes.children()
    shell = subprocess.Popen(["sh", "-c", "sleep 30 & sleep 30 & wait", "private-argument"], stdout=subprocess.DEVNULL)
    def its_children() -> list[str]:
        try:
            with open(f"/proc/{shell.pid}/task/{shell.pid}/children", encoding="ascii") as handle:
                return handle.read().split()
        except OSError:
            return []
    assert _until(lambda: len(its_children()) == 2)
    left = {pid: facts for pid, facts in processes.children().items() if pid not in before}
    assert list(left) == [shell.pid]
    assert processes.describe(list(left)) == f"{shell.pid} (sh)"
    ended = processes.end_left(left, lambda pid, session, started: pid in before)
    assert shell.pid in ended and len(ended) == 3
    assert set(processes.children()) == set(before)
    shell.wait()


def test_a_signal_reaches_only_the_process_that_started_when_it_was_seen():
    """A pid seen once and given later to another process: the other process is spared."""
    process = subprocess.Popen(["sleep", "30"])
    try:
        started = processes._stat(process.pid)[2]
        assert not processes.signal_process(process.pid, started + 1)
        assert process.poll() is None
        assert processes.signal_process(process.pid, started)
        assert process.wait(10) == -signal.SIGKILL
    finally:
        process.kill()
        process.wait()
    assert not processes.signal_process(process.pid, started)


def leaves_a_process_running():  # (not a test's name: collected only by the test below, in a pytest of its own)
    """Leaves a shell running in a session of its own, with a process of its own, the shell's pid in the file
    ATLAS_TEST_LEAVE_PROCESS names."""
    shell = subprocess.run(["sh", "-c", "setsid sh -c 'sleep 30; true' private-argument >/dev/null 2>&1 & echo $!"],
                           capture_output=True, text=True, check=True)
    with open(os.environ["ATLAS_TEST_LEAVE_PROCESS"], "w", encoding="ascii") as handle:
        handle.write(shell.stdout)
    assert _until(lambda: processes._name(int(shell.stdout)) == "sh")  # setsid has become the shell


def test_a_test_that_leaves_a_process_running_fails_at_teardown_and_the_process_is_ended(tmp_path):
    """The whole check, run as the suite runs it: the test errors at teardown, naming the process by pid and name.

    The inner pytest is given a folder of its own (--basetemp): in a numbered folder of its own it would first remove
    the runs' old numbered folders (conftest.py's pytest_sessionstart, in a thread it waits for before exiting): those
    of earlier runs, hundreds of megabytes, which took this test 8 to 100 s on a machine shared with other runs."""
    record = tmp_path / "pid"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n0", "-p", "no:cacheprovider", "-o",
                          "python_functions=leaves_*", f"--basetemp={tmp_path / 'inner'}",
                          f"{__file__}::leaves_a_process_running"],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "ATLAS_TEST_LEAVE_PROCESS": str(record)},
                         cwd=os.path.dirname(os.path.dirname(__file__)))
    pid = int(record.read_text(encoding="ascii"))
    assert run.returncode == 1 and "1 passed, 1 error" in run.stdout, run.stdout + run.stderr
    assert f"processes left running after the test (killed): {pid} (sh)" in run.stdout
    assert "private-argument" not in run.stdout + run.stderr
    assert processes._stat(pid) is None or processes._stat(pid)[0] in "ZX" or processes._stat(pid)[1] != pid
