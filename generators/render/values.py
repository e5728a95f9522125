"""Turning record values into escaped Markdown: references become links, lists are joined, mappings flattened."""
from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from ..paths import dotted
from .markdown import _spaced, as_markup, escape_text, joined, link, page_of, record_link


class ValueRenderer:
    """Renders values of one record on one page; knows which paths of the record are references."""

    def __init__(self, links: dict[str, str], names: dict[str, str], page: str, unverified: dict[str, str] | None = None):
        self.links = links  # dotted path in the record -> target kind/id
        self.names = names  # kind/id -> display name
        self.page = page
        self.folder = posixpath.dirname(page)
        self.unverified = unverified or {}  # kind/id -> why no primary source backs it (a badge after its links)

    def render(self, value: Any, path: tuple[Any, ...]) -> Markup:
        text = ""
        for part in path:
            text = _step(text, part)
        return as_markup(Markup, self._render(value, text))

    def _render(self, value: Any, path: str) -> str:
        """render, with the path written as paths.dotted writes it ("" for the record itself), one step per level.

        Every leaf is escaped (or a link), so the joins are plain string joins: Markup's own would only escape each
        piece again, which leaves escaped text as it is; render marks the whole as Markup once."""
        target = self.links.get(path or _WHOLE_RECORD)
        if target is not None:
            return self.ref(target)
        if isinstance(value, list):
            return ", ".join([self._render(item, _step(path, n)) for n, item in enumerate(value)])
        if isinstance(value, dict):
            return "; ".join([f"{_key(k)}{self._render(v, _step(path, k))}" for k, v in value.items()])
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return escape_text(value)

    def ref(self, target: str) -> Markup:
        kind, _, record_id = target.partition("/")
        name = self.names.get(target, record_id)  # read here, so a page memo notes the name
        return record_link(name, page_of(kind, record_id), self.folder, self.unverified.get(target))


    def naming_findings(self, text: str) -> Markup:
        """Prose that names a finding by its id ("... was not read (finding hw-nvidia-datasheets-unread)"), escaped as
        any record text, with each id the atlas holds as a finding linked to its page: the reader is one click from
        what the finding found, not left to search for the id."""
        parts = _FINDING.split(text)  # text, id, text, ...: each id follows the word "finding"
        return joined("", [self._finding(part) if n % 2 else _spaced(part) for n, part in enumerate(parts)])

    def _finding(self, finding_id: str) -> Markup:
        if self.names.get(f"finding/{finding_id}") is None:
            return escape_text(finding_id)
        return link(finding_id, page_of("finding", finding_id), self.page)


_WHOLE_RECORD = dotted(())
_FINDING = re.compile(r"(?<=\bfinding )([a-z0-9]+(?:-[a-z0-9]+)*)")


def _step(path: str, part: Any) -> str:
    """A dotted path one level deeper: paths.dotted(path + (part,)) for the path `path` writes."""
    return path + (f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part)))


@lru_cache(maxsize=4096)
def _key(key: str) -> str:
    """A mapping's key as the label before its value, escaped: `memory_gb` -> 'memory gb: '. A plain str, joined to
    its value by an f-string: `str + Markup` would escape the str again (Markup.__radd__)."""
    return f"{escape_text(key.replace('_', ' '))}: "

