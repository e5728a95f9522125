"""Only a trap that corrupts output can be silent: `silent: true` needs effect `garbage` or `degraded`.

`silent` means the failure corrupts output with no error or warning. A trap whose effect is `stops` serves nothing
(an error, a crash or a hang is what the reader sees), and one whose effect is `misleads` serves output no worse
than the configuration should give; neither corrupts output, so neither is silent, however quietly it happens.
Output that is garbage or degraded may be silent or not (a warning in the log makes it not silent).
"""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "trap-silent"

CORRUPTS_OUTPUT = frozenset({"garbage", "degraded"})  # the effects under which output is served and worse
WHY = {"stops": "nothing is served", "misleads": "the output is no worse than it should be"}


def check(atlas: Atlas, trap: Record) -> Iterator[Problem]:
    effect = trap.data["effect"]
    if trap.data["silent"] and effect not in CORRUPTS_OUTPUT:
        yield at(trap, ("silent",), NAME,
                 f"a trap with effect {effect!r} ({WHY[effect]}) corrupts no output, so it cannot be silent; set "
                 f"silent: false, or correct effect if the evidence shows {' or '.join(sorted(CORRUPTS_OUTPUT))} output")


CHECK = Check(NAME, __doc__.strip(), "record:gotcha", check_record=check, stage=SHAPE)
