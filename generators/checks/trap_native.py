"""A trap's `native` names hardware formats some part computes natively: each is a format of class hardware, native on
at least one accelerator (its derived tally), or the trap would bite on no part the records know of."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import VIEWS, Check, at

NAME = "trap-native"


def check(atlas: Atlas, trap: Record) -> Iterator[Problem]:
    if not trap.data.get("native"):
        return  # most traps: the union below is over every format's tally, too dear to take per trap
    native = set().union(*(tally.native for tally in atlas.views.tallies.values()))
    for n, format_id in enumerate(trap.data["native"]):
        record = atlas.index.get("format", format_id)
        if record is None:
            continue  # a dangling reference, which linking reports
        if record.data.get("format_class") != "hardware":
            yield at(trap, ("native", n), NAME, f"{format_id} is a {record.data.get('format_class')} format; a part "
                     f"computes only hardware formats natively (name the hardware format it holds)")
        elif format_id not in native:
            yield at(trap, ("native", n), NAME, f"no accelerator computes {format_id} natively, so the trap would bite "
                     f"on no part the records know of")


CHECK = Check(NAME, __doc__.strip(), "record:gotcha", check_record=check, stage=VIEWS)
