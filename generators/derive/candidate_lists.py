"""A scheme's candidate list that names one of its engine's `candidate_lists` (`list: ID`) reads that list's kernels,
selector, failure message, locator, sources, promotions and filter; `resolved_scheme` gives a scheme's data with every
named list and every `no_path` list resolved.

Where several of an engine's schemes walk the same list on a platform, the list is a fact about the engine, stated once
on its record; every stage that reads a scheme's lists reads them through `resolved_scheme`, so no stage sees the name.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from ..last_few import LastFew
from ..model.fields import EngineCandidateLists, SchemeCandidates, SchemeFields
from ..model.index import Index, Link
from ..model.records import Record
from .engine_stated import engine_data, resolved_once
from .no_path import no_paths, resolve_candidates

FROM_ENGINE = ("selector", "kernels", "failure_message", "before_first_kernels", "locator", "sources", "promotions",
               "filter")

# scheme id -> the last few (scheme data, its engine's no_path and candidate_lists, the resolved scheme): the same
# objects resolve to the same object again, as the cell memo (cells._kept_cell) compares schemes by identity.
_RESOLVED: LastFew[tuple[SchemeFields, Any, SchemeFields]] = LastFew()


def named_lists(engine: Mapping[str, Any] | None) -> dict[str, EngineCandidateLists]:
    """An engine record's named candidate lists, by id (the first where two share one; check candidate-lists reports
    the second)."""
    found: dict[str, EngineCandidateLists] = {}
    for entry in (engine or {}).get("candidate_lists", []):
        found.setdefault(entry["id"], entry)
    return found


def resolve_named(candidates: SchemeCandidates, lists: Mapping[str, EngineCandidateLists]) -> SchemeCandidates:
    """The list with the fields of the engine's list it names, in that list's order after the scheme's own; unchanged
    when it names none (or one the engine does not state, which check candidate-lists reports)."""
    named = lists.get(candidates["list"]) if "list" in candidates else None
    if named is None:
        return candidates
    own = {k: v for k, v in candidates.items() if k != "list"}
    return cast(SchemeCandidates, {**own, **{k: v for k, v in named.items() if k in FROM_ENGINE}})


def resolved_scheme(scheme_id: str, scheme: SchemeFields, engine: Mapping[str, Any] | None) -> SchemeFields:
    """The scheme's data with every named and every `no_path` list resolved; the scheme's own object when it has
    neither."""
    candidates = scheme.get("candidates", [])
    if not any(c.get("no_path") or "list" in c for c in candidates):
        return scheme
    stated = (engine or {}).get("no_path"), (engine or {}).get("candidate_lists")
    return resolved_once(_RESOLVED, scheme_id, scheme, stated, lambda: _resolved(scheme, engine))


def _resolved(scheme: SchemeFields, engine: Mapping[str, Any] | None) -> SchemeFields:
    paths, lists = no_paths(engine), named_lists(engine)
    return cast(SchemeFields, {**scheme, "candidates": [resolve_candidates(resolve_named(c, lists), paths)
                                                        for c in scheme.get("candidates", [])]})


def resolved_schemes(index: Index) -> dict[str, SchemeFields]:
    """Scheme id -> its resolved data, for every scheme record."""
    return {r.id: resolved_scheme(r.id, r.data, engine_data(index, r.data.get("engine", ""))) for r in index.all("scheme")}


@dataclass(frozen=True)
class ListReference:
    """A reference a scheme makes through a named list it walks: scheme `source` names the list at `path`
    (candidates[n].list) and so reaches `target`, which the engine's list states at `stated` (a Link of the engine)."""

    source: str
    path: str
    target: str
    stated: Link

    @property
    def as_read(self) -> str:
        """The path the reference has in the scheme's list as the derivation reads it (candidates[n].kernels[k])."""
        return self.path.removesuffix("list") + self.stated.path.partition("].")[2]


def list_references_of(index: Index, scheme: Record) -> Iterator[ListReference]:
    """The references of the engine's candidate lists a scheme names, each as the scheme's (the first list of an id;
    check candidate-lists reports a second)."""
    named = [(n, c["list"]) for n, c in enumerate(scheme.data.get("candidates", [])) if "list" in c]
    engine = index.get("engine", scheme.data.get("engine", "")) if named else None
    if engine is None:
        return
    first: dict[str, int] = {}
    for i, entry in enumerate(engine.data.get("candidate_lists", [])):
        first.setdefault(entry["id"], i)
    stated = index.outgoing.get(engine.ref, [])
    for n, list_id in named:
        if list_id in first:
            prefix = f"candidate_lists[{first[list_id]}]."
            yield from (ListReference(scheme.ref, f"candidates[{n}].list", link.target, link)
                        for link in stated if link.path.startswith(prefix))


def list_references(index: Index) -> dict[str, tuple[ListReference, ...]]:
    """Per record ref, the schemes reaching it through a named list they walk, by (scheme, path, the engine's path):
    a kernel or source an engine's list cites is one every scheme naming the list selects or cites, as when each
    scheme typed the list."""
    found: dict[str, list[ListReference]] = {}
    for scheme in index.all("scheme"):
        for reference in list_references_of(index, scheme):
            found.setdefault(reference.target, []).append(reference)
    return {target: tuple(sorted(refs, key=lambda r: (r.source, r.path, r.stated.path)))
            for target, refs in sorted(found.items())}


def through_lists(links: list[Link], references: Mapping[str, tuple[ListReference, ...]], ref: str) -> tuple[ListReference, ...]:
    """The references to `ref` made through named lists, read only where an engine's candidate list is among the
    record's backlinks (so a page without one never reads the view)."""
    if not any(link.path.startswith("candidate_lists[") for link in links):
        return ()
    return references.get(ref, ())
