"""A substitution names another scheme of the same engine, whose own list for that platform has no substitution.

A candidate list's `substitution` says which scheme the engine returns instead on that platform unless a setting keeps
this one; without the setting the cell is that scheme's own cell there, so its kernel and precision are stated once,
on it. The cell follows one step only, so that scheme must not be substituted in turn on the same platform.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at
from .scheme_handoff import not_another_scheme

NAME = "scheme-substitution"


def check(atlas: Atlas, scheme: Record) -> Iterator[Problem]:
    for n, candidates in enumerate(scheme.data.get("candidates", [])):
        named = (candidates.get("substitution") or {}).get("scheme")
        other = atlas.index.get("scheme", named) if named else None
        if other is None:  # none named, or a dangling id (the link stage reports that)
            continue
        where, platform = ("candidates", n, "substitution", "scheme"), candidates["platform"]
        onward = next((c.get("substitution") for c in other.data.get("candidates", []) if c["platform"] == platform), None)
        problem = not_another_scheme(scheme, other, where, NAME, "the substitution")
        if problem is not None:
            yield problem
        elif onward:
            yield at(scheme, where, NAME, f"scheme {named!r} ({other.path}) is itself substituted on {platform} by "
                                          f"{onward['scheme']!r}; the cell follows one step only, so name the scheme "
                                          "the engine finally returns")


CHECK = Check(NAME, __doc__.strip(), "record:scheme", check_record=check, stage=SHAPE)
