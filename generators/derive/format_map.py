"""The format × hardware map: which formats each accelerator computes natively or emulates, grouped by vendor.

Rows are accelerators with at least one native or emulated format (vendors in a fixed reading
order, then by id); columns are the formats that are native or emulated somewhere, by id. The
status comes from the tallies view, so it follows however native support is derived. Pure; no I/O.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.index import Index
from .answers import Answer
from .tallies import Tally

VENDOR_ORDER = ("NVIDIA", "AMD", "Intel", "Apple", "Arm", "Google", "AWS")
NATIVE, EMULATED, NONE = "native", "emulated", "none"
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")


@dataclass(frozen=True)
class MapRow:
    accelerator: str
    vendor: str
    statuses: tuple[str, ...]  # one per column


@dataclass(frozen=True)
class MapColumn:
    format: str
    short: str


@dataclass(frozen=True)
class FormatRun:
    """A format served on a hardware target by an engine's scheme, through a kernel."""

    format: str
    scheme: str
    target: str
    kernel: str
    answer: Answer


@dataclass(frozen=True)
class FormatMap:
    columns: tuple[MapColumn, ...]
    groups: tuple[tuple[str, tuple[MapRow, ...]], ...]
    unlisted: tuple[str, ...]  # accelerators with nothing recorded
    runs: tuple[FormatRun, ...]


def short_name(name: str) -> str:
    return _PARENTHETICAL.sub("", name) or name


def vendor_rank(vendor: str) -> tuple[int, str]:
    return (VENDOR_ORDER.index(vendor) if vendor in VENDOR_ORDER else len(VENDOR_ORDER), vendor)


def format_map(index: Index, tallies: dict[str, Tally], answers: dict[tuple[str, str], Answer]) -> FormatMap:
    used = sorted({f for t in tallies.values() for f in t.native + t.emulated})
    columns = tuple(MapColumn(f, short_name(index.must("format", f).name)) for f in used)
    groups: dict[str, list[MapRow]] = {}
    unlisted = []
    for record in sorted(index.all("accelerator"), key=lambda r: (vendor_rank(str(r.data.get("vendor", ""))), r.id)):
        tally = tallies[record.id]
        if not tally.listed:
            unlisted.append(record.id)
            continue
        statuses = tuple(NATIVE if f in tally.native else EMULATED if f in tally.emulated else NONE for f in used)
        vendor = str(record.data.get("vendor", ""))
        groups.setdefault(vendor, []).append(MapRow(record.id, vendor, statuses))
    return FormatMap(columns, tuple((v, tuple(rows)) for v, rows in groups.items()), tuple(unlisted),
                     _runs(index, answers))


def _runs(index: Index, answers: dict[tuple[str, str], Answer]) -> tuple[FormatRun, ...]:
    order = {t.id: n for n, t in enumerate(sorted(index.all("hardware-target"), key=lambda t: (t.data["order"], t.id)))}
    runs = [FormatRun(f, s.id, target, a.cell.kernel or "", a)
            for s in index.all("scheme") for f in s.data.get("formats", [])
            for (scheme, target), a in answers.items() if scheme == s.id and a.cell.verdict.loads]
    return tuple(sorted(runs, key=lambda r: (r.format, order.get(r.target, 0), r.scheme)))
