"""The findings index lists findings newest first with their verdict and records, and the changelog says how many were
checked in the week up to the newest (render/finding_index.py)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from generators.render.finding_index import CONCERNS_SHOWN, finding_table_html, findings_newest_first, findings_week


@dataclass
class _Finding:
    id: str
    data: dict[str, Any]
    name: str = ""
    kind: str = "finding"

    @property
    def ref(self) -> str:
        return f"finding/{self.id}"


@dataclass
class _Index:
    findings: list[_Finding] = field(default_factory=list)

    def all(self, kind: str) -> list[_Finding]:
        return list(self.findings) if kind == "finding" else []


@dataclass
class _Atlas:
    index: _Index


def _atlas(*dated: tuple[str, str, str]) -> _Atlas:
    return _Atlas(_Index([_Finding(i, {"verified_on": day, "verdict": verdict}, name=f"<b>{i}</b>")
                          for i, day, verdict in dated]))


def test_the_week_is_the_seven_days_up_to_the_newest_finding_not_today() -> None:
    atlas = _atlas(("a", "2026-12-05", "corrected"), ("b", "2026-11-29", "confirmed"), ("c", "2026-11-28", "refuted"),
                   ("d", "2026-12-01", "corrected"))
    week = findings_week(atlas)
    assert (week["since"], week["until"], week["count"]) == ("2026-11-29", "2026-12-05", 3)  # c is a day too old
    assert week["verdicts"] == [("corrected", 2), ("confirmed", 1)]
    assert findings_week(_atlas())["count"] == 0


def test_a_week_of_one_finding_says_one_finding() -> None:
    """The changelog's line reads '1 finding is dated', not '1 findings are dated'."""
    assert [findings_week(_atlas(*[(str(n), "2026-12-05", "corrected") for n in range(k)]))["counted"]
            for k in (1, 2)] == ["1 finding", "2 findings"]


def test_the_table_is_newest_first_escapes_names_and_counts_what_it_leaves_out() -> None:
    atlas = _atlas(("old", "2026-11-01", "partially-confirmed"), ("new", "2026-12-02", "refuted"),
                   ("mid", "2026-11-15", "confirmed"))
    atlas.index.findings[1].data["concerns"] = [f"engine/e{n}" for n in range(CONCERNS_SHOWN + 3)]
    assert [f.id for f in findings_newest_first(atlas)] == ["new", "mid", "old"]
    names = {f.ref: f.name for f in atlas.index.findings}
    html = str(finding_table_html(atlas, "findings/index.md", names))
    rows = re.findall(r"<tr><td data-sort=\"([^\"]+)\"", html)
    assert rows == ["2026-12-02", "2026-11-15", "2026-11-01"]
    assert "<b>" not in html and "&lt;b&gt;new&lt;/b&gt;" in html  # a record's name is text
    assert html.count('href="../engines/e') == CONCERNS_SHOWN and " and 3 more" in html
    assert 'data-values="partially confirmed"' in html and 'data-filter="verdict"' in html


def test_every_real_finding_has_a_row(real_atlas) -> None:
    html = str(finding_table_html(real_atlas, "findings/index.md", {}))
    assert html.count("<tr><td") == len(real_atlas.index.all("finding"))
