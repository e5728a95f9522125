"""Answers: one derived support cell with everything a reader needs beside its verdict.

For each (scheme, hardware target): the published cells that claim it (with the finding that
explains a disagreement), the traps that apply (silent first, then by severity, the order of
`ordered_traps`), and the sources behind the verdict (the scheme, the kernels it tried, the findings).
A trap applies when it concerns the cell and nothing excludes it: it names the serving kernel, or one of
the scheme's formats (and then, if it names kernels, one the walk tried for this cell), and the engines and accelerators
it names, if any, include the cell's engine and one of the target's accelerators. Pure functions; no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from ..model.records import Record
from .cells import Cell
from .members import members
from .published import PublishedCell


@dataclass(frozen=True)
class PublishedClaim:
    """What a publisher's table says about this cell, and whether it agrees with the derivation."""

    matrix: str
    row: str
    column: str
    symbol: str
    says: str
    agrees: bool
    finding: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"matrix": self.matrix, "row": self.row, "column": self.column, "symbol": self.symbol,
                "says": self.says, "agrees": self.agrees, "finding": self.finding}


@dataclass(frozen=True)
class Answer:
    """A derived cell with its published claims, applicable traps and sources (ids, in reading order)."""

    cell: Cell
    published: tuple[PublishedClaim, ...]
    traps: tuple[str, ...]
    sources: tuple[str, ...]

    @property
    def findings(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.finding for p in self.published if p.finding))


def derive_answers(index: Index, cells: dict[tuple[str, str], Cell], published: list[PublishedCell],
                   traps: list[Record]) -> dict[tuple[str, str], Answer]:
    """Every cell's answer, keyed like `cells`."""
    explained = {(e["matrix"], e["row"], e["column"]): f.id
                 for f in index.all("finding") for e in f.data.get("explains", [])}
    claims: dict[tuple[str, str], list[PublishedClaim]] = {}
    for p in published:
        claim = PublishedClaim(p.matrix, p.row, p.column, p.symbol, p.published, p.agrees,
                               None if p.agrees else explained.get((p.matrix, p.row, p.column)))
        for cell in p.cells:
            claims.setdefault((cell.scheme, cell.target), []).append(claim)
    return {key: _answer(index, cell, tuple(claims.get(key, ())), traps) for key, cell in sorted(cells.items())}


def _answer(index: Index, cell: Cell, claims: tuple[PublishedClaim, ...], traps: list[Record]) -> Answer:
    scheme = index.get("scheme", cell.scheme)
    target = index.get("hardware-target", cell.target)
    formats = set(scheme.data.get("formats", [])) if scheme else set()
    accelerators = set(members(index, target)) if target else set()
    tried = {a.kernel for a in cell.attempts}
    applying = tuple(t.id for t in traps if _applies(t.data, cell, tried, formats, accelerators))
    return Answer(cell, claims, applying, _sources(index, cell, scheme, claims))


def _applies(trap: dict[str, Any], cell: Cell, tried: set[str], formats: set[str], accelerators: set[str]) -> bool:
    kernels, engines, parts = set(trap.get("kernels", [])), set(trap.get("engines", [])), set(trap.get("accelerators", []))
    by_format = bool(formats & set(trap.get("formats", []))) and (not kernels or bool(kernels & tried))
    named = cell.kernel in kernels or by_format
    return named and (not engines or cell.engine in engines) and (not parts or bool(parts & accelerators))


def _sources(index: Index, cell: Cell, scheme: Record | None, claims: tuple[PublishedClaim, ...]) -> tuple[str, ...]:
    kernels = [cell.kernel] if cell.verdict.loads and cell.kernel else [a.kernel for a in cell.attempts]
    records = [scheme] + [index.get("kernel", k) for k in kernels]
    records += [index.get("finding", c.finding) for c in claims if c.finding]
    records += [index.get("support-matrix", c.matrix) for c in claims]
    ids: list[str] = []
    for record in records:
        if record is None:
            continue
        for citation in record.data.get("sources", []):
            if citation["source"] not in ids:
                ids.append(citation["source"])
    return tuple(ids)
