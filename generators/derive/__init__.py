"""Stage 4, derive: pure functions from linked records to the views pages are rendered from.

`Views` is the one road from records to pages: each view is computed the first time something reads
it and then kept, so a page (or a test, or the mutation sweep) that reads three views pays for three.
"""
from __future__ import annotations

from functools import cached_property

from ..model.index import Index
from ..model.records import Record
from .answers import Answer, derive_answers
from .candidate_lists import ListReference, list_references
from .cells import Cell, derive_cells
from .entries import Each, every_entry
from .kernel_uses import KernelUse, kernel_uses
from .order import targets_in_order
from .observed import known_by_run
from .printed import as_printed, printed_lines
from .engines import (CellGrid, EngineSupport, cell_grids, engine_support, engines_without_format_support,
                      formats_without_engine)
from .flops import Ratio, Ridge, derive_ratios, derive_ridges
from .format_map import format_map, unverified_formats
from .gaps import Gaps, derive_gaps
from .provenance import unverified_list, unverified_records
from .history import CellHistory, Flip, all_flips, cell_histories
from .published import PublishedCell, compare_matrices, models_release
from .published_grid import PublishedGrid, published_grids
from .published_history import DisagreementSpan, ReleaseClaim, disagreement_spans, explaining_findings, release_claims
from .selection import (HardwareGroup, TargetSelection, UncoveredGroup, accelerators_without_dense_peaks,
                        accumulate_dependent, hardware_groups, target_selections, uncovered_accelerators)
from .tallies import FormatParts, Tally, derive_tallies, most_native, parts_by_format, ranked_by_native
from .search_terms import SearchTerms, search_terms_by_record
from .engine_traps import EngineTraps, traps_by_engine
from .rows import BenchmarkRow, FormatRow, TrapDetail, benchmark_rows, finding_verdicts, format_rows
from .traps import ordered_traps, trap_details, traps_by_regime
from .terms import TermLink, quoted_stretches, term_links
from .whole_checkpoint import WholeCheckpoint, whole_checkpoints


class Views:
    """Every computed view of one index; templates read these and never count, filter or sort themselves."""

    # how a view computed entry by entry computes them (entries.py): all of them; a long-lived process's views reuse
    # the entries whose inputs did not change (reuse.py)
    each: Each = staticmethod(every_entry)
    # whether each cell's derivation is kept for the next tree this process derives (cells._kept_cell): not where a
    # process derives one tree (`check`)
    keep: bool = True

    def __init__(self, index: Index, keep: bool = True):
        self.index = index
        if not keep:  # (set only then: an instance's own attributes are its index and its computed views)
            self.keep = False

    @cached_property
    def tallies(self) -> dict[str, Tally]:
        """Native and emulated formats per accelerator."""
        return derive_tallies(self.index)

    @cached_property
    def parts_by_format(self) -> dict[str, FormatParts]:
        """Per format, the accelerators it is derived native and emulated on."""
        return parts_by_format(self.index, self.tallies)

    @cached_property
    def unverified_formats(self) -> dict[str, tuple[str, ...]]:
        """Per accelerator, its derived native or emulated formats every figure and instruction of which is unverified
        (the format map's gaps; parts with none left out)."""
        return unverified_formats(format_map(self.index, self.tallies, {}))

    @cached_property
    def most_native(self) -> tuple[str, ...]:
        """The accelerators with the most derived native hardware formats."""
        return most_native(self.tallies)

    @cached_property
    def ranked_native(self) -> list[Tally]:
        """Accelerators by native-format count, most first."""
        return ranked_by_native(self.tallies)

    @cached_property
    def cells(self) -> dict[tuple[str, str], Cell]:
        """Every (scheme, hardware target) support cell derived from the dispatch rules; a message the records cannot
        fill reads as the observation of the modelled release printed it (`printed`), and a cell that observation
        agrees with is known by that run (`observed`)."""
        lines = printed_lines(self.index)
        printed = {key: as_printed(cell, lines.get(key, ())) for key, cell in derive_cells(self.index, self.keep).items()}
        return known_by_run(self.index, printed)

    @cached_property
    def published(self) -> list[PublishedCell]:
        """Every published support-matrix cell beside the derived cells it claims."""
        return compare_matrices(self.index, self.cells)

    @cached_property
    def published_grids(self) -> dict[str, PublishedGrid]:
        """Every published table cell by cell: symbol, publisher's verdict, agreement, derived verdicts, explaining finding,
        and the listed releases whose own selection code disagreed."""
        return published_grids(self.index, self.published, self.release_claims)

    @cached_property
    def derived_matrices(self) -> tuple[str, ...]:
        """Support matrices compared with the derived cells (no releases listed, or the one the records model)."""
        return tuple(m.id for m in self.index.all("support-matrix") if models_release(self.index, m.data))

    @cached_property
    def expert_layer_schemes(self) -> tuple[str, ...]:
        """Schemes that quantize only a mixture-of-experts model's expert layers (`layers: experts`), so their cells
        describe those layers rather than the dense ones every other cell describes; by id."""
        return tuple(s.id for s in self.index.all("scheme") if s.data.get("layers") == "experts")

    @cached_property
    def whole_checkpoints(self) -> dict[tuple[str, str], WholeCheckpoint]:
        """Per cell of an expert-layer scheme whose record names its checkpoint's other layers' scheme: that scheme's
        verdict on the same target and the worse of the two, the whole checkpoint's."""
        return whole_checkpoints(self.index, self.cells)

    @cached_property
    def history(self) -> dict[tuple[str, str], CellHistory]:
        """Every observed (scheme, target) cell's outcome per engine release (newest harness) and its flips."""
        return cell_histories(self.index)

    @cached_property
    def flips(self) -> list[Flip]:
        """Every observed cell flip between consecutive releases, newest release first."""
        return all_flips(self.history)

    @cached_property
    def release_claims(self) -> list[ReleaseClaim]:
        """Every mapped cell of each release-scoped published table, per release, beside that release's observation."""
        return release_claims(self.index, self.cells)

    @cached_property
    def disagreement_spans(self) -> list[DisagreementSpan]:
        """Per published cell that disagreed with the engine: first release disagreeing, last checked, counts."""
        return disagreement_spans(self.release_claims, explaining_findings(self.index))

    @cached_property
    def answers(self) -> dict[tuple[str, str], Answer]:
        """Every cell with its published claims, the traps that apply and the sources behind it."""
        return derive_answers(self.index, self.cells, self.published, self.traps, self.tallies, self.each)

    @cached_property
    def answers_by_scheme(self) -> dict[str, list[Answer]]:
        """The answers grouped by scheme id, each group in target id order (the order of `answers`)."""
        grouped: dict[str, list[Answer]] = {}
        for (scheme, _), answer in self.answers.items():
            grouped.setdefault(scheme, []).append(answer)
        return grouped

    @cached_property
    def cells_by_target(self) -> dict[str, list[Cell]]:
        """The cells grouped by hardware target id, each group in scheme id order."""
        grouped: dict[str, list[Cell]] = {}
        for (_, target), cell in sorted(self.cells.items()):
            grouped.setdefault(target, []).append(cell)
        return grouped

    @cached_property
    def kernel_uses(self) -> dict[str, list[KernelUse]]:
        """Per kernel id, the cells the engine selects it for, by scheme (id order) and role, targets in column order."""
        column = {target.id: n for n, target in enumerate(targets_in_order(self.index))}
        return kernel_uses(sorted(self.cells.values(), key=lambda c: (c.scheme, column.get(c.target, len(column)))))

    @cached_property
    def list_references(self) -> dict[str, tuple[ListReference, ...]]:
        """Per record ref, the schemes that reach it through a named candidate list they walk (the engine's record holds
        the reference): what a record page's "Referenced by" and an API record's backlinks add to the index's."""
        return list_references(self.index)

    @cached_property
    def traps_by_format(self) -> dict[str, list[Record]]:
        """The gotchas naming each format id, in reading order (that of `traps`)."""
        grouped: dict[str, list[Record]] = {}
        for trap in self.traps:
            for format_id in dict.fromkeys(trap.data.get("formats", [])):
                grouped.setdefault(format_id, []).append(trap)
        return grouped

    @cached_property
    def traps_by_engine(self) -> dict[str, EngineTraps]:
        """Per engine id: its engine-wide traps (no narrower scope, so on no answer) and the others naming it."""
        return traps_by_engine(self.index, self.traps)

    @cached_property
    def traps(self) -> list[Record]:
        """Every gotcha in reading order: silent corruption first, then by severity."""
        return ordered_traps(self.index)

    @cached_property
    def trap_details(self) -> list[TrapDetail]:
        """Every gotcha's fields as chapters show them, in reading order."""
        return trap_details(self.index)

    @cached_property
    def benchmark_rows(self) -> list[BenchmarkRow]:
        """Every benchmark's headline figure and baseline."""
        return benchmark_rows(self.index)

    @cached_property
    def format_rows(self) -> list[FormatRow]:
        """Every format's class, family, regime, bits-per-weight figures and contested fields."""
        return format_rows(self.index)

    @cached_property
    def finding_verdicts(self) -> list[tuple[str, int]]:
        """How many findings reached each verdict, most first."""
        return finding_verdicts(self.index)

    @cached_property
    def traps_by_regime(self) -> dict[str, list[TrapDetail]]:
        """Gotchas grouped by the quantization regime they poison."""
        return traps_by_regime(self.index)

    @cached_property
    def benchmarks_by_format(self) -> dict[str, list[str]]:
        """Benchmark ids per format id."""
        benchmarks: dict[str, list[str]] = {}
        for benchmark in self.index.all("benchmark"):
            benchmarks.setdefault(benchmark.data["format"], []).append(benchmark.id)
        return benchmarks

    @cached_property
    def ratios(self) -> list[Ratio]:
        """FLOP-per-byte ratios per accelerator and precision."""
        return derive_ratios(self.index)

    @cached_property
    def ridges(self) -> list[Ridge]:
        """Ridge points: peak compute over memory bandwidth, from the same source and accumulate."""
        return derive_ridges(self.index)

    @cached_property
    def gaps(self) -> Gaps:
        """What the records cannot answer."""
        return derive_gaps(self.index, self.tallies, self.benchmarks_by_format, self.published,
                           unverified_list(self.index, self.unverified))

    @cached_property
    def term_links(self) -> tuple[TermLink, ...]:
        """The glossary's spellings, each with the record that defines it, longest first (pages link each once)."""
        return term_links(self.index)

    @cached_property
    def quoted_stretches(self) -> tuple[str, ...]:
        """The records' verbatim text (engine messages, quotes) that holds a glossary spelling: never linked inside."""
        return quoted_stretches(self.index, self.term_links)

    @cached_property
    def unverified(self) -> dict[str, str]:
        """Each record no primary source backs, by ref, with its reason: what a link to it is marked with. Its own
        view (not the gaps', which lists the same records), so a page that marks links reads only this."""
        return {u.record: u.reason for u in unverified_records(self.index)}

    @cached_property
    def hardware_groups(self) -> list[HardwareGroup]:
        """Accelerators grouped by category for hardware selection."""
        return hardware_groups(self.index, self.tallies, self.unverified_formats)

    @cached_property
    def without_dense_peaks(self) -> tuple[str, ...]:
        """Accelerators with no dense peak-compute figure."""
        return accelerators_without_dense_peaks(self.index)

    @cached_property
    def accumulate_dependent(self) -> tuple[str, ...]:
        """Accelerators whose peak depends on the accumulate precision."""
        return accumulate_dependent(self.index)

    @cached_property
    def target_selections(self) -> list[TargetSelection]:
        """Per hardware target: what runs, what is refused, native formats, the traps that apply."""
        return target_selections(self.index, self.answers, self.tallies, self.traps, self.whole_checkpoints)

    @cached_property
    def uncovered_accelerators(self) -> list[UncoveredGroup]:
        """Accelerators in no hardware target, grouped by category."""
        return uncovered_accelerators(self.index, self.tallies, self.traps)

    @cached_property
    def engine_support(self) -> list[EngineSupport]:
        """What each engine record says it supports, per format."""
        return engine_support(self.index)

    @cached_property
    def engines_without_format_support(self) -> tuple[str, ...]:
        """Engines that state no format support."""
        return engines_without_format_support(self.index)

    @cached_property
    def formats_without_engine(self) -> tuple[str, ...]:
        """Formats no engine record names."""
        return formats_without_engine(self.index)

    @cached_property
    def search_terms(self) -> dict[str, SearchTerms]:
        """Per format, kernel, engine, target and term record (by ref): the names that find its page first, and their marker tags."""
        return search_terms_by_record(self.index)

    @cached_property
    def cell_grids(self) -> list[CellGrid]:
        """Derived cells arranged as one grid per engine."""
        return cell_grids(self.index, self.cells)


VIEW_NAMES: tuple[str, ...] = tuple(name for name, value in vars(Views).items() if isinstance(value, cached_property))
# Read by record pages alone (their search tags): computed when those render (the site, `check --all-pages`), so a
# plain `check`, which renders the chapters only, does not pay for them (search_terms: a third of a second at 10k), nor
# for the search-ranking check that reads them (a `pages` check, run where record pages render: checks/base.py).
PAGE_VIEWS = ("search_terms",)
CHECKED_VIEWS = tuple(name for name in VIEW_NAMES if name not in PAGE_VIEWS)
# Views that regroup one other view and read nothing else (a test records their reads): the page memo fingerprints
# such a view by the one it regroups (render/memo.py) rather than serialising the same objects a second time.
REGROUPED = {"answers_by_scheme": "answers", "cells_by_target": "cells"}


def derive_views(index: Index, keep: bool = True) -> Views:
    """The views of an index, computed lazily on first read; `keep=False` where no other tree follows (cells)."""
    return Views(index, keep)


def compute_all(views: Views, names: tuple[str, ...] = VIEW_NAMES) -> list[tuple[str, Exception]]:
    """Compute every view (or those named) now; a view that raises is returned with its error and the others still
    compute."""
    failures = []
    for name in names:
        try:
            getattr(views, name)
        except Exception as error:  # a broken view must not hide the others, nor crash the build
            failures.append((name, error))
    return failures
