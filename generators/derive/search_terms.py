"""Search terms: the words a reader types to find a record, given to the site search as its page's tags and boost.

A format, kernel or engine page comes first in the site search when the query is the record's id, its name without a
trailing parenthetical, or one of its aliases ('EXL2' finds the EXL2 format before the engine and the benchmarks
that mention it; 'ExLlamaV2' finds the engine). The theme weighs a tag far above a title (10^6 against 10^3), splits
tags at spaces and hyphens like any text, and reads each typed word as a prefix, so only one-word terms are kept
(a hyphenated id such as 'vllm-marlin' would put every vLLM kernel before the vLLM engine for the query 'vLLM'), and
a page with a term that begins another record's term ('GPTQ' begins 'GPTQModel', 'FP8' begins 'FP8_KV_CACHE') is
boosted so the exact term wins over the longer one the prefix also finds.
Pure functions of the records; terms keep the record's order (id, name, aliases), each once whatever its case.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.index import Index
from ..model.records import Record

SEARCH_FIRST_KINDS = ("format", "kernel", "engine")
PREFIX_BOOST = 10.0  # a tag match is ~10^3 times a title match, so this reorders tag matches, not title matches
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")
_ONE_WORD = re.compile(r"[A-Za-z0-9_.+]+")


@dataclass(frozen=True)
class SearchTerms:
    """A record page's search tags, and its boost (None: the theme's default) when a tag begins another's."""

    terms: tuple[str, ...]
    boost: float | None


def search_terms(record: Record) -> tuple[str, ...]:
    """The one-word id, short name and aliases of a format, kernel or engine record; nothing for other kinds."""
    if record.kind not in SEARCH_FIRST_KINDS:
        return ()
    terms: dict[str, str] = {}
    for term in (record.id, _PARENTHETICAL.sub("", record.name), *record.data.get("aliases", [])):
        if _ONE_WORD.fullmatch(term):
            terms.setdefault(term.lower(), term)
    return tuple(terms.values())


def search_terms_by_record(index: Index) -> dict[str, SearchTerms]:
    """Every format, kernel and engine record with search terms, by ref, in kind then id order."""
    found = {r.ref: search_terms(r) for kind in SEARCH_FIRST_KINDS for r in index.all(kind)}
    found = {ref: terms for ref, terms in found.items() if terms}
    owner = {t.lower(): ref for ref, terms in found.items() for t in terms}
    return {ref: SearchTerms(terms, PREFIX_BOOST if any(_begins_another(t.lower(), ref, owner) for t in terms) else None)
            for ref, terms in found.items()}


def _begins_another(term: str, ref: str, owner: dict[str, str]) -> bool:
    return any(other != term and other.startswith(term) and owner[other] != ref for other in owner)
