"""The changelog's per-commit comparisons kept on disk (generators/commit_cache.py): the same changes, the same feed,
without running the pipeline again; off with ATLAS_CACHE=off; emptied by a code change."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from generators import build, commit_cache, load, record_history, revisions
from generators.cache import ContentCache
from generators.diff_model import CellChange, CommitChange, FieldChange, OtherwiseStep, RecordChange
from generators.render.changelog import changelog_files
from generators.render.markdown import code_span

from .conftest import commit, git, write
from .test_diff import edit

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")




@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder and no process memory of earlier comparisons."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(folder))
    monkeypatch.delenv("ATLAS_CACHE", raising=False)
    monkeypatch.setattr(record_history, "_MEMO", {})
    monkeypatch.setattr(record_history, "_SIDES", {})
    return folder


def history(root: Path) -> tuple[CommitChange, ...]:
    record_history._MEMO.clear()
    record_history._SIDES.clear()
    return record_history.record_history(root, limit=5)


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("the pipeline ran although every commit was on disk")


def _two_commits(root: Path) -> None:
    edit(root, "records/kernels/k-generic.yaml", "value: 80,", "value: 90,")
    commit(root, "raise the floor <script>")
    edit(root, "records/accelerators/acc-cpu.yaml", "category: cpu\n",
         "category: cpu\npeak_compute:\n  - {precision: fp8, sparsity: dense, tflops: 10, source: src-doc}\n")
    commit(root, "the cpu computes in fp8")


def test_a_second_run_reads_every_commit_from_disk_and_the_feed_is_byte_identical(
        repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _two_commits(repo)
    cold = history(repo)
    assert [c.subject for c in cold] == ["the cpu computes in fp8", "raise the floor <script>"]
    assert cold[1].cells and cold[0].counts  # something moved in each, so the comparison is not vacuous
    atlas = build.run_pipeline(repo, docs_dir=None).atlas
    atlas.commits = cold
    feed_cold = changelog_files(atlas)
    monkeypatch.setattr(record_history, "check_stages", _refuse)
    warm = history(repo)
    assert warm == cold
    atlas.commits = warm
    assert changelog_files(atlas) == feed_cold


def test_with_the_cache_off_nothing_is_written_and_the_pipeline_runs_again(
        repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _two_commits(repo)
    monkeypatch.setenv("ATLAS_CACHE", "off")
    first = history(repo)
    assert not fresh.exists()
    runs = _counting(monkeypatch)
    assert history(repo) == first and runs


def test_a_code_change_empties_the_table(repo: Path, fresh: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _two_commits(repo)
    history(repo)
    stored = json.loads((fresh / "commit-changes.json").read_text(encoding="utf-8"))
    assert len(stored["entries"]) == 2
    original = commit_cache.code_files()
    assert len(commit_cache.open_table().entries) == 2  # the same code finds them
    changed = tmp_path / "code.py"
    changed.write_text("# another version of the code\n", encoding="utf-8")
    monkeypatch.setattr(commit_cache, "code_files", lambda: [*original, str(changed)])
    assert commit_cache.open_table().entries == {}


def test_a_change_that_json_would_alter_is_not_kept(tmp_path: Path) -> None:
    table = ContentCache("t", "salt", tmp_path)
    terms = CellChange("s", "t", "runs-if", "runs-if", "via k", "via k", ("package p installed",), ("a", "b"),
                       (OtherwiseStep("package p installed", "k", "RUNS via k2"),), ())
    kept = CommitChange("a" * 40, "2026-12-01T10:00:00+00:00", "s", (terms,), (),
                        (RecordChange("format", "f", "changed", (FieldChange("x", [1, {"y": "</li>"}], None),)),))
    commit_cache.keep(table, kept, "b" * 40)
    table.save()
    table = ContentCache("t", "salt", tmp_path)
    assert commit_cache.lookup(table, "a" * 40, "b" * 40, kept.date, "s") == kept  # conditions, otherwise included
    altered = CommitChange("c" * 40, "2026-12-01T10:00:00+00:00", "s", (), (),
                           (RecordChange("format", "f", "changed", (FieldChange("x", (1, 2), None),)),))
    commit_cache.keep(table, altered, "b" * 40)  # a tuple would come back as a list
    table.save()
    table = ContentCache("t", "salt", tmp_path)
    assert commit_cache.lookup(table, "c" * 40, "b" * 40, altered.date, "s") is None


def test_a_kept_change_keeps_what_each_cell_is_read_as(tmp_path: Path) -> None:
    """A cell's label ("Fallback if") is no part of its change's identity, so the trip through JSON compared equal
    without it and a warm build's changelog said "fallback" where the cold one said "fallback if"."""
    table = ContentCache("t", "salt", tmp_path)
    flip = CellChange("s", "t", "refused", "fallback", "no kernel", "via k", old_label="", new_label="Fallback if")
    kept = CommitChange("a" * 40, "2026-12-01T10:00:00+00:00", "s", (flip,), (), ())
    commit_cache.keep(table, kept, "b" * 40)
    table.save()
    found = commit_cache.lookup(ContentCache("t", "salt", tmp_path), "a" * 40, "b" * 40, kept.date, "s")
    assert found is not None and [(c.old_label, c.new_label) for c in found.cells] == [("", "Fallback if")]


def _loaded(run: build.Run) -> tuple[list[tuple[str, str, str, object]], list[str], bool]:
    return [(r.kind, r.id, r.path, r.data) for r in run.records], [str(p) for p in run.problems], run.atlas is not None


def test_a_past_tree_read_from_git_loads_as_its_checkout_does(repo: Path, tmp_path: Path) -> None:
    """revisions.GitTree (the changelog's sides, read into memory) against the files `materialise` writes (diff's)."""
    write(repo, "records/formats/.hidden.yaml", "name: hidden\n")
    write(repo, "records/.drafts/formats/draft.yaml", "name: draft\n")
    write(repo, "records/formats/Bad_Name.yaml", "name: bad\n")
    write(repo, "records/formats/notes.txt", "not a record\n")
    write(repo, "records/formats/latin1.yaml", b"name: caf\xe9\n")
    write(repo, "records/findings/huge.yaml", "name: huge\nx: '" + "a" * 300_000 + "'\n")
    write(repo, "records/findings/vast.yaml", b"#" * 1_100_000)  # over the blob limit: never read into memory
    os.symlink("../kernels/k-generic.yaml", repo / "records" / "formats" / "linked.yaml")
    schema = repo / "schema/finding.schema.json"
    schema.write_text(schema.read_text(encoding="utf-8").replace('"additionalProperties": false',
                                                                 '"additionalProperties": true', 1), encoding="utf-8")
    hostile = commit(repo, "hostile files")
    shutil.rmtree(repo / "records" / "sources")
    write(repo, "records/sources", "a file where a folder was\n")
    folder_as_file = commit(repo, "sources is a file")
    shutil.rmtree(repo / "records")
    os.symlink("schema", repo / "records")
    linked_folder = commit(repo, "records is a link")
    for n, sha in enumerate((hostile, folder_as_file, linked_folder)):
        on_disk = build.check_stages(revisions.materialise(repo, sha, "", tmp_path / f"side{n}", ("records", "schema")))
        in_memory = build.check_stages(repo, stored=revisions.GitTree(repo, sha, "", ("records", "schema")))
        assert _loaded(in_memory) == _loaded(on_disk)
        assert on_disk.problems  # each commit is refused somewhere, so the comparison is not vacuous


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the past sides built from git (the working tree's own run is not one)."""
    runs: list[int] = []
    real = record_history.check_stages
    monkeypatch.setattr(record_history, "check_stages",
                        lambda *a, **k: (runs.append(1) if k.get("stored") else None) or real(*a, **k))
    return runs


def _with_current(root: Path) -> tuple[tuple[CommitChange, ...], record_history.Current]:
    record_history._MEMO.clear()
    record_history._SIDES.clear()
    current = record_history.Current(root)
    return record_history.record_history(root, limit=5, current=current), current


def test_the_working_tree_stands_in_for_head_when_its_inputs_are_heads(
        repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _two_commits(repo)
    expected = history(repo)
    monkeypatch.setenv("ATLAS_CACHE", "off")  # compute every commit again
    runs = _counting(monkeypatch)
    changes, current = _with_current(repo)
    assert changes == expected
    assert current.checked is not None and current.checked.atlas is not None
    assert len(runs) == 2  # three sides (two commits and the first one's parent); HEAD's is the working tree's run


def _history_fetching(repo: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[
        tuple[CommitChange, ...], tuple[CommitChange, ...], record_history.Current, list[str]]:
    """The history computed afresh without the working tree's help, then with it (and a cold load memory), with every
    file the second read from git."""
    monkeypatch.setenv("ATLAS_CACHE", "off")
    expected = history(repo)
    fetched: list[str] = []
    real_fetch = revisions.GitTree.fetch
    monkeypatch.setattr(revisions.GitTree, "fetch", lambda self, rels: (fetched.extend(rels), real_fetch(self, rels))[1])
    monkeypatch.setattr(load, "_STORED", {})
    monkeypatch.setattr(load, "_LOADED", {})
    changes, current = _with_current(repo)
    return expected, changes, current, fetched


def test_past_sides_share_the_working_trees_records_and_read_only_what_differs_from_head(
        repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the working tree's inputs HEAD's, a past side takes the working tree's record of each file whose git object
    is HEAD's (load.lend_records) and reads from git only the files that differ; the changes are those computed
    without that help."""
    _two_commits(repo)
    expected, changes, current, fetched = _history_fetching(repo, monkeypatch)
    assert changes == expected
    assert current.checked is not None
    working = {r.path: r for r in current.checked.records}
    record_files = [rel for rel in fetched if rel.startswith("records/")]
    assert sorted(record_files) == ["records/accelerators/acc-cpu.yaml", "records/kernels/k-generic.yaml"]
    before = record_history._SIDES[record_history._inputs_id(repo, "", git(repo, "rev-list", "--max-parents=0", "HEAD"))]
    assert before.records[("format", "fmt-fp4")] is working["records/formats/fmt-fp4.yaml"].data  # the same object


def test_past_sides_share_the_working_trees_records_when_head_is_a_merge(
        repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A merge is no side (`git log --no-merges`), so no side is HEAD's; the working tree's run is made anyway (the
    pipeline takes it), and each past side still reads from git only the files that differ from HEAD's."""
    _two_commits(repo)
    git(repo, "checkout", "-q", "-b", "side", "HEAD~1")
    edit(repo, "records/formats/fmt-fp4.yaml", "name: ", "name: Side ")
    commit(repo, "rename on a side branch")
    git(repo, "checkout", "-q", "-")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge the side branch", "side")
    expected, changes, current, fetched = _history_fetching(repo, monkeypatch)
    assert changes == expected and len(changes) == 3
    assert current.checked is not None  # made once, for the pipeline
    heads = {record_history._inputs_id(repo, "", sha) for sha in git(repo, "rev-list", "--no-merges", "HEAD").split()}
    assert current.inputs_id not in heads  # no side is HEAD's
    differing = sorted(rel for rel in fetched if rel.startswith("records/"))
    assert differing and len(differing) <= 4, differing  # not every record file of the first past side read


def test_inputs_ids_asked_together_and_one_by_one_agree(repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One `git rev-parse` for every commit; a commit where a folder is missing makes it fail, and each is then asked
    alone (that commit's id stands for its inputs)."""
    _two_commits(repo)
    shas = git(repo, "rev-list", "HEAD").split()
    monkeypatch.setattr(record_history, "_INPUTS", {})
    alone = [record_history._inputs_id(repo, "", sha) for sha in shas]
    record_history._ask_inputs_ids(repo, "", shas)
    assert [record_history._INPUTS[sha] for sha in shas] == alone and len(set(alone)) == 3
    shutil.rmtree(repo / "schema")
    without = commit(repo, "no schemas")
    monkeypatch.setattr(record_history, "_INPUTS", {})
    record_history._ask_inputs_ids(repo, "", [without, *shas])
    assert record_history._INPUTS == {} and record_history._inputs_id(repo, "", without) == without


@pytest.mark.parametrize("change", ["modified", "untracked", "ignored", "deleted"])
def test_a_working_tree_that_differs_from_head_never_stands_in_for_it(
        repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    _two_commits(repo)
    expected = history(repo)
    kernel = repo / "records/kernels/k-generic.yaml"
    if change == "modified":
        edit(repo, "records/kernels/k-generic.yaml", "value: 90,", "value: 70,")
    elif change == "untracked":
        write(repo, "records/kernels/k-extra.yaml", kernel.read_text(encoding="utf-8").replace("k-generic", "k-extra"))
    elif change == "ignored":
        write(repo, ".gitignore", "*.bak\n")
        commit(repo, "ignore backups")
        write(repo, "records/kernels/k-generic.yaml.bak", "not a record\n")
    else:
        (repo / "records/accelerators/acc-cpu.yaml").unlink()
    monkeypatch.setenv("ATLAS_CACHE", "off")
    runs = _counting(monkeypatch)
    changes, current = _with_current(repo)
    assert changes == expected  # HEAD's side came from HEAD, not from the edited working tree
    assert current.checked is None and len(runs) == 3


def test_a_past_side_computes_only_the_views_the_comparison_reads(repo: Path, fresh: Path) -> None:
    from generators import derive, diff
    _two_commits(repo)
    first = git(repo, "rev-list", "--max-parents=0", "HEAD")
    sides = [build.check_stages(repo, views=diff.CHANGE_VIEWS,
                                stored=revisions.GitTree(repo, sha, "", ("records", "schema"))) for sha in (first, "HEAD")]
    read: set[str] = set()

    class Watched(derive.Views):
        def __getattribute__(self, name: str) -> object:
            if name in derive.VIEW_NAMES:
                read.add(name)
            return super().__getattribute__(name)

    before, after = (side.atlas for side in sides)
    assert before is not None and after is not None
    assert set(vars(after.views)) - {"index"} == set(diff.CHANGE_VIEWS)  # computed: those, and nothing else
    before.views.__class__ = after.views.__class__ = Watched
    changes = list(diff.cell_changes(before, after)) + list(diff.count_changes(before, after))
    assert changes and read <= set(diff.CHANGE_VIEWS)


def test_a_commit_whose_parent_does_not_build_compares_records_without_building_its_own_side(
        repo: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Either side not building (as the whole pipeline decides: every stage, every check) makes a commit compare records
    alone; its other side is then never built, as no comparison needs its atlas."""
    edit(repo, "records/benchmarks/b-ref.yaml", "unit: points", "unit: percent")  # a shape check late in the registry
    broken = commit(repo, "a baseline in other units")
    edit(repo, "records/kernels/k-generic.yaml", "value: 80,", "value: 90,")
    commit(repo, "raise the floor while the baseline is wrong")
    sides = git(repo, "rev-list", "HEAD").split()  # newest first: the two commits and the base
    full = [build.check_stages(repo, stored=revisions.GitTree(repo, sha, "", ("records", "schema"))) for sha in sides]
    assert [run.atlas is not None for run in full] == [False, False, True]
    assert any(p.rule == "benchmark-baseline" and p.severity == "error" for p in full[0].problems)
    monkeypatch.setenv("ATLAS_CACHE", "off")
    built: list[str] = []
    real = record_history.check_stages
    monkeypatch.setattr(record_history, "check_stages", lambda root, **k: (built.append(k["stored"]), real(root, **k))[1])
    changes = history(repo)
    assert [c.note for c in changes] == ["one side does not build, so only its records are compared"] * 2
    assert [[(r.id, r.status) for r in c.records] for c in changes] == [[("k-generic", "changed")], [("b-ref", "changed")]]
    assert [tree.object_id("records/kernels/k-generic.yaml") for tree in built] == [
        git(repo, "rev-parse", f"{broken}:records/kernels/k-generic.yaml")]  # the broken commit's side alone was built


def test_a_shallow_clone_says_on_the_changelog_where_its_history_stops_and_a_full_clone_does_not(
        repo: Path, fresh: Path, tmp_path: Path) -> None:
    for n in (1, 2):
        edit(repo, "records/accelerators/acc-cpu.yaml", "An x86 server CPU", f"An x86 server CPU ({n})")
        commit(repo, f"summary {n}")
    shutil.copy(build.Path(__file__).resolve().parent.parent / "docs" / "chapters" / "changelog.md.j2",
                write(repo, "docs/chapters/changelog.md.j2", ""))
    commit(repo, "the changelog page")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{repo}", str(shallow))  # the last edit and the page only
    archive = shutil.copytree(repo, tmp_path / "archive", ignore=shutil.ignore_patterns(".git"))  # no git at all
    pages = {}
    for root in (repo, shallow, archive):
        changes = history(root)
        cut = record_history.history_cut(root, len(changes), limit=5)
        run = build.run_pipeline(root, commits=changes, history_cut=cut)
        assert not run.failed, run.problems
        pages[root] = (changes, cut, run.pages["chapters/changelog.md"])
    changes, cut, page = pages[shallow]
    assert cut == git(shallow, "rev-parse", "HEAD~1") and [c.subject for c in changes] == []  # its parent is cut off
    assert "shallow clone" in page and code_span(cut) in page
    changes, cut, page = pages[archive]
    assert cut == "" and changes == () and "outside a git work tree" in page and "shallow" not in page
    changes, cut, page = pages[repo]
    assert cut is None and len(changes) == 2 and "shallow clone" not in page
