"""Search terms: the names a reader types to find a record, given to the site search as its page's tags.

How the theme ranks (Material for MkDocs 9, its search plugin and the lunr worker it ships): every section of a page is
one search document and carries the page's front-matter `tags`; a match in the tags weighs 10^6, in a title 10^3, in
the text 1 (the plugin's field boosts). Words are split at spaces and hyphens, a typed word matches every indexed word
it begins (the worker appends `*`), and the scores of the matched words add up, each weighted by its rarity (lunr's
idf; Material turns off length normalisation). A page's front-matter `search: boost:` multiplies the page's score for
every query that finds it, whatever matched: a boost given so that 'GPTQ' finds the GPTQ page first would also lift
that page for 'scale' or 'Marlin'. So no page boost is used here (source pages keep the template's site-wide 0.3).

The terms of a kernel or engine record: its name without a trailing parenthetical ('ONNX Runtime GenAI', 'vLLM
MarlinExperts'), its id when that is one word or the record is an engine (engine ids are package names: 'tensorrt-llm',
'onnxruntime-genai') and a kernel's class name ('MarlinExperts'). Several words are fine: a page that has all the
typed words in its tags outranks one that has some of them. A format's terms are its id, short name and aliases of one
plain word only ('EXL2', 'float8_e5m2'; letters, digits, '_', '.', '+'): its longer names share words that readers
search on their own ('scale', 'model', 'quantization'), and a tag outranks every title.

Weight that only the record's own name reaches, instead of a page boost: a term's last word is also written as a marker
tag, the word with '_' appended ('runtime_', 'genai_'), which only a typed word beginning like it can match. So 'ONNX
Runtime' finds ONNX Runtime (its marker 'runtime_') before ONNX Runtime GenAI (which has the same two words but the
marker 'genai_'), and 'vLLM' finds the engine before every 'vLLM ...' kernel. A one-word term that begins words of
another record's tags ('GPTQ' begins 'GPTQModel', 'Marlin' begins 'MarlinExperts') gets one marker more than the most
such tags any other record has ('gptqmodel' and 'gptqmodel_' on GPTQModel's page, so 'gptq_', 'gptq__', 'gptq___'),
so the exact term still wins over the longer one the prefix also finds. Tags are hidden in the result list
(docs/stylesheets/atlas.css).

A term is kept only if it is plain text for the theme: the result list appends each tag to the page as HTML (its
`h()` helper sets innerHTML for strings), hidden or not, so a term with '<', '>', '&', a quote, a backslash or a
control character is left out (contributors write the names).
Pure functions of the records; terms keep the record's order (name, id, class name, aliases), each once whatever its
case and separators.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache
from dataclasses import dataclass

from ..model.index import Index
from ..model.records import Record

SEARCH_FIRST_KINDS = ("format", "kernel", "engine")
MARKER = "_"  # appended to a term's last word; the theme's separator (spaces, hyphens) keeps it in the word
_SEPARATOR = re.compile(r"[\s\-]+")  # the theme's default `separator`, as the built search index states it
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")
_UNSAFE = re.compile(r"[<>&\"'`\\\x00-\x1f\x7f]")
_FORMAT_WORD = re.compile(r"[A-Za-z0-9_.+]+")  # a format's label such as 'FP8(rowwise)' would begin every 'fp8' query


@dataclass(frozen=True)
class SearchTerms:
    """A record page's search terms and the marker tags that weigh its own terms (see the module docstring)."""

    terms: tuple[str, ...]
    markers: tuple[str, ...]

    @property
    def tags(self) -> tuple[str, ...]:
        """What the page's front matter lists as `tags`: the terms, then the markers."""
        return self.terms + self.markers


@lru_cache(maxsize=1 << 14)
def words(term: str) -> tuple[str, ...]:
    """A term's words as the theme indexes them: split at spaces and hyphens, lower case (asked several times a term)."""
    return tuple(word for word in _SEPARATOR.split(term.lower()) if word)


def search_terms(record: Record) -> tuple[str, ...]:
    """The names of a format, kernel or engine record a reader would type; nothing for other kinds."""
    if record.kind not in SEARCH_FIRST_KINDS:
        return ()
    data = record.data
    names = [_PARENTHETICAL.sub("", record.name)]
    if len(words(record.id)) == 1 or record.kind == "engine":
        names.append(record.id)
    names += [data["class_name"]] if isinstance(data.get("class_name"), str) else []
    names += [a for a in data.get("aliases", []) if isinstance(a, str)]
    terms: dict[tuple[str, ...], str] = {}
    for name in names:
        if words(name) and not _UNSAFE.search(name) and (record.kind != "format" or _FORMAT_WORD.fullmatch(name)):
            terms.setdefault(words(name), name)
    return tuple(terms.values())


def search_terms_by_record(index: Index) -> dict[str, SearchTerms]:
    """Every format, kernel and engine record with search terms, by ref, in kind then id order."""
    found = {r.ref: search_terms(r) for kind in SEARCH_FIRST_KINDS for r in index.all(kind)}
    found = {ref: terms for ref, terms in found.items() if terms}
    rivals = _Rivals({ref: _plain_tags(terms) for ref, terms in found.items()})
    return {ref: SearchTerms(terms, _markers(ref, terms, rivals)) for ref, terms in found.items()}


def _plain_tags(terms: tuple[str, ...]) -> set[str]:
    """A record's indexed tag words with one marker per term: what a typed word can match on its page."""
    return {w for t in terms for w in words(t)} | {words(t)[-1] + MARKER for t in terms}


def _markers(ref: str, terms: tuple[str, ...], rivals: _Rivals) -> tuple[str, ...]:
    """Each term's markers: its last word with one '_', or for a one-word term that begins tags of other pages, with
    one to n+1 '_' where n is the most such tags (other than the word itself) one other page has."""
    markers: dict[str, None] = {}
    for term in terms:
        last = words(term)[-1]
        rival = rivals.most_begun(last, ref) if len(words(term)) == 1 else 0
        count = rival + 1 if rival else 1
        markers.update(dict.fromkeys(last + MARKER * n for n in range(1, count + 1)))
    return tuple(markers)


class _Rivals:
    """Every page's plain tags, sorted, so the tags a word begins are one range found by bisection: asking for each
    of n pages' words costs n log n, not n times every other page's tags (thousands of records at atlas scale)."""

    def __init__(self, plain: dict[str, set[str]]):
        self.tags = sorted((tag, ref) for ref, tags in plain.items() for tag in tags)
        self.keys = [tag for tag, _ in self.tags]
        self.known: dict[str, list[tuple[int, str]]] = {}

    def most_begun(self, word: str, ref: str) -> int:
        """The most tags (other than the word itself) that the word begins on any one page other than `ref`."""
        top = self.known.get(word)
        if top is None:
            counts: dict[str, int] = {}
            for tag, other in self.tags[bisect_left(self.keys, word):bisect_left(self.keys, word + "\U0010ffff")]:
                if tag != word:
                    counts[other] = counts.get(other, 0) + 1
            top = self.known[word] = sorted(((n, other) for other, n in counts.items()), reverse=True)[:2]
        return next((n for n, other in top if other != ref), 0)
