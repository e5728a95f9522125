"""Changes to the records in git history: for a bounded number of recent commits that touched records/, what each did
to the derived cells, the computed counts and the traps, built on the diff's comparison.

Each side's records/ and schema/ are read from git's object database into memory (revisions.GitTree: blobs only,
links refused by name, oversized blobs never read, as `diff` unpacks a tree) and run through the pipeline without
rendering, computing only the views the comparison reads (diff.CHANGE_VIEWS), except the side whose records/ and
schema/ are exactly the working tree's (git status shows nothing in them, ignored files included): that one is the
working tree's own run, which the site then renders.
Sides are kept in memory for the life of the process by the git tree ids of records/ and schema/ (consecutive
commits share one), and results per commit are kept in memory and on disk
(commit_cache.py: keyed by the commit and its parent, emptied by any code change), so a commit is compared once,
not on every build. Record text carried here (commit subjects, record names) is untrusted: the page and the feed
escape it.
"""
from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path
from typing import Any

from . import commit_cache
from .build import Run, check_stages
from .diff import CHANGE_VIEWS, cell_changes, count_changes, record_changes
from .diff_model import CommitChange
from .model.atlas import Atlas
from .revisions import DiffError, GitTree, project_prefix

HISTORY_PATHS = ("records", "schema")  # all a side without pages reads

COMMITS = 5  # how many recent commits that touched records/ the changelog walks (ATLAS_CHANGELOG_COMMITS overrides)


_MEMO: dict[tuple[str, str], CommitChange] = {}


def commit_limit() -> int:
    """The number of commits to walk: ATLAS_CHANGELOG_COMMITS when it is a number, else COMMITS."""
    value = os.environ.get("ATLAS_CHANGELOG_COMMITS", "")
    return int(value) if value.isdigit() else COMMITS


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


Side = tuple[Atlas | None, dict[tuple[str, str], dict[str, Any]]]
_SIDES: dict[str, Side] = {}


def _inputs_id(root: Path, prefix: str, sha: str) -> str:
    """The git tree ids of records/ and schema/ at a commit: commits with the same inputs build the same atlas."""
    result = subprocess.run(["git", "-C", str(root), "rev-parse", f"{sha}:{prefix}records", f"{sha}:{prefix}schema"],
                            capture_output=True, text=True, check=False)
    return result.stdout.replace("\n", " ").strip() if result.returncode == 0 else sha


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


def _side(root: Path, prefix: str, sha: str, current: Current | None = None) -> Side:
    key = _inputs_id(root, prefix, sha)
    if key not in _SIDES:
        if current is not None and key == current.inputs_id:
            run = current.run()
        else:
            run = check_stages(root, views=CHANGE_VIEWS, stored=GitTree(root, sha, prefix, HISTORY_PATHS))
        _SIDES[key] = (run.atlas, {(r.kind, r.id): r.data for r in run.records})
    return _SIDES[key]


class Current:
    """The working tree's load..check run, made at most once and only when asked for: the side of a commit whose
    records/ and schema/ are the working tree's is that run (its pages are rendered from the same run later)."""

    def __init__(self, root: Path):
        self.root = root
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
            self._run = check_stages(self.root)
        return self._run

    @property
    def checked(self) -> Run | None:
        """The run, when a side asked for it."""
        return self._run


def commit_change(root: Path, sha: str, parent: str, date: str, subject: str,
                  current: Current | None = None) -> CommitChange:
    """The change one commit made, compared with its first parent (each side read from git into memory: a file that
    one side shares with another loaded before is not read again, load._load_stored)."""
    key = (sha, parent)
    if key in _MEMO:
        return _MEMO[key]
    prefix = project_prefix(root)
    before, old_records = _side(root, prefix, parent, current)
    after, new_records = _side(root, prefix, sha, current)
    records = tuple(record_changes(old_records, new_records))
    if before is None or after is None:
        change = CommitChange(sha, date, subject, (), (), records,
                              "one side does not build, so only its records are compared")
    else:
        change = CommitChange(sha, date, subject, tuple(cell_changes(before, after)),
                              tuple(count_changes(before, after)), records)
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
    changes = []
    for sha, parent, date, subject in commits:
        change = _MEMO.get((sha, parent)) or commit_cache.lookup(table, sha, parent, date, subject)
        if change is None:
            try:
                change = commit_change(root, sha, parent, date, subject, current)
            except DiffError:
                continue
        commit_cache.keep(table, change, parent)  # also marks an entry found as still in use
        _MEMO[(sha, parent)] = change
        changes.append(change)
    table.save()
    return tuple(changes)
