"""A record may not hold an invisible format character: not in a value, a key, a comment or its file name.

The characters (FORMAT) are every Unicode format character (category Cf: the bidirectional controls U+202A-U+202E
and U+2066-U+2069 and marks U+200E, U+200F and U+061C, which reorder what is shown around them; the zero-width
space, non-joiner and joiner U+200B-U+200D; the word joiner and invisible operators U+2060-U+2064; the byte-order
mark U+FEFF anywhere but a file's start; the soft hyphen U+00AD; the tag characters U+E0000-U+E007F, which carry
hidden ASCII) and the other characters drawn as nothing (the combining grapheme joiner U+034F, the Hangul fillers,
the Mongolian variation selectors, the supplementary variation selectors). Such a character injects no markup, but
it makes what a reader sees differ from what is stored (Trojan Source: a verdict that displays as `runs` and is
stored otherwise, a reference that looks like an id it is not, a review diff that hides what it changes). No record
needs one: the atlas's text is English, ids are ASCII, and the variation selectors U+FE00-U+FE0F that some records
use after a symbol are not among them. The loader refuses every occurrence at its line and column, with the code
point named (U+202E RIGHT-TO-LEFT OVERRIDE), raw or written as a `\\x`, `\\u` or `\\U` escape in a double-quoted
string; a message never holds the character itself. The C0 and C1 control characters and the line and paragraph
separators are refused by the loader too (fast_yaml.CONTROL), and the pull-request report shows both sets escaped
(gfm.INVISIBLE).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

# the class body, as of Unicode 15 (tests/test_invisible_text.py checks every Cf code point of the running Python
# is in it); gfm.INVISIBLE adds the control characters to it
FORMAT = ("\xad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f"
          "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
          "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
          "\U000e0000-\U000e0fff")
_FORMAT = re.compile(f"[{FORMAT}]")
_ESCAPE = re.compile(r"\\[xuU]")  # the escapes of a double-quoted string that can make one (\_ is U+00A0, visible)

WHY = "an invisible format character, which can reorder or hide what a reader sees; remove it"


def named(character: str) -> str:
    """`U+202E RIGHT-TO-LEFT OVERRIDE`: the code point and its name, never the character itself."""
    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X} {name}" if name else f"U+{ord(character):04X} (unassigned)"


def in_name(name: str) -> list[str]:
    """Each format character in a file or folder name, named, in order."""
    return [named(match.group()) for match in _FORMAT.finditer(name)] if not name.isascii() else []


def in_text(text: str) -> Iterator[tuple[int, int, str]]:
    """(line, column, message) for every format character written raw in a record's text (its first BOM is gone)."""
    if text.isascii():  # O(1) on str: most records are ASCII
        return
    for match in _FORMAT.finditer(text):
        start = match.start()
        line = text.count("\n", 0, start) + 1
        column = start - (text.rfind("\n", 0, start) + 1) + 1
        yield line, column, f"{named(match.group())} is {WHY}"


def may_escape(text: str) -> bool:
    """True when the text holds an escape that can make a format character in a double-quoted string."""
    return "\\" in text and _ESCAPE.search(text) is not None


def in_escaped(value: str, source: str) -> list[str]:
    """Each format character of a scalar's value that its source text does not hold raw (an escape made it), named."""
    return [named(match.group()) for match in _FORMAT.finditer(value) if match.group() not in source]
