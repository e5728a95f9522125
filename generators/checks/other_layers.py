"""An expert-layer scheme states what the engine gives its checkpoint's other linear layers (`other_layers`): a
dense-layer scheme of the same engine, or why none applies; no other scheme states it."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.plugins import layers_of
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "other-layers"


def check(atlas: Atlas, scheme: Record) -> Iterator[Problem]:
    other = scheme.data.get("other_layers")
    if layers_of(scheme.data) != "experts":
        if other is not None:  # a dense scheme's cells are those layers: there is no "other" to name
            yield at(scheme, ("other_layers",), NAME, "only a scheme with `layers: experts` names the scheme of its "
                                                      "checkpoint's other layers; remove other_layers")
        return
    if other is None:
        # the answers of such a scheme say only what its experts do: without this, a checkpoint whose other layers the
        # target refuses reads as one that loads
        yield at(scheme, ("layers",), NAME, "an expert-layer scheme states what the engine gives its checkpoint's other "
                                            "linear layers: add other_layers with `scheme` (the dense-layer scheme "
                                            "whose cells describe them) or `no_scheme` (why none applies), and the "
                                            "source and locator where the engine assigns them")
        return
    named = other.get("scheme")
    found = atlas.index.get("scheme", named) if named else None
    if found is None:  # none named (no_scheme), or a dangling id (the link stage reports that)
        return
    where = ("other_layers", "scheme")
    if found.id == scheme.id or layers_of(found.data) == "experts":
        yield at(scheme, where, NAME, f"scheme {named!r} ({found.path}) describes expert layers too; name the scheme "
                                      "whose cells describe the checkpoint's other (dense) linear layers")
    elif found.data.get("engine") != scheme.data.get("engine"):
        yield at(scheme, where, NAME, f"scheme {named!r} belongs to engine {found.data.get('engine')!r} "
                                      f"({found.path}), not {scheme.data.get('engine')!r}: the engine that loads the "
                                      "experts loads the other layers too")


CHECK = Check(NAME, __doc__.strip(), "record:scheme", check_record=check, stage=SHAPE)
