"""Every derived FLOP:byte ridge point lies within physical bounds (1 to 10,000 FLOP per byte); outside means a unit slip.

A ridge is a dense peak divided by memory bandwidth. Today's parts sit between a few and a few thousand FLOP per
byte, so a value outside these bounds is a TFLOPS figure read as GFLOPS, a TB/s bandwidth read as GB/s, or a
bandwidth that is not the memory's.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..problems import Problem
from .base import Check, at

NAME = "ridge-bounds"
LOWEST, HIGHEST = 1.0, 10_000.0


def run(atlas: Atlas) -> Iterator[Problem]:
    reported: set[tuple[str, str, float]] = set()
    for ridge in atlas.views.ridges:
        if LOWEST <= ridge.flop_per_byte <= HIGHEST:
            continue
        key = (ridge.accelerator, ridge.precision, ridge.flop_per_byte)
        if key in reported:
            continue
        reported.add(key)
        record = atlas.index.get("accelerator", ridge.accelerator)
        assert record is not None
        n = next(i for i, p in enumerate(record.data["peak_compute"])
                 if p["precision"] == ridge.precision and p["tflops"] == ridge.tflops)
        yield at(record, ("peak_compute", n, "tflops"), NAME,
                 f"{ridge.precision} {ridge.tflops:g} TFLOPS over {ridge.bandwidth_gbs:g} GB/s gives "
                 f"{ridge.flop_per_byte:g} FLOP/byte, outside {LOWEST:g}-{HIGHEST:,.0f}; check the units of both figures")


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "tree", run)
