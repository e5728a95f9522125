"""FieldChange, and the walk that lists, field by field, what differs between two derived cells' contents.

FieldChange is what every part of the diff reports (records' fields too, walked by diff.field_changes); the content
walk is used by cell_content (cells on both sides) and by the report (a renamed cell said once with what else changes
in it). They need nothing of the package, so they live apart: the report imports no stage through them.
"""
from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

LIST_KEYS = ("kernel", "part", "release")  # a list of mappings distinct by one of these is keyed by it


@dataclass(frozen=True)
class FieldChange:
    """One field of a record or of a cell's content that differs; `old`/`new` are None on a side without the field,
    which `old_absent`/`new_absent` say: a field there with the value null (a record's `weight_bits: null`) is not
    absent, nor is one that is false. Left unsaid, a None value is taken as absent."""

    field: str
    old: Any
    new: Any
    old_absent: bool | None = None  # always a bool once built (__post_init__)
    new_absent: bool | None = None

    def __post_init__(self) -> None:
        if self.old_absent is None:
            object.__setattr__(self, "old_absent", self.old is None)
        if self.new_absent is None:
            object.__setattr__(self, "new_absent", self.new is None)

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "old": self.old, "new": self.new, "old_absent": self.old_absent,
                "new_absent": self.new_absent}


def content_fields(old: Any, new: Any, path: str = "") -> Iterator[FieldChange]:
    """The fields that differ, as `a.b`, `list[kernel-id]` (keyed lists) and `list[3]` (aligned lists); a value on
    one side only has None on the other, said absent there."""
    if isinstance(old, dict) and isinstance(new, dict):
        yield from _fields(old, new, lambda key: f"{path}.{key}" if path else key)
    elif isinstance(old, list) and isinstance(new, list):
        keyed = _keyed(old, new)
        if keyed is not None:
            yield from _fields(*keyed, lambda key: f"{path}[{key}]")
            order = [[key for key in side if key in keyed[0] and key in keyed[1]] for side in keyed]
            if order[0] != order[1]:
                yield FieldChange(f"{path} (order)", list(keyed[0]), list(keyed[1]), old_absent=False, new_absent=False)
        else:
            yield from _aligned(old, new, path)
    elif old != new:
        yield FieldChange(path, old, new, old_absent=False, new_absent=False)  # both there (a list's null item too)


def _fields(old: dict[str, Any], new: dict[str, Any], at: Callable[[str], str]) -> Iterator[FieldChange]:
    for key in sorted(set(old) | set(new)):
        if key in old and key in new:
            if old[key] != new[key]:
                yield from content_fields(old[key], new[key], at(key))
        elif old.get(key, new.get(key)) is not False:  # a false beside no field is no change (module docstring)
            yield FieldChange(at(key), old.get(key), new.get(key), old_absent=key not in old, new_absent=key not in new)


def _keyed(old: list[Any], new: list[Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Both lists as mappings id -> item (in list order), by the first of LIST_KEYS that every item of both names
    distinctly; None where none does."""
    items = old + new
    if not items or not all(isinstance(item, dict) for item in items):
        return None
    for name in LIST_KEYS:
        if all(isinstance(item.get(name), str) for item in items):
            ids = [[item[name] for item in side] for side in (old, new)]
            if all(len(set(side)) == len(side) for side in ids):
                return dict(zip(ids[0], old)), dict(zip(ids[1], new))
    return None


def _aligned(old: list[Any], new: list[Any], path: str) -> Iterator[FieldChange]:
    """Items matched as difflib matches lines: an item replaced is walked, one removed or added is a change alone
    (`[i]` is its place on the side that has it)."""
    said = [[json.dumps(item, sort_keys=True) for item in side] for side in (old, new)]
    for op, a0, a1, b0, b1 in difflib.SequenceMatcher(None, said[0], said[1], autojunk=False).get_opcodes():
        if op == "equal":
            continue
        pairs = min(a1 - a0, b1 - b0)
        for i in range(pairs):
            yield from content_fields(old[a0 + i], new[b0 + i], f"{path}[{b0 + i}]")
        for i in range(a0 + pairs, a1):
            yield FieldChange(f"{path}[{i}]", old[i], None, old_absent=False, new_absent=True)
        for i in range(b0 + pairs, b1):
            yield FieldChange(f"{path}[{i}]", None, new[i], old_absent=True, new_absent=False)
