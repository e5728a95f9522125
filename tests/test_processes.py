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
    assert processes.become_subreaper()
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
    assert processes.become_subreaper()
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
