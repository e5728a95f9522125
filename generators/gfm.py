"""GitHub-flavoured Markdown for text a bot posts (the `diff` PR comment): contributor text shows as text.

Everything that comes from a contributor (values, keys, ids, file names, problem messages, table
cells) goes into `code()`: inside a code span GitHub renders no HTML, image, link or @-mention. The
span's fence is one backtick longer than the longest run of backticks in the text (padded with a
space when the text starts or ends with a backtick or space), so the text cannot close it, and line breaks are shown as
`\\n` so the text cannot end the paragraph, the list item or the table row; other control characters and the
bidirectional controls are shown as `\\u` escapes (the same report is printed on a terminal). `cell()` makes a
fragment safe inside a table cell (GFM splits cells on `|` even inside code spans); `html()` is for text inside our
own HTML (`<summary>`); `text()` is for contributor text that must stay outside code (backslash-escapes punctuation,
breaks @-mentions).
"""
from __future__ import annotations

import html as _html
import re

from . import invisible_text

_LINE_BREAKS = {"\r\n": "\\r\\n", "\r": "\\r", "\n": "\\n"}
# what a terminal or a browser acts on or draws as nothing: control characters (a terminal's escape sequences), line
# and paragraph separators, and every format character (Unicode category Cf, as of Unicode 15: the bidirectional
# controls that reorder what is shown around them, zero-width spaces and joiners, the byte-order mark, the soft hyphen,
# the tag characters that carry hidden ASCII), with the other characters drawn blank (the combining grapheme joiner,
# the Hangul fillers, the supplementary variation selectors): a reworded text that differs only by one of them would
# otherwise show as the same text twice (\n and \t are not among them; nor are U+FE00-FE0F, which the records use).
# The format characters are invisible_text.FORMAT, which load refuses in a record: one list for both.
INVISIBLE = f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029{invisible_text.FORMAT}]"
_BREAK = re.compile("\r\n|\r|\n|" + INVISIBLE)
_INVISIBLE = re.compile(INVISIBLE)
_PUNCTUATION = re.compile(r"([!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])")


def one_line(text: str) -> str:
    """Line breaks written as visible escapes, so text stays on one Markdown line; other invisible controls as
    `\\u` escapes, so what a terminal or a reader sees is the text as it is (no escape sequence, no reordering)."""
    return _BREAK.sub(lambda m: _LINE_BREAKS.get(m.group(0)) or _escaped(m), text)


def visible_json(text: str) -> str:
    """JSON text with every invisible character (INVISIBLE) written as its `\\u` escape: the same JSON value, and
    nothing a terminal acts on (json.dumps escapes C0 controls, not the others)."""
    return _INVISIBLE.sub(_escaped, text)


def _escaped(match: re.Match[str]) -> str:
    """`\\uXXXX`, as JSON writes it: a character past U+FFFF as its two UTF-16 halves (`\\udb40\\udc41`)."""
    code = ord(match.group(0))
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def code(text: str) -> str:
    """An inline code span showing `text` literally; nothing in the text can close or escape it."""
    text = one_line(str(text))
    fence = "`" * (longest_backtick_run(text) + 1)
    pad = " " if text[:1] in ("`", " ") or text[-1:] in ("`", " ") else ""  # CommonMark strips one space each side
    return f"{fence}{pad}{text}{pad}{fence}"


def fence_for(lines: list[str] | tuple[str, ...]) -> str:
    """A code-block fence longer than any backtick run in the lines (at least three)."""
    return "`" * max(3, 1 + max((longest_backtick_run(line) for line in lines), default=0))


def cell(markdown: str) -> str:
    """A Markdown fragment made safe inside a table cell: pipes escaped (also inside code spans)."""
    return markdown.replace("|", "\\|")


def html(text: str) -> str:
    """Text inside our own HTML elements (e.g. <summary>): HTML-escaped, on one line."""
    return _html.escape(one_line(str(text)), quote=True)


def text(value: str) -> str:
    """Contributor text outside code: punctuation backslash-escaped, @-mentions broken, one line."""
    escaped = _PUNCTUATION.sub(r"\\\1", one_line(str(value)))
    return escaped.replace("\\@", "@\u200b")
