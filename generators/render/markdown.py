"""Markdown output helpers: escaping record text and writing links between pages.

Record text is data. It is HTML-escaped and has Markdown's inline syntax characters
backslash-escaped, and newlines folded, so a record cannot inject markup, links, tables or
template syntax into a page.
"""
from __future__ import annotations

import html
import posixpath
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from ..derive.wording import pieces
from ..kinds import FOLDER_OF_KIND

_ESCAPES = {**{c: "\\" + c for c in "\\`*_{}[]()#+!"}, "&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;"}
# The same rules as one replacement per character, in an order where no replacement writes a character a later one
# replaces: the backslash first (the others add backslashes), `&` before the entities, `|` after `#` and `&`
_REPLACEMENTS = tuple((c, _ESCAPES[c]) for c in ("\\", "&", *"`*_{}[]()#+!", "<", ">", "|"))
_LIST_START = re.compile(r"^(\d+)\.(\s)")
_SENTENCE_LIST_START = re.compile(r"^(\d+)\.(?=\s|$)")  # a sentence's: "1." then the space it keeps, or a newline after it
# The first character of a text that opens a block where a line starts, written as its entity (Markdown has no
# backslash escape for these): `???` a details block (pymdownx.details), `~~~` a fenced code block (fenced_code, which
# MkDocs adds to every site), a line of `=` under a paragraph line a heading (_no_block_start)
_BLOCK_LEADS = {"?": "&#63;", "~": "&#126;", "=": "&#61;"}
as_markup = str.__new__  # as_markup(Markup, text) is Markup(text) for trusted text, without markupsafe's __new__ in Python


def escape_text(value: Any) -> Markup:
    """Escape any value for inline Markdown+HTML; Markup passes through untouched.

    Whitespace runs fold to one space; Markdown's inline syntax characters get a backslash; `&`, `<`,
    `>` become entities and `|` (a table cell's end) `&#124;`; a leading `1.` or `-` cannot start a list, nor a
    leading `???` or `~~~` a details block or a code fence, nor a text of `=` only a heading's underline.
    """
    if isinstance(value, Markup):
        return value
    if isinstance(value, bool):
        value = "yes" if value else "no"
    return _escaped(str(value))


@lru_cache(maxsize=1 << 14)
def _escaped(text: str) -> Markup:
    """escape_text of a plain string, kept: field labels, column names and record names recur on every page."""
    # a C-speed test and replace per rule: the site escapes ~5 MB of record text, mostly distinct, on every build, and
    # this is faster than one regular-expression pass calling back per match, and 3x str.translate with strings
    text = " ".join(text.split())
    for character, replacement in _REPLACEMENTS:
        if character in text:
            text = text.replace(character, replacement)
    if text[:1].isdigit():
        text = _LIST_START.sub(r"\1\\.\2", text)
    if text.startswith("-"):
        text = "\\" + text
    elif text[:1] in _BLOCK_LEADS:
        text = _no_block_start(text)
    return as_markup(Markup, text)


def _no_block_start(text: str) -> str:
    """Escaped text whose `???`, `~~~` or line of `=` would open a block at a line's start, with its first character
    an entity; any other text as it is (a lone `~` or `?`, as in "~20%", shows the same either way)."""
    if text.startswith(("???", "~~~")) or (text[:1] == "=" and not text.strip("=")):
        return _BLOCK_LEADS[text[0]] + text[1:]
    return text


_CODE_ENTITIES = {**{c: f"&#{ord(c)};" for c in "\\`*_{}[]()#+!|\"'"}, "&": "&amp;", "<": "&lt;", ">": "&gt;"}
_CODE_TABLE = str.maketrans(_CODE_ENTITIES)  # (str.translate: one C pass, where a Python loop per character was not)


def code_span(value: Any) -> Markup:
    """Text shown as code: an HTML <code> element whose characters Markdown would read as syntax are entities, so
    the text shows as written (a Markdown code span would show the backslashes escape_text adds, and a backtick in
    the text would end it)."""
    text = " ".join(str(value).split())
    return as_markup(Markup, "<code>" + text.translate(_CODE_TABLE) + "</code>")


def with_code(value: Any) -> Markup:
    """Prose whose `backticked` parts show as code (code_span) and the rest escaped (escape_text): the documentation
    written in the code and the schemas. Text with an unpaired backtick is escaped whole."""
    parts = str(value).split("`")
    if len(parts) % 2 == 0:
        return escape_text(value)
    return joined("", [code_span(part) if n % 2 else _spaced(part) for n, part in enumerate(parts)])


def _spaced(text: str) -> Markup:
    """escape_text, keeping one space where the text began or ended with whitespace (it sits beside code)."""
    if not text.strip():
        return Markup(" " if text else "")
    return (Markup(" ") if text[0].isspace() else Markup("")) + escape_text(text) + (
        Markup(" ") if text[-1].isspace() else Markup(""))


def fill(template: str, *values: Any) -> Markup:
    """Markup(template).format(*values) at str.format's speed: the template is trusted HTML with positional fields
    only, and each value goes in as Markup.format puts it, Markup as it is and anything else formatted, then
    HTML-escaped (markupsafe's escape). Markup.format parses the template in Python on every call, and the pages
    fill thousands of cells and links."""
    return as_markup(Markup, template.format(*[value.__html__() if hasattr(value, "__html__") else escape(format(value, ""))
                                             for value in values]))


def fill_words(template: str, **values: Any) -> Markup:
    """One of derive/wording.py's shared sentences on a page: its own text escaped, each `{name}` replaced by its value
    escaped (a Markup link as it is), and each `{name|text}` by its text, as explain fills it. Each piece keeps a space
    it begins or ends with (_spaced): escape_text alone trims it, and "{map|the map }of" would read "the mapof"."""
    filled = joined("", [part for text, name, shown in pieces(template)
                         for part in (_spaced(text), _spaced(shown) if shown is not None else
                                      _spaced_value(values[name]) if name else Markup(""))])
    # each piece is escaped alone and keeps a space it begins or ends with, so joined they can make what no piece is:
    # a value "1" before the text ". x" an ordered list, also after spaces (Markdown allows three before one) or as
    # "1. " before the page's next line, a value "?" before "?? note" a details block (or "~" and "~~", "=" and "=="),
    # and empty values between spaces four leading spaces (an indented code block) or two trailing ones (a line
    # break). Escape the whole from its first word, and keep at most one space on either side
    text = str(filled)
    words = text.strip()
    lead, trail = len(text) - len(text.lstrip()), len(text) - len(text.rstrip())
    if lead < 2 and trail < 2 and not words[:1].isdigit() and words[:1] not in _BLOCK_LEADS:
        return filled
    words = _SENTENCE_LIST_START.sub(r"\1\\.", words) if words[:1].isdigit() else _no_block_start(words)
    return as_markup(Markup, (" " if lead else "") + words + (" " if trail and words else ""))


def _spaced_value(value: Any) -> Markup:
    """A value in a sentence: Markup as it is, text as _spaced puts it, anything else as escape_text does."""
    return value if isinstance(value, Markup) else _spaced(value) if isinstance(value, str) else escape_text(value)


def joined(separator: str, items: Iterable[Any]) -> Markup:
    """Markup(separator).join(items) at str.join's speed: the separator is trusted HTML, and each item goes in as
    Markup.join puts it, Markup as it is and anything else through markupsafe's escape (its __html__ if it has one).
    Markup.join escapes and wraps every item in Python, and the pages join tens of thousands of links and cells."""
    return as_markup(Markup, separator.join([item if item.__class__ is Markup else escape(item) for item in items]))


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
    return as_markup(Markup, f"[{escape_text(text)}]({relative(target, current)})")


@lru_cache(maxsize=1 << 16, typed=True)
def record_link(name: str, target: str, folder: str, unverified: str | None) -> Markup:
    """A link to the page `target` shown as `name`, from any page in `folder`, with the unverified badge after it
    (`unverified` is why no primary source backs the record, None when one does): kept, since the same few thousand
    links are written on every page of a folder."""
    return joined("", (link(name, target, posixpath.join(folder, "page.md")), unverified_badge(unverified)))


UNVERIFIED_MARK = "u"  # superscript after a value every source of which is unverified: a figure, a format map cell


def unverified_value(value: Markup, reason: str) -> Markup:
    """A figure no primary source states, marked where it stands as the format map marks a cell that rests only on
    such figures (a dotted outline and a superscript u), its reason on hover: a reader sees the value is unverified
    without reading across to the column that says why."""
    title = as_markup(Markup, " ".join(reason.split()).translate(_CODE_TABLE))  # entities: a table cell's `|` too
    return fill('<span class="atlas-unverified-value" title="unverified: {}">{}<sup>{}</sup></span>', title, value,
                UNVERIFIED_MARK)


def marked_unverified(value: Any, reason: str) -> Markup:
    """`value` (escaped unless it is Markup) with the unverified mark of unverified_value where `reason` says why no
    primary source states it, as it is where `reason` is empty: for a template, whose values are marked in one place."""
    shown = value if isinstance(value, Markup) else escape_text(str(value))
    return unverified_value(shown, reason) if reason else shown


def unverified_badge(reason: str | None) -> Markup:
    """The badge after a link to a record no primary source backs (its reason on hover); nothing for a backed one."""
    if reason is None:
        return Markup("")
    return fill(' <span class="atlas-unverified" title="Unverified: {}">unverified</span>', reason)


_BACKSLASHED = re.compile(r"\\(.)")
_TAG = re.compile(r"<[^>]*>")
_COUNTED = re.compile(r"^(.*)_([0-9]+)$")


@lru_cache(maxsize=1024)
def heading_id(text: str) -> str:
    """The id MkDocs gives a heading showing `text` (escaped inline Markdown, as name() and escape_text write it) when
    no other heading of the page has it: Python-Markdown's toc extension (3.11.3, extensions/toc.py, slugify and
    TocTreeprocessor.run) slugs the heading's text, tags stripped and entities unescaped: NFKD to ASCII, characters
    other than word characters, spaces and hyphens dropped, lowercased, each run of spaces and hyphens one hyphen. It
    may be empty (a name of CJK characters only); heading_ids makes a page's ids whole and unique."""
    shown = html.unescape(_BACKSLASHED.sub(r"\1", _TAG.sub("", str(text))))
    plain = unicodedata.normalize("NFKD", shown).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", plain).strip().lower())


def heading_ids(texts: Iterable[str]) -> list[str]:
    """The ids of a page's headings showing `texts`, in page order, each heading_id made unique as the toc does
    (unique(), lines 57-87): an empty or repeated id gets `_1`, `_2`, ... (its own `_N` counted on). A chapter writes
    each on its heading (`{ #id }`, attr_list) as well as in its link, so the link lands there whatever else the page
    holds: the toc keeps a written id and moves any other heading of that slug (say an `h2` "By hardware target"
    before a target of that name) to a `_N` of its own, where two targets of one name would both have linked the first."""
    taken: set[str] = set()
    ids = []
    for text in texts:
        found = heading_id(text)
        if found in taken or not found:
            counted = _COUNTED.match(found)
            base, count = (counted[1], int(counted[2])) if counted else (found, 0)
            while f"{base}_{count + 1}" in taken:
                count += 1
            found = f"{base}_{count + 1}"
        taken.add(found)
        ids.append(found)
    return ids
