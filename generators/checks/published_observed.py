"""Every cell of a release-scoped published table that disagrees with the observation of that release is explained by a finding, each release is listed by one table of a publisher only, and an explanation of a table the derived cells do not cover names a cell that still disagrees."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.published import models_release
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import Check, at

NAME = "published-observed"


def _explanations(atlas: Atlas) -> dict[tuple[str, str, str], tuple[Record, int]]:
    explained: dict[tuple[str, str, str], tuple[Record, int]] = {}
    for finding in atlas.index.all("finding"):
        for n, cell in enumerate(finding.data.get("explains", [])):
            explained[(cell["matrix"], cell["row"], cell["column"])] = (finding, n)
    return explained


def _positions(atlas: Atlas, matrix_id: str, row: str, column: str) -> tuple[int, int]:
    data = atlas.index.must("support-matrix", matrix_id).data
    rows = [r["label"] for r in data["rows"]]
    columns = [c["label"] for c in data["columns"]]
    return rows.index(row), columns.index(column)


def run(atlas: Atlas) -> Iterator[Problem]:
    yield from _releases_listed_once(atlas)
    explained = _explanations(atlas)
    disagreeing: set[tuple[str, str, str]] = set()
    reported: set[tuple[str, str, str]] = set()
    for claim in atlas.views.release_claims:
        key = (claim.matrix, claim.row, claim.column)
        if claim.agrees:
            continue
        disagreeing.add(key)
        if key in explained or key in reported:
            continue
        reported.add(key)
        r, c = _positions(atlas, *key)
        yield at(atlas.index.must("support-matrix", claim.matrix), ("cells", r, c), NAME,
                 f"published {claim.symbol!r} ({claim.published}) at [{claim.row!r}, {claim.column!r}] but "
                 f"{claim.observation} observes {claim.observed!r} in release {claim.release}; fix the mapping or add "
                 "a finding whose explains names this cell")
    for (matrix_id, row, column), (finding, n) in sorted(explained.items()):
        matrix = atlas.index.get("support-matrix", matrix_id)
        if matrix is None or models_release(atlas.index, matrix.data):
            continue  # published-explained judges explanations of tables the derived cells cover
        if (matrix_id, row, column) not in disagreeing:
            yield at(finding, ("explains", n), NAME,
                     f"stale explanation: no release listed by {matrix_id} observes [{row!r}, {column!r}] "
                     "differently from the published cell; remove this entry")


def _releases_listed_once(atlas: Atlas) -> Iterator[Problem]:
    seen: dict[tuple[str, str], str] = {}
    for matrix in atlas.index.all("support-matrix"):
        for n, release in enumerate(matrix.data.get("releases", [])):
            key = (matrix.data["publisher"], release)
            if key in seen:
                yield at(matrix, ("releases", n), NAME,
                         f"release {release} of {key[0]} is also listed by {seen[key]}; a release has one table")
            else:
                seen[key] = matrix.id


CHECK = Check(NAME, __doc__.strip(), "tree", run)
