"""What a check is, and how a check reports a problem at a record's field."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..paths import dotted
from ..problems import Problem
from ..model.records import Record

if TYPE_CHECKING:
    from ..model.atlas import Atlas


@dataclass(frozen=True)
class Check:
    """A cross-record rule: its name, the rule in one sentence, its scope and the function yielding problems."""

    name: str
    description: str
    scope: str
    run: Callable[["Atlas"], Iterable[Problem]]


def at(record: Record, path: tuple[Any, ...], rule: str, message: str) -> Problem:
    line, column = record.position(path)
    prefix = f"{dotted(path)}: " if path else ""
    return Problem(record.path, line, column, rule, prefix + message)
