"""Derivation of one support cell from dispatch rules, case by case."""
from __future__ import annotations

import pytest

from generators.derive.cells import Build, Install, derive_cell
from generators.derive.inferred_steps import InferredStep
from generators.model.verdicts import KNOWN_BY_MEANINGS, KnownBy, known_by_said

GPU90 = {"platform": "cuda", "compute_capability": 90}
GPU80 = {"platform": "cuda", "compute_capability": 80}
X86_AVX2 = {"platform": "cpu", "cpu_arch": "x86_64", "isa_features": ["avx2"]}
X86_AVX512 = {"platform": "cpu", "cpu_arch": "x86_64", "isa_features": ["avx2", "avx512f"]}
CONFIG = {"weight_type": "int4", "activation_types": ["float16", "bfloat16"], "group_sizes": [128],
          "activation_quantized": False}


def scheme(*kernels: str, platform: str = "cuda", gate: dict | None = None) -> dict:
    data = {"engine": "e", "config": CONFIG, "candidates": [{"platform": platform, "kernels": list(kernels),
                                                            "failure_message": "no kernel"}]}
    if gate:
        data["capability_gate"] = gate
    return data


def req(check: str, reason: str, **kw) -> dict:
    return {"check": check, "reason": reason, **kw}


def test_first_accepting_kernel_wins_and_earlier_reasons_are_kept():
    kernels = {"a": {"requirements": [req("capability-exact", "needs 90", value=90)]},
               "b": {"requirements": [req("capability-min", "needs 80", value=80)]}}
    cell = derive_cell("s", scheme("a", "b"), "t", GPU80, kernels)
    assert (cell.verdict, cell.kernel, cell.reasons) == ("runs", "b", ("a: needs 90",))


def test_every_candidate_declines_gives_no_with_every_reason_in_order():
    kernels = {"a": {"requirements": [req("weight-type", "bad weight", values=["uint4b8"])]},
               "b": {"requirements": [req("activation-quantized", "needs quantized activations")]}}
    cell = derive_cell("s", scheme("a", "b"), "t", GPU90, kernels)
    assert (cell.verdict, cell.reasons, cell.failure_message) == ("refused", ("a: bad weight", "b: needs quantized activations"), "no kernel")


def test_partial_activation_overlap_and_packages_make_it_conditional_then_fall_through():
    kernels = {"a": {"requirements": [req("package", "needs pkg", value="pkg")]},
               "b": {"requirements": [req("activation-type", "fp16 only", values=["float16"])]},
               "c": {"requirements": []}}
    cell = derive_cell("s", scheme("a", "b", "c"), "t", GPU90, kernels)
    # 'c' takes what the conditions leave, so the conditions only choose the kernel: runs
    assert (cell.verdict, cell.kernel, cell.conditions) == ("runs", "a", ("package pkg installed",))
    assert [(a.kernel, a.outcome, a.conditions) for a in cell.attempts] == [
        ("a", "conditional", ("package pkg installed",)), ("b", "conditional", ("activation dtype in {float16}",)),
        ("c", "yes", ())]


def test_a_check_that_is_the_opposite_of_one_that_failed_holds_on_the_way_on():
    # vLLM's per-tensor torch FP8 kernel needs both scales per-tensor; the channel-wise one refuses exactly that, so
    # whichever way the checkpoint goes one of them runs: runs, not runs-if with a refusal no checkpoint can reach.
    both = "requires per tensor scales."
    kernels = {"pt": {"requirements": [req("other", both)]},
               "cw": {"requirements": [req("other", "cannot be per tensor.", opposite_of=both)]},
               "rw": {"requirements": [req("other", "cannot be per tensor.")]}}
    cell = derive_cell("s", scheme("pt", "cw"), "t", GPU90, kernels)
    assert (cell.verdict, cell.kernel) == ("runs", "pt")
    assert [(o.verdict, o.selected, o.conditions) for o in cell.otherwise] == [("runs", "cw", ())]
    # without the declared opposite the walk cannot know, and a refusal stays possible
    plain = derive_cell("s", scheme("pt", "rw"), "t", GPU90, kernels)
    assert (plain.verdict, [o.verdict for o in plain.otherwise]) == ("runs-if", ["runs-if", "refused"])
    # a kernel declined for two conditions does not say which failed, so the opposite is not known to hold
    kernels["pt"]["requirements"].insert(0, req("package", "needs pkg", value="pkg"))
    either = derive_cell("s", scheme("pt", "cw"), "t", GPU90, kernels)
    assert (either.verdict, [o.verdict for o in either.otherwise]) == ("runs-if", ["runs-if", "refused"])


def test_scale_granularity_and_quantized_dtype_checks_resolve_against_what_the_scheme_states():
    # vLLM's XPU FP8 kernel accepts tensor/channel weight keys and tensor/token activation keys of an FP8 dtype; the
    # compressed-tensors FP8 scheme hands over only such keys, so no checkpoint it describes can fail these checks.
    kernels = {"x": {"activation_handling": "quantized", "requirements": [
        req("weight-scales", "only per-channel and per-tensor", values=["tensor", "channel"]),
        req("activation-scales", "only per-tensor and per-token", values=["static-tensor", "dynamic-token"]),
        req("activation-quant-type", "only FP8 activations", values=["float8_e5m2", "float8_e4m3fn"])]}}
    fp8 = {**CONFIG, "activation_quantized": True, "weight_scales": ["tensor", "channel"],
           "activation_scales": ["static-tensor", "dynamic-token"], "activation_quant_type": "float8_e4m3fn"}
    def cell(**config):
        return derive_cell("s", {**scheme("x"), "config": {**fp8, **config}}, "t", GPU90, kernels)
    assert (cell().verdict, cell().conditions) == ("runs", ())
    assert (cell(weight_scales=["block"]).verdict, cell(weight_scales=["block"]).reasons) == (
        "refused", ("x: only per-channel and per-tensor",))
    assert cell(activation_quant_type="int8").reasons == ("x: only FP8 activations",)
    assert cell(activation_scales=["dynamic-token", "dynamic-tensor"]).conditions == (
        "activation scales in {dynamic-token}",)
    unstated = {k: v for k, v in fp8.items() if k != "weight_scales"}  # a scheme that does not say: a condition
    plain = derive_cell("s", {**scheme("x"), "config": unstated}, "t", GPU90, kernels)
    assert (plain.verdict, plain.conditions) == (
        "runs-if", ("the checkpoint passes the check that otherwise refuses with “only per-channel and per-tensor”",))


def test_a_candidate_list_states_the_activation_keys_handed_over_on_its_platform():
    # vLLM's fp8 method asks for dynamic per-token scales only where CUTLASS FP8 is supported (CUDA), per-tensor ones
    # elsewhere: a kernel that needs per-tensor activation scales is a condition on CUDA and a plain YES on CPU.
    kernels = {"pt": {"activation_handling": "quantized", "requirements": [
        req("activation-scales", "requires per tensor scales.", values=["static-tensor", "dynamic-tensor"])]}}
    fp8 = {**CONFIG, "activation_quantized": True, "activation_scales": ["static-tensor", "dynamic-token"]}
    data = {"engine": "e", "config": fp8, "candidates": [
        {"platform": "cuda", "kernels": ["pt"], "failure_message": "no kernel"},
        {"platform": "cpu", "kernels": ["pt"], "failure_message": "no kernel",
         "activation_scales": ["static-tensor", "dynamic-tensor"]}]}
    on_gpu = derive_cell("s", data, "t", GPU90, kernels)
    on_cpu = derive_cell("s", data, "t", X86_AVX2, kernels)
    assert (on_gpu.verdict, on_gpu.conditions) == ("runs-if", ("activation scales in {static-tensor}",))
    assert (on_cpu.verdict, on_cpu.conditions) == ("runs", ())


def test_keys_chosen_by_a_kernels_support_change_where_that_kernel_is_unsupported():
    # vLLM's fp8 method asks cutlass_fp8_supported() (CUTLASS FP8's own support test) before the walk: where it fails,
    # every kernel is handed a dynamic per-tensor key. A build that lacks CUTLASS FP8 (its condition) therefore reaches
    # the per-tensor torch kernel for a dynamic checkpoint too, not the channel-wise one; a capability below CUTLASS's
    # minimum hands the per-tensor keys to the whole walk.
    kernels = {
        "cutlass": {"activation_handling": "quantized", "requirements": [
            req("capability-min", "CUTLASS FP8 kernels not available", value=89),
            req("other", "CUTLASS FP8 kernels not available", value="CUDA toolkit version",
                condition="built with CUDA 12.4")]},
        "pt": {"activation_handling": "quantized", "requirements": [
            req("activation-scales", "requires per tensor activation and weight scales.",
                values=["static-tensor", "dynamic-tensor"])]},
        "cw": {"activation_handling": "quantized", "requirements": [
            req("other", "cannot be used with per tensor activation and weight scales.", value="not both per-tensor",
                opposite_of="requires per tensor activation and weight scales.")]}}
    fp8 = {**CONFIG, "activation_quantized": True, "activation_scales": ["static-tensor", "dynamic-token"]}
    listed = {"platform": "cuda", "kernels": ["cutlass", "pt", "cw"], "failure_message": "no kernel"}
    without = {"kernel": "cutlass", "activation_scales": ["static-tensor", "dynamic-tensor"], "locator": "x",
               "sources": [{"source": "s"}]}
    before = derive_cell("s", {"engine": "e", "config": fp8, "candidates": [listed]}, "t", GPU90, kernels)
    [step] = derive_cell("s", {"engine": "e", "config": fp8,
                               "candidates": [{**listed, "activation_scales_without": without}]},
                         "t", GPU90, kernels).otherwise
    assert [(s.kernel, s.selected, s.conditions) for s in before.otherwise] == [
        ("cutlass", "pt", ("activation scales in {static-tensor}",)), ("pt", "cw", ())]
    assert (step.kernel, step.unmet, step.verdict, step.selected, step.conditions) == (
        "cutlass", ("built with CUDA 12.4",), "runs", "pt", ())
    low = derive_cell("s", {"engine": "e", "config": fp8,
                            "candidates": [{**listed, "activation_scales_without": without}]}, "t", GPU80, kernels)
    assert (low.verdict, low.kernel, low.conditions) == ("runs", "pt", ())
    # a list whose keys do not depend on the kernel (compressed-tensors hands per-token keys whatever CUTLASS does)
    plain = derive_cell("s", {"engine": "e", "config": fp8, "candidates": [listed]}, "t", GPU80, kernels)
    assert (plain.verdict, plain.kernel, plain.conditions) == ("runs", "pt", ("activation scales in {static-tensor}",))


def test_one_engine_check_stated_as_several_conditions_is_known_to_fail_on_the_way_on():
    # vLLM's per-tensor torch FP8 kernel tests both scale keys in one check with one message; the atlas states it as a
    # weight-scales and an activation-scales check. Declined for them, that message is known to fail, so the
    # channel-wise kernel (its opposite) holds, and the refusal says the message once.
    both = "requires per tensor activation and weight scales."
    kernels = {"pt": {"activation_handling": "quantized", "requirements": [
                   req("weight-scales", both, values=["tensor"]),
                   req("activation-scales", both, values=["static-tensor", "dynamic-tensor"])]},
               "cw": {"activation_handling": "quantized", "requirements": [
                   req("other", "cannot be per tensor.", opposite_of=both)]}}
    fp8 = {**CONFIG, "activation_quantized": True, "weight_scales": ["tensor", "channel"],
           "activation_scales": ["static-tensor", "dynamic-token"]}
    cell = derive_cell("s", {**scheme("pt", "cw"), "config": fp8}, "t", GPU90, kernels)
    assert (cell.verdict, cell.kernel, cell.conditions) == (
        "runs", "pt", ("weight scales in {tensor}", "activation scales in {static-tensor}"))
    assert [(o.verdict, o.selected, o.conditions) for o in cell.otherwise] == [("runs", "cw", ())]
    alone = derive_cell("s", {**scheme("pt"), "config": fp8}, "t", GPU90, kernels)
    assert alone.otherwise[0].reasons == (
        "pt: requires per tensor activation and weight scales. (unless weight scales in {tensor} and activation "
        "scales in {static-tensor})",)
    kernels["pt"]["requirements"][1]["reason"] = "another check."  # two messages: which one failed is not known
    two = derive_cell("s", {**scheme("pt", "cw"), "config": fp8}, "t", GPU90, kernels)
    assert [o.verdict for o in two.otherwise] == ["runs-if", "refused"]
    assert two.otherwise[1].reasons[0] == (
        "pt: whichever fails first of: requires per tensor activation and weight scales. (unless weight scales in "
        "{tensor}); another check. (unless activation scales in {static-tensor})")


def test_one_message_on_a_different_check_is_not_known_to_fail_on_the_way_on():
    # vLLM words the row-wise torch FP8 kernel's refusal (a per-tensor key on either side) with the message of the
    # channel-wise kernel's refusal (per-tensor keys on both sides). Past the row-wise kernel's refusal the
    # channel-wise one still takes a checkpoint with per-tensor weights and per-token activations: a condition, not
    # a refusal.
    either = "cannot be used with per tensor activation and weight scales."
    kernels = {"rw": {"activation_handling": "quantized", "requirements": [
                   req("weight-scales", either, values=["channel", "group", "block"]),
                   req("activation-scales", either, values=["static-token", "dynamic-token"])]},
               "cw": {"activation_handling": "quantized", "requirements": [
                   req("other", either, opposite_of="requires per tensor activation and weight scales.")]}}
    fp8 = {**CONFIG, "activation_quantized": True, "weight_scales": ["tensor", "channel"],
           "activation_scales": ["static-tensor", "dynamic-token"]}
    cell = derive_cell("s", {**scheme("rw", "cw"), "config": fp8}, "t", GPU90, kernels)
    assert (cell.verdict, cell.kernel) == ("runs-if", "rw")
    assert [(o.verdict, o.selected, o.conditions) for o in cell.otherwise][0] == (
        "runs-if", "cw", ("the checkpoint passes the check that otherwise refuses with “" + either + "”",))
    # the same check stated the same way on a later kernel is still known to fail there
    kernels["cw"] = kernels["rw"]
    again = derive_cell("s", {**scheme("rw", "cw"), "config": fp8}, "t", GPU90, kernels)
    assert [o.verdict for o in again.otherwise] == ["refused"]


def test_a_kernel_declined_for_its_activation_dtypes_leaves_only_the_others_on_the_way_on():
    # vLLM's ROCm WNA16 list: Triton takes float16/bfloat16, Conch any dtype with a package, Exllama float16 only.
    # Past Triton's refusal the model runs in float32, so Exllama cannot take it: no step through Exllama.
    kernels = {"triton": {"requirements": [req("activation-type", "16-bit only", values=["float16", "bfloat16"])]},
               "conch": {"requirements": [req("package", "needs conch", value="conch")]},
               "exllama": {"requirements": [req("activation-type", "float16 only", values=["float16"])]}}
    data = scheme("triton", "conch", "exllama")
    data["config"] = {**CONFIG, "activation_types": ["float16", "bfloat16", "float32"]}
    cell = derive_cell("s", data, "t", GPU90, kernels)
    assert [(o.kernel, o.verdict, o.selected) for o in cell.otherwise] == [
        ("triton", "runs-if", "conch"), ("conch", "refused", None)]
    assert cell.otherwise[1].reasons[-1] == "exllama: float16 only"
    # a kernel declined for another check alone leaves every dtype: Exllama stays a way on
    kernels["triton"]["requirements"] = [req("package", "needs triton", value="triton")]
    cell = derive_cell("s", data, "t", GPU90, kernels)
    assert [(o.kernel, o.verdict, o.selected) for o in cell.otherwise] == [
        ("triton", "runs-if", "conch"), ("conch", "runs-if", "exllama"), ("exllama", "refused", None)]


def test_shape_checks_are_limits_not_conditions():
    kernels = {"a": {"requirements": [req("shape", "K must divide by 128")]}}
    cell = derive_cell("s", scheme("a"), "t", GPU90, kernels)
    assert (cell.verdict, cell.attempts[0].limits[0]) == (
        "runs", "the layer shape passes the check that otherwise refuses with “K must divide by 128”")


def test_capability_gate_exact_and_min():
    kernels = {"a": {"requirements": []}}
    assert derive_cell("s", scheme("a", gate={"exact": 90, "reason": "not 90"}), "t", GPU80, kernels).gate == "not 90"
    assert derive_cell("s", scheme("a", gate={"exact": 90}), "t", GPU90, kernels).verdict == "runs"
    assert derive_cell("s", scheme("a", gate={"min": 89}), "t", GPU80, kernels).reasons == (
        "scheme requires compute capability >= 89, target has 80",)


def test_a_platform_without_a_capability_passes_a_minimum_and_fails_an_exact_gate():
    # vLLM's _check_scheme_supported returns `not match_exact` when the platform reports no capability (CPU, XPU).
    kernels = {"a": {"requirements": []}}
    exact = {"exact": 90, "platforms": ["cuda", "cpu"], "reason": "falls through"}
    assert derive_cell("s", scheme("a", platform="cpu", gate=exact), "t", X86_AVX2, kernels).reasons == ("falls through",)
    assert derive_cell("s", scheme("a", platform="cpu", gate={**exact, "platforms": ["cuda"]}), "t", X86_AVX2,
                       kernels).verdict == "runs"
    assert derive_cell("s", scheme("a", platform="cpu", gate={"min": 75, "platforms": ["cpu"]}), "t", X86_AVX2,
                       kernels).verdict == "runs"


def test_a_gate_the_engine_tests_after_packages_says_first_what_a_default_install_without_them_sees():
    # transformers' FBGEMM FP8 quantizer tests fbgemm-gpu and accelerate before the capability: a default install
    # without fbgemm-gpu stops with that package's message; the capability's comes only once it is installed.
    kernels = {"a": {"requirements": [req("package", "needs pkg", value="pkg", met_by_install=["pkg"]),
                                      req("package", "needs acc", value="acc", met_by_install=["acc"])]}}
    gate = {"min": 90, "reason": "needs 9.0", "after_installs": ["pkg", "acc"]}
    without_pkg = Install("pip install e", {"acc": "a requirement"}, {"pkg": "in no extra"})
    cell = derive_cell("s", scheme("a", gate=gate), "t", GPU80, kernels, without_pkg)
    assert (cell.verdict, cell.gate, len(cell.reasons)) == ("refused", "needs 9.0", 2)
    assert cell.reasons[0].endswith(": needs pkg") and "package pkg installed" in cell.reasons[0]
    assert cell.reasons[1].endswith(": needs 9.0")
    # each package the install lacks, in the engine's order, then the gate
    neither = Install("pip install e", {}, {"pkg": "in no extra", "acc": "in no extra"})
    reasons = derive_cell("s", scheme("a", gate=gate), "t", GPU80, kernels, neither).reasons
    assert [r.rsplit(": ", 1)[1] for r in reasons] == ["needs pkg", "needs acc", "needs 9.0"]
    # with the packages installed, or a gate tested first, or a gate that passes: as before
    both = Install("pip install e", {"pkg": "x", "acc": "y"})
    assert derive_cell("s", scheme("a", gate=gate), "t", GPU80, kernels, both).reasons == ("needs 9.0",)
    first = {k: v for k, v in gate.items() if k != "after_installs"}
    assert derive_cell("s", scheme("a", gate=first), "t", GPU80, kernels, without_pkg).reasons == ("needs 9.0",)
    assert derive_cell("s", scheme("a", gate=gate), "t", GPU90, kernels, without_pkg).verdict == "runs-if"


def test_requirements_scoped_by_when_apply_only_there():
    kernels = {"a": {"requirements": [req("platform", "cpu only", values=["cpu"]),
                                      req("op", "arm op", value="dyn_quant", when={"cpu_arch": ["aarch64"]})]}}
    assert derive_cell("s", scheme("a", platform="cpu"), "t", X86_AVX2, kernels).verdict == "runs"
    arm = {"platform": "cpu", "cpu_arch": "aarch64", "isa_features": ["neon"]}
    assert derive_cell("s", scheme("a", platform="cpu"), "t", arm, kernels).conditions == ("op dyn_quant available",)


def test_a_check_scoped_to_some_of_the_schemes_activation_dtypes_binds_only_for_those():
    # vLLM's Machete takes group size 64 with 16-bit activations only: a float32 model's list must not bind a bfloat16 one.
    machete = {"requirements": [req("group-size", "sizes 16-bit", values=[-1, 64, 128],
                                    when={"activation_types": ["float16", "bfloat16"]}),
                                req("group-size", "sizes other", values=[-1, 128], when={"activation_types": ["float32"]})]}
    data = scheme("m")
    data["config"] = {**CONFIG, "activation_types": ["bfloat16", "float32"], "group_sizes": [32, 64, 128]}
    assert derive_cell("s", data, "t", GPU90, {"m": machete}).conditions == (
        "group size in {64, 128} (for activation dtype in {bfloat16})",
        "group size in {128} (for activation dtype in {float32})")
    # A check that fails for the dtypes it is scoped to leaves the others; one covering every dtype is as before.
    data["config"] = {**data["config"], "group_sizes": [64]}
    assert derive_cell("s", data, "t", GPU90, {"m": machete}).conditions == ("activation dtype in {bfloat16}",)
    data["config"] = {**data["config"], "activation_types": ["float32"]}
    assert derive_cell("s", data, "t", GPU90, {"m": machete}).reasons == ("m: sizes other",)


def test_a_group_size_bound_accepts_every_size_from_it_and_no_list_stands_in_for_it():
    # vLLM's ExllamaLinearKernel refuses only group_size <= 0 (channelwise -1): any positive size passes, 256 and 512
    # included, which a list of common sizes would have refused.
    exllama = {"requirements": [req("group-size", "must be positive", at_least=1)]}
    data = scheme("x")
    data["config"] = {**CONFIG, "group_sizes": [-1, 32, 512]}
    assert derive_cell("s", data, "t", GPU90, {"x": exllama}).conditions == ("group size in {32, 512}",)
    data["config"] = {**CONFIG, "group_sizes": [256, 512]}
    assert derive_cell("s", data, "t", GPU90, {"x": exllama}).verdict == "runs"
    data["config"] = {**CONFIG, "group_sizes": [-1]}
    assert derive_cell("s", data, "t", GPU90, {"x": exllama}).reasons == ("x: must be positive",)
    data["config"] = {key: value for key, value in CONFIG.items() if key != "group_sizes"}
    assert derive_cell("s", data, "t", GPU90, {"x": exllama}).conditions == ("group size of at least 1",)


def test_a_group_size_divisor_accepts_every_size_it_divides_and_the_values_listed_beside_it():
    # vLLM's CPUWNA16LinearKernel refuses a group_size that is neither -1 nor even: 16 and 512 pass, which the list of
    # common sizes it was typed as (-1 to 256) refused; 96 is even too, 33 is not, and -1 passes only by being listed.
    cpu = {"requirements": [req("group-size", "multiples of 2", values=[-1], multiple_of=2)]}
    data = scheme("c", platform="cpu")
    data["config"] = {**CONFIG, "group_sizes": [-1, 16, 96, 512]}
    assert derive_cell("s", data, "t", X86_AVX512, {"c": cpu}).verdict == "runs"
    data["config"] = {**CONFIG, "group_sizes": [-1, 33]}
    assert derive_cell("s", data, "t", X86_AVX512, {"c": cpu}).conditions == ("group size in {-1}",)
    data["config"] = {**CONFIG, "group_sizes": [33]}
    assert derive_cell("s", data, "t", X86_AVX512, {"c": cpu}).reasons == ("c: multiples of 2",)
    unlisted = {"requirements": [req("group-size", "multiples of 32", multiple_of=32)]}
    data["config"] = {**CONFIG, "group_sizes": [-1, 64]}
    assert derive_cell("s", data, "t", X86_AVX512, {"c": unlisted}).conditions == ("group size in {64}",)
    data["config"] = {key: value for key, value in CONFIG.items() if key != "group_sizes"}
    assert derive_cell("s", data, "t", X86_AVX512, {"c": cpu}).conditions == ("group size -1, or any multiple of 2",)
    assert derive_cell("s", data, "t", X86_AVX512, {"c": unlisted}).conditions == ("group size any multiple of 32",)


def test_a_positive_group_size_is_selected_and_a_multiple_the_op_tests_after_selection_decides_if_it_runs():
    # vLLM's RDNA3W4A16LinearKernel takes any positive group size (can_implement) and gptq_gemm_rdna3 then refuses one
    # that is no multiple of 32 below 12 rows: 16 is selected and fails, 512 runs, -1 is refused at selection.
    rdna3 = {"requirements": [req("group-size", "channelwise", at_least=1),
                              req("group-size", "multiple of 32", multiple_of=32, after_selection=True)]}
    data = scheme("r")
    data["config"] = {**CONFIG, "group_sizes": [16]}
    cell = derive_cell("s", data, "t", GPU90, {"r": rdna3})
    assert (cell.verdict, cell.kernel, cell.attempts[0].reason) == ("fails-at-runtime", "r", "multiple of 32")
    data["config"] = {**CONFIG, "group_sizes": [512]}
    assert derive_cell("s", data, "t", GPU90, {"r": rdna3}).verdict == "runs"
    data["config"] = {**CONFIG, "group_sizes": [-1]}
    assert derive_cell("s", data, "t", GPU90, {"r": rdna3}).reasons == ("r: channelwise",)


def test_gate_outside_can_implement_fails_after_selection():
    gate = {"description": "op only in AVX512 builds", "when": {"cpu_arch": ["x86_64"], "isa_features": ["avx512f"]},
            "effect": "requires"}
    kernels = {"a": {"requirements": [], "external_gates": [gate]}}
    cell = derive_cell("s", scheme("a", platform="cpu"), "t", X86_AVX2, kernels)
    assert (cell.verdict, cell.kernel, cell.attempts[0].reason, cell.attempts[0].after_selection) == (
        "fails-at-runtime", "a", "op only in AVX512 builds", True)
    assert derive_cell("s", scheme("a", platform="cpu"), "t", X86_AVX512, kernels).verdict == "runs"
    excludes = {"description": "not on x86", "when": {"cpu_arch": ["x86_64"]}, "effect": "excludes"}
    kernels = {"a": {"requirements": [], "external_gates": [excludes]}}
    assert derive_cell("s", scheme("a", platform="cpu"), "t", X86_AVX512, kernels).verdict == "fails-at-runtime"


def test_a_conditional_kernel_that_fails_after_selection_fails_only_where_its_condition_holds():
    # vLLM's FlashInferMxFp4LinearKernel on SM120: selected when FlashInfer's CuTe-DSL module is usable, then fails
    # in FlashInfer; without it the selector goes on to Marlin, which the engine's own selection shows.
    gate = {"description": "fails in the package", "when": {"platform": ["cuda"]}, "effect": "excludes"}
    kernels = {"a": {"requirements": [req("package", "needs pkg", value="pkg")], "external_gates": [gate]},
               "b": {"requirements": []}}
    cell = derive_cell("s", scheme("a", "b"), "t", GPU90, kernels)
    assert (cell.verdict, cell.kernel, cell.conditions) == ("fails-at-runtime", "a", ("package pkg installed",))
    assert [(a.kernel, a.outcome, a.after_selection) for a in cell.attempts] == [("a", "no", True), ("b", "yes", False)]
    assert [(o.kernel, o.unmet, o.verdict, o.selected) for o in cell.otherwise] == [
        ("a", ("package pkg installed",), "runs", "b")]
    unconditional = {**kernels, "a": {"requirements": [], "external_gates": [gate]}}
    cell = derive_cell("s", scheme("a", "b"), "t", GPU90, unconditional)
    assert (cell.verdict, cell.conditions, len(cell.attempts), cell.otherwise) == ("fails-at-runtime", (), 1, ())


def test_a_kernels_dtype_requirements_hold_together():
    # vLLM's Marlin MXFP8 (0.33.0): float32 stops in marlin_gemm, float16 finds no compiled kernel. Written as two
    # after-selection requirements, {float16, bfloat16} and {bfloat16, float32}, only bfloat16 meets both: on a target
    # without bfloat16 the kernel is selected and fails whatever the dtype, not a choice between two ways round.
    def dtype(values: list[str], reason: str) -> dict:
        return req("activation-type", reason, values=values, after_selection=True)

    kernels = {"a": {"requirements": [dtype(["float16", "bfloat16"], "f32 fails"),
                                      dtype(["bfloat16", "float32"], "f16 fails")]}}
    data = {**scheme("a"), "config": {**CONFIG, "activation_types": ["float16", "float32"]}}  # no bfloat16 here
    cell = derive_cell("s", data, "t", GPU80, kernels)
    assert (cell.verdict, cell.kernel, cell.attempts[0].reason) == ("fails-at-runtime", "a", "f16 fails")
    both = {**data, "config": {**CONFIG, "activation_types": ["float16", "bfloat16", "float32"]}}
    cell = derive_cell("s", both, "t", GPU80, kernels)
    assert (cell.verdict, cell.conditions) == ("runs-if", ("activation dtype in {float16, bfloat16}",
                                                           "activation dtype in {bfloat16}"))
    scoped = {"a": {"requirements": [dtype(["float16", "bfloat16"], "f32 fails"),  # binds float16 only: no narrowing
                                     {**dtype(["bfloat16"], "f16 fails"), "when": {"activation_types": ["float16"]}}]}}
    assert derive_cell("s", both, "t", GPU80, scoped).conditions[0] == "activation dtype in {float16, bfloat16}"
    declining = {"a": {"requirements": [req("activation-type", "no f32", values=["float16", "bfloat16"]),
                                        dtype(["bfloat16", "float32"], "f16 fails")]}}
    cell = derive_cell("s", data, "t", GPU80, declining)  # selected for float16 only, which then fails
    assert (cell.verdict, cell.attempts[0].after_selection) == ("fails-at-runtime", True)


def test_a_fallback_computes_only_in_the_dtypes_its_kernel_accepts_when_selecting():
    # vLLM 0.33.0's CPU FP8 per-tensor kernel: selected for a bfloat16 or float32 model only, then weight-only;
    # what it computes in names those two, not every dtype the scheme allows.
    w8a8 = {**scheme("a"), "config": {"weight_type": "fp8", "activation_quantized": True,
                                      "activation_types": ["float16", "bfloat16", "float32"]}}
    kernels = {"a": {"activation_handling": "as-given",
                     "requirements": [req("activation-type", "bf16/fp32 output only", values=["bfloat16", "float32"])]}}
    cell = derive_cell("s", w8a8, "t", GPU80, kernels)
    assert (cell.verdict, cell.conditions, cell.computes_as) == (
        "fallback", ("activation dtype in {bfloat16, float32}",),
        "fp8 weights with activations left at bfloat16/float32 (weight-only arithmetic, activations unquantized)")
    every = {"a": {"activation_handling": "as-given", "requirements": []}}
    assert "left at float16/bfloat16/float32" in derive_cell("s", w8a8, "t", GPU80, every).computes_as


def test_a_kernel_that_fails_whatever_the_dtype_assumes_nothing_of_the_dtype():
    # vLLM's FlashInfer MXFP4 kernel on SM120: selected where its package holds, then fails for every model dtype
    # (no MXFP4 GEMM there); its float16/bfloat16 requirement is not what the verdict rests on, so the defaults
    # meeting it is not said, while the package the selection needs stays assumed.
    gate = {"description": "no GEMM on this arch", "when": {"platform": ["cuda"]}, "effect": "excludes"}
    kernels = {"a": {"requirements": [req("package", "needs pkg", value="pkg", met_by_install=["pkg"]),
                                      req("activation-type", "f32 fails", values=["float16", "bfloat16"],
                                          after_selection=True)],
                     "external_gates": [gate]}}
    data = {**scheme("a"), "config": {**CONFIG, "activation_types": ["float16", "bfloat16", "float32"]}}
    target = {**GPU80, "auto_dtypes": ["bfloat16", "float16"]}
    installed = Install("pip install e", {"pkg": "a requirement of the wheel"})
    cell = derive_cell("s", data, "t", target, kernels, installed)
    assert (cell.verdict, cell.attempts[0].after_selection) == ("fails-at-runtime", True)
    assert [a.condition for a in cell.attempts[0].assumed] == ["package pkg installed"]
    ungated = derive_cell("s", data, "t", target, {"a": {**kernels["a"], "external_gates": []}}, installed)
    assert "activation dtype in {float16, bfloat16}" in [a.condition for a in ungated.attempts[0].assumed]


def test_an_after_selection_condition_the_default_install_meets_keeps_the_cell_running():
    # vLLM's NVFP4 kernels call scaled_fp4_quant, compiled only into builds with the NVFP4 flags: the kernel is
    # selected either way and fails on its first forward pass without it. The default wheel has it, so that failure
    # is off the defaults and the cell runs; an install that does not state it leaves the cell runs-if.
    op = req("op", "No compiled nvfp4 quantization kernel", value="scaled_fp4_quant", after_selection=True,
             met_by_install=["nvfp4-quant-kernels"])
    kernels = {"a": {"requirements": [op]}}
    installed = Install("pip install e", {"nvfp4-quant-kernels": "built into the wheel"})
    cell = derive_cell("s", scheme("a"), "t", GPU80, kernels, installed)
    assert (cell.verdict, [a.condition for a in cell.assumes]) == ("runs", ["op scaled_fp4_quant available"])
    assert [(s.verdict, s.off_default) for s in cell.otherwise] == [("fails-at-runtime", True)]
    assert derive_cell("s", scheme("a"), "t", GPU80, kernels).verdict == "runs-if"


def test_a_compiled_op_missing_from_a_capability_on_fails_after_selection():
    # cutlass_scaled_mm has no INT8 path from SM100 on: selected by can_implement, then the op raises.
    gate = {"description": "no INT8 from SM100", "when": {"platform": ["cuda"], "capability_min": 100}, "effect": "excludes"}
    kernels = {"a": {"requirements": [], "external_gates": [gate]}}
    blackwell = {"platform": "cuda", "compute_capability": 100}
    assert (derive_cell("s", scheme("a"), "t", blackwell, kernels).verdict,
            derive_cell("s", scheme("a"), "t", {**blackwell, "compute_capability": 120}, kernels).verdict,
            derive_cell("s", scheme("a"), "t", GPU90, kernels).verdict) == ("fails-at-runtime", "fails-at-runtime", "runs")


def test_a_gate_on_the_weight_storage_fails_only_the_schemes_that_state_it():
    # Humming reinterprets the weight tensor as packed int32: int4 values stored one per int8 byte (vLLM's
    # CompressedTensorsW4A8Int) are selected, then fail its shape check at load; packed int32 weights load.
    gate = {"description": "int8-stored weights fail the shape check", "when": {"platform": ["cuda"],
            "weight_storage": ["int8"]}, "effect": "excludes"}
    kernels = {"a": {"requirements": [], "external_gates": [gate]}}

    def verdict(**storage: str) -> str:
        data = scheme("a")
        data["config"] = {**CONFIG, **storage}
        return str(derive_cell("s", data, "t", GPU80, kernels).verdict)

    assert (verdict(weight_storage="int8"), verdict(weight_storage="int32"), verdict()) == (
        "fails-at-runtime", "runs", "runs")


def test_no_candidate_list_for_the_platform():
    cell = derive_cell("s", scheme("a"), "t", X86_AVX2, {"a": {"requirements": []}})
    assert (cell.verdict, cell.reasons) == ("refused", ("no candidate kernels for platform 'cpu'",))
    assert cell.failure_message == ""


def test_an_empty_candidate_list_refuses_with_the_engines_failure_message():
    # vLLM's NVFP4 selector walks _POSSIBLE_NVFP4_KERNELS.get(platform, []) and raises its message with no reasons.
    data = scheme("a", platform="cpu")
    data["candidates"][0]["kernels"] = []
    cell = derive_cell("s", data, "t", X86_AVX2, {"a": {"requirements": []}})
    assert (cell.verdict, cell.attempts, cell.failure_message) == ("refused", (), "no kernel")
    # the list's locator, where it has one, says where the walk comes up empty
    data["candidates"][0]["locator"] = "_POSSIBLE_NVFP4_KERNELS has no CPU entry"
    cell = derive_cell("s", data, "t", X86_AVX2, {"a": {"requirements": []}})
    assert cell.reasons == ("no candidate kernels for platform 'cpu' (_POSSIBLE_NVFP4_KERNELS has no CPU entry)",)


def test_a_gate_that_hands_the_checkpoint_to_another_scheme_is_that_schemes_cell_as_a_fallback():
    # vLLM's fp8 branch returns CompressedTensorsW8A16Fp8 below capability 89; that scheme's kernel is selected for a
    # float32 model and then fails. Where --dtype auto can give float32 (Turing) that is a condition of the cell; where
    # it gives only 16-bit dtypes it is a step off the defaults. Never a plain run: the scheme's FP8 activations are gone.
    gate = {"min": 89, "reason": "Min capability: {min_capability}.", "on_failure": "w8a16"}
    w8a8 = {**scheme("fp8"), "config": {"weight_type": "float8_e4m3fn", "activation_quantized": True,
                                        "activation_types": ["float16", "bfloat16", "float32"]}, "capability_gate": gate}
    w8a16 = {**scheme("m"), "class_name": "W8A16", "capability_gate": {"min": 75, "reason": "Min capability: {min_capability}."},
             "config": {**w8a8["config"], "activation_quantized": False}}
    fails = req("activation-type", "float32 fails at load", values=["float16", "bfloat16"], after_selection=True)
    kernels = {"fp8": {"requirements": []}, "m": {"activation_handling": "as-given", "requirements": [fails]}}
    turing = {**GPU80, "compute_capability": 75, "model_dtypes": ["float16", "float32"], "auto_dtypes": ["float16", "float32"]}
    ampere = {**GPU80, "auto_dtypes": ["bfloat16", "float16"]}
    on_turing = derive_cell("s", w8a8, "t", turing, kernels, fallback=("w8a16", w8a16))
    assert (on_turing.verdict, on_turing.kernel, on_turing.conditions, on_turing.gate_fallback) == (
        "fallback", "m", ("activation dtype in {float16}",), "w8a16")
    assert on_turing.computes_as == ("W8A16: float8_e4m3fn weights with activations left at float16 (weight-only "
                                     "arithmetic, activations unquantized)")
    assert [(o.verdict, o.selected, o.off_default) for o in on_turing.otherwise] == [("fails-at-runtime", "m", False)]
    on_ampere = derive_cell("s", w8a8, "t", ampere, kernels, fallback=("w8a16", w8a16))
    # The handing-on gate is a test, not an error (vLLM's error=False): the loading cell carries no message.
    assert (on_ampere.verdict, on_ampere.gate, on_ampere.gate_fallback) == ("fallback", "", "w8a16")
    assert [(o.verdict, o.off_default) for o in on_ampere.otherwise] == [("fails-at-runtime", True)]
    assert on_ampere.assumes[0].condition == "activation dtype in {float16, bfloat16}"
    # Below the other scheme's own gate the engine refuses with that gate's message.
    volta = derive_cell("s", w8a8, "t", {**GPU80, "compute_capability": 70}, kernels, fallback=("w8a16", w8a16))
    assert (volta.verdict, volta.gate, volta.reasons, volta.kernel) == (
        "refused", "Min capability: 75.", ("Min capability: 75.",), None)
    refused = derive_cell("s", scheme("a", gate={"min": 89, "reason": "not supported"}), "t", GPU80, {"a": {"requirements": []}})
    assert (refused.verdict, refused.reasons) == ("refused", ("not supported",))


def test_a_step_of_the_scheme_returned_instead_that_runs_is_a_fallback_too():
    gate = {"min": 89, "reason": "not supported", "on_failure": "w"}
    w = {**scheme("opt", "m"), "class_name": "W"}
    kernels = {"opt": {"requirements": [req("package", "no pkg", value="pkg")]}, "m": {"requirements": []}}
    cell = derive_cell("s", scheme("x", gate=gate), "t", GPU80, kernels, fallback=("w", w))
    assert (cell.verdict, cell.kernel, cell.conditions) == ("fallback", "opt", ("package pkg installed",))
    step = cell.otherwise[0]
    assert (step.verdict, step.selected, step.computes_as) == (
        "fallback", "m", "W: int4 weights with activations left at float16/bfloat16 (weight-only arithmetic, "
                         "activations unquantized)")


def test_an_activation_quantized_scheme_on_a_kernel_that_takes_activations_as_given_is_a_fallback():
    w4a8 = {**scheme("a", "b"), "config": {"weight_type": "int4", "activation_types": ["float16"], "activation_quantized": True}}
    as_given = {"a": {"activation_handling": "as-given", "requirements": []}}
    cell = derive_cell("s", w4a8, "t", GPU80, as_given)
    assert (cell.verdict, cell.kernel, cell.computes_as) == (
        "fallback", "a", "int4 weights with activations left at float16 (weight-only arithmetic, activations unquantized)")
    quantizing = {"a": {"activation_handling": "quantized", "requirements": []}}
    assert derive_cell("s", w4a8, "t", GPU80, quantizing).verdict == "runs"
    undeclared = derive_cell("s", w4a8, "t", GPU80, {"a": {"requirements": []}})
    assert undeclared.verdict == "fallback" and "does not say whether it quantizes" in undeclared.computes_as


def test_an_emulating_kernel_is_a_fallback_that_says_it_emulates():
    w4a4 = {**scheme("a"), "config": {"weight_type": "float4_e2m1f", "activation_types": ["bfloat16"],
                                      "activation_quantized": True}}
    cell = derive_cell("s", w4a4, "t", GPU80, {"a": {"activation_handling": "emulated", "requirements": []}})
    assert (cell.verdict, cell.kernel) == ("fallback", "a")
    assert cell.computes_as.startswith("software emulation: float4_e2m1f weights") and "bfloat16" in cell.computes_as


def test_capability_exact_with_values_accepts_any_listed_capability():
    kernels = {"a": {"requirements": [req("capability-exact", "needs 100, 103 or 12x", values=[100, 103, 120])]},
               "b": {"requirements": []}}
    for capability, kernel in ((100, "a"), (103, "a"), (120, "a"), (110, "b"), (90, "b")):
        target = {"platform": "cuda", "compute_capability": capability}
        assert derive_cell("s", scheme("a", "b"), "t", target, kernels).kernel == kernel, capability


def test_capability_placeholders_are_filled_as_the_engine_would():
    kernels = {"a": {"requirements": [req("capability-min", "A requires capability 90, current compute capability is "
                                                          "{compute_capability}; {other}", value=90)]}}
    cell = derive_cell("s", scheme("a"), "t", GPU80, kernels)
    assert cell.reasons == ("a: A requires capability 90, current compute capability is 80; ‹other›",)
    assert cell.attempts[0].reason_template.endswith("is {compute_capability}; {other}")
    gate = {"min": 89, "reason": "Min capability: {min_capability}. Current capability: {capability}."}
    assert derive_cell("s", scheme("a", gate=gate), "t", GPU80, kernels).gate == "Min capability: 89. Current capability: 80."



def test_the_engines_failure_message_is_filled_as_the_candidates_reasons_are():
    """transformers raises `pip install -U bitsandbytes>={BITSANDBYTES_MIN_VERSION}` as an f-string: the message says
    0.46.1, the constant a candidate's requirement states, and a placeholder no record fills shows as ‹name› (cards30)."""
    data = scheme("a")
    data["candidates"][0]["failure_message"] = "`pip install -U bitsandbytes>={BITSANDBYTES_MIN_VERSION}` ({OTHER})"
    kernels = {"a": {"requirements": [req("capability-min", "needs bitsandbytes>={BITSANDBYTES_MIN_VERSION} and 90",
                                          value=90, constants={"BITSANDBYTES_MIN_VERSION": "0.46.1"})]}}
    cell = derive_cell("s", data, "t", GPU80, kernels)
    assert (cell.verdict, cell.reasons) == ("refused", ("a: needs bitsandbytes>=0.46.1 and 90",))
    assert cell.failure_message == "`pip install -U bitsandbytes>=0.46.1` (‹OTHER›)"
    # a platform whose list is empty has no constants to fill from, and still shows no bare brace template
    data["candidates"][0]["kernels"] = []
    assert derive_cell("s", data, "t", GPU80, kernels).failure_message == \
        "`pip install -U bitsandbytes>=‹BITSANDBYTES_MIN_VERSION›` (‹OTHER›)"


def test_gfx_checks_test_substrings_of_the_targets_gfx_id_as_vllm_does():
    kernels = {"skinny": {"requirements": [req("gfx-excluded", "not on gfx1250", values=["gfx1250"]),
                                           req("gfx", "needs CDNA3+ or gfx12", values=["gfx942", "gfx950", "gfx12"])]},
               "triton": {"requirements": []}}
    rocm = scheme("skinny", "triton", platform="rocm")
    picks = {gfx: derive_cell("s", rocm, "t", {"platform": "rocm", "gfx": gfx, "compute_capability": cap}, kernels)
             for gfx, cap in (("gfx90a", 90), ("gfx942", 94), ("gfx1201", 120), ("gfx1250", 125))}
    assert {gfx: (cell.kernel, cell.reasons) for gfx, cell in picks.items()} == {
        "gfx90a": ("triton", ("skinny: needs CDNA3+ or gfx12",)), "gfx942": ("skinny", ()),
        "gfx1201": ("skinny", ()), "gfx1250": ("triton", ("skinny: not on gfx1250",))}
    # A target without a gfx id (another platform) never passes a gfx test, nor a gfx-excluded one.
    no_gfx = {"platform": "rocm", "compute_capability": 90}
    assert derive_cell("s", rocm, "t", no_gfx, kernels).reasons == ("skinny: not on gfx1250",)


def test_a_rocm_target_fills_the_capability_vllm_derives_from_its_gfx_id():
    kernels = {"a": {"requirements": [req("capability-min", "A requires capability 100, current compute  capability is "
                                                          "{compute_capability}", value=100)]}}
    cell = derive_cell("s", scheme("a", platform="rocm"), "t", {"platform": "rocm", "gfx": "gfx942", "compute_capability": 94},
                       kernels)
    assert cell.reasons == ("a: A requires capability 100, current compute  capability is 94",)


def test_a_cpu_vendor_test_passes_fails_or_is_a_condition_by_the_vendors_a_profile_covers():
    # vLLM's zentorch kernels need ZenCpuPlatform, which it picks only for AuthenticAMD: an Intel-only profile
    # (AMX) refuses them, a profile spanning both vendors leaves the vendor as a condition, none listed refuses.
    kernels = {"zen": {"requirements": [req("cpu-vendor", "requires AMD Zen CPU.", values=["AuthenticAMD"])]},
               "generic": {"requirements": []}}
    cpu = scheme("zen", "generic", platform="cpu")
    intel = derive_cell("s", cpu, "t", {**X86_AVX512, "cpu_vendors": ["GenuineIntel"]}, kernels)
    both = derive_cell("s", cpu, "t", {**X86_AVX512, "cpu_vendors": ["AuthenticAMD", "GenuineIntel"]}, kernels)
    amd = derive_cell("s", cpu, "t", {**X86_AVX512, "cpu_vendors": ["AuthenticAMD"]}, kernels)
    unknown = derive_cell("s", cpu, "t", X86_AVX512, kernels)
    assert (intel.verdict, intel.kernel, intel.reasons) == ("runs", "generic", ("zen: requires AMD Zen CPU.",))
    # the generic kernel takes the other vendor's parts: the vendor only chooses the kernel
    assert (both.verdict, both.kernel, both.conditions) == ("runs", "zen", ("CPU vendor AuthenticAMD",))
    assert (amd.verdict, amd.kernel) == ("runs", "zen")
    assert (unknown.kernel, unknown.reasons) == ("generic", ("zen: requires AMD Zen CPU.",))


def test_out_type_is_not_filled_with_the_activation_type_a_scheme_quantizes_to():
    # CutlassW4A8 prints f"{c.out_type=}", the model dtype; the W4A8-FP8 scheme's activation type is float8_e4m3fn.
    fp8_config = {**CONFIG, "activation_types": ["float8_e4m3fn"], "activation_quantized": True}
    data = {**scheme("b", "a"), "config": fp8_config}
    kernels = {"a": {"requirements": [req("other", "Only bfloat16 output type currently supportedgot {c.out_type=}",
                                          value="out_type == bfloat16")]},
               "b": {"requirements": [req("activation-type", "act is {c.act_type}", values=["float16"])]}}
    cell = derive_cell("s", data, "t", GPU90, kernels)
    assert cell.conditions == (
        "the checkpoint passes the check that otherwise refuses with "
        "“Only bfloat16 output type currently supportedgot c.out_type=‹c.out_type›”",)
    assert cell.reasons == ("b: act is torch.float8_e4m3fn",)


def test_a_self_documenting_placeholder_keeps_its_expression_and_leaves_the_repr_unfilled():
    # f"{x=}" prints "x=" and then repr(x); the records hold str() values, so even a known one is not filled in.
    from generators.derive.messages import engine_message
    config = {"config": {"weight_type": "int4"}}
    assert engine_message("got {c.out_type=}", {"platform": "cuda"}, config) == "got c.out_type=‹c.out_type›"
    assert engine_message("{c.weight_type} {c.weight_type = }", {"platform": "cuda"}, config) == \
        "int4 c.weight_type = ‹c.weight_type›"
    assert engine_message("{a==b}", {"platform": "cuda"}, config) == "‹a==b›"


def test_a_supported_list_in_a_divisible_group_size_message_is_not_filled_with_the_values_beside_the_multiples():
    """A group-size requirement with `multiple_of` lists in `values` only what passes besides the multiples (-1): a
    message naming the engine's supported list would have printed [-1] as all the engine takes. It keeps the marker."""
    from generators.derive.messages import engine_message
    message = "Group size {c.group_size} not in {SUPPORTED_GROUP_SIZES}"
    divisible = req("group-size", message, values=[-1], multiple_of=2)
    scheme_of = {"config": {"group_sizes": [33]}}
    assert engine_message(message, {"platform": "cpu"}, scheme_of, divisible) == \
        "Group size 33 not in ‹SUPPORTED_GROUP_SIZES›"
    listed = req("group-size", message, values=[-1, 128])
    assert engine_message(message, {"platform": "cpu"}, scheme_of, listed) == "Group size 33 not in [-1, 128]"


def test_a_bit_width_is_the_weight_types_size_bits_and_unknown_where_no_scalar_type_names_it():
    """vLLM-Gaudi's HPUMPLinearKernel prints `bits = c.weight_type.size_bits` (v0.26.0): 8 for uint8b128; a GGML
    type is no vLLM scalar type, so its width stays a placeholder."""
    from generators.derive.messages import engine_message
    message = "w{bits}a16 not yet supported on HPU"
    assert engine_message(message, {"platform": "hpu"}, {"config": {"weight_type": "uint8b128"}}) == \
        "w8a16 not yet supported on HPU"
    assert engine_message("{c.weight_type.size_bits}", {"platform": "cuda"}, {"config": {"weight_type": "uint4b8"}}) == "4"
    assert engine_message(message, {"platform": "cpu"}, {"config": {"weight_type": "ggml_q4_0"}}) == \
        "w‹bits›a16 not yet supported on HPU"


# vLLM 0.26.0 config/vllm.py lines 694-696, as vLLM-Gaudi's ModelOpt FP8, AWQ and GPTQ kernels quote it
CONFIG_DTYPE_TEST = ("{model_config.dtype} is not supported for quantization method {model_config.quantization}. "
                     "Supported dtypes: {supported_dtypes}")


class _TorchDtype:
    """Prints as a torch.dtype does (its repr and str are `torch.<name>`), so the engine's f-string can be run."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


# vLLM 0.33.0 _custom_ops.py lines 1566-1568, as the NVFP4 kernels quote it
INPUT_DTYPE_TEST = "input.dtype needs to be fp16 or bf16 but got {input.dtype}."


def test_a_dtype_check_names_the_one_dtype_that_reaches_it_and_lists_the_dtypes_it_takes_as_the_engine_prints_them():
    """Only a float32 model reaches a check that takes float16 and bfloat16 and fails it, so its message names
    torch.float32; a check's one accepted dtype is the list it prints. Both as the engine's own f-string prints a torch
    dtype and a list of them, which the stand-in dtype lets Python compute here."""
    from types import SimpleNamespace

    from generators.derive.messages import engine_message
    kernel = req("activation-type", INPUT_DTYPE_TEST, values=["float16", "bfloat16"])
    nvfp4 = {"config": {"activation_types": ["float16", "bfloat16", "float32"]}}
    input = SimpleNamespace(dtype=_TorchDtype("float32"))
    assert engine_message(INPUT_DTYPE_TEST, {"platform": "cuda"}, nvfp4, kernel) == \
        f"input.dtype needs to be fp16 or bf16 but got {input.dtype}."
    config_test = req("activation-type", CONFIG_DTYPE_TEST, values=["bfloat16"])
    supported_dtypes = [_TorchDtype("bfloat16")]
    gaudi = {"method": "modelopt", "config": {"activation_types": ["bfloat16", "float16"]}}
    assert engine_message(CONFIG_DTYPE_TEST, {"platform": "hpu"}, gaudi, config_test) == \
        f"‹model_config.dtype› is not supported for quantization method modelopt. Supported dtypes: {supported_dtypes}"


def test_a_dtype_several_runs_could_bring_keeps_its_marker():
    """vLLM-Gaudi's config test takes bfloat16 alone: a float16 checkpoint under --dtype auto reaches it as float16 and
    --dtype float32 as float32 (vLLM 0.26.0 config/model.py lines 2036-2058, config/vllm.py lines 691-697, before
    HpuPlatform turns the dtype into bfloat16), so the dtype stays a marker even where the scheme lists only the
    dtypes --dtype auto gives; a target's model dtypes narrow what can reach; several accepted dtypes print in the
    engine's order, which the records do not state; a quantized activation type is no dtype a model runs in."""
    from generators.derive.messages import engine_message
    check = req("activation-type", CONFIG_DTYPE_TEST, values=["bfloat16"])
    auto = {"method": "awq_hpu", "config": {"activation_types": ["bfloat16", "float16"]}}
    assert engine_message(CONFIG_DTYPE_TEST, {"platform": "hpu"}, auto, check) == \
        "‹model_config.dtype› is not supported for quantization method awq_hpu. Supported dtypes: [torch.bfloat16]"
    assert engine_message("{model_config.dtype}", {"platform": "cuda", "model_dtypes": ["bfloat16", "float16"]},
                          auto, check) == "torch.float16"
    assert engine_message("{supported_dtypes}", {"platform": "hpu"}, auto,
                          req("activation-type", "{supported_dtypes}", values=["bfloat16", "float16"])) == \
        "‹supported_dtypes›"
    int8 = req("activation-type", "got {x.dtype}", values=["int8"])
    assert engine_message("got {x.dtype}", {"platform": "cuda"}, {"config": {"activation_types": ["float16"]}},
                          int8) == "got ‹x.dtype›"


def test_a_refused_cell_and_its_engine_failure_keep_the_dtype_the_users_run_decides():
    """What explain and the card show for a vLLM-Gaudi ModelOpt FP8 cell: the way on without bfloat16 is the config
    test's refusal, in the kernel's reason and in the failure message the engine raises, with the list it prints and
    the model dtype as a marker (float16 or float32, as the user's run has it)."""
    kernels = {"a": {"requirements": [req("activation-type", CONFIG_DTYPE_TEST, values=["bfloat16"])]}}
    data = {**scheme("a", platform="hpu"), "method": "modelopt"}
    data["candidates"][0]["failure_message"] = CONFIG_DTYPE_TEST
    cell = derive_cell("s", data, "t", {"platform": "hpu"}, kernels)
    said = "‹model_config.dtype› is not supported for quantization method modelopt. Supported dtypes: [torch.bfloat16]"
    [step] = cell.otherwise
    assert (step.verdict, step.failure_message) == ("refused", said)
    assert step.reasons == (f"a: {said} (unless activation dtype in {{bfloat16}})",)


def test_a_promotion_moves_a_kernel_ahead_of_another_only_on_its_capabilities():
    # vLLM's prioritize_humming: on capability 90 Humming is walked directly ahead of Marlin, elsewhere it stays last.
    kernels = {"machete": {"requirements": [req("capability-exact", "needs 90", value=90)]},
               "marlin": {"requirements": []},
               "humming": {"requirements": [req("package", "not installed", value="humming")]}}
    data = scheme("machete", "marlin", "humming")
    data["candidates"][0]["promotions"] = [{"kernel": "humming", "before": "marlin", "capabilities": [90],
                                            "locator": "prioritize_humming"}]
    kernels["machete"]["requirements"].append(req("group-size", "bad group", values=[64]))
    on90 = derive_cell("s", data, "t", GPU90, kernels)
    on80 = derive_cell("s", data, "t", GPU80, kernels)
    assert [a.kernel for a in on90.attempts] == ["machete", "humming", "marlin"]
    assert (on90.verdict, on90.kernel, on90.conditions) == ("runs", "humming", ("package humming installed",))
    assert [a.kernel for a in on80.attempts] == ["machete", "marlin"]
    assert (on80.verdict, on80.kernel) == ("runs", "marlin")


def test_a_forced_kernel_replaces_the_walk_only_where_it_applies_and_raises_its_own_message():
    # vLLM's weight-only NVFP4 selection: FlashInfer's W4A16 kernel forced on 100 and 103, Marlin forced everywhere but
    # 90 (where the list is walked, Humming first) and on a platform reporting no capability; a declining forced
    # kernel raises the forcing message, and the list is never walked there.
    kernels = {"cutedsl": {"requirements": [req("capability-exact", "needs 100 or 120", values=[100, 120])]},
               "marlin": {"requirements": [req("platform", "Marlin FP4 not available", values=["cuda"])]},
               "humming": {"requirements": []}}
    data = scheme("cutedsl", "marlin", "humming")
    data["candidates"][0]["forced"] = {"failure_message": "Forced kernel is not supported:", "locator": "init",
                                       "kernels": [{"kernel": "cutedsl", "capabilities": [100, 103]},
                                                   {"kernel": "marlin", "except_capabilities": [90]}]}
    data["candidates"].append({**data["candidates"][0], "platform": "rocm", "kernels": []})
    def walked(target: dict) -> tuple:
        cell = derive_cell("s", data, "t", target, kernels)
        return cell.verdict, cell.kernel, [a.kernel for a in cell.attempts], cell.failure_message
    assert walked({"platform": "cuda", "compute_capability": 100}) == ("runs", "cutedsl", ["cutedsl"], "")
    assert walked({"platform": "cuda", "compute_capability": 120}) == ("runs", "marlin", ["marlin"], "")
    assert walked(GPU90) == ("runs", "marlin", ["cutedsl", "marlin"], "")  # the whole list, in order
    assert walked({"platform": "rocm", "compute_capability": 94}) == (
        "refused", None, ["marlin"], "Forced kernel is not supported:")
    assert walked({"platform": "rocm", "compute_capability": 90}) == ("refused", None, [], "no kernel")


def test_a_requirement_scoped_to_quantized_activations_binds_only_schemes_that_quantize_them():
    # vLLM's humming NVFP4 kernel leaves a W4A4 layer's activations unquantized below 120; a W4A16 layer never asks.
    kernels = {"humming": {"requirements": [req("capability-min", "activations left unquantized", value=120,
                                                declines=False, when={"activation_quantized": True})]}}
    weight_only = derive_cell("s", scheme("humming"), "t", GPU90, kernels)
    both = derive_cell("s", {**scheme("humming"), "config": {**CONFIG, "activation_quantized": True}}, "t", GPU90,
                       kernels)
    assert (weight_only.verdict, weight_only.kernel) == ("runs", "humming")
    assert (both.verdict, both.computes_as) == ("fallback", "activations left unquantized")


def test_a_requirement_scoped_to_zero_points_applies_only_to_schemes_that_match_or_do_not_say():
    # Marlin and Machete pick their supported weight types by zero points: uint4 only with zero points (AWQ).
    kernels = {"marlin": {"requirements": [
        req("weight-type", "gptq-style {c.weight_type}", values=["uint4b8"], when={"zero_points": False}),
        req("weight-type", "awq-style {c.weight_type}", values=["uint4"], when={"zero_points": True})]}}
    def cell(weight: str, **zero_points: bool):
        config = {**CONFIG, "weight_type": weight, **zero_points}  # CONFIG itself does not say
        return derive_cell("s", {**scheme("marlin"), "config": config}, "t", GPU80, kernels)
    assert cell("uint4", zero_points=True).verdict == "runs"
    assert cell("uint4", zero_points=False).reasons == ("marlin: gptq-style uint4",)
    assert cell("uint4b8", zero_points=False).verdict == "runs"
    assert cell("uint4b8").reasons == ("marlin: awq-style uint4b8",)  # unknown zero points: both lists apply


def test_a_group_size_placeholder_is_filled_only_when_the_scheme_names_one_group_size():
    # The engine prints the checkpoint's group size; a scheme admitting several cannot say which one that is.
    kernels = {"a": {"requirements": [req("shape", "not divisible by group_size = {c.group_size}.")]}}
    def limit(groups: list[int]) -> str:
        config = {**CONFIG, "group_sizes": groups}
        return derive_cell("s", {**scheme("a"), "config": config}, "t", GPU80, kernels).attempts[0].limits[0]
    assert limit([128]).endswith("“not divisible by group_size = 128.”")
    assert limit([-1, 128]).endswith("“not divisible by group_size = ‹c.group_size›.”")


def test_a_requirement_or_route_scoped_to_scheme_methods_applies_only_to_those_layouts():
    # zentorch's DA8W4 repack (activations quantized to 8 bits) applies only to compressed-tensors weights with a
    # bfloat16 model; GPTQ weights take the parent W4A16 path, so their cell must not carry the precision condition.
    da8w4 = "a float16 model, or VLLM_CPU_INT4_W4A8=0"
    kernels = {"zen": {"requirements": [req("env", "no refusal", value="VLLM_CPU_INT4_W4A8", condition=da8w4,
                                            when={"activation_types": ["bfloat16"], "methods": ["compressed-tensors"]})],
                       "routes": [{"name": "da8w4", "description": "W4A8", "when": {"methods": ["compressed-tensors"]}},
                                  {"name": "parent", "description": "W4A16", "when": {"methods": ["auto_gptq"]}}]}}
    def cell(method: str | None):
        data = {**scheme("zen", platform="cpu"), **({"method": method} if method else {})}
        return derive_cell("s", data, "t", X86_AVX512, kernels)
    ct, gptq, unnamed = cell("compressed-tensors"), cell("auto_gptq"), cell(None)
    assert (ct.verdict, ct.conditions, ct.attempts[0].routes) == ("runs-if", (da8w4,), ("da8w4",))
    assert (gptq.verdict, gptq.conditions, gptq.attempts[0].routes) == ("runs", (), ("parent",))
    assert (unnamed.verdict, unnamed.attempts[0].routes) == ("runs", ())  # a scheme without a method never matches


def test_a_route_scoped_to_capabilities_shows_only_on_those_and_their_families():
    # vLLM's get_marlin_input_dtype raises for FP8 activations unless is_device_capability(89) or
    # is_device_capability_family(120): the route shows on SM89 and every 12.x part, nowhere else.
    kernels = {"m": {"requirements": [],
                     "routes": [{"name": "w4a16", "description": "default"},
                                {"name": "fp8", "description": "FP8 activations",
                                 "when": {"capabilities": {"exact": [89], "family": [120]}}}]}}
    def routes(target: dict) -> tuple[str, ...]:
        return derive_cell("s", scheme("m", platform=target["platform"]), "t", target, kernels).attempts[0].routes
    on = {c: routes({"platform": "cuda", "compute_capability": c}) for c in (80, 86, 89, 90, 100, 120, 121)}
    assert on == {80: ("w4a16",), 86: ("w4a16",), 89: ("w4a16", "fp8"), 90: ("w4a16",), 100: ("w4a16",),
                  120: ("w4a16", "fp8"), 121: ("w4a16", "fp8")}
    assert routes({"platform": "xpu"}) == ("w4a16",)  # a target without a capability matches neither test


def test_a_route_scoped_to_weight_types_shows_only_for_those_weights():
    # vLLM 0.33.0's Marlin asserts uint4b8 weights when it quantizes the activations to 8 bits (marlin.py 77-82):
    # an 8-bit weight-only scheme must not be offered the W4A8 route that would stop its load.
    kernels = {"m": {"requirements": [],
                     "routes": [{"name": "w4a16", "description": "default"},
                                {"name": "w4a8", "description": "8-bit activations", "when": {"weight_types": ["uint4b8"]}}]}}
    def routes(weight_type: str) -> tuple[str, ...]:
        data = {**scheme("m"), "config": {**CONFIG, "weight_type": weight_type}}
        return derive_cell("s", data, "t", GPU90, kernels).attempts[0].routes
    assert (routes("uint4b8"), routes("uint8b128")) == (("w4a16", "w4a8"), ("w4a16",))


def test_a_refusal_after_an_undecided_package_check_names_the_package_message_first():
    # vLLM's FlashInfer FP8 kernel tests the package before the capability: without FlashInfer, that is the message.
    kernels = {"fi": {"requirements": [req("package", "requires FlashInfer to be installed.", value="flashinfer"),
                                       req("capability-min", "requires compute capability 100 and above.", value=100)]},
               "b": {"requirements": []}}
    cell = derive_cell("s", scheme("fi", "b"), "t", GPU90, kernels)
    assert cell.reasons == ("fi: requires FlashInfer to be installed. (unless package flashinfer installed); "
                            "otherwise: requires compute capability 100 and above.",)
    # A check the records decide, or a shape limit, before the refusal adds nothing; so does a paraphrased non-refusal.
    kernels["fi"]["requirements"][0] = req("env", "No refusal: a precision switch", value="X", reason_verbatim=False)
    assert derive_cell("s", scheme("fi", "b"), "t", GPU90, kernels).reasons == (
        "fi: requires compute capability 100 and above.",)


def test_one_engine_check_the_records_state_as_several_conditions_gives_its_message_once_before_a_refusal():
    # vLLM 0.33.0's AiterPerTokenFp8ScaledMMLinearKernel.is_supported makes one test, is_linear_fp8_enabled (the aiter
    # module found, then VLLM_ROCM_USE_AITER and VLLM_ROCM_USE_AITER_LINEAR), with one message; the records state it as
    # a package check and a switch check carrying that message. Refused by a later check, the reason says the message
    # once, unless both hold, as the engine prints it (it said it twice, once per condition, until cards33).
    switch = "requires setting `VLLM_ROCM_USE_AITER=1` and `VLLM_ROCM_USE_AITER_LINEAR=1`."
    kernels = {"aiter": {"requirements": [req("package", switch, value="aiter"), req("env", switch, value="A=1"),
                                          req("capability-min", "requires compute capability 100 and above.", value=100)]},
               "b": {"requirements": []}}
    cell = derive_cell("s", scheme("aiter", "b"), "t", GPU90, kernels)
    assert cell.reasons == (f"aiter: {switch} (unless package aiter installed and A=1); "
                            "otherwise: requires compute capability 100 and above.",)
    # two checks with messages of their own stay two, in the engine's order
    kernels["aiter"]["requirements"][1] = req("env", "requires A.", value="A=1")
    assert derive_cell("s", scheme("aiter", "b"), "t", GPU90, kernels).reasons == (
        f"aiter: {switch} (unless package aiter installed); requires A. (unless A=1); "
        "otherwise: requires compute capability 100 and above.",)


def test_one_message_on_two_checks_with_another_between_keeps_the_engines_order():
    # Only neighbours are one engine check: the same words on conditions with another check between them are two
    # checks, and the engine prints whichever fails first. Grouped at the first place (cards33s: "X (unless package
    # pa installed and C=1); requires B. ..."), a checkpoint failing B and C read as getting X; the engine prints B's.
    x = "requires X."
    split = [req("package", x, value="pa"), req("env", "requires B.", value="B=1"), req("env", x, value="C=1")]
    refused = {"k": {"requirements": [*split, req("capability-min", "requires cc 100.", value=100)]}, "b": {"requirements": []}}
    assert derive_cell("s", scheme("k", "b"), "t", GPU90, refused).reasons == (
        f"k: {x} (unless package pa installed); requires B. (unless B=1); {x} (unless C=1); otherwise: requires cc 100.",)
    declined = {"k": {"requirements": split}, "b": {"requirements": [req("capability-min", "requires cc 100.", value=100)]}}
    step = derive_cell("s", scheme("k", "b"), "t", GPU90, declined).otherwise[0]
    assert step.reasons[0] == (f"k: whichever fails first of: {x} (unless package pa installed); requires B. (unless B=1); "
                               f"{x} (unless C=1)")


def test_a_check_stated_as_a_package_and_a_quoted_check_names_both_where_it_declines():
    # A condition in the engine's words only quotes the message; grouped with another condition of the same check,
    # the reason said the message alone and dropped the package (cards33s).
    x = "requires X."
    kernels = {"k": {"requirements": [req("package", x, value="pa"), req("other", x)]},
               "b": {"requirements": [req("capability-min", "requires cc 100.", value=100)]}}
    step = derive_cell("s", scheme("k", "b"), "t", GPU90, kernels).otherwise[0]
    assert step.reasons[0] == (f"k: {x} (unless package pa installed and the checkpoint passes the check that "
                               f"otherwise refuses with “{x}”)")
    # a quoted check alone is still said by its message
    kernels["k"]["requirements"].pop(0)
    assert derive_cell("s", scheme("k", "b"), "t", GPU90, kernels).otherwise[0].reasons[0] == f"k: {x}"


def test_a_scheme_the_engine_substitutes_unless_a_setting_keeps_it_runs_only_given_that_setting():
    # On XPU vLLM returns CompressedTensorsW8A16Fp8 unless --linear-backend is xpu or torch; xpu keeps only the W8A8
    # kernel. The walk under the setting decides the cell; without it the checkpoint is the substitute scheme's own
    # cell (its kernel, its weight-only precision), as a fallback: a run with default settings shows its kernel.
    xpu = {"platform": "xpu"}
    kernels = {"w8a16": {"requirements": [req("weight-scales", "tensor or channel", values=["tensor", "channel"])],
                         "linear_backends": ["xpu_woq"], "activation_handling": "as-given"},
               "w8a8": {"requirements": [req("other", "FP8 activations only", value="FP8 activations")],
                        "linear_backends": ["xpu"], "activation_handling": "quantized"}}
    substitution = {"scheme": "sub", "setting": "--linear-backend", "values": ["xpu", "torch"], "locator": "fp8 branch"}
    data = scheme("w8a16", "w8a8", platform="xpu")
    data["config"] = {**CONFIG, "weight_type": "float8_e4m3fn", "activation_quantized": True, "weight_scales": ["tensor", "channel"]}
    data["candidates"][0]["substitution"] = substitution
    # The substitute's own config also takes block weights, which its kernel declines; this checkpoint has none.
    sub = {**scheme("w8a16", platform="xpu"), "class_name": "W8A16",
           "config": {**data["config"], "activation_quantized": False, "weight_scales": ["tensor", "channel", "block"]}}
    cell = derive_cell("s", data, "t", xpu, kernels, substitute=("sub", sub))
    assert (cell.verdict, cell.kernel, [a.kernel for a in cell.attempts]) == ("runs-if", "w8a8", ["w8a8"])
    assert cell.conditions[0] == "--linear-backend xpu (without --linear-backend xpu or torch, vLLM returns W8A16)"
    assert (cell.substitution, cell.substitute_scheme, cell.substitute_kernel, cell.default_kernel, cell.loaded_as) == (
        "sub", "W8A16", "w8a16", "w8a16", "")
    weight_only = ("W8A16: float8_e4m3fn weights with activations left at float16/bfloat16 (weight-only arithmetic, "
                   "activations unquantized)")
    # Without the setting, the substitute runs; without the kept kernel's own condition, nothing of the list is left.
    assert [(o.unmet[0][:22], o.verdict, o.selected, o.conditions, o.computes_as) for o in cell.otherwise] == [
        ("--linear-backend xpu (", "fallback", "w8a16", (), weight_only),
        ("the checkpoint passes ", "refused", None, (), "")]
    # When no value of the setting leads to an accepting kernel, the substitute's weight-only arithmetic is what runs.
    kernels["w8a8"]["requirements"] = [req("platform", "XPU only", values=["cuda"])]
    cell = derive_cell("s", data, "t", xpu, kernels, substitute=("sub", sub))
    assert (cell.verdict, cell.kernel, cell.computes_as, cell.loaded_as) == ("fallback", "w8a16", weight_only, "sub")
    # And when the substitute refuses too, so does the cell, with the substitute's reasons.
    kernels["w8a16"]["requirements"] = [req("platform", "XPU W8A16 only", values=["cuda"])]
    cell = derive_cell("s", data, "t", xpu, kernels, substitute=("sub", sub))
    assert (cell.verdict, cell.reasons, cell.loaded_as) == ("refused", ("w8a16: XPU W8A16 only",), "sub")


def test_a_runs_if_cell_says_what_the_engine_does_when_its_conditions_do_not_hold():
    # Without the package the engine declines 'pkg' and goes on: 'opt' runs only in float16, and then nothing is left.
    kernels = {"hop": {"requirements": [req("capability-exact", "needs 90", value=90)]},
               "pkg": {"requirements": [req("package", "paraphrase", value="fastpkg", reason_verbatim=False)]},
               "opt": {"requirements": [req("activation-type", "float16 only", values=["float16"])]}}
    cell = derive_cell("s", scheme("hop", "pkg", "opt"), "t", GPU80, kernels)
    assert (cell.verdict, cell.kernel) == ("runs-if", "pkg")
    first, second = cell.otherwise
    assert (first.kernel, first.unmet, first.verdict, first.selected, first.conditions) == (
        "pkg", ("package fastpkg installed",), "runs-if", "opt", ("activation dtype in {float16}",))
    assert (second.kernel, second.verdict, second.selected, second.failure_message) == ("opt", "refused", None, "no kernel")
    # A declined kernel's reason is the engine's own message where the record has it verbatim, else its condition.
    assert second.reasons == ("hop: needs 90", "pkg: declines unless package fastpkg installed",
                              "opt: float16 only (unless activation dtype in {float16})")
    # A kernel accepted outright after the conditional one ends the chain with a plain runs; the scheme then runs
    # whichever way the condition goes, so the cell is runs, its condition only choosing the kernel.
    kernels["opt"]["requirements"] = []
    either = derive_cell("s", scheme("hop", "pkg", "opt"), "t", GPU80, kernels)
    assert [(o.verdict, o.selected) for o in either.otherwise] == [("runs", "opt")]
    assert (either.verdict, either.kernel, either.conditions) == ("runs", "pkg", ("package fastpkg installed",))
    # A cell that runs outright, or is refused, has nothing to add.
    assert derive_cell("s", scheme("hop", "opt"), "t", GPU80, kernels).otherwise == ()
    assert derive_cell("s", scheme("hop"), "t", GPU80, kernels).otherwise == ()


def test_a_precision_switch_keeps_the_kernel_and_falls_back_instead_of_going_on():
    # VLLM_CPU_INT4_W4A8-like: the engine selects the kernel either way; with the switch at its default it computes W4A8.
    kernels = {"zen": {"requirements": [req("package", "needs zentorch", value="zentorch"),
                                        req("env", "W4A8 at run time", value="W4A8=0", declines=False,
                                            reason_verbatim=False)]},
               "cpu": {"requirements": []}}
    cell = derive_cell("s", scheme("zen", "cpu", platform="cpu"), "t", X86_AVX512, kernels)
    # runs-if although the next kernel runs: one way the conditions fail computes at another precision
    assert (cell.verdict, cell.kernel, cell.conditions) == ("runs-if", "zen", ("package zentorch installed", "W4A8=0"))
    assert [(o.unmet, o.verdict, o.selected, o.conditions, o.computes_as) for o in cell.otherwise] == [
        (("package zentorch installed",), "runs", "cpu", (), ""),
        (("W4A8=0",), "fallback", "zen", ("package zentorch installed",), "W4A8 at run time")]
    # Without a selection condition, only the precision step is left.
    kernels["zen"]["requirements"].pop(0)
    assert [(o.verdict, o.selected) for o in derive_cell("s", scheme("zen", "cpu", platform="cpu"), "t", X86_AVX512,
                                                          kernels).otherwise] == [("fallback", "zen")]


def test_a_placement_condition_keeps_the_kernel_and_runs_it_on_another_device_instead():
    # transformers' bitsandbytes 4-bit on a Mac: without device_map the model goes to the CPU, which runs the same
    # kernel; the cell names the placement as a condition, and its step is the same outcome on that device.
    placed = req("other", "no device_map: the model loads on the CPU", condition="device_map names mps",
                 elsewhere="the Mac's CPU", reason_verbatim=False, when={"platform": ["metal"]})
    kernels = {"bnb": {"requirements": [req("package", "needs bitsandbytes", value="bitsandbytes"), placed]}}
    mac = {"platform": "metal"}
    cell = derive_cell("s", scheme("bnb", platform="metal"), "t", mac, kernels)
    assert (cell.verdict, cell.kernel, cell.conditions) == (
        "runs-if", "bnb", ("package bitsandbytes installed", "device_map names mps"))
    assert [(o.unmet, o.verdict, o.selected, o.conditions, o.reasons, o.elsewhere) for o in cell.otherwise] == [
        (("package bitsandbytes installed",), "refused", None, (), ("bnb: needs bitsandbytes (unless package bitsandbytes installed)",), ""),
        (("device_map names mps",), "runs-if", "bnb", ("package bitsandbytes installed",),
         ("bnb: no device_map: the model loads on the CPU",), "the Mac's CPU")]
    assert cell.otherwise[1].as_dict()["elsewhere"] == "the Mac's CPU"
    # The only condition: the step runs there without one; a fallback kernel's step is a fallback there too.
    kernels["bnb"]["requirements"].pop(0)
    placed_only = derive_cell("s", scheme("bnb", platform="metal"), "t", mac, kernels)
    assert [(o.verdict, o.conditions) for o in placed_only.otherwise] == [("runs", ())]
    # ... but not on this target: the cell stays runs-if (its one step runs on the CPU, so it does not make the cell
    # run whichever way its conditions go)
    assert (placed_only.verdict, placed_only.conditions) == ("runs-if", ("device_map names mps",))
    kernels["bnb"]["requirements"].append(req("weight-type", "16-bit weights", values=["bfloat16"], declines=False,
                                              reason_verbatim=False))
    fallback = derive_cell("s", scheme("bnb", platform="metal"), "t", mac, kernels)
    assert (fallback.verdict, [(o.verdict, o.computes_as, o.elsewhere) for o in fallback.otherwise]) == (
        "fallback", [("fallback", "16-bit weights", "the Mac's CPU")])
    # Elsewhere than the platforms it is scoped to, the requirement does not apply.
    assert derive_cell("s", scheme("bnb"), "t", GPU90, kernels).otherwise == ()


def test_a_placement_whose_device_walks_its_own_candidates_names_no_kernel_and_only_the_shared_conditions():
    # transformers' GPTQ through GPTQModel: without device_map the model maps to the CPU and GPTQModel picks a CPU
    # class there, so the step is not Marlin on the CPU, and Marlin's own nvcc condition says nothing about it
    placed = req("other", "no device_map: GPTQModel picks a CPU class", condition="device_map names cuda",
                 elsewhere="the host CPU", elsewhere_walk=True, reason_verbatim=False, when={"platform": ["cuda"]})
    shared = req("package", "needs gptqmodel", value="gptqmodel")
    kernels = {"marlin": {"requirements": [shared, placed, req("other", "no nvcc", condition="nvcc", inferred=False)]},
               "torch": {"requirements": [shared]}}
    cell = derive_cell("s", scheme("marlin", "torch"), "t", GPU80, kernels)
    assert (cell.verdict, cell.kernel) == ("runs-if", "marlin")
    step = next(o for o in cell.otherwise if o.elsewhere)
    assert (step.verdict, step.selected, step.walks, step.conditions, step.elsewhere) == (
        "runs-if", "marlin", True, ("package gptqmodel installed",), "the host CPU")
    assert step.as_dict()["walks"] is True
    # without `elsewhere_walk` the same kernel runs there, with every other condition of its own
    del placed["elsewhere_walk"]
    same = next(o for o in derive_cell("s", scheme("marlin", "torch"), "t", GPU80, kernels).otherwise if o.elsewhere)
    assert (same.walks, same.conditions, same.as_dict()["walks"]) == (
        False, ("package gptqmodel installed", "nvcc"), False)


def test_cells_kept_between_trees_are_what_a_derivation_afresh_gives(real_atlas, monkeypatch):
    """derive_cells keeps each cell with the scheme, target and kernel data objects it read, for the next tree (the
    changelog's past trees share most records). After an edit of a candidate kernel, a scheme, a target, a record no
    cell reads, and without a candidate kernel, every cell equals a derivation with nothing kept; a cell that read
    none of what changed is the kept cell itself, and one that read it is derived again.

    The test starts from an empty store, and the store of the process is put back after it: the store keeps the last
    few derivations of each cell, so cells that earlier tests in the process derived from changed records (the
    mutation sweeps flip and rename hundreds) would push the base derivation out of the store before the last edit."""
    import dataclasses

    from generators.derive import cells as cells_module
    from generators.last_few import LastFew
    from generators.link import link_records, relink

    monkeypatch.setattr(cells_module, "_KEPT", LastFew())
    index, schemas = real_atlas.index, real_atlas.schemas
    records = [r for kind in index.by_kind for r in index.all(kind)]
    base = cells_module.derive_cells(index)
    scheme = next(s for s in index.all("scheme") if any(len(c.get("kernels", [])) > 1 for c in s.data["candidates"]))
    named = next(c for c in scheme.data["candidates"] if len(c.get("kernels", [])) > 1)
    kernel = index.must("kernel", named["kernels"][0])
    target = next(t for t in index.all("hardware-target") if t.data["platform"] == named["platform"])

    def edited(record, **changes):
        return relink(index, [dataclasses.replace(record, data={**record.data, **changes})], schemas)[0]

    variants = {
        "kernel": edited(kernel, requirements=[]),
        "scheme": edited(scheme, candidates=[{**c, "kernels": c["kernels"][::-1]} if c is named else c
                                             for c in scheme.data["candidates"]]),
        "target": edited(target, platform="rocm" if target.data["platform"] != "rocm" else "cuda"),
        "source": edited(next(iter(index.all("source"))), name="Renamed"),
        "no kernel": link_records([r for r in records if r is not kernel], schemas)[0],
    }
    for name, variant in variants.items():
        kept = cells_module.derive_cells(variant)
        saved, cells_module._KEPT = cells_module._KEPT, LastFew()
        try:
            assert kept == cells_module.derive_cells(variant), name
        finally:
            cells_module._KEPT = saved
        reused = {key for key in kept if kept[key] is base[key]}
        if name == "source":
            assert reused == set(base)
        else:
            changed = {key for key in base if kept.get(key) != base[key]}  # gone: no list for the new platform
            assert changed and not changed & reused, name
            assert (scheme.id, target.id) not in reused and len(reused) > len(base) // 2, name


def test_a_precision_requirement_the_target_fails_keeps_the_kernel_at_another_precision():
    # humming-like: below capability 120 the engine still selects the kernel, but it computes with 16-bit activations.
    kernels = {"hum": {"requirements": [req("package", "needs humming", value="humming"),
                                        req("capability-min", "16-bit activations", value=120, declines=False,
                                            reason_verbatim=False)]},
               "next": {"requirements": []}}
    cell = derive_cell("s", scheme("hum", "next"), "t", GPU90, kernels)
    assert (cell.verdict, cell.kernel, cell.conditions, cell.computes_as) == (
        "fallback", "hum", ("package humming installed",), "16-bit activations")
    # Without the package the engine goes on to the next kernel, which runs as specified.
    assert [(o.unmet, o.verdict, o.selected) for o in cell.otherwise] == [(("package humming installed",), "runs", "next")]
    # Where the requirement holds, nothing changes; a declining requirement still refuses.
    assert derive_cell("s", scheme("hum", "next"), "t", {"platform": "cuda", "compute_capability": 120},
                       kernels).verdict == "runs"  # 'next' runs without the package
    kernels["hum"]["requirements"][1]["declines"] = True
    assert derive_cell("s", scheme("hum", "next"), "t", GPU90, kernels).kernel == "next"


def test_a_condition_the_default_install_meets_is_assumed_and_the_cell_runs_by_default():
    # 'fi' needs a package the engine's default install brings; without it 'last' computes weight-only (a fallback).
    kernels = {"fi": {"requirements": [req("package", "needs flashinfer", value="flashinfer", met_by_install=["fi-pkg"])],
                      "activation_handling": "quantized"},
               "last": {"requirements": [], "activation_handling": "as-given"}}
    data = {**scheme("fi", "last"), "config": {**CONFIG, "activation_quantized": True}}
    bare = derive_cell("s", data, "t", GPU90, kernels)
    assert (bare.verdict, bare.assumes) == ("runs-if", ())
    assert [(o.verdict, o.off_default) for o in bare.otherwise] == [("fallback", False)]
    installed = derive_cell("s", data, "t", GPU90, kernels, Install("pip install e", {"fi-pkg": "flashinfer 1.0"}))
    assert (installed.verdict, installed.kernel, installed.conditions) == ("runs", "fi", ("package flashinfer installed",))
    assert [(a.condition, a.install, a.route, a.facts) for a in installed.assumes] == [
        ("package flashinfer installed", "flashinfer 1.0", "pip install e", ("fi-pkg",))]
    assert installed.assumes[0].said == "package flashinfer installed (flashinfer 1.0 (pip install e))"
    # what runs without it is still said, marked as off the default install
    assert [(o.verdict, o.selected, o.off_default) for o in installed.otherwise] == [("fallback", "last", True)]
    # a fact of another install, or a condition the install does not decide, leaves the cell conditional
    assert derive_cell("s", data, "t", GPU90, kernels, Install("pip install e", {"other": "x"})).verdict == "runs-if"
    kernels["fi"]["requirements"].append(req("other", "needs per-tensor scales", condition="per-tensor scales"))
    mixed = derive_cell("s", data, "t", GPU90, kernels, Install("pip install e", {"fi-pkg": "flashinfer 1.0"}))
    assert mixed.verdict == "runs-if" and [o.off_default for o in mixed.otherwise] == [False]


def test_a_kernel_whose_condition_the_default_install_lacks_is_passed_over_by_default():
    # zentorch-like: the package comes only with an extra; with it, a switch at its default computes W4A8 instead.
    kernels = {"zen": {"requirements": [req("package", "needs zentorch", value="zentorch", met_by_install=["zen-pkg"]),
                                        req("env", "W4A8 at run time", value="W4A8=0", declines=False,
                                            reason_verbatim=False)]},
               "cpu": {"requirements": []}}
    data = scheme("zen", "cpu", platform="cpu")
    bare = derive_cell("s", data, "t", X86_AVX512, kernels)
    assert (bare.verdict, bare.default_kernel) == ("runs-if", "zen")  # nothing said about the install: as before
    extra = Install("pip install e", lacking={"zen-pkg": "zentorch only with the zen extra"})
    cell = derive_cell("s", data, "t", X86_AVX512, kernels, extra)
    # by default the engine passes over zen and runs cpu; the W4A8 step needs the opt-in, so it is off the default
    assert (cell.verdict, cell.kernel, cell.default_kernel) == ("runs", "zen", "cpu")
    assert [(o.verdict, o.selected, o.off_default) for o in cell.otherwise] == [("runs", "cpu", False),
                                                                                  ("fallback", "zen", True)]
    assert [(a.condition, a.met_by) for a in cell.opt_in] == [
        ("package zentorch installed", "zentorch only with the zen extra (pip install e)")]
    assert [a.route for a in cell.opt_in] == ["pip install e"]
    # when what the default install selects does not run as specified, the cell stays conditional
    kernels["cpu"]["requirements"] = [req("weight-type", "no int4", values=["int8"])]
    refused = derive_cell("s", data, "t", X86_AVX512, kernels, extra)
    assert (refused.verdict, refused.default_kernel) == ("runs-if", None)


def test_on_a_target_the_default_install_is_not_compiled_for_every_loading_cell_needs_a_build_first():
    kernels = {"tri": {"requirements": []},
               "emu": {"requirements": [req("capability-min", "16-bit activations", value=120, declines=False)]}}
    rocm = Install("pip install e --index rocm", builds=(Build(gfx=("gfx90a", "gfx942")),))
    old = {"platform": "rocm", "gfx": "gfx906", "compute_capability": 90}
    cell = derive_cell("s", scheme("tri", platform="rocm"), "t", old, kernels, rocm)
    assert (cell.verdict, cell.kernel) == ("runs-if", "tri")
    assert cell.conditions == ("a build compiled for gfx906 (the default install is compiled for gfx90a, gfx942 only)",)
    # what a default install does there: the engine selects the same kernel, which has no code for the target
    assert [(o.unmet, o.verdict, o.selected, o.reasons) for o in cell.otherwise] == [
        (cell.conditions, "fails-at-runtime", "tri", ("no code compiled for gfx906 in the default install's binaries",))]
    # a fallback keeps its verdict and gains the condition; a refusal is unchanged
    emulated = derive_cell("s", scheme("emu", platform="rocm"), "t", old, kernels, rocm)
    assert emulated.verdict == "fallback" and emulated.conditions[0].startswith("a build compiled for gfx906")
    kernels["none"] = {"requirements": [req("gfx", "needs gfx942", values=["gfx942"])]}
    refused = derive_cell("s", scheme("none", platform="rocm"), "t", old, kernels, rocm)
    assert (refused.verdict, refused.conditions) == ("refused", ())
    # a target the install is compiled for, or an install that states no list, changes nothing
    covered = {**old, "gfx": "gfx90a"}
    assert derive_cell("s", scheme("tri", platform="rocm"), "t", covered, kernels, rocm).verdict == "runs"
    assert derive_cell("s", scheme("tri", platform="rocm"), "t", old, kernels, Install("pip install e")).verdict == "runs"


def test_a_cuda_build_covers_the_capabilities_cudas_binary_compatibility_allows():
    # cubins for X.Y run on X.Z with Z >= Y, never across a major; PTX for X.Y is compiled on anything at or above it
    torch = Build("torch 2.15.0+cu132", cubins=(75, 80, 86, 90, 100, 120), source="wheel")
    assert [c for c in (70, 75, 86, 89, 90, 100, 103, 110, 120, 121, 130) if torch.missing({"compute_capability": c})] == [
        70, 110, 130]
    assert torch.missing({"compute_capability": 70}) == "compute capability 7.0"
    with_ptx = Build(cubins=(75, 80), ptx=(80,))
    assert [c for c in (70, 75, 90, 120) if with_ptx.missing({"compute_capability": c})] == [70]
    assert with_ptx.listed() == "7.5, 8.0 and PTX for 8.0"
    # a target that states no capability is not judged
    assert torch.missing({"platform": "cuda"}) == ""


def test_each_set_of_binaries_the_install_lacks_code_from_is_a_condition_of_its_own():
    kernels = {"tri": {"requirements": []}}
    engine = Build("vLLM's own kernels", cubins=(75, 80, 86, 89, 90, 100, 120), source="pipeline")
    torch = Build("torch 2.14.0+cu130", cubins=(75, 80, 86, 90, 100, 120), source="wheel")
    cuda = Install("pip install e", builds=(engine, torch))
    volta = {"platform": "cuda", "compute_capability": 70}
    cell = derive_cell("s", scheme("tri"), "t", volta, kernels, cuda)
    assert (cell.verdict, cell.kernel) == ("runs-if", "tri")
    assert cell.conditions == (
        "a build compiled for compute capability 7.0 in place of vLLM's own kernels (which has code for 7.5, 8.0, 8.6, 8.9, "
        "9.0, 10.0, 12.0 only)",
        "a build compiled for compute capability 7.0 in place of torch 2.14.0+cu130 (which has code for 7.5, 8.0, 8.6, 9.0, "
        "10.0, 12.0 only)")
    assert cell.otherwise[0].verdict == "fails-at-runtime" and cell.otherwise[0].reasons == (
        "no code compiled for compute capability 7.0 in the default install's vLLM's own kernels",
        "no code compiled for compute capability 7.0 in the default install's torch 2.14.0+cu130")
    # Ada has no cubin of its own in torch's list: the 8.6 cubin runs there
    assert derive_cell("s", scheme("tri"), "t", {"platform": "cuda", "compute_capability": 89}, kernels, cuda).verdict == "runs"


def test_a_refusal_made_after_the_engines_first_kernels_says_the_default_install_fails_before_it():
    kernels = {"tri": {"requirements": [req("capability-min", "needs 8.0", value=80)]}}
    torch = Build("torch 2.14.0+cu130", cubins=(75, 80), source="wheel")
    cuda = Install("pip install e", builds=(torch,), first_kernels="the worker multiplies a tensor before loading")
    volta = {"platform": "cuda", "compute_capability": 70}
    walked = derive_cell("s", scheme("tri"), "t", volta, kernels, cuda)
    assert walked.verdict == "refused" and walked.conditions == ()
    assert walked.reasons[-1] == (
        "with the default install it fails at run time before this refusal: the worker multiplies a tensor before "
        "loading, and the default install has no code compiled for compute capability 7.0 (torch 2.14.0+cu130)")
    # a gate the engine checks before its first kernels is what a default install meets, so it stands alone
    gated = {**scheme("tri"), "capability_gate": {"min": 75, "reason": "too old", "before_first_kernels": True}}
    assert derive_cell("s", gated, "t", volta, kernels, cuda).reasons == ("too old",)
    # the same gate checked while the model is built comes after them
    later = {**gated, "capability_gate": {"min": 75, "reason": "too old"}}
    assert derive_cell("s", later, "t", volta, kernels, cuda).reasons[1].startswith("with the default install it fails")
    # an engine that states no first kernels, or a target the install covers, keeps its reasons
    quiet = Install("pip install e", builds=(torch,))
    assert len(derive_cell("s", later, "t", volta, kernels, quiet).reasons) == 1
    turing = {"platform": "cuda", "compute_capability": 75}
    assert not any("default install" in r for r in derive_cell("s", scheme("tri"), "t", turing, kernels, cuda).reasons)


def test_an_empty_list_the_engine_refuses_before_its_first_kernels_keeps_its_refusal_alone():
    # vLLM's verify_quantization refuses a method the platform does not list in the front end, before the worker
    # runs anything on the device, so a target the default install has no code for meets that refusal first
    torch = Build("torch 2.13.0+rocm", gfx=("gfx942",), source="wheel")
    rocm = Install("pip install e", builds=(torch,), first_kernels="the worker multiplies a tensor before loading")
    vega = {"platform": "rocm", "gfx": "gfx906"}
    empty = {"engine": "e", "config": CONFIG, "candidates": [
        {"platform": "rocm", "kernels": [], "failure_message": "m quantization is currently not supported in rocm."}]}
    walked = derive_cell("s", empty, "t", vega, {}, rocm)
    assert walked.verdict == "refused" and walked.reasons[-1].startswith("with the default install it fails")
    first = {**empty, "candidates": [{**empty["candidates"][0], "before_first_kernels": True}]}
    refused = derive_cell("s", first, "t", vega, {}, rocm)
    assert refused.verdict == "refused" and refused.reasons == ("no candidate kernels for platform 'rocm'",)
    assert refused.failure_message == "m quantization is currently not supported in rocm."


def test_a_check_known_to_fail_declines_every_later_kernel_that_makes_it_too():
    # transformers' FP8 path: both the kernel and the dequantizing fallback need accelerate, so without it the
    # fallback is declined as well and the walk goes on; it never reads "falls back, if accelerate is installed"
    needs = req("package", "requires pkg", value="pkg")
    kernels = {"fast": {"requirements": [needs]}, "slow": {"requirements": [needs]}, "last": {"requirements": []}}
    cell = derive_cell("s", scheme("fast", "slow", "last"), "t", GPU80, kernels)
    assert cell.kernel == "fast"
    step = cell.otherwise[0]
    assert (step.unmet, step.selected, step.conditions) == (cell.conditions, "last", ())
    # with nothing after it, the walk ends in a refusal that names both kernels' message
    alone = derive_cell("s", scheme("fast", "slow"), "t", GPU80, {k: kernels[k] for k in ("fast", "slow")})
    assert (alone.otherwise[0].verdict, len(alone.otherwise[0].reasons)) == ("refused", 2)


def test_checks_declined_together_decline_every_later_kernel_that_makes_them_all():
    # transformers' GPTQ path: every GPTQModel kernel needs optimum and gptqmodel, which the quantizer tests before
    # any kernel is chosen; without one of them the next kernel is declined as well, never "runs if both installed"
    one = req("package", "requires one", value="one")
    two = req("package", "requires two", value="two")
    kernels = {"fast": {"requirements": [one, two]}, "slow": {"requirements": [one, two]},
               "other": {"requirements": [one]}, "last": {"requirements": []}}
    cell = derive_cell("s", scheme("fast", "slow", "last"), "t", GPU80, kernels)
    assert cell.kernel == "fast"
    assert [(o.selected, o.conditions) for o in cell.otherwise] == [("last", ())]
    alone = derive_cell("s", scheme("fast", "slow"), "t", GPU80, {k: kernels[k] for k in ("fast", "slow")})
    assert (alone.otherwise[0].verdict, len(alone.otherwise[0].reasons)) == ("refused", 2)
    # a kernel that makes only one of the checks is not known to fail: it may be the other one that failed
    partly = derive_cell("s", scheme("fast", "other", "last"), "t", GPU80, kernels)
    assert partly.otherwise[0].selected == "other"


def test_a_dtype_test_made_after_selection_keeps_the_kernel_and_fails_for_the_other_dtypes():
    # Marlin-like: can_implement has no dtype test, so a float32 model selects it and the kernel then stops on its
    # float32 input; the engine never goes on to 'next'.
    f32 = {**CONFIG, "activation_types": ["float16", "bfloat16", "float32"]}
    sixteen = req("activation-type", "16-bit input only", values=["float16", "bfloat16"], after_selection=True)
    kernels = {"mar": {"requirements": [sixteen], "activation_handling": "as-given"}, "next": {"requirements": []}}
    cell = derive_cell("s", {**scheme("mar", "next"), "config": f32}, "t", GPU80, kernels)
    assert (cell.verdict, cell.kernel, cell.conditions) == ("runs-if", "mar", ("activation dtype in {float16, bfloat16}",))
    assert [a.kernel for a in cell.attempts] == ["mar"]
    assert [(o.unmet, o.verdict, o.selected, o.reasons) for o in cell.otherwise] == [
        (cell.conditions, "fails-at-runtime", "mar", ("mar: 16-bit input only",))]
    # a weight-only fallback computes in the dtypes the kernel takes, never in the one it fails on
    quantized = derive_cell("s", {**scheme("mar", "next"), "config": {**f32, "activation_quantized": True}}, "t", GPU80,
                            kernels)
    assert (quantized.verdict, quantized.computes_as) == (
        "fallback", "int4 weights with activations left at float16/bfloat16 (weight-only arithmetic, activations unquantized)")
    # a scheme whose every dtype fails: selected, then fails
    only = derive_cell("s", {**scheme("mar", "next"), "config": {**f32, "activation_types": ["float32"]}}, "t", GPU80,
                       kernels)
    assert (only.verdict, only.kernel, only.reasons) == ("fails-at-runtime", "mar", ("mar: 16-bit input only",))
    # declined earlier for a package: the walk goes on with every dtype (float32 is not a dtype 'hum' declines)
    kernels["hum"] = {"requirements": [req("package", "needs humming", value="humming"), sixteen]}
    hopper = derive_cell("s", {**scheme("hum", "mar", "next"), "config": f32}, "t", GPU90, kernels)
    assert [(o.kernel, o.verdict, o.selected, o.conditions) for o in hopper.otherwise] == [
        ("hum", "runs-if", "mar", ("activation dtype in {float16, bfloat16}",)),
        ("hum", "fails-at-runtime", "hum", ("package humming installed",)),
        ("mar", "fails-at-runtime", "mar", ())]


def test_a_dtype_failure_that_only_an_explicit_dtype_reaches_leaves_the_cell_runs():
    """CUTLASS int8 on an A100 read 'runs if activation dtype in {float16, bfloat16}': only `--dtype float32` reaches
    the failure, since `--dtype auto` never gives float32 from capability 80 on. A target's `auto_dtypes` that the
    requirement all takes (after selection or at it) make it met by default; where auto can give float32 (Turing: gemma2 and
    glm4 refuse float16, and there is no bfloat16) the condition stays open."""
    f32 = {**CONFIG, "activation_types": ["float16", "bfloat16", "float32"]}
    sixteen = req("activation-type", "16-bit input only", values=["float16", "bfloat16"], after_selection=True)
    kernels = {"mar": {"requirements": [sixteen], "activation_handling": "as-given"}, "next": {"requirements": []}}
    ampere = derive_cell("s", {**scheme("mar", "next"), "config": f32}, "t",
                         {**GPU80, "auto_dtypes": ["bfloat16", "float16"]}, kernels)
    assert (ampere.verdict, ampere.kernel, ampere.conditions) == ("runs", "mar", ("activation dtype in {float16, bfloat16}",))
    assert [(a.condition, a.facts) for a in ampere.assumes] == [
        ("activation dtype in {float16, bfloat16}", ())]
    assert "--dtype auto" in ampere.assumes[0].install
    assert [(o.verdict, o.selected, o.off_default) for o in ampere.otherwise] == [("fails-at-runtime", "mar", True)]
    turing = derive_cell("s", {**scheme("mar", "next"), "config": f32}, "t",
                         {"platform": "cuda", "compute_capability": 75, "auto_dtypes": ["float16", "float32"]}, kernels)
    assert (turing.verdict, turing.assumes) == ("runs-if", ())
    assert [(o.verdict, o.off_default) for o in turing.otherwise] == [("fails-at-runtime", False)]
    # tested at selection, the same requirement is met by default just as well: only an explicit --dtype float32 makes
    # the engine go on to the next kernel, a step off the defaults
    declining = {**kernels, "mar": {"requirements": [{**sixteen, "after_selection": False}]}}
    before = derive_cell("s", {**scheme("mar", "next"), "config": f32}, "t",
                         {**GPU80, "auto_dtypes": ["bfloat16", "float16"]}, declining)
    assert (before.verdict, before.kernel) == ("runs", "mar")
    assert [a.condition for a in before.assumes] == ["activation dtype in {float16, bfloat16}"]
    assert [(o.verdict, o.selected, o.off_default) for o in before.otherwise] == [("runs", "next", True)]
    turing_before = derive_cell("s", {**scheme("mar", "next"), "config": f32}, "t",
                                {"platform": "cuda", "compute_capability": 75, "auto_dtypes": ["float16", "float32"]},
                                declining)
    assert turing_before.assumes == ()  # auto can give float32 there


def test_a_model_dtype_the_target_refuses_before_loading_is_not_tried_there():
    # vLLM refuses a bfloat16 model below CUDA capability 80 (check_if_supports_dtype) before any kernel is chosen:
    # on Turing a 16-bit scheme runs in float16 only, and a kernel that needs bfloat16 is declined, not conditional.
    turing = {"platform": "cuda", "compute_capability": 75, "model_dtypes": ["float16", "float32"]}
    kernels = {"bf16": {"requirements": [req("activation-type", "bf16 only", values=["bfloat16"])]},
               "any": {"requirements": [req("activation-type", "16-bit", values=["float16", "bfloat16"],
                                            after_selection=True)]}}
    cell = derive_cell("s", scheme("bf16", "any"), "t", turing, kernels)
    assert (cell.verdict, cell.kernel, cell.conditions) == ("runs", "any", ())
    assert cell.attempts[0].reason == "bf16 only"
    ampere = derive_cell("s", scheme("bf16", "any"), "t", GPU80, kernels)
    assert (ampere.verdict, ampere.kernel, ampere.conditions) == ("runs", "bf16", ("activation dtype in {bfloat16}",))
    quantized = {**CONFIG, "activation_types": ["float8_e4m3fn"]}  # an 8-bit act_type is not a model dtype: kept
    fp8 = {"engine": "e", "config": quantized, "candidates": [{"platform": "cuda", "kernels": ["fp8"]}]}
    only = {"fp8": {"requirements": [req("activation-type", "fp8", values=["float8_e4m3fn"])]}}
    assert derive_cell("s", fp8, "t", turing, only).verdict == "runs"


def test_a_targets_dtype_rules_bind_only_the_engine_they_belong_to():
    # vLLM refuses a bfloat16 model below capability 80; that is vLLM's platform code, not the GPU's: another engine's
    # cell on the same target tries bfloat16 and assumes nothing from vLLM's --dtype auto.
    turing = {"platform": "cuda", "compute_capability": 75, "dtypes_engine": "vllm", "model_dtypes": ["float16", "float32"],
              "auto_dtypes": ["float16", "float32"]}
    kernels = {"bf16": {"requirements": [req("activation-type", "bf16 only", values=["bfloat16"])]}}
    vllm = derive_cell("s", {**scheme("bf16"), "engine": "vllm"}, "t", turing, kernels)
    assert (vllm.verdict, vllm.attempts[0].reason) == ("refused", "bf16 only")
    other = derive_cell("s", {**scheme("bf16"), "engine": "other"}, "t", turing, kernels)
    assert (other.verdict, other.kernel, other.conditions) == ("runs-if", "bf16", ("activation dtype in {bfloat16}",))


def test_a_requirement_scoped_to_a_capability_ceiling_gfx_ids_or_weight_types_applies_only_there():
    # llama.cpp's MMQ batch limits: below Turing on NVIDIA, and per weight type on some CDNA generations only.
    batch = {"check": "other", "condition": "small batch", "reason": "goes to cuBLAS"}
    kernels = {"a": {"requirements": [{**batch, "when": {"platform": ["cuda"], "capability_max": 74}},
                                      {**batch, "condition": "at most 128 tokens",
                                       "when": {"gfx": ["gfx90a"], "weight_types": ["ggml_q8_0"]}}]}}
    volta = {"platform": "cuda", "compute_capability": 70}
    q8 = {"engine": "e", "config": {**CONFIG, "weight_type": "ggml_q8_0"},
          "candidates": [{"platform": p, "kernels": ["a"]} for p in ("cuda", "rocm")]}
    q4 = {**q8, "config": {**CONFIG, "weight_type": "ggml_q4_0"}}
    assert derive_cell("s", q8, "t", volta, kernels).conditions == ("small batch",)
    assert derive_cell("s", q8, "t", GPU80, kernels).verdict == "runs"  # above the ceiling
    assert derive_cell("s", q8, "t", {"platform": "cuda"}, kernels).verdict == "runs"  # no capability: no match
    cdna2, cdna3 = {"platform": "rocm", "gfx": "gfx90a"}, {"platform": "rocm", "gfx": "gfx942"}
    assert derive_cell("s", q8, "t", cdna2, kernels).conditions == ("at most 128 tokens",)
    assert derive_cell("s", q4, "t", cdna2, kernels).verdict == "runs"  # another weight type
    assert derive_cell("s", q8, "t", cdna3, kernels).verdict == "runs"  # another gfx id


def test_a_requirement_or_route_scoped_to_layers_applies_only_to_schemes_of_those_layers():
    # vllm-gguf-plugin 0.0.5 calls the same MMQ kernels for dense and expert layers, by other token rules: the dense
    # matmul takes MMVQ up to a few tokens, the MoE one takes MMQ above 64 (linear.py 37-48, fused_moe.py 56-60).
    kernels = {"mmq": {"requirements": [{"check": "other", "condition": "more than 64 tokens", "reason": "goes on",
                                         "when": {"layers": ["experts"]}},
                                        {"check": "other", "condition": "a few tokens", "reason": "goes on",
                                         "when": {"layers": ["dense"]}}],
                       "routes": [{"name": "dense", "description": "ggml_mul_mat_a8", "when": {"layers": ["dense"]}},
                                  {"name": "moe", "description": "ggml_moe_a8", "when": {"layers": ["experts"]}}]}}
    dense = scheme("mmq")
    experts = {**dense, "layers": "experts"}
    assert derive_cell("s", dense, "t", GPU90, kernels).conditions == ("a few tokens",)  # dense is the default
    assert derive_cell("s", {**dense, "layers": "dense"}, "t", GPU90, kernels).attempts[0].routes == ("dense",)
    moe = derive_cell("s", experts, "t", GPU90, kernels)
    assert (moe.conditions, moe.attempts[0].routes) == (("more than 64 tokens",), ("moe",))


def test_the_cells_quick_copy_is_dataclasses_replace_for_every_cell_dataclass():
    """derive/cells.py copies its frozen dataclasses without running __init__ again (_replaced): that is replace only
    while none has a __post_init__ or a field left out of __init__, which this pins."""
    import dataclasses
    import inspect

    from generators.derive import cells
    from generators.model.verdicts import Verdict
    classes = [c for _, c in inspect.getmembers(cells, inspect.isclass)
               if dataclasses.is_dataclass(c) and c.__module__ == cells.__name__]
    assert {"Cell", "Attempt", "Otherwise", "Assumed"} <= {c.__name__ for c in classes}
    for dataclass_ in classes:
        assert not hasattr(dataclass_, "__post_init__"), dataclass_
        assert all(f.init for f in dataclasses.fields(dataclass_)), dataclass_
    cell = cells.Cell("e", "s", "t", Verdict.RUNS, "k", ("c",), ())
    for changes in ({}, {"verdict": Verdict.FALLBACK, "conditions": ()}, {"kernel": None, "gate": "g"}):
        copy = cells._replaced(cell, **changes)
        assert copy == dataclasses.replace(cell, **changes) and copy is not cell
        assert vars(copy) == vars(dataclasses.replace(cell, **changes))
    assert cell.verdict is Verdict.RUNS and cell.conditions == ("c",)  # the original is left as it was
    with pytest.raises(TypeError, match="no field 'verdik'"):
        cells._replaced(cell, verdik=Verdict.RUNS)


def test_alternative_downloads_cover_a_target_when_one_does_and_ptx_needs_a_driver_of_its_toolkit():
    kernels = {"tri": {"requirements": []}}

    def cell(capability: int, *builds: Build):
        return derive_cell("s", scheme("tri"), "t", {"platform": "cuda", "compute_capability": capability}, kernels,
                           Install("download one", builds=builds))

    new = Build("new.tar", cubins=(86, 120), ptx=(75,), source="cmake", one_of="assets", toolkit="13.4")
    old = Build("old.tar", cubins=(86,), ptx=(70,), source="cmake", one_of="assets", toolkit="12.8")
    # a cubin in every download: nothing to choose
    assert (cell(86, new, old).verdict, cell(86, new, old).conditions) == ("runs", ())
    # only the old download has code for 7.0, and only as PTX: take it, with a driver of its toolkit
    volta = cell(70, new, old)
    assert (volta.verdict, volta.conditions) == ("runs-if", (
        "old.tar with a driver that supports CUDA 12.8 or later (its code here is PTX for 7.0, which the driver compiles when "
        "it first loads it; a driver older than the toolkit refuses it with CUDA error 222, 'the provided PTX was "
        "compiled with an unsupported toolchain'); new.tar carries no code for 7.0",))
    assert volta.otherwise[0].verdict == "fails-at-runtime" and volta.otherwise[0].reasons == (
        "no code compiled for compute capability 7.0 in new.tar",
        "old.tar with a driver older than CUDA 12.8: CUDA error 222 when the driver compiles its PTX for 7.0 at load")
    # both run 8.0 from PTX: either, each with its driver
    ampere = cell(80, new, old)
    assert ampere.conditions[0].startswith(
        "either new.tar with a driver that supports CUDA 13.4 or later, or old.tar with a driver that supports CUDA 12.8 "
        "or later (the code of each here is PTX, which")
    # audit44s: each failure names the PTX the driver compiles, by its own architecture, never the device's (there is
    # no PTX for 8.0 in either download)
    assert ampere.otherwise[0].reasons == (
        "new.tar with a driver older than CUDA 13.4: CUDA error 222 when the driver compiles its PTX for 7.5 at load",
        "old.tar with a driver older than CUDA 12.8: CUDA error 222 when the driver compiles its PTX for 7.0 at load")
    # a cubin in one download and nothing in the other: take the one, with no driver to name
    bare = Build("bare.tar", cubins=(70, 86), source="cmake", one_of="assets")
    assert cell(120, new, bare).conditions == ("new.tar; bare.tar carries no code for 12.0",)
    # none has code for 6.1: each download needs a build in its place, as binaries that run together would
    assert [c.split(" (")[0] for c in cell(61, new, bare).conditions] == [
        "a build compiled for compute capability 6.1 in place of new.tar",
        "a build compiled for compute capability 6.1 in place of bare.tar"]
    # PTX from an unstated toolkit, in a build of its own, is taken to load
    assert cell(80, Build("lib", cubins=(86,), ptx=(80,), source="w")).verdict == "runs"


def test_a_step_without_the_installs_download_or_build_is_marked_as_the_installs_not_the_kernels():
    """cond1wording33: without the download and driver a target needs (llama.cpp's CUDA 12.8 binary on a V100), or a
    build for an uncovered target, every kernel of the binaries fails, not the selected one alone; the step says the
    condition is the install's (`of_install`), so a card does not name the kernel as where it fails. A kernel's own
    condition (a batch bound) stays the kernel's."""
    kernels = {"a": {"requirements": [{"check": "other", "condition": "at most 8 tokens", "reason": "goes to b"}]},
               "b": {"requirements": []}}

    def cell(capability: int, *builds: Build):
        return derive_cell("s", scheme("a", "b"), "t", {"platform": "cuda", "compute_capability": capability}, kernels,
                           Install("download one", builds=builds))

    new = Build("new.tar", cubins=(86,), source="cmake", one_of="assets", toolkit="13.4")
    old = Build("old.tar", cubins=(86,), ptx=(70,), source="cmake", one_of="assets", toolkit="12.8")
    volta = cell(70, new, old)
    assert [(o.kernel, o.verdict, o.of_install) for o in volta.otherwise] == [
        ("a", "fails-at-runtime", True), ("a", "runs", False)]
    assert volta.otherwise[0].as_dict()["of_install"] is True and volta.otherwise[1].as_dict()["of_install"] is False
    # no download has code for 6.1: a build for it is the install's condition too
    assert [o.of_install for o in cell(61, new, old).otherwise][:1] == [True]
    assert not any(o.of_install for o in cell(86, new, old).otherwise)


def test_a_step_of_the_install_fails_only_where_the_model_is_placed_on_the_target():
    """mps39t: transformers' dequantized FP8 on a V100 with the default torch (no code for 7.0): without a device_map
    the model loads and runs on the host CPU, so the install's missing code fails only given the placement; its step
    names the placement as a condition, and the placement's own step does not need the build."""
    placed = req("other", "no device_map: the model loads on the CPU", condition="device_map names cuda",
                 elsewhere="the host CPU", reason_verbatim=False, when={"platform": ["cuda"]})
    kernels = {"dq": {"requirements": [placed]}}
    old = Build("old.tar", cubins=(86,), source="cmake", one_of="assets", toolkit="13.4")
    volta = derive_cell("s", scheme("dq"), "t", {"platform": "cuda", "compute_capability": 70}, kernels,
                        Install("download one", builds=(old,)))
    assert [(o.verdict, o.of_install, o.conditions, o.elsewhere) for o in volta.otherwise] == [
        ("fails-at-runtime", True, ("device_map names cuda",), ""), ("runs", False, (), "the host CPU")]
    # a kernel without a placement condition: the install's step needs nothing more
    kernels["dq"]["requirements"] = []
    assert [o.conditions for o in derive_cell("s", scheme("dq"), "t", {"platform": "cuda", "compute_capability": 70},
                                               kernels, Install("download one", builds=(old,))).otherwise] == [()]


def test_explain_says_a_step_of_the_install_is_the_installs_not_the_selected_kernels():
    """cond1wording33s: `explain` printed "(for a)" on the install's step (the card says "a condition of the install");
    it now says whose condition it is as the card does, and a kernel's own condition still names the kernel."""
    from generators.explain import otherwise_lines
    kernels = {"a": {"requirements": [{"check": "other", "condition": "at most 8 tokens", "reason": "goes to b"}]},
               "b": {"requirements": []}}
    old = Build("old.tar", cubins=(86,), ptx=(70,), source="cmake", one_of="assets", toolkit="12.8")
    volta = derive_cell("s", scheme("a", "b"), "t", {"platform": "cuda", "compute_capability": 70}, kernels,
                        Install("download one", builds=(old,)))
    unless = [line for line in otherwise_lines(volta) if line.lstrip().startswith("unless ")]
    assert unless[0].endswith("(for the install, whichever kernel the engine selects):")
    assert unless[1] == "    unless at most 8 tokens (for a):"

def test_a_kernel_that_fails_after_selection_only_with_a_package_the_install_lacks_is_not_the_default_answer():
    # 'fi' is selected where its package is usable and then fails on this target; the default install lacks the
    # package, so vLLM goes on to 'last': that is what a default install gets, and the failure is a step off the defaults.
    kernels = {"fi": {"requirements": [req("package", "needs fi", value="fi", met_by_install=["fi-pkg"]),
                                       req("activation-type", "no fp16 GEMM here", values=["float32"], after_selection=True)]},
               "last": {"requirements": []}}
    lacking = Install("pip install e", lacking={"fi-pkg": "fi only with the fi extra"})
    cell = derive_cell("s", scheme("fi", "last"), "t", GPU90, kernels, lacking)
    assert (cell.verdict, cell.kernel, cell.default_kernel) == ("runs", "last", "last")
    # the failure is the step without what the answer rests on, the install's lack (a condition of 'last', met by the
    # defaults); read after "without", it says an install that adds the package gets the failure
    assert [(o.kernel, o.verdict, o.selected, o.off_default) for o in cell.otherwise] == [
        ("last", "fails-at-runtime", "fi", True)]
    assert cell.otherwise[0].unmet == ("the default install's lack of package fi installed",)
    assert [(a.condition, a.facts) for a in cell.assumes] == [("the default install's lack of package fi installed", ("fi-pkg",))]
    assert cell.opt_in == ()  # opting in to the package leads to the failure, not to this answer
    # an install that brings the package, or one that says nothing of it, keeps the failure as the cell
    brought = Install("pip install e", {"fi-pkg": "fi 1.0"})
    assert derive_cell("s", scheme("fi", "last"), "t", GPU90, kernels, brought).verdict == "fails-at-runtime"
    assert derive_cell("s", scheme("fi", "last"), "t", GPU90, kernels).verdict == "fails-at-runtime"


def test_a_list_a_setting_filters_runs_only_given_the_setting_where_the_whole_list_falls_back():
    """vLLM's --linear-backend filters the XPU FP8 list before any kernel is tried: left whole (the default) its
    weight-only kernel comes first, a fallback; xpu keeps the FP8 x FP8 kernel alone. The cell runs only given the
    setting (runs-if, as the verdict rules give), a default install selecting the whole list's kernel, which is what
    runs without it."""
    kernels = {"woq": {"requirements": [], "activation_handling": "as-given", "linear_backends": ["xpu_woq"]},
               "w8a8": {"requirements": [], "activation_handling": "quantized", "linear_backends": ["xpu"]}}
    data = {**scheme("woq", "w8a8", platform="xpu"), "config": {**CONFIG, "activation_quantized": True}}
    whole = derive_cell("s", data, "t", {"platform": "xpu"}, kernels)
    assert (whole.verdict, whole.kernel) == ("fallback", "woq")
    data["candidates"][0]["filter"] = {"setting": "--linear-backend", "values": ["xpu", "torch"], "locator": "l"}
    cell = derive_cell("s", data, "t", {"platform": "xpu"}, kernels)
    assert (cell.verdict, cell.kernel, cell.default_kernel) == ("runs-if", "w8a8", "woq")
    assert cell.conditions[0].startswith("--linear-backend xpu")
    assert [(o.unmet, o.verdict, o.selected) for o in cell.otherwise] == [(cell.conditions[:1], "fallback", "woq")]
    # where the whole list runs as specified, the setting changes nothing worth saying
    kernels["woq"]["activation_handling"] = "quantized"
    assert derive_cell("s", data, "t", {"platform": "xpu"}, kernels).kernel == "woq"
    # and where no value's list runs as specified, the cell is the whole list's
    kernels["woq"]["activation_handling"], kernels["w8a8"]["linear_backends"] = "as-given", ["other"]
    kernels["w8a8"]["activation_handling"] = "as-given"
    assert (derive_cell("s", data, "t", {"platform": "xpu"}, kernels).verdict) == "fallback"


def test_a_verdict_decided_by_a_step_marked_inferred_is_known_by_inference_not_read():
    # TensorRT-LLM's cublas_scaled_mm below 8.9: selected, then expected to fail in cuBLASLt, a step read in PyTorch's
    # report, not in the engine; the same requirement unmarked is read from code
    failing = req("capability-min", "fails in cuBLASLt", value=89, after_selection=True)
    cell = derive_cell("s", scheme("a"), "t", GPU80, {"a": {"requirements": [{**failing, "inferred": True}]}})
    assert (cell.verdict, cell.known_by, cell.attempts[0].inferred) == ("fails-at-runtime", KnownBy.INFERRED, True)
    assert derive_cell("s", scheme("a"), "t", GPU80, {"a": {"requirements": [failing]}}).known_by is KnownBy.CODE
    # where it holds it decides that the kernel runs (TensorRT-LLM's CUTLASS FP4 dispatch, read at another commit,
    # both throws below SM 100 and runs on it): that cell is inferred too, and its attempt names the step it meets
    runs = derive_cell("s", scheme("a"), "t", GPU90, {"a": {"requirements": [{**failing, "inferred": True}]}})
    assert (runs.verdict, runs.known_by, runs.attempts[0].inferred_steps) == ("runs", KnownBy.INFERRED,
                                                                             (InferredStep("compute capability at least 8.9"),))
    assert derive_cell("s", scheme("a"), "t", GPU90, {"a": {"requirements": [failing]}}).known_by is KnownBy.CODE


def test_a_kernel_that_loads_is_inferred_on_an_inferred_requirement_it_meets_or_takes_as_a_condition_only():
    met = req("capability-min", "dispatch read elsewhere", value=80, inferred=True)
    unmet = req("capability-min", "dispatch read elsewhere", value=100, inferred=True)
    undecided = {"check": "other", "reason": "a build carrying the kernel", "inferred": True}
    kernels = {"a": {"requirements": [unmet]}, "b": {"requirements": [undecided]}, "c": {"requirements": [met]}}
    # a runs-if kernel's inferred condition decides it too
    conditional = derive_cell("s", scheme("b"), "t", GPU90, kernels)
    assert (conditional.verdict, conditional.known_by) == ("runs-if", KnownBy.INFERRED)
    assert [step.checks for step in conditional.attempts[0].inferred_steps] == [
        "the checkpoint passes the check that otherwise refuses with “a build carrying the kernel”"]
    assert derive_cell("s", scheme("c"), "t", GPU90, kernels).known_by is KnownBy.INFERRED
    # a kernel that meets one and then declines on a step read decides only by that decline, and a kernel the walk
    # never reaches decides nothing: the kernel that runs after or before it is read from code
    kernels["a"]["requirements"] = [met, req("capability-min", "read here", value=100)]
    kernels["d"] = {"requirements": []}
    declined = derive_cell("s", scheme("a", "d"), "t", GPU90, kernels)
    assert (declined.kernel, declined.attempts[0].inferred_steps, declined.known_by) == ("d", (), KnownBy.CODE)
    assert derive_cell("s", scheme("d", "c"), "t", GPU90, kernels).known_by is KnownBy.CODE


def test_an_inferred_decline_makes_a_refusal_and_the_kernel_selected_after_it_inferred_but_not_a_later_one():
    inferred = {"requirements": [req("capability-min", "needs 90", value=90, inferred=True)]}
    read = {"requirements": [req("capability-min", "needs 90", value=90)]}
    runs = {"requirements": []}
    assert derive_cell("s", scheme("a", "b"), "t", GPU80, {"a": inferred, "b": read}).known_by is KnownBy.INFERRED
    assert derive_cell("s", scheme("a", "b"), "t", GPU80, {"a": read, "b": read}).known_by is KnownBy.CODE
    # the decline decides which kernel runs
    assert derive_cell("s", scheme("a", "b"), "t", GPU80, {"a": inferred, "b": runs}).known_by is KnownBy.INFERRED
    # a candidate after the selected one decides nothing
    assert derive_cell("s", scheme("b", "a"), "t", GPU80, {"a": inferred, "b": runs}).known_by is KnownBy.CODE


def test_a_cell_that_runs_through_a_conditional_kernel_rests_on_the_kernel_that_runs_where_it_does_not_hold():
    # TensorRT-LLM's FP8 on Ada: the CUDA-core kernel for at most 8 rows, cuBLASLt (whose gate is inferred) beyond:
    # the cell runs either way, and beyond 8 rows only by the inferred step
    rows = {"check": "other", "condition": "at most 8 rows", "opposite_of": "more than 8 rows", "reason": "cuBLASLt"}
    kernels = {"a": {"requirements": [rows]},
               "b": {"requirements": [req("capability-min", "dispatch read elsewhere", value=80, inferred=True)]}}
    cell = derive_cell("s", scheme("a", "b"), "t", GPU90, kernels)
    assert (cell.verdict, cell.kernel, cell.known_by) == ("runs", "a", KnownBy.INFERRED)
    kernels["b"]["requirements"][0]["inferred"] = False
    assert derive_cell("s", scheme("a", "b"), "t", GPU90, kernels).known_by is KnownBy.CODE


def test_a_candidate_list_marked_inferred_makes_every_cell_it_decides_inferred_but_not_a_gate_before_it():
    # TensorRT-LLM's W8A8 SmoothQuant: get_quant_method (read) has no branch for the quant-mode flags the algorithms
    # set, flags read in an older mode.py: the refusal of the empty list rests on that step
    empty = {**scheme(), "candidates": [{"platform": "cuda", "kernels": [], "failure_message": "unsupported",
                                         "locator": "flags read at another commit"}]}
    assert derive_cell("s", empty, "t", GPU90, {}).known_by is KnownBy.CODE
    empty["candidates"][0]["inferred"] = True
    refused = derive_cell("s", empty, "t", GPU90, {})
    assert (refused.verdict, refused.known_by) == ("refused", KnownBy.INFERRED)
    # a walked list too, and a capability gate that refuses first decides without the list
    walked = scheme("a")
    walked["candidates"][0]["inferred"] = True
    assert derive_cell("s", walked, "t", GPU90, {"a": {"requirements": []}}).known_by is KnownBy.INFERRED
    gated = derive_cell("s", {**walked, "capability_gate": {"min": 100, "reason": "needs 100"}}, "t", GPU90,
                        {"a": {"requirements": []}})
    assert (gated.verdict, gated.gate, gated.known_by) == ("refused", "needs 100", KnownBy.CODE)


def test_known_by_inference_is_said_with_the_version_read_and_that_a_step_was_not_read():
    said = known_by_said(KnownBy.INFERRED, "commit 00bbf71")
    assert said.startswith("inferred from the engine's dispatch code read at commit 00bbf71")
    assert "not read in the engine" in said and not said.startswith("read from")
    assert "not read in the engine" in KNOWN_BY_MEANINGS[KnownBy.INFERRED]
