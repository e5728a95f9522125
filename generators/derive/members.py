"""Which accelerators a hardware target stands for: the ones it lists, and on ROCm every part of its gfx id.

An AMD target states its gfx id once (`gfx`), and each AMD accelerator states its own (`gfx_target`);
membership follows from the two and is never typed a second time. Other targets list their accelerators.
Pure functions of the index, in a stable order (listed ids first, then derived ids by id).
"""
from __future__ import annotations

import re

from ..model.index import Index
from ..model.records import Record


def members(index: Index, target: Record) -> tuple[str, ...]:
    """The accelerator ids of a target: its `accelerators` list, then every accelerator whose gfx_target is its gfx."""
    listed = list(target.data.get("accelerators", []))
    gfx = target.data.get("gfx")
    if not gfx:
        return tuple(listed)  # without a scan of every accelerator (this runs once per cell)
    derived = [a.id for a in index.all("accelerator") if gfx and a.data.get("gfx_target") == gfx and a.id not in listed]
    return tuple(listed + derived)


def targets_of(index: Index, accelerator: str, targets: list[Record] | None = None) -> list[str]:
    """The ids of the targets (all, or the given ones in their order) that stand for an accelerator."""
    return [t.id for t in (index.all("hardware-target") if targets is None else targets)
            if accelerator in members(index, t)]


_CAPABILITY = re.compile(r"(\d+)\.(\d+)")


def cuda_capability(stated: object) -> int | None:
    """An accelerator's compute capability 'major.minor' as engines compare it (major*10+minor); None if not that form."""
    found = _CAPABILITY.fullmatch(stated) if isinstance(stated, str) else None
    return int(found.group(1)) * 10 + int(found.group(2)) if found else None


def part_capabilities(index: Index, target: Record) -> tuple[int, ...]:
    """The capabilities a CUDA target's accelerators state, in member order, each once (the target's own value, which
    stands for all of them in the derivation, is not among them unless a part states it)."""
    parts = [index.get("accelerator", a) for a in members(index, target)]
    found = [cuda_capability(p.data.get("compute_capability")) for p in parts if p is not None]
    return tuple(dict.fromkeys(c for c in found if c is not None))
