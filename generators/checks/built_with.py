"""A kernel's or engine's `built_with` names a tool whose `first_use_needs` apply on a platform the entry allows: a tool that states none, or states them only for other platforms, adds nothing to any answer."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "built-with"


def check(atlas: Atlas, record: Record) -> Iterator[Problem]:
    for n, use in enumerate(record.data.get("built_with", [])):
        tool = atlas.index.get("engine", use["tool"])
        if tool is None:
            continue  # a dangling id is the link stage's error
        needs = tool.data.get("first_use_needs", [])
        if not needs:
            yield at(record, ("built_with", n, "tool"), NAME,
                     f"engine {use['tool']!r} states no `first_use_needs`, so naming it here adds nothing to any "
                     f"answer (state what its first use needs on its record, or say in `notes` that the code uses it)")
            continue
        covered = sorted({p for need in needs for p in need["when"]["platform"]})
        allowed = (use.get("when") or {}).get("platform")
        if allowed is not None and not set(allowed) & set(covered):
            yield at(record, ("built_with", n, "when", "platform"), NAME,
                     f"engine {use['tool']!r} states `first_use_needs` for {', '.join(covered)} only, and this entry "
                     f"allows {', '.join(allowed)}: it adds nothing to any answer (name a platform its needs cover, "
                     f"or remove the entry)")


CHECK = Check(NAME, __doc__.strip(), "record:kernel,engine", check_record=check, stage=SHAPE)
