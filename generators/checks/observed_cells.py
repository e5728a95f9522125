"""For the engine release the scheme records model, every observed cell (of the newest harness version observing that release) agrees with its derived cell unless a finding explains it; every explanation names an observed cell that still disagrees; a cell known by a run has an observation."""
from __future__ import annotations

from typing import Any
from collections.abc import Iterator

from ..model.atlas import Atlas
from ..problems import Problem
from ..model.records import Record
from ..verify.compare import disagreement
from ..derive.history import current_observations, kernel_classes
from .base import Check, at

NAME = "observed-cells"


def _modelled_release(atlas: Atlas, engine: str) -> str | None:
    record = atlas.index.get("engine", engine)
    return record.data.get("version_read") if record else None


def _explanations(atlas: Atlas) -> dict[tuple[str, str, str], tuple[Record, int]]:
    explained: dict[tuple[str, str, str], tuple[Record, int]] = {}
    for finding in atlas.index.all("finding"):
        for n, entry in enumerate(finding.data.get("explains_observations", [])):
            explained[(entry["observation"], entry["scheme"], entry["target"])] = (finding, n)
    return explained


def run(atlas: Atlas) -> Iterator[Problem]:
    explained = _explanations(atlas)
    class_of = kernel_classes(atlas.index)
    derived = atlas.views.cells
    seen: dict[tuple[str, str, str], str] = {}
    observed_pairs: set[tuple[str, str]] = set()
    for observation in current_observations(atlas.index).values():
        modelled = observation.data["release"] == _modelled_release(atlas, observation.data["engine"])
        for n, observed in enumerate(observation.data.get("cells", [])):
            key = (observed["scheme"], observed["target"])
            cell = derived.get(key)
            if cell is None:
                continue
            if modelled:
                observed_pairs.add(key)
            text = disagreement(cell, observed, class_of)
            seen[(observation.id, *key)] = text
            if modelled and text and (observation.id, *key) not in explained:
                yield at(observation, ("cells", n), NAME,
                         f"{key[0]} on {key[1]}: {text}; fix the kernel or scheme records, or add a finding whose "
                         f"explains_observations names ({observation.id}, {key[0]}, {key[1]})")
    for (obs, scheme, target), (finding, n) in sorted(explained.items()):
        if (obs, scheme, target) not in seen:
            yield at(finding, ("explains_observations", n), NAME,
                     f"{obs} has no observed cell for {scheme} on {target}; fix the ids")
        elif not seen[(obs, scheme, target)]:
            yield at(finding, ("explains_observations", n), NAME,
                     f"stale explanation: {obs} observes {scheme} on {target} as the records derive it; remove this entry")
    yield from _known_by_run_without_observation(atlas, derived, observed_pairs)


def _known_by_run_without_observation(atlas: Atlas, derived: dict[tuple[str, str], Any],
                                      observed: set[tuple[str, str]]) -> Iterator[Problem]:
    for (scheme, target), cell in sorted(derived.items()):
        if getattr(cell, "known_by", "") == "run" and (scheme, target) not in observed:
            yield at(atlas.index.must("scheme", scheme), (), NAME,
                     f"{scheme} on {target} is marked known by a run, but no observation of the modelled release covers it")


CHECK = Check(NAME, __doc__.strip(), "tree", run)
