"""A part's memory bandwidth is no more than its memory bus can carry: bus width times the fastest per-pin rate of its memory type.

A figure above that bound is usually an interconnect figure (NVLink, ICI, Infinity Fabric) recorded as memory
bandwidth; those belong in `interconnect_bandwidth_gbs`. Parts without a recorded bus width, or with a memory
type not in the table below, are not checked.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "memory-bandwidth"

# Fastest per-pin data rate, Gbit/s, of each memory generation (JEDEC and vendor top bins).
PIN_RATE_GBPS: dict[str, float] = {
    "hbm2": 2.4, "hbm2e": 3.6, "hbm3": 6.4, "hbm3e": 9.8, "hbm4": 10.0,
    "gddr6": 24.0, "gddr6x": 24.0, "gddr7": 40.0,
    "lpddr5": 6.4, "lpddr5x": 10.7, "ddr5": 8.8,
}


def memory_generation(memory_type: str) -> str | None:
    """The table key a record's memory type names (`unified LPDDR5x` -> lpddr5x), or None."""
    words = re.findall(r"[a-z0-9]+", memory_type.lower())
    return next((w for w in words if w in PIN_RATE_GBPS), None)


def check(atlas: Atlas, accelerator: Record) -> Iterator[Problem]:
    data = accelerator.data
    generation = memory_generation(data.get("memory_type", ""))
    buses = data.get("memory_bus_bits") or []
    if generation is None or not buses:
        return
    widest = max(bus["value"] for bus in buses)
    bound = widest / 8 * PIN_RATE_GBPS[generation]
    for n, bandwidth in enumerate(data.get("memory_bandwidth_gbs", [])):
        if bandwidth["value"] > bound * 1.01:
            yield at(accelerator, ("memory_bandwidth_gbs", n, "value"), NAME,
                     f"{bandwidth['value']} GB/s is more than a {widest:g}-bit {generation.upper()} bus can carry "
                     f"({bound:,.0f} GB/s at {PIN_RATE_GBPS[generation]} Gbit/s per pin); if the source gives a "
                     f"link speed, record it under interconnect_bandwidth_gbs")


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record:accelerator", check_record=check, stage=SHAPE)
