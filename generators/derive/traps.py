"""Traps in reading order: silent corruption first, then by severity, then by name."""
from __future__ import annotations

from ..model.fields import ENUMS
from ..model.index import Index
from ..model.records import Record
from .rows import TrapDetail, trap_detail

SEVERITY_ORDER = {severity: n for n, severity in enumerate(ENUMS["gotcha.severity"])}


def ordered_traps(index: Index) -> list[Record]:
    return sorted(index.all("gotcha"),
                  key=lambda r: (not r.data["silent"], SEVERITY_ORDER[r.data["severity"]], r.name.lower(), r.id))


def trap_details(index: Index) -> list[TrapDetail]:
    """Every gotcha's detail, in reading order."""
    return [trap_detail(r) for r in ordered_traps(index)]


def traps_by_regime(index: Index) -> dict[str, list[TrapDetail]]:
    """Trap details grouped by regime (in the order regimes first appear in reading order)."""
    grouped: dict[str, list[TrapDetail]] = {}
    for trap in trap_details(index):
        grouped.setdefault(trap.regime, []).append(trap)
    return grouped
