"""On-disk copy of what each past commit did to the derived data (record_history.py), computed once per commit.

A commit's change depends only on the trees of the commit and of its first parent (fixed by their ids) and on
the code that loads, derives and compares them. So an entry is keyed by the two commit ids, and the table is
salted with the bytes of every source file of this package: any code change empties it. It is one table of
generators/cache.py: the user's cache folder (never the repository), one atomic write per run (temporary file,
then rename), so concurrent runs never read half a file, and `ATLAS_CACHE=off` turns it off. A change that would
not come back equal from JSON is computed every time instead of being kept.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .cache import ContentCache
from .diff_model import CellChange, CommitChange, CountChange, FieldChange, RecordChange

PACKAGE = Path(__file__).resolve().parent


def code_files() -> list[str]:
    """Every Python source of the generator package, in a stable order (the salt of the table)."""
    return sorted(str(p) for p in PACKAGE.rglob("*.py"))


def open_table() -> ContentCache:
    """The table of commit changes, salted with the package's code."""
    return ContentCache.for_code("commit-changes", *code_files())


def key_of(sha: str, parent: str) -> str:
    return f"{sha}:{parent}"


def as_value(change: CommitChange) -> dict[str, Any]:
    """What a change keeps beyond the commit's own id, date and subject (those come from git log)."""
    # each cell's labels too ("Fallback if"): not part of a change's identity, so the trip through JSON would not
    # notice them gone, and a warm build's changelog would say "fallback" where a cold one says "fallback if"
    return {"cells": [{**c.as_dict(), "old_label": c.old_label, "new_label": c.new_label} for c in change.cells],
            "counts": [c.as_dict() for c in change.counts],
            "records": [r.as_dict() for r in change.records], "note": change.note}


def from_value(value: dict[str, Any], sha: str, date: str, subject: str) -> CommitChange:
    """The change as_value kept, with the commit's id, date and subject."""
    records = tuple(RecordChange(r["kind"], r["id"], r["status"], tuple(FieldChange(**f) for f in r["fields"]),
                                 r["renamed_from"]) for r in value["records"])
    return CommitChange(sha, date, subject, tuple(CellChange.from_dict(c) for c in value["cells"]),
                        tuple(CountChange(**c) for c in value["counts"]), records, value["note"])


def lookup(table: ContentCache, sha: str, parent: str, date: str, subject: str) -> CommitChange | None:
    """The kept change of a commit, or None (not kept, or kept in a form this code does not read)."""
    value = table.get(key_of(sha, parent))
    if not isinstance(value, dict):
        return None
    try:
        return from_value(value, sha, date, subject)
    except (KeyError, TypeError):
        return None


def keep(table: ContentCache, change: CommitChange, parent: str) -> None:
    """Keep a change for later runs when it survives the trip through JSON unchanged."""
    if not table.enabled:
        return
    try:
        value = json.loads(json.dumps(as_value(change), ensure_ascii=False))
    except (TypeError, ValueError):
        return
    if from_value(value, change.sha, change.date, change.subject) == change:
        table.put(key_of(change.sha, parent), value)
