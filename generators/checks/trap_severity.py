"""A trap's severity follows from its effect: `stops` or `garbage` is a blocker, `degraded` is major, `misleads` is minor."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "trap-severity"

# The rule the gotcha schema's `severity` description states, level by level.
SEVERITY_OF_EFFECT: dict[str, str] = {"stops": "blocker", "garbage": "blocker", "degraded": "major", "misleads": "minor"}
WHY = {"stops": "nothing is served", "garbage": "what is served is unusable",
       "degraded": "it serves usable-looking output that is wrong or worse", "misleads": "the output is no worse than it should be"}


def check(atlas: Atlas, trap: Record) -> Iterator[Problem]:
    effect, severity = trap.data["effect"], trap.data["severity"]
    expected = SEVERITY_OF_EFFECT[effect]
    if severity != expected:
        yield at(trap, ("severity",), NAME,
                 f"{severity!r} does not follow from effect {effect!r} ({WHY[effect]}), which makes a trap "
                 f"{expected!r}; set severity: {expected}, or correct effect if it misstates what the trap does")


CHECK = Check(NAME, __doc__.strip(), "record:gotcha", check_record=check, stage=SHAPE)
