"""The check runner: iterates each check's scope, isolates a crash to the record (or check) that caused it.

A run that asks only whether a tree has errors (the changelog's past sides: build.check_stages with views) keeps each
record-scoped finding with what it read, and takes it again for the same record in the next such tree when every
record it read is the same object there: the changelog checks several past trees whose records are mostly the same
objects (load gives a file loaded alike the same record), and a record check is a function of its record, of the
records it looks up and of the backlinks it reads (a record's backlinks are compared by value: linking makes new lists
in every tree); a check that reads the index or the atlas any other way is never kept.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

from ..last_few import LastFew
from ..model.records import Record
from ..problems import Problem, has_errors
from ..recording import RecordingAtlas, _Reads
from .base import Check

if TYPE_CHECKING:
    from ..model.atlas import Atlas


def run_checks(atlas: Atlas, registry: Iterable[Check], stage: str | None = None,
               errors_only: bool = False, keep: bool = False) -> list[Problem]:
    """Every problem the checks of `stage` (all stages when None) find; a crashing check becomes a problem too.
    With `errors_only` (the caller reads only whether there are errors), the checks that only warn are skipped and
    the first error ends the run: the problems returned are then that error and those found before it. Such a run
    keeps and takes record checks' findings (_kept_findings); `keep` has a full run do so too, so that the trees
    checked after it (the changelog's, after the working tree's) find them."""
    problems: list[Problem] = []
    for check in registry:
        if (stage is not None and check.stage != stage) or (errors_only and check.warns_only):
            continue
        found = (_per_record(atlas, check, errors_only, keep or errors_only) if check.check_record is not None
                 else _whole_tree(atlas, check, errors_only))
        problems += found
        if errors_only and has_errors(found):
            break
    return problems


def _per_record(atlas: Atlas, check: Check, first_error: bool = False, kept: bool = False) -> list[Problem]:
    assert check.check_record is not None
    problems: list[Problem] = []
    for kind in check.kinds:
        for record in atlas.index.all(kind):
            start = len(problems)
            try:  # (a list first: a check that crashes after yielding gives the crash alone, kept or not)
                problems.extend(_kept_findings(atlas, check, record) if kept else list(check.check_record(atlas, record)))
            except Exception as error:  # one odd record must not hide the rule's findings on the others
                problems.append(Problem(record.path, 1, 1, check.name,
                                        f"check crashed on this record: {type(error).__name__}: {error}"))
            if first_error and has_errors(problems[start:]):
                return problems
    return problems


# (check name, record ref) -> the last few findings: (the record, each (kind, id) the check looked up with what it
# found, each record ref whose backlinks it read with what they were, the problems)
_KEPT: LastFew[tuple[Record, tuple[tuple[tuple[str, ...], Any], ...], tuple[tuple[str, Any], ...], list[Problem]]] = \
    LastFew()


def _kept_findings(atlas: Atlas, check: Check, record: Record) -> list[Problem]:
    """check_record's problems, or those an earlier tree's run found for the very same record object when every record
    that run looked up is the very same object (or absent) again and every record's backlinks it read are equal (or
    absent) again. The check reads the atlas through the recorder (recording.py); one that read anything but records
    by kind and id and backlinks by record is not kept."""
    assert check.check_record is not None
    index, key = atlas.index, (check.name, record.ref)
    kept = _KEPT.find(key, lambda entry: entry[0] is record
                      and all(index.get(*looked_up) is found for looked_up, found in entry[1])
                      and all(index.backlinks.get(ref) == links for ref, links in entry[2]))
    if kept is not None:
        return kept[3]
    reads = _Reads()
    problems = list(check.check_record(RecordingAtlas(atlas, reads), record))  # type: ignore[arg-type]
    looked_up = [read[1:] for read in reads.found if read[0] == "record" and len(read) == 3]
    backlinks = [read[1] for read in reads.found if read[0] == "backlinks" and len(read) == 2]
    if len(looked_up) + len(backlinks) == len(reads.found):
        _KEPT.keep(key, (record, tuple((k, index.get(*k)) for k in sorted(looked_up)),
                         tuple((ref, _copied(index.backlinks.get(ref))) for ref in sorted(backlinks)), problems))
    return problems


def _copied(links: list[Any] | None) -> list[Any] | None:
    """A copy of a backlinks list (None when the record has none), so a kept entry never changes with the index."""
    return None if links is None else list(links)


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
