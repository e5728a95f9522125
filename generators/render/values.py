"""Turning record values into escaped Markdown: references become links, lists are joined, mappings flattened."""
from __future__ import annotations

import posixpath
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from ..paths import dotted
from .markdown import escape_text, link, page_of, unverified_badge


class ValueRenderer:
    """Renders values of one record on one page; knows which paths of the record are references."""

    def __init__(self, links: dict[str, str], names: dict[str, str], page: str, unverified: dict[str, str] | None = None):
        self.links = links  # dotted path in the record -> target kind/id
        self.names = names  # kind/id -> display name
        self.page = page
        self.folder = posixpath.dirname(page)
        self.unverified = unverified or {}  # kind/id -> why no primary source backs it (a badge after its links)

    def render(self, value: Any, path: tuple[Any, ...]) -> Markup:
        target = self.links.get(dotted(path))
        if target is not None:
            return self.ref(target)
        if isinstance(value, list):
            return Markup(", ").join(self.render(item, path + (n,)) for n, item in enumerate(value))
        if isinstance(value, dict):
            return Markup("; ").join(Markup(f"{escape_text(k.replace('_', ' '))}: ") + self.render(v, path + (k,))
                                     for k, v in value.items())
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return escape_text(value)

    def ref(self, target: str) -> Markup:
        name = self.names.get(target, target.partition("/")[2])  # read here, so a page memo notes the name
        return _ref(target, name, self.folder, self.unverified.get(target))


@lru_cache(maxsize=1 << 16, typed=True)
def _ref(target: str, name: str, folder: str, unverified: str | None) -> Markup:
    """A link to record `target` (kind/id) shown as `name`, from any page in `folder`, with its unverified badge:
    the same few thousand are written on every page of a folder."""
    kind, _, record_id = target.partition("/")
    return link(name, page_of(kind, record_id), posixpath.join(folder, "page.md")) + unverified_badge(unverified)
