"""GitHub-flavoured Markdown for text a bot posts (the `diff` PR comment): contributor text shows as text.

Everything that comes from a contributor (values, keys, ids, file names, problem messages, table
cells) goes into `code()`: inside a code span GitHub renders no HTML, image, link or @-mention. The
span's fence is one backtick longer than the longest run of backticks in the text (padded with a
space when the text starts or ends with a backtick or space), so the text cannot close it, and line breaks are shown as `\\n` so the text cannot end the paragraph, the list
item or the table row. `cell()` makes a fragment safe inside a table cell (GFM splits cells on `|`
even inside code spans); `html()` is for text inside our own HTML (`<summary>`); `text()` is for
contributor text that must stay outside code (backslash-escapes punctuation, breaks @-mentions).
"""
from __future__ import annotations

import html as _html
import re

_LINE_BREAKS = {"\r\n": "\\r\\n", "\r": "\\r", "\n": "\\n"}
_BREAK = re.compile(r"\r\n|\r|\n")
_PUNCTUATION = re.compile(r"([!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])")


def one_line(text: str) -> str:
    """Line breaks written as visible escapes, so text stays on one Markdown line."""
    return _BREAK.sub(lambda m: _LINE_BREAKS[m.group(0)], text)


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
