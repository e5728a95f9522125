"""What an answer's route needs that the engine does not check when it selects a kernel.

An informational external gate of a kernel (`external_gates`, effect `informational`) does not change a verdict, but
where it states `needs` a reader hits it: amd-quark compiles a C++ extension the first time vLLM's MXFP4 emulation
runs on ROCm, which needs a host C++ compiler. Each answer whose route passes through such a kernel on a target the
gate's `when` matches says it, with the gate's source. Pure functions; no I/O.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.fields import KernelFields
from ..model.index import Index
from .cells import Cell, applies


@dataclass(frozen=True)
class RouteNeed:
    """One gate's need on a kernel of the route: what it says, and the source and locator it is read from."""

    kernel: str
    said: str
    source: str
    locator: str

    def as_dict(self) -> dict[str, Any]:
        return {"kernel": self.kernel, "said": self.said, "source": self.source, "locator": self.locator}


def needing_kernels(cell: Cell) -> tuple[str, ...]:
    """The kernels an answer runs on, in the engine's order: its own, the one a default install selects, and each the
    engine selects when a condition fails (a card says the needs of such a kernel with that step)."""
    found = [cell.kernel, cell.default_kernel, *(o.selected for o in cell.otherwise)]
    return tuple(dict.fromkeys(k for k in found if k))


def gate_needs(kernel_id: str, kernel: KernelFields, target: Mapping[str, Any], config: Mapping[str, Any]) -> list[RouteNeed]:
    """The `needs` of a kernel's informational gates whose `when` matches the target, with each gate's source (the
    kernel's code source where the gate names none)."""
    found = []
    for gate in kernel.get("external_gates", []):
        if gate["effect"] != "informational" or not gate.get("needs"):
            continue
        if not applies(gate.get("when"), target, config):  # type: ignore[arg-type]
            continue
        code = kernel.get("code")
        source = gate.get("source") or (code["source"] if code else kernel["sources"][0]["source"])
        found.append(RouteNeed(kernel_id, gate["needs"], source, gate.get("locator") or ""))
    return found


def route_needs(index: Index, cell: Cell, config: Mapping[str, Any]) -> tuple[RouteNeed, ...]:
    """Every need of the kernels the answer runs on (`needing_kernels`), in their order."""
    target = index.get("hardware-target", cell.target)
    found: list[RouteNeed] = []
    for kernel_id in needing_kernels(cell):
        kernel = index.get("kernel", kernel_id)
        if kernel is not None and target is not None:
            found.extend(gate_needs(kernel_id, kernel.data, target.data, config))
    return tuple(found)
