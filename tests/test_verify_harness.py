"""The verify harness on a fake engine tree: the probe runs in a subprocess with the system Python (no torch,
no engine install), its results fold into observed cells, and the comparison finds the crafted disagreements."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

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
    return _probe(JOBS)


FP4_CELL = dict(CELL, scheme="fake-fp4", variant="g16", hf_config={"quant_method": "fakefp4"}, quantization="fakefp4")
FP4_JOBS = [dict(job, cells=[FP4_CELL]) for job in JOBS] + [
    {"target": "sm70", "world": "optional-packages", "facts": {"platform": "cuda", "capability": 70},
     "packages": ["fastpkg"], "cells": [FP4_CELL]}]


def _probe(jobs: list[dict]) -> dict[str, dict]:
    env = dict(os.environ, PYTHONPATH=str(FAKE))
    out = subprocess.run([sys.executable, str(PROBE)], input=json.dumps({"jobs": jobs}), capture_output=True,
                         text=True, env=env, timeout=30, check=True).stdout
    cells, errors = fold(jobs, [json.loads(line) for line in out.splitlines()])
    assert errors == []
    return {c["target"]: c for c in cells}


@pytest.fixture(scope="module")
def observed_fp4() -> dict[str, dict]:
    return _probe(FP4_JOBS)


def test_a_kernel_built_by_the_schemes_constructor_is_observed_with_each_check_once(observed_fp4):
    cell = observed_fp4["sm90"]
    assert (cell["verdict"], cell["kernels"]) == ("runs-if", ["EmulationFp4Kernel", "NativeFp4Kernel"])
    bare, optional = cell["runs"]
    assert (bare["worlds"], bare["kernel"], bare["stage"]) == (["bare"], "EmulationFp4Kernel", "scheme")
    # The constructor's repeated is_supported is not recorded a second time.
    assert bare["candidates"] == ["NativeFp4Kernel.is_supported refused: fastpkg is not installed",
                                  "EmulationFp4Kernel.is_supported accepted"]
    # The simulated package's names are stable objects and its classes accept arguments: its feature probe passes.
    assert (optional["worlds"], optional["kernel"]) == (["optional-packages"], "NativeFp4Kernel")
    assert optional["candidates"] == ["NativeFp4Kernel.is_supported accepted"]


def test_the_schemes_gate_after_a_constructor_selection_is_the_refusal(observed_fp4):
    cell = observed_fp4["sm70"]
    assert cell["verdict"] == "refused"
    assert cell["reasons"] == ["Quantization scheme is not supported for the current GPU. Min capability: 75. "
                               "Current capability: 70."]
    assert [r["stage"] for r in cell["runs"]] == ["scheme"]


def test_a_platform_without_candidates_refuses_with_the_selectors_message(observed_fp4):
    assert observed_fp4["cpu"]["reasons"] == ["Failed to find a kernel that can implement the NVFP4 linear layer. "
                                              "Reasons: "]


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
    """(On the x86 CPU target the engine's config needs Triton, which the CPU install carries: the probe says so.)"""
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


def test_targets_on_a_platform_the_probe_cannot_simulate_get_no_job() -> None:
    from generators.verify.jobs import build_jobs

    targets = {"apple-gpu": {"platform": "metal"}, "x86": {"platform": "cpu", "cpu_arch": "x86_64"}}
    assert [(j.target, j.world) for j in build_jobs({}, targets, {})] == [("x86", "bare")]


def test_pip_check_conflicts_name_the_bound_to_reinstall_within():
    from generators.verify.environment import _CONFLICT
    report = ("transformers 5.17.0 has requirement huggingface-hub<2.0,>=1.5.0, but you have huggingface-hub 2.4.0.\n"
              "xgrammar 0.2.9 requires triton, which is not installed.\n")
    assert [(m.group(2), m.group(3)) for m in _CONFLICT.finditer(report)] == [("huggingface-hub<2.0,>=1.5.0",
                                                                               "huggingface-hub")]


def test_the_zen_cpu_platform_is_the_engines_own_choice_on_the_targets_cpuinfo(monkeypatch):
    # vLLM picks ZenCpuPlatform only when /proc/cpuinfo shows an AMD vendor and avx512: an AVX2-only Zen part stays
    # on CpuPlatform even with zentorch installed. The probe runs the engine's test on the simulated cpuinfo.
    import importlib.util
    import types

    spec = importlib.util.spec_from_file_location("atlas_probe", PROBE)
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    platforms = types.ModuleType("vllm.platforms")
    exec("def _is_amd_zen_cpu():\n    with open('/proc/cpuinfo') as f:\n        text = f.read()\n"
         "    return 'AuthenticAMD' in text and 'avx512' in text\n", platforms.__dict__)
    monkeypatch.setitem(sys.modules, "vllm", types.ModuleType("vllm"))
    monkeypatch.setitem(sys.modules, "vllm.platforms", platforms)
    detects = [probe._engine_detects_zen({"zen": zen, "isa": isa})
               for zen, isa in ((True, ["avx2"]), (True, ["avx2", "avx512f"]), (False, ["avx2", "avx512f"]))]
    assert detects == [False, True, False]
    assert not hasattr(platforms, "open")  # the engine's module is left as it was


def test_every_vllm_scheme_record_has_a_checkpoint_the_probe_can_load() -> None:
    """A vLLM scheme without a checkpoint builder is never run by `verify`, so its row would stay read from code."""
    import yaml

    from generators.verify.configs import UNPROBED, checkpoint_configs, checkpoint_tensors
    schemes = [yaml.safe_load(path.read_text(encoding="utf-8"))
               for path in sorted((Path(__file__).parent.parent / "records" / "schemes").glob("*.yaml"))]
    vllm = [scheme for scheme in schemes if scheme.get("engine") == "vllm"]
    assert len(vllm) >= 11
    # The probe loads one dense linear layer (configs.PREFIX); a scheme whose cells describe a MoE model's expert
    # layers (`layers: experts`, as vllm-mxfp4) has no checkpoint it could load, so its rows stay read from code.
    dense = [scheme for scheme in vllm if scheme.get("layers", "dense") == "dense"]
    missing = [scheme["class_name"] for scheme in dense
               if not checkpoint_configs(scheme["class_name"], scheme.get("config", {}))
               or not checkpoint_tensors(scheme["class_name"])]
    # a class the probe cannot write a checkpoint for says why (GGUF: a .gguf file, not a safetensors layer); an
    # entry no scheme needs any more is stale
    assert [name for name in missing if name not in UNPROBED] == []
    assert set(UNPROBED) <= set(missing)


def test_each_checkpoint_states_the_schemes_weight_width_and_zero_points() -> None:
    """An 8-bit or asymmetric scheme probed with a 4-bit symmetric checkpoint would be observed as another scheme."""
    from generators.verify.configs import checkpoint_configs
    widths = {"uint4b8": (4, True), "uint8b128": (8, True), "uint8": (8, False)}
    seen = set()
    for path in sorted((Path(__file__).parent.parent / "records" / "schemes").glob("*.yaml")):
        scheme = yaml.safe_load(path.read_text(encoding="utf-8"))
        config = scheme.get("config", {})
        if scheme.get("engine") != "vllm" or config.get("weight_type") not in widths \
                or config.get("activation_quantized"):
            continue
        bits, symmetric = widths[config["weight_type"]]
        for _, built, _ in checkpoint_configs(scheme["class_name"], config):
            if built["quant_method"] == "compressed-tensors":
                weights = built["config_groups"]["group_0"]["weights"]
                stated = (weights["num_bits"], weights["symmetric"])
            else:
                stated = (built["bits"], built.get("sym", not built.get("zero_point", False)))
            assert stated == (bits, symmetric), (path.name, stated)
            seen.add(config["weight_type"])
    assert seen == set(widths)


def test_the_fp8_method_with_per_tensor_weights_is_probed_without_weight_blocks() -> None:
    """vLLM's fp8 method serves both vllm-fp8-block and vllm-fp8; a per-tensor scheme probed with 128 x 128 weight blocks
    would observe the block path (another key, another list). One checkpoint per activation scheme the config lists."""
    from generators.verify.configs import checkpoint_configs
    root = Path(__file__).parent.parent / "records" / "schemes"
    tensor = yaml.safe_load((root / "vllm-fp8.yaml").read_text(encoding="utf-8"))
    block = yaml.safe_load((root / "vllm-fp8-block.yaml").read_text(encoding="utf-8"))
    assert [(variant, built) for variant, built, _ in checkpoint_configs(tensor["class_name"], tensor["config"])] == [
        ("tensor-static", {"quant_method": "fp8", "activation_scheme": "static"}),
        ("tensor-dynamic", {"quant_method": "fp8", "activation_scheme": "dynamic"})]
    assert [built["weight_block_size"] for _, built, _ in checkpoint_configs(block["class_name"], block["config"])] == [
        [128, 128]]
