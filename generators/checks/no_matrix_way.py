"""A kernel's without_matrix_instruction entry names a format only on targets whose every part the format map rates emulated in it.

The entry says how the kernel computes a format on a target where no matrix instruction takes it (converted to a
wider precision, or as it is with vector instructions), and the card's emulated notice shows it for the target's
parts the format map rates emulated in that format. On a part the map rates native (or does not rate at all) the
entry would contradict the map, and the notice never shows it there: either the entry or the part's figures are wrong.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.members import members
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import Check, at

NAME = "no-matrix-way"


def check(atlas: Atlas, kernel: Record) -> Iterator[Problem]:
    for n, way in enumerate(kernel.data.get("without_matrix_instruction", [])):
        for target_id in way.get("targets", []):
            target = atlas.index.get("hardware-target", target_id)
            if target is None:
                continue
            parts = members(atlas.index, target)
            for fmt in way.get("formats", []):
                for part in parts:
                    tally = atlas.views.tallies.get(part)
                    if tally is None or fmt in tally.emulated:
                        continue
                    rated = "native" if fmt in tally.native else "neither native nor emulated"
                    yield at(kernel, ("without_matrix_instruction", n), NAME,
                             f"says no matrix instruction takes {fmt!r} on {target_id}, but the format map rates it "
                             f"{rated} on its part {part!r}; correct the entry or the part's figures")


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record:kernel", check_record=check)
