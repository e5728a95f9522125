"""The format × hardware map as HTML: accelerators (rows, by vendor) × formats (columns), and where each format runs."""
from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..derive.format_map import FormatMap, format_map
from .matrix import _Html, verdict_badge

MARK = {"native": "N", "emulated": "E", "none": ""}


def format_map_html(atlas: Any, page: str, names: dict[str, str]) -> Markup:
    answers = atlas.views.answers
    view = format_map(atlas.index, atlas.views.tallies, answers)
    html = _Html(names, page)
    return Markup("\n").join([_grid(view, html), _unlisted(view, html), _runs(view, html)])


def _grid(view: FormatMap, html: _Html) -> Markup:
    heads = Markup("").join(Markup('<th scope="col" class="atlas-map__format" title="{}">{}</th>').format(
        html.names.get(f"format/{c.format}", c.format), html.ref(f"format/{c.format}", c.short)) for c in view.columns)
    body = []
    for vendor, rows in view.groups:
        body.append(Markup('<tr class="atlas-map__vendor"><th scope="rowgroup" colspan="{}">{}</th></tr>').format(
            len(view.columns) + 1, vendor))
        for row in rows:
            name = html.names.get(f"accelerator/{row.accelerator}", row.accelerator)
            cells = Markup("").join(
                Markup('<td class="atlas-map__cell atlas-map__cell--{}" title="{} on {}: {}">{}</td>').format(
                    status, html.names.get(f"format/{c.format}", c.format), name, status, MARK[status])
                for c, status in zip(view.columns, row.statuses))
            body.append(Markup('<tr><th scope="row">{}</th>{}</tr>').format(html.ref(f"accelerator/{row.accelerator}"), cells))
    legend = Markup('<p class="atlas-map__legend"><span class="atlas-map__cell--native">N</span> native: the matrix '
                    'engines compute in the format · <span class="atlas-map__cell--emulated">E</span> emulated: runs, '
                    'converted to another precision · blank: nothing recorded. Hover a cell for its format and part; '
                    'the format\'s page cites the sources.</p>')
    return Markup('{}<div class="atlas-grid__scroll" role="region" aria-label="Format by hardware map" tabindex="0">'
                  '<table class="atlas-grid atlas-map"><thead><tr><th scope="col" class="atlas-grid__corner">Accelerator</th>'
                  '{}</tr></thead><tbody>{}</tbody></table></div>').format(legend, heads, Markup("").join(body))


def _unlisted(view: FormatMap, html: _Html) -> Markup:
    if not view.unlisted:
        return Markup("")
    return Markup('<p class="atlas-map__unlisted">No format record lists these parts yet: {}.</p>').format(
        Markup(", ").join(html.ref(f"accelerator/{a}") for a in view.unlisted))


def _runs(view: FormatMap, html: _Html) -> Markup:
    by_format: dict[str, list[Markup]] = {}
    for run in view.runs:
        kernel = html.ref(f"kernel/{run.kernel}") if run.kernel else Markup("")
        by_format.setdefault(run.format, []).append(Markup("<li>{} {} via {} <small>({})</small></li>").format(
            verdict_badge(run.answer.cell.verdict, short=True), html.ref(f"hardware-target/{run.target}"), kernel,
            html.ref(f"scheme/{run.scheme}")))
    items = Markup("").join(Markup('<li id="runs-{}"><b>{}</b><ul>{}</ul></li>').format(
        f, html.ref(f"format/{f}"), Markup("").join(lines)) for f, lines in by_format.items())
    return Markup('<h2 id="where-each-checkpoint-format-runs">Where each checkpoint format runs</h2>'
                  '<ul class="atlas-runs">{}</ul>').format(items)
