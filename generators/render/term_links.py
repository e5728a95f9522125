"""A page's first use of each glossary spelling linked to where the term is defined (derive/terms.py).

The page is Markdown with inline HTML. A spelling is looked for as a whole word, case-sensitive, as record text reads
once escaped for Markdown (escape_text: `float4\\_e2m1f`), and never inside front matter, a heading, a code span, a
link (its text or its address, Markdown or HTML), an HTML code, heading or script element, an HTML tag, or a record's
verbatim text (`verbatim_texts`: an engine's message, a quote from a source, which say what the source says and
nothing the site adds); only its first use on the page is linked, and not on the page it leads to. The link is an HTML anchor with a directory URL, so
it reads the same inside a Markdown paragraph, a table cell or a block of HTML. Pure; no I/O.
"""
from __future__ import annotations

import bisect
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
# (the look-ahead names every branch's first character, so the search skips plain text at C speed: half the time)
_SKIP = re.compile(r"(?=[-#`!\[<])(?:\A---\n.*?\n---\n|^#[^\n]*$|(`+).*?\1|!?\[[^\]\n]*\]\([^)\n]*\)"
                   r"|<(a|code|pre|script|style|h[1-6])\b[^>]*>.*?</\2>|<[^>\n]*>)", re.S | re.M)


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
    starts = [start for start, _ in free]
    found: list[tuple[int, int, TermLink]] = []
    for term in wanted:
        match = next((span for span in _uses(text, term.spelling) if _inside(*span, free, starts)), None)
        if match and not any(a < match[1] and match[0] < b for a, b, _ in found):
            found.append((*match, term))
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


def _uses(text: str, spelling: str) -> Iterator[tuple[int, int]]:
    """Each whole-word use of the spelling, in order: found as a plain string, then tested with the pattern at that
    place (a pattern that opens with a look-behind is tried at every position of a long page)."""
    literal, pattern = str(escape_text(spelling)), _pattern(spelling)
    at = text.find(literal)
    while at >= 0:
        if pattern.match(text, at):
            yield at, at + len(literal)
        at = text.find(literal, at + 1)


def _inside(start: int, end: int, free: list[tuple[int, int]], starts: list[int]) -> bool:
    """Whether [start, end) lies within one free span (`starts`: the spans' starts, for the search)."""
    at = bisect.bisect_right(starts, start) - 1
    return at >= 0 and end <= free[at][1]


def _verbatim_spans(text: str, verbatim: Sequence[str]) -> list[tuple[int, int]]:
    """Where each verbatim text stands in `text`, as a page writes it (escaped for Markdown, or HTML-escaped): a
    plain search per form (a pattern compiled per form filled the regex cache on every page)."""
    forms = {f for v in verbatim if v for f in (str(escape_text(v)), str(escape(v)), v) if f}
    spans = []
    for form in forms:
        at = text.find(form)
        while at >= 0:
            spans.append((at, at + len(form)))
            at = text.find(form, at + len(form))
    return sorted(spans)


def _without(spans: list[tuple[int, int]], cut: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans` (in order, disjoint) less every stretch in `cut`: the cuts merged into disjoint stretches, then one
    sweep that starts each span at the first stretch ending after it."""
    merged: list[tuple[int, int]] = []
    for a, b in sorted(cut):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    ends = [b for _, b in merged]
    kept: list[tuple[int, int]] = []
    for start, end in spans:
        at, n = start, bisect.bisect_right(ends, start)
        while n < len(merged) and merged[n][0] < end:
            if merged[n][0] > at:
                kept.append((at, merged[n][0]))
            at, n = max(at, merged[n][1]), n + 1
        if at < end:
            kept.append((at, end))
    return kept
