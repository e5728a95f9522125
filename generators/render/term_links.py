"""A page's first use of each glossary spelling linked to where the term is defined (derive/terms.py).

The page is Markdown with inline HTML. A spelling is looked for as a whole word, case-sensitive, as record text reads
once escaped for Markdown (escape_text: `float4\\_e2m1f`), and never inside front matter, a heading, a code span, a
link (its text or its address, Markdown or HTML), an HTML code, heading or script element, an HTML tag, or a record's
verbatim text (derive/terms.py `verbatim_texts`: an engine's message, a quote from a source, which say what the source
says and nothing the site adds; a page shows other records' messages too, a kernel's refusal in a hardware target's
table of cells, so every page skips each stretch of every record's that holds a spelling, `quoted_stretches`); only
its first use on the page is linked, and not on the page it leads to. The link is an HTML anchor with a directory URL,
so it reads the same inside a Markdown paragraph, a table cell or a block of HTML. Pure; no I/O.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

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


def link_terms(text: str, terms: Sequence[TermLink], page: str, verbatim: Sequence[str] = (),
               shared: tuple[str, ...] = ()) -> str:
    """`text` (the Markdown of `page`) with each spelling's first use outside what _SKIP matches and outside each
    `verbatim` text (the page's own) or `shared` one (the same for every page, so what it holds is looked up once per
    spelling, not once per page) made a link."""
    wanted = [t for t in terms if page_of(t.kind, t.record) != page]
    if not wanted or not any(str(escape_text(t.spelling)) in text for t in wanted):
        return text
    free = _free_spans(text)
    starts = [start for start, _ in free]
    quoted = tuple(verbatim)
    found: list[tuple[int, int, TermLink]] = []
    for term in wanted:
        match = next((span for span in _uses(text, term.spelling)
                      if _inside(*span, free, starts) and not _quoted(text, span[0], term.spelling, quoted)
                      and not _quoted(text, span[0], term.spelling, shared)), None)
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


def _quoted(text: str, start: int, spelling: str, verbatim: tuple[str, ...]) -> bool:
    """Whether the use of `spelling` at `start` lies inside one of the verbatim texts, as a page writes them (escaped
    for Markdown, HTML-escaped, or as they are): a text holding it at an offset stands in `text` that far before the
    use. Looked for only around a use (a few per page): a search of the whole page for each of hundreds of texts
    (quoted_stretches) would cost more than the rest of the linking."""
    return any(start >= at and text.startswith(form, start - at) for form, at in _holding(verbatim, spelling))


@lru_cache(maxsize=256)
def _holding(verbatim: tuple[str, ...], spelling: str) -> tuple[tuple[str, int], ...]:
    """Each form of each verbatim text that holds the spelling, with each offset it holds it at."""
    literal = str(escape_text(spelling))
    forms = {f for v in verbatim if spelling in v for f in (str(escape_text(v)), str(escape(v)), v)}
    return tuple((form, at) for form in sorted(forms) for at in _offsets(form, literal))


def _offsets(text: str, literal: str) -> Iterator[int]:
    at = text.find(literal)
    while at >= 0:
        yield at
        at = text.find(literal, at + 1)
