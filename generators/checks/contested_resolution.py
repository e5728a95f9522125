"""A contested value resolved by a finding names a finding that concerns the contested record."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "contested-resolution"


def run(atlas: Atlas) -> Iterator[Problem]:
    for kind in sorted(atlas.index.by_kind):
        for record in atlas.index.all(kind):
            for n, entry in enumerate(record.data.get("contested", [])):
                finding_id = entry.get("resolution")
                finding = atlas.index.get("finding", finding_id) if finding_id else None
                if finding is not None and record.ref not in finding.data.get("concerns", []):
                    yield at(record, ("contested", n, "resolution"), NAME,
                             f"finding {finding_id!r} does not list {record.ref!r} in its concerns ({finding.path}); "
                             f"add it there or pick the finding that does")


CHECK = Check(NAME, __doc__.strip(), "tree", run, stage=SHAPE)
