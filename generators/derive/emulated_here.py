"""Which formats an answer computes in that the format map rates emulated, or rates nowhere, on a target's parts, and
how the kernels computing them record that they do it there (kernel without_matrix_instruction); the same rule as the
Can I run it? card's "Computes in" notices (docs/javascripts/can-i-run-it.js: emulatedHere, howEmulated, unknownHere),
for a whole target (the card also takes one part)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from .answers import Answer


@dataclass(frozen=True)
class Way:
    """Consecutive kernels recording the same way of computing a format without a matrix instruction for it."""

    kernels: tuple[str, ...]
    computes: str  # converted, vector or rescaled
    precision: str = ""
    unit: str = ""
    instruction: str = ""
    source: str = ""


@dataclass(frozen=True)
class Emulated:
    """A format the answer computes in that the format map rates emulated on `parts` (every one of the answer's
    formats is rated emulated there); `ways` is empty where one of its kernels records no way for the target."""

    format: str
    parts: tuple[str, ...]
    ways: tuple[Way, ...] = ()


def emulated_here(answer: Answer, target_parts: tuple[str, ...], emulated: Mapping[str, tuple[str, ...]],
                  kernels: Mapping[str, Mapping[str, Any]]) -> tuple[Emulated, ...]:
    """For each format the answer computes in, the target's parts the map rates emulated in every one of them."""
    formats = answer.computes_in
    parts = tuple(p for p in target_parts if all(f in emulated.get(p, ()) for f in formats))
    if not parts:
        return ()
    return tuple(Emulated(f, parts, _ways(answer, f, kernels)) for f in formats)


def _ways(answer: Answer, fmt: str, kernels: Mapping[str, Mapping[str, Any]]) -> tuple[Way, ...]:
    step = next((s for s in answer.steps if fmt in s.formats), None)
    ids = step.kernels if step else ((answer.cell.kernel,) if answer.cell.kernel else ())
    found = []
    for k in ids:
        way = next((w for w in kernels.get(k, {}).get("without_matrix_instruction", [])
                    if answer.cell.target in w["targets"] and fmt in w["formats"]), None)
        if way is None:
            return ()
        found.append((k, way))
    grouped: list[Way] = []
    for k, w in found:
        way = Way((k,), w["computes"], w.get("precision", ""), w.get("unit", ""), w.get("instruction", ""),
                  w.get("source", ""))
        last = grouped[-1] if grouped else None
        if last and (last.computes, last.precision, last.unit, last.instruction) == (
                way.computes, way.precision, way.unit, way.instruction):
            grouped[-1] = Way((*last.kernels, k), last.computes, last.precision, last.unit, last.instruction, last.source)
        else:
            grouped.append(way)
    return tuple(grouped)


def unknown_here(answer: Answer, target_parts: tuple[str, ...],
                 rated: Mapping[str, tuple[str, ...]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The answer's formats the map rates on some part but on none of the target's (native or emulated): unknown there."""
    anywhere = {f for fs in rated.values() for f in fs}
    if not target_parts:
        return ()
    return tuple((f, target_parts) for f in answer.computes_in
                 if f in anywhere and not any(f in rated.get(p, ()) for p in target_parts))
