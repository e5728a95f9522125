"""What the records cannot answer, computed: every gap the site must show rather than hide."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.index import DeclaredGap, Index
from ..model.records import settled
from .members import members
from .provenance import Unverified, unverified_records
from .published import PublishedCell
from .tallies import Tally


@dataclass(frozen=True)
class Contest:
    """A record's contested field: how many claims it has, the resolution and the value it upholds (None when open)."""

    record: str
    field: str
    claims: int
    resolution: str
    upheld: Any = None


@dataclass(frozen=True)
class Gaps:
    """What the records leave missing, unstated or contested, as the gaps page lists it."""

    formats_without_benchmarks: tuple[str, ...]
    unlisted_accelerators: tuple[str, ...]
    contested: tuple[Contest, ...]  # open: no finding settles them
    declared: tuple[DeclaredGap, ...]
    stated_mismatches: tuple[tuple[str, str, int, int, str], ...]
    underived_published: tuple[PublishedCell, ...]
    targets_without_accelerators: tuple[str, ...]
    benchmarks_without_value: tuple[str, ...] = ()
    unverified: tuple[Unverified, ...] = ()
    encoding_unstated: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (part, its native formats of unnamed encoding)
    settled: tuple[Contest, ...] = ()  # contests a finding settled, each with the value it upholds


def derive_gaps(index: Index, tallies: dict[str, Tally], benchmarks_by_format: dict[str, list[str]],
                published: list[PublishedCell], unverified: tuple[Unverified, ...] | None = None) -> Gaps:
    contests = [_contest(record.ref, entry) for kind in sorted(index.by_kind) for record in index.all(kind)
                for entry in record.data.get("contested", [])]
    mismatches = tuple(
        (tally.accelerator, s.which, s.count, s.derived, s.source)
        for tally in tallies.values() for s in tally.stated_mismatches()
    )
    return Gaps(
        formats_without_benchmarks=tuple(f.id for f in index.all("format") if f.data["family"] != "category"
                                         and not any("value" in index.by_kind["benchmark"][b].data
                                                     for b in benchmarks_by_format.get(f.id, []))),
        unlisted_accelerators=tuple(t.accelerator for t in tallies.values() if not t.listed),
        contested=tuple(c for c in contests if not c.resolution),
        settled=tuple(c for c in contests if c.resolution),
        declared=tuple(sorted(index.gaps, key=lambda g: (g.record, g.path))),
        stated_mismatches=tuple(sorted(mismatches)),
        underived_published=tuple(p for p in published if not p.comparable),
        targets_without_accelerators=tuple(t.id for t in index.all("hardware-target") if not members(index, t)),
        benchmarks_without_value=tuple(b.id for b in index.all("benchmark") if "value" not in b.data),
        unverified=unverified_records(index) if unverified is None else unverified,
        encoding_unstated=tuple((t.accelerator, t.encoding_unstated) for t in tallies.values() if t.encoding_unstated),
    )


def _contest(ref: str, entry: dict[str, Any]) -> Contest:
    """A contest as the gaps page lists it; a resolved one carries its upheld claim's value (schema: both or neither)."""
    upheld = entry["claims"][entry["upheld"]]["value"] if settled(entry) else None
    return Contest(ref, entry["field"], len(entry["claims"]), entry.get("resolution", ""), upheld)
