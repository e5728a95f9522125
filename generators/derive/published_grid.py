"""Published grids: every support-matrix table cell by cell, as the site shows it beside the derivation.

For each table, row by row in the table's order: the publisher's symbol and verdict, whether the derivation can
compare it (the table is compared at the release the records model and the cell maps to derived cells), whether it
agrees, the distinct derived verdicts where it disagrees, and the finding whose `explains` names the cell (the last
one in record order, when several do), and, for a table that lists its releases, every release whose own
selection code disagreed with the cell (oldest release first). Per column, whether a compared cell disagrees.
Render only formats this. Pure functions of the index, the compared cells and the release claims; no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..model.index import Index
from ..model.verdicts import Verdict
from .published import PublishedCell
from .published_history import ReleaseClaim, explaining_findings


@dataclass(frozen=True)
class ReleaseDisagreement:
    """One listed release whose own selection code disagreed with a published cell: what it observed."""

    release: str
    observed: str  # yes, no or partial


@dataclass(frozen=True)
class GridCell:
    """One published cell: what the publisher says, and what the derivation says about it."""

    symbol: str
    published: str  # the publisher's verdict read through its legend ('unknown' when the legend has no entry)
    compared: bool  # the table is compared at the modelled release (False: only its symbol is shown)
    comparable: bool  # compared, and the cell maps to derived cells
    agrees: bool
    derived: str  # the derived cells aggregated: 'yes', 'no', 'partial' or 'none'
    verdicts: tuple[Verdict, ...]  # the distinct derived verdicts, in cell order, where a comparable cell disagrees
    finding: str | None  # the finding that names this cell in its `explains`
    observed_otherwise: tuple[ReleaseDisagreement, ...] = ()  # releases whose selection code disagreed, oldest first

    @property
    def disagrees(self) -> bool:
        return self.comparable and not self.agrees


@dataclass(frozen=True)
class PublishedGrid:
    """A support-matrix record's table as published, cell by cell, and which columns disagree."""

    matrix: str
    rows: tuple[tuple[GridCell, ...], ...]  # the table's rows, each cell in column order
    differs: tuple[bool, ...]  # per column: a comparable cell of it disagrees


def published_grids(index: Index, published: list[PublishedCell],
                     claims: list[ReleaseClaim]) -> dict[str, PublishedGrid]:
    """Every support-matrix record's grid, by id."""
    explained = {key: ids[-1] for key, ids in explaining_findings(index).items()}
    compared = {(p.matrix, p.row_index, p.column_index): p for p in published}
    otherwise = release_disagreements(claims)
    grids = {}
    for matrix in index.all("support-matrix"):
        data = matrix.data
        rows = tuple(tuple(replace(_cell(compared.get((matrix.id, r, c)), _symbol(data["cells"], r, c),
                                         explained.get((matrix.id, row["label"], column["label"]))),
                                   observed_otherwise=otherwise.get((matrix.id, row["label"], column["label"]), ()))
                           for c, column in enumerate(data["columns"]))
                     for r, row in enumerate(data["rows"]))
        differs = tuple(any(row[c].disagrees for row in rows) for c in range(len(data["columns"])))
        grids[matrix.id] = PublishedGrid(matrix.id, rows, differs)
    return grids


def release_disagreements(claims: list[ReleaseClaim]) -> dict[tuple[str, str, str], tuple[ReleaseDisagreement, ...]]:
    """(matrix, row label, column label) -> every checked release whose observation disagreed, in the claims' order."""
    found: dict[tuple[str, str, str], tuple[ReleaseDisagreement, ...]] = {}
    for claim in claims:
        if not claim.agrees:
            key = (claim.matrix, claim.row, claim.column)
            found[key] = found.get(key, ()) + (ReleaseDisagreement(claim.release, claim.observed),)
    return found


def _symbol(cells: list[list[str]], r: int, c: int) -> str:
    return cells[r][c] if r < len(cells) and c < len(cells[r]) else ""


def _cell(cell: PublishedCell | None, symbol: str, finding: str | None) -> GridCell:
    if cell is None:
        return GridCell(symbol, "unknown", False, False, True, "none", (), finding)
    verdicts = tuple(dict.fromkeys(c.verdict for c in cell.cells)) if cell.comparable and not cell.agrees else ()
    return GridCell(cell.symbol, cell.published, True, cell.comparable, cell.agrees, cell.derived, verdicts, finding)
