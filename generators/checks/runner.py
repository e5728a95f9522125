"""The check runner: iterates each check's scope, isolates a crash to the record (or check) that caused it."""
from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Iterable

from ..problems import Problem
from .base import Check

if TYPE_CHECKING:
    from ..model.atlas import Atlas


def run_checks(atlas: Atlas, registry: Iterable[Check], stage: str | None = None,
               errors_only: bool = False) -> list[Problem]:
    """Every problem the checks of `stage` (all stages when None) find; a crashing check becomes a problem too.
    With `errors_only` (the caller reads only whether there are errors), the checks that only warn are skipped."""
    problems: list[Problem] = []
    for check in registry:
        if (stage is not None and check.stage != stage) or (errors_only and check.warns_only):
            continue
        if check.check_record is not None:
            problems += _per_record(atlas, check)
        else:
            problems += _whole_tree(atlas, check)
    return problems


def _per_record(atlas: Atlas, check: Check) -> list[Problem]:
    assert check.check_record is not None
    problems: list[Problem] = []
    for kind in check.kinds:
        for record in atlas.index.all(kind):
            try:
                problems.extend(check.check_record(atlas, record))
            except Exception as error:  # one odd record must not hide the rule's findings on the others
                problems.append(Problem(record.path, 1, 1, check.name,
                                        f"check crashed on this record: {type(error).__name__}: {error}"))
    return problems


def _whole_tree(atlas: Atlas, check: Check) -> list[Problem]:
    assert check.run is not None
    try:
        return list(check.run(atlas))
    except Exception as error:  # a broken check must not hide the others' findings
        return [Problem("generators/checks", 1, 1, check.name, f"check crashed: {type(error).__name__}: {error}")]
