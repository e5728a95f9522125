"""A trap is listed on a support answer only when every part of its declared scope matches that answer."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from generators.derive.history import release_key
from generators.derive.members import members
from generators.derive.trap_scope import TrapScope, in_releases, parts_named
from generators.model.atlas import Atlas


def _mismatches(atlas: Atlas, scheme_id: str, target_id: str, trap: dict[str, Any]) -> list[str]:
    """Every declared scope dimension of `trap` that the answer (scheme, target) does not match, restated from the
    records themselves (not from the code under test)."""
    cell = atlas.views.cells[(scheme_id, target_id)]
    scheme = atlas.index.must("scheme", scheme_id).data
    target = atlas.index.must("hardware-target", target_id)
    engine = atlas.index.must("engine", cell.engine).data
    wrong = []
    on_hardware = trap.get("engines") and (trap.get("platforms") or trap.get("accelerators"))
    if not trap.get("formats") and not trap.get("kernels") and not trap.get("schemes") and not on_hardware:
        wrong.append("names no scheme, format or kernel, nor an engine on some hardware")
    if trap.get("schemes") and scheme_id not in trap["schemes"]:
        wrong.append(f"scheme {scheme_id}")
    if trap.get("engines") and cell.engine not in trap["engines"]:
        wrong.append(f"engine {cell.engine}")
    if not trap.get("engines") and trap.get("unverified"):
        wrong.append("a claim about every engine that no primary source backs")
    printed = " ".join([cell.failure_message, *cell.reasons])
    if not trap.get("kernels") and cell.verdict == "refused" and not any(m in printed for m in trap.get("messages", [])):
        wrong.append("nothing loads, and the refusal is not the trap's message")
    if trap.get("formats") and not set(trap["formats"]) & set(scheme.get("formats", [])):
        wrong.append(f"formats {scheme.get('formats', [])}")
    if trap.get("platforms") and target.data["platform"] not in trap["platforms"]:
        wrong.append(f"platform {target.data['platform']}")
    if trap.get("accelerators") and not set(trap["accelerators"]) & set(members(atlas.index, target)):
        wrong.append("no named accelerator in the target")
    if trap.get("kernels"):
        serving = {a.kernel for a in cell.attempts if a.outcome in ("yes", "conditional") and not a.after_selection}
        serving |= {cell.kernel} if cell.kernel else set()
        refusal = (not serving and set(trap["kernels"]) & {a.kernel for a in cell.attempts}
                   and any(m in printed for m in trap.get("messages", [])))
        if not (set(trap["kernels"]) & serving or refusal):
            wrong.append(f"kernel {cell.kernel}")
    if trap.get("layers") and trap["layers"] != scheme.get("layers", "dense"):
        wrong.append(f"layers {scheme.get('layers', 'dense')}")
    parts = members(atlas.index, target)
    if trap.get("native") and parts and all(f in atlas.views.tallies[p].emulated for p in parts for f in trap["native"]):
        wrong.append("every part is derived to emulate the named formats")
    releases = (trap.get("scope") or {}).get("releases")
    if releases and releases["engine"] == cell.engine:
        read = release_key(str(engine["version_read"]))
        if ("first" in releases and read < release_key(releases["first"])) or (
                "last" in releases and read > release_key(releases["last"])):  # (either bound may be absent)
            wrong.append(f"release {engine['version_read']}")
    return wrong


def test_every_trap_listed_on_an_answer_matches_its_whole_scope(real_atlas: Atlas):
    atlas = real_atlas
    wrong = {(s, t, trap): why for (s, t), answer in atlas.views.answers.items() for trap in answer.traps
             if (why := _mismatches(atlas, s, t, atlas.index.must("gotcha", trap).data))}
    assert wrong == {}


def test_every_trap_whose_scope_matches_an_answer_is_listed(real_atlas: Atlas):
    atlas = real_atlas
    missing = [(s, t, g.id) for (s, t), answer in atlas.views.answers.items() for g in atlas.index.all("gotcha")
               if not _mismatches(atlas, s, t, g.data) and g.id not in answer.traps]
    assert missing == []


def test_awq_on_an_a10_lists_no_w4a8_trap_and_computes_in_16_bit(real_atlas: Atlas):
    answer = real_atlas.views.answers[("vllm-awq-marlin", "nvidia-sm86")]
    assert [t for t in answer.traps if "w4a8" in t] == []
    assert answer.computes_in == ("fp16", "bf16")


@pytest.mark.parametrize("scheme, computes_in", [
    ("vllm-ct-w4a8-int", ("int8-w8a8",)), ("vllm-ct-w8a8-fp8", ("fp8-e4m3",)), ("vllm-ct-wna16", ("fp16", "bf16")),
    ("vllm-ct-w8a16-fp8", ("fp16", "bf16")), ("mlx-lm-nvfp4", ("fp16", "bf16")), ("mlx-lm-mxfp8", ("fp16", "bf16")),
    ("mlx-lm-mxfp4", ("fp16", "bf16")), ("transformers-mxfp4", ("fp16", "bf16"))])
def test_computes_in_is_a_hardware_format_every_scheme_format_allows(real_atlas: Atlas, scheme: str, computes_in: tuple[str, ...]):
    answers = [a for (s, t), a in real_atlas.views.answers.items()  # (SM 7.5 has no BF16; Hopper's MXFP4 kernel below;
               if s == scheme and a.cell.verdict.runs_as_specified  # CDNA 3 computes FP8 in FNUZ: test_golden_cells)
               and t not in ("nvidia-sm75", "nvidia-sm80", "nvidia-sm86", "nvidia-sm90", "amd-gfx942")]
    assert answers and {a.computes_in for a in answers} == {computes_in}


def test_a_running_cell_computes_only_in_the_dtypes_its_kernel_takes_there(real_atlas: Atlas):
    """The Hub MXFP4 kernel's Hopper path asserts a bfloat16 input (a280554), and below 8.9 Triton 3.9's FP4-to-FP16
    upcast needs an sm_89 instruction (5c900f1): transformers' MXFP4 cells on SM 7.5 to 9.0 but 8.9 run only with
    bfloat16 and so compute in BF16, while on SM 8.9 and 10.x it takes both 16-bit types."""
    answers = real_atlas.views.answers
    for target in ("nvidia-sm75", "nvidia-sm80", "nvidia-sm86", "nvidia-sm90"):
        assert answers[("transformers-mxfp4", target)].computes_in == ("bf16",), target
    for target in ("nvidia-sm89", "nvidia-sm100"):
        assert answers[("transformers-mxfp4", target)].computes_in == ("fp16", "bf16"), target
    assert answers[("vllm-ct-wna16", "nvidia-sm90")].computes_in == ("fp16", "bf16")  # both 16-bit types reach Machete


def test_a_weight_only_scheme_stored_in_a_hardware_format_does_not_compute_in_it(real_atlas: Atlas):
    """Its weights are FP4/FP8 codes, but the kernels decode them and multiply in the activations' precision. Since the
    MLX-LM and transformers MXFP4 schemes name the weight-only format w4a16-mxfp4 (2026-12-03), no scheme with a
    running cell names a hardware format with unquantized activations, so the rule is tested on a record made here and
    on exllamav3-fp8-dequant (FP8 weights, float16 activations; none of its cells runs as specified)."""
    from generators.derive.answers import scheme_computes_in
    from tests.memory_atlas import record
    config = {"weight_type": "float4_e2m1f", "activation_types": ["bfloat16", "float16"], "activation_quantized": False}
    stored_in_mxfp4 = record("scheme", "stored-in-mxfp4", {"formats": ["mxfp4"], "config": config})
    assert scheme_computes_in(real_atlas.index, stored_in_mxfp4) == ()
    exl3_fp8 = real_atlas.index.get("scheme", "exllamav3-fp8-dequant")
    assert exl3_fp8 is not None and scheme_computes_in(real_atlas.index, exl3_fp8) == ()


def test_a_weight_only_scheme_computes_only_in_the_activation_types_it_takes(real_atlas: Atlas):
    """GPTQ checkpoints allow FP16 and BF16 (the format's computes_in); an engine that takes only float16 (ExLlamaV2
    casts every model to half) computes in FP16 alone."""
    from generators.derive.answers import scheme_computes_in
    from tests.memory_atlas import record
    config = {"weight_type": "uint4b8", "activation_types": ["float16"], "activation_quantized": False}
    half_only = record("scheme", "half-only", {"formats": ["gptq"], "config": config})
    assert scheme_computes_in(real_atlas.index, half_only) == ("fp16",)
    both = record("scheme", "both", {"formats": ["gptq"], "config": {**config, "activation_types": ["bfloat16", "float16"]}})
    assert set(scheme_computes_in(real_atlas.index, both)) == {"fp16", "bf16"}


@pytest.mark.parametrize("scheme", ["vllm-gptq-marlin", "vllm-awq-marlin", "vllm-ct-wna16"])
def test_on_turing_a_cell_does_not_compute_in_bfloat16(real_atlas: Atlas, scheme: str):
    # vLLM refuses a bfloat16 model below capability 80 before loading (CudaPlatform.check_if_supports_dtype).
    assert real_atlas.views.answers[(scheme, "nvidia-sm75")].computes_in == ("fp16",)
    assert real_atlas.views.answers[(scheme, "nvidia-sm80")].computes_in == ("fp16", "bf16")


def test_the_sm121a_trap_stays_on_the_target_that_holds_gb10(real_atlas: Atlas):
    answers = real_atlas.views.answers
    holding = [t for (s, t), a in answers.items() if "vllm-marlin-input-dtype-fp8-sm121a-garbage" in a.traps]
    assert set(holding) == {"nvidia-sm120"}


def test_the_marlin_moe_input_dtype_traps_sit_on_the_answers_and_parts_each_bites(real_atlas: Atlas):
    """VLLM_MARLIN_INPUT_DTYPE breaks AWQ experts under int8 on SM 7.5 and up but 9.0, and compressed-tensors MXFP4
    experts under fp8 on SM 8.9 and 12.x only (fp8 is refused elsewhere, CUTLASS serves 10.x): one record for both
    listed the MXFP4 case on no compressed-tensors MXFP4 answer, where a MoE checkpoint meets it (finding
    trap47-audit-2026-12-05)."""
    answers = real_atlas.views.answers

    def holding(trap: str) -> set[tuple[str, str]]:
        return {key for key, a in answers.items() if trap in a.traps}

    awq = {("vllm-awq-marlin", t) for t in ("nvidia-sm75", "nvidia-sm80", "nvidia-sm86", "nvidia-sm89", "nvidia-sm100",
                                             "nvidia-sm120")}
    assert holding("vllm-marlin-moe-input-dtype-mismatched-expert-weights") == awq
    assert holding("vllm-marlin-moe-fp8-input-mxfp4-experts-unprepared") == {
        ("vllm-ct-w4a4-mxfp4", "nvidia-sm89"), ("vllm-ct-w4a4-mxfp4", "nvidia-sm120")}


def test_a_trap_past_its_last_affected_release_is_not_listed(real_atlas: Atlas):
    answers = real_atlas.views.answers
    assert "vllm-w4a8-int8-checkpoint-takes-fp8-scheme-sm90" not in answers[("vllm-ct-w4a8-fp8", "nvidia-sm90")].traps
    sm90 = next(t for t in real_atlas.views.target_selections if t.target == "nvidia-sm90")
    assert "vllm-w4a8-int8-checkpoint-takes-fp8-scheme-sm90" not in sm90.traps


def test_no_trap_warns_where_nothing_loads_or_where_no_source_names_the_engine(real_atlas: Atlas):
    """The gate/up scale trap (an NVFP4 MoE checkpoint loads with mismatched scales) sat on NVFP4 cells where vLLM
    loads nothing (CPU, XPU, SM70; since moe48 it is kept to expert layers, whose CPU answers load nothing either),
    and an unverified trap naming no engine (NVFP4 with bfloat16 garbles output on
    parts without native FP4) sat on vLLM's SM89 cell, which runs NVFP4 on Marlin in bfloat16."""
    answers = real_atlas.views.answers
    for target in ("arm-cpu", "intel-gpu", "nvidia-sm70", "x86-cpu-avx2"):
        assert "nvfp4-fused-moe-gate-up-scale-mismatch" not in answers[("vllm-ct-w4a4-nvfp4", target)].traps
    for target in ("arm-cpu", "x86-cpu-avx2"):  # the W4A4 experts are refused there too (moe48)
        assert "nvfp4-fused-moe-gate-up-scale-mismatch" not in answers[("vllm-ct-w4a4-nvfp4-moe", target)].traps
    assert "nvfp4-fused-moe-gate-up-scale-mismatch" in answers[("vllm-ct-w4a4-nvfp4-moe", "nvidia-sm100")].traps
    assert "nvfp4-bf16-dtype-garbled-without-native-fp4" not in answers[("vllm-ct-w4a4-nvfp4", "nvidia-sm89")].traps


def _bounded(first: str, last: str = "", engine: str = "llama-cpp") -> TrapScope:
    return TrapScope("t", frozenset({engine}), frozenset({"gguf-q4-0"}), frozenset(), frozenset(), frozenset(), (),
                     engine, first, last)


@pytest.mark.parametrize("release, inside", [
    ("b9999", False), ("b10039", False), ("b10040", True), ("b10500", True), ("b10588", True), ("b10589", False),
    ("b11312", False)])
def test_a_build_range_bounds_llama_cpp_builds_by_number(release: str, inside: bool):
    assert in_releases(_bounded("b10040", "b10588"), "llama-cpp", release) is inside


@pytest.mark.parametrize("release, inside", [("b999", False), ("b10039", False), ("b10040", True), ("b99999", True)])
def test_a_build_range_without_a_last_build_is_open_ended(release: str, inside: bool):
    assert in_releases(_bounded("b10040"), "llama-cpp", release) is inside


@pytest.mark.parametrize("release, inside", [("b1", True), ("b10864", True), ("b10865", False), ("b11312", False)])
def test_a_fix_known_without_a_first_affected_build_bounds_from_above(release: str, inside: bool):
    assert in_releases(_bounded("", "b10864"), "llama-cpp", release) is inside


def test_the_words_for_a_trap_s_bounds():
    from generators.derive.engine_traps import _bounds
    assert [_bounds(_bounded(first, last)) for first, last in (("b1", "b2"), ("b1", ""), ("", "b2"), ("", ""))] == [
        "b1–b2", "b1 and later", "up to b2", ""]


def test_a_range_needs_a_bound(tree):
    """The schema takes `first` alone, `last` alone or both, and refuses a range with neither."""
    from .conftest import write
    from generators.build import check_tree
    trap = (tree / "records" / "gotchas" / "trap-loud.yaml").read_text(encoding="utf-8")
    assert "scope:" not in trap
    for releases, ok in (("{engine: eng, last: '1.2'}", True), ("{engine: eng}", False)):
        write(tree, "records/gotchas/trap-loud.yaml", trap + "scope:\n  statement: S\n  sources:\n"
              f"  - {{source: src-doc, locator: L}}\n  releases: {releases}\n")
        _, problems = check_tree(tree)
        refused = [p for p in problems if p.file.endswith("trap-loud.yaml") and p.rule == "schema"]
        assert (not refused) is ok, [str(p) for p in refused]


def test_a_build_range_narrows_only_its_own_engine_and_a_known_release():
    trap = _bounded("b10040", "b10588")
    assert in_releases(trap, "vllm", "0.33.0")
    assert in_releases(trap, "llama-cpp", "")


def test_a_dotted_range_still_orders_numerically():
    trap = _bounded("0.9.0", "0.10.0", engine="vllm")
    assert [r for r in ("0.8.5", "0.9.0", "0.9.2", "0.10.0", "0.10.1", "0.11.0") if in_releases(trap, "vllm", r)] == [
        "0.9.0", "0.9.2", "0.10.0"]


def test_the_q4_0_regression_is_not_listed_at_b11312(real_atlas: Atlas):
    """llama.cpp PR #28604 reverted the commit the gfx1151 perplexity blow-up was bisected to, long before b11312."""
    answers = real_atlas.views.answers
    for scheme in ("llama-cpp-q4-0", "llama-cpp-q4-k", "llama-cpp-q8-0"):
        assert "llama-cpp-rocm-commit-q4-0-perplexity-blowup" not in answers[(scheme, "amd-gfx1151")].traps


def test_a_trap_naming_a_scheme_is_listed_on_that_schemes_answers_alone(real_atlas: Atlas):
    """A scheme narrows a trap where a format cannot: compressed-tensors MXFP4 experts on ROCm fail to load, while
    every compressed-tensors scheme shares the container format and other MXFP4 schemes load differently."""
    from generators.derive.trap_scope import AnswerScope, applies
    atlas = real_atlas
    trap = TrapScope("t", frozenset({"vllm"}), frozenset(), frozenset(), frozenset({"rocm"}), frozenset(), (), "", "",
                     "", schemes=frozenset({"vllm-ct-w4a4-mxfp4"}))

    def scope(scheme: str, target: str) -> AnswerScope:
        target_record = atlas.index.must("hardware-target", target)
        return AnswerScope(atlas.views.cells[(scheme, target)],
                           frozenset(atlas.index.must("scheme", scheme).data.get("formats", [])),
                           str(target_record.data["platform"]), frozenset(members(atlas.index, target_record)), "")

    assert applies(trap, scope("vllm-ct-w4a4-mxfp4", "amd-gfx942"))
    assert not applies(trap, scope("vllm-ct-w8a8-fp8", "amd-gfx942"))  # another scheme of the same container
    assert not applies(trap, scope("vllm-ct-w4a4-mxfp4", "nvidia-sm90"))  # the scheme on another platform


def test_a_trap_naming_an_engine_on_some_hardware_is_listed_on_that_engine_s_answers_there(real_atlas: Atlas):
    """llama.cpp's HIP backend corrupting output on gfx1151 names the engine and the part, no format or kernel: every
    llama.cpp answer on the gfx1151 target lists it (a silent blocker a reader must see beside the answer), no other
    engine's answer there and no llama.cpp answer elsewhere does."""
    listing = {key for key, answer in real_atlas.views.answers.items() if "gfx1151-hip-corrupt-vulkan-correct" in answer.traps}
    llama = {key for key in real_atlas.views.answers if key[1] == "amd-gfx1151"
             and real_atlas.views.cells[key].engine == "llama-cpp" and real_atlas.views.cells[key].verdict != "refused"}
    assert llama and listing == llama


@pytest.mark.parametrize("scheme, target", [
    ("llama-cpp-q4-k", "nvidia-sm86"), ("llama-cpp-iq1-m", "nvidia-sm120"), ("llama-cpp-q6-k", "amd-gfx1151"),
    ("llama-cpp-q8-0", "intel-gpu"), ("llama-cpp-iq4-xs", "intel-gpu"), ("llama-cpp-q4-0", "x86-cpu-avx2")])
def test_a_weight_only_gguf_cell_whose_kernel_quantizes_activations_computes_in_int8(real_atlas: Atlas, scheme: str,
                                                                                      target: str):
    """The llama.cpp schemes are weight-only (a GGUF file states only its weights, finding
    lead-gguf-weight-only-2026-12-04), but MMVQ, MMQ, SYCL's MMVQ and the CPU kernels quantize the activations to
    8 bits themselves (activation_handling: quantized): those cells compute in INT8 W8A8, not in the FP32 the
    activations come in as (which no GGUF format's computes_in names, so the cell would show none)."""
    answer = real_atlas.views.answers[(scheme, target)]
    assert answer.cell.verdict.runs_as_specified and answer.computes_in == ("int8-w8a8",)


def _steps(real_atlas: Atlas, scheme: str, target: str) -> list[tuple[tuple[str, ...], tuple[str, ...], str]]:
    return [(s.kernels, s.formats, s.precision) for s in real_atlas.views.answers[(scheme, target)].steps]


def test_each_kernel_step_of_a_llama_cpp_cell_says_what_it_computes_in(real_atlas: Atlas):
    """MMVQ and MMQ take INT8 dot products against 8-bit activations; where both decline (CDNA2 above MMQ's bound), the
    cuBLAS path multiplies dequantized weights in FP16 (its record's computes_in): two steps, not only the first
    kernel's arithmetic. On SYCL the order is DMMV (FP32), the two MMVQ kernels (INT8), then the GEMM (FP32); on
    Metal every kernel dequantizes. Where every kernel computes alike (Ada: MMVQ, then MMQ) there is one step."""
    assert _steps(real_atlas, "llama-cpp-q4-k", "amd-gfx90a") == [
        (("llama-cpp-mmvq", "llama-cpp-mmq"), ("int8-w8a8",), ""), (("llama-cpp-cublas-dequant",), (), "fp16")]
    assert _steps(real_atlas, "llama-cpp-q4-k", "intel-gpu") == [
        (("llama-cpp-sycl-dmmv",), (), "fp32"),
        (("llama-cpp-sycl-mmvq-reorder", "llama-cpp-sycl-mmvq"), ("int8-w8a8",), ""),
        (("llama-cpp-sycl-dequant-gemm",), (), "fp32")]
    assert [p for _, _, p in _steps(real_atlas, "llama-cpp-q4-k", "apple-gpu")] == ["fp32", "fp16", "fp32"]
    assert _steps(real_atlas, "llama-cpp-q4-k", "nvidia-sm89") == [(("llama-cpp-mmvq", "llama-cpp-mmq"), ("int8-w8a8",), "")]
    labels = real_atlas.views.answers[("llama-cpp-q4-k", "amd-gfx90a")].steps[0].labels
    assert labels == ("MMVQ", "MMQ")  # the kernel's name without the engine's name and its parenthetical


def test_an_intel_gpu_step_that_computes_in_fp16_in_the_fp16_build_names_the_build(real_atlas: Atlas):
    """llama.cpp b11312 publishes a GGML_SYCL_F16 build of its SYCL backend beside the FP32 one: there the GEMM and the
    legacy types' one-token DMMV multiply in FP16, while the K-quants' DMMV keeps FP32 activations. A step that
    computes in FP16 in that build says so (its setting), one that does not names no build."""
    def builds(scheme: str) -> list[tuple[str, str, tuple[tuple[str, str], ...]]]:
        return [(s.kernels[0], s.precision, s.setting.others if s.setting else ())
                for s in real_atlas.views.answers[(scheme, "intel-gpu")].steps if s.precision]
    fp16 = (("1", "fp16"),)
    assert builds("llama-cpp-q4-1") == [("llama-cpp-sycl-dmmv-legacy", "fp32", fp16),
                                        ("llama-cpp-sycl-dequant-gemm", "fp32", fp16)]
    assert builds("llama-cpp-q6-k") == [("llama-cpp-sycl-dmmv", "fp32", ()),
                                        ("llama-cpp-sycl-dequant-gemm", "fp32", fp16)]
    gemm = real_atlas.views.answers[("llama-cpp-q6-k", "intel-gpu")].steps[-1].setting
    assert gemm is not None and (gemm.name, gemm.value, gemm.default) == ("GGML_SYCL_F16", "0", "0")


def test_a_step_leaves_out_what_fails_or_falls_back_and_a_kernel_that_quantizes_states_no_precision(real_atlas: Atlas):
    """Only kernels that run as specified are steps (SM 9.0: MMVQ's failure at run time is not one); a kernel that
    quantizes the activations computes in its scheme's formats, so none states a dequantized precision."""
    assert _steps(real_atlas, "llama-cpp-q4-k", "nvidia-sm90") == [(("llama-cpp-mmvq", "llama-cpp-mmq"), ("int8-w8a8",), "")]
    for kernel in real_atlas.index.all("kernel"):
        assert not (kernel.data.get("computes_in") and kernel.data.get("activation_handling") == "quantized"), kernel.id
    refused = [a for a in real_atlas.views.answers.values() if not a.cell.verdict.runs_as_specified]
    assert refused and all(not a.steps for a in refused)


def _on_parts(*accelerators: str) -> TrapScope:
    return TrapScope("t", frozenset({"onnxruntime"}), frozenset(), frozenset({"k"}), frozenset(), frozenset(accelerators),
                     (), "", "", "")


def test_a_trap_naming_some_of_a_targets_parts_is_limited_to_those_in_the_targets_order():
    """The parts a trap is limited to: those of the target it names, where it names some but not all; none where it
    names none of them (a trap on the cell's kernels) or every one (the V100 is SM 7.0's only part)."""
    sm120 = ("rtx-5090", "rtx-pro-6000-blackwell", "gb10-dgx-spark")
    assert parts_named(_on_parts("v100", "gb10-dgx-spark", "b200"), sm120) == ("gb10-dgx-spark",)
    assert parts_named(_on_parts("gb10-dgx-spark", "rtx-5090"), sm120) == ("rtx-5090", "gb10-dgx-spark")
    assert parts_named(_on_parts(), sm120) == ()
    assert parts_named(_on_parts(*sm120), sm120) == ()
    assert parts_named(_on_parts("v100", "gb10-dgx-spark"), ("v100",)) == ()


def test_the_b300_blocker_on_sm10x_answers_is_limited_to_the_b300(real_atlas: Atlas):
    """MLX's CUDA wheels carry sm_100a code only for 10.x, so their blocker stops the B300 (10.3), not the B200 or
    GB200 (10.0): the SM 10.x answer lists the trap with the B300 as the one part it applies to, and counts it apart
    from the traps on the whole target (the comparison table counted such a trap as hitting every part). The
    onnxruntime-gpu wheels' blocker names the V100 and every SM 10.x part, so it concerns the whole target on both.
    (The example was ORT's GB10 blocker on SM 12.x until trt48 read the aarch64 wheel, which has sm_121a code.)"""
    trap = "mlx-cuda-wheels-sm100a-only-no-code-for-b300"
    sm100 = real_atlas.views.answers[("mlx-lm-affine-4", "nvidia-sm100")]
    assert trap in sm100.traps and sm100.trap_parts == ((trap, ("b300",)),)
    assert sm100.parts_of(trap) == ("b300",) and trap not in sm100.whole_traps
    ort = "onnxruntime-gpu-wheel-no-code-v100-blackwell-dc-gb10"
    for target in ("nvidia-sm70", "nvidia-sm100"):
        whole = real_atlas.views.answers[("onnxruntime-matmulnbits-int4", target)]
        assert ort in whole.whole_traps and whole.trap_parts == () and whole.parts_of(ort) == (), target
    assert ort not in real_atlas.views.answers[("onnxruntime-matmulnbits-int4", "nvidia-sm120")].traps
    # every limited trap names the parts it is limited to, and only parts of the answer's target
    for (scheme, target), answer in real_atlas.views.answers.items():
        parts = members(real_atlas.index, real_atlas.index.must("hardware-target", target))
        for limited, named in answer.trap_parts:
            declared = real_atlas.index.must("gotcha", limited).data["accelerators"]
            assert limited in answer.traps and named == tuple(p for p in parts if p in declared)
            assert 0 < len(named) < len(parts), (scheme, target, limited)


def test_a_targets_list_of_traps_names_the_parts_a_trap_is_limited_to(real_atlas: Atlas):
    """Chapter 23 listed, under a target, a blocker on one of its parts among the traps that apply, as if it hit every
    part (then ORT's GB10 blocker under SM 12.x; here MLX's B300 one under SM 10.x). A target's list keeps every trap
    that applies and says, as each answer does (Answer.trap_parts), which of them are limited to some of its parts,
    and to which."""
    trap = "mlx-cuda-wheels-sm100a-only-no-code-for-b300"
    rows = {row.target: row for row in real_atlas.views.target_selections}
    sm100 = rows["nvidia-sm100"]
    assert trap in sm100.traps and trap not in sm100.whole_traps
    assert (trap, ("b300",)) in sm100.trap_parts
    assert any(parts == ("b300",) and trap in traps for parts, traps in sm100.traps_on_parts)
    ort = "onnxruntime-gpu-wheel-no-code-v100-blackwell-dc-gb10"
    assert ort in rows["nvidia-sm70"].whole_traps and rows["nvidia-sm70"].trap_parts == ()
    assert ort in sm100.whole_traps
    for row in rows.values():
        limited = dict(row.trap_parts)
        assert set(row.whole_traps) | set(limited) == set(row.traps) and not set(row.whole_traps) & set(limited)
        grouped = {t: parts for parts, traps in row.traps_on_parts for t in traps}
        assert grouped == limited and all(list(traps) == [t for t in row.traps if t in traps]
                                          for _, traps in row.traps_on_parts)
        for (scheme, target), answer in real_atlas.views.answers.items():
            if target == row.target:
                assert set(answer.trap_parts) <= set(row.trap_parts), (scheme, target)


def _answer_scope(atlas: Atlas, scheme: str, target: str) -> Any:
    """The answer scope of a real cell, restated from its records: formats, platform, parts, layers, formats every
    part emulates."""
    from generators.derive.trap_scope import AnswerScope
    target_record = atlas.index.must("hardware-target", target)
    parts = frozenset(members(atlas.index, target_record))
    scheme_data = atlas.index.must("scheme", scheme).data
    return AnswerScope(atlas.views.cells[(scheme, target)], frozenset(scheme_data.get("formats", [])),
                       str(target_record.data["platform"]), parts, "", str(scheme_data.get("layers", "dense")),
                       frozenset.intersection(*(frozenset(atlas.views.tallies[p].emulated) for p in parts)))


def test_a_trap_of_dense_layers_is_not_listed_on_an_expert_layer_answer(real_atlas: Atlas):
    """vLLM's --dtype auto picks float32 on Turing only for Gemma 2, Gemma 3 and GLM-4 (config/model.py lines
    2398-2403), none of which has expert layers, so the NVFP4A16 experts' T4 answer cannot meet that trap, while the
    dense NVFP4A16 answer on the same part can."""
    from generators.derive.trap_scope import applies
    trap = TrapScope("t", frozenset({"vllm"}), frozenset({"llmcompressor-quant"}), frozenset(), frozenset({"cuda"}),
                     frozenset({"t4"}), (), "", "", "", layers="dense")
    assert applies(trap, _answer_scope(real_atlas, "vllm-ct-w4a16-nvfp4", "nvidia-sm75"))
    assert not applies(trap, _answer_scope(real_atlas, "vllm-ct-w4a16-nvfp4-moe", "nvidia-sm75"))
    assert applies(replace(trap, layers="experts"), _answer_scope(real_atlas, "vllm-ct-w4a16-nvfp4-moe", "nvidia-sm75"))
    answers = real_atlas.views.answers
    turing = "vllm-turing-auto-float32-refuses-awq-gptq"
    assert turing in answers[("vllm-ct-w4a16-nvfp4", "nvidia-sm75")].traps
    assert turing not in answers[("vllm-ct-w4a16-nvfp4-moe", "nvidia-sm75")].traps


def test_the_turing_float32_trap_reaches_vllm_fp8_and_weight_only_fp8(real_atlas: Atlas):
    """Fp8Config accepts only bfloat16 and float16 (fp8.py lines 141-143), so vLLM refuses a float32 Gemma on a T4
    for its own fp8 method as for AWQ and GPTQ; the compressed-tensors W8A16 FP8 scheme lists no llmcompressor-quant
    format, yet its SM 7.5 kernels stop on float32 too (finding audit52-audit-2026-12-05). The FP8 expert-layer
    schemes stay out: none of the model types has experts."""
    answers = real_atlas.views.answers
    turing = "vllm-turing-auto-float32-refuses-awq-gptq"
    for scheme in ("vllm-fp8", "vllm-fp8-block", "vllm-ct-w8a16-fp8"):
        assert turing in answers[(scheme, "nvidia-sm75")].traps, scheme
        assert turing not in answers[(scheme, "nvidia-sm80")].traps, scheme
    for scheme in ("vllm-fp8-moe", "vllm-fp8-block-moe"):
        assert turing not in answers[(scheme, "nvidia-sm75")].traps, scheme


def test_a_trap_needing_a_native_format_is_listed_only_where_a_part_computes_it(real_atlas: Atlas):
    """vLLM's 'no native FP4' warning is printed on the Marlin path on any GPU, but misread only where the part does
    compute NVFP4: listed on the Blackwell answers, not on Hopper (where humming runs by default and the sentence is
    true without it) nor below."""
    from generators.derive.trap_scope import applies
    trap = TrapScope("t", frozenset({"vllm"}), frozenset({"w4a16-nvfp4"}), frozenset(), frozenset(), frozenset(), (), "",
                     "", "", native=frozenset({"nvfp4"}))
    scheme = "vllm-ct-w4a16-nvfp4-moe"
    assert [t for t in ("nvidia-sm80", "nvidia-sm90", "nvidia-sm100", "nvidia-sm120")
            if applies(trap, _answer_scope(real_atlas, scheme, t))] == ["nvidia-sm100", "nvidia-sm120"]
    assert applies(replace(trap, native=frozenset()), _answer_scope(real_atlas, scheme, "nvidia-sm90"))
    answers = real_atlas.views.answers
    warning = "vllm-fp4-native-support-warning-misread"
    for scheme in ("vllm-ct-w4a16-nvfp4", "vllm-ct-w4a16-nvfp4-moe", "vllm-ct-w4a4-nvfp4"):
        assert [t for t in ("nvidia-sm75", "nvidia-sm89", "nvidia-sm90", "nvidia-sm100", "nvidia-sm120")
                if warning in answers[(scheme, t)].traps] == ["nvidia-sm100", "nvidia-sm120"]


def test_the_gate_up_scale_trap_keeps_to_expert_answers_whose_backend_takes_column_0(real_atlas: Atlas):
    """CompressedTensorsW4A4Nvfp4MoEMethod keeps column 0 of the fused gate/up global scale for every NVFP4 MoE backend
    but humming (compressed_tensors_moe_w4a4_nvfp4.py lines 223-231; oracle/nvfp4.py lines 425-459), and dense NVFP4
    layers print another message and keep the maximum: the trap is on the W4A4 and NVFP4A16 expert answers that load,
    on Hopper too (Marlin serves without humming), and on no dense answer."""
    answers = real_atlas.views.answers
    trap = "nvfp4-fused-moe-gate-up-scale-mismatch"
    gpus = ("nvidia-sm70", "nvidia-sm80", "nvidia-sm90", "nvidia-sm100", "nvidia-sm120", "amd-gfx942")
    assert [t for t in gpus if trap in answers[("vllm-ct-w4a4-nvfp4-moe", t)].traps] == list(gpus)
    assert [t for t in gpus if trap in answers[("vllm-ct-w4a16-nvfp4-moe", t)].traps] == list(gpus[1:5])
    assert not [t for t in gpus for s in ("vllm-ct-w4a4-nvfp4", "vllm-ct-w4a16-nvfp4") if trap in answers[(s, t)].traps]
    assert trap not in answers[("vllm-ct-w4a4-nvfp4-moe", "x86-cpu-avx512")].traps


def test_a_trap_needing_a_native_format_stays_where_the_records_do_not_say(tree):
    """A trap with `native` leaves only the answers whose every part is derived to emulate the format: the mini tree's
    SM 9.0 part computes FP4 natively and its SM 8.0 part emulates it, while its CPU part states no figure and no
    instruction in FP4, which must not read as 'not native' and drop the warning."""
    from generators.build import check_tree
    path = tree / "records/gotchas/trap-loud.yaml"
    path.write_text(path.read_text() + "engines: [eng]\nformats: [fmt-int4]\nnative: [fmt-fp4]\n")
    atlas, problems = check_tree(tree)
    assert atlas is not None and problems == []
    tallies = atlas.views.tallies  # (the premise: one part of each kind)
    assert ["fmt-fp4" in t.native or ("fmt-fp4" in t.emulated and "emulated") for t in
            (tallies["acc-big"], tallies["acc-old"], tallies["acc-cpu"])] == [True, "emulated", False]
    assert {target: "trap-loud" in answer.traps for (_, target), answer in atlas.views.answers.items()} == {
        "gpu-sm90": True, "gpu-sm80": False, "cpu-avx512": True}
