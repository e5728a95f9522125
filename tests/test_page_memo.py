"""The page memo of long-lived processes (render/memo.py) changes nothing but time: after each edit, the pages
rendered with the memo equal a fresh render of the same tree, and only pages that read the edit render again."""
from __future__ import annotations

from pathlib import Path

import pytest

from generators.build import run_pipeline
from generators.render.api import api_files
from generators.render.memo import PageMemo

from .conftest import make_tree

# (file, old text, new text): a summary (its own page), a name (the pages linking to it), a kernel's
# requirement (cells: scheme, target and format pages, chapters), a layout (every page), a new record. Each edit
# leaves a tree that builds: a failing run has no pages, and comparing none with none would prove nothing.
EDITS = [
    ("records/formats/fmt-fp4.yaml", "summary: ", "summary: Edited. "),
    ("records/kernels/k-cpu.yaml", "name: CPU kernel", "name: CPU kernel, renamed"),
    ("records/kernels/k-generic.yaml", "values: [float16]", "values: [float16, bfloat16]"),
    ("docs/_templates/record.md.j2", "\n", "\n<!-- layout edited -->\n"),
]


def edit(tree: Path, rel: str, old: str, new: str) -> None:
    path = tree / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, rel
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_pages_with_the_memo_equal_a_fresh_render_after_every_edit(tmp_path):
    tree = make_tree(tmp_path / "tree")
    memo = PageMemo()
    first = run_pipeline(tree, memo=memo)
    assert first.pages and not first.failed and memo.reused == 0
    api_files(first.atlas, memo)
    again = run_pipeline(tree, memo=memo)
    assert again.pages == first.pages and memo.rendered == 0  # nothing changed: every page reused
    for rel, old, new in EDITS:
        edit(tree, rel, old, new)
        with_memo = run_pipeline(tree, memo=memo)
        fresh = run_pipeline(tree)
        assert fresh.pages and not fresh.failed, rel
        assert with_memo.pages == fresh.pages, rel
        assert api_files(with_memo.atlas, memo) == api_files(fresh.atlas), rel
        assert [str(p) for p in with_memo.problems] == [str(p) for p in fresh.problems], rel
        assert memo.rendered > 0, rel
    (tree / "records/sources/src-new.yaml").write_text(
        "name: New source\nsummary: A new one.\ntype: docs\nurl: https://example.org/new\n", encoding="utf-8")
    assert run_pipeline(tree, memo=memo).pages == run_pipeline(tree).pages


def test_a_summary_edit_renders_only_the_pages_that_read_the_record(tmp_path):
    tree = make_tree(tmp_path / "tree")
    memo = PageMemo()
    total = len(run_pipeline(tree, memo=memo).pages)
    edit(tree, *EDITS[0])
    run_pipeline(tree, memo=memo)
    assert 0 < memo.rendered < total / 2 and memo.rendered + memo.reused == total


@pytest.mark.parametrize("record_pages", [False, True])
def test_problems_of_a_reused_page_are_reported_again(tmp_path, record_pages):
    tree = make_tree(tmp_path / "tree")
    edit(tree, "docs/chapters/demo.md.j2", "\n", "\n{{ no_such_name }}\n")
    memo = PageMemo()
    first = [str(p) for p in run_pipeline(tree, record_pages=record_pages, memo=memo).problems]
    assert any("no_such_name" in line for line in first)
    assert [str(p) for p in run_pipeline(tree, record_pages=record_pages, memo=memo).problems] == first


def test_a_value_that_cannot_be_serialised_never_matches_and_the_next_one_still_does(tmp_path):
    from generators.render.memo import _Prints
    tree = make_tree(tmp_path / "tree")
    prints = _Prints(run_pipeline(tree).atlas, {})
    first = prints._pickled(["link", "a"])
    assert prints._pickled([lambda: None]) is None  # the page that read it always renders
    assert prints._pickled(["link", "a"]) == first and prints._pickled(["link", "b"]) != first


def test_a_list_of_links_is_fingerprinted_by_every_field_of_every_link():
    from dataclasses import fields

    from generators.model.index import Link
    from generators.render.memo import _all_links, _links_print
    assert [f.name for f in fields(Link)] == ["source", "path", "target"]  # what _links_print writes
    links = [Link("formats/a", "engines[0]", "engines/b"), Link("formats/a", "kernels[1]", "kernels/c")]
    seen = {_links_print(links), _links_print(links[:1]), _links_print([]), _links_print(links[::-1])}
    for field in ("source", "path", "target"):
        changed = [Link(**{**vars(links[0]), field: getattr(links[0], field) + "x"}), links[1]]
        seen.add(_links_print(changed))
    seen.add(_links_print([Link("a", "b", "c1,1,1:d"), Link("e", "f", "g")]))
    seen.add(_links_print([Link("a", "b", "c"), Link("d", "e", "f1,1,1:g")]))
    seen.add(_links_print([Link("a", "b", "c"), Link("d", "e", "f"), Link("g", "", "")]))
    assert len(seen) == 10
    assert _all_links(links) and not _all_links(None) and not _all_links(tuple(links)) and not _all_links([*links, 1])


def test_a_record_fingerprints_alike_whether_or_not_its_node_tree_and_digest_were_computed(tmp_path):
    from generators.render.memo import _Prints
    tree = make_tree(tmp_path / "tree")
    atlas = run_pipeline(tree, docs_dir=None).atlas
    record = atlas.index.must("format", "fmt-fp4")
    prints = _Prints(atlas, {})
    before = prints._pickled([record])
    assert record.position(("name",)) and record.text_digest and "_node" in vars(record)
    assert prints._pickled([record]) == before
    edited = type(record)(record.kind, record.id, record.path, record.data, record.text + "# edited\n")
    assert edited.text_digest != record.text_digest


def test_a_round_on_the_same_atlas_starts_from_the_fingerprints_of_the_round_before_but_names(tmp_path):
    """The API's round after the pages' round on one atlas starts from the fingerprints the pages computed, name reads
    left out (another round may be given other names), and each is what a round of its own computes; a round on
    another atlas starts afresh."""
    from generators.render.memo import _Prints

    tree = make_tree(tmp_path / "tree")
    memo = PageMemo()
    run = run_pipeline(tree, memo=memo)
    api_round = memo.begin(run.atlas, {}, {}, part="api")
    kept = dict(api_round.prints.known)
    assert any(read[0] == "view" for read in kept) and any(read[0] == "record" for read in kept)
    assert not any(read[0] == "name" for read in kept)
    assert kept == {read: _Prints(run.atlas, {}).of(read) for read in kept}
    assert memo.begin(run_pipeline(tree).atlas, {}, {}, part="api").prints.known == {}


def test_a_regrouped_view_reads_only_the_view_it_regroups_and_its_fingerprint_follows_that_one(tmp_path):
    """derive.REGROUPED: the memo fingerprints answers_by_scheme and cells_by_target by the view each regroups, which
    holds only while each reads that view alone; and a change to that view's value must change the fingerprint."""
    from generators.build import check_stages
    from generators.derive import REGROUPED, VIEW_NAMES
    from generators.render.memo import _Prints
    from generators.reuse import ReuseMemo

    tree = make_tree(tmp_path / "tree")
    atlas = check_stages(tree).atlas
    reuse = ReuseMemo()
    views = reuse.views_of(atlas.index, atlas.schemas)
    for name, regrouped in REGROUPED.items():
        assert name in VIEW_NAMES and regrouped in VIEW_NAMES
        getattr(views, name)
        assert set(reuse._round.views[name].reads) == {("view", regrouped)}, name

    def prints(atlas):
        found = _Prints(atlas, {})
        return {name: found.of(("view", name)) for name in [*REGROUPED, *REGROUPED.values()]}

    before = prints(atlas)
    assert None not in before.values()
    edit(tree, "records/formats/fmt-fp4.yaml", "summary: ", "summary: Edited. ")  # no cell or answer reads it
    assert prints(check_stages(tree).atlas)["cells_by_target"] == before["cells_by_target"]
    edit(tree, "records/kernels/k-generic.yaml", "values: [float16]", "values: [float16, bfloat16]")  # cells move
    after = prints(check_stages(tree).atlas)
    assert after["cells"] != before["cells"] and after["cells_by_target"] != before["cells_by_target"]
    assert after["answers"] != before["answers"] and after["answers_by_scheme"] != before["answers_by_scheme"]
