"""Where a record's contests are anchored on its page, and which are open: the record page gives each contest's
heading its id, and an answer listing a trap (the card through the API, the support tables' notes) links there, as a
page listing a trap does (a chapter through `ref`, the trap index)."""
from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..derive.wording import words
from ..model.records import settled
from .markdown import fill


def contest_anchor(n: int) -> str:
    """The id of the record's n-th contest's heading (its place in `contested`: unique on the page, whatever the
    field's words, which are free text)."""
    return f"contest-{n}"


def open_contests(data: dict[str, Any]) -> list[dict[str, str]]:
    """The record's open contests (none a finding settled: no `upheld`), each as its field and its heading's id."""
    return [{"field": str(entry["field"]), "anchor": contest_anchor(n)}
            for n, entry in enumerate(data.get("contested", [])) if not settled(entry)]


def contest_mark(url: str, anchor: str) -> Markup:
    """' ⚠ contested' after a trap whose claim a finding has not settled, linking to its first open contest (`anchor`
    on the trap's page at `url`): as the answer card marks it (can-i-run-it.js, contestedMark), so the trap's name is
    never read as an asserted claim wherever it is listed."""
    return fill(' <a class="atlas-contest-mark atlas-contest-mark--contested" href="{}#{}">{}</a>', url, anchor,
                words("trap_contested"))
