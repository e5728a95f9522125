"""The synthetic corpus benchmarks/check_speed.py times `check` on passes `check`: a corpus with errors would time the
error path (jsonschema's messages), not the one contributors run, as happened once (a new check made 24 of its
formats fail and the 10k figure was measured on a failing tree)."""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.make_corpus import make
from generators.build import check_tree


def test_the_synthetic_corpus_checks_clean(tmp_path: Path) -> None:
    make(600, tmp_path)
    atlas, problems = check_tree(tmp_path)
    assert atlas is not None and [str(p) for p in problems] == []
    assert len(atlas.index.all("format")) > 20  # every kind is there, hardware formats included


def test_the_benchmark_times_its_own_checkout_from_any_working_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m` and `python -c` put the working folder first on sys.path, ahead of PYTHONPATH: run from another
    checkout, the commands would time that checkout's generators package. They run in a folder without one."""
    import subprocess

    from benchmarks import check_speed
    ran: list[tuple[list[str], object]] = []

    def fake_run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        ran.append((command, kwargs.get("cwd")))
        if command[0] == "/usr/bin/time":  # the report timed() reads
            Path(command[2]).write_text("0.5 0.1 0.7 1024\n", encoding="utf-8")
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(check_speed.subprocess, "run", fake_run)
    monkeypatch.setattr(check_speed.time, "sleep", lambda seconds: None)
    monkeypatch.chdir(Path(check_speed.__file__).resolve().parent.parent)  # a checkout, generators/ in it
    check_speed.measure(60, 1, False)
    assert len(ran) > 7
    assert all(cwd is not None and not (Path(str(cwd)) / "generators").exists() for _, cwd in ran), ran[0]
