"""Which accelerators a hardware target stands for: the ones it lists, and on ROCm every part of its gfx id.

An AMD target states its gfx id once (`gfx`), and each AMD accelerator states its own (`gfx_target`);
membership follows from the two and is never typed a second time. Other targets list their accelerators.
Pure functions of the index, in a stable order (listed ids first, then derived ids by id).
"""
from __future__ import annotations

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
