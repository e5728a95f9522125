"""Per-cell history: each (scheme, hardware target) cell's observed outcome in every engine release, and its flips.

Reads observation records only. For each (engine, release) the observation of the newest harness version is the
one used (`current_observations`: an older harness's record stays in the repository as evidence of what it saw,
but a newer harness supersedes it). Releases are ordered by their version numbers. A cell's outcomes are the
releases that observed it, oldest first; a flip is a change between two consecutive observed releases in the
verdict, the kernel chosen, the conditions of a runs-if cell, or the refusal (the stage it stopped at and the exception
type; a reworded message alone is not a flip), with why: the kernel that was chosen before and what the newer release's
selector answered for it, the gate that now refuses, the conditions it now depends on, or the older release's refusal.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from ..model.records import Record


_BUILD = re.compile(r"b([0-9]+)")


def release_key(release: str) -> tuple[tuple[int, str], ...]:
    """A sort key that orders releases by their numeric parts (0.9.0 before 0.10.0), and llama.cpp's build names
    (`b` and a number, the whole release) by their number (b9999 before b10040)."""
    build = _BUILD.fullmatch(release)
    if build:  # as the part "b" then the number: before every numbered release, as the whole name sorted before
        return ((-1, "b"), (int(build.group(1)), ""))
    return tuple((int(part), "") if part.isdigit() else (-1, part) for part in re.split(r"[.+-]", release))


def current_observations(index: Index) -> dict[tuple[str, str], Record]:
    """Per (engine, release), the observation of the newest harness version."""
    newest: dict[tuple[str, str], Record] = {}
    for record in index.all("observation"):
        key = (record.data["engine"], str(record.data["release"]))
        if key not in newest or record.data["harness_version"] > newest[key].data["harness_version"]:
            newest[key] = record
    return dict(sorted(newest.items(), key=lambda item: (item[0][0], release_key(item[0][1]))))


def modelled_observations(index: Index) -> dict[str, Record]:
    """Per engine, the newest-harness observation of the release its records model (`version_read`), if any."""
    releases = {e.id: str(e.data["version_read"]) for e in index.all("engine") if e.data.get("version_read")}
    return {engine: record for (engine, release), record in current_observations(index).items()
            if releases.get(engine) == release}


def kernel_classes(index: Index) -> dict[str, str]:
    """Kernel id -> the class name an observation reports for it (the id where the record names no class)."""
    return {r.id: r.data.get("class_name", r.id) for r in index.all("kernel")}


@dataclass(frozen=True)
class Outcome:
    """One release's observed outcome of a cell, in the verdict vocabulary."""

    release: str
    observation: str
    observed_on: str
    verdict: str
    kernel: str | None
    kernels: tuple[str, ...]
    conditions: tuple[str, ...]
    refusal: str  # the first refusal as `stage: ErrorType: message`, empty when every run selected a kernel
    candidates: tuple[str, ...]  # every selector answer across the runs, first-seen order

    @property
    def summary(self) -> str:
        """`runs via K`, `runs-if via K1, K2` or `refused at stage`."""
        if self.verdict == "refused":
            return f"refused ({self.refusal.split(':', 1)[0]})"
        return f"{self.verdict} via {', '.join(self.kernels or (self.kernel or '?',))}"


@dataclass(frozen=True)
class Flip:
    """A change of a cell between two consecutive observed releases, and why."""

    engine: str
    scheme: str
    target: str
    before: Outcome
    after: Outcome
    why: tuple[str, ...]

    @property
    def verdict_changed(self) -> bool:
        return self.before.verdict != self.after.verdict


@dataclass(frozen=True)
class CellHistory:
    """A cell's outcomes, oldest release first, and its flips."""

    engine: str
    scheme: str
    target: str
    outcomes: tuple[Outcome, ...]
    flips: tuple[Flip, ...]

    @property
    def stable(self) -> bool:
        return not self.flips


def outcome_of(observation: Record, cell: dict[str, Any]) -> Outcome:
    """A stored observed cell as an Outcome."""
    runs = cell.get("runs", [])
    refused = next((r for r in runs if r.get("outcome") == "refused"), None)
    refusal = ""
    if refused is not None:
        message = " ".join(str(refused.get("message", "")).split())
        refusal = f"{refused.get('stage', '')}: {refused.get('error_type', '')}: {message}"
    kernels = tuple(cell.get("kernels") or ([cell["kernel"]] if cell.get("kernel") else []))
    candidates = tuple(dict.fromkeys(c for r in runs for c in r.get("candidates", [])))
    data = observation.data
    return Outcome(str(data["release"]), observation.id, str(data.get("observed_on", "")), cell["verdict"],
                   cell.get("kernel"), kernels, tuple(cell.get("conditions", [])), refusal, candidates)


def flip_reasons(before: Outcome, after: Outcome) -> tuple[str, ...]:
    """Why two outcomes differ, in words (the selector's answer for the kernel chosen before, the gate that now
    refuses, the conditions); empty when they do not differ in verdict, kernel or where and how they refuse."""
    why: list[str] = []
    if before.kernels != after.kernels:
        for kernel in before.kernels:
            if kernel in after.kernels:
                continue
            answers = [c for c in after.candidates if c.startswith(kernel + ".") and " refused" in c]
            if answers:
                why.append(f"{after.release} refuses {answers[0]}")
            elif not any(c.startswith(kernel + ".") for c in after.candidates) and after.candidates:
                why.append(f"{kernel} is no longer asked in {after.release}")
    if after.refusal and _refusal_kind(after) != _refusal_kind(before):
        why.append(f"{after.release} refuses at {after.refusal}")
    elif before.refusal and not after.refusal:
        why.append(f"{before.release} refused at {before.refusal}")
    if before.conditions != after.conditions and after.verdict == "runs-if":
        why.append("now depends on " + "; ".join(after.conditions))
    if not why and (before.verdict != after.verdict or before.kernels != after.kernels):
        why.append("the selector's answers do not say why")
    return tuple(why)


def _refusal_kind(outcome: Outcome) -> str:
    """Where and how a refusal stops (stage and exception type); a reworded message alone is not a flip."""
    return ":".join(outcome.refusal.split(":", 2)[:2])


def cell_histories(index: Index) -> dict[tuple[str, str], CellHistory]:
    """Every observed (scheme, target) cell's history across the current observation of each release."""
    outcomes: dict[tuple[str, str, str], list[Outcome]] = {}
    for (engine, _), observation in current_observations(index).items():
        for cell in observation.data.get("cells", []):
            outcomes.setdefault((engine, cell["scheme"], cell["target"]), []).append(outcome_of(observation, cell))
    histories: dict[tuple[str, str], CellHistory] = {}
    for (engine, scheme, target), seen in sorted(outcomes.items()):
        flips = tuple(Flip(engine, scheme, target, a, b, why) for a, b in zip(seen, seen[1:])
                      if (why := flip_reasons(a, b)))
        histories[(scheme, target)] = CellHistory(engine, scheme, target, tuple(seen), flips)
    return histories


def all_flips(histories: dict[tuple[str, str], CellHistory]) -> list[Flip]:
    """Every flip, newest release first, then by scheme and target."""
    flips = [f for h in histories.values() for f in h.flips]
    return sorted(flips, key=lambda f: (tuple(-p for p, _ in release_key(f.after.release)), f.scheme, f.target))
