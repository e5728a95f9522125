"""What a check is, and how a check reports a problem at a record's field.

A check has a name, its rule in one sentence, a scope and a stage. A record-scoped check is a function of
one record: the runner iterates the records of its kinds, and a crash is isolated to (and located at) the
record that caused it. A tree-scoped check sees the whole atlas. `shape` checks read records and the index
only and run before the views are derived, so views can trust the shapes; `views` checks run after. `pages` checks
read a view that only record pages need (derive.PAGE_VIEWS): they run where record pages render (the site build,
`check --all-pages`), so a plain `check` does not compute that view for them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Iterable

from ..paths import dotted
from ..problems import Problem
from ..model.records import Record

if TYPE_CHECKING:
    from ..model.atlas import Atlas

SHAPE, VIEWS, PAGES = "shape", "views", "pages"


@dataclass(frozen=True)
class Check:
    """A cross-record rule: its name, the rule in one sentence, its scope, its stage and the function yielding problems.

    Scope `tree`: `run(atlas)` yields problems. Scope `record:<kind>[,<kind>...]`: `check_record(atlas, record)`
    yields the problems of one record, and the runner does the iteration.
    """

    name: str
    description: str
    scope: str
    run: Callable[[Atlas], Iterable[Problem]] | None = None
    check_record: Callable[[Atlas, Record], Iterable[Problem]] | None = None
    stage: str = VIEWS
    warns_only: bool = False  # its findings are warnings: a run that asks only whether a tree has errors skips it

    @property
    def kinds(self) -> tuple[str, ...]:
        """The record kinds a record-scoped check iterates (empty for a tree check)."""
        return tuple(self.scope.partition(":")[2].split(",")) if self.scope.startswith("record:") else ()


def at(record: Record, path: tuple[Any, ...], rule: str, message: str, severity: str = "error") -> Problem:
    line, column = record.position(path)
    prefix = f"{dotted(path)}: " if path else ""
    return Problem(record.path, line, column, rule, prefix + message, severity)
