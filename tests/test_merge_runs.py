"""Observed runs are stored merged, and a merged run claims only (world, variant) pairs that ran."""
from __future__ import annotations

from pathlib import Path

from generators.model.atlas import Atlas
from generators.verify.outcome import merge_runs

ROOT = Path(__file__).resolve().parent.parent


def _run(world: str, variant: str, kernel: str = "K") -> dict:
    return {"world": world, "variant": variant, "stage": "kernel-selection", "outcome": "selected", "kernel": kernel,
            "candidates": []}


def _pairs(entries: list[dict]) -> set[tuple[str, str, str]]:
    return {(w, v, e["kernel"]) for e in entries for w in e["worlds"] for v in e["variants"]}


def test_runs_that_did_not_cross_are_not_merged_into_a_product():
    runs = [_run("bare", "g128"), _run("optional-packages", "channel")]
    merged = merge_runs(runs)
    assert _pairs(merged) == {("bare", "g128", "K"), ("optional-packages", "channel", "K")}
    assert [(e["worlds"], e["variants"]) for e in merged] == [(["bare"], ["g128"]), (["optional-packages"], ["channel"])]


def test_a_full_product_is_stored_once_and_a_partial_one_keeps_each_world_exact():
    full = [_run(w, v) for v in ("g128", "channel") for w in ("bare", "optional-packages")]
    assert [(e["worlds"], e["variants"]) for e in merge_runs(full)] == [(["bare", "optional-packages"], ["g128", "channel"])]
    partial = full[:3] + [_run("optional-packages", "channel", "other")]
    assert _pairs(merge_runs(partial)) == {(r["world"], r["variant"], r["kernel"]) for r in partial}


def test_the_committed_observations_are_what_merging_their_runs_gives(real_atlas: Atlas):
    """Every committed observation, as the run's atlas loaded it (parsing the files again here took most of the test)."""
    observations = real_atlas.index.all("observation")
    assert len(observations) == len(list((ROOT / "records" / "observations").glob("*.yaml")))
    for observation in observations:
        for cell in observation.data["cells"]:
            runs = [{"world": w, "variant": v, **{k: x for k, x in e.items() if k not in ("worlds", "variants")}}
                    for e in cell["runs"] for v in e["variants"] for w in e["worlds"]]
            assert merge_runs(runs) == cell["runs"], (observation.id, cell["scheme"], cell["target"])
