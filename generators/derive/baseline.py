"""What a benchmark is compared with: the baseline values its record states, its own first, then its linked record's."""
from __future__ import annotations

from typing import Any

from ..model.index import Index


def baseline_values(index: Index, benchmark: dict[str, Any]) -> list[Any]:
    """The baseline's `value`, then the value of the benchmark record `baseline.benchmark` names (each once, numbers
    only; a dangling link is the link stage's error, and gives nothing here)."""
    baseline = benchmark.get("baseline") or {}
    linked = index.get("benchmark", baseline["benchmark"]) if "benchmark" in baseline else None
    found = [baseline.get("value"), linked.data.get("value") if linked is not None else None]
    return list(dict.fromkeys(v for v in found if isinstance(v, (int, float)) and not isinstance(v, bool)))
