"""Where a record's contests are anchored on its page, and which are open: the record page gives each contest's
heading its id, and an answer listing a trap (the card through the API, the support tables' notes) links there."""
from __future__ import annotations

from typing import Any

from ..model.records import settled


def contest_anchor(n: int) -> str:
    """The id of the record's n-th contest's heading (its place in `contested`: unique on the page, whatever the
    field's words, which are free text)."""
    return f"contest-{n}"


def open_contests(data: dict[str, Any]) -> list[dict[str, str]]:
    """The record's open contests (none a finding settled: no `upheld`), each as its field and its heading's id."""
    return [{"field": str(entry["field"]), "anchor": contest_anchor(n)}
            for n, entry in enumerate(data.get("contested", [])) if not settled(entry)]
