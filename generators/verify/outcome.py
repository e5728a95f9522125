"""Observed outcomes: probe results folded into one cell per (scheme, target), in the verdict vocabulary.

Pure functions. A probe run is one (world, checkpoint variant) load; a cell's observed verdict is
`runs` when every run selected the same kernel, `runs-if` when the kernel or the refusal depends on the world
(an optional package) or the checkpoint variant (each named in `conditions`), and `refused` when
every run raised (its distinct messages are the `reasons`, in order). Selection cannot observe what a kernel
computes at run time, so `fallback` and `fails-at-runtime` are never observed; they stay readings from code.
"""
from __future__ import annotations

from typing import Any

HARNESS_VERSION = 6


def run_entry(job: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """One probe run as stored: where it ran and what the engine did."""
    entry: dict[str, Any] = {"world": job["world"]}
    entry.update(variant=result.get("variant", ""), stage=result.get("stage", ""))
    if result.get("outcome") == "selected":
        entry.update(outcome="selected", kernel=result["kernel"])
    elif result.get("outcome") == "loaded-without-selector":  # the linear method is its own kernel (no registry)
        entry.update(outcome="selected", kernel=result.get("quant_method", ""))
    else:
        entry.update(outcome="refused", error_type=result.get("error_type", ""), message=result.get("message", ""))
    if result.get("scheme_class"):
        entry["scheme_class"] = result["scheme_class"]
    entry["candidates"] = [candidate_text(c) for c in result.get("candidates", [])]
    return entry


def candidate_text(candidate: dict[str, Any]) -> str:
    """`Kernel.check accepted` or `Kernel.check refused: reason` (get_min_capability carries the value it returned)."""
    head = f"{candidate['kernel']}.{candidate['check']}"
    reason = candidate.get("reason")
    if candidate["check"] == "get_min_capability":
        return f"{head} {reason} {'accepted' if candidate['ok'] else 'refused'}"
    if candidate["ok"]:
        return f"{head} accepted"
    return f"{head} refused" + (f": {' '.join(str(reason).split())}" if reason not in (None, "") else "")


def merge_runs(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Runs that did the same thing, asked the same questions and got the same answers, stored once with the
    worlds and variants they cover (in first-seen order).

    A stored run claims every (world, variant) pair of its two lists, so runs are merged only into entries whose
    pairs all ran: within one outcome, the worlds that ran the same variants share an entry, and a world that ran
    other variants gets its own (no combination is claimed that was not run).
    """
    groups: dict[str, tuple[dict[str, Any], dict[Any, list[Any]]]] = {}
    for run in runs:
        body = {k: v for k, v in run.items() if k not in ("world", "variant")}
        _, variants_by_world = groups.setdefault(repr(sorted(body.items())), (body, {}))
        variants = variants_by_world.setdefault(run.get("world"), [])
        if run.get("variant") not in variants:
            variants.append(run.get("variant"))
    merged: list[dict[str, Any]] = []
    for body, variants_by_world in groups.values():
        entries: dict[tuple[Any, ...], dict[str, Any]] = {}
        for world, variants in variants_by_world.items():
            entry = entries.setdefault(tuple(sorted(map(repr, variants))), {
                "worlds": [], "variants": [v for v in variants if v is not None], **body})
            if world is not None:
                entry["worlds"].append(world)
        merged.extend(entries.values())
    return merged


def _dependence(runs: list[dict[str, Any]]) -> list[str]:
    conditions = []
    for axis, label in (("world", "world"), ("variant", "checkpoint variant")):
        by_axis: dict[str, set[str]] = {}
        for run in runs:
            by_axis.setdefault(run.get(axis, ""), set()).add(run.get("kernel") or "refused")
        if len({frozenset(v) for v in by_axis.values()}) > 1:
            conditions += [f"{label} {value}: {', '.join(sorted(kernels))}" for value, kernels in sorted(by_axis.items())]
    return conditions


def fold_cell(scheme: str, target: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The observed cell for one (scheme, target) from its runs."""
    selected = [r for r in runs if r["outcome"] == "selected"]
    kernels = sorted({r["kernel"] for r in selected})
    cell: dict[str, Any] = {"scheme": scheme, "target": target}
    if not selected:
        reasons = list(dict.fromkeys(r["message"] for r in runs))
        cell.update(verdict="refused", reasons=reasons)
    elif len(selected) == len(runs) and len(kernels) == 1:
        cell.update(verdict="runs", kernel=kernels[0])
    else:
        cell.update(verdict="runs-if", kernel=_bare_choice(selected, kernels), kernels=kernels,
                    conditions=_dependence(runs))
    cell["runs"] = merge_runs(runs)
    return cell


def _bare_choice(selected: list[dict[str, Any]], kernels: list[str]) -> str:
    bare = [r["kernel"] for r in selected if r["world"] == "bare"]
    return bare[0] if bare else kernels[0]


def fold(jobs: list[dict[str, Any]], results: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Observed cells in (scheme, target) order, and the job-level errors (a target the probe could not set up)."""
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    errors = []
    for job, result in zip(jobs, results):
        if "job_error" in result:
            errors.append(f"{job['target']} ({job['world']}): {result['job_error']}")
            continue
        for cell in result["cells"]:
            runs.setdefault((cell["scheme"], job["target"]), []).append(run_entry(job, cell))
    return [fold_cell(s, t, r) for (s, t), r in sorted(runs.items())], errors
