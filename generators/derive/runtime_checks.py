"""A kernel requirement that `uses` one of its engine's `runtime_checks` reads check, value, condition (with
its devices), default, hosts and met_by_install from it; the kernel states only where it tests it (locator), the message it gives (reason) and when.

The meaning of a package, op or switch the engine tests is a fact about the engine, stated once on its record; every
stage that reads a kernel's requirements reads them through `resolved_kernel`, so no stage sees a `uses` key.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..last_few import LastFew
from ..model.fields import EngineRuntimeChecks, KernelFields, KernelRequirements
from ..model.index import Index
from .engine_stated import engine_data, merged, resolved_once

_FROM_CHECK = ("check", "value", "condition", "devices", "default", "met_by_install", "hosts")

# kernel id -> the last few (kernel data, its engine's runtime checks, the resolved kernel): the same two objects
# resolve to the same object again, as the cell memo (cells._kept_cell) compares kernels by identity.
_RESOLVED: LastFew[tuple[KernelFields, Any, KernelFields]] = LastFew()


def runtime_checks(engine: Mapping[str, Any] | None) -> dict[str, EngineRuntimeChecks]:
    """An engine record's runtime checks by id."""
    return {c["id"]: c for c in (engine or {}).get("runtime_checks", [])}


def resolve_requirement(requirement: KernelRequirements, checks: Mapping[str, EngineRuntimeChecks]) -> KernelRequirements:
    """The requirement with the fields of the runtime check it uses; unchanged when it uses none (or an unknown one,
    which the `runtime-checks` check reports)."""
    check = checks.get(requirement.get("uses", ""))
    if check is None:
        return requirement
    return cast(KernelRequirements, merged(requirement, "uses", check, _FROM_CHECK))


def resolved_kernel(kernel_id: str, kernel: KernelFields, engine: Mapping[str, Any] | None) -> KernelFields:
    """The kernel's data with every requirement resolved; the kernel's own object when none `uses` a runtime check."""
    requirements = kernel.get("requirements", [])
    if not any("uses" in r for r in requirements):
        return kernel
    checks = runtime_checks(engine)
    return resolved_once(_RESOLVED, kernel_id, kernel, (engine or {}).get("runtime_checks"), lambda: cast(
        KernelFields, {**kernel, "requirements": [resolve_requirement(r, checks) for r in requirements]}))


def resolved_kernels(index: Index) -> dict[str, KernelFields]:
    """Kernel id -> its resolved data, for every kernel record."""
    return {r.id: resolved_kernel(r.id, r.data, engine_data(index, r.data.get("engine", ""))) for r in index.all("kernel")}
