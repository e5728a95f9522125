"""`generators.diff`: what a change does to the site, on small git histories built from the mini fixture."""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from generators import diff as diff_module
from generators import gfm
from generators.derive.cells import Cell, Otherwise
from generators.diff import DiffError, DiffReport, diff_revisions
from generators.model.atlas import Atlas
from generators.model.verdicts import Verdict

from .conftest import MINI, commit, git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {rel}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")




@pytest.fixture(autouse=True)
def private_tempdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Route every temporary directory into one folder and assert the diff leaves nothing behind."""
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    yield temp
    assert list(temp.iterdir()) == [], "diff left temporary files behind"


def test_cell_flip_when_a_kernel_floor_rises(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    edit(repo, "records/kernels/k-generic.yaml", "value: 80,", "value: 90,")
    head = commit(repo, "raise the floor")
    report = diff_revisions(repo, base, head)
    assert [(c.scheme, c.target, c.old, c.new) for c in report.cells] == [("sch-w4a16", "gpu-sm80", "runs-if", "refused")]
    assert report.cells[0].old_detail == "via k-generic"
    assert "k-hopper" in report.cells[0].new_detail
    change = next(r for r in report.records if r.id == "k-generic")
    assert change.status == "changed"
    assert [(f.field, f.old, f.new) for f in change.fields] == [("requirements[0].value", 80, 90)]
    # the published table said yes for Ampere: the flip is a new disagreement and a new problem
    assert any(c.what == "published vs derived" and "disagrees" in c.new for c in report.counts)
    assert any("published-explained" in p for p in report.introduced)
    markdown = report.to_markdown()
    first = markdown.splitlines()[0]
    assert "1 cell flips" in first and "1 record changed" in first and "1 problem introduced" in first
    assert "`sch-w4a16` | `gpu-sm80` | runs-if (`via k-generic`) | refused (`" in markdown


def test_tally_change_moves_counts_and_pages(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    edit(repo, "records/accelerators/acc-cpu.yaml", "category: cpu\n",
         "category: cpu\npeak_compute:\n  - {precision: fp8, sparsity: dense, tflops: 10, source: src-doc}\n")
    head = commit(repo, "the cpu computes in fp8")
    report = diff_revisions(repo, base, head)
    assert ("acc-cpu", "native formats", 0, 1) in [(c.subject, c.what, c.old, c.new) for c in report.counts]
    assert report.cells == ()
    assert report.introduced == () and report.fixed == ()
    paths = {p.path: p for p in report.pages}
    assert "formats/fmt-fp4.md" in paths
    assert all(p.status == "changed" for p in report.pages)
    assert any(line.startswith("+") and not line.startswith("+++") for line in paths["formats/fmt-fp4.md"].diff)
    assert "```diff" in report.to_markdown()


def test_page_diff_is_cut_and_says_so() -> None:
    old = {"p.md": "\n".join(f"line {i}" for i in range(100))}
    new = {"p.md": "\n".join(f"LINE {i}" for i in range(100))}
    (page,) = diff_module.page_changes(old, new, limit=40)
    assert len(page.diff) == 40 and page.cut > 0
    report = DiffReport("a", "b", pages=(page,))
    assert f"... {page.cut} more line(s) cut" in report.to_markdown()


def test_dangling_reference_is_a_new_problem(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    edit(repo, "records/formats/fmt-fp4.yaml", "accelerators: [acc-big]", "accelerators: [acc-big, acc-gone]")
    head = commit(repo, "dangling")
    report = diff_revisions(repo, base, head)
    assert len(report.introduced) >= 1 and any("acc-gone" in p for p in report.introduced)
    assert report.fixed == ()
    assert any("head side does not build" in note for note in report.notes)
    assert report.cells == () and report.pages == ()
    assert "problem introduced" in report.summary()


def test_fixed_problem(repo: Path) -> None:
    edit(repo, "records/formats/fmt-fp4.yaml", "accelerators: [acc-big]", "accelerators: [acc-big, acc-gone]")
    base = commit(repo, "dangling")
    edit(repo, "records/formats/fmt-fp4.yaml", "accelerators: [acc-big, acc-gone]", "accelerators: [acc-big]")
    head = commit(repo, "fixed")
    report = diff_revisions(repo, base, head)
    assert report.introduced == ()
    assert any("acc-gone" in p for p in report.fixed)
    assert "problem fixed" in report.to_markdown().splitlines()[0]


def test_rename_is_reported_as_such(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    git(repo, "mv", "records/techniques/calib.yaml", "records/techniques/calib-file.yaml")
    head = commit(repo, "rename")
    report = diff_revisions(repo, base, head)
    assert [(r.kind, r.id, r.status, r.renamed_from) for r in report.records] == [
        ("technique", "calib-file", "renamed", "calib")]
    assert {p.path: p.status for p in report.pages if p.path.startswith("techniques/")} == {
        "techniques/calib.md": "removed", "techniques/calib-file.md": "added", "techniques/index.md": "changed"}
    assert "technique `calib` renamed to `calib-file`" in report.to_markdown()


def test_unbuildable_base_still_reports(repo: Path) -> None:
    edit(repo, "records/kernels/k-generic.yaml", "name: Generic kernel", "name: [Generic kernel")
    base = commit(repo, "broken yaml")
    edit(repo, "records/kernels/k-generic.yaml", "name: [Generic kernel", "name: Generic kernel")
    head = commit(repo, "repaired yaml")
    report = diff_revisions(repo, base, head)
    assert any("k-generic.yaml" in p and "[load]" in p for p in report.fixed)
    assert any("base side does not build" in note for note in report.notes)
    assert [(r.id, r.status) for r in report.records] == [("k-generic", "repaired")]
    assert report.cells == () and report.counts == () and report.pages == ()
    reverse = diff_revisions(repo, head, base)
    assert [(r.id, r.status) for r in reverse.records] == [("k-generic", "broken")]
    assert any("[load]" in p for p in reverse.introduced)


def test_working_tree_is_the_default_head(repo: Path) -> None:
    edit(repo, "records/formats/fmt-int4.yaml", "quality_note: No controlled delta is recorded.",
         "quality_note: Still no controlled delta.")
    report = diff_revisions(repo, "HEAD", None)
    assert report.head == "working tree"
    (change,) = report.records
    assert change.fields[0].field == "quality_note"
    assert any(p.path == "formats/fmt-int4.md" for p in report.pages)


def test_empty_change_gives_an_empty_report(repo: Path) -> None:
    head = commit(repo, "nothing")
    for report in (diff_revisions(repo, "HEAD~1", head), diff_revisions(repo, "HEAD", None)):
        assert report.empty
        assert report.to_markdown() == "No changes to the site."
        data = json.loads(report.to_json())
        assert data["empty"] is True and data["records"] == [] and data["pages"] == []
        assert data["problems"] == {"introduced": [], "fixed": []}


def test_json_is_deterministic_and_sorted(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    edit(repo, "records/kernels/k-generic.yaml", "value: 80,", "value: 90,")
    git(repo, "mv", "records/techniques/calib.yaml", "records/techniques/calib-file.yaml")
    head = commit(repo, "two changes")
    first = diff_revisions(repo, base, head).to_json()
    second = diff_revisions(repo, base, head).to_json()
    assert first == second
    data = json.loads(first)
    assert list(data) == sorted(data)
    assert data["summary"].startswith("1 record renamed, 1 record changed, 1 cell flips")


def test_unknown_revision(repo: Path) -> None:
    with pytest.raises(DiffError, match="unknown revision 'no-such-branch'"):
        diff_revisions(repo, "no-such-branch", None)
    with pytest.raises(DiffError, match="unknown revision"):
        diff_revisions(repo, "HEAD", "--output=/tmp/x")


def test_not_a_git_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    shutil.copytree(MINI, plain)
    ceiling = {"GIT_CEILING_DIRECTORIES": str(tmp_path)}
    with pytest.MonkeyPatch.context() as mp:
        for key, value in ceiling.items():
            mp.setenv(key, value)
        with pytest.raises(DiffError, match="not a git repository"):
            diff_revisions(plain, "HEAD", None)


def test_an_empty_report_keeps_its_notes() -> None:
    """A code-only change reads both sides' pages with the running code: the comment says so under 'No changes'."""
    from generators.diff_model import DiffReport
    note = "The base side's cells and counts come from its own code (generators/ at abc); its pages are read by the code running this diff."
    report = DiffReport(base="origin/main", head="working tree", notes=(note,))
    assert report.empty and report.to_markdown() == f"No changes to the site.\n\n> {note}"
    assert DiffReport(base="a", head="b").to_markdown() == "No changes to the site."


def test_temporaries_removed_on_error(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(root: Path):
        raise RuntimeError("boom")

    monkeypatch.setattr(diff_module, "build_side", explode)
    with pytest.raises(RuntimeError):
        diff_revisions(repo, "HEAD", "HEAD")
    # private_tempdir asserts the temporary folder is empty at teardown


def test_cli_diff(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from generators.cli import main
    assert main(["--root", str(repo), "diff", "HEAD"]) == 0
    assert capsys.readouterr().out.strip() == "No changes to the site."
    assert main(["--root", str(repo), "diff", "nope"]) == 2
    assert "unknown revision" in capsys.readouterr().err


def test_page_diff_fence_survives_code_blocks() -> None:
    (page,) = diff_module.page_changes({"p.md": "```\na\n```"}, {"p.md": "```\nb\n```"})
    markdown = DiffReport("a", "b", pages=(page,)).to_markdown()
    assert "````diff" in markdown and markdown.count("\n````\n") == 1


def test_a_broken_chapter_claim_still_shows_the_page_diff(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    edit(repo, "records/accelerators/acc-old.yaml", "  - {precision: bf16, sparsity: dense, tflops: 300, source: src-doc}\n",
         "  - {precision: bf16, sparsity: dense, tflops: 300, source: src-doc}\n"
         "  - {precision: int4, sparsity: dense, tflops: 600, source: src-doc}\n")
    head = commit(repo, "int4 native on old parts")
    report = diff_revisions(repo, base, head)
    assert any("[claim] claim native_empty('fmt-int4') no longer holds" in p for p in report.introduced)
    assert "formats/fmt-int4.md" in {p.path for p in report.pages}


# ---- cells whose verdict stays but whose terms change: what must hold, what runs otherwise ----

def _atlas(*cells: Cell) -> Atlas:
    return cast(Atlas, SimpleNamespace(views=SimpleNamespace(cells={(c.scheme, c.target): c for c in cells})))


def _runs_if(conditions: tuple[str, ...], *otherwise: Otherwise, verdict: Verdict = Verdict.RUNS_IF) -> Cell:
    return Cell("eng", "sch", "gpu", verdict, "k", conditions, (), otherwise=otherwise)


NEXT = Otherwise("k", ("package p installed",), Verdict.RUNS, "k2")
NONE_LEFT = Otherwise("k", ("package p installed",), Verdict.REFUSED, None, reasons=("k2: needs 90",))


def _terms_report(old: Cell, new: Cell) -> DiffReport:
    return DiffReport("base", "head", cells=tuple(diff_module.cell_changes(_atlas(old), _atlas(new))))


def _cells_json(report: DiffReport) -> list[dict[str, object]]:
    return json.loads(report.to_json())["cells"]


def test_a_condition_that_changes_under_the_same_verdict_is_reported() -> None:
    report = _terms_report(_runs_if(("package p installed",), NEXT), _runs_if(("package q installed",), NEXT))
    assert report.summary() == "1 cell changes what must hold or what runs otherwise"
    assert report.to_markdown() == (
        "**Atlas diff** `base` → `head`: 1 cell changes what must hold or what runs otherwise\n\n"
        "### What cells need, and what runs otherwise\n"
        "- `sch` on `gpu`: runs-if (`via k`)\n"
        "  - must hold, before: `package p installed`\n"
        "  - must hold, after: `package q installed`\n")
    step = {"unless": "package p installed", "kernel": "k", "outcome": "RUNS via k2"}
    assert _cells_json(report) == [{
        "scheme": "sch", "target": "gpu", "old": "runs-if", "new": "runs-if", "old_detail": "via k", "new_detail": "via k",
        "old_conditions": ["package p installed"], "new_conditions": ["package q installed"],
        "old_otherwise": [step], "new_otherwise": [step],
        "flips": False, "conditions_change": True, "otherwise_change": False, "status": "changed", "content": None}]


def test_what_runs_otherwise_that_changes_under_the_same_verdict_is_reported() -> None:
    # the same conditions failing: only the outcome that changes is shown
    report = _terms_report(_runs_if(("package p installed",), NEXT), _runs_if(("package p installed",), NONE_LEFT))
    assert report.to_markdown().split("\n\n", 1)[1] == (
        "### What cells need, and what runs otherwise\n"
        "- `sch` on `gpu`: runs-if (`via k`)\n"
        "  - otherwise, unless `package p installed` (for `k`): `RUNS via k2` → `REFUSED`\n")
    (cell,) = _cells_json(report)
    assert (cell["old_otherwise"], cell["new_otherwise"]) == (
        [{"unless": "package p installed", "kernel": "k", "outcome": "RUNS via k2"}],
        [{"unless": "package p installed", "kernel": "k", "outcome": "REFUSED"}])
    assert (cell["flips"], cell["conditions_change"], cell["otherwise_change"]) == (False, False, True)
    # other conditions failing, or another number of steps: both lists, before and after
    report = _terms_report(_runs_if(("package p installed",), NEXT),
                           _runs_if(("package p installed",), NEXT, Otherwise("k2", ("op o available",), Verdict.REFUSED, None)))
    assert report.to_markdown().split("\n\n", 1)[1] == (
        "### What cells need, and what runs otherwise\n"
        "- `sch` on `gpu`: runs-if (`via k`)\n"
        "  - otherwise, before:\n"
        "    - `unless package p installed (for k): RUNS via k2`\n"
        "  - otherwise, after:\n"
        "    - `unless package p installed (for k): RUNS via k2`\n"
        "    - `unless op o available (for k2): REFUSED`\n")


def test_both_terms_change_and_a_hostile_condition_shows_only_as_text() -> None:
    from .test_hostile_escaping import HOSTILE, OUR_TAGS, github_html
    hostile = Otherwise("k", (HOSTILE,), Verdict.FALLBACK, "k", computes_as=HOSTILE)
    report = _terms_report(_runs_if(("package p installed",), NEXT), _runs_if((HOSTILE,), hostile))
    markdown = report.to_markdown()
    lines = markdown.splitlines()
    assert lines[2:5] == ["### What cells need, and what runs otherwise", "- `sch` on `gpu`: runs-if (`via k`)",
                          "  - must hold, before: `package p installed`"]
    assert lines[5] == f"  - must hold, after: {gfm.code(HOSTILE)}" and "\n" not in gfm.code(HOSTILE)
    assert lines[6:9] == ["  - otherwise, before:", "    - `unless package p installed (for k): RUNS via k2`",
                          "  - otherwise, after:"]
    assert lines[9] == "    - " + gfm.code(f"unless {HOSTILE} (for k): FALLBACK via k: computes as: {HOSTILE}")
    assert len(lines) == 10
    page = github_html(markdown)
    assert page.tags <= OUR_TAGS, page.tags - OUR_TAGS
    outside = "".join(page.outside)
    assert "@octocat" not in outside and "e.example" not in outside and "heading" not in outside
    (cell,) = _cells_json(report)
    assert cell["new_conditions"] == [HOSTILE]
    assert cell["new_otherwise"] == [{"unless": HOSTILE, "kernel": "k", "outcome": f"FALLBACK via k: computes as: {HOSTILE}"}]
    assert (cell["flips"], cell["conditions_change"], cell["otherwise_change"]) == (False, True, True)


def test_a_flip_that_brings_conditions_shows_in_the_table_and_with_its_terms() -> None:
    report = _terms_report(_runs_if((), verdict=Verdict.RUNS), _runs_if(("package p installed",), NEXT))
    assert report.summary() == "1 cell flips"
    assert report.to_markdown().split("\n\n", 1)[1] == (
        "### Support cells\n| scheme | target | before | after |\n| --- | --- | --- | --- |\n"
        "| `sch` | `gpu` | runs (`via k`) | runs-if (`via k`) |\n\n"
        "### What cells need, and what runs otherwise\n"
        "- `sch` on `gpu`: runs (`via k`) → runs-if (`via k`)\n"
        "  - must hold, before: nothing (no condition)\n"
        "  - must hold, after: `package p installed`\n"
        "  - otherwise, before: nothing (no condition to fail)\n"
        "  - otherwise, after:\n"
        "    - `unless package p installed (for k): RUNS via k2`\n")


def test_unchanged_terms_and_a_refusals_reasons_are_no_change() -> None:
    same = _runs_if(("package p installed",), NONE_LEFT)
    reworded = _runs_if(("package p installed",), Otherwise("k", ("package p installed",), Verdict.REFUSED, None,
                                                            reasons=("k2: reworded",)))
    assert list(diff_module.cell_changes(_atlas(same), _atlas(reworded))) == []
    appears = list(diff_module.cell_changes(_atlas(), _atlas(same)))
    assert [(c.old, c.new, c.flips, c.conditions_change) for c in appears] == [("(absent)", "runs-if", True, False)]


def test_a_package_requirement_added_to_the_deciding_kernel_is_reported(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    edit(repo, "records/kernels/k-generic.yaml", "sources:\n",
         '  - {check: package, value: gen-pkg, reason: "gen-pkg is not installed", reason_verbatim: true}\nsources:\n')
    head = commit(repo, "the generic kernel needs a package")
    report = diff_revisions(repo, base, head)
    assert [(c.target, c.old, c.new, c.flips) for c in report.cells] == [("gpu-sm80", "runs-if", "runs-if", False)]
    (cell,) = report.cells
    assert cell.old_conditions == ("activation dtype in {float16}",)
    assert cell.new_conditions == ("activation dtype in {float16}", "package gen-pkg installed")
    markdown = report.to_markdown()
    assert "### Support cells" not in markdown
    assert "  - must hold, after: `activation dtype in {float16}`; `package gen-pkg installed`\n" in markdown


# ---- what a cell says: reasons, engine messages, gates, sources (cell_content.py) ----

def _reworded_sides(repo: Path, monkeypatch: pytest.MonkeyPatch, message: str) -> tuple[Any, Any]:
    """The tree built twice by the running code, the second time with the engine's failure message reworded as a
    generator change would (msg40 changed how placeholders fill: no record changed, no page moved)."""
    from generators.derive import cells as cells_module
    from generators.last_few import LastFew
    monkeypatch.setenv("ATLAS_CACHE", "off")
    base = diff_module.build_side(repo)
    real = cells_module.failure_message
    monkeypatch.setattr(cells_module, "failure_message", lambda *args: message if real(*args) else "")
    monkeypatch.setattr(cells_module, "_KEPT", LastFew())  # another code keeps none of this one's cells
    return base, diff_module.build_side(repo)


def test_an_engine_message_no_page_shows_is_a_line_naming_the_cell_and_both_texts(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base, head = _reworded_sides(repo, monkeypatch, "No kernel found for this layer")
    report = diff_module.compare(base, head, "base", "head")
    assert report.records == report.cells == report.counts == report.pages == ()  # what the diff showed: nothing
    (change,) = report.contents
    assert (change.scheme, change.target) == ("sch-w4a16", "gpu-sm80")  # the refusal if its activation test fails
    assert [(f.field, f.old, f.new) for f in change.fields] == [
        ("otherwise[k-generic].failure_message", "Failed to find a kernel", "No kernel found for this layer")]
    assert report.summary() == "1 cell changes in content"
    assert report.to_markdown().split("\n\n", 1)[1] == (
        "### What cells say (reasons, engine messages, gates, sources, ...)\n"
        "- `sch-w4a16` on `gpu-sm80`\n"
        '  - `otherwise[k-generic].failure_message`: `"Failed to find a kernel"` → `"No kernel found for this layer"`\n')
    assert json.loads(report.to_json())["cell_contents"] == [{"scheme": "sch-w4a16", "target": "gpu-sm80", "fields": [
        {"field": "otherwise[k-generic].failure_message", "old": "Failed to find a kernel",
         "new": "No kernel found for this layer", "old_absent": False, "new_absent": False}]}]


def test_a_hostile_engine_message_is_inert_in_the_pr_comment(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from .test_hostile_escaping import HOSTILE, OUR_TAGS, github_html
    hostile = HOSTILE + " | x | y |\n</details><details><summary>z\n```\n\u202e\x1b[2J"
    base, head = _reworded_sides(repo, monkeypatch, hostile)
    report = diff_module.compare(base, head, "base", "head")
    markdown = report.to_markdown()
    lines = markdown.splitlines()
    assert lines[2:4] == ["### What cells say (reasons, engine messages, gates, sources, ...)", "- `sch-w4a16` on `gpu-sm80`"]
    assert lines[4] == ('  - `otherwise[k-generic].failure_message`: `"Failed to find a kernel"` → '
                        + gfm.code(json.dumps(hostile, ensure_ascii=False))) and len(lines) == 5  # one line
    assert "\x1b" not in markdown and "\u202e" not in markdown  # nothing a terminal acts on or reorders by
    page = github_html(markdown)
    assert page.tags <= OUR_TAGS - {"details", "summary", "table"}, page.tags
    outside = "".join(page.outside)
    assert "@octocat" not in outside and "e.example" not in outside and "heading" not in outside
    text = report.to_json()
    assert "\x1b" not in text and "\u202e" not in text  # JSON escapes them too (the same value)...
    assert json.loads(text)["cell_contents"][0]["fields"][0]["new"] == hostile  # ...so it reads back the text as it is


def test_an_unchanged_tree_says_nothing_of_its_cells(repo: Path) -> None:
    base, head = diff_module.build_side(repo), diff_module.build_side(repo)
    contents = diff_module.cell_contents(head.atlas)
    assert sorted(contents) == [("sch-w4a16", t) for t in ("cpu-avx512", "gpu-sm80", "gpu-sm90")]
    assert contents[("sch-w4a16", "gpu-sm80")]["otherwise"][0]["failure_message"] == "Failed to find a kernel"
    report = diff_module.compare(base, head, "base", "head")
    assert report.empty and report.contents == () and json.loads(report.to_json())["cell_contents"] == []


def test_a_cell_content_change_is_keyed_by_kernel_and_aligned() -> None:
    from generators.field_changes import content_fields
    old = {"attempts": [{"kernel": "a", "reason": "r1"}, {"kernel": "b", "reason": "r2"}],
           "reasons": ["a: r1", "b: r2", "c: r3"], "sources": ["s1"]}
    new = {"attempts": [{"kernel": "z", "reason": "r0"}, {"kernel": "a", "reason": "r1"}, {"kernel": "b", "reason": "R2"}],
           "reasons": ["a: r1", "b: r2", "x: new", "c: r3"], "gate": "g"}
    assert [(f.field, f.old, f.new) for f in content_fields(old, new)] == [
        ("attempts[b].reason", "r2", "R2"), ("attempts[z]", None, {"kernel": "z", "reason": "r0"}),
        ("gate", None, "g"), ("reasons[2]", None, "x: new"), ("sources", ["s1"], None)]
    swapped = {"attempts": [old["attempts"][1], old["attempts"][0]]}
    assert [(f.field, f.old, f.new) for f in content_fields({"attempts": old["attempts"]}, swapped)] == [
        ("attempts (order)", ["a", "b"], ["b", "a"])]  # the engine tries them in another order: a change


def test_a_computes_in_notice_no_page_prints_is_a_line(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card's "Computes in" notice (the format map rates the format emulated on the target's parts, and how the
    kernel computes it there) is read from the page's data, which no page of the diff holds: a kernel's record that
    starts to say how it computes the format without a matrix instruction changes the card of every cell it runs."""
    from generators.derive import answers as answers_module
    monkeypatch.setenv("ATLAS_CACHE", "off")
    # the mini fixture's weight-only scheme computes in no hardware format; let it compute in INT4 (emulated on acc-old)
    monkeypatch.setattr(answers_module, "kernel_computes_in", lambda *args: ("fmt-int4",))
    base = diff_module.build_side(repo)
    edit(repo, "records/kernels/k-generic.yaml", "sources:\n",
         "without_matrix_instruction:\n  - {targets: [gpu-sm80], formats: [fmt-int4], computes: vector, "
         "instruction: dp4a, source: src-code, locator: GenericKernel.dot, quote: dp4a}\nsources:\n")
    report = diff_module.compare(base, diff_module.build_side(repo), "base", "head")
    assert report.cells == () and [r.id for r in report.records] == ["k-generic"]
    (change,) = report.contents
    assert (change.scheme, change.target) == ("sch-w4a16", "gpu-sm80")
    way = {"kernels": ["k-generic"], "labels": ["Generic kernel"], "instruction": "dp4a", "source": "src-code",
           "said": " multiplies it as it is with vector instructions"}
    assert [(f.field, f.old, f.new) for f in change.fields] == [
        ("notices.parts.acc-old.emulated[0].ways", None, [way]), ("notices.target.emulated[0].ways", None, [way])]


def test_a_change_many_cells_share_is_said_once_under_the_cells_it_is_in() -> None:
    """A code change that rewords one message in many cells: the PR comment is cut at 60,000 characters, and one
    line per cell for the same change would show the first hundred cells and nothing else."""
    from generators.diff import CellContentChange, FieldChange
    reworded = FieldChange("failure_message", "No kernel", "No kernel found")
    contents = (CellContentChange("a", "t1", (reworded,)),
                CellContentChange("a", "t2", (reworded, FieldChange("reasons[1]", None, "r"))),
                CellContentChange("b", "t1", (reworded,)),
                CellContentChange("c", "t1", (FieldChange("gate", "g", "G"),)),
                CellContentChange("c", "t2", (FieldChange("gate", "g", "G"),)))
    markdown = DiffReport(base="main", head="wt", contents=contents).to_markdown()
    assert markdown.split("\n\n", 1)[1] == (
        "### What cells say (reasons, engine messages, gates, sources, ...)\n"
        "- the same in 3 cells: `a` on `t1`, `t2`; `b` on `t1`\n"
        '  - `failure_message`: `"No kernel"` → `"No kernel found"`\n'
        "- `a` on `t2`\n"
        '  - `reasons[1]`: (absent) → `"r"`\n'
        "- `c` on `t1`\n"  # two cells alike are still said cell by cell
        '  - `gate`: `"g"` → `"G"`\n'
        "- `c` on `t2`\n"
        '  - `gate`: `"g"` → `"G"`\n')
    assert [c["target"] for c in json.loads(DiffReport("main", "wt", contents=contents).to_json())["cell_contents"]] == [
        "t1", "t2", "t1", "t1", "t2"]  # the JSON keeps every cell's fields


# ---- cells that appear or disappear, false beside absent, and where the PR comment may be cut ----

def _add_scheme(repo: Path) -> None:
    """A second scheme whose engine tries the generic kernel first, and only on CUDA."""
    text = (repo / "records/schemes/sch-w4a16.yaml").read_text(encoding="utf-8")
    text = text.replace("name: Example W4A16 scheme", "name: Second W4A16 scheme")
    text = text.replace("kernels: [k-hopper, k-generic]", "kernels: [k-generic, k-hopper]")
    (repo / "records/schemes/sch-w4a16-b.yaml").write_text(text.replace("  - platform: cpu\n    kernels: [k-cpu]\n", ""),
                                                           encoding="utf-8")


def test_a_new_scheme_is_new_cells_each_with_its_verdict_kernel_and_reasons(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    _add_scheme(repo)
    head = commit(repo, "a second scheme")
    report = diff_revisions(repo, base, head)
    assert [(c.scheme, c.target, c.status, c.new) for c in report.cells] == [
        ("sch-w4a16-b", "cpu-avx512", "added", "refused"), ("sch-w4a16-b", "gpu-sm80", "added", "runs-if"),
        ("sch-w4a16-b", "gpu-sm90", "added", "runs")]
    assert report.contents == ()  # a new cell is said once, as new, not as fields that change
    assert report.summary().startswith("1 record added, 3 new cells, ")
    markdown = report.to_markdown()
    assert "### Support cells" not in markdown and "flip" not in markdown.splitlines()[0]
    section = markdown.split("### New and removed cells\n", 1)[1].split("\n\n", 1)[0]
    assert section == (
        "- new cell: `sch-w4a16-b` on `cpu-avx512`: refused\n"
        "  - kernel: none\n"
        "  - reason: `no candidate kernels for platform 'cpu'`\n"
        "- new cell: `sch-w4a16-b` on `gpu-sm80`: runs-if\n"
        "  - kernel: `k-generic`\n"
        "  - must hold: `activation dtype in {float16}`\n"
        "  - reason: `k-hopper: Hopper kernel requires compute capability of 90`\n"
        "  - otherwise:\n"
        "    - `unless activation dtype in {float16} (for k-generic): REFUSED`\n"
        "- new cell: `sch-w4a16-b` on `gpu-sm90`: runs\n"
        "  - kernel: `k-generic`\n"
        "  - must hold: `activation dtype in {float16}`\n"
        "  - otherwise:\n"
        "    - `unless activation dtype in {float16} (for k-generic): RUNS via k-hopper`")
    cells = {c["target"]: c for c in json.loads(report.to_json())["cells"]}
    assert {t: (c["status"], c["old"], c["new"], c["flips"]) for t, c in cells.items()} == {
        "cpu-avx512": ("added", "(absent)", "refused", True), "gpu-sm80": ("added", "(absent)", "runs-if", True),
        "gpu-sm90": ("added", "(absent)", "runs", True)}  # the fields as they were, and the new one
    content = cells["gpu-sm80"]["content"]  # the cell in full, as cell_contents derives it
    assert (content["verdict"], content["verdict_label"], content["kernel"]) == ("runs-if", "Runs if", "k-generic")
    assert content["otherwise"][0]["failure_message"] == "Failed to find a kernel"


def test_a_deleted_target_or_scheme_is_cells_removed_each_with_what_it_said(repo: Path) -> None:
    for kind, old, new in (("accelerators", "acc-old", "acc-turing"), ("hardware-targets", "gpu-sm80", "gpu-sm75")):
        text = (repo / f"records/{kind}/{old}.yaml").read_text(encoding="utf-8")
        for a, b in (("8.0", "7.5"), ("80", "75"), ("acc-old", "acc-turing"), ("name: ", "name: Turing ")):
            text = text.replace(a, b)
        (repo / f"records/{kind}/{new}.yaml").write_text(text, encoding="utf-8")
    _add_scheme(repo)
    base = commit(repo, "a Turing target and a second scheme")
    (repo / "records/hardware-targets/gpu-sm75.yaml").unlink()
    head = commit(repo, "no Turing target")
    report = diff_revisions(repo, base, head)
    assert [(c.scheme, c.target, c.status, c.old) for c in report.cells] == [
        ("sch-w4a16", "gpu-sm75", "removed", "refused"), ("sch-w4a16-b", "gpu-sm75", "removed", "refused")]
    assert report.summary().startswith("1 record removed, 2 cells removed, ")
    markdown = report.to_markdown()
    assert "### Support cells" not in markdown
    assert ("- cell removed: `sch-w4a16` on `gpu-sm75`: refused\n"
            "  - kernel: none\n"
            "  - reason: `k-hopper: Hopper kernel requires compute capability of 90`\n"
            "  - reason: `k-generic: ") in markdown  # every reason, not the first alone
    (removed, _) = json.loads(report.to_json())["cells"]
    assert (removed["status"], removed["new"], removed["content"]["verdict"]) == ("removed", "(absent)", "refused")
    assert len(removed["content"]["reasons"]) == 2
    # a scheme deleted: its cells go, each said as removed
    (repo / "records/schemes/sch-w4a16-b.yaml").unlink()
    report = diff_revisions(repo, head, commit(repo, "one scheme"))
    assert [(c.target, c.status) for c in report.cells] == [("cpu-avx512", "removed"), ("gpu-sm80", "removed"),
                                                             ("gpu-sm90", "removed")]
    assert report.to_markdown().count("\n- cell removed: `sch-w4a16-b` on ") == 3


def test_a_renamed_scheme_or_target_moves_its_cells_said_once_not_removed_and_new(repo: Path) -> None:
    """A scheme renamed (same content, new id) keeps its cells under the new id: each was said in full twice, as a cell
    removed and as a new cell, and counted as both; it is one line per cell, with what else changes in it."""
    base = git(repo, "rev-parse", "HEAD")
    git(repo, "mv", "records/schemes/sch-w4a16.yaml", "records/schemes/sch-w4a16-renamed.yaml")
    edit(repo, "records/support-matrices/pub-table.yaml", "sch-w4a16", "sch-w4a16-renamed")  # its references
    path = repo / "docs/chapters/demo.md.j2"
    path.write_text(path.read_text(encoding="utf-8").replace("'sch-w4a16'", "'sch-w4a16-renamed'"), encoding="utf-8")
    report = diff_revisions(repo, base, commit(repo, "rename the scheme"))
    assert report.introduced == ()
    assert [(r.kind, r.id, r.status) for r in report.records if r.status == "renamed"] == [
        ("scheme", "sch-w4a16-renamed", "renamed")]
    assert "new cell" not in report.summary() and "removed" not in report.summary()
    assert report.summary().startswith("1 record renamed, 1 record changed, 3 cells renamed with their scheme or target, ")
    markdown = report.to_markdown()
    assert "- new cell: " not in markdown and "- cell removed: " not in markdown
    assert ("- renamed: `sch-w4a16` on `gpu-sm80` is now `sch-w4a16-renamed` on `gpu-sm80`: runs-if (`via k-generic`)\n"
            "  - it says the same as before\n") in markdown
    assert [(old.scheme, new.scheme, old.target) for old, new in report.moved_cells()] == [
        ("sch-w4a16", "sch-w4a16-renamed", t) for t in ("cpu-avx512", "gpu-sm80", "gpu-sm90")]
    # the JSON keeps its cells as they were: removed under the old id, added under the new one
    assert sorted({c["status"] for c in json.loads(report.to_json())["cells"]}) == ["added", "removed"]


def test_a_field_that_turns_false_reads_false_and_one_that_goes_reads_absent(repo: Path) -> None:
    """The published table says yes for Ampere: raising the generic kernel's floor makes the cell refused, and the
    published cell's `agrees` turns false. It read `(absent)`, as a field that is gone does."""
    base = git(repo, "rev-parse", "HEAD")
    edit(repo, "records/kernels/k-generic.yaml", "value: 80,", "value: 90,")
    report = diff_revisions(repo, base, commit(repo, "raise the floor"))
    assert "  - `published[0].agrees`: `true` → `false`\n" in report.to_markdown()  # it read `true` → (absent)
    (change,) = report.contents
    agrees = next(f for f in change.fields if f.field == "published[0].agrees")
    assert (agrees.old, agrees.new, agrees.old_absent, agrees.new_absent) == (True, False, False, False)
    fields = json.loads(report.to_json())["cell_contents"][0]["fields"]
    assert {"field": "published[0].agrees", "old": True, "new": False, "old_absent": False, "new_absent": False} in fields
    # a field that is gone, a false beside nothing (an older code left false out), and a record's null
    from generators.field_changes import content_fields
    said = [(f.field, f.old, f.new, f.old_absent, f.new_absent)
            for f in content_fields({"a": True, "b": True, "c": False}, {"a": False, "d": False})]
    assert said == [("a", True, False, False, False), ("b", True, None, False, True)]
    markdown = DiffReport("base", "head", contents=(diff_module.CellContentChange("s", "t", tuple(
        content_fields({"a": True, "b": True}, {"a": False}))),)).to_markdown()
    assert markdown.endswith("  - `a`: `true` → `false`\n  - `b`: `true` → (absent)\n")
    records = DiffReport("base", "head", records=(diff_module.RecordChange("format", "f", "changed", tuple(
        diff_module.field_changes({"weight_bits": 4, "group": 8}, {"weight_bits": None}))),)).to_markdown()
    assert records.endswith("  - `group`: `8` → (absent)\n  - `weight_bits`: `4` → `null`\n")
