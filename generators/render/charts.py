"""Charts as inline SVG, drawn from derived views: deterministic text, no plotting library, no scripts.

A chart shows the same numbers as the table beside it; where sources disagree it draws every value
(a dot per source pairing on one line), so a picture never hides a disagreement.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

from markupsafe import Markup, escape

from ..derive.flops import Ridge

ROW, LABEL, WIDTH, PAD = 22, 340, 840, 24


def ridge_chart(ridges: Iterable[Ridge], names: dict[str, str], precision: str) -> Markup:
    """Horizontal log-scale chart of dense FLOP-per-byte ridge points for one precision, one row per part."""
    by_part: dict[str, list[float]] = {}
    for ridge in ridges:
        if ridge.precision == precision and ridge.flop_per_byte > 0:  # a log scale has no place for 0
            by_part.setdefault(ridge.accelerator, []).append(ridge.flop_per_byte)
    if not by_part:
        return Markup("")
    rows = sorted(by_part.items(), key=lambda item: (-max(item[1]), item[0]))
    low = 10 ** math.floor(math.log10(min(v for _, vs in rows for v in vs)))
    high = max(10 ** math.ceil(math.log10(max(v for _, vs in rows for v in vs))), low * 10)  # never a zero-width axis
    plot = WIDTH - LABEL - 2 * PAD

    def x(value: float) -> float:
        return LABEL + PAD + plot * (math.log10(value) - math.log10(low)) / (math.log10(high) - math.log10(low))

    height = ROW * (len(rows) + 2)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" role="img" '
             f'aria-label="Dense {escape(precision)} ridge points in FLOP per byte" font-size="12" font-family="sans-serif">']
    decade = low
    while decade <= high:
        parts.append(f'<line x1="{x(decade):.1f}" y1="0" x2="{x(decade):.1f}" y2="{height - ROW}" stroke="#ccc"/>'
                     f'<text x="{x(decade):.1f}" y="{height - 6}" text-anchor="middle" fill="#555">{decade:g}</text>')
        decade *= 10
    for n, (part, values) in enumerate(rows):
        y = ROW * (n + 1)
        parts.append(f'<text x="{LABEL}" y="{y + 4}" text-anchor="end">{escape(names.get(f"accelerator/{part}", part))}</text>')
        parts.append(f'<line x1="{x(min(values)):.1f}" y1="{y}" x2="{x(max(values)):.1f}" y2="{y}" stroke="#3f51b5" stroke-width="3"/>')
        for value in sorted(set(values)):
            parts.append(f'<circle cx="{x(value):.1f}" cy="{y}" r="4" fill="#3f51b5"><title>{value:g} FLOP/byte</title></circle>')
    parts.append("</svg>")
    return Markup("".join(parts))
