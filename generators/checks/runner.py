"""The check runner: iterates each check's scope, isolates a crash to the record (or check) that caused it."""
from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Iterable

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
                problems.extend(check.check_record(atlas, record))
            except Exception as error:  # one odd record must not hide the rule's findings on the others
                problems.append(Problem(record.path, 1, 1, check.name,
                                        f"check crashed on this record: {type(error).__name__}: {error}"))
            if first_error and has_errors(problems[start:]):
                return problems
    return problems


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
