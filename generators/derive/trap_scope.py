"""Whether a trap applies to a support answer: every part of its scope it declares matches the answer.

A trap's scope is what its record names: engines, schemes, formats, kernels, platforms, accelerators and (under
`scope.releases`) the engine releases it affects. A trap concerns answers if it names schemes, formats or kernels,
or an engine together with platforms or parts (the engine on that hardware, whatever the scheme: llama.cpp's HIP
backend corrupting output on gfx1151 concerns every llama.cpp answer there). A trap naming only an engine is shown
beside its answers apart (engine_traps.py); one naming only a part is listed on the part, not on every answer. Each
dimension the trap declares must match, and one it leaves out does not narrow it.

- engines: the answer's engine is one of them; a trap naming no engine is a claim about every engine, put on an
  engine's derived answers only when a primary source backs it (a record that declares `unverified` is not);
- schemes: the answer's scheme is one of them (where a format would name other schemes too);
- formats: one of the scheme's formats is one of them; on a refusal (nothing loads, so nothing computes wrong) only
  a trap whose verbatim `messages` include what the engine prints;
- kernels: for an answer that loads or is selected and then fails, the kernel that serves it (or one that
  accepts under a condition, which then may serve) is one of them; for a refusal, one of them was tried and
  one of the trap's verbatim `messages` is what the engine prints (a trap about a kernel's running behaviour
  says nothing about a refusal);
- platforms: the target's platform is one of them;
- accelerators: one of them is a member of the answer's hardware target (a trap on one part of a target is
  listed for the target with the parts it names, `parts_named`: every view says it applies there only, counts it
  apart from the traps on the whole target, and keeps it to those parts when a part is picked);
- releases: the release the answer is derived at (the engine record's `version_read`) is in the range;
- layers: the answer's scheme covers these layers (`layers`, dense unless the scheme says experts): a trap of model
  types with no expert layers cannot reach an expert-layer answer;
- native: a part of the answer's hardware target may compute one of these hardware formats natively: the trap is left
  off only where every part is derived to emulate each of them (tallies.py), for a log line denying a capability
  misleads only where the part has it. A part whose records say neither (no figure, no instruction in that precision)
  keeps the trap: silence must not read as 'not native' and drop a warning.

Pure functions; no I/O.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.records import Record
from ..model.verdicts import Verdict
from .cells import CONDITIONAL, YES, Cell
from .history import release_key


@dataclass(frozen=True)
class TrapScope:
    """The dimensions a trap declares (an empty set: not declared, so not narrowing)."""

    id: str
    engines: frozenset[str]
    formats: frozenset[str]
    kernels: frozenset[str]
    platforms: frozenset[str]
    accelerators: frozenset[str]
    messages: tuple[str, ...]
    release_engine: str
    first: str
    last: str
    verified: bool = True  # False: the record declares that no primary source backs it
    schemes: frozenset[str] = frozenset()
    layers: str = ""  # "" when not declared
    native: frozenset[str] = frozenset()


@dataclass(frozen=True)
class AnswerScope:
    """What a support answer is about: engine and its release read, scheme formats and layers, target members and
    the hardware formats every one of them is derived to emulate, the cell."""

    cell: Cell
    formats: frozenset[str]
    platform: str
    accelerators: frozenset[str]
    release: str  # the engine's version_read; "" when the engine record has none
    layers: str = "dense"
    emulated: frozenset[str] = frozenset()  # derived emulated on every member part (none known native, none unstated)


def trap_scope(record: Record) -> TrapScope:
    """The scope a gotcha record declares."""
    data = record.data
    releases: Mapping[str, Any] = (data.get("scope") or {}).get("releases") or {}
    return TrapScope(record.id, frozenset(data.get("engines", [])), frozenset(data.get("formats", [])),
                     frozenset(data.get("kernels", [])), frozenset(data.get("platforms", [])),
                     frozenset(data.get("accelerators", [])),
                     tuple(data.get("messages", [])), str(releases.get("engine", "")),
                     str(releases.get("first", "")), str(releases.get("last", "")), not data.get("unverified"),
                     frozenset(data.get("schemes", [])), str(data.get("layers", "")),
                     frozenset(data.get("native", [])))


def applies(trap: TrapScope, answer: AnswerScope) -> bool:
    """True when every dimension the trap declares matches the answer."""
    cell = answer.cell
    return ((bool(trap.formats) or bool(trap.kernels) or bool(trap.schemes)
             or (bool(trap.engines) and bool(trap.platforms or trap.accelerators)))
            and (cell.engine in trap.engines if trap.engines else trap.verified)
            and (not trap.schemes or cell.scheme in trap.schemes)
            and (bool(trap.kernels) or cell.verdict is not Verdict.REFUSED or _printed(trap, cell))
            and (not trap.formats or bool(trap.formats & answer.formats))
            and (not trap.kernels or _kernel_matches(trap, cell))
            and (not trap.platforms or answer.platform in trap.platforms)
            and (not trap.accelerators or bool(trap.accelerators & answer.accelerators))
            and (not trap.layers or answer.layers == trap.layers)
            and (not trap.native or not trap.native <= answer.emulated)
            and in_releases(trap, cell.engine, answer.release))


def parts_named(trap: TrapScope, parts: tuple[str, ...]) -> tuple[str, ...]:
    """The parts of a hardware target (its members, in their order) a trap is limited to, where it names some of them
    but not all (the onnxruntime-gpu wheel's missing code stops the GB10 at 12.1, not the RTX 5090 at 12.0); empty
    where it concerns the whole target (it names no part, or every part)."""
    named = tuple(p for p in parts if p in trap.accelerators)
    return named if named and len(named) < len(parts) else ()


def in_releases(trap: TrapScope, engine: str, release: str) -> bool:
    """True unless the trap bounds this engine's releases and `release` is outside the bounds (either bound may be
    absent: no first known, or no fix known)."""
    if not (trap.first or trap.last) or engine != trap.release_engine or not release:
        return True
    key = release_key(release)
    return (not trap.first or release_key(trap.first) <= key) and (not trap.last or key <= release_key(trap.last))


def serving_kernels(cell: Cell) -> frozenset[str]:
    """The kernels that serve a cell: the selected one, and every one that accepts outright or under a condition."""
    accepting = {a.kernel for a in cell.attempts if a.outcome in (YES, CONDITIONAL) and not a.after_selection}
    return frozenset(accepting | ({cell.kernel} if cell.kernel else set()))


def _kernel_matches(trap: TrapScope, cell: Cell) -> bool:
    serving = serving_kernels(cell)
    if serving:
        return bool(trap.kernels & serving)
    tried = {a.kernel for a in cell.attempts}
    return bool(trap.kernels & tried) and _printed(trap, cell)


def _printed(trap: TrapScope, cell: Cell) -> bool:
    """Whether one of the trap's verbatim messages is what the engine prints for this cell."""
    printed = " ".join((cell.failure_message, *cell.reasons))
    return any(message in printed for message in trap.messages)


def applies_when(data: Mapping[str, Any]) -> str:
    """When a trap bites beyond the answer it is listed on, in words from its `applies_when` ('on an Arm (aarch64)
    host', 'with a MoE model, if VLLM_MARLIN_INPUT_DTYPE is set'); empty when the record narrows it no further (or does
    not say how)."""
    when = data.get("applies_when") or {}
    env = when.get("env", [])
    # the host comes first: no target models it, so a reader on the usual x86_64 host must see at once it is not theirs
    said = ["on an Arm (aarch64) host"] if when.get("host") == "aarch64" else []
    said += ["with a MoE model"] if when.get("layers") == "experts" else []
    said += [f"if {' or '.join(env)} is set"] if env else []
    return ", ".join(said)
