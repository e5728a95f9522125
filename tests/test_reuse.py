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


# (file, old text, new text): one edit of each record kind (every kind has pages), each reaching what a page shows of
# it, several the answers (a trap's formats, a published cell, a scheme's config, a target's capability, the engine's
# release); the observation is the crafted one of test_observed_cells, added first
KIND_EDITS = [
    ("records/formats/fmt-int4.yaml", "weight_bits: 4", "weight_bits: 3"),
    ("records/accelerators/acc-old.yaml", "tflops: 300", "tflops: 310"),
    ("records/hardware-targets/gpu-sm80.yaml", "compute_capability: 80", "compute_capability: 86"),
    ("records/kernels/k-generic.yaml", "value: 80,", "value: 86,"),
    ("records/engines/eng.yaml", "version_read: '1.0'", "version_read: '1.1'"),
    ("records/schemes/sch-w4a16.yaml", "group_sizes: [128]", "group_sizes: [64, 128]"),
    ("records/support-matrices/pub-table.yaml", "{label: Ampere,", "{label: Ampere GPUs,"),
    ("records/gotchas/trap-silent.yaml", "formats: [fmt-fp4]", "formats: [fmt-int4]"),
    ("records/benchmarks/b-quant.yaml", "summary: Quantized run.", "summary: Quantized run, edited."),
    ("records/findings/cpu-cell-wrong.yaml", "conclusion: The", "conclusion: Edited. The"),
    ("records/techniques/calib.yaml", "applies_to: [fmt-int4]", "applies_to: [fmt-int4, fmt-fp4]"),
    ("records/terms/block-scales.yaml", "spellings: [block scales]", "spellings: [block scales, AMX route]"),
    ("records/sources/src-doc.yaml", "url: https://example.org/table", "url: https://example.org/table2"),
    ("records/observations/eng-1-0-h1.yaml", "summary: A crafted", "summary: An edited crafted"),
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


@pytest.mark.usefixtures("no_disk_cache")
def test_an_edit_of_each_record_kind_gives_every_file_a_full_build_gives(tmp_path: Path) -> None:
    from generators.kinds import FOLDER_OF_KIND

    from .test_observed_cells import OBSERVATION
    tree = make_tree(tmp_path / "tree")
    (tree / "records/observations").mkdir()
    (tree / "records/observations/eng-1-0-h1.yaml").write_text(OBSERVATION, encoding="utf-8")
    edit(tree, "records/engines/eng.yaml", "category: serving-engine", "category: serving-engine\nversion_read: '1.0'")
    memo = PageMemo()
    assert built(tree, memo) == built(tree, None)
    for rel, old, new in KIND_EDITS:
        edit(tree, rel, old, new)
        incremental, full = built(tree, memo)[0], built(tree, None)[0]
        assert full and incremental == full, rel
    assert {rel.split("/")[1] for rel, _, _ in KIND_EDITS} == set(FOLDER_OF_KIND.values())


@pytest.mark.usefixtures("no_disk_cache")
def test_only_the_answers_that_read_an_edit_are_computed_again(tmp_path: Path) -> None:
    tree = make_tree(tmp_path / "tree")
    memo = PageMemo()
    built(tree, memo)
    assert memo.reuse is not None
    answers = [done for done in memo.reuse.computed if done.startswith("entry answers")]
    assert len(answers) == 3  # the scheme on each of the three targets
    edit(tree, "records/hardware-targets/gpu-sm90.yaml", "summary: ", "summary: Edited. ")
    built(tree, memo)  # of the answers, only the one on gpu-sm90 reads that target
    assert [done for done in memo.reuse.computed if done.startswith("entry")] == [
        "entry answers ('sch-w4a16', 'gpu-sm90')"]
    edit(tree, "records/support-matrices/pub-table.yaml", "{label: Ampere,", "{label: Ampere GPUs,")
    built(tree, memo)  # a published table every answer it covers cites
    assert len([done for done in memo.reuse.computed if done.startswith("entry")]) == 3
    assert built(tree, memo) == built(tree, None)


def test_an_answer_computed_again_alike_is_the_last_one_and_so_is_the_view(tmp_path: Path) -> None:
    from generators.build import check_stages
    from generators.reuse import ReuseMemo
    tree = make_tree(tmp_path / "tree")
    reuse = ReuseMemo()
    first = check_stages(tree, reuse=reuse).atlas.views.answers  # type: ignore[union-attr]
    edit(tree, "records/hardware-targets/gpu-sm90.yaml", "summary: ", "summary: Edited. ")
    again = check_stages(tree, reuse=reuse).atlas.views.answers  # type: ignore[union-attr]
    assert "view answers" in reuse.computed and again is first
    edit(tree, "records/gotchas/trap-silent.yaml", "formats: [fmt-fp4]", "formats: [fmt-int4]")
    changed = check_stages(tree, reuse=reuse).atlas.views.answers  # type: ignore[union-attr]
    assert changed is not first and changed == check_stages(tree).atlas.views.answers  # type: ignore[union-attr]
    assert all(changed[key].traps != first[key].traps for key in first if key[1] != "cpu-avx512")


@pytest.mark.usefixtures("no_disk_cache")
def test_a_pages_check_reading_the_commits_is_checked_again_when_they_change(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages checks run after the atlas is given its commits (build._render_stages): one that reads them is reused
    only while they are the same, as a page reading them is, and fingerprinting them does not crash."""
    from generators import build, checks
    from generators.checks.base import PAGES, Check
    from generators.problems import Problem

    def run(atlas):  # type: ignore[no-untyped-def]
        yield Problem("records/x.yaml", 1, 1, "commits-seen", f"{len(atlas.commits)} commits, cut {atlas.history_cut}",
                      "warning")
    monkeypatch.setattr(checks, "REGISTRY", [*checks.REGISTRY, Check("commits-seen", "-", "tree", run=run, stage=PAGES)])
    from generators.reuse import ReuseMemo
    tree = make_tree(tmp_path / "tree")
    memo = PageMemo(reuse=ReuseMemo())

    def seen(commits: tuple[object, ...], cut: str | None) -> list[str]:
        found = build.run_pipeline(tree, memo=memo, commits=commits, history_cut=cut).problems  # type: ignore[arg-type]
        return [problem.message for problem in found if problem.rule == "commits-seen"]
    assert seen((), None) == ["0 commits, cut None"]
    assert seen(("a",), "abc") == ["1 commits, cut abc"]
    assert seen(("a",), "abc") == ["1 commits, cut abc"] and "check commits-seen" not in memo.reuse.computed
    assert seen((), None) == ["0 commits, cut None"]
