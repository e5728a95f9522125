"""On a part sold with its host CPU, a package the install route gives on other hosts only is one more condition.

A runtime check or a kernel requirement may state `hosts`: the host CPU architectures its package, op or extension
can be had on by the engine's own route (its wheels, or the build its first import runs). An accelerator sold with its
host (a DGX Spark, a Grace-based GB200) states `host_cpu`. On such a part, a cell that loads and whose conditions
(open, met by the defaults, or opted into) include one whose `hosts` leave out the part's architecture needs a build
for that host as well: the part's answer takes it as its first condition, and a cell that `runs` becomes `runs-if`
there (parts.py), as a target the default install is not compiled for does (cells._on_unbuilt_target). A cell that
does not load gains nothing. The target's own cell is unchanged: its other parts go into servers of either kind.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..model.fields import AcceleratorHostCpu, HostLimit, KernelFields
from ..model.index import Index
from .cells import Cell, condition_text
from .parts import PartNeed


# kernel id -> condition -> (what it tests, the hosts its route works on)
HostLimits = Mapping[str, Mapping[str, tuple[str, HostLimit]]]


def host_limits(kernels: Mapping[str, KernelFields]) -> dict[str, dict[str, tuple[str, HostLimit]]]:
    """Each kernel's conditions that state `hosts` (its own or its engine's runtime check's, once resolved)."""
    found: dict[str, dict[str, tuple[str, HostLimit]]] = {}
    for kernel_id, kernel in kernels.items():
        for requirement in kernel.get("requirements", []):
            if "hosts" in requirement:
                found.setdefault(kernel_id, {})[condition_text(requirement)] = (str(requirement.get("value", "")),
                                                                               requirement["hosts"])
    return found


def fixed_hosts(index: Index) -> dict[str, AcceleratorHostCpu]:
    """The parts sold with their host CPU, by accelerator id."""
    return {a.id: a.data["host_cpu"] for a in index.all("accelerator") if "host_cpu" in a.data}


def host_needs(cell: Cell, parts: Iterable[str], hosts: Mapping[str, AcceleratorHostCpu],
               limits: HostLimits) -> dict[str, list[PartNeed]]:
    """For each of `parts` (the target's members) with a fixed host that a condition of the cell leaves out, what it
    needs first; empty for the others, and for a cell that does not load."""
    if not cell.verdict.loads or not limits:
        return {}
    limited = _limited_conditions(cell, limits)
    found: dict[str, list[PartNeed]] = {}
    for part in sorted(p for p in parts if p in hosts):
        arch = hosts[part]["arch"]
        for value, limit in limited.values():
            if arch not in limit["arch"]:
                said = (f"{value} built for this part's {arch} host CPU: the install route gives it on "
                        f"{' and '.join(limit['arch'])} hosts only, since {limit['reason']}")
                found.setdefault(part, []).append(PartNeed(said, limit["source"], limit["locator"]))
    return found


def _limited_conditions(cell: Cell, limits: HostLimits) -> dict[str, tuple[str, HostLimit]]:
    """The cell's conditions (open, assumed or opted into) that a kernel it tried states `hosts` for."""
    stated = {*cell.conditions, *(a.condition for a in cell.assumes), *(a.condition for a in cell.opt_in)}
    found: dict[str, tuple[str, HostLimit]] = {}
    for kernel in dict.fromkeys([cell.kernel or "", *(a.kernel for a in cell.attempts)]):
        for condition, limit in limits.get(kernel, {}).items():
            if condition in stated:
                found.setdefault(condition, limit)
    return found
