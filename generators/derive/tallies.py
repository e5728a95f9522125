"""Native and emulated hardware formats per accelerator, derived from the accelerator's own peak figures and the matrix instructions its targets (or the part itself) state.

A hardware format (format_class `hardware`) is native on a part when the part states a dense
matrix-engine peak in the format's `peak_precision` (unless a source says that figure `runs_as` a wider precision: the
part's engines convert the operands, so the figure is a rate and no native path), or when a hardware target the part belongs to
lists that precision among its `matrix_formats` (an instruction of the architecture's own; the
format is then native with no rate recorded, `unrated`). A target's lists hold for every part; where its parts differ
in a precision, each part states it in its own `matrix_formats` or `no_matrix_formats`, read here exactly as its
targets' entries (Granite Rapids has the AMX-FP16 tile multiply, Sapphire Rapids of the same target has not; a part
only adds precisions its targets leave unstated, check `part-matrix-formats`). Where the format names an `encoding` (FP8 E4M3 or E5M2)
and the part's figures, its `matrix_encodings` or its targets' instructions in that precision name `encodings`, it is
native only in an encoding they name; where none of them names any, it is native with its encoding unstated
(`encoding_unstated`): the vendor says FP8 and no more, which the site shows rather than reading it as both. It is
emulated when it is not native and the
part has a dense peak in one of the format's `emulated_via` precisions, or a target it belongs to lists a matrix
instruction in one (it converts to a wider type the matrix engines take: the Arc B580 states no peak, and its Xe2
DPAS takes FP16 and BF16 but no FP8, so FP8 is emulated there as on the Arc Pro B60 of the same die).
A missing peak figure therefore never makes a format emulated on a part whose architecture has the instruction.
It is emulated too when a target the part belongs to lists the format's precision among its `no_matrix_formats` (a
source shows the architecture has no matrix instruction in it, so operands are converted or multiplied on vector
instructions), even where no peak is recorded; a part with no figures therefore never reads as native by silence. A
target may instead state `no_matrix_instructions`: its parts have no matrix instruction in any precision (gfx906 has no
matrix unit at all), so every hardware format not native there is emulated, from that one statement. A format in
neither list on a part with no figure in it is neither: the records do not say, and the site says so.
Checkpoint formats and categories are never native: they run through kernels (see the support cells).
What sources state (native lists on format records, counts on accelerators) are claims checked
against this derivation, never inputs to it.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from ..model.records import Record
from ..model.fields import AcceleratorFields, AcceleratorStatedTallies, MatrixFormat, StatedSupportItem
from .members import members


@dataclass(frozen=True)
class StatedCount:
    """One count a source states for a part (`which` list: native or emulated), beside the derived count."""

    which: str
    count: int
    derived: int
    source: str
    locator: str = ""
    explained_by: str = ""

    @property
    def agrees(self) -> bool:
        return self.count == self.derived


@dataclass(frozen=True)
class Tally:
    """The hardware formats one accelerator computes natively or by conversion, and the counts sources state."""

    accelerator: str
    native: tuple[str, ...]
    emulated: tuple[str, ...]
    stated: tuple[StatedCount, ...]
    dense_precisions: tuple[str, ...] = ()
    unrated: tuple[str, ...] = ()  # native by an instruction of the part's targets, with no dense peak recorded
    encoding_unstated: tuple[str, ...] = ()  # native, but nothing stated for the part names an encoding in its precision

    @property
    def native_count(self) -> int:
        return len(self.native)

    @property
    def emulated_count(self) -> int:
        return len(self.emulated)

    @property
    def listed(self) -> bool:
        return bool(self.native or self.emulated)

    def stated_mismatches(self) -> tuple[StatedCount, ...]:
        """Every stated count the derivation does not reproduce."""
        return tuple(s for s in self.stated if not s.agrees)

    def first_stated(self, which: str) -> int | None:
        """The first count a source states for the `which` list, if any does."""
        return next((s.count for s in self.stated if s.which == which), None)


def stated_counts(entries: list[AcceleratorStatedTallies], native: int, emulated: int) -> tuple[StatedCount, ...]:
    counts = []
    for entry in entries:
        for which, count, derived in (("native", entry.get("native"), native), ("emulated", entry.get("emulated"), emulated)):
            if count is not None:
                counts.append(StatedCount(which, count, derived, entry["source"], entry.get("locator", ""),
                                          entry.get("explained_by", "")))
    return tuple(counts)


def hardware_formats(index: Index) -> list[Record]:
    """Format records that are hardware number formats (the only ones that can be native)."""
    return [f for f in index.all("format") if f.data.get("format_class") == "hardware"]


def dense_precisions(accelerator: AcceleratorFields) -> tuple[str, ...]:
    """The precisions for which the part states a dense peak, sorted."""
    return tuple(sorted({p["precision"] for p in accelerator.get("peak_compute", []) if p.get("sparsity") == "dense"}))


def computes_natively(figure: Mapping[str, Any]) -> bool:
    """Whether a peak figure stands for a matrix path of its own precision: dense, and no source says it `runs_as` a
    wider precision (operands converted, the figure that precision's rate)."""
    return figure.get("sparsity") == "dense" and "runs_as" not in figure


@dataclass(frozen=True)
class MatrixInstruction:
    """One `matrix_formats` entry of a hardware target (or of a part, `on_part`): a precision the matrix engines
    execute, and where that is stated."""

    precision: str
    instruction: str
    target: str  # the hardware target that lists it; the accelerator's own id when `on_part`
    source: str
    locator: str
    encodings: tuple[str, ...] = ()  # the encodings the source names for the instruction; empty when it names none
    on_part: bool = False  # stated by the part's own record, for a precision its targets leave unstated


def matrix_instructions(index: Index) -> dict[str, tuple[MatrixInstruction, ...]]:
    """For each accelerator that belongs to a target with `matrix_formats` or states its own, those entries (targets by
    id, in list order, then the part's own)."""
    found: dict[str, list[MatrixInstruction]] = {}
    for target in index.all("hardware-target"):
        entries = [_instruction(target.id, e) for e in target.data.get("matrix_formats", [])]
        if entries:  # members() of a gfx target scans the accelerators: only for targets that list instructions
            for accelerator in members(index, target):
                found.setdefault(accelerator, []).extend(entries)
    for part in index.all("accelerator"):
        for entry in part.data.get("matrix_formats", []):
            found.setdefault(part.id, []).append(_instruction(part.id, entry, on_part=True))
    return {a: tuple(entries) for a, entries in found.items()}


def _instruction(target: str, entry: MatrixFormat,
                 on_part: bool = False) -> MatrixInstruction:
    return MatrixInstruction(entry["precision"], entry["instruction"], target, entry["source"], entry["locator"],
                             tuple(entry.get("encodings", ())), on_part)


@dataclass(frozen=True)
class NoInstruction:
    """One `no_matrix_formats` entry of a hardware target: a precision its parts' matrix engines have no instruction in;
    precision None for its `no_matrix_instructions` statement (no matrix instruction in any precision)."""

    precision: str | None
    target: str  # the hardware target that states it; the accelerator's own id when `on_part`
    source: str
    on_part: bool = False  # a `no_matrix_formats` entry of the part's own record

    def covers(self, precision: object) -> bool:
        """Whether the statement says the matrix engines have no instruction in this precision."""
        return self.precision is None or self.precision == precision


def without_instruction(index: Index) -> dict[str, tuple[NoInstruction, ...]]:
    """For each accelerator of a target with `no_matrix_instructions` or `no_matrix_formats`, or with its own
    `no_matrix_formats`, those statements (targets by id; the whole-target statement first, then the entries in list
    order; then the part's own)."""
    found: dict[str, list[NoInstruction]] = {}
    for target in index.all("hardware-target"):
        whole = target.data.get("no_matrix_instructions")
        entries = [*([NoInstruction(None, target.id, str(whole["source"]))] if whole else []),
                   *(NoInstruction(str(e["precision"]), target.id, str(e["source"]))
                     for e in target.data.get("no_matrix_formats", []))]
        if entries:
            for accelerator in members(index, target):
                found.setdefault(accelerator, []).extend(entries)
    for part in index.all("accelerator"):
        for entry in part.data.get("no_matrix_formats", []):
            found.setdefault(part.id, []).append(NoInstruction(str(entry["precision"]), part.id, str(entry["source"]), True))
    return {a: tuple(entries) for a, entries in found.items()}


def encoding_statements(accelerator: Mapping[str, Any],
                        instructions: tuple[MatrixInstruction, ...]) -> list[tuple[str, tuple[str, ...], str]]:
    """(precision, encodings, source) for every dense figure of the part, entry of its `matrix_encodings` and matrix
    instruction of its targets that names encodings."""
    peaks = accelerator.get("peak_compute", [])
    found = [*((p["precision"], tuple(p.get("encodings", ())), p["source"]) for p in peaks if p.get("sparsity") == "dense"),
             *((e["precision"], tuple(e["encodings"]), e["source"]) for e in accelerator.get("matrix_encodings", [])),
             *((i.precision, i.encodings, i.source) for i in instructions)]
    return [(precision, encodings, source) for precision, encodings, source in found if encodings]


def named_encodings(accelerator: AcceleratorFields, instructions: tuple[MatrixInstruction, ...]) -> dict[str, set[str]]:
    """Per precision, every encoding the part's statements name (precisions whose sources name none are absent)."""
    named: dict[str, set[str]] = {}
    for precision, encodings, _ in encoding_statements(accelerator, instructions):
        named.setdefault(precision, set()).update(encodings)
    return named


def admits(encodings: Collection[str], fmt: Record) -> bool:
    """Whether a figure or instruction naming these encodings (none: unstated) covers the format's encoding."""
    return not encodings or "encoding" not in fmt.data or fmt.data["encoding"] in encodings


def derive_tallies(index: Index) -> dict[str, Tally]:
    formats = hardware_formats(index)
    instructions = matrix_instructions(index)
    absent = without_instruction(index)
    tallies = {}
    for accelerator in index.all("accelerator"):
        peaks = accelerator.data.get("peak_compute", [])
        own = instructions.get(accelerator.id, ())
        dense = set(dense_precisions(accelerator.data))
        executed = {p["precision"] for p in peaks if computes_natively(p)} | {i.precision for i in own}
        named = named_encodings(accelerator.data, own)
        native_formats = [f for f in formats if f.data.get("peak_precision") in executed
                          and admits(named.get(str(f.data.get("peak_precision")), ()), f)]
        native = tuple(f.id for f in native_formats)
        unrated = tuple(f.id for f in native_formats if not any(
            computes_natively(p) and p["precision"] == f.data.get("peak_precision") and admits(p.get("encodings", []), f)
            for p in peaks))
        unstated = tuple(f.id for f in native_formats if "encoding" in f.data and f.data.get("peak_precision") not in named)
        # a figure that runs as a wider precision is that precision's rate: it converts through that one, not its own
        converted = {p["runs_as"]["precision"] if "runs_as" in p else p["precision"]
                     for p in peaks if p.get("sparsity") == "dense"} | {i.precision for i in own}
        none = absent.get(accelerator.id, ())
        emulated = tuple(f.id for f in formats if f.id not in native and (
            converted & set(f.data.get("emulated_via", [])) or any(n.covers(f.data.get("peak_precision")) for n in none)))
        stated = stated_counts(accelerator.data.get("stated_tallies", []), len(native), len(emulated))
        tallies[accelerator.id] = Tally(accelerator.id, native, emulated, stated, tuple(sorted(dense)), unrated, unstated)
    return tallies


@dataclass(frozen=True)
class FormatParts:
    """Where one hardware format is derived native, and where emulated (accelerator ids, sorted)."""

    format: str
    native: tuple[str, ...]
    emulated: tuple[str, ...]
    stated_native: tuple[str, ...] = ()  # every accelerator a source lists as native (a claim, checked)
    stated_emulated: tuple[str, ...] = ()


def parts_by_format(index: Index, tallies: dict[str, Tally]) -> dict[str, FormatParts]:
    """For every format, the parts it is derived native and emulated on (empty for checkpoint formats)."""
    native: dict[str, list[str]] = {}
    emulated: dict[str, list[str]] = {}
    for accelerator, tally in sorted(tallies.items()):  # one pass over the tallies, not one per format
        for fmt in tally.native:
            native.setdefault(fmt, []).append(accelerator)
        for fmt in tally.emulated:
            emulated.setdefault(fmt, []).append(accelerator)
    return {f.id: FormatParts(f.id, tuple(native.get(f.id, ())), tuple(emulated.get(f.id, ())),
                              _stated(f.data.get("stated_native", [])), _stated(f.data.get("stated_emulated", [])))
            for f in index.all("format")}


def _stated(claims: list[StatedSupportItem]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a for claim in claims for a in claim["accelerators"]))


def most_native(tallies: dict[str, Tally]) -> tuple[str, ...]:
    """The accelerators with the largest derived native count (ties kept, by id); empty when none is native."""
    top = max((t.native_count for t in tallies.values()), default=0)
    return tuple(sorted(a for a, t in tallies.items() if top and t.native_count == top))


def ranked_by_native(tallies: dict[str, Tally]) -> list[Tally]:
    """Accelerators by native-format count, most first; ties by id."""
    return sorted(tallies.values(), key=lambda t: (-t.native_count, t.accelerator))
