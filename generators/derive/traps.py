"""Traps in reading order: silent corruption first, then by severity, then by name."""
from __future__ import annotations

from ..model.index import Index
from ..model.records import Record

SEVERITY_ORDER = {"blocker": 0, "major": 1, "minor": 2}


def ordered_traps(index: Index) -> list[Record]:
    return sorted(index.all("gotcha"),
                  key=lambda r: (not r.data["silent"], SEVERITY_ORDER[r.data["severity"]], r.name.lower(), r.id))


def traps_by_regime(index: Index) -> dict[str, list[Record]]:
    grouped: dict[str, list[Record]] = {}
    for trap in ordered_traps(index):
        grouped.setdefault(trap.data["regime"], []).append(trap)
    return grouped
