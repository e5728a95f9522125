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
    concerns = _TrapIndex(traps)
    parts = {t.id: frozenset(members(index, t)) for t in index.all("hardware-target")}
    return {key: _answer(index, cell, tuple(claims.get(key, ())), concerns, parts) for key, cell in sorted(cells.items())}


@dataclass(frozen=True)
class _Trap:
    position: int
    id: str
    kernels: frozenset[str]
    engines: frozenset[str]
    parts: frozenset[str]
    formats: frozenset[str]


class _TrapIndex:
    """The traps by the kernels and formats they name, so a cell looks at the traps that concern it, not at all of them."""

    def __init__(self, traps: list[Record]):
        self.by_kernel: dict[str, list[_Trap]] = {}
        self.by_format: dict[str, list[_Trap]] = {}
        for position, record in enumerate(traps):
            data = record.data
            trap = _Trap(position, record.id, frozenset(data.get("kernels", [])), frozenset(data.get("engines", [])),
                         frozenset(data.get("accelerators", [])), frozenset(data.get("formats", [])))
            for kernel in trap.kernels:
                self.by_kernel.setdefault(kernel, []).append(trap)
            for name in trap.formats:
                self.by_format.setdefault(name, []).append(trap)

    def concerning(self, kernel: str | None, formats: set[str]) -> list[_Trap]:
        found = {t.position: t for t in self.by_kernel.get(kernel or "", [])}
        for name in formats:
            found.update((t.position, t) for t in self.by_format.get(name, []))
        return [found[position] for position in sorted(found)]  # the reading order of the traps list


def _answer(index: Index, cell: Cell, claims: tuple[PublishedClaim, ...], traps: _TrapIndex,
            parts: dict[str, frozenset[str]]) -> Answer:
    scheme = index.get("scheme", cell.scheme)
    formats = set(scheme.data.get("formats", [])) if scheme else set()
    accelerators = parts.get(cell.target, frozenset())
    tried = {a.kernel for a in cell.attempts}
    applying = tuple(t.id for t in traps.concerning(cell.kernel, formats)
                     if _applies(t, cell, tried, formats, accelerators))
    return Answer(cell, claims, applying, _sources(index, cell, scheme, claims))


def _applies(trap: _Trap, cell: Cell, tried: set[str], formats: set[str], accelerators: frozenset[str]) -> bool:
    by_format = bool(formats & trap.formats) and (not trap.kernels or bool(trap.kernels & tried))
    named = cell.kernel in trap.kernels or by_format
    return named and (not trap.engines or cell.engine in trap.engines) and (not trap.parts or bool(trap.parts & accelerators))


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
