"""Accelerators built on the same die compute natively in the same hardware formats, unless a finding explains the difference."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..problems import Problem
from .base import Check, at

NAME = "shared-die"


def run(atlas: Atlas) -> Iterator[Problem]:
    by_die: dict[str, list[str]] = {}
    for accelerator in atlas.index.all("accelerator"):
        if accelerator.data.get("die"):
            by_die.setdefault(accelerator.data["die"], []).append(accelerator.id)
    tallies = atlas.views.tallies
    for die_name, members in sorted(by_die.items()):
        reference = members[0]
        for member in members[1:]:
            record = atlas.index.get("accelerator", member)
            assert record is not None
            ours, theirs = set(tallies[member].native), set(tallies[reference].native)
            if ours == theirs or record.data.get("die_difference"):
                continue
            yield at(record, ("die",), NAME,
                     f"shares die {die_name!r} with {reference!r} but its peaks make it native for "
                     f"{sorted(ours - theirs) or 'nothing more'} and not for {sorted(theirs - ours) or 'nothing less'}; "
                     f"record the missing peaks, or name the finding that explains the difference in `die_difference`")
    for accelerator in atlas.index.all("accelerator"):
        if accelerator.data.get("die_difference"):
            siblings = [m for m in by_die.get(str(accelerator.data.get("die", "")), []) if m != accelerator.id]
            if not siblings or all(set(tallies[m].native) == set(tallies[accelerator.id].native) for m in siblings):
                yield at(accelerator, ("die_difference",), NAME,
                         "stale explanation: no part sharing this die differs in native formats; remove die_difference")


CHECK = Check(NAME, __doc__.strip(), "tree", run)
