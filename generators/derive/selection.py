"""Selection views: per-accelerator hardware rows and the per-target quantization decision.

Pure functions from the linked index and already-derived views to plain rows, in a stable
order, so the hardware-selection and quantization-selection chapters only loop and print.
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from ..model.index import Index
from ..model.records import Record
from ..model.verdicts import Verdict
from .answers import Answer, engine_releases
from .cells import Cell
from .default_lead import default_lead
from .members import members
from .order import rank, targets_in_order
from .parts import PartAnswer
from .tallies import Tally
from .trap_scope import in_releases, parts_named, trap_scope
from .whole_checkpoint import WholeCheckpoint, loads
from ..model.fields import ENUMS, SourcedNumber

CATEGORY_ORDER = ENUMS["accelerator.category"]
PRECISION_ORDER = ENUMS["defs.precision"]


@dataclass(frozen=True)
class Figure:
    """One sourced number (memory, bandwidth) as the record gives it."""

    value: float
    source: str
    estimate: bool
    note: str
    unverified: str = ""  # why no primary source states it (the record's reason); empty when one does


@dataclass(frozen=True)
class HardwareRow:
    """What one accelerator record offers a buyer: memory, bandwidth, format tallies, peak precisions."""

    accelerator: str
    category: str
    memory_gb: tuple[Figure, ...]
    memory_type: str
    bandwidth_gbs: tuple[Figure, ...]
    native_count: int
    emulated_count: int
    dense_precisions: tuple[str, ...]
    sparse_precisions: tuple[str, ...]
    listed: bool
    # the native formats the format map marks unverified (every figure and instruction they rest on is), and the
    # dense precisions those formats compute in: the same gaps the part page and the map show (Views.unverified_formats)
    unverified_native: tuple[str, ...] = ()
    unverified_precisions: tuple[str, ...] = ()


@dataclass(frozen=True)
class HardwareGroup:
    """The hardware rows of one category."""

    category: str
    rows: tuple[HardwareRow, ...]


@dataclass(frozen=True)
class Served:
    """A scheme that loads on a target (runs, runs under conditions, or falls back; an expert-layer scheme's whole
    checkpoint loads): what it serves, through what."""

    scheme: str
    engine: str
    formats: tuple[str, ...]
    verdict: Verdict
    kernel: str
    conditions: tuple[str, ...]
    cell: Cell
    on_parts: tuple[PartAnswer, ...] = ()  # the answer on member parts that need more than the target (parts.py)
    whole: WholeCheckpoint | None = None  # an expert-layer scheme's whole checkpoint here (whole_checkpoint.py)


@dataclass(frozen=True)
class ServedRow:
    """Schemes of one engine that a target serves alike: one row of its table instead of one per scheme.

    Alike means the same verdict, kernel (and the one a default install selects instead), conditions, precision, next outcomes when the conditions fail, answers on
    the parts that need more than the target and whole checkpoint (an expert-layer scheme's), so everything the row shows beside the schemes and their formats is each
    scheme's own (`cell` is the first's)."""

    schemes: tuple[str, ...]
    engine: str
    formats: tuple[str, ...]
    kernel: str
    conditions: tuple[str, ...]
    cell: Cell
    on_parts: tuple[PartAnswer, ...] = ()
    whole: WholeCheckpoint | None = None


def served_rows(served: tuple[Served, ...]) -> tuple[ServedRow, ...]:
    """The served schemes grouped into rows (see ServedRow), each row where its first scheme stands."""
    groups: dict[tuple[Any, ...], list[Served]] = {}
    for s in served:
        key = (s.engine, s.verdict, s.kernel, default_lead(s.cell), s.conditions, s.cell.computes_as, s.cell.otherwise,
               s.on_parts, s.whole)
        groups.setdefault(key, []).append(s)
    return tuple(ServedRow(tuple(s.scheme for s in group), group[0].engine,
                           tuple(dict.fromkeys(f for s in group for f in s.formats)), group[0].kernel,
                           group[0].conditions, group[0].cell, group[0].on_parts, group[0].whole)
                 for group in groups.values())


@dataclass(frozen=True)
class TargetSelection:
    """The decision for one hardware target, from derived cells, tallies and traps."""

    target: str
    platform: str
    accelerators: tuple[str, ...]
    native: tuple[str, ...]
    served: tuple[Served, ...]
    refused: tuple[Cell, ...]  # those that do not load (an expert-layer scheme's whole checkpoint does not)
    traps: tuple[str, ...]
    encoding_unstated: tuple[str, ...] = ()  # native formats whose encoding no part of the target names (FP8 said alone)
    # of `traps`, those limited to some of the target's parts (trap_scope.parts_named), with those parts, in trap order
    trap_parts: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def whole_traps(self) -> tuple[str, ...]:
        """Of `traps`, those that concern every part of the target."""
        limited = {trap for trap, _ in self.trap_parts}
        return tuple(t for t in self.traps if t not in limited)

    @property
    def traps_on_parts(self) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
        """The part-limited traps grouped by the parts they are limited to: (parts, traps), each group where its first
        trap stands."""
        groups: dict[tuple[str, ...], list[str]] = {}
        for trap, parts in self.trap_parts:
            groups.setdefault(parts, []).append(trap)
        return tuple((parts, tuple(traps)) for parts, traps in groups.items())

    @property
    def rows(self) -> tuple[ServedRow, ...]:
        """The served schemes, those served alike in one row."""
        return served_rows(self.served)


@dataclass(frozen=True)
class UncoveredAccelerator:
    """An accelerator that no hardware target contains: no derived cell exists for it."""

    accelerator: str
    category: str
    native: tuple[str, ...]
    emulated: tuple[str, ...]
    traps: tuple[str, ...]


def _figures(values: list[SourcedNumber]) -> tuple[Figure, ...]:
    return tuple(Figure(v["value"], v["source"], bool(v.get("estimate")), v.get("note", ""), v.get("unverified", ""))
                 for v in values)


def _precisions(record: Record, sparsity: str) -> tuple[str, ...]:
    present = {p["precision"] for p in record.data.get("peak_compute", []) if (p["sparsity"] == "dense") == (sparsity == "dense")}
    return tuple(p for p in PRECISION_ORDER if p in present)


def hardware_groups(index: Index, tallies: dict[str, Tally],
                    unverified_formats: dict[str, tuple[str, ...]] | None = None) -> list[HardwareGroup]:
    """Accelerators grouped by category (schema order), by id within a group. `unverified_formats` is the format map's
    gaps per part (Views.unverified_formats); a native one marks its format and its precision in the row."""
    gaps = unverified_formats or {}
    groups: dict[str, list[HardwareRow]] = {}
    for record in index.all("accelerator"):
        tally = tallies[record.id]
        unverified = tuple(f for f in tally.native if f in gaps.get(record.id, ()))
        dense = _precisions(record, "dense")
        precision_of = {f: index.by_kind["format"][f].data.get("peak_precision") for f in tally.native}
        # a precision is marked only where every native format computing in it is a gap (one backed format clears it)
        precisions = {precision_of[f] for f in unverified} - {precision_of[f] for f in tally.native if f not in unverified}
        groups.setdefault(record.data["category"], []).append(HardwareRow(
            record.id, record.data["category"], _figures(record.data.get("memory_gb", [])),
            record.data.get("memory_type", ""), _figures(record.data.get("memory_bandwidth_gbs", [])),
            tally.native_count, tally.emulated_count, dense, _precisions(record, "sparse"),
            tally.listed, unverified, tuple(p for p in dense if p in precisions)))
    return [HardwareGroup(c, tuple(groups[c])) for c in sorted(groups, key=lambda c: rank(c, CATEGORY_ORDER))]


def accelerators_without_dense_peaks(index: Index) -> tuple[str, ...]:
    """Accelerators whose record has no dense peak-compute figure (no ratio or ridge can be derived)."""
    return tuple(r.id for r in index.all("accelerator") if not _precisions(r, "dense"))


def accumulate_dependent(index: Index) -> tuple[str, ...]:
    """Accelerators whose dense figures are stated per accumulate precision."""
    return tuple(r.id for r in index.all("accelerator")
                 if any(p["sparsity"] == "dense" and p.get("accumulate") for p in r.data.get("peak_compute", [])))


class _TrapLookup:
    """Which traps name an accelerator (and, if they bound an engine's releases, include the release read)."""

    def __init__(self, traps: list[Record], releases: dict[str, str]):
        self.ids = [t.id for t in traps]
        self.order = {trap_id: n for n, trap_id in enumerate(self.ids)}  # ids are unique (one record per id)
        self.by_accelerator: dict[str, list[int]] = {}
        self.scopes = {trap.id: trap_scope(trap) for trap in traps}
        for n, trap in enumerate(traps):
            scope = self.scopes[trap.id]
            if not in_releases(scope, scope.release_engine, releases.get(scope.release_engine, "")):
                continue
            for accelerator in scope.accelerators:
                self.by_accelerator.setdefault(accelerator, []).append(n)

    def __call__(self, accelerators: set[str], answered: frozenset[str] | set[str] = frozenset()) -> tuple[str, ...]:
        hits = {n for a in accelerators for n in self.by_accelerator.get(a, ())}
        hits.update(self.order[trap] for trap in answered if trap in self.order)
        return tuple(self.ids[n] for n in sorted(hits))

    def parts(self, found: tuple[str, ...], parts: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Of the traps `found`, those limited to some of `parts` (a target's members), with those parts, as an
        answer's `trap_parts` has them."""
        return tuple((trap, named) for trap in found if (named := parts_named(self.scopes[trap], parts)))


def target_selections(index: Index, answers: dict[tuple[str, str], Answer], tallies: dict[str, Tally],
                      traps: list[Record],
                      wholes: Mapping[tuple[str, str], WholeCheckpoint] | None = None) -> list[TargetSelection]:
    """For each target in order: schemes that run (with kernel and conditions), schemes refused, native formats, traps.

    A trap applies to a target when it applies to one of the target's answers (its whole scope matches, see
    `trap_scope`), or when it names one of the target's accelerators and, if it bounds an engine's releases, the
    release read is among them; traps keep the reading order of `traps` (silent first, then by severity). One that
    names some of the target's parts but not all is limited to those (`trap_parts`, as on the answers). An
    expert-layer scheme is served or refused as its whole checkpoint (`wholes`, whole_checkpoint.loads): one whose
    expert layers load beside other layers that do not is refused here. A served one carries its whole checkpoint,
    which the chapter shows beside its verdict.
    """
    wholes = wholes or {}
    schemes = {s.id: s for s in index.all("scheme")}
    cells = {key: answer.cell for key, answer in answers.items()}
    traps_for = _TrapLookup(traps, engine_releases(index))
    out = []
    for target in targets_in_order(index):
        accelerators = members(index, target)
        target_cells = [cells[(s, target.id)] for s in sorted(schemes) if (s, target.id) in cells]
        served = tuple(Served(c.scheme, c.engine, tuple(schemes[c.scheme].data.get("formats", [])), c.verdict,
                              c.kernel or "", c.conditions, c, answers[(c.scheme, target.id)].on_parts,
                              wholes.get((c.scheme, target.id)))
                       for c in target_cells if loads(c, wholes))
        refused = tuple(c for c in target_cells if not loads(c, wholes))
        native = tuple(sorted({f for a in accelerators if a in tallies for f in tallies[a].native}))
        stated = {f for a in accelerators if a in tallies for f in tallies[a].native if f not in tallies[a].encoding_unstated}
        answered = {t for c in target_cells for t in answers[(c.scheme, target.id)].traps}
        found = traps_for(set(accelerators), answered)
        out.append(TargetSelection(target.id, target.data["platform"], accelerators, native, served, refused,
                                   found, tuple(f for f in native if f not in stated),
                                   traps_for.parts(found, accelerators)))
    return out


@dataclass(frozen=True)
class UncoveredGroup:
    """The accelerators of one category that no hardware target lists."""

    category: str
    rows: tuple[UncoveredAccelerator, ...]


def uncovered_accelerators(index: Index, tallies: dict[str, Tally], traps: list[Record]) -> list[UncoveredGroup]:
    """Accelerators in no hardware target, grouped by category (schema order), with tallies and the traps naming them."""
    covered = {a for t in index.all("hardware-target") for a in members(index, t)}
    traps_for = _TrapLookup(traps, engine_releases(index))
    rows = [UncoveredAccelerator(r.id, r.data["category"], tallies[r.id].native, tallies[r.id].emulated,
                                 traps_for({r.id}))
            for r in index.all("accelerator") if r.id not in covered]
    groups: dict[str, list[UncoveredAccelerator]] = {}
    for row in rows:
        groups.setdefault(row.category, []).append(row)
    return [UncoveredGroup(c, tuple(groups[c])) for c in sorted(groups, key=lambda c: rank(c, CATEGORY_ORDER))]
