"""A support matrix has one cell list per row, one cell per column, and a legend entry for every symbol it uses."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "matrix-shape"


def check(atlas: Atlas, matrix: Record) -> Iterator[Problem]:
    data = matrix.data
    rows, columns, cells = data["rows"], data["columns"], data["cells"]
    if len(cells) != len(rows):
        yield at(matrix, ("cells",), NAME, f"{len(cells)} cell rows for {len(rows)} rows; add or remove a row")
    symbols = {entry["symbol"].strip() for entry in data["legend"]}
    for r, row_cells in enumerate(cells):
        if len(row_cells) != len(columns):
            label = rows[r]["label"] if r < len(rows) else f"#{r}"
            yield at(matrix, ("cells", r), NAME,
                     f"row {label!r} has {len(row_cells)} cells for {len(columns)} columns")
        for c, symbol in enumerate(row_cells):
            if symbol.strip() not in symbols:
                yield at(matrix, ("cells", r, c), NAME,
                         f"symbol {symbol!r} has no legend entry; add it to legend with its verdict")


CHECK = Check(NAME, __doc__.strip(), "record:support-matrix", check_record=check, stage=SHAPE)
