"""The glossary's links: each spelling a term record names, with the record that defines it (its `defined_by`, else the
term itself), longest spelling first so that a longer one is linked before a shorter one it contains. Pure; no I/O."""
from __future__ import annotations

from dataclasses import dataclass

from ..model.index import Index


@dataclass(frozen=True)
class TermLink:
    """A spelling to link, the record it leads to (kind, id) and the term it comes from."""

    spelling: str
    kind: str
    record: str
    term: str
    title: str  # the term's name, as a link's hover text says it


def defined_at(term_id: str, defined_by: str | None) -> tuple[str, str]:
    """The record (kind, id) a term's links lead to: its `defined_by`, else the term's own page."""
    kind, _, record = (defined_by or f"term/{term_id}").partition("/")
    return kind, record


def term_links(index: Index) -> tuple[TermLink, ...]:
    found: list[TermLink] = []
    for term in index.all("term"):
        kind, record = defined_at(term.id, term.data.get("defined_by"))
        found.extend(TermLink(spelling, kind, record, term.id, str(term.name)) for spelling in term.data["spellings"])
    return tuple(sorted(found, key=lambda t: (-len(t.spelling), t.spelling)))
