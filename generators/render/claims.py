"""Claims: named predicates a chapter asserts next to the sentence they back.

Each takes the atlas and the claim's arguments and returns (holds, explanation). The
explanation says what the records show, so the build error tells the author what changed.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..derive.baseline import difference as baseline_difference

Result = tuple[bool, str]


def _native(atlas: Any, accelerator: str) -> tuple[str, ...]:
    tally = atlas.views.tallies.get(accelerator)
    return tally.native if tally else ()


def most_native(atlas: Any, accelerator: str) -> Result:
    """The accelerator has the most native formats of all (ties allowed)."""
    ranked = atlas.views.ranked_native
    top = ranked[0].native_count if ranked else 0
    mine = len(_native(atlas, accelerator))
    leaders = [t.accelerator for t in ranked if t.native_count == top]
    return mine == top and top > 0, f"{accelerator} has {mine} native formats; the most is {top} ({', '.join(leaders)})"


def native_rank(atlas: Any, accelerator: str, rank: int) -> Result:
    """The accelerator's native-format count is the rank-th largest distinct count (1 = largest)."""
    counts = sorted({t.native_count for t in atlas.views.ranked_native}, reverse=True)
    mine = len(_native(atlas, accelerator))
    actual = counts.index(mine) + 1 if mine in counts else 0
    return actual == rank, f"{accelerator} has {mine} native formats, rank {actual} among distinct counts {counts}"


def _parts_where(atlas: Any, fmt: str, which: str) -> list[str]:
    return sorted(a for a, t in atlas.views.tallies.items() if fmt in getattr(t, which))


def native_empty(atlas: Any, fmt: str) -> Result:
    """The format is native on no part (always so for checkpoint formats and categories)."""
    native = _parts_where(atlas, fmt, "native")
    return not native, f"{fmt} is derived native on {native}"


def in_native(atlas: Any, fmt: str, accelerator: str) -> Result:
    """The format is derived native on the accelerator (the part states a dense peak in its precision, or a matrix
    instruction of its hardware target takes that precision)."""
    native = _parts_where(atlas, fmt, "native")
    return accelerator in native, f"{fmt} is derived native on {native}"


def not_in_native(atlas: Any, fmt: str, accelerator: str) -> Result:
    """The format is not derived native on the accelerator."""
    holds, explanation = in_native(atlas, fmt, accelerator)
    return not holds, explanation


def in_emulated(atlas: Any, fmt: str, accelerator: str) -> Result:
    """The format is derived emulated on the accelerator (not native, but the part states a dense peak, or a matrix
    instruction of its hardware target takes, a precision the format is computed in instead)."""
    emulated = _parts_where(atlas, fmt, "emulated")
    return accelerator in emulated, f"{fmt} is derived emulated on {emulated}"


def unlisted(atlas: Any, accelerator: str) -> Result:
    """No hardware format is derived native or emulated on the accelerator: it states no dense peak, and no matrix
    instruction of its hardware target takes a format's precision."""
    tally = atlas.views.tallies.get(accelerator)
    listed = (tally.native + tally.emulated) if tally else ("(no record)",)
    return not listed, f"{accelerator} appears for {list(listed)}"


def verdict(atlas: Any, scheme: str, target: str, expected: str) -> Result:
    """The derived cell of scheme on target has this verdict (runs, runs-if, fallback, fails-at-runtime, refused)."""
    cell = atlas.views.cells.get((scheme, target))
    actual = cell.verdict.value if cell else "(no cell)"
    kernel = f" via {cell.kernel}" if cell and cell.kernel else ""
    return actual == expected, f"{scheme} on {target} derives {actual!r}{kernel}"


def accepted_by(atlas: Any, scheme: str, target: str, kernel: str) -> Result:
    """The derived cell of scheme on target is served by this kernel."""
    cell = atlas.views.cells.get((scheme, target))
    actual = cell.kernel if cell else None
    return actual == kernel, f"{scheme} on {target} is served by {actual!r}"


def difference(atlas: Any, first: str, second: str, margin: float, tolerance: float = 0.005) -> Result:
    """Benchmark `first` minus benchmark `second` equals margin (within tolerance)."""
    a, b = atlas.index.get("benchmark", first), atlas.index.get("benchmark", second)
    if a is None or b is None:
        return False, f"missing benchmark record {first if a is None else second!r}"
    if "value" not in a.data or "value" not in b.data:
        return False, f"{first if 'value' not in a.data else second} records no value"
    actual = round(a.data["value"] - b.data["value"], 6)
    return abs(actual - margin) <= tolerance, f"{first} - {second} = {actual}"


def below_baseline(atlas: Any, benchmark: str) -> Result:
    """The benchmark's value is below its baseline (it has a value and exactly one baseline value)."""
    record = atlas.index.get("benchmark", benchmark)
    apart = baseline_difference(atlas.index, record.data) if record else None
    if apart is None:
        return False, f"benchmark/{benchmark} has no value with exactly one baseline value"
    return apart < 0, f"benchmark/{benchmark} value minus baseline is {apart}"


def published_disagrees(atlas: Any, matrix: str, row: str, column: str) -> Result:
    """The published cell disagrees with the derived one."""
    for cell in atlas.views.published:
        if (cell.matrix, cell.row, cell.column) == (matrix, row, column):
            return not cell.agrees, f"published {cell.symbol!r} ({cell.published}), derived {cell.derived!r}"
    return False, f"{matrix} has no cell [{row!r}, {column!r}]"


def field_equals(atlas: Any, kind: str, record_id: str, field: str, expected: Any) -> Result:
    """A record's top-level field equals the expected value."""
    record = atlas.index.get(kind, record_id)
    actual = record.data.get(field) if record else "(no record)"
    return actual == expected, f"{kind}/{record_id} {field} is {actual!r}"


CLAIMS: dict[str, Callable[..., Result]] = {
    "most_native": most_native,
    "native_rank": native_rank,
    "native_empty": native_empty,
    "in_native": in_native,
    "not_in_native": not_in_native,
    "in_emulated": in_emulated,
    "unlisted": unlisted,
    "verdict": verdict,
    "accepted_by": accepted_by,
    "difference": difference,
    "below_baseline": below_baseline,
    "published_disagrees": published_disagrees,
    "field_equals": field_equals,
}


# --- appended for chapter 04 (quantization regimes) ---

def contested(atlas: Any, kind: str, record_id: str, field: str) -> Result:
    """The record carries a `contested:` entry for this field (the sources disagree on it)."""
    record = atlas.index.get(kind, record_id)
    fields = [entry.get("field") for entry in record.data.get("contested", [])] if record else ["(no record)"]
    return field in fields, f"{kind}/{record_id} contests {fields}"


def stated_differs(atlas: Any, accelerator: str, which: str) -> Result:
    """A source's stated native/emulated count for the accelerator differs from the count derived from its peaks and
    its target's matrix instructions."""
    tally = atlas.views.tallies.get(accelerator)
    if tally is None:
        return False, f"accelerator {accelerator!r} has no record"
    mismatches = [(s.count, s.derived) for s in tally.stated_mismatches() if s.which == which]
    return bool(mismatches), (f"{accelerator} {which}: stated vs records {mismatches}" if mismatches
                              else f"{accelerator} {which}: every stated count matches the records ({tally.stated})")


CLAIMS["contested"] = contested
CLAIMS["stated_differs"] = stated_differs
