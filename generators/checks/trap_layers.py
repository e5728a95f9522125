"""A trap names the layers it concerns once: `layers` (the answers of the other layers do not list it) or
`applies_when.layers` (the answers list it and say when it bites), not both, which would contradict or repeat each other."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "trap-layers"


def check(atlas: Atlas, trap: Record) -> Iterator[Problem]:
    layers, when = trap.data.get("layers"), (trap.data.get("applies_when") or {}).get("layers")
    if layers and when:
        yield at(trap, ("layers",), NAME, f"says both layers: {layers} (not listed on the other layers' answers) and "
                 f"applies_when.layers: {when} (listed, with when it bites); keep the one its trigger needs")


CHECK = Check(NAME, __doc__.strip(), "record:gotcha", check_record=check, stage=SHAPE)
