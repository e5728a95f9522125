"""Views and check results reused between the runs of a long-lived process (generators/reuse.py) change nothing but
time: after each edit, every generated file and every problem equals a full build's, byte for byte; and only what
read the edit is computed again."""
from __future__ import annotations

from pathlib import Path

import pytest

from generators import site_cache
from generators.recording import EVERYTHING, _Reads, _RecordingIndex
from generators.render.memo import PageMemo

from .conftest import make_tree
from .test_page_memo import edit

NEW_SOURCE = "name: New source\nsummary: A new one.\ntype: docs\nurl: https://example.org/new\n"
# (file, old text, new text), applied in turn. Each kind of input: a summary (one format's pages), a format's stated
# support (a check fails, then passes again), a kernel's requirement (cells, answers, every page reading them), a
# name (every link to it), a schema, a layout, a chapter; then records added and removed.
EDITS = [
    ("records/formats/fmt-fp4.yaml", "summary: ", "summary: Edited. "),
    ("records/formats/fmt-fp4.yaml", "  - accelerators: [acc-old]", "  - accelerators: [acc-big]"),
    ("records/formats/fmt-fp4.yaml", "  - accelerators: [acc-big]\n    sources: [{source: src-doc}]\nsources",
     "  - accelerators: [acc-old]\n    sources: [{source: src-doc}]\nsources"),
    ("records/kernels/k-generic.yaml", "values: [float16]", "values: [float16, bfloat16]"),
    ("records/kernels/k-cpu.yaml", "name: CPU kernel", "name: CPU kernel, renamed"),
    ("schema/format.schema.json", '"description": "', '"description": "Edited. '),
    ("docs/_templates/record.md.j2", "\n", "\n<!-- layout edited -->\n"),
    ("docs/chapters/demo.md.j2", "\n", "\nEdited.\n"),
]


def built(tree: Path, memo: PageMemo | None) -> tuple[dict[str, str], list[str]]:
    generated = site_cache.generate(tree, memo=memo)
    return generated.files, [str(problem) for problem in generated.problems]


@pytest.fixture
def no_disk_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ATLAS_CACHE", "off")  # every full build runs the pipeline from scratch


@pytest.mark.usefixtures("no_disk_cache")
def test_every_file_and_problem_equals_a_full_build_after_every_edit(tmp_path: Path) -> None:
    tree = make_tree(tmp_path / "tree")
    memo = PageMemo()
    assert built(tree, memo) == built(tree, None)
    failed = 0
    for rel, old, new in EDITS:
        edit(tree, rel, old, new)
        incremental, full = built(tree, memo), built(tree, None)
        assert incremental == full, rel
        failed += not full[0]
    assert failed == 1  # the stated support edit fails a check; the edit after it repairs the tree
    (tree / "records/sources/src-new.yaml").write_text(NEW_SOURCE, encoding="utf-8")
    assert built(tree, memo) == built(tree, None)
    (tree / "records/sources/src-new.yaml").unlink()
    (tree / "records/techniques/calib.yaml").unlink()
    assert built(tree, memo) == built(tree, None)


@pytest.mark.usefixtures("no_disk_cache")
def test_only_the_views_and_checks_that_read_an_edit_are_computed_again(tmp_path: Path) -> None:
    tree = make_tree(tmp_path / "tree")
    memo = PageMemo()
    built(tree, memo)
    assert memo.reuse is not None and "view cells" in memo.reuse.computed
    built(tree, memo)
    assert memo.reuse.computed == []  # nothing changed: every view and check result is the last run's
    edit(tree, *EDITS[0])  # a format's summary: the cells read kernels, schemes, targets and engines only
    built(tree, memo)
    assert "view tallies" in memo.reuse.computed and "view cells" not in memo.reuse.computed
    assert "check stated-support" in memo.reuse.computed  # (it reads every format)
    assert not any(done.startswith("check kernel-operands") for done in memo.reuse.computed)
    edit(tree, *EDITS[3])  # a kernel's requirement
    built(tree, memo)
    assert "view cells" in memo.reuse.computed and "view tallies" not in memo.reuse.computed
    assert "check kernel-operands kernel/k-generic" in memo.reuse.computed  # (a check of each kernel apart)
    assert "check kernel-operands kernel/k-cpu" not in memo.reuse.computed


def test_a_reader_of_the_kinds_or_gaps_notes_them_and_anything_else_reads_everything(tmp_path: Path) -> None:
    from generators.build import check_stages
    tree = make_tree(tmp_path / "tree")
    index = check_stages(tree).atlas.index  # type: ignore[union-attr]
    reads = _Reads()
    recording = _RecordingIndex(index, reads)
    assert sorted(recording.by_kind) == sorted(index.by_kind) and recording.by_kind["format"] is index.by_kind["format"]
    assert recording.gaps is index.gaps
    assert reads.found == {("kinds",), ("kind", "format"), ("gaps",)}
    list(recording.by_kind.items())
    assert EVERYTHING in reads.found


@pytest.mark.usefixtures("no_disk_cache")
def test_a_link_to_a_record_reads_its_name_so_a_chapter_renders_again_on_a_rename_not_on_another_edit(
        tmp_path: Path) -> None:
    tree = make_tree(tmp_path / "tree")
    memo = PageMemo()
    built(tree, memo)
    chapter = memo.pages["chapters/demo.md"]  # links to acc-big: {{ ref('accelerator', 'acc-big') }}
    edit(tree, "records/accelerators/acc-big.yaml", "summary: ", "summary: Edited. ")
    built(tree, memo)
    assert memo.pages["chapters/demo.md"] is chapter
    edit(tree, "records/accelerators/acc-big.yaml", "name: ", "name: Renamed ")
    files, _ = built(tree, memo)
    assert memo.pages["chapters/demo.md"] is not chapter and "Renamed " in files["chapters/demo.md"]
