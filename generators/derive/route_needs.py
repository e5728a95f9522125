"""What an answer's route needs that the engine does not check when it selects a kernel.

An informational external gate of a kernel (`external_gates`, effect `informational`) does not change a verdict, but
where it states `needs` a reader hits it: amd-quark compiles a C++ extension the first time vLLM's MXFP4 emulation
runs on ROCm, which needs a host C++ compiler. Each answer whose route passes through such a kernel on a target the
gate's `when` matches says it, with the gate's source.

A need shared by every kernel built with one compiler or runtime is stated once, on that tool's engine record
(`first_use_needs`: Triton builds a C launcher module with the host C compiler the first time any of its kernels runs),
and reaches an answer through `built_with`: on the engine, whose own code launches the tool's kernels on every start
(then every answer of the engine that runs a kernel says it), or on a kernel of the route. Each tool's need is said once
per answer, by the first that brings it in: the engine, else the first such kernel in the order of `needing_kernels`.
Pure functions; no I/O.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..model.fields import BuiltWith, KernelFields
from ..model.index import Index
from .cells import Cell, applies


@dataclass(frozen=True)
class RouteNeed:
    """One need of the route: what it says, the source and locator it is read from, the kernel that brings it in
    ("" when the engine itself does, on every start) and the tool whose need it is ("" for a kernel's own gate)."""

    kernel: str
    said: str
    source: str
    locator: str
    tool: str = ""
    engine: str = ""
    used_in: str = ""  # for a tool's need: the source of the code that launches the tool's kernels

    def as_dict(self) -> dict[str, Any]:
        return {"kernel": self.kernel, "engine": self.engine, "tool": self.tool, "said": self.said,
                "source": self.source, "locator": self.locator, "used_in": self.used_in}


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


def tool_needs(index: Index, built_with: Iterable[BuiltWith], target: Mapping[str, Any], kernel: str = "",
               engine: str = "") -> list[RouteNeed]:
    """The `first_use_needs` for the target's platform of each tool in `built_with` whose `when` matches the target,
    as brought in by the kernel (or, with `kernel` empty, by the engine)."""
    found = []
    for use in built_with:
        if not applies(use.get("when"), target, {}):  # type: ignore[arg-type]
            continue
        tool = index.get("engine", use["tool"])
        for need in tool.data.get("first_use_needs", []) if tool is not None else []:
            if target["platform"] in need["when"]["platform"]:
                found.append(RouteNeed(kernel, need["needs"], need["source"], need["locator"], use["tool"], engine,
                                        use["source"]))
    return found


def route_needs(index: Index, cell: Cell, config: Mapping[str, Any]) -> tuple[RouteNeed, ...]:
    """Every need of the answer: the tools the engine is built with where it runs a kernel, then each kernel's own
    gates and tools (`needing_kernels`, in their order), each tool's need once."""
    target = index.get("hardware-target", cell.target)
    engine = index.get("engine", cell.engine)
    if target is None:
        return ()
    found: list[RouteNeed] = []
    if engine is not None and (cell.kernel or cell.default_kernel):
        found.extend(tool_needs(index, engine.data.get("built_with", []), target.data, engine=cell.engine))
    for kernel_id in needing_kernels(cell):
        kernel = index.get("kernel", kernel_id)
        if kernel is not None:
            found.extend(gate_needs(kernel_id, kernel.data, target.data, config))
            found.extend(tool_needs(index, kernel.data.get("built_with", []), target.data, kernel=kernel_id))
    said: set[tuple[str, str]] = set()
    once = []
    for need in found:
        if need.tool and (need.tool, need.said) in said:
            continue
        said.add((need.tool, need.said))
        once.append(need)
    return tuple(once)
