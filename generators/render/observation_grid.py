"""An observation record's cells as the support grid shows derived ones: schemes × hardware targets, coloured by the
verdict the engine's own selection code gave, with a mark where the records derive another verdict.

The raw runs (worlds, variants, messages) stay in the record file and its data-API document; the page leads with
what a reader compares. Record text is escaped with markupsafe.
"""
from __future__ import annotations

import functools
from typing import Any

from markupsafe import Markup

from ..derive.matrix import by_vendor, column_of, row_label
from ..derive.order import targets_in_order
from ..model.records import Record
from ..model.verdicts import VERDICT_MEANINGS, Verdict
from .markdown import fill, joined
from .matrix import COMPACT_LABEL, SHORT_LABEL, _Html, grid_head, grid_table

MARK_DIFFERS = "≠"


def observation_grid_html(atlas: Any, record: Record, page: str, names: dict[str, str]) -> Markup:
    """The observed verdict of every cell, grouped like the support tables; empty when the record observes no cells."""
    observed = {(c["scheme"], c["target"]): c for c in record.data.get("cells", [])}
    if not observed:
        return Markup("")
    html = _Html(names, page)
    seen = {t for _, t in observed}
    columns = by_vendor([column_of(t, atlas.index) for t in targets_in_order(atlas.index) if t.id in seen])
    engine = atlas.index.get("engine", str(record.data.get("engine", "")))
    engine_name = engine.name if engine else ""
    observed_schemes = {scheme for scheme, _ in observed}  # (a set: each scheme was searched for in every cell)
    schemes = [s for s in atlas.index.all("scheme") if s.id in observed_schemes]
    rows = joined("", [fill('<tr><th scope="row" title="{}">{}</th>{}</tr>',
        s.name, html.ref(f"scheme/{s.id}", row_label(s, engine_name)),
        joined("", [_cell(observed.get((s.id, c.target)), atlas.views.cells.get((s.id, c.target)), c.compact)
                        for c in columns])) for s in schemes])
    legend = fill('<p class="atlas-map__legend">Each cell is the verdict the engine\'s own selection code gave at this '
                  'release (hover for the kernel); <span class="atlas-mark">{}</span> marks a cell where the records '
                  'derive another verdict for the release they model. Every run behind a cell (worlds, variants, '
                  'messages) is in the record file.</p>', MARK_DIFFERS)
    return fill('{}<div class="atlas-grid__scroll atlas-observed" role="region" aria-label="Observed cells" tabindex="0">'
                '{}{}<tbody>{}</tbody></table></div>', legend, grid_table(columns), grid_head(columns, page), rows)


def _cell(observed: dict[str, Any] | None, derived: Any, compact: bool) -> Markup:
    if observed is None:
        return Markup('<td class="atlas-grid__cell" title="not observed">–</td>')
    kernel = str(observed["kernel"]) if observed.get("kernel") else None
    return _observed_cell(Verdict(observed["verdict"]), kernel, derived.verdict if derived is not None else None, compact)


@functools.lru_cache(maxsize=4096)
def _observed_cell(verdict: Verdict, kernel: str | None, derived: Verdict | None, compact: bool) -> Markup:
    """One observed cell: a pure function of what it shows, kept (an observation repeats a few cells over every target)."""
    hover = verdict.label + (f" via {kernel}" if kernel is not None else "") + f": {VERDICT_MEANINGS[verdict]}"
    mark = Markup("")
    if derived is not None and derived != verdict:
        hover += f"; the records derive {derived.label}"
        mark = fill('<span class="atlas-mark" title="the records derive {}">{}</span>', derived.label, MARK_DIFFERS)
    label = COMPACT_LABEL[verdict] if compact else SHORT_LABEL.get(verdict, verdict.label)
    return fill('<td class="atlas-grid__cell verdict-{}{}" title="{}">{}{}</td>',
        verdict.value, " atlas-grid__compact" if compact else "", hover, label, mark)
