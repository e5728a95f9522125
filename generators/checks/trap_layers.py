"""A trap names the layers it concerns once: `layers` (the answers of the other layers do not list it) or
`applies_when.layers` (the answers list it and say when it bites), not both, which would contradict or repeat each other.
With `layers`, a scheme it names (or, naming none, a scheme of its engines reading one of its formats) covers those
layers, or no answer lists the trap: a trap on a dense-layer scheme that bites only with a MoE model wants
`applies_when.layers` instead."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.plugins import layers_of
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
        return
    if not layers:
        return
    schemes = _schemes(atlas, trap)  # a walk over every scheme: only for the few traps that state layers
    if schemes and not any(layers_of(s.data) == layers for s in schemes):
        named = "it names" if trap.data.get("schemes") else "of its formats"
        yield at(trap, ("layers",), NAME, f"says layers: {layers}, but no scheme {named} covers {layers} layers, so no "
                 f"answer would list it; where it bites on those schemes' answers only with a MoE model, say "
                 f"applies_when.layers: experts instead")


def _schemes(atlas: Atlas, trap: Record) -> list[Record]:
    """The schemes whose answers the trap could be listed on: those it names, else those of its engines (any, when it
    names none) reading one of its formats; none when it names neither schemes nor formats."""
    named, formats, engines = (set(trap.data.get(k, [])) for k in ("schemes", "formats", "engines"))
    if named:
        return [s for s in (atlas.index.get("scheme", i) for i in sorted(named)) if s is not None]
    return [s for s in atlas.index.all("scheme") if formats & set(s.data.get("formats", []))
            and (not engines or s.data.get("engine") in engines)]


CHECK = Check(NAME, __doc__.strip(), "record:gotcha", check_record=check, stage=SHAPE)
