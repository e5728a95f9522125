"""The check runner: iterates each check's scope, isolates a crash to the record (or check) that caused it.

A run that asks only whether a tree has errors (the changelog's past sides: build.check_stages with views) keeps each
record-scoped finding with what it read, and takes it again for the same record in the next such tree when every
record it read is the same object there: the changelog checks several past trees whose records are mostly the same
objects (load gives a file loaded alike the same record), and a record check is a function of its record and of the
records it looks up (a check that reads the index or the atlas any other way is never kept).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

from ..model.records import Record
from ..problems import Problem, has_errors
from .base import Check

if TYPE_CHECKING:
    from ..model.atlas import Atlas


def run_checks(atlas: Atlas, registry: Iterable[Check], stage: str | None = None,
               errors_only: bool = False) -> list[Problem]:
    """Every problem the checks of `stage` (all stages when None) find; a crashing check becomes a problem too.
    With `errors_only` (the caller reads only whether there are errors), the checks that only warn are skipped and
    the first error ends the run: the problems returned are then that error and those found before it."""
    problems: list[Problem] = []
    for check in registry:
        if (stage is not None and check.stage != stage) or (errors_only and check.warns_only):
            continue
        found = (_per_record(atlas, check, errors_only) if check.check_record is not None
                 else _whole_tree(atlas, check, errors_only))
        problems += found
        if errors_only and has_errors(found):
            break
    return problems


def _per_record(atlas: Atlas, check: Check, first_error: bool = False) -> list[Problem]:
    assert check.check_record is not None
    problems: list[Problem] = []
    for kind in check.kinds:
        for record in atlas.index.all(kind):
            start = len(problems)
            try:
                problems.extend(_kept_findings(atlas, check, record) if first_error
                                else check.check_record(atlas, record))
            except Exception as error:  # one odd record must not hide the rule's findings on the others
                problems.append(Problem(record.path, 1, 1, check.name,
                                        f"check crashed on this record: {type(error).__name__}: {error}"))
            if first_error and has_errors(problems[start:]):
                return problems
    return problems


# (check name, record ref) -> the last few findings: (the record, each (kind, id) the check looked up with what it
# found, the problems)
_KEPT: dict[tuple[str, str], list[tuple[Record, tuple[tuple[tuple[str, str], Any], ...], list[Problem]]]] = {}
_KEPT_PER_RECORD = 4


def _kept_findings(atlas: Atlas, check: Check, record: Record) -> list[Problem]:
    """check_record's problems, or those an earlier tree's run found for the very same record object when every record
    that run looked up is the very same object (or absent) again."""
    assert check.check_record is not None
    kept = _KEPT.setdefault((check.name, record.ref), [])
    index = atlas.index
    for old_record, reads, problems in kept:
        if old_record is record and all(index.get(kind, record_id) is found for (kind, record_id), found in reads):
            return problems
    seen = _ReadAtlas(atlas)
    problems = list(check.check_record(seen, record))  # type: ignore[arg-type]
    if not seen.index.everything:
        kept.insert(0, (record, tuple(seen.index.read.items()), problems))
        del kept[_KEPT_PER_RECORD:]
    return problems


class _ReadIndex:
    """The index as one record's check reads it: each record looked up by kind and id is noted with what it found; any
    other use of it marks the check as reading everything."""

    def __init__(self, index: Any):
        self._index = index
        self.read: dict[tuple[str, str], Any] = {}
        self.everything = False

    def get(self, kind: str, record_id: str) -> Any:
        found = self.read[(kind, record_id)] = self._index.get(kind, record_id)
        return found

    def by_ref(self, ref: str) -> Any:
        kind, _, record_id = ref.partition("/")
        return self.get(kind, record_id)

    def __getattr__(self, name: str) -> Any:  # must, all, by_kind, backlinks, ...: everything
        self.everything = True
        return getattr(self._index, name)


class _ReadAtlas:
    """The atlas as one record's check reads it: its index through _ReadIndex, anything else as reading everything."""

    def __init__(self, atlas: Atlas):
        self._atlas = atlas
        self.index = _ReadIndex(atlas.index)

    def __getattr__(self, name: str) -> Any:  # schemas, views, root, ...
        self.index.everything = True
        return getattr(self._atlas, name)


def _whole_tree(atlas: Atlas, check: Check, first_error: bool = False) -> list[Problem]:
    assert check.run is not None
    problems: list[Problem] = []
    try:
        for problem in check.run(atlas):
            problems.append(problem)
            if first_error and problem.severity == "error":
                break  # (a check written as a generator stops here: the rest of its findings are not computed)
        return problems
    except Exception as error:  # a broken check must not hide the others' findings
        return [Problem("generators/checks", 1, 1, check.name, f"check crashed: {type(error).__name__}: {error}")]
