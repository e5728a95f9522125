"""Which formats an answer computes in that the format map rates emulated, or rates nowhere, on a target's parts (or
on one part), and how the kernels computing them record that they do it there (kernel without_matrix_instruction).

The one place this rule lives: `explain` prints it for a whole target (emulated_here, unknown_here, from an Answer),
and the Can I run it? page's data serves it per cell for the target and for each of its parts
(render/selector_data.py, from the data API's own documents through notices_of), which the card's "Computes in"
notices only place, in the words derive/wording.py gives both (docs/javascripts/can-i-run-it.js: emulatedHere,
howEmulated, unknownHere)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping, Sequence

from .answers import Answer
from .wording import way_said


@dataclass(frozen=True)
class Way:
    """Consecutive kernels recording the same way of computing a format without a matrix instruction for it; `labels`
    are the kernels' labels in the route step that computes the format (empty where no step names it)."""

    kernels: tuple[str, ...]
    computes: str  # converted, vector or rescaled
    precision: str = ""
    unit: str = ""
    instruction: str = ""
    source: str = ""
    labels: tuple[str, ...] = ()

    @property
    def said(self) -> str:
        """The way in words after the kernels' names, as explain and the card say it (wording.way_said)."""
        return way_said(self.computes, len(self.kernels) > 1, self.precision, self.unit)

    def as_dict(self) -> dict[str, Any]:
        """As the page's data serves it: the way in words in place of how it computes, in what and with which unit."""
        return {"kernels": list(self.kernels), "labels": list(self.labels), "said": self.said,
                "instruction": self.instruction, "source": self.source}


@dataclass(frozen=True)
class Emulated:
    """A format the answer computes in that the format map rates emulated on `parts` (every one of the answer's
    formats is rated emulated there); `ways` is empty where one of its kernels records no way for the target."""

    format: str
    parts: tuple[str, ...]
    ways: tuple[Way, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"format": self.format, "parts": list(self.parts), "ways": [w.as_dict() for w in self.ways]}


@dataclass(frozen=True)
class Step:
    """A route step as the rule reads it: the formats it computes in, its kernels and their labels."""

    formats: tuple[str, ...]
    kernels: tuple[str, ...]
    labels: tuple[str, ...] = ()


def emulated_on(computes_in: Sequence[str], steps: Sequence[Step], kernel: str, target: str,
                target_parts: Sequence[str], emulated: Mapping[str, Sequence[str]],
                kernels: Mapping[str, Mapping[str, Any]]) -> tuple[Emulated, ...]:
    """For each format computed in, the parts the map rates emulated in every one of the formats computed in."""
    parts = tuple(p for p in target_parts if all(f in emulated.get(p, ()) for f in computes_in))
    if not parts:
        return ()
    return tuple(Emulated(f, parts, _ways(steps, kernel, target, f, kernels)) for f in computes_in)


def unknown_on(computes_in: Sequence[str], target_parts: Sequence[str],
               rated: Mapping[str, Sequence[str]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The formats computed in that the map rates on some part but on none of these parts (native or emulated).
    (Whether the map rates a format anywhere is asked only of a format none of these parts rates: the selector's data
    asks this of every cell on its target and on each of its parts.)"""
    if not target_parts:
        return ()
    return tuple((f, tuple(target_parts)) for f in computes_in
                 if not any(f in rated.get(p, ()) for p in target_parts) and any(f in fs for fs in rated.values()))


def emulated_here(answer: Answer, target_parts: tuple[str, ...], emulated: Mapping[str, tuple[str, ...]],
                  kernels: Mapping[str, Mapping[str, Any]]) -> tuple[Emulated, ...]:
    """emulated_on for an answer on its target's parts."""
    steps = [Step(tuple(s.formats), tuple(s.kernels), tuple(s.labels)) for s in answer.steps]
    return emulated_on(answer.computes_in, steps, answer.cell.kernel or "", answer.cell.target, target_parts,
                       emulated, kernels)


def unknown_here(answer: Answer, target_parts: tuple[str, ...],
                 rated: Mapping[str, tuple[str, ...]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """unknown_on for an answer on its target's parts."""
    return unknown_on(answer.computes_in, target_parts, rated)


def notices_of(cell: Mapping[str, Any], target_parts: Sequence[str], emulated: Mapping[str, Sequence[str]],
               rated: Mapping[str, Sequence[str]], kernels: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """A data API cell's notices, for its whole target and for each of the target's parts alone:
    {"target": {"emulated": [...], "unknown": [...]}, "parts": {part: {...}}}, each place only where it has one."""
    computes_in = cell.get("computes_in", [])
    steps = [Step(tuple(s["formats"]), tuple(s["kernels"]), tuple(s.get("labels", []))) for s in cell.get("computes_steps", [])]

    def at(parts: Sequence[str]) -> dict[str, Any]:
        said: dict[str, Any] = {}
        found = emulated_on(computes_in, steps, cell.get("kernel") or "", cell["target"], parts, emulated, kernels)
        if found:
            said["emulated"] = [e.as_dict() for e in found]
        unknown = unknown_on(computes_in, parts, rated)
        if unknown:
            said["unknown"] = [{"format": f, "parts": list(on)} for f, on in unknown]
        return said

    notices: dict[str, Any] = {}
    whole = at(target_parts)
    if whole:
        notices["target"] = whole
    each = {p: n for p in target_parts if (n := at((p,)))}
    if each:
        notices["parts"] = each
    return notices


def _ways(steps: Sequence[Step], kernel: str, target: str, fmt: str,
          kernels: Mapping[str, Mapping[str, Any]]) -> tuple[Way, ...]:
    step = next((s for s in steps if fmt in s.formats), None)
    ids = step.kernels if step else ((kernel,) if kernel else ())
    labels = step.labels if step else ()
    found = []
    for n, k in enumerate(ids):
        way = next((w for w in kernels.get(k, {}).get("without_matrix_instruction", [])
                    if target in w["targets"] and fmt in w["formats"]), None)
        if way is None:
            return ()
        found.append((k, labels[n] if n < len(labels) else "", way))
    grouped: list[Way] = []
    for k, label, w in found:
        way = Way((k,), w["computes"], w.get("precision", ""), w.get("unit", ""), w.get("instruction", ""),
                  w.get("source", ""), (label,))
        last = grouped[-1] if grouped else None
        if last and (last.computes, last.precision, last.unit, last.instruction) == (
                way.computes, way.precision, way.unit, way.instruction):
            grouped[-1] = Way((*last.kernels, k), last.computes, last.precision, last.unit, last.instruction,
                              last.source, (*last.labels, label))
        else:
            grouped.append(way)
    return tuple(grouped)
