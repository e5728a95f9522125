"""Stable orderings shared by the views: an explicit order where the data defines one, then ids."""
from __future__ import annotations

from collections.abc import Sequence

from ..model.index import Index
from ..model.records import Record


def rank(value: str, order: Sequence[str]) -> tuple[int, str]:
    """Sort key placing `value` by its position in `order`; unknown values after, alphabetically."""
    return (order.index(value) if value in order else len(order), value)


def targets_in_order(index: Index) -> list[Record]:
    """Hardware targets by their `order` field, then id: the column order of every support table."""
    return sorted(index.all("hardware-target"), key=lambda t: (t.data["order"], t.id))
