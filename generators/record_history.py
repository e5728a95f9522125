"""Changes to the records in git history: for a bounded number of recent commits that touched records/, what each did
to the derived cells, the computed counts and the traps, built on the diff's comparison.

Both sides of a commit are first evaluated by the running code, so an entry shows what the commit's records changed
under today's rules. Where that code cannot build a side (a field made required since, a record kind reshaped), the
commit is compared again with each side evaluated by the code it was committed with: a side whose generators/ is
another tree than the running code's is summarised by that code in a child process (own_code.py), which costs a
whole check per side, so it is done only then. A side evaluated here has its records/ and schema/ read from git's
object database into memory (revisions.GitTree: blobs only, links refused by name, oversized blobs never read, as `diff` unpacks a tree) and run
through the pipeline without rendering, computing only the views the comparison reads (diff.CHANGE_VIEWS), except
the side whose records/ and schema/ are exactly the working tree's (git status shows nothing in them, ignored files
included): that one is the working tree's own run, which the site then renders. A side's records are loaded when a
comparison names it, the rest of its pipeline only when a comparison needs its atlas: a commit one of whose sides
does not build compares records alone, so the other side is not built for it (and a failing side stops at its first
error: build.check_stages).
Sides are kept in memory for the life of the process by the git tree ids of records/ and schema/ (consecutive
commits share one), and results per commit are kept in memory and on disk
(commit_cache.py: keyed by the commit and its parent, emptied by any code change), so a commit is compared once,
not on every build. Record text carried here (commit subjects, record names) is untrusted: the page and the feed
escape it.
"""
from __future__ import annotations

import functools
import subprocess
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import commit_cache
from .changelog_depth import commit_limit
from .build import Run, check_stages
from .diff import CHANGE_VIEWS, cell_changes, count_changes, record_changes, summary_of
from .diff_model import ChangeSummary
from .diff_model import CommitChange
from .model.atlas import Atlas
from .load import lend_records, load_tree
from .model.records import Record
from .own_code import OwnCode
from .revisions import DiffError, GitTree, project_prefix

if TYPE_CHECKING:
    from .reuse import ReuseMemo

HISTORY_PATHS = ("records", "schema")  # all a side without pages reads

_MEMO: dict[tuple[str, str], CommitChange] = {}


def history_cut(root: Path, found: int, limit: int | None = None) -> str | None:
    """Why the changelog may miss recent commits that touched records/, when it may: "" when the project is not in a
    git work tree (or git cannot read it), the commit where the history stops (the first, when several) when the
    clone is shallow and the walk found fewer commits than it looks for. None when the history is whole (a full clone
    with fewer such commits than the limit is complete)."""
    if found >= (commit_limit() if limit is None else limit):
        return None
    try:
        project_prefix(root)
    except DiffError:
        return ""
    shallow = subprocess.run(["git", "-C", str(root), "rev-parse", "--is-shallow-repository"], capture_output=True,
                             text=True, check=False)
    if shallow.returncode != 0 or shallow.stdout.strip() != "true":
        return None
    roots = subprocess.run(["git", "-C", str(root), "rev-list", "--max-parents=0", "HEAD"], capture_output=True,
                           text=True, check=False)  # in a shallow clone its boundary commits show no parent
    ids = sorted(line for line in roots.stdout.split() if all(c in "0123456789abcdef" for c in line))
    return ids[0] if roots.returncode == 0 and ids else None


def recent_commits(root: Path, limit: int) -> list[tuple[str, str, str, str]]:
    """(sha, first parent, committer date, subject) of the newest non-merge commits touching records/, newest first."""
    if limit <= 0:
        return []
    try:
        prefix = project_prefix(root)
    except DiffError:
        return []
    result = subprocess.run(["git", "-C", str(root), "log", "--no-merges", f"-n{limit}", "--format=%H%x00%P%x00%cI%x00%s",
                             "--", f":(top){prefix}records"], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        return []
    commits = []
    for line in result.stdout.splitlines():
        sha, parents, date, subject = (line.split("\0") + ["", "", "", ""])[:4]
        if sha and parents:
            commits.append((sha, parents.split()[0], date, subject))
    return commits


class Side:
    """One side of the comparisons: its records, loaded at once; its atlas (None when it does not build) worked out
    when a comparison first needs it. A commit whose other side does not build compares records alone, so this one's
    atlas is then never needed, and a side's validate..derive is the larger part of its cost."""

    def __init__(self, records: list[Record] | dict[tuple[str, str], Any],
                 atlas: Callable[[], Atlas | ChangeSummary | None]):
        self.records = records if isinstance(records, dict) else {(r.kind, r.id): r.data for r in records}
        self._atlas: Atlas | ChangeSummary | None = None
        self._build: Callable[[], Atlas | ChangeSummary | None] | None = atlas
        self._summary: tuple[ChangeSummary | None] | None = None

    @property
    def known(self) -> bool:
        """Whether the atlas (or that there is none) is known already."""
        return self._build is None

    def atlas(self) -> Atlas | ChangeSummary | None:
        if self._build is not None:
            self._atlas, self._build = self._build(), None
        return self._atlas

    def summary(self) -> ChangeSummary | None:
        """What the comparisons read of the atlas (diff.summary_of; None when it does not build), worked out once: a
        side is compared with the commits on both sides of it, and each comparison reads its cells and its counts."""
        if self._summary is None:
            atlas = self.atlas()
            self._summary = (atlas,) if atlas is None or isinstance(atlas, ChangeSummary) else (summary_of(atlas),)
        return self._summary[0]


_SIDES: dict[str, Side] = {}


def _inputs_id(root: Path, prefix: str, sha: str) -> str:
    """The git tree ids of records/ and schema/ at a commit: commits with the same inputs build the same atlas."""
    if sha in _INPUTS:
        return _INPUTS[sha]
    result = subprocess.run(["git", "-C", str(root), "rev-parse", f"{sha}:{prefix}records", f"{sha}:{prefix}schema"],
                            capture_output=True, text=True, check=False)
    return result.stdout.replace("\n", " ").strip() if result.returncode == 0 else sha


_INPUTS: dict[str, str] = {}  # commit id -> its inputs id (a commit's trees never change)


def _ask_inputs_ids(root: Path, prefix: str, shas: list[str]) -> None:
    """Learn the inputs ids of these commits in one `git rev-parse` (a commit where either folder is missing makes it
    fail: those are then asked one by one, as _inputs_id does)."""
    wanted = [sha for sha in dict.fromkeys(shas) if sha not in _INPUTS]
    if not wanted:
        return
    result = subprocess.run(["git", "-C", str(root), "rev-parse",
                             *(f"{sha}:{prefix}{folder}" for sha in wanted for folder in HISTORY_PATHS)],
                            capture_output=True, text=True, check=False)
    lines = result.stdout.split()
    if result.returncode != 0 or len(lines) != len(wanted) * len(HISTORY_PATHS):
        return
    if len(_INPUTS) > 10_000:
        _INPUTS.clear()
    for n, sha in enumerate(wanted):
        _INPUTS[sha] = " ".join(lines[n * len(HISTORY_PATHS):(n + 1) * len(HISTORY_PATHS)])


def working_inputs_id(root: Path, prefix: str) -> str | None:
    """The inputs id of HEAD when the working tree's records/ and schema/ are exactly HEAD's (nothing modified,
    deleted, untracked or ignored in them), else None: then a side equal to HEAD's may be built from the working tree.
    """
    paths = [f":(top){prefix}{name}" for name in HISTORY_PATHS]
    status = subprocess.run(["git", "--no-optional-locks", "-C", str(root), "status", "--porcelain", "-z",
                             "--untracked-files=all", "--ignored=matching", "--", *paths],
                            capture_output=True, check=False)
    if status.returncode != 0 or status.stdout:
        return None
    return _inputs_id(root, prefix, "HEAD")


def _side(root: Path, prefix: str, sha: str, current: Current | None = None, own: OwnCode | None = None) -> Side:
    key = _inputs_id(root, prefix, sha)
    code = own.code_of(sha) if own is not None else None
    if code is not None:  # another version of the code: it summarises its own side (own_code.py)
        side_key = f"{key}|{code}"
        if side_key not in _SIDES:  # its records are those the running code's try loaded, when it made one
            known = _SIDES.get(key)
            records = known.records if known is not None else load_tree(root, stored=GitTree(root, sha, prefix,
                                                                                             HISTORY_PATHS))[0]
            _SIDES[side_key] = Side(records, lambda: own.summarise(sha, code, key) if own is not None else None)
        return _SIDES[side_key]
    if key not in _SIDES:
        if current is not None and key == current.inputs_id:
            run = current.run()
            _SIDES[key] = Side(run.records, lambda: run.atlas)
        else:
            tree = GitTree(root, sha, prefix, HISTORY_PATHS)
            loaded = load_tree(root, stored=tree)
            _SIDES[key] = Side(loaded[0], lambda: check_stages(root, views=CHANGE_VIEWS, stored=tree, loaded=loaded).atlas)
    return _SIDES[key]


class Current:
    """The working tree's load..check run, made at most once and only when asked for: the side of a commit whose
    records/ and schema/ are the working tree's is that run (its pages are rendered from the same run later)."""

    def __init__(self, root: Path, reuse: ReuseMemo | None = None):
        self.root, self.reuse = root, reuse  # (a long-lived process's reuse memo: build.check_stages)
        self._run: Run | None = None

    @functools.cached_property
    def inputs_id(self) -> str | None:
        """HEAD's inputs id when the working tree's inputs are HEAD's (asked once: one `git status`), else None."""
        try:
            return working_inputs_id(self.root, project_prefix(self.root))
        except DiffError:
            return None

    def run(self) -> Run:
        if self._run is None:
            self._run = check_stages(self.root, reuse=self.reuse)
        return self._run

    @property
    def checked(self) -> Run | None:
        """The run, when a side asked for it."""
        return self._run


def commit_change(root: Path, sha: str, parent: str, date: str, subject: str,
                  current: Current | None = None, prefix: str | None = None, own: OwnCode | None = None) -> CommitChange:
    """The change one commit made, compared with its first parent (each side read from git into memory: a file that
    one side shares with another loaded before is not read again, load._load_stored)."""
    key = (sha, parent)
    if key in _MEMO and own is None:
        return _MEMO[key]
    prefix = project_prefix(root) if prefix is None else prefix
    before, after = _side(root, prefix, parent, current, own), _side(root, prefix, sha, current, own)
    records = tuple(record_changes(before.records, after.records))
    first, second = (after, before) if after.known and not before.known else (before, after)
    if first.atlas() is None or second.atlas() is None:  # (the second is not built when the first does not build)
        change = CommitChange(sha, date, subject, (), (), records,
                              "one side does not build, so only its records are compared")
    else:
        old, new = before.summary(), after.summary()
        assert old is not None and new is not None
        change = CommitChange(sha, date, subject, tuple(cell_changes(old, new)), tuple(count_changes(old, new)), records)
    _MEMO[key] = change
    return change


def record_history(root: Path, limit: int | None = None, current: Current | None = None) -> tuple[CommitChange, ...]:
    """The changes of the newest commits that touched records/, newest first; empty outside a git work tree.

    Each comes from this process's memory, else from the on-disk table, else is computed (and kept in both).
    `current` lends the working tree's run to the side whose inputs are the working tree's (usually the newest).
    """
    commits = recent_commits(root, commit_limit() if limit is None else limit)
    if all((sha, parent) in _MEMO for sha, parent, _, _ in commits):
        return tuple(_MEMO[(sha, parent)] for sha, parent, _, _ in commits)
    table = commit_cache.open_table()
    found = {(sha, parent): _MEMO.get((sha, parent)) or commit_cache.lookup(table, sha, parent, date, subject)
             for sha, parent, date, subject in commits}
    needed = [side for (sha, parent), change in found.items() if change is None for side in (sha, parent)]
    prefix = _prepare(needed, root, current)
    computed: dict[tuple[str, str], CommitChange] = {}
    for sha, parent, date, subject in commits:
        if found[(sha, parent)] is None:
            try:
                computed[(sha, parent)] = commit_change(root, sha, parent, date, subject, current, prefix)
            except DiffError:
                continue
    unbuilt = [key for key, change in computed.items() if change.note]
    if unbuilt and prefix is not None:  # each side of those by its own code (own_code.py), where it has some
        own = OwnCode(root, prefix)
        _prefetch(root, prefix, own, [side for key in unbuilt for side in key])
        for sha, parent, date, subject in commits:
            if (sha, parent) in unbuilt:
                computed[(sha, parent)] = commit_change(root, sha, parent, date, subject, current, prefix, own)
        own.save()
    changes = []
    for sha, parent, _, _ in commits:
        change = found[(sha, parent)] or computed.get((sha, parent))
        if change is None:
            continue
        commit_cache.keep(table, change, parent)  # also marks an entry found as still in use
        _MEMO[(sha, parent)] = change
        changes.append(change)
    table.save()
    return tuple(changes)


def _prefetch(root: Path, prefix: str, own: OwnCode, shas: list[str]) -> None:
    """Have the sides their own code summarises worked out together (own_code.OwnCode.prefetch)."""
    sides = []
    for sha in dict.fromkeys(shas):
        code = own.code_of(sha)
        if code is not None:
            sides.append((sha, code, _inputs_id(root, prefix, sha)))
    own.prefetch(sides)


def _prepare(shas: list[str], root: Path, current: Current | None) -> str | None:
    """Before the sides of these commits are built: the project's prefix (None when git cannot say), every inputs id
    asked at once, and, when the working tree's inputs are HEAD's, its records lent to the sides. The working tree's
    run is made anyway (it stands in for HEAD's side, or the pipeline takes it: site_cache passes `current.checked`),
    and HEAD is often a merge, which `git log --no-merges` lists as no side: then every past side shares most files
    with HEAD without being HEAD."""
    if not shas:
        return None
    try:
        prefix = project_prefix(root)
    except DiffError:
        return None
    _ask_inputs_ids(root, prefix, shas)
    if current is not None and current.inputs_id is not None and any(
            _inputs_id(root, prefix, sha) not in _SIDES for sha in shas):
        _lend_working_records(root, prefix, current)
    return prefix


def _lend_working_records(root: Path, prefix: str, current: Current) -> None:
    """Run the working tree first (the pipeline or one of the sides takes its run anyway) and give each past side the working tree's
    record of a file whose git object is HEAD's: the working tree's records/ are HEAD's (Current.inputs_id, the same
    test that lets its run stand for HEAD's side), and a record is a function of its path and bytes. So a past side
    reads from git only the files that differ from HEAD's, instead of every file of the first side built."""
    run = current.run()
    try:
        head = GitTree(root, "HEAD", prefix, HISTORY_PATHS)
    except DiffError:
        return
    lend_records(head, run.records)
