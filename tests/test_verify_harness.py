"""The verify harness on a fake engine tree: the probe runs in a subprocess with the system Python (no torch,
no engine install), its results fold into observed cells, and the comparison finds the crafted disagreements."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generators.derive.cells import Attempt, Cell
from generators.verify.compare import disagreement
from generators.verify.outcome import fold
from generators.verify.run import PROBE

FAKE = Path(__file__).parent / "fixtures" / "fake_engine"
CELL = {"scheme": "fake-w4", "variant": "g128", "hf_config": {"quant_method": "fake", "bits": 4}, "dtype": "bfloat16",
        "prefix": "model.layers.0.mlp.down_proj", "shape": [256, 256], "quantization": "fake"}
JOBS = [
    {"target": "sm90", "world": "bare", "facts": {"platform": "cuda", "capability": 90}, "packages": [], "cells": [CELL]},
    {"target": "sm90", "world": "optional-packages", "facts": {"platform": "cuda", "capability": 90},
     "packages": ["fastpkg"], "cells": [CELL]},
    {"target": "sm70", "world": "bare", "facts": {"platform": "cuda", "capability": 70}, "packages": [], "cells": [CELL]},
    {"target": "cpu", "world": "bare", "facts": {"platform": "cpu", "cpu_arch": "x86_64", "isa": ["avx2"]},
     "packages": [], "cells": [CELL]},
]
CLASS_OF = {"fast": "FastKernel", "slow": "SlowKernel"}


@pytest.fixture(scope="module")
def observed() -> dict[str, dict]:
    env = dict(os.environ, PYTHONPATH=str(FAKE))
    out = subprocess.run([sys.executable, str(PROBE)], input=json.dumps({"jobs": JOBS}), capture_output=True,
                         text=True, env=env, timeout=30, check=True).stdout
    results = [json.loads(line) for line in out.splitlines()]
    cells, errors = fold(JOBS, results)
    assert errors == []
    return {c["target"]: c for c in cells}


def test_world_dependent_route_is_runs_if_with_both_worlds(observed):
    cell = observed["sm90"]
    assert (cell["verdict"], cell["kernel"], cell["kernels"]) == ("runs-if", "SlowKernel", ["FastKernel", "SlowKernel"])
    assert cell["conditions"] == ["world bare: SlowKernel", "world optional-packages: FastKernel"]
    bare = cell["runs"][0]
    assert (bare["worlds"], bare["variants"]) == (["bare"], ["g128"])
    assert bare["candidates"] == [
        "FastKernel.get_min_capability 90 accepted", "FastKernel.can_implement refused: fastpkg is not installed",
        "SlowKernel.get_min_capability 70 accepted", "SlowKernel.can_implement accepted"]


def test_capability_gate_of_the_config_refuses_with_the_engines_message(observed):
    cell = observed["sm70"]
    assert cell["verdict"] == "refused"
    assert cell["reasons"] == ["The quantization method fake is not supported for the current GPU. Minimum capability: 75. "
                               "Current capability: 70."]
    assert cell["runs"][0]["stage"] == "config-gate"


def test_selector_refusal_keeps_every_reason_in_order(observed):
    cell = observed["cpu"]
    assert cell["reasons"] == ["No kernel can implement the layer. Reasons: FastKernel: fast needs CUDA; "
                               "SlowKernel: slow needs CUDA"]


def _derived(verdict: str, *attempts: Attempt) -> Cell:
    kernel = next((a.kernel for a in attempts if a.outcome != "no"), None)
    return Cell("fake", "fake-w4", "t", verdict, kernel, (), attempts)


def test_agreement_and_each_kind_of_disagreement(observed):
    conditional = _derived("conditional", Attempt("fast", "conditional", conditions=("package fastpkg installed",)),
                           Attempt("slow", "yes"))
    assert disagreement(conditional, observed["sm90"], CLASS_OF) == ""
    only_slow = _derived("yes", Attempt("slow", "yes"))
    assert disagreement(only_slow, observed["sm90"], CLASS_OF) == (
        "the engine selects FastKernel (optional-packages/g128), which the records' candidate walk does not accept "
        "(it accepts SlowKernel)")
    assert disagreement(_derived("no", Attempt("slow", "no", "x")), observed["sm90"], CLASS_OF).startswith(
        "the engine selects FastKernel, SlowKernel (bare/g128, optional-packages/g128) but the records derive a refusal")
    assert disagreement(only_slow, observed["cpu"], CLASS_OF).startswith(
        "the engine refuses (ValueError: No kernel can implement the layer.")
    assert disagreement(_derived("no", Attempt("slow", "no", "x")), observed["cpu"], CLASS_OF) == ""


def test_a_substitute_schemes_kernel_is_what_a_default_run_may_select(observed):
    # vLLM on XPU hands an FP8 W8A8 checkpoint to CompressedTensorsW8A16Fp8 unless --linear-backend keeps the scheme:
    # a run with default settings selecting the substitute's kernel agrees with a cell derived under the setting.
    import dataclasses
    only_slow = _derived("runs-if", Attempt("slow", "yes"))
    assert disagreement(only_slow, observed["sm90"], CLASS_OF) != ""
    substituted = dataclasses.replace(only_slow, substitute_scheme="FastScheme", substitute_kernel="fast")
    assert disagreement(substituted, observed["sm90"], CLASS_OF) == ""


def test_each_amd_target_is_one_simulated_machine_with_its_gfx_id() -> None:
    from generators.verify.jobs import build_jobs

    targets = {"amd-gfx942": {"platform": "rocm", "gfx": "gfx942", "compute_capability": 94},
               "amd-gfx90a": {"platform": "rocm", "gfx": "gfx90a", "compute_capability": 90},
               "nvidia-sm90": {"platform": "cuda", "compute_capability": 90}}
    jobs = build_jobs({}, targets, {})
    assert [(j.target, j.world, j.facts) for j in jobs] == [
        ("amd-gfx90a", "bare", {"platform": "rocm", "gfx": "gfx90a"}),
        ("amd-gfx90a", "optional-packages", {"platform": "rocm", "gfx": "gfx90a"}),
        ("amd-gfx942", "bare", {"platform": "rocm", "gfx": "gfx942"}),
        ("amd-gfx942", "optional-packages", {"platform": "rocm", "gfx": "gfx942"}),
        ("nvidia-sm90", "bare", {"platform": "cuda", "capability": 90}),
        ("nvidia-sm90", "optional-packages", {"platform": "cuda", "capability": 90})]
    assert {j.as_dict()["target"] for j in jobs} == set(targets)  # observed cells carry the target id itself


def test_pip_check_conflicts_name_the_bound_to_reinstall_within():
    from generators.verify.environment import _CONFLICT
    report = ("transformers 5.17.0 has requirement huggingface-hub<2.0,>=1.5.0, but you have huggingface-hub 2.4.0.\n"
              "xgrammar 0.2.9 requires triton, which is not installed.\n")
    assert [(m.group(2), m.group(3)) for m in _CONFLICT.finditer(report)] == [("huggingface-hub<2.0,>=1.5.0",
                                                                               "huggingface-hub")]
