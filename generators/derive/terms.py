"""The glossary's links: each spelling a term record names, with the record that defines it (its `defined_by`, else the
term itself), longest spelling first so that a longer one is linked before a shorter one it contains. A spelling that
several kernel records carry in their names (Marlin: IST-DASLab's kernel and vLLM's and GPTQModel's adaptations; MMQ:
llama.cpp's and vllm-gguf-plugin's port) names no one kernel: its links lead to the term's own page, which lists those
kernels, so a vLLM page does not send "Marlin" to a kernel vLLM never runs. Pure; no I/O."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
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
