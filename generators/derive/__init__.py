"""Stage 4, derive: pure functions from linked records to the views pages are rendered from."""
from __future__ import annotations

from dataclasses import dataclass

from ..link import Index
from ..records import Record
from .cells import Cell, derive_cells
from .flops import Ratio, Ridge, derive_ratios, derive_ridges
from .gaps import Gaps, derive_gaps
from .published import PublishedCell, compare_matrices
from .tallies import Tally, derive_tallies, ranked_by_native
from .traps import ordered_traps, traps_by_regime
from .engines import (CellGrid, EngineSupport, cell_grids, engine_support, engines_without_format_support,
                      formats_without_engine)
from .selection import (HardwareGroup, TargetSelection, UncoveredGroup, accelerators_without_dense_peaks,
                        accumulate_dependent, hardware_groups, target_selections, uncovered_accelerators)


@dataclass
class Views:
    """Every computed view; templates read these and never count, filter or sort themselves."""

    tallies: dict[str, Tally]
    ranked_native: list[Tally]
    cells: dict[tuple[str, str], Cell]
    published: list[PublishedCell]
    traps: list[Record]
    traps_by_regime: dict[str, list[Record]]
    benchmarks_by_format: dict[str, list[str]]
    ratios: list[Ratio]
    ridges: list[Ridge]
    gaps: Gaps
    hardware_groups: list[HardwareGroup]
    without_dense_peaks: tuple[str, ...]
    accumulate_dependent: tuple[str, ...]
    target_selections: list[TargetSelection]
    uncovered_accelerators: list[UncoveredGroup]
    engine_support: list[EngineSupport]
    engines_without_format_support: tuple[str, ...]
    formats_without_engine: tuple[str, ...]
    cell_grids: list[CellGrid]


def derive_views(index: Index) -> Views:
    tallies = derive_tallies(index)
    cells = derive_cells(index)
    published = compare_matrices(index, cells)
    benchmarks: dict[str, list[str]] = {}
    for benchmark in index.all("benchmark"):
        benchmarks.setdefault(benchmark.data["format"], []).append(benchmark.id)
    traps = ordered_traps(index)
    return Views(
        tallies=tallies,
        ranked_native=ranked_by_native(tallies),
        cells=cells,
        published=published,
        traps=traps,
        traps_by_regime=traps_by_regime(index),
        benchmarks_by_format=benchmarks,
        ratios=derive_ratios(index),
        ridges=derive_ridges(index),
        gaps=derive_gaps(index, tallies, benchmarks, published),
        hardware_groups=hardware_groups(index, tallies),
        without_dense_peaks=accelerators_without_dense_peaks(index),
        accumulate_dependent=accumulate_dependent(index),
        target_selections=target_selections(index, cells, tallies, traps),
        uncovered_accelerators=uncovered_accelerators(index, tallies, traps),
        engine_support=engine_support(index),
        engines_without_format_support=engines_without_format_support(index),
        formats_without_engine=formats_without_engine(index),
        cell_grids=cell_grids(index, cells),
    )
