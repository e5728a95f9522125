"""Markdown output helpers: escaping record text and writing links between pages.

Record text is data. It is HTML-escaped and has Markdown's inline syntax characters
backslash-escaped, and newlines folded, so a record cannot inject markup, links, tables or
template syntax into a page.
"""
from __future__ import annotations

import html
import posixpath
import re
from typing import Any

from markupsafe import Markup

from ..kinds import FOLDER_OF_KIND

_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+!])")
_LIST_START = re.compile(r"^(\d+)\.(\s)")
_WHITESPACE = re.compile(r"\s+")


def escape_text(value: Any) -> Markup:
    """Escape any value for inline Markdown+HTML; Markup passes through untouched."""
    if isinstance(value, Markup):
        return value
    if isinstance(value, bool):
        value = "yes" if value else "no"
    text = _WHITESPACE.sub(" ", str(value)).strip()
    text = _MARKDOWN_SPECIALS.sub(r"\\\1", text)
    text = html.escape(text, quote=False).replace("|", "&#124;")
    text = _LIST_START.sub(r"\1\\.\2", text)
    if text.startswith("-"):
        text = "\\" + text
    return Markup(text)


def page_of(kind: str, record_id: str) -> str:
    return f"{FOLDER_OF_KIND[kind]}/{record_id}.md"


def relative(target: str, current: str) -> str:
    """Link from page `current` to page `target`, both docs-relative paths (posixpath.relpath without its getcwd)."""
    start = posixpath.normpath(posixpath.dirname(current) or ".")
    goal = posixpath.normpath(target)
    if start.startswith("..") or goal.startswith("..") or start.startswith("/") or goal.startswith("/"):
        return posixpath.relpath(target, posixpath.dirname(current) or ".")
    base = [] if start == "." else start.split("/")
    parts = [] if goal == "." else goal.split("/")
    common = 0
    while common < len(base) and common < len(parts) and base[common] == parts[common]:
        common += 1
    return "/".join([".."] * (len(base) - common) + parts[common:]) or "."


def link(text: Any, target: str, current: str) -> Markup:
    return Markup(f"[{escape_text(text)}]({relative(target, current)})")
