"""The trap index as a sortable, filterable HTML table: severity, silent, regime, formats and engines per trap.

Rows are in reading order (silent first, then by severity); every cell carries the values a
filter matches (`data-values`, `|`-separated ids) and a sort key (`data-sort`). The script
docs/javascripts/table-filter.js adds the controls; without it the table still reads in order.
"""
from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..derive.traps import SEVERITY_ORDER
from ..kinds import FOLDER_OF_KIND
from .contests import contest_mark, open_contests
from .labels import label
from .markdown import fill, joined
from .matrix import _Html, href

FILTERS = ("severity", "silent", "format", "engine")


def trap_table_html(atlas: Any, page: str, names: dict[str, str]) -> Markup:
    html = _Html(names, page)
    rows = []
    for n, trap in enumerate(atlas.views.traps):
        data = trap.data
        silent = "silent" if data["silent"] else "reported"
        formats = data.get("formats", [])
        engines = data.get("engines", [])
        regime = label(data["regime"])
        rows.append(fill(
            '<tr><td data-sort="{}">{}</td>'
            '<td data-values="{}" data-sort="{}"><span class="atlas-severity atlas-severity--{}">{}</span></td>'
            '<td data-values="{}">{}</td><td data-values="{}" data-label="Regime">{}</td>'
            '<td data-values="{}" data-sort="{}" data-label="Formats">{}</td>'
            '<td data-values="{}" data-sort="{}" data-label="Engines">{}</td></tr>',
            f"{n:04d}", html.ref(trap.ref) + _contested(trap.id, data, page), data["severity"], SEVERITY_ORDER[data["severity"]], data["severity"], data["severity"],
            silent, Markup('<span class="atlas-silent">silent</span>') if data["silent"] else "no", regime, regime,
            "|".join(names.get(f"format/{f}", f) for f in formats), names.get(f"format/{formats[0]}", formats[0]) if formats else "~",
            joined(", ", [html.ref(f"format/{f}") for f in formats]),
            "|".join(names.get(f"engine/{e}", e) for e in engines), names.get(f"engine/{engines[0]}", engines[0]) if engines else "~",
            joined(", ", [html.ref(f"engine/{e}") for e in engines])))
    heads = Markup(
        '<tr><th scope="col" data-sortable>Trap (reading order)</th><th scope="col" data-sortable data-filter="severity">Severity</th>'
        '<th scope="col" data-sortable data-filter="silent">Silent</th><th scope="col" data-sortable data-filter="regime">Regime</th>'
        '<th scope="col" data-sortable data-filter="format">Formats</th><th scope="col" data-sortable data-filter="engine">Engines</th></tr>')
    return fill('<div class="atlas-table-tools" data-for="atlas-traps"></div><table class="atlas-sortable" id="atlas-traps">'
                '<thead>{}</thead><tbody>{}</tbody></table>', heads, joined("", rows))


def _contested(trap: str, data: dict[str, Any], page: str) -> Markup:
    """The contest mark after a trap with an open contest (its claim is not asserted), as an answer lists it."""
    found = open_contests(data)
    return contest_mark(href(f"{FOLDER_OF_KIND['gotcha']}/{trap}.md", page), found[0]["anchor"]) if found else Markup("")
