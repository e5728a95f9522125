"""The glossary's links: each spelling a term record names, with the record that defines it (its `defined_by`, else the
term itself), longest spelling first so that a longer one is linked before a shorter one it contains. A spelling that
several kernel records carry in their names (Marlin: IST-DASLab's kernel and vLLM's and GPTQModel's adaptations; MMQ:
llama.cpp's and vllm-gguf-plugin's port) names no one kernel: its links lead to the term's own page, which lists those
kernels, so a vLLM page does not send "Marlin" to a kernel vLLM never runs.

A record's verbatim text (an engine's message, a quote from a source) says what its source says and nothing the site
adds, so no spelling is linked inside it, wherever it is shown: on its record's page, in a cell of another record's
page or a chapter (a kernel's refusal on a hardware target's page), or in an answer card's condition that quotes it.
`quoted_stretches` lists the stretches of such text that a link could fall in. Pure; no I/O."""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

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


def named_kernels(index: Index, spellings: Iterable[str]) -> tuple[str, ...]:
    """The kernel records whose name carries one of the spellings as a word (case-sensitive), by id: also where a class
    name begins with it (vLLM's MarlinLinearKernel, GPTQModel's MarlinLinear)."""
    found = [re.compile(rf"(?<![A-Za-z0-9]){re.escape(s)}(?![a-z0-9])") for s in spellings]
    return tuple(k.id for k in index.all("kernel") if any(p.search(str(k.name)) for p in found))


def leads_to(index: Index, term_id: str, data: Mapping[str, Any]) -> tuple[str, str]:
    """Where a term's links lead (defined_at), but the term's own page where several kernels carry its name."""
    named = named_kernels(index, data["spellings"])
    return defined_at(term_id, None if len(named) > 1 else data.get("defined_by"))


def term_links(index: Index) -> tuple[TermLink, ...]:
    found: list[TermLink] = []
    for term in index.all("term"):
        kind, record = leads_to(index, term.id, term.data)
        found.extend(TermLink(spelling, kind, record, term.id, str(term.name)) for spelling in term.data["spellings"])
    return tuple(sorted(found, key=lambda t: (-len(t.spelling), t.spelling)))


# a string field that quotes its source word for word, and a list field whose strings each do: a gotcha's `messages`,
# an observation's `message`, `reasons` (the engine's refusals as raised) and `candidates` (each kernel's answer)
VERBATIM_FIELDS = ("quote", "failure_message", "message")
VERBATIM_LISTS = ("messages", "reasons", "candidates")
# an f-string placeholder of a recorded message: the engine fills it for each cell (derive/messages.py), so only the
# text between placeholders is shown as recorded
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_EDGES = " \t\n,;:."


def verbatim_texts(data: Any) -> Iterator[str]:
    """A record's text that quotes someone else word for word: every `quote`, `failure_message` and `message`, each
    string of a `messages`, `reasons` or `candidates` list, and a requirement's `reason` where `reason_verbatim` is not
    false (the engine's message, as the checks read it)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str) and (key in VERBATIM_FIELDS or
                                           (key == "reason" and data.get("reason_verbatim", True))):
                yield value
            elif key in VERBATIM_LISTS and isinstance(value, list) and all(isinstance(v, str) for v in value):
                yield from value
            else:
                yield from verbatim_texts(value)
    elif isinstance(data, list):
        for item in data:
            yield from verbatim_texts(item)


def quoted_stretches(index: Index, links: Iterable[TermLink]) -> tuple[str, ...]:
    """Every stretch of the records' verbatim text that holds a glossary spelling as a word, as a page or a card shows
    it: a message with placeholders split at each (the filled message shows the text between them as recorded), each
    piece trimmed of the spaces and punctuation at its ends. A piece that is a spelling alone is left out: it would
    stop that spelling from being linked anywhere. Sorted, once each."""
    global _STRETCHES
    key = tuple(sorted({t.spelling for t in links}))
    spellings = [(s, re.compile(rf"(?<!\w){re.escape(s)}(?!\w)")) for s in key]
    found: set[str] = set()
    kept: dict[tuple[str, str, str, tuple[str, ...]], frozenset[str]] = {}
    for record in (r for kind in sorted(index.by_kind) for r in index.by_kind[kind].values()):
        # a record's own stretches depend on its text and the spellings alone: an edit under `serve` finds them again
        # for one record, not for all (the walk over every record's text was half of a warm rebuild)
        at = (record.kind, record.id, record.text_digest, key)
        mine = _STRETCHES.get(at)
        if mine is None:
            mine = frozenset(piece for text in verbatim_texts(record.data)
                             for piece in (p.strip(_EDGES) for p in _PLACEHOLDER.split(" ".join(text.split())))
                             if any(s in piece and piece != s and pattern.search(piece) for s, pattern in spellings))
        kept[at] = mine
        found |= mine
    _STRETCHES = kept  # only this run's: a removed or edited record's entry goes
    return tuple(sorted(found))


# each record's stretches by (kind, id, text digest, spellings), from the last call (quoted_stretches)
_STRETCHES: dict[tuple[str, str, str, tuple[str, ...]], frozenset[str]] = {}


def quoted_holding(stretches: Iterable[str], spellings: Iterable[str]) -> list[str]:
    """Those of the quoted stretches that hold one of the spellings as a word, in their order."""
    patterns = [re.compile(rf"(?<!\w){re.escape(s)}(?!\w)") for s in spellings]
    return [s for s in stretches if any(p.search(s) for p in patterns)]
