"""Every search term of a format, kernel, engine or hardware-target page (its name, id, class name, aliases; see
derive/search_terms.py) finds that page before every page that lacks the term, in the theme's ranking by tag words: a
name, id or alias added to one record can leave another record's term outweighed where the marker solver reaches its
cap, and the site would then list the wrong page first for that term."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..derive.search_terms import MARKER, Outweighed, outweighed
from ..model.atlas import Atlas
from ..problems import Problem
from .base import PAGES, Check, at

NAME = "search-ranking"


def run(atlas: Atlas) -> Iterator[Problem]:
    for found in outweighed(atlas.views.search_terms):
        kind, _, record_id = found.page.partition("/")
        record = atlas.index.get(kind, record_id)
        if record is not None:
            yield at(record, _field_of(record.data, record.name, found.term), NAME, _message(found))


def _field_of(data: Mapping[str, Any], name: str, term: str) -> tuple[str | int, ...]:
    """Where the record states the outweighed term (its name, class name, an alias, its width), so the error points
    at that line; the record itself (its first line) for its id, the file name."""
    aliases = [a for a in data.get("aliases", []) if isinstance(a, str)]
    if term in aliases:
        return ("aliases", aliases.index(term))
    if data.get("class_name") == term:
        return ("class_name",)
    if term.endswith("-bit") and "weight_bits" in data:
        return ("weight_bits",)
    return ("name",) if term in name else ()


def _message(found: Outweighed) -> str:
    capped = (f"; its markers on {', '.join(repr(w) for w in found.capped)} are at the cap" if found.capped
              else "; no word of the term could take more markers")
    return (f"search for its term {found.typed!r} lists {found.rival} first or level with this page: that page's tags "
            f"match {found.theirs} times ({_tags(found.matched)}), this page's {found.own}{capped}. Usually a name, "
            f"id, class name or alias added to {found.rival} or to a record whose terms share its words set this off "
            "(derive/search_terms.py, _Markers): rename or drop the new alias, or change the solver")


def _tags(matched: tuple[str, ...]) -> str:
    """The rival's matched tag words, a word's markers counted: 'moe' and 8 markers."""
    markers: dict[str, int] = {}
    for tag in matched:
        word = tag.rstrip(MARKER) if tag.endswith(MARKER) and tag.rstrip(MARKER) in matched else tag
        markers[word] = markers.get(word, 0) + (word != tag)
    return ", ".join(f"{w!r} and {n} marker{'s' * (n != 1)}" if n else repr(w) for w, n in markers.items())


CHECK = Check(NAME, __doc__.strip(), "tree", run=run, stage=PAGES)  # reads the search tags: where record pages render
