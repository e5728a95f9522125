"""A page's first use of each glossary spelling linked to where the term is defined (derive/terms.py).

The page is Markdown with inline HTML. A spelling is looked for as a whole word, case-sensitive, as record text reads
once escaped for Markdown (escape_text: `float4\\_e2m1f`), and never inside front matter, a heading, a code span, a
link (its text or its address, Markdown or HTML), an HTML code, heading or script element, an HTML tag, or a record's
verbatim text (`verbatim_texts`: an engine's message, a quote from a source, which say what the source says and
nothing the site adds); only its first use on the page is linked, and not on the page it leads to. The link is an HTML anchor with a directory URL, so
it reads the same inside a Markdown paragraph, a table cell or a block of HTML. Pure; no I/O.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from markupsafe import escape

from ..derive.terms import TermLink
from .markdown import escape_text, page_of
from .matrix import href

# what a spelling is never linked inside: front matter, a heading line, a code span, a Markdown link, an HTML anchor,
# code, heading or script element with its content (a link in a link is no link), any other HTML tag
_SKIP = re.compile(r"\A---\n.*?\n---\n|^#[^\n]*$|(`+).*?\1|!?\[[^\]\n]*\]\([^)\n]*\)"
                   r"|<(a|code|pre|script|style|h[1-6])\b[^>]*>.*?</\2>|<[^>\n]*>", re.S | re.M)


@lru_cache(maxsize=64)
def _pattern(spelling: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w\\]){re.escape(str(escape_text(spelling)))}(?!\w)")


def verbatim_texts(data: Any) -> Iterator[str]:
    """A record's text that quotes someone else word for word: every `quote`, every `failure_message`, and a
    requirement's `reason` where `reason_verbatim` is not false (the engine's message, as the checks read it)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str) and (key in ("quote", "failure_message") or
                                           (key == "reason" and data.get("reason_verbatim", True))):
                yield value
            else:
                yield from verbatim_texts(value)
    elif isinstance(data, list):
        for item in data:
            yield from verbatim_texts(item)


def link_terms(text: str, terms: Sequence[TermLink], page: str, verbatim: Sequence[str] = ()) -> str:
    """`text` (the Markdown of `page`) with each spelling's first use outside what _SKIP matches and outside each
    `verbatim` text made a link."""
    wanted = [t for t in terms if page_of(t.kind, t.record) != page]
    if not wanted or not any(str(escape_text(t.spelling)) in text for t in wanted):
        return text
    free = _without(_free_spans(text), _verbatim_spans(text, verbatim))
    found: list[tuple[int, int, TermLink]] = []
    for term in wanted:
        match = next((m for start, end in free for m in [_pattern(term.spelling).search(text, start, end)] if m), None)
        if match and not any(a < match.end() and match.start() < b for a, b, _ in found):
            found.append((match.start(), match.end(), term))
    for start, end, term in sorted(found, reverse=True):
        anchor = (f'<a class="atlas-term" href="{href(page_of(term.kind, term.record), page)}" '
                  f'title="{escape(term.title)}">{text[start:end]}</a>')
        text = text[:start] + anchor + text[end:]
    return text


def _free_spans(text: str) -> list[tuple[int, int]]:
    """The stretches of `text` between the parts _SKIP matches, in order."""
    spans, at = [], 0
    for skipped in _SKIP.finditer(text):
        if skipped.start() > at:
            spans.append((at, skipped.start()))
        at = skipped.end()
    if at < len(text):
        spans.append((at, len(text)))
    return spans


def _verbatim_spans(text: str, verbatim: Sequence[str]) -> list[tuple[int, int]]:
    """Where each verbatim text stands in `text`, as a page writes it (escaped for Markdown, or HTML-escaped)."""
    forms = {f for v in verbatim if v for f in (str(escape_text(v)), str(escape(v)), v)}
    return sorted((m.start(), m.end()) for form in forms for m in re.finditer(re.escape(form), text))


def _without(spans: list[tuple[int, int]], cut: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans` less every stretch in `cut`."""
    for a, b in cut:
        spans = [piece for start, end in spans
                 for piece in ((start, min(end, a)), (max(start, b), end)) if piece[0] < piece[1]]
    return spans
