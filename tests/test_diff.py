"""`generators.diff`: what a change does to the site, on small git histories built from the mini fixture."""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from generators import diff as diff_module
from generators.diff import DiffError, DiffReport, diff_revisions

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
