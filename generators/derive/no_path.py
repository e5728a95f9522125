"""A scheme's candidate list marked `no_path` reads its selector, failure message, locator and sources from its
engine's `no_path` entry for the platform.

That an engine has no kernel on a platform for any of its schemes (ExLlamaV2's layers call only its CUDA/HIP
extension) is a fact about the engine, stated once on its record; every stage that reads a list's text reads it
through `candidate_lists.resolved_scheme`, so no stage sees the marker.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..model.fields import EngineNoPath, SchemeCandidates
from .engine_stated import merged

_FROM_ENGINE = ("selector", "failure_message", "locator", "sources")


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
