"""Published support-matrix cells set beside the derived cells they claim.

A published row or column maps to schemes and/or hardware targets. Where both a scheme and a
target are known, every (scheme, target) pair is derived; the published cell agrees when it says
yes and every pair runs as specified (`runs`, or `runs-if` under named conditions), says no and
no pair does (a fallback to another precision, a run-time failure or a refusal), or says partial and
the pairs differ. Anything else is a disagreement that a finding must explain. A table that lists the releases
it applies to is compared here only if one of them is the release the records model (the engine's version_read);
the others are checked against observations (published_history.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model.index import Index
from .cells import Cell
from ..model.fields import SupportMatrixColumns, SupportMatrixFields, SupportMatrixRows


@dataclass(frozen=True)
class PublishedCell:
    """One cell of a publisher's support table: what it says, what the derivation says, and the cells it covers."""

    matrix: str
    row: str
    column: str
    row_index: int
    column_index: int
    symbol: str
    published: str
    derived: str
    cells: tuple[Cell, ...]

    @property
    def comparable(self) -> bool:
        return self.derived != "none"

    @property
    def agrees(self) -> bool:
        if not self.comparable or self.published == "unknown":
            return True
        return self.published == self.derived


def compare_matrices(index: Index, cells: dict[tuple[str, str], Cell]) -> list[PublishedCell]:
    out = []
    for matrix in index.all("support-matrix"):
        data = matrix.data
        if not models_release(index, data):
            continue
        legend = {entry["symbol"].strip(): entry["verdict"] for entry in data["legend"]}
        for r, row in enumerate(data["rows"]):
            row_cells = data["cells"][r] if r < len(data["cells"]) else []
            for c, column in enumerate(data["columns"]):
                symbol = row_cells[c] if c < len(row_cells) else ""
                derived_cells = _cells_for(row, column, cells)
                out.append(PublishedCell(matrix.id, row["label"], column["label"], r, c, symbol,
                                         legend.get(symbol.strip(), "unknown"), _aggregate(derived_cells), derived_cells))
    return out


def models_release(index: Index, data: SupportMatrixFields) -> bool:
    """A table is compared with the derived cells when it lists no releases or lists the one the records model."""
    releases = data.get("releases")
    if not releases:
        return True
    engine = index.get("engine", data["publisher"])
    return engine is not None and engine.data.get("version_read") in releases


def _cells_for(row: SupportMatrixRows, column: SupportMatrixColumns, cells: dict[tuple[str, str], Cell]) -> tuple[Cell, ...]:
    schemes = row.get("schemes", []) + column.get("schemes", [])
    targets = row.get("targets", []) + column.get("targets", [])
    return tuple(cells[(s, t)] for s in schemes for t in targets if (s, t) in cells)


def _aggregate(derived: tuple[Cell, ...]) -> str:
    if not derived:
        return "none"
    verdicts = {c.verdict.runs_as_specified for c in derived}
    if verdicts == {True}:
        return "yes"
    if verdicts == {False}:
        return "no"
    return "partial"
