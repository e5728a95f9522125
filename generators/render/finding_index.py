"""The findings index as a sortable, filterable HTML table, newest first: what was checked, when, and what came of it.

A finding is the record of a claim checked against its sources (a seed's cell, a record's figure, an earlier audit),
dated by `verified_on`. Listed newest first with its verdict (confirmed, corrected, refuted...) and the records it
concerns, the index answers "what was checked or corrected this week" from the data alone (no git history). The
script docs/javascripts/table-filter.js adds the controls (sort by any column, filter by verdict); without it the
table still reads newest first.
"""
from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..diff_model import plural
from .labels import label
from .markdown import escape_text, fill, joined
from .matrix import _Html

CONCERNS_SHOWN = 4  # a finding about a whole audit names dozens of records: the first few, then how many more


def findings_newest_first(atlas: Any) -> list[Any]:
    """Every finding, newest `verified_on` first, then by id (the same inputs give the same order)."""
    by_id = sorted(atlas.index.all("finding"), key=lambda r: r.id)
    return sorted(by_id, key=lambda r: str(r.data.get("verified_on", "")), reverse=True)


def finding_table_html(atlas: Any, page: str, names: dict[str, str]) -> Markup:
    html = _Html(names, page)
    rows = [_row(finding, html) for finding in findings_newest_first(atlas)]
    heads = Markup('<tr><th scope="col" data-sortable>Checked on</th>'
                   '<th scope="col" data-sortable data-filter="verdict">Verdict</th>'
                   '<th scope="col" data-sortable>Finding</th><th scope="col">Concerns</th></tr>')
    return fill('<div class="atlas-table-tools" data-for="atlas-findings"></div>'
                '<table class="atlas-sortable" id="atlas-findings"><thead>{}</thead><tbody>{}</tbody></table>',
                heads, joined("", rows))


def _row(finding: Any, html: _Html) -> Markup:
    data = finding.data
    verdict = str(data.get("verdict", ""))
    concerns = list(data.get("concerns", []))
    shown = [html.ref(ref) for ref in concerns[:CONCERNS_SHOWN]]
    more = len(concerns) - len(shown)
    concerned = joined(", ", shown) + (Markup(" ") + escape_text(f"and {more} more") if more > 0 else Markup(""))
    return fill('<tr><td data-sort="{}">{}</td><td data-values="{}" data-sort="{}">{}</td>'
                '<td data-sort="{}">{}</td><td data-label="Concerns">{}</td></tr>',
                str(data.get("verified_on", "")), str(data.get("verified_on", "")), label(verdict), verdict,
                label(verdict), finding.name.lower(), html.ref(finding.ref), concerned or escape_text("none named"))


WEEK_DAYS = 7


def findings_week(atlas: Any) -> dict[str, Any]:
    """The findings dated in the seven days up to the newest finding's date (a window the data fixes, so a rebuild
    gives the same page): that window, how many (and in words, '1 finding' or '3 findings'), and how many of each verdict,
    most first (a verdict is a participle, '1 corrected', so it takes no plural)."""
    import datetime as dt
    dated = [(str(r.data.get("verified_on", "")), str(r.data.get("verdict", ""))) for r in atlas.index.all("finding")]
    dated = [(day, verdict) for day, verdict in dated if day]
    if not dated:
        return {"count": 0, "counted": plural(0, "finding"), "since": "", "until": "", "verdicts": []}
    until = max(day for day, _ in dated)
    since = (dt.date.fromisoformat(until[:10]) - dt.timedelta(days=WEEK_DAYS - 1)).isoformat()
    counts: dict[str, int] = {}
    for day, verdict in dated:
        if day[:10] >= since:
            counts[verdict] = counts.get(verdict, 0) + 1
    verdicts = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    count = sum(counts.values())
    return {"count": count, "counted": plural(count, "finding"), "since": since, "until": until[:10],
            "verdicts": [(str(label(verdict)), n) for verdict, n in verdicts]}
