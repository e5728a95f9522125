"""Engine views: engine x format x backend rows from engine records, and derived cell grids per engine.

Pure functions from the linked index and derived cells to plain rows in a stable order.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model.fields import ENUMS
from ..model.index import Index
from .cells import Cell
from .order import rank, targets_in_order
from .provenance import is_primary

CATEGORY_ORDER = ENUMS["engine.category"]
STATUS_ORDER = {status: n for n, status in enumerate(ENUMS["engine.format_support.status"])}


@dataclass(frozen=True)
class SupportRow:
    """One format_support entry of an engine record; `primary` is False when only a seed draft states it."""

    format: str
    status: str
    backends: tuple[str, ...]
    note: str
    source: str
    primary: bool
    unverified: str = ""  # why the status rests on a partial reading; empty when the source shows it whole


@dataclass(frozen=True)
class EngineSupport:
    """An engine, its declared backends, and what its record says it runs or writes."""

    engine: str
    category: str
    backends: tuple[str, ...]
    rows: tuple[SupportRow, ...]


@dataclass(frozen=True)
class GridRow:
    """One scheme's row of an engine's grid: its formats and its cell on each target."""

    scheme: str
    formats: tuple[str, ...]
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class CellGrid:
    """Derived cells of one engine's schemes: rows are schemes (by id), columns are targets (by `order`)."""

    engine: str
    targets: tuple[str, ...]
    rows: tuple[GridRow, ...]


def engine_support(index: Index) -> list[EngineSupport]:
    """Engines with format_support entries, by category then id; rows by status (runs first), then format id."""
    out = []
    for record in index.all("engine"):
        entries = record.data.get("format_support", [])
        if not entries:
            continue
        rows = sorted((SupportRow(e["format"], e["status"], tuple(e.get("backends", [])), e.get("note", ""), e["source"],
                                  is_primary(index, e["source"]), e.get("unverified", "")) for e in entries), key=lambda r: (STATUS_ORDER.get(r.status, len(STATUS_ORDER)), r.format))
        out.append(EngineSupport(record.id, record.data["category"], tuple(record.data.get("backends", [])), tuple(rows)))
    return sorted(out, key=lambda e: (rank(e.category, CATEGORY_ORDER), e.engine))


def engines_without_format_support(index: Index) -> tuple[str, ...]:
    """Engines whose record lists no format at all."""
    return tuple(r.id for r in index.all("engine") if not r.data.get("format_support"))


def formats_without_engine(index: Index) -> tuple[str, ...]:
    """Formats (not categories) that no engine's format_support names and no scheme serves."""
    named = {e["format"] for r in index.all("engine") for e in r.data.get("format_support", [])}
    named |= {f for s in index.all("scheme") for f in s.data.get("formats", [])}
    return tuple(f.id for f in index.all("format") if f.id not in named and f.data.get("family") != "category")


def cell_grids(index: Index, cells: dict[tuple[str, str], Cell]) -> list[CellGrid]:
    """One grid per engine that has scheme records, engines by id; every target is a column."""
    targets = tuple(t.id for t in targets_in_order(index))
    by_engine: dict[str, list[GridRow]] = {}
    for scheme in index.all("scheme"):
        row = GridRow(scheme.id, tuple(scheme.data.get("formats", [])),
                      tuple(cells[(scheme.id, t)] for t in targets if (scheme.id, t) in cells))
        by_engine.setdefault(scheme.data["engine"], []).append(row)
    return [CellGrid(engine, targets, tuple(by_engine[engine])) for engine in sorted(by_engine)]
