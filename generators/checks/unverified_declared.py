"""An accelerator, format, kernel, benchmark, gotcha, engine, technique or support-matrix record with no primary citation declares `unverified`; one that cites a primary source does not."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.provenance import citations, first_primary_citation
from ..model.atlas import Atlas
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "unverified-declared"
KINDS: tuple[str, ...] = ("accelerator", "format", "kernel", "benchmark", "gotcha", "engine", "technique", "support-matrix")


def run(atlas: Atlas) -> Iterator[Problem]:
    for kind in KINDS:
        for record in atlas.index.all(kind):
            primary = first_primary_citation(atlas.index, record)
            declared = "unverified" in record.data
            if primary is None and not declared:
                cited = sorted({link.target.partition("/")[2] for link in citations(atlas.index, record)})
                yield at(record, (), NAME,
                         f"{kind} {record.id!r} cites no primary source (only {', '.join(map(repr, cited)) or 'nothing'}; "
                         f"a seed draft is not evidence); cite the engine code, datasheet, paper or thread that "
                         f"states it, or declare unverified: <why no primary source exists>")
            elif primary is not None and declared:
                yield at(record, ("unverified",), NAME,
                         f"stale declaration: {record.id!r} cites the primary source "
                         f"{primary.target.partition('/')[2]!r} at {primary.path}; remove unverified")


CHECK = Check(NAME, __doc__.strip(), "record:" + ",".join(KINDS), run, stage=SHAPE)
