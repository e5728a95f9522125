"""A native or emulated count a source states for an accelerator equals the derived count, or a finding explains why not; an explanation of a count that agrees is stale."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import Check, at

NAME = "stated-tallies"


def check(atlas: Atlas, accelerator: Record) -> Iterator[Problem]:
    tally = atlas.views.tallies[accelerator.id]
    for n, entry in enumerate(accelerator.data.get("stated_tallies", [])):
        wrong = [(which, entry[which], len(getattr(tally, which))) for which in ("native", "emulated")
                 if entry.get(which) is not None and entry[which] != len(getattr(tally, which))]
        if wrong and not entry.get("explained_by"):
            shown = "; ".join(f"{which}: stated {stated}, derived {derived} {list(getattr(tally, which))}"
                              for which, stated, derived in wrong)
            yield at(accelerator, ("stated_tallies", n), NAME,
                     f"{entry['source']!r} states counts the peak figures do not give ({shown}); add "
                     f"`explained_by:` naming a finding that explains the difference, or correct the peaks")
        elif entry.get("explained_by") and not wrong:
            yield at(accelerator, ("stated_tallies", n, "explained_by"), NAME,
                     "stale explanation: the stated counts equal the derived ones; remove explained_by")


CHECK = Check(NAME, __doc__.strip(), "record:accelerator", check_record=check)
