"""A requirement marked `inferred` that a kernel meets, as an answer names it: what the step tests and where it was read.

A kernel that loads rests on the inferred requirements it meets as much as a failure rests on a failing one
(derive/cells.py, _known). Its reason is the account of a failure (the engine's message, and why it is inferred), which
says nothing useful under a cell that runs, so the answer says instead what the step tests, in the atlas's words, and
the sources it was read in (the requirement's `read_in`), each with where in it (the kernel's own citation of it).
Pure functions; no I/O.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..model.fields import KernelFields, KernelRequirements


@dataclass(frozen=True)
class ReadIn:
    """A source a step was read in, and where in it the kernel cites it (empty where it cites it without a locator)."""

    source: str
    where: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"source": self.source, "where": self.where}


@dataclass(frozen=True)
class InferredStep:
    """A step marked `inferred` the verdict rests on: what it tests, the sources it was read in, whether the target
    meets it (a step with `declines: false` the target fails keeps the kernel, which then computes otherwise), and the
    engine whose code holds it, the kernel's: the one whose release read the step was not read at. That is not always
    the cell's engine (ONNX Runtime GenAI runs ONNX Runtime's kernels), so an answer names it with its own release."""

    checks: str
    read_in: tuple[ReadIn, ...] = ()
    met: bool = True
    engine: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"checks": self.checks, "read_in": [r.as_dict() for r in self.read_in], "met": self.met,
                "engine": self.engine}


def inferred_step(requirement: KernelRequirements, kernel: KernelFields, platform: str, met: bool = True) -> InferredStep:
    """The step `requirement` states, met by the target or not; the schema has every inferred requirement name the
    sources it was read in (`read_in`), each found with the kernel's first locator for it."""
    return InferredStep(step_checked(requirement, platform), tuple(
        ReadIn(source, next((str(c["locator"]) for c in kernel.get("sources", [])
                             if c["source"] == source and c.get("locator")), ""))
        for source in requirement.get("read_in", [])), met, str(kernel.get("engine", "")))


def words_key(step: InferredStep) -> str:
    """The WORDS sentence that says the step: met, or failed by a kernel that stays and computes otherwise."""
    return "inferred_step" if step.met else "inferred_step_unmet"


def step_checked(requirement: KernelRequirements, platform: str) -> str:
    """What a requirement tests, said as what holds where it passes ('compute capability 10.0, 10.3, 12.0 or 12.1')."""
    check = str(requirement.get("check", ""))
    values = [str(v) for v in requirement.get("values", [])]
    if check.startswith("capability-"):
        return "compute capability " + _capabilities(check, requirement)
    if check == "isa":  # every feature it lists
        return ("CPU feature " if len(values) == 1 else "CPU features ") + " and ".join(values)
    if check in _HARDWARE:
        return _HARDWARE[check] + " " + _either(values)
    if "condition" in requirement or check in _RUNTIME:  # as a condition of the cell says it
        from .cells import condition_text  # (cells imports this module)
        return condition_text(requirement, platform)
    return f"its {check} check" + (f" ({_either(values)})" if values else "")


# the other checks of the hardware target, said by what they test
_HARDWARE = {"platform": "platform", "cpu-arch": "CPU architecture", "cpu-vendor": "CPU vendor",
             "gfx": "AMD GPU architecture", "gfx-excluded": "an AMD GPU architecture other than"}
# the checks evaluate leaves to a condition (cells.condition_text says them)
_RUNTIME = ("package", "op", "env", "shape", "other")


def _capabilities(check: str, requirement: KernelRequirements) -> str:
    values = [int(v) for v in requirement.get("values", [])]
    bound = requirement.get("value")
    if check == "capability-exact" and values:
        return _either([_version(v) for v in values])
    said = _version(int(bound)) if isinstance(bound, (int, float)) else str(bound)
    return {"capability-min": f"at least {said}", "capability-max": f"at most {said}",
            "capability-family": f"in the {said.split('.')[0]}.x family"}.get(check, said)


def _version(capability: int) -> str:
    """A capability as NVIDIA writes it (100 is 10.0)."""
    return f"{capability // 10}.{capability % 10}"


def _either(values: Sequence[str]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]
