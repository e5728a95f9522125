"""Every published cell that disagrees with its derived cell is explained by a finding, and every finding's explained cell (of a table the derived cells cover) exists and still disagrees, with the derived cell or with an observation of a release the table lists."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.published import models_release
from ..model.atlas import Atlas
from ..problems import Problem
from ..model.records import Record
from .base import Check, at

NAME = "published-explained"


def run(atlas: Atlas) -> Iterator[Problem]:
    explained: dict[tuple[str, str, str], tuple[Record, int]] = {}
    for finding in atlas.index.all("finding"):
        for n, entry in enumerate(finding.data.get("explains", [])):
            explained[(entry["matrix"], entry["row"], entry["column"])] = (finding, n)
    published = {(p.matrix, p.row, p.column): p for p in atlas.views.published}
    # a cell the modelled release agrees on may still disagree with an older release's observation, and
    # published-observed demands an explanation for that one: such an explanation is not stale
    observed_disagreeing = {(c.matrix, c.row, c.column) for c in atlas.views.release_claims if not c.agrees}
    for (matrix_id, row, column), (finding, n) in sorted(explained.items()):
        matrix = atlas.index.get("support-matrix", matrix_id)
        if matrix is not None and not models_release(atlas.index, matrix.data):
            continue  # a table of other releases: published-observed judges its explanations
        cell = published.get((matrix_id, row, column))
        if cell is None:
            yield at(finding, ("explains", n), NAME,
                     f"{matrix_id} has no cell at row {row!r}, column {column!r}; fix the labels")
        elif cell.agrees and (matrix_id, row, column) not in observed_disagreeing:
            yield at(finding, ("explains", n), NAME,
                     f"stale explanation: {matrix_id} [{row!r}, {column!r}] is published {cell.symbol!r} "
                     f"and derived {cell.derived!r}, which agree; remove this entry")
    for cell in atlas.views.published:
        if not cell.agrees and (cell.matrix, cell.row, cell.column) not in explained:
            matrix = atlas.index.get("support-matrix", cell.matrix)
            assert matrix is not None
            yield at(matrix, ("cells", cell.row_index, cell.column_index), NAME,
                     f"published {cell.symbol!r} ({cell.published}) at [{cell.row!r}, {cell.column!r}] but the dispatch "
                     f"rules derive {cell.derived!r}; fix the mapping or add a finding whose explains names this cell")


CHECK = Check(NAME, __doc__.strip(), "tree", run)
