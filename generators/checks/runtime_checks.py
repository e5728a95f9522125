"""A package, op or switch that two kernels of one engine test is stated once, as a runtime check on the engine record, and each kernel names it with `uses`: every `uses` names a runtime check of the kernel's own engine, runtime check ids are unique within an engine, every runtime check is used by some kernel, and no kernel states a test its engine states as a runtime check, nor one another kernel of the engine states too. A runtime check whose condition names {device} states `devices`
(and one that states `devices` names {device}), and every requirement using it is scoped by `when.platform` to
platforms it names a device for, so each cell says its own device."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ..derive.runtime_checks import runtime_checks
from ..model.atlas import Atlas
from ..model.fields import EngineRuntimeChecks, KernelRequirements
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "runtime-checks"
_TESTS = ("package", "op", "env")


def run(atlas: Atlas) -> Iterator[Problem]:
    stated: dict[str, dict[tuple[str, str], list[tuple[Record, int]]]] = defaultdict(lambda: defaultdict(list))
    used: dict[str, set[str]] = defaultdict(set)
    for kernel in atlas.index.all("kernel"):
        engine_id = kernel.data.get("engine", "")
        checks = _checks(atlas, engine_id)
        ids = set(checks)
        for n, requirement in enumerate(kernel.data.get("requirements", [])):
            if "uses" in requirement:
                used[engine_id].add(requirement["uses"])
                if requirement["uses"] not in ids:
                    yield at(kernel, ("requirements", n, "uses"), NAME,
                             f"engine {engine_id!r} states no runtime check {requirement['uses']!r}"
                             + (f" (it states: {', '.join(sorted(ids))})" if ids else " (its record states no runtime_checks)"))
                else:
                    yield from _device_scope(kernel, n, requirement, checks[requirement["uses"]])
            elif requirement.get("check") in _TESTS:
                stated[engine_id][(requirement["check"], str(requirement.get("value", "")))].append((kernel, n))
    for engine in atlas.index.all("engine"):
        yield from _engine_problems(engine, stated[engine.id], used[engine.id])


def _checks(atlas: Atlas, engine_id: str) -> dict[str, EngineRuntimeChecks]:
    engine = atlas.index.get("engine", engine_id)
    return runtime_checks(engine.data if engine else None)


def _device_scope(kernel: Record, n: int, requirement: KernelRequirements, check: EngineRuntimeChecks) -> Iterator[Problem]:
    """A requirement using a check whose condition names {device} applies only on platforms the check names a device
    for: elsewhere a cell would show a placeholder (or, unscoped, every platform's device)."""
    if "{device}" not in check.get("condition", ""):
        return
    platforms = (requirement.get("when") or {}).get("platform") or []
    unnamed = [p for p in platforms if p not in check.get("devices", {})]
    if not platforms or unnamed:
        yield at(kernel, ("requirements", n, "uses"), NAME,
                 f"runtime check {check['id']!r} names {{device}}, which it states for "
                 f"{', '.join(check.get('devices', {})) or 'no platform'}: scope this requirement with when.platform "
                 f"to those platforms" + (f" (not {', '.join(unnamed)})" if unnamed else ""))


def _engine_problems(engine: Record, stated: dict[tuple[str, str], list[tuple[Record, int]]],
                     used: set[str]) -> Iterator[Problem]:
    seen: dict[str, int] = {}
    declared: dict[tuple[str, str], str] = {}
    for n, check in enumerate(engine.data.get("runtime_checks", [])):
        if check["id"] in seen:
            yield at(engine, ("runtime_checks", n, "id"), NAME,
                     f"runtime check {check['id']!r} is stated twice (first at runtime_checks.{seen[check['id']]})")
        seen.setdefault(check["id"], n)
        if ("{device}" in check.get("condition", "")) != bool(check.get("devices")):
            yield at(engine, ("runtime_checks", n), NAME,
                     f"runtime check {check['id']!r}: a condition naming {{device}} and `devices` go together (state "
                     "both, or neither)")
        declared.setdefault((check["check"], check["value"]), check["id"])
        if check["id"] not in used:
            yield at(engine, ("runtime_checks", n), NAME,
                     f"no kernel of engine {engine.id!r} uses runtime check {check['id']!r}: remove it or name it in a "
                     "kernel requirement's `uses`")
    for (test, value), places in sorted(stated.items()):
        for kernel, n in places:
            if (test, value) in declared:
                yield at(kernel, ("requirements", n), NAME,
                         f"engine {engine.id!r} states this {test} test as runtime check {declared[(test, value)]!r}: "
                         f"write `uses: {declared[(test, value)]}` instead of check and value")
            elif len(places) > 1:
                others = ", ".join(sorted({k.id for k, _ in places if k is not kernel}))
                yield at(kernel, ("requirements", n), NAME,
                         f"the {test} test {value!r} is also stated by {others}: state it once in engine "
                         f"{engine.id!r}'s runtime_checks and name it with `uses`")


CHECK = Check(NAME, __doc__.strip(), "tree", run=run, stage=SHAPE)
