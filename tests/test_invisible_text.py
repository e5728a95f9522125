"""Invisible format characters (generators/invisible_text.py): refused in a value, a key, a comment, an escape and a
file name, each at its position with its code point named, and never echoed raw."""
from __future__ import annotations

import sys
import unicodedata

import pytest

from generators import gfm, invisible_text
from generators.load import load_tree

from .conftest import write

RECORD = "records/techniques/calib2.yaml"
WHY = "is an invisible format character, which can reorder or hide what a reader sees; remove it"
# one of each kind: bidirectional override, embedding, isolate and mark; zero-width space, non-joiner, joiner; word
# joiner and invisible operator; byte-order mark; soft hyphen; a tag character; a Hangul filler; the grapheme joiner
KINDS = ["\u202e", "\u202a", "\u2066", "\u200f", "\u061c", "\u200b", "\u200c", "\u200d", "\u2060", "\u2062",
         "\ufeff", "\xad", "\U000e0041", "\u3164", "\u034f"]


def _printed(root):
    _, problems = load_tree(root)
    lines = [str(p) for p in problems]
    assert not any(invisible_text._FORMAT.search(line) for line in lines), lines  # never the raw character
    return lines


@pytest.mark.parametrize("character", KINDS)
def test_a_format_character_in_a_value_is_refused_where_it_stands(tree, character):
    write(tree, RECORD, f"name: X\nsummary: ru{character}ns\n")
    assert _printed(tree) == [f"{RECORD}:2:12: error: [load] {invisible_text.named(character)} {WHY}"]


@pytest.mark.parametrize("character", KINDS)
def test_a_format_character_in_a_key_is_refused_where_it_stands(tree, character):
    write(tree, RECORD, f"name: X\n  \nnot{character}es: y\n")
    assert _printed(tree) == [f"{RECORD}:3:4: error: [load] {invisible_text.named(character)} {WHY}"]


@pytest.mark.parametrize("character", KINDS)
def test_a_format_character_in_a_file_name_is_refused_and_shown_escaped(tree, character):
    name = f"records/techniques/cal{character}ib.yaml"
    write(tree, name, "name: X\n")
    shown = gfm.visible_json(name)
    assert shown != name
    assert _printed(tree) == [f"{shown}:1:1: error: [load] the file's path holds {invisible_text.named(character)}: "
                              f"an invisible format character, which can reorder or hide what a reader sees; remove it"]


@pytest.mark.parametrize("escape, character", [("\\u202E", "\u202e"), ("\\xAD", "\xad"), ("\\U000E0041", "\U000e0041"),
                                               ("\\u200b", "\u200b")])
def test_an_escape_that_makes_one_is_refused_at_its_string(tree, escape, character):
    write(tree, RECORD, f'name: X\nsummary: "ru{escape}ns"\n"k{escape}": 1\n')
    named = invisible_text.named(character)
    assert _printed(tree) == [f"{RECORD}:2:10: error: [load] an escape in this string makes {named}, {WHY[3:]}",
                              f"{RECORD}:3:1: error: [load] an escape in this string makes {named}, {WHY[3:]}"]


def test_every_one_in_a_file_is_reported_at_once_with_the_comment_too(tree):
    write(tree, RECORD, "# a comment \u2067 here\nname: X\u200d\nsummary: \u202ea\u202cb\n")
    assert [line.split(": error")[0] for line in _printed(tree)] == [
        f"{RECORD}:1:13", f"{RECORD}:2:8", f"{RECORD}:3:10", f"{RECORD}:3:12"]


def test_a_leading_byte_order_mark_and_the_variation_selectors_records_use_load(tree):
    write(tree, RECORD, "\ufeffname: X\u2713\ufe0e\nsummary: caf\u00e9 \u4e2d\u6587 na\u00efve\n")
    assert _printed(tree) == []


def test_every_format_character_of_this_python_is_in_the_set():
    """FORMAT is written out as of Unicode 15 (the regex is compiled at import, not built from unicodedata then):
    a newer Unicode's new Cf character fails here until it is added."""
    missing = [f"U+{point:04X}" for point in range(sys.maxunicode + 1)
               if unicodedata.category(chr(point)) == "Cf" and not invisible_text._FORMAT.match(chr(point))]
    assert missing == []


def test_named_never_holds_the_character():
    assert invisible_text.named("\u202e") == "U+202E RIGHT-TO-LEFT OVERRIDE"
    assert invisible_text.named("\u2065") == "U+2065 (unassigned)"
