"""The synthetic corpus benchmarks/check_speed.py times `check` on passes `check`: a corpus with errors would time the
error path (jsonschema's messages), not the one contributors run, as happened once (a new check made 24 of its
formats fail and the 10k figure was measured on a failing tree)."""
from __future__ import annotations

from pathlib import Path

from benchmarks.make_corpus import make
from generators.build import check_tree


def test_the_synthetic_corpus_checks_clean(tmp_path: Path) -> None:
    make(600, tmp_path)
    atlas, problems = check_tree(tmp_path)
    assert atlas is not None and [str(p) for p in problems] == []
    assert len(atlas.index.all("format")) > 20  # every kind is there, hardware formats included
