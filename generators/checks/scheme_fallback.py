"""A capability gate's `on_failure` names another scheme of the same engine, whose own gate names no scheme in turn."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at
from .scheme_handoff import not_another_scheme

NAME = "scheme-fallback"


def check(atlas: Atlas, scheme: Record) -> Iterator[Problem]:
    named = (scheme.data.get("capability_gate") or {}).get("on_failure")
    other = atlas.index.get("scheme", named) if named else None
    if other is None:  # none named, or a dangling id (the link stage reports that)
        return
    where = ("capability_gate", "on_failure")
    problem = not_another_scheme(scheme, other, where, NAME, "on_failure")
    if problem is not None:
        yield problem
    elif (onward := (other.data.get("capability_gate") or {}).get("on_failure")) is not None:
        yield at(scheme, where, NAME, f"scheme {named!r} ({other.path}) hands its own checkpoints on to {onward!r}; "
                                      "the cell follows one step only, so name the scheme the engine finally returns")


CHECK = Check(NAME, __doc__.strip(), "record:scheme", check_record=check, stage=SHAPE)
