"""A cited `difference` is quoted, and a primary source's equals the benchmark's value minus its baseline.

The citation belongs to a benchmark with a value and exactly one baseline value; the comparison is made at the
decimals the difference is written with (-19.1 against 44.9 - 64.0).

A source that states only how far a result trails another ('surpassing LLM-QAT by 19.1 points') is a claim about
the difference, which the atlas derives from the two results it records; the claim is checked, not stored twice.
"""
from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from ..derive.baseline import as_decimal, difference
from ..derive.provenance import is_primary
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at
from .quoted_value import appears_in, citations_with

NAME = "quoted-difference"


def run(atlas: Atlas) -> Iterator[Problem]:
    for kind in sorted(atlas.index.by_kind):
        for record in atlas.index.all(kind):
            for path, citation in citations_with(record, "difference"):
                yield from _check(atlas, record, path, citation)


def _check(atlas: Atlas, record: Record, path: tuple[Any, ...], citation: dict[str, Any]) -> Iterator[Problem]:
    cited = citation["difference"]
    quote = citation.get("quote")
    derived = difference(atlas.index, record.data) if record.kind == "benchmark" else None
    if record.kind != "benchmark":
        yield at(record, path + ("difference",), NAME, "only a benchmark has a difference from a baseline")
    elif quote is None or not appears_in(cited, quote):
        yield at(record, path + ("quote" if quote is not None else "difference",), NAME,
                 f"the difference {cited!r} cited from {citation['source']!r} needs a quote that states it verbatim")
    elif derived is None:
        yield at(record, path + ("difference",), NAME,
                 "a stated difference needs the benchmark's value and exactly one baseline value to be checked against")
    elif path[0] == "sources" and is_primary(atlas.index, citation["source"]) and not _agrees(cited, derived):
        yield at(record, path + ("difference",), NAME,
                 f"{citation['source']!r} states a difference of {cited!r}, but the value minus the baseline is "
                 f"{derived}; correct the value or the baseline, or keep the source's figure as a contested claim")


def _agrees(cited: float, derived: Decimal) -> bool:
    stated = as_decimal(cited)
    return stated is not None and derived.quantize(stated) == stated


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record", run, stage=SHAPE)
