"""An AMD target's compute capability is the one vLLM derives from its gfx id: after `gfx`, two or three digits give a one-digit major and a minor (gfx90a 90, gfx942 94), four give a two-digit major and a minor (gfx1151 115)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "gfx-capability"
_DIGITS = re.compile(r"gfx(\d+)")


def capability_of(gfx: str) -> int | None:
    """major*10+minor as vLLM's ROCm platform parses the arch name (platforms/rocm.py, _capability_from_gcn_arch)."""
    found = _DIGITS.match(gfx)
    digits = found.group(1) if found else ""
    if len(digits) in (2, 3):
        return int(digits[0]) * 10 + int(digits[1])
    if len(digits) == 4:
        return int(digits[:2]) * 10 + int(digits[2])
    return None


def check(atlas: Atlas, target: Record) -> Iterator[Problem]:
    gfx = target.data.get("gfx")
    if not gfx:
        return
    derived = capability_of(gfx)
    stated = target.data.get("compute_capability")
    if derived is None:
        yield at(target, ("gfx",), NAME, f"{gfx!r} is not a gfx id vLLM derives a capability from (gfx and 2 to 4 digits)")
    elif stated != derived:
        yield at(target, ("compute_capability",) if stated is not None else ("gfx",), NAME,
                 f"vLLM derives capability {derived} from {gfx!r}, but this target states {stated}; state {derived}")


CHECK = Check(NAME, __doc__.strip(), "record:hardware-target", check_record=check, stage=SHAPE)
