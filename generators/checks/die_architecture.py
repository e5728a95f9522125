"""Accelerators built on the same die name the same architecture generation (the architecture without its parenthetical), so the format map puts them in one generation."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.format_map import short_name
from ..model.atlas import Atlas
from ..problems import Problem
from .base import Check, at

NAME = "die-architecture"


def run(atlas: Atlas) -> Iterator[Problem]:
    by_die: dict[str, list[tuple[str, str]]] = {}
    for accelerator in atlas.index.all("accelerator"):
        if accelerator.data.get("die"):
            generation = short_name(str(accelerator.data.get("architecture", "") or "")).strip()
            by_die.setdefault(str(accelerator.data["die"]), []).append((accelerator.id, generation))
    for die_name, members in sorted(by_die.items()):
        reference, generation = next(((m, g) for m, g in members if g), members[0])
        for member, theirs in members:
            if theirs == generation:
                continue
            record = atlas.index.get("accelerator", member)
            assert record is not None
            field = ("architecture",) if "architecture" in record.data else ("die",)
            yield at(record, field, NAME,
                     f"shares die {die_name!r} with {reference!r}, whose architecture is {generation!r}, but names "
                     f"{repr(theirs) if theirs else 'no architecture'}; name the die's architecture the same way on both (cite the "
                     f"vendor's name for it)")


CHECK = Check(NAME, __doc__.strip(), "tree", run)
