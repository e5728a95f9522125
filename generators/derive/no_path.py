"""A scheme's candidate list marked `no_path` reads its selector, failure message, locator and sources from its
engine's `no_path` entry for the platform.

That an engine has no kernel on a platform for any of its schemes (ExLlamaV2's layers call only its CUDA/HIP
extension) is a fact about the engine, stated once on its record; every stage that reads a list's text reads it
through `resolved_scheme`, so no stage sees the marker.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..last_few import LastFew
from ..model.fields import EngineNoPath, SchemeCandidates, SchemeFields
from ..model.index import Index
from .engine_stated import engine_data, merged, resolved_once

_FROM_ENGINE = ("selector", "failure_message", "locator", "sources")

# scheme id -> the last few (scheme data, its engine's no_path list, the resolved scheme): the same two objects resolve
# to the same object again, as the cell memo (cells._kept_cell) compares schemes by identity.
_RESOLVED: LastFew[tuple[SchemeFields, Any, SchemeFields]] = LastFew()


def no_paths(engine: Mapping[str, Any] | None) -> dict[str, EngineNoPath]:
    """An engine record's platforms without a path, by platform (the first entry where two name one; check no-path
    reports the second)."""
    found: dict[str, EngineNoPath] = {}
    for entry in (engine or {}).get("no_path", []):
        found.setdefault(entry["platform"], entry)
    return found


def resolve_candidates(candidates: SchemeCandidates, stated: Mapping[str, EngineNoPath]) -> SchemeCandidates:
    """The list with the text of its engine's entry for the platform; unchanged when it is not marked `no_path` (or
    the engine states no entry for the platform, which check no-path reports)."""
    entry = stated.get(candidates["platform"]) if candidates.get("no_path") else None
    if entry is None:
        return candidates
    return cast(SchemeCandidates, merged(candidates, "no_path", entry, _FROM_ENGINE))


def resolved_scheme(scheme_id: str, scheme: SchemeFields, engine: Mapping[str, Any] | None) -> SchemeFields:
    """The scheme's data with every `no_path` list resolved; the scheme's own object when it marks none."""
    candidates = scheme.get("candidates", [])
    if not any(c.get("no_path") for c in candidates):
        return scheme
    paths = no_paths(engine)
    return resolved_once(_RESOLVED, scheme_id, scheme, (engine or {}).get("no_path"), lambda: cast(
        SchemeFields, {**scheme, "candidates": [resolve_candidates(c, paths) for c in candidates]}))


def resolved_schemes(index: Index) -> dict[str, SchemeFields]:
    """Scheme id -> its resolved data, for every scheme record."""
    return {r.id: resolved_scheme(r.id, r.data, engine_data(index, r.data.get("engine", ""))) for r in index.all("scheme")}
