"""Provenance: which of a record's citations are primary sources, and which records have none.

A citation is any reference from a record to a source record (a `sources[]` entry, a sourced number,
a contested claim's or a scope's sources). It is *primary* when the cited source's `type` is not
`seed`: a seed draft is where a record came from, not evidence that it is true. A record with no
primary citation is *unverified*, whether or not it declares so.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model.index import Index, Link
from ..model.records import Record

SECONDARY_TYPES = frozenset({"seed"})


@dataclass(frozen=True)
class Unverified:
    """A record none of whose citations is a primary source, with the reason it declares (if any)."""

    record: str
    reason: str
    declared: bool


def citations(index: Index, record: Record) -> list[Link]:
    """Every link from the record to a source record, in the record's own order."""
    return [link for link in index.outgoing.get(record.ref, []) if link.target.startswith("source/")]


def is_primary(index: Index, source_ref: str) -> bool:
    """True when the source record exists and its type is not a seed draft."""
    return _primary(index.by_ref(source_ref if "/" in source_ref else f"source/{source_ref}"))


def first_primary_citation(index: Index, record: Record) -> Link | None:
    """The record's first citation (in its own order) whose source is primary, or None: the walk stops there, as every
    caller only asks whether there is one (this runs for every record, several times per check)."""
    sources = index.by_kind.get("source", {})
    for link in index.outgoing.get(record.ref, ()):  # (a plain loop: a generator and a call per link cost twice this)
        target = link.target
        if target.startswith("source/"):
            source = sources.get(target[7:])  # (len("source/"))
            if source is not None and source.data.get("type") not in SECONDARY_TYPES:
                return link
    return None


def _primary(source: Record | None) -> bool:
    return source is not None and source.data.get("type") not in SECONDARY_TYPES


def unverified_records(index: Index, kinds: tuple[str, ...] | None = None) -> tuple[Unverified, ...]:
    """Every record (of `kinds`, or of every kind but source) with no primary citation, ordered by kind and id."""
    chosen = kinds if kinds is not None else tuple(k for k in sorted(index.by_kind) if k != "source")
    return tuple(
        Unverified(record.ref, _reason(index, record), "unverified" in record.data)
        for kind in sorted(chosen) for record in index.all(kind) if first_primary_citation(index, record) is None
    )


def unverified_list(index: Index, reasons: dict[str, str]) -> tuple[Unverified, ...]:
    """The unverified records again from their reasons by ref (the `unverified` view), in the same order."""
    return tuple(Unverified(ref, reason, "unverified" in index.must(*ref.split("/", 1)).data)
                 for ref, reason in reasons.items())


def unverified_reason(index: Index, record: Record) -> str:
    """Why the record is unverified (its declared reason), or '' when it cites a primary source or is a source."""
    if record.kind == "source" or first_primary_citation(index, record) is not None:
        return ""
    return _reason(index, record)


def _reason(index: Index, record: Record) -> str:
    if "unverified" in record.data:
        return str(record.data["unverified"])
    cited = "only seed drafts" if citations(index, record) else "no source"
    return f"none declared; it cites {cited}"
