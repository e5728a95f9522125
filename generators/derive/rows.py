"""Record rows for chapter tables: the fields a chapter shows of each trap, benchmark, format and finding, typed.

Templates read these instead of a record's raw data, so a field a chapter shows is named once, here,
and an absent optional field is an empty value rather than a test inside the template.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from ..model.records import Record, settled


@dataclass(frozen=True)
class TrapDetail:
    """A gotcha as chapters show it: what happens, how to tell, what to do, and what it concerns."""

    id: str
    name: str
    summary: str
    severity: str
    effect: str
    silent: bool
    regime: str
    trigger: str
    symptom: str
    detection: str
    workaround: str
    messages: tuple[str, ...]
    formats: tuple[str, ...]
    accelerators: tuple[str, ...]
    engines: tuple[str, ...]
    kernels: tuple[str, ...]
    benchmarks: tuple[str, ...]


def trap_detail(record: Record) -> TrapDetail:
    data = record.data
    return TrapDetail(record.id, record.name, data.get("summary", ""), data["severity"], data["effect"], bool(data["silent"]),
                      data["regime"], data.get("trigger", ""), data.get("symptom", ""), data.get("detection", ""),
                      data.get("workaround", ""), tuple(data.get("messages", [])), *_refs(data, "formats", "accelerators",
                                                                                          "engines", "kernels", "benchmarks"))


def _refs(data: dict[str, Any], *fields: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(data.get(f, [])) for f in fields)


@dataclass(frozen=True)
class BenchmarkRow:
    """A benchmark's headline: model, metric, value with unit (None when only named), and its baseline."""

    id: str
    model: str
    metric: str
    value: float | None
    unit: str
    baseline_value: float | None
    baseline: str


def benchmark_rows(index: Index) -> list[BenchmarkRow]:
    rows = []
    for record in index.all("benchmark"):
        data, baseline = record.data, record.data.get("baseline") or {}
        rows.append(BenchmarkRow(record.id, data.get("model", ""), data.get("metric", ""), data.get("value"),
                                 data.get("unit", ""), baseline.get("value"), baseline.get("description", "")))
    return rows


@dataclass(frozen=True)
class BitsPerWeight:
    """One bits-per-weight figure of a format: the value, its basis and the model."""

    value: float
    basis: str
    model: str


@dataclass(frozen=True)
class FormatRow:
    """A format's family, regime, class, bits-per-weight figures and open contested fields (a settled one is no
    longer in dispute: the record states its upheld value)."""

    id: str
    format_class: str
    family: str
    regime: str
    bits_per_weight: tuple[BitsPerWeight, ...]
    contested: tuple[str, ...]


def format_rows(index: Index) -> list[FormatRow]:
    return [FormatRow(f.id, f.data.get("format_class", ""), f.data["family"], f.data["regime"],
                      tuple(BitsPerWeight(b["value"], b["basis"], b.get("model", "")) for b in f.data.get("bits_per_weight", [])),
                      tuple(c["field"] for c in f.data.get("contested", []) if not settled(c)))
            for f in index.all("format")]


def finding_verdicts(index: Index) -> list[tuple[str, int]]:
    """How many findings reached each verdict, most first (then by name): chapter 04 says the tally and leaves the
    list of every finding and the claim it checked to the findings index (as a table it outgrew Zensical's search
    index, 65,536 token positions per section, at 586 findings)."""
    counts = Counter(f.data["verdict"] for f in index.all("finding"))
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))
