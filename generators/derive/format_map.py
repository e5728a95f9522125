"""The format × hardware map: which formats each accelerator computes natively or emulates, by vendor and generation.

Rows are accelerators with at least one native or emulated format, grouped by the record's
`vendor` (vendors in a fixed reading order) and, within a vendor, by generation: the record's
`architecture` without its parenthetical (`Ampere (GA102)` is Ampere). Generations are ordered by
the earliest hardware target any of their parts belongs to (the targets' own `order`), so NVIDIA
reads Volta to Blackwell; parts of no target come after, by generation name. Columns are the
formats that are native or emulated somewhere, by id. Every non-empty cell carries the dense
peaks it is derived from (precision, TFLOPS, source), so a reader sees why; a native cell with no
peak (native by an instruction its hardware target lists, no rate recorded) carries that instruction
instead, and an emulated cell carries the instructions in the wider precisions it converts to. The status comes from
the tallies view, so it follows however native support is derived. A cell is `unverified` when everything its status
rests on is: every peak figure it carries is marked `unverified` in the part's record, and every instruction (or, for an
emulated cell, every statement that its targets have no instruction in the precision) cites a seed draft, not a
primary source; an emulated cell resting on instructions or such statements alone, with no figure, is never marked.
The map shows such a cell as a gap, not as a verified N or E. Pure; no I/O.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from ..model.records import Record
from .answers import Answer
from .members import members
from .provenance import is_primary
from .tallies import (MatrixInstruction, NoInstruction, Tally, admits, computes_natively, encoding_statements,
                      matrix_instructions, without_instruction)
from .whole_checkpoint import Counted, WholeCheckpoint, counted

VENDOR_ORDER = ("NVIDIA", "AMD", "Intel", "Apple", "Arm", "Google", "AWS")
NATIVE, EMULATED, NONE = "native", "emulated", "none"
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")
_NO_TARGET = 1 << 30


@dataclass(frozen=True)
class Peak:
    """One dense peak figure behind a map cell: the precision, the figure and its source record."""

    precision: str
    tflops: float
    source: str
    unverified: bool = False  # no primary source states the figure (its record says why)


@dataclass(frozen=True)
class MapCell:
    """One cell of the format map: a part's status in one format and what the status rests on."""

    status: str  # native, emulated or none
    peaks: tuple[Peak, ...]  # the dense peaks the status is derived from (empty for none)
    # the targets' instructions in its precision (native) or in a wider one it converts to (emulated)
    instructions: tuple[MatrixInstruction, ...] = ()
    encoding_unstated: bool = False  # native, but no figure or instruction in its precision names an encoding
    encoding_sources: tuple[str, ...] = ()  # for a native cell: the sources of the part's `matrix_encodings` naming it
    # for an emulated cell of a format the part's own precision leaves out: (encodings named, source) of each statement
    other_encodings: tuple[tuple[tuple[str, ...], str], ...] = ()
    # for an emulated cell: the targets' statements that their matrix engines have no instruction in its precision (or in any)
    without: tuple[NoInstruction, ...] = ()
    # every figure and instruction the status rests on is unverified (a native cell, or an emulated one with a figure)
    unverified: bool = False

    @property
    def unrated(self) -> bool:
        """Native by an instruction alone: no dense peak in the format's precision is recorded."""
        return self.status == NATIVE and not self.peaks


@dataclass(frozen=True)
class MapRow:
    """One accelerator's row of the format map."""

    accelerator: str
    vendor: str
    generation: str  # the architecture without its parenthetical; "" when the record has none
    short: str  # the name without the vendor in front and without a parenthetical
    cells: tuple[MapCell, ...]  # one per column

    @property
    def statuses(self) -> tuple[str, ...]:
        return tuple(c.status for c in self.cells)


@dataclass(frozen=True)
class MapColumn:
    """One format's column of the format map."""

    format: str
    short: str


@dataclass(frozen=True)
class Generation:
    """The format map's rows of one architecture."""

    name: str
    rows: tuple[MapRow, ...]


@dataclass(frozen=True)
class VendorGroup:
    """The format map's rows of one vendor, by architecture."""

    vendor: str
    generations: tuple[Generation, ...]

    @property
    def rows(self) -> tuple[MapRow, ...]:
        return tuple(r for g in self.generations for r in g.rows)


@dataclass(frozen=True)
class FormatRun:
    """A format served on a hardware target by an engine's scheme, through a kernel: a cell that loads, an expert-layer
    scheme's where its whole checkpoint does (`counted`, whole_checkpoint.counted: the verdict it is shown by)."""

    format: str
    scheme: str
    target: str
    kernel: str
    answer: Answer
    counted: Counted
    engine: str = ""


@dataclass(frozen=True)
class FormatMap:
    """The format map: its columns, its rows by vendor, the parts with nothing recorded, and what runs each format."""

    columns: tuple[MapColumn, ...]
    vendors: tuple[VendorGroup, ...]
    unlisted: tuple[str, ...]  # accelerators with nothing recorded
    runs: tuple[FormatRun, ...]

    @property
    def groups(self) -> tuple[tuple[str, tuple[MapRow, ...]], ...]:
        """(vendor, rows) pairs, generations flattened."""
        return tuple((v.vendor, v.rows) for v in self.vendors)


def short_name(name: str) -> str:
    return _PARENTHETICAL.sub("", name) or name


def part_name(name: str, vendor: str) -> str:
    """A part's name as a row label under its vendor: no vendor in front, no parenthetical ('NVIDIA H100 SXM (80GB)' -> 'H100 SXM')."""
    short = short_name(name)
    if vendor and short.lower().startswith(vendor.lower() + " "):
        short = short[len(vendor) + 1:]
    return short or name


def generation_of(record: Record) -> str:
    return short_name(str(record.data.get("architecture", "") or "")).strip()


def vendor_rank(vendor: str) -> tuple[int, str]:
    return (VENDOR_ORDER.index(vendor) if vendor in VENDOR_ORDER else len(VENDOR_ORDER), vendor)


def format_map(index: Index, tallies: dict[str, Tally], answers: dict[tuple[str, str], Answer],
               wholes: Mapping[tuple[str, str], WholeCheckpoint] | None = None) -> FormatMap:
    """The map; its runs are the answers that load, an expert-layer scheme's counted by its whole checkpoint
    (`wholes`: Views.whole_checkpoints)."""
    used = sorted({f for t in tallies.values() for f in t.native + t.emulated})
    formats = [index.must("format", f) for f in used]
    columns = tuple(MapColumn(f.id, short_name(f.name)) for f in formats)
    first_target = _first_target(index)
    listed = [r for r in index.all("accelerator") if tallies[r.id].listed]
    generation_rank: dict[tuple[str, str], int] = {}
    for record in listed:
        key = (str(record.data.get("vendor", "")), generation_of(record))
        generation_rank[key] = min(generation_rank.get(key, _NO_TARGET), first_target.get(record.id, _NO_TARGET))
    vendors: dict[str, dict[str, list[MapRow]]] = {}
    instructions, absent = matrix_instructions(index), without_instruction(index)
    primary = _primary_sources(index)
    for record in sorted(listed, key=lambda r: _row_key(r, generation_rank)):
        vendor = str(record.data.get("vendor", ""))
        own = instructions.get(record.id, ())
        statements = encoding_statements(record.data, own)  # (once per row, not once per emulated cell)
        cells = tuple(_cell(record.data, f, tallies[record.id], own, absent.get(record.id, ()), primary, statements)
                      for f in formats)
        row = MapRow(record.id, vendor, generation_of(record), part_name(record.name, vendor), cells)
        vendors.setdefault(vendor, {}).setdefault(row.generation, []).append(row)
    unlisted = tuple(r.id for r in sorted(index.all("accelerator"), key=lambda r: (vendor_rank(str(r.data.get("vendor", ""))), r.id))
                     if not tallies[r.id].listed)
    groups = tuple(VendorGroup(v, tuple(Generation(g, tuple(rows)) for g, rows in gens.items())) for v, gens in vendors.items())
    return FormatMap(columns, groups, unlisted, _runs(index, answers, wholes or {}))


def unverified_formats(view: FormatMap) -> dict[str, tuple[str, ...]]:
    """For each accelerator on the map, the formats (by column order) whose cell is unverified; parts with none left out."""
    found = {row.accelerator: tuple(c.format for c, cell in zip(view.columns, row.cells) if cell.unverified)
             for vendor in view.vendors for row in vendor.rows}
    return {a: formats for a, formats in found.items() if formats}


def _primary_sources(index: Index) -> Callable[[str], bool]:
    """is_primary, remembered per source id (the map asks about the same few sources for every cell)."""
    known: dict[str, bool] = {}

    def primary(source: str) -> bool:
        if source not in known:
            known[source] = is_primary(index, source)
        return known[source]
    return primary


def _first_target(index: Index) -> dict[str, int]:
    """For each accelerator, the smallest `order` of the hardware targets that list it."""
    first: dict[str, int] = {}
    for target in index.all("hardware-target"):
        for accelerator in members(index, target):
            first[accelerator] = min(first.get(accelerator, _NO_TARGET), int(target.data["order"]))
    return first


def _row_key(record: Record, generation_rank: dict[tuple[str, str], int]) -> tuple[Any, ...]:
    vendor, generation = str(record.data.get("vendor", "")), generation_of(record)
    return (vendor_rank(vendor), generation_rank[(vendor, generation)], generation == "", generation, record.id)


def _cell(accelerator: Mapping[str, Any], fmt: Record, tally: Tally,
          instructions: tuple[MatrixInstruction, ...], absent: tuple[NoInstruction, ...] = (),
          primary: Callable[[str], bool] = lambda source: True,
          statements: list[tuple[str, tuple[str, ...], str]] | None = None) -> MapCell:
    """One cell of the map; `statements` is encoding_statements of the part with these instructions, when the caller
    has it (the row's emulated cells all read it)."""
    if fmt.id in tally.native:
        status, precisions = NATIVE, {fmt.data.get("peak_precision")}
    elif fmt.id in tally.emulated:
        status, precisions = EMULATED, set(fmt.data.get("emulated_via", []))
    else:
        return MapCell(NONE, ())
    native = status == NATIVE  # a native cell cites only the figures and instructions that admit the format's encoding
    peaks = tuple(Peak(str(p["precision"]), float(p["tflops"]), str(p.get("source", "")), "unverified" in p)
                  for p in accelerator.get("peak_compute", [])
                  # a figure that runs as a wider precision is that precision's rate: it is cited through the wider one
                  if computes_natively(p) and p.get("precision") in precisions and "tflops" in p
                  and (not native or admits(p.get("encodings", []), fmt)))
    # an emulated cell cites the instructions of the wider precisions it converts to, as it cites their peaks (the
    # Arc B580 states no rate: its FP8 cells rest on the Xe2 DPAS FP16 and BF16 operands alone)
    executed = tuple(i for i in instructions if i.precision in precisions and (not native or admits(i.encodings, fmt)))
    stated = tuple(e["source"] for e in accelerator.get("matrix_encodings", [])
                   if native and e["precision"] in precisions and admits(e["encodings"], fmt) and "encoding" in fmt.data)
    if not native and statements is None:
        statements = encoding_statements(accelerator, instructions)
    others = () if native or statements is None else tuple(
        (encodings, source) for precision, encodings, source in statements
        if precision == fmt.data.get("peak_precision") and not admits(encodings, fmt))
    without = tuple(n for n in absent if not native and n.covers(fmt.data.get("peak_precision")))
    # the cell is a gap when all its status rests on is unverified; an emulated cell counts only if it rests on a figure
    evidence = [p.unverified for p in peaks] + [not primary(i.source) for i in executed] + [not primary(n.source) for n in without]
    unverified = bool(evidence) and all(evidence) and (native or bool(peaks))
    return MapCell(status, peaks, executed, fmt.id in tally.encoding_unstated, stated, others, without, unverified)


def _runs(index: Index, answers: dict[tuple[str, str], Answer],
          wholes: Mapping[tuple[str, str], WholeCheckpoint]) -> tuple[FormatRun, ...]:
    order = {t.id: n for n, t in enumerate(sorted(index.all("hardware-target"), key=lambda t: (t.data["order"], t.id)))}
    shown = {key: c for key, a in answers.items() if (c := counted(a.cell, wholes)).loads}
    runs = [FormatRun(f, s.id, target, a.cell.kernel or "", a, shown[(scheme, target)], str(s.data.get("engine", "")))
            for s in index.all("scheme") for f in s.data.get("formats", [])
            for (scheme, target), a in answers.items() if scheme == s.id and (scheme, target) in shown]
    return tuple(sorted(runs, key=lambda r: (r.format, order.get(r.target, 0), r.scheme)))
