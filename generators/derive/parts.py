"""A cell's answer on one part of its target, where the part needs more than the target does.

A hardware target stands for several parts; an answer is the target's. A part may need more: a fixed host CPU that a
package's install route leaves out (`host_fit`), or a compute capability of its own that the default install's
binaries carry no code for (`part_builds`). Such a part's answer is the cell's with those needs as its first
conditions; a cell that `runs` becomes `runs-if` there, and a cell that does not load stays as it is (it gains
nothing). Pure data and one function.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..model.verdicts import Verdict
from .cells import Cell


@dataclass(frozen=True)
class PartNeed:
    """What the part needs before the cell's own conditions, in words, with the source that shows why."""

    said: str
    source: str
    locator: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"said": self.said, "source": self.source, "locator": self.locator}


@dataclass(frozen=True)
class PartAnswer:
    """A cell's answer on one part, where the part needs more than the target."""

    part: str
    verdict: Verdict
    needs: tuple[PartNeed, ...]

    @property
    def conditions(self) -> tuple[str, ...]:
        return tuple(need.said for need in self.needs)

    @property
    def fallback_if(self) -> bool:
        """A fallback on this part is one a default install does not reach, whatever the target's: the part first
        needs what that install lacks (Cell.fallback_if; a part's runs-if is the same need said in its verdict)."""
        return self.verdict is Verdict.FALLBACK and bool(self.needs)

    def as_dict(self) -> dict[str, Any]:
        return {"part": self.part, "verdict": self.verdict.value, "conditions": list(self.conditions),
                "needs": [n.as_dict() for n in self.needs]}


def part_answers(cell: Cell, *needs_by_part: Mapping[str, Iterable[PartNeed]]) -> tuple[PartAnswer, ...]:
    """The cell's answer on each part some of `needs_by_part` name, by part id; empty for a cell that does not load."""
    if not cell.verdict.loads:
        return ()
    found: dict[str, list[PartNeed]] = {}
    for needs in needs_by_part:
        for part, listed in needs.items():
            found.setdefault(part, []).extend(listed)
    verdict = Verdict.RUNS_IF if cell.verdict is Verdict.RUNS else cell.verdict
    return tuple(PartAnswer(part, verdict, tuple(found[part])) for part in sorted(found) if found[part])
