"""The FLOP map's ridge points folded to one row per part: per precision, the FLOP-per-byte value, or its range
when sources disagree, with the number of pairings behind it. Every pairing stays in `views.ridges`."""
from __future__ import annotations

from dataclasses import dataclass

from .flops import Ridge
from .order import rank
from .selection import PRECISION_ORDER


@dataclass(frozen=True)
class RidgeSpan:
    low: float
    high: float
    pairings: int
    estimate: bool
    unverified: bool = False  # every pairing behind the span rests on a figure no primary source states

    @property
    def single(self) -> bool:
        return self.low == self.high


@dataclass(frozen=True)
class RidgePart:
    accelerator: str
    spans: tuple[RidgeSpan | None, ...]  # one per precision column; None where the part has no ridge there


@dataclass(frozen=True)
class RidgeTable:
    precisions: tuple[str, ...]
    parts: tuple[RidgePart, ...]


def ridge_table(ridges: list[Ridge]) -> RidgeTable:
    """Parts in the order ridges first name them; precisions in the shared precision order."""
    precisions = tuple(sorted({r.precision for r in ridges}, key=lambda p: rank(p, PRECISION_ORDER)))
    grouped: dict[str, dict[str, list[Ridge]]] = {}
    for ridge in ridges:
        grouped.setdefault(ridge.accelerator, {}).setdefault(ridge.precision, []).append(ridge)
    parts = []
    for accelerator, by_precision in grouped.items():
        spans = []
        for precision in precisions:
            found = by_precision.get(precision, [])
            values = [r.flop_per_byte for r in found]
            spans.append(RidgeSpan(min(values), max(values), len(found), any(r.estimate for r in found),
                                   all(r.unverified for r in found)) if found else None)
        parts.append(RidgePart(accelerator, tuple(spans)))
    return RidgeTable(precisions, tuple(parts))
