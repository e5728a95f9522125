"""A changelog side is summarised by the code it was committed with (generators/own_code.py), in a child process; a
side whose code does not run does not build; summaries are kept on disk by the side's trees."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import generators
from generators import own_code, record_history
from generators.diff import cell_changes, count_changes, diff_revisions, summary_of
from generators.diff_model import ChangeSummary
from generators.build import Run, check_stages

from .conftest import commit, git
from .test_commit_cache import fresh, history  # noqa: F401 - fresh is a fixture
from .test_diff import edit

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

MARK = 'return f"via {cell.kernel}"'


def _copy_code(root: Path) -> None:
    """A copy of the running code that is not its tree (a comment added), so a child runs it."""
    shutil.copytree(Path(generators.__file__).parent, root / "generators",
                    ignore=shutil.ignore_patterns("__pycache__"))
    with open(root / "generators" / "__init__.py", "a", encoding="utf-8") as handle:
        handle.write("# a commit's own copy\n")


def _code_then_record_edit(root: Path) -> None:
    """Commit the code (a copy of the running code, another tree), then a record edit
    that flips a cell with code whose summaries mark every kernel detail."""
    _copy_code(root)
    commit(root, "add the code")
    edit(root, "records/kernels/k-generic.yaml", "value: 80,", "value: 90,")
    edit(root, "generators/diff.py", MARK, 'return f"via {cell.kernel} [own]"')
    commit(root, "raise the floor")


def _running_code_cannot_read_past_sides(monkeypatch: pytest.MonkeyPatch) -> None:
    """As when a field was made required since: the running code builds no side read from git."""
    real = record_history.check_stages
    monkeypatch.setattr(record_history, "check_stages", lambda root, *args, stored=None, **kwargs: (
        Run([], None, []) if stored is not None else real(root, *args, stored=stored, **kwargs)))


def test_sides_the_running_code_builds_are_compared_by_it_and_no_child_runs(
        repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    _code_then_record_edit(repo)
    monkeypatch.setattr(own_code, "_child_summaries", lambda *args: pytest.fail("a child ran"))
    newest = history(repo)[0]
    assert newest.note == "" and newest.cells  # the record edit flips a cell under today's rules...
    assert not any(c.new_detail.endswith(" [own]") for c in newest.cells)  # ...as the running code words it


def test_where_the_running_code_cannot_build_a_side_each_side_is_summarised_by_its_own_code(
        repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    _code_then_record_edit(repo)
    _running_code_cannot_read_past_sides(monkeypatch)
    first = history(repo)
    newest = first[0]
    assert newest.subject == "raise the floor" and newest.note == ""
    via = [c for c in newest.cells if c.new_detail.startswith("via")]
    assert via and all(c.new_detail.endswith(" [own]") for c in via)  # the commit's code wrote the new side
    assert not any(c.old_detail.endswith(" [own]") for c in newest.cells)  # its parent's code the old one
    (fresh / "commit-changes.json").unlink()  # (as a code change empties it): the sides are read back from disk
    monkeypatch.setattr(own_code, "_child_summaries", lambda *args: pytest.fail("a kept side ran again"))
    assert history(repo) == first
    report = diff_revisions(repo, "HEAD~1", "HEAD")  # `diff` takes each revision's cells from its own code too
    assert [c.as_dict() for c in report.cells] == [c.as_dict() for c in newest.cells]
    assert sum("come from its own code" in note for note in report.notes) == 2


def test_a_side_whose_code_does_not_run_does_not_build(repo: Path, fresh: Path,  # noqa: F811
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _running_code_cannot_read_past_sides(monkeypatch)
    _copy_code(repo)
    commit(repo, "add the code")
    edit(repo, "records/kernels/k-generic.yaml", "value: 80,", "value: 90,")
    (repo / "generators" / "build.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    commit(repo, "break the code")
    newest = history(repo)[0]
    assert newest.cells == () and "does not build" in newest.note
    assert [r.id for r in newest.records] == ["k-generic"]  # records are still compared


def test_the_running_code_summarises_in_process(repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """A commit whose generators/ is the running code's tree is checked in this process, as without own code."""
    _code_then_record_edit(repo)
    head, parent = git(repo, "rev-parse", "HEAD:generators"), git(repo, "rev-parse", "HEAD~1")
    monkeypatch.setattr(own_code, "running_code_tree", lambda: head)
    _running_code_cannot_read_past_sides(monkeypatch)
    ran: list[str] = []
    monkeypatch.setattr(own_code, "_child_summaries",
                        lambda root, prefix, shas: [ran.extend(shas)] * len(shas))  # (None: it does not build)
    record_history._MEMO.clear()
    record_history._SIDES.clear()
    newest = record_history.record_history(repo, limit=1)[0]
    assert ran == [parent]  # only the parent, whose code differs, went to a child
    assert newest.subject == "raise the floor" and "does not build" in newest.note


def test_a_summary_compares_as_the_atlas_it_summarises(repo: Path) -> None:
    before = check_stages(repo).atlas
    edit(repo, "records/kernels/k-generic.yaml", "value: 80,", "value: 90,")
    after = check_stages(repo).atlas
    assert before is not None and after is not None
    old, new = (ChangeSummary.from_json(summary_of(atlas).as_json()) for atlas in (before, after))
    assert list(cell_changes(old, new)) == list(cell_changes(before, after)) != []
    assert list(count_changes(old, new)) == list(count_changes(before, after))


def test_diff_renders_each_side_s_pages_with_that_side_s_own_code(repo: Path, fresh: Path) -> None:  # noqa: F811
    """A commit that only rewords a page in generators/ changes pages: each side's own code renders them."""
    _copy_code(repo)
    commit(repo, "add the code")
    wording = "Derived from the support cells. Where the engine tries"
    edit(repo, "generators/render/pages.py", wording, "Read off the support cells. Where the engine tries")
    commit(repo, "reword the kernel uses")
    report = diff_revisions(repo, "HEAD~1", "HEAD")
    assert report.cells == () and report.records == ()
    assert [p.path for p in report.pages] == ["kernels/k-cpu.md", "kernels/k-generic.md", "kernels/k-hopper.md"]
    assert [line for line in report.pages[0].diff if line[:1] in "+-" and line[:3] not in ("+++", "---")] == [
        "-" + wording + " this kernel and declines it, the scheme's page gives the reason.",
        "+Read off the support cells. Where the engine tries this kernel and declines it, the scheme's page gives the "
        "reason."]
    assert sum("cells, counts and pages come from its own code" in note for note in report.notes) == 2


def test_diff_takes_each_side_s_cell_contents_from_its_own_code(repo: Path, fresh: Path) -> None:  # noqa: F811
    """A commit that only rewords an engine message in generators/ (as msg40 did) changes what cells say, which no
    page prints: the head's own code derives its contents; a base whose code predates cell contents is read by the
    running code, and the report says so."""
    _copy_code(repo)
    with open(repo / "generators" / "diff.py", "a", encoding="utf-8") as handle:
        handle.write("del cell_contents  # as a code from before cell contents\n")
    commit(repo, "add the code")
    edit(repo, "generators/diff.py", "del cell_contents  # as a code from before cell contents\n", "")
    edit(repo, "generators/derive/cells.py", 'message = str(candidates.get("failure_message", ""))',
         'message = str(candidates.get("failure_message", "")) + " [own]"')
    commit(repo, "reword the failure message")
    report = diff_revisions(repo, "HEAD~1", "HEAD")
    assert report.cells == report.pages == report.records == ()
    assert [(c.scheme, c.target, [(f.field, f.old, f.new) for f in c.fields]) for c in report.contents] == [
        ("sch-w4a16", "gpu-sm80", [("otherwise[k-generic].failure_message", "Failed to find a kernel",
                                    "Failed to find a kernel [own]")])]
    said = [note for note in report.notes if "cell contents" in note]
    assert len(said) == 1 and said[0].startswith("The base side's cell contents") and "code running this diff" in said[0]


def test_a_kept_summary_is_recomputed_when_a_library_that_reads_the_records_changes(
        repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    # a new PyYAML or jsonschema may parse or validate an old side otherwise: a warm machine must not keep showing
    # what a fresh one no longer derives
    _code_then_record_edit(repo)
    _running_code_cannot_read_past_sides(monkeypatch)
    first = history(repo)
    (fresh / "commit-changes.json").unlink()
    real, runs = own_code._child_summaries, []
    monkeypatch.setattr(own_code, "_child_summaries", lambda *args: runs.append(args) or real(*args))
    assert history(repo) == first
    assert runs == []  # the same libraries: read back from disk
    (fresh / "commit-changes.json").unlink()
    versions = own_code.library_versions()
    assert "pyyaml==" in versions and "jsonschema==" in versions
    monkeypatch.setattr(own_code, "library_versions", lambda: versions.replace("pyyaml==", "pyyaml==0.0+"))
    again = history(repo)
    assert runs  # another PyYAML: the sides are summarised again, and say the same here
    assert again == first
