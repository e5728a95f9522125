"""What a benchmark is compared with: the baseline values its record states, its own first, then its linked record's."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from ..model.index import Index


def baseline_values(index: Index, benchmark: dict[str, Any]) -> list[Any]:
    """The baseline's `value`, then the value of the benchmark record `baseline.benchmark` names (each once, numbers
    only; a dangling link is the link stage's error, and gives nothing here)."""
    baseline = benchmark.get("baseline") or {}
    linked = index.get("benchmark", baseline["benchmark"]) if "benchmark" in baseline else None
    found = [baseline.get("value"), linked.data.get("value") if linked is not None else None]
    return list(dict.fromkeys(v for v in found if isinstance(v, (int, float)) and not isinstance(v, bool)))


def as_decimal(value: object) -> Decimal | None:
    """A YAML number as the decimal it was written as (64.0 - 44.9 is 19.1, not 19.100000000000001); None otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return Decimal(repr(value))


def difference(index: Index, benchmark: dict[str, Any]) -> Decimal | None:
    """The benchmark's value minus its baseline, when it has a value and exactly one baseline value; else None."""
    value = as_decimal(benchmark.get("value"))
    bases = [b for b in map(as_decimal, baseline_values(index, benchmark)) if b is not None]
    return value - bases[0] if value is not None and len(set(bases)) == 1 else None
