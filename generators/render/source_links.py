"""Outbound links to sources: the document itself (a URL, or a permalink to code at the cited revision) and when it was checked."""
from __future__ import annotations

import functools
from typing import Any

from markupsafe import Markup

from ..derive.source_links import source_link
from .markdown import escape_text, fill


def outbound(atlas: Any, source_id: str) -> Markup:
    """` · read it ↗ (checked DATE)` after a citation, or nothing when the source has no public address."""
    source = atlas.index.get("source", source_id)
    if source is None:
        return Markup("")
    url = (source_link(source.data) or "").replace("|", "%7C")
    checked = source.data.get("accessed")
    return _read_it(url, escape_text(checked) if checked else None)


@functools.lru_cache(maxsize=4096)
def _read_it(url: str, checked: Markup | None) -> Markup:
    """Kept: every page citing a source writes the same link after it."""
    out = Markup("")
    if url:
        out += fill(' · <a href="{}" rel="noopener">read it ↗</a>', url)
    if checked is not None:
        out += fill(" <small>(checked {})</small>", checked)
    return out


def where_to_read(atlas: Any, source_id: str) -> list[list[Markup]]:
    """Rows for a source's own page: the link a reader follows and the date it was last checked."""
    source = atlas.index.get("source", source_id)
    if source is None:
        return []
    url = (source_link(source.data) or "").replace("|", "%7C")
    link = fill('<a href="{}" rel="noopener">{}</a>', url, url) if url else escape_text("no public address recorded")
    return [[link, escape_text(source.data.get("accessed", "not recorded"))]]
