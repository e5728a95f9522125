"""`build --out` never half-writes, never writes through a link, and survives signals (issue 11, class 6)."""
from __future__ import annotations

import os
import signal
import stat
import threading
from pathlib import Path

import pytest

from generators import output
from generators.cli import main


def build(tree: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["--root", str(tree), "build", "--out", str(out)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".atlas-staging-" in p.name or ".atlas-old-" in p.name)


def complete(out: Path) -> bool:
    return all((out / page).is_file() for page in ("index.md", "chapters/demo.md", "formats/fmt-int4.md", output.MARKER))


@pytest.mark.parametrize("make, message", [
    (lambda p: p.write_text("x"), "the output path is a file, not a folder; choose a new or empty folder"),
    (lambda p: os.symlink(p.parent / "elsewhere", p), "the output path is a symbolic link; give the real folder"),
    (lambda p: (p.mkdir(), (p / "notes.txt").write_text("mine")),
     "output folder is not empty and was not written by this command; choose an empty or new folder"),
])
def test_refused_targets(tree, tmp_path, capsys, make, message):
    (tmp_path / "elsewhere").mkdir()
    out = tmp_path / "out"
    make(out)
    code, printed, _ = build(tree, out, capsys)
    assert (code, printed) == (1, f"{out}:1:1: error: [output] {message}\n")
    assert list((tmp_path / "elsewhere").iterdir()) == [] and leftovers(tmp_path) == []


def test_missing_parents_are_created(tree, tmp_path, capsys):
    out = tmp_path / "a/b/out"
    assert build(tree, out, capsys)[0] == 0
    assert complete(out) and leftovers(out.parent) == []


def test_rebuild_replaces_an_earlier_output_and_keeps_its_permissions(tree, tmp_path, capsys):
    out = tmp_path / "out"
    assert build(tree, out, capsys)[0] == 0
    (out / "stale.md").write_text("from an earlier build")
    os.chmod(out, 0o750)
    assert build(tree, out, capsys)[0] == 0
    assert complete(out) and not (out / "stale.md").exists()
    assert stat.S_IMODE(out.stat().st_mode) == 0o750
    assert leftovers(tmp_path) == []


@pytest.fixture
def sigint_as_in_a_terminal():
    """Ctrl-C raises KeyboardInterrupt, as in a terminal: a process a non-interactive shell starts in the background
    inherits SIGINT ignored (Python then installs no handler for it), and so would the suite run that way."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("sigint_as_in_a_terminal")
@pytest.mark.parametrize("signum, code, line", [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated"),
                                                (signal.SIGHUP, 129, "terminated")])
def test_signal_while_writing_leaves_the_old_output_and_no_staging(tree, tmp_path, capsys, monkeypatch, signum, code, line):
    out = tmp_path / "out"
    assert build(tree, out, capsys)[0] == 0
    (out / "old.md").write_text("the old output")
    real_fill = output._fill

    def fill_then_signal(staging, files):
        real_fill(staging, files)
        os.kill(os.getpid(), signum)
    monkeypatch.setattr(output, "_fill", fill_then_signal)
    assert build(tree, out, capsys) == (code, "", f"{line}\n")
    assert (out / "old.md").read_text() == "the old output"
    assert leftovers(tmp_path) == []


def test_signal_during_the_swap_waits_for_it(tree, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    real_swap = output._swap_into_place

    def signalled_swap(staging, target):
        os.kill(os.getpid(), signal.SIGTERM)  # held until the swap is done
        real_swap(staging, target)
    monkeypatch.setattr(output, "_swap_into_place", signalled_swap)
    assert build(tree, out, capsys) == (143, "", "terminated\n")
    assert complete(out) and leftovers(tmp_path) == []


def test_concurrent_builds_leave_one_complete_output(tree, tmp_path):
    out = tmp_path / "out"
    results: list[list] = []
    threads = [threading.Thread(target=lambda: results.append(output.write_markdown_tree(tree, out))) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [[], [], []]
    assert complete(out) and leftovers(tmp_path) == []
