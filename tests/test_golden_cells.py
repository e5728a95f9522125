"""Golden derivation: every modelled scheme on every hardware target, from the real records.

Regenerate with `python3 -m pytest tests/test_golden_cells.py --update-golden` and review the diff:
a changed line is a support cell that flipped or whose reasons changed.
"""
from __future__ import annotations

import re
from pathlib import Path

from generators.explain import cells_text, explain_text
from generators.model.verdicts import Verdict

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "cells.tsv"


def assert_verdicts(cells, rows) -> None:
    """Each (scheme, target, verdict, kernel) row is the derived cell's verdict and selected kernel."""
    assert [(s, t, cells[(s, t)].verdict, cells[(s, t)].kernel) for s, t, _, _ in rows] == [tuple(r) for r in rows]


def test_every_derived_cell_matches_the_golden_file(request, real_atlas):
    atlas = real_atlas
    text = cells_text(atlas) + "\n"
    if request.config.getoption("--update-golden"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_the_cells_the_issue_names(request, real_atlas):
    atlas = real_atlas
    cells = atlas.views.cells
    # W4A8 with INT8 activations runs on x86 and Arm CPUs through the KleidiAI-described kernel.
    for target in ("x86-cpu-avx2", "x86-cpu-avx512", "x86-cpu-avx512-amx", "arm-cpu"):
        assert cells[("vllm-ct-w4a8-int", target)].kernel == "vllm-dynamic-4bit"
        assert cells[("vllm-ct-w4a8-int", target)].verdict.runs_as_specified
    # W4A8 with FP8 activations: SM90 only.
    assert [t for (s, t), c in sorted(cells.items()) if s == "vllm-ct-w4a8-fp8" and c.verdict.loads] == ["nvidia-sm90"]
    # W4A8 with INT8 activations on NVIDIA: Humming is selected, then its int32 view of the int8-stored weights fails
    # humming's shape check at load; never a plain yes, nor a fallback that serves.
    for target in ("nvidia-sm75", "nvidia-sm80", "nvidia-sm86", "nvidia-sm89", "nvidia-sm90", "nvidia-sm100", "nvidia-sm120"):
        cell = cells[("vllm-ct-w4a8-int", target)]
        assert (cell.verdict, cell.kernel) == ("fails-at-runtime", "vllm-humming")
    # The same kernel still loads W4A8-FP8's packed int32 weights: the gate is scoped by the weight storage.
    fp8 = cells[("vllm-ct-w4a8-fp8", "nvidia-sm90")]
    humming = next(a for a in fp8.attempts if a.kernel == "vllm-humming")
    assert not humming.after_selection and humming.outcome != "no"
    # The published x86 CPU cell for W4A8 is contradicted and explained by a finding.
    cell = next(p for p in atlas.views.published if p.matrix == "vllm-quantization-hardware-table"
                and p.row == "llm-compressor INT8 (W4A8)" and p.column == "x86 CPU")
    assert cell.published == "no" and not cell.agrees


def test_amd_cells_are_per_gfx_id_and_print_the_capability_vllm_derives(real_atlas):
    atlas = real_atlas
    targets = {t.id: t.data for t in atlas.index.all("hardware-target")}
    amd = sorted(t for t, data in targets.items() if data["platform"] == "rocm")
    assert amd and all(targets[t].get("gfx") and targets[t].get("compute_capability") for t in amd)
    for (scheme, target), cell in atlas.views.cells.items():
        if target in amd:
            text = " ".join((*cell.reasons, cell.gate, *(a.reason for a in cell.attempts)))
            assert "‹compute_capability›" not in text and "‹capability›" not in text, (scheme, target)
    # The capability is printed as vLLM derives it from the gfx id: gfx906 and gfx90a report 90, as Hopper does.
    cell = atlas.views.cells[("vllm-ct-w4a8-fp8", "amd-gfx90a")]
    assert not cell.gate and cell.verdict == "refused" and cell.attempts


def test_the_cells_the_open_items_of_the_vllm_cell_audit_settled(real_atlas):
    cells = real_atlas.views.cells
    # zentorch's DA8W4 route quantizes activations for compressed-tensors weights with a bfloat16 model, not for GPTQ.
    zen = cells[("vllm-ct-wna16", "x86-cpu-avx512")]
    assert zen.kernel == "vllm-zentorch-wna16" and any("zentorch_dynamic_qlinear" in c for c in zen.conditions)
    assert not any("zentorch_dynamic_qlinear" in c for c in cells[("vllm-gptq-marlin", "x86-cpu-avx512")].conditions)
    # On XPU the FP8 W8A8 scheme is kept only with --linear-backend xpu (else W8A16 runs, as the observation shows).
    xpu = cells[("vllm-ct-w8a8-fp8", "intel-gpu")]
    assert (xpu.verdict, xpu.kernel, xpu.substitute_kernel) == ("runs-if", "vllm-xpu-w8a8-fp8", "vllm-xpu-w8a16-fp8")
    assert xpu.conditions[0] == "--linear-backend xpu (without --linear-backend xpu or torch, vLLM returns CompressedTensorsW8A16Fp8)"
    # Without the setting the cell is the W8A16 scheme's own XPU cell, for tensor and channel weights (block weights
    # keep the W8A8 scheme on XPU): its kernel at its weight-only precision, for a float16 or bfloat16 model only
    # (fp8_gemm_w8a16 has no float32 input path: fifth vLLM cell audit).
    unset = xpu.otherwise[0]
    assert (xpu.substitution, unset.verdict, unset.selected, unset.conditions) == (
        "vllm-ct-w8a16-fp8", "fallback", "vllm-xpu-w8a16-fp8", ("activation dtype in {float16, bfloat16}",))
    assert unset.computes_as.startswith("CompressedTensorsW8A16Fp8: float8_e4m3fn weights with activations left at")
    # FlashInfer is tested before the capability: its message comes first.
    assert cells[("vllm-ct-w8a8-fp8", "nvidia-sm90")].reasons[0].startswith(
        "vllm-flashinfer-fp8-scaled-mm: requires FlashInfer to be installed. (unless FlashInfer usable")
    # Asymmetric INT8 on SM100 fails at run time too (the SM90 azp kernel is built for 9.0a only): a default install
    # selects CUTLASS and fails; --linear-backend triton leaves TritonInt8ScaledMMLinearKernel, which runs (vllmset31).
    int8 = cells[("vllm-ct-w8a8-int8", "nvidia-sm100")]
    assert (int8.verdict, int8.kernel, int8.default_kernel) == (
        "runs-if", "vllm-triton-int8-scaled-mm", "vllm-cutlass-int8-scaled-mm")
    assert int8.conditions[0].startswith("--linear-backend triton") and int8.otherwise[0].verdict == "fails-at-runtime"
    assert "cutlass_scaled_mm_azp" in int8.default_attempts[0].reason


def test_a_cell_on_a_target_the_default_install_is_not_built_for_cites_the_build_list(real_atlas):
    answers = real_atlas.views.answers
    assert "vllm-src-dockerfile-rocm-base" in answers[("vllm-gptq-marlin", "amd-gfx906")].sources
    # the list also backs an answer on a target it carries code for (the install that serves it), on its platform only
    assert "vllm-src-dockerfile-rocm-base" in answers[("vllm-gptq-marlin", "amd-gfx942")].sources
    assert "vllm-src-dockerfile-rocm-base" not in answers[("vllm-gptq-marlin", "x86-cpu-avx2")].sources
    assert "vllm-src-utils-flashinfer" in answers[("vllm-ct-w4a4-nvfp4", "nvidia-sm100")].sources


def test_on_a_v100_the_torch_a_default_install_gets_has_no_code_so_each_loading_cell_needs_another_build(real_atlas):
    # torch 2.14.0+cu130 (vLLM's pin) and 2.15.0+cu132 (what transformers and ExLlamaV2 get) start at 7.5
    cells, answers = real_atlas.views.cells, real_atlas.views.answers
    for scheme in ("exllamav2-exl2-4", "transformers-mxfp4"):
        volta = cells[(scheme, "nvidia-sm70")]
        assert volta.conditions[0].startswith("a build compiled for compute capability 7.0 in place of torch 2.15.0+cu132")
        assert (volta.otherwise[0].verdict, volta.otherwise[0].unmet) == ("fails-at-runtime", volta.conditions[:1])
        assert "torch-wheel-cuda-arch-table-2-15-0" in answers[(scheme, "nvidia-sm70")].sources
        # Turing has its own cubin, and Ada runs the 8.6 one
        for newer in ("nvidia-sm75", "nvidia-sm89"):
            assert not any("compute capability" in c for c in cells[(scheme, newer)].conditions)
    # a refusal stays a refusal (nothing runs either way); one made while vLLM builds the model comes after its
    # worker's first kernels, which a default install has no code for, and says so; the AWQ gate comes before them
    marlin = cells[("vllm-gptq-marlin", "nvidia-sm70")]
    assert marlin.verdict == "refused" and marlin.reasons[-1].startswith("with the default install it fails at run time")
    assert "torch 2.14.0+cu130" in marlin.reasons[-1] and "vllm-src-gpu-worker" in answers[marlin.scheme, "nvidia-sm70"].sources
    assert cells[("vllm-awq-marlin", "nvidia-sm70")].reasons == (cells[("vllm-awq-marlin", "nvidia-sm70")].gate,)
    from generators.explain import explain_text
    assert "\n  " + marlin.reasons[-1] in explain_text(real_atlas, "vllm-gptq-marlin", "nvidia-sm70")[0]


def test_the_kernel_a_default_install_selects_says_what_else_it_needs(real_atlas):
    # on CDNA 3 the FP8 cell runs via AITER's per-token kernel, which needs VLLM_ROCM_USE_AITER=1 and a per-channel
    # checkpoint; a default install passes over AITER, and its ROCm kernel takes per-tensor scales only: for a
    # per-channel checkpoint it is not what runs, so the answer says which checkpoints it is for
    from generators.explain import explain_text
    cell = real_atlas.views.cells[("vllm-ct-w8a8-fp8", "amd-gfx942")]
    assert cell.default_kernel == "vllm-rocm-fp8-scaled-mm"
    assert cell.default_where == ("weight scales in {tensor}", "activation scales in {static-tensor}")
    assert ("a default install selects: vllm-rocm-fp8-scaled-mm where weight scales in {tensor}; activation scales in "
            "{static-tensor}") in explain_text(real_atlas, "vllm-ct-w8a8-fp8", "amd-gfx942")[0]
    # vLLM's own fp8 method hands per-tensor weights and (off CUDA) per-tensor activation keys: AITER's per-token
    # kernels refuse them outright, and the ROCm kernel takes the layer with nothing more to say about the checkpoint
    own = real_atlas.views.cells[("vllm-fp8", "amd-gfx942")]
    assert (own.kernel, own.default_kernel, own.default_where) == ("vllm-rocm-fp8-scaled-mm",) * 2 + ((),)
    # where the defaults meet all it needs (--dtype auto gives 16-bit activations), nothing more is said
    cpu = real_atlas.views.cells[("vllm-ct-wna16", "x86-cpu-avx512")]
    assert cpu.default_kernel != cpu.kernel and cpu.default_where == ()


def test_where_a_default_install_selects_a_kernel_leaves_out_what_it_then_fails_without(real_atlas):
    """On Hopper vLLM's FP8 block answer runs through FlashInfer's DeepGEMM wrapper, which needs FlashInfer usable: a
    pip install lacks it (no nvcc where has_flashinfer() looks), so it selects DeepGEMM, which fails at load on such a
    host. The host toolkit is therefore not where the default selects DeepGEMM (with one, FlashInfer's own condition
    holds and it is selected instead): it is a step of its own, DeepGEMM selected then failing. Likewise Marlin's
    bfloat16 need for MXFP4 on SM100: a float16 model still selects Marlin, which then fails."""
    cells = real_atlas.views.cells
    for scheme, target, default, kept in [
            ("vllm-fp8-block", "nvidia-sm90", "vllm-deepgemm-fp8-block-scaled-mm", "the host has a CUDA toolkit"),
            ("vllm-fp8-block-moe", "nvidia-sm100", "vllm-deepgemm-fp8-moe", "the host has a CUDA toolkit"),
            ("vllm-ct-w4a4-mxfp4", "nvidia-sm100", "vllm-marlin-mxfp4", "activation dtype in {bfloat16}")]:
        cell = cells[(scheme, target)]
        assert cell.default_kernel == default != cell.kernel
        failing = [s for s in cell.otherwise if s.kernel == s.selected == default and s.verdict == "fails-at-runtime"]
        assert any(c.startswith(kept) for s in failing for c in s.unmet), (scheme, target)
        assert not any(c.startswith(kept) for c in cell.default_where), (scheme, target)


def test_fp8_w8a8_below_capability_89_is_the_w8a16_schemes_cell_as_a_fallback(real_atlas):
    # Below 89 vLLM returns CompressedTensorsW8A16Fp8, whose kernels (Humming, else Marlin) fail at load for a float32
    # model. On Turing --dtype auto gives float32 for models that refuse float16, so 16-bit activations are a condition
    # there; on Ampere auto gives only 16-bit dtypes, so float32 is a step off the defaults. Below 75 it is refused.
    cells = real_atlas.views.cells
    turing, ampere = cells[("vllm-ct-w8a8-fp8", "nvidia-sm75")], cells[("vllm-ct-w8a8-fp8", "nvidia-sm80")]
    for cell in (turing, ampere):
        assert (cell.verdict, cell.kernel, cell.gate_fallback) == ("fallback", "vllm-humming-fp8-scaled-mm", "vllm-ct-w8a16-fp8")
        assert cell.computes_as.startswith("CompressedTensorsW8A16Fp8: float8_e4m3fn weights with activations left at")
        assert all(not s.verdict.runs_as_specified for s in cell.otherwise)
    assert "activation dtype in {float16}" in turing.conditions
    assert "activation dtype in {float16}" not in {a.condition for a in turing.assumes}
    assert [(s.verdict, s.off_default) for s in turing.otherwise if s.unmet == ("activation dtype in {float16}",)] == [
        ("fails-at-runtime", False), ("fails-at-runtime", True)]  # Humming by default; Marlin without humming-kernels
    float32 = [s for s in ampere.otherwise if s.verdict == "fails-at-runtime"]
    assert float32 and all(s.off_default for s in float32)
    assert "activation dtype in {float16, bfloat16}" in {a.condition for a in ampere.assumes}
    volta = cells[("vllm-ct-w8a8-fp8", "nvidia-sm70")]
    assert (volta.verdict, volta.reasons[0]) == (
        "refused", "Quantization scheme is not supported for the current GPU. Min capability: 75. Current capability: 70.")
    assert volta.reasons[1:] and volta.reasons[1].startswith("with the default install it fails at run time")
    # The row of the scheme returned instead says the same kernels, at its own (weight-only) precision.
    assert cells[("vllm-ct-w8a16-fp8", "nvidia-sm80")].verdict == "runs"
    assert cells[("vllm-ct-w8a16-fp8", "nvidia-sm75")].conditions == turing.conditions


def test_aiters_enablement_message_is_said_once_where_a_later_check_refuses(real_atlas):
    # vLLM 0.33.0's AITER per-token FP8 kernels test is_linear_fp8_enabled (the aiter module found and supported, then
    # VLLM_ROCM_USE_AITER and VLLM_ROCM_USE_AITER_LINEAR) in one check with one message; the records state it as the
    # package check and the switch check, each carrying that message. On MI300X the per-tensor FP8 scheme's scales
    # refuse them afterwards: every reason (and --linear-backend aiter's) says the switch message once, unless both
    # hold, as the engine prints it (cards33: it was said twice, once per condition).
    switch = ("requires setting `VLLM_ROCM_USE_AITER=1` and `VLLM_ROCM_USE_AITER_LINEAR=1`. "
              "`VLLM_ROCM_USE_AITER_LINEAR` default is True.")
    cell = real_atlas.views.cells[("vllm-fp8", "amd-gfx942")]
    said = [r for r in (*cell.reasons, *(r for w in cell.worse for r in w.reasons)) if switch in r]
    assert len(said) == 4 and all(r.count(switch) == 1 for r in said)
    assert f"{switch} (unless package aiter installed and VLLM_ROCM_USE_AITER=1 and VLLM_ROCM_USE_AITER_LINEAR=1" in said[0]


def test_marlin_mx_kernels_and_aiter_int8_need_the_model_dtypes_their_code_takes(real_atlas):
    # Marlin's E8M0-scaled kernels (MXFP4, MXFP8) are built for bfloat16 activations only, and the Turing set has
    # none: a float16 or float32 model is selected and stops on its first forward pass. Turing refuses bfloat16, so
    # MXFP8 there fails at run time; elsewhere the weight-only fallback needs a bfloat16 model, which --dtype auto
    # does not guarantee (a float16 checkpoint stays float16).
    cells = real_atlas.views.cells
    turing = cells[("vllm-ct-w8a8-mxfp8", "nvidia-sm75")]
    assert (turing.verdict, turing.kernel) == ("fails-at-runtime", "vllm-marlin-mxfp8")
    for scheme, kernel in (("vllm-ct-w8a8-mxfp8", "vllm-marlin-mxfp8"), ("vllm-ct-w4a4-mxfp4", "vllm-marlin-mxfp4")):
        ampere = cells[(scheme, "nvidia-sm80")]
        assert (ampere.verdict, ampere.kernel) == ("fallback", kernel)
        assert "activation dtype in {bfloat16}" in ampere.conditions
        assert "activation dtype in {bfloat16}" not in {a.condition for a in ampere.assumes}
        assert [(s.verdict, s.selected) for s in ampere.otherwise if s.unmet == ("activation dtype in {bfloat16}",)] == [
            ("fails-at-runtime", kernel)]
    # AITER's INT8 GEMM asserts a float16 or bfloat16 output: with AITER enabled, a float32 model fails after selection.
    mi355 = cells[("vllm-ct-w8a8-int8", "amd-gfx950")]
    assert mi355.verdict == "runs"
    assert [(s.verdict, s.selected) for s in mi355.otherwise if s.unmet == ("activation dtype in {float16, bfloat16}",)] == [
        ("fails-at-runtime", "vllm-aiter-int8-scaled-mm")]
    # On ROCm --dtype auto gives bfloat16 or float16 (the base platform's supported_dtypes, kept by ROCm), so a
    # default install meets that dtype condition and the float32 failure is off the defaults.
    for gfx in ("amd-gfx942", "amd-gfx950"):
        assert [a.condition for a in cells[("vllm-ct-w8a8-int8", gfx)].assumes] == ["activation dtype in {float16, bfloat16}"]


def test_the_llama_cpp_cells_the_audit_read_against_b11312(real_atlas):
    # Twelve cells read step by step against llama.cpp at commit 0c1e570 (b11312): the batch bounds of
    # ggml_cuda_should_use_mmq (mmq.cu lines 381-423) and the SYCL and Metal orders are pinned here, since the golden
    # file keeps only each cell's verdict and kernel.
    cells = real_atlas.views.cells

    def steps(scheme, target):
        cell = cells[(f"llama-cpp-{scheme}", target)]
        return cell, [(a.kernel.removeprefix("llama-cpp-"), a.outcome, a.routes) for a in cell.attempts]

    def mmq_conditions(cell):
        return next(a.conditions for a in cell.attempts if a.kernel == "llama-cpp-mmq")

    # Volta: FP16 tensor cores but no INT8 MMA, so MMQ (DP4A) only below MMQ_DP4A_MAX_BATCH_SIZE, then cuBLAS.
    volta, tried = steps("q4-k", "nvidia-sm70")
    assert (volta.verdict, tried) == ("runs-if", [("mmvq", "conditional", ()), ("mmq", "conditional", ("dp4a-fallback",)),
                                                  ("cublas-dequant", "yes", ())])
    assert mmq_conditions(volta)[0].startswith("fewer than 64 tokens per matmul")
    # Turing and newer: MMQ at every batch size on INT8 MMA (7.5, 8.0 and 9.0 from the release assets' PTX, so with a
    # driver of the asset's toolkit); IQ1_M is no MMQ type, so above MMVQ's bound the dequantize + cuBLAS GEMM takes it
    # (FP16 activations: a GGUF file states nothing about activations, so that runs too; lead-gguf-weight-only).
    for scheme, target, verdict in (("q5-1", "nvidia-sm75", "runs-if"), ("iq4-xs", "nvidia-sm80", "runs-if"),
                                    ("q6-k", "nvidia-sm120", "runs")):
        cell, tried = steps(scheme, target)
        assert (cell.verdict, tried[1]) == (verdict, ("mmq", "yes", ("int8-tensor-core-mma",))), (scheme, target)
    iq1m, tried = steps("iq1-m", "nvidia-sm90")
    assert (iq1m.verdict, [o.verdict for o in iq1m.otherwise]) == ("runs-if", ["fails-at-runtime", "runs"])
    assert tried[1][:2] == ("mmq", "no") and "mmq_supported" in iq1m.attempts[1].reason
    # CDNA3 always takes MMQ; CDNA4 (gfx950 is not GGML_CUDA_CC_IS_CDNA3) keeps Q8_0 on MMQ up to 128 tokens only;
    # RDNA3.5 keeps Q6_K on MMQ up to 256 tokens (RDNA3.0: 128).
    cdna3, tried = steps("q4-k", "amd-gfx942")
    assert (cdna3.verdict, tried[1]) == ("runs", ("mmq", "yes", ("mfma",)))
    cdna4, tried = steps("q8-0", "amd-gfx950")
    assert (cdna4.verdict, tried[1][:2]) == ("runs", ("mmq", "conditional"))
    assert mmq_conditions(cdna4)[0].startswith("at most 128 tokens per matmul")
    rdna35, tried = steps("q6-k", "amd-gfx1151")
    assert (rdna35.verdict, tried[1]) == ("runs", ("mmq", "conditional", ("wmma",)))
    assert mmq_conditions(rdna35)[0].startswith("at most 256 tokens per matmul")
    for cell in (volta, cdna4, rdna35):
        assert cell.otherwise[-1].verdict == "runs" and cell.otherwise[-1].selected == "llama-cpp-cublas-dequant"
    # CPU: every path quantizes the activations (AMX, repack, tiled, tinyBLAS, vec_dot).
    for scheme, target in (("iq4-xs", "x86-cpu-avx512-amx"), ("q4-1", "arm-cpu")):
        cell, tried = steps(scheme, target)
        assert (cell.verdict, tried) == ("runs", [("cpu-mul-mat", "yes", ())])
    # Metal: all three matmul kernels dequantize and keep the activations in floating point, which runs the
    # weight-only file at every batch size.
    metal, tried = steps("q4-0", "apple-gpu")
    assert metal.verdict == "runs" and [k for k, _, _ in tried] == ["metal-mul-mv-ext", "metal-mul-mm", "metal-mul-mv"]
    assert [(o.verdict, o.selected) for o in metal.otherwise] == [("runs-if", "llama-cpp-metal-mul-mm"),
                                                                  ("runs", "llama-cpp-metal-mul-mv")]
    # SYCL: a K-quant with a reordered ESIMD kernel takes DMMV (FP32) for one token and reordered MMVQ for 2 to 8;
    # Q8_0 has no ESIMD kernel, so the reorder test sends its single token to MMVQ too. Above 8 tokens: the GEMM.
    q4k, tried = steps("q4-k", "intel-gpu")
    assert (q4k.verdict, [k for k, _, _ in tried]) == (
        "runs", ["sycl-dmmv", "sycl-mmvq-reorder", "sycl-mmvq", "sycl-dequant-gemm"])
    q80, tried = steps("q8-0", "intel-gpu")
    assert (q80.verdict, q80.kernel, tried[0][:2]) == ("runs", "llama-cpp-sycl-mmvq-reorder", ("sycl-mmvq-reorder", "conditional"))
    for cell in (q4k, q80):
        assert cell.otherwise[-1].verdict == "runs" and cell.otherwise[-1].selected == "llama-cpp-sycl-dequant-gemm"


def test_the_llama_cpp_cells_the_second_audit_read_against_b11312(real_atlas):
    # Twelve more cells read against llama.cpp at 0c1e570 (finding llama-cpp-cell-audit-2026-12-02-b): CPUs, Metal and
    # SYCL for Q4_0, Q8_0, Q6_K, IQ1_M and IQ4_XS. The golden file keeps only verdict and kernel, so the steps are pinned.
    cells = real_atlas.views.cells

    def steps(scheme, target):
        cell = cells[(f"llama-cpp-{scheme}", target)]
        return cell, [(a.kernel.removeprefix("llama-cpp-"), a.outcome) for a in cell.attempts]

    # CPU: repack (Q4_0 on AVX2 and Arm, Q6_K on Arm), AMX (Q8_0, Q6_K) or plain vec_dot (IQ1_M) all quantize the
    # activations (Q8_0 or Q8_K), so every cell runs as specified, with no condition.
    for scheme, target in (("q4-0", "x86-cpu-avx2"), ("iq1-m", "x86-cpu-avx2"), ("q8-0", "x86-cpu-avx512-amx"),
                           ("q6-k", "x86-cpu-avx512-amx"), ("q4-0", "arm-cpu"), ("q6-k", "arm-cpu")):
        cell, tried = steps(scheme, target)
        assert (cell.verdict, tried, cell.conditions, cell.otherwise) == ("runs", [("cpu-mul-mat", "yes")], (), ()), (
            scheme, target)
    cpu = real_atlas.index.get("kernel", "llama-cpp-cpu-mul-mat")
    assert {"gguf-q4-1", "gguf-q5-k-m", "gguf-iq4-xs", "gguf-iq1-m"} <= set(cpu.data["formats"])
    # Metal: IQ1_M and IQ4_XS have no small-batch mat-vec kernel; Q6_K takes it for 4 to 8 tokens only. Every path
    # dequantizes into floating point, which runs the weight-only file: mul_mm above 8 tokens and mul_mv otherwise.
    for scheme in ("iq1-m", "iq4-xs"):
        cell, tried = steps(scheme, "apple-gpu")
        assert (cell.verdict, cell.kernel, tried) == ("runs", "llama-cpp-metal-mul-mm", [
            ("metal-mul-mv-ext", "no"), ("metal-mul-mm", "conditional"), ("metal-mul-mv", "yes")]), scheme
        assert cell.conditions[0].startswith("more than 8 tokens per matmul")
        assert [(o.verdict, o.selected) for o in cell.otherwise] == [("runs", "llama-cpp-metal-mul-mv")]
    q6k, tried = steps("q6-k", "apple-gpu")
    assert (q6k.verdict, q6k.kernel, tried[0]) == ("runs", "llama-cpp-metal-mul-mv-ext", ("metal-mul-mv-ext", "conditional"))
    assert q6k.conditions[0] == "4 to 8 tokens per matmul"
    assert [o.selected for o in q6k.otherwise] == ["llama-cpp-metal-mul-mm", "llama-cpp-metal-mul-mv"]
    # SYCL: Q4_0 is reordered for MMVQ and has no ESIMD DMMV, so up to 8 tokens run MMVQ; Q6_K's one token takes the
    # reordered ESIMD DMMV (FP32) first; IQ1_M has neither DMMV nor reorder, so plain MMVQ up to 8 tokens. Above: the GEMM.
    q40, tried = steps("q4-0", "intel-gpu")
    assert (q40.verdict, q40.kernel, [k for k, _ in tried]) == ("runs", "llama-cpp-sycl-mmvq-reorder", [
        "sycl-mmvq-reorder", "sycl-dmmv-legacy", "sycl-mmvq", "sycl-dequant-gemm"])
    assert q40.conditions[0].startswith("at most 8 tokens per matmul")
    sq6k, tried = steps("q6-k", "intel-gpu")
    assert (sq6k.verdict, sq6k.kernel, [k for k, _ in tried]) == ("runs", "llama-cpp-sycl-dmmv", [
        "sycl-dmmv", "sycl-mmvq-reorder", "sycl-mmvq", "sycl-dequant-gemm"])
    assert any("ESIMD" in c for c in sq6k.conditions)
    iq1m, tried = steps("iq1-m", "intel-gpu")
    assert (iq1m.verdict, iq1m.kernel, tried) == ("runs", "llama-cpp-sycl-mmvq", [
        ("sycl-mmvq", "conditional"), ("sycl-dequant-gemm", "yes")])
    for cell in (q40, sq6k, iq1m):
        assert cell.otherwise[-1].verdict == "runs" and cell.otherwise[-1].selected == "llama-cpp-sycl-dequant-gemm"


def test_the_llama_cpp_default_install_at_b11312_covers_every_target_but_gfx906_and_runs_older_nvidia_from_ptx(real_atlas):
    # The b11312 release binaries (release.yml at 0c1e570): the Linux ROCm asset is compiled for gfx908, gfx90a,
    # gfx942, gfx950 and RDNA1 to RDNA4 (line 1546), not gfx906, so every llama.cpp cell there needs another build
    # first. A user downloads one of the Linux CUDA assets (ggml-cuda/CMakeLists.txt lines 43-67): the CUDA 13.4 ones
    # carry 8.6, 8.9, 12.0a and 12.1a cubins and 7.5, 8.0 and 9.0 PTX, the CUDA 12.8 one 8.6, 8.9 and 12.0a cubins and
    # PTX from 5.0 to 9.0. So Volta takes the 12.8 asset, and on 7.5 to 10.x either runs from PTX, which needs a driver
    # of the asset's toolkit (NVIDIA's minor version compatibility), before the dispatch's own batch bounds
    # (findings llama-cpp-cuda-assets-2026-12-03, ptx28-audit-2026-12-04).
    cells = real_atlas.views.cells
    answers = real_atlas.views.answers
    schemes = sorted({s for s, _ in cells if s.startswith("llama-cpp-")})
    assert len(schemes) == 11
    for scheme in schemes:
        gfx906 = cells[(scheme, "amd-gfx906")]
        assert gfx906.verdict == "runs-if" and gfx906.conditions[0].startswith("a build compiled for gfx906"), scheme
        assert gfx906.otherwise[0].verdict == "fails-at-runtime", scheme
        assert "llama-cpp-src-release-yml-b11312" in answers[(scheme, "amd-gfx906")].sources, scheme
        volta = cells[(scheme, "nvidia-sm70")]
        assert volta.verdict == "runs-if" and volta.conditions[0] == (
            "llama-b11312-bin-ubuntu-cuda-12.8-x64 with a driver that supports CUDA 12.8 or later (its code here is PTX "
            "for 7.0, which the driver compiles when it first loads it; a driver older than the toolkit refuses it with CUDA "
            "error 222, 'the provided PTX was compiled with an unsupported toolchain'); llama-b11312-bin-ubuntu-cuda-13.4-x64 "
            "or -arm64 carries no code for 7.0"), scheme
        assert volta.otherwise[0].verdict == "fails-at-runtime", scheme
        assert "llama-cpp-src-cuda-cmakelists-b11312" in answers[(scheme, "nvidia-sm70")].sources, scheme
        for target in ("amd-gfx90a", "amd-gfx942", "amd-gfx950", "amd-gfx1151", "nvidia-sm75", "nvidia-sm80",
                       "nvidia-sm86", "nvidia-sm89", "nvidia-sm90", "nvidia-sm100", "nvidia-sm120"):
            cell = cells[(scheme, target)]
            assert not any("a build compiled for" in c or "carries no code" in c for c in cell.conditions), (scheme, target)
            from_ptx = target in ("nvidia-sm75", "nvidia-sm80", "nvidia-sm90", "nvidia-sm100")
            assert any("which the driver compiles when it first loads it" in c for c in cell.conditions) is from_ptx, (scheme, target)
            if from_ptx and cell.verdict.loads:
                assert cell.verdict != "runs" and cell.otherwise[0].verdict == "fails-at-runtime", (scheme, target)
    assert cells[("llama-cpp-q4-0", "amd-gfx90a")].verdict == "runs"
    volta = cells[("llama-cpp-q4-0", "nvidia-sm70")]
    assert volta.verdict == "runs-if" and volta.conditions[1].startswith("at most 8 tokens per matmul")


def test_the_vllm_cells_the_second_audit_read_against_0_33_0(real_atlas):
    # Twelve more cells read against vLLM 0.33.0 (finding vllm-cell-audit-2026-12-02-b); the golden file keeps only
    # verdict and kernel, so the steps the audit checked are pinned here.
    cells = real_atlas.views.cells

    def walk(scheme, target):
        cell = cells[(scheme, target)]
        return cell, [(a.kernel.removeprefix("vllm-"), a.outcome, a.after_selection) for a in cell.attempts]

    # The AMX FP8 kernels test the model dtype (out_dtype is torch.get_default_dtype() under the model dtype), not the
    # checkpoint: a bfloat16 or float32 model for the per-tensor kernel, bfloat16 for the per-channel one.
    amx = cells[("vllm-ct-w8a8-fp8", "x86-cpu-avx512-amx")]
    assert (amx.verdict, amx.kernel) == ("fallback", "vllm-cpu-fp8-per-tensor-scaled-mm")
    assert "activation dtype in {bfloat16, float32}" in amx.conditions
    assert not any("output dtype" in c for c in amx.conditions)
    channel = next(a for a in amx.attempts if a.kernel == "vllm-cpu-fp8-channel-wise-scaled-mm")
    assert "activation dtype in {bfloat16}" in channel.conditions
    assert not any("output dtype" in c for c in channel.conditions)
    b12x = next(a for a in cells[("vllm-ct-w8a8-fp8", "nvidia-sm120")].attempts
                if a.kernel == "vllm-b12x-tensor-fp8-scaled-mm")
    assert not any("output dtype" in c for c in b12x.conditions)
    # W4A8-INT on Hopper: every kernel ahead of Humming refuses the config; Humming (promoted ahead of Marlin at 90)
    # accepts it and fails humming's weight-shape assertion at load.
    w4a8, tried = walk("vllm-ct-w4a8-int", "nvidia-sm90")
    assert [k for k, _, _ in tried][:4] == ["cutlass-w4a8", "machete", "humming", "marlin"]
    assert tried[2] == ("humming", "no", True) and "weight shape mismatched" in w4a8.attempts[2].reason
    assert w4a8.attempts[0].reason == "CUTLASS W4A8 only supports FP8 (e4m3) activations"
    # MXFP4 on SM120: where FlashInfer's CuTe-DSL module is usable, its MXFP4 kernel is selected (capability >= 100)
    # and FlashInfer 0.7.2.post1's SM12x runner raises; the default install leaves FlashInfer unusable (no
    # flashinfer-cubin, no nvcc it finds: utils/flashinfer.py 504-508), so it gets Marlin, which with a bfloat16 model
    # computes weight-only: a default install selects that fallback, with the failure a step off the defaults (found by
    # cards28a). --linear-backend humming leaves HummingMxFp4LinearKernel, which keeps MXFP4 activations from 120, so
    # the cell runs only given it; the default walk's steps follow the unset setting's (vllmset31).
    mx = cells[("vllm-ct-w4a4-mxfp4", "nvidia-sm120")]
    default = [(a.kernel.removeprefix("vllm-"), a.outcome, a.after_selection) for a in mx.default_attempts]
    assert (mx.verdict, mx.kernel, mx.default_kernel, default[0]) == (
        "runs-if", "vllm-humming-mxfp4", "vllm-marlin-mxfp4", ("flashinfer-mxfp4", "no", True))
    assert "SM12x cute-dsl requires NVFP4 with 128x4 scales" in mx.default_attempts[0].reason
    assert mx.conditions[0].startswith("--linear-backend humming") and mx.default_where == ("activation dtype in {bfloat16}",)
    unset, first = mx.otherwise[0], mx.otherwise[1]
    assert (unset.verdict, unset.selected, unset.conditions) == (
        "fallback", "vllm-marlin-mxfp4", ("activation dtype in {bfloat16}",)) and "bfloat16" in unset.computes_as
    assert (first.verdict, first.selected, first.off_default) == ("fails-at-runtime", "vllm-flashinfer-mxfp4", True)
    assert first.unmet[0].startswith("the default install's lack of FlashInfer usable") and first.kernel == unset.selected
    assert mx.assumes[0].condition == first.unmet[0] and mx.assumes[0].facts == ("flashinfer-cubin-or-nvcc",)
    assert (mx.otherwise[2].verdict, mx.otherwise[2].selected) == ("fails-at-runtime", "vllm-marlin-mxfp4")
    # GPTQ on Arm: CPUWNA16 is selected, and aarch64 builds do not register cpu_gemm_wna16.
    arm, tried = walk("vllm-gptq-marlin", "arm-cpu")
    assert (arm.verdict, tried) == ("fails-at-runtime", [("dynamic-4bit", "no", False), ("zentorch-wna16", "no", False),
                                                         ("cpu-wna16", "no", True)])
    # NVFP4: FlashInfer CUTLASS on SM120 (a default install reaches the CUTLASS NVFP4 kernel without FlashInfer);
    # on Hopper Humming, promoted ahead of Marlin, drops the FP4 activation quantization.
    sm120 = cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm120")]
    assert (sm120.verdict, sm120.kernel) == ("runs", "vllm-flashinfer-cutlass-nvfp4")
    hopper, tried = walk("vllm-ct-w4a4-nvfp4", "nvidia-sm90")
    assert (hopper.verdict, hopper.kernel) == ("fallback", "vllm-humming-nvfp4")
    assert [k for k, _, _ in tried][-2:] == ["humming-nvfp4", "marlin-nvfp4"]
    # W4A8-FP8: CUTLASS W4A8 on SM90 with a bfloat16 model, else Humming at 16-bit activations; elsewhere the exact-90
    # predicate fails and no other compressed-tensors scheme matches.
    fp8 = cells[("vllm-ct-w4a8-fp8", "nvidia-sm90")]
    assert (fp8.verdict, fp8.kernel, fp8.otherwise[0].verdict, fp8.otherwise[0].selected) == (
        "runs-if", "vllm-cutlass-w4a8", "fallback", "vllm-humming")
    assert (cells[("vllm-ct-w4a8-fp8", "nvidia-sm100")].verdict, cells[("vllm-ct-w4a8-fp8", "nvidia-sm100")].attempts) == (
        "refused", ())
    # W8A16-FP8 on ROCm: the registry's ROCm list is empty, so the selector raises with no reasons.
    rocm = cells[("vllm-ct-w8a16-fp8", "amd-gfx942")]
    assert (rocm.verdict, rocm.attempts, rocm.failure_message) == (
        "refused", (), "Failed to find a kernel that can implement the ScaledMM linear layer. Reasons:")
    # AWQ on ROCm bypasses the registry: the Triton AWQ method, VLLM_USE_TRITON_AWQ being forced on. Its fused GEMM
    # refuses bfloat16 (Triton's out_dtype check), but the compiled model (the default) always dequantizes instead, so
    # the cell runs and the eager-mode failure is a trap, not a condition (cells27b second reading).
    assert (cells[("vllm-awq-marlin", "amd-gfx90a")].verdict, cells[("vllm-awq-marlin", "amd-gfx90a")].kernel) == (
        "runs", "vllm-awq-triton")
    # CT WNA16 on gfx942: Triton W4A16 with a 16-bit model, which `--dtype auto` always gives there (so it runs by
    # default), else (an explicit --dtype float32) Conch (group size -1 or 128), else refused.
    wna16 = cells[("vllm-ct-wna16", "amd-gfx942")]
    assert (wna16.verdict, wna16.kernel) == ("runs", "vllm-triton-w4a16")
    assert [a.condition for a in wna16.assumes] == ["activation dtype in {float16, bfloat16}"]
    assert [(o.verdict, o.selected) for o in wna16.otherwise] == [("runs-if", "vllm-conch"), ("refused", None)]
    # FP8 W8A8 below 89 is the W8A16 scheme's cell: Humming, else Marlin unless VLLM_BATCH_INVARIANT.
    ampere = cells[("vllm-ct-w8a8-fp8", "nvidia-sm86")]
    assert (ampere.verdict, ampere.kernel, ampere.gate_fallback) == (
        "fallback", "vllm-humming-fp8-scaled-mm", "vllm-ct-w8a16-fp8")


def test_the_vllm_cells_the_third_audit_read_against_0_33_0(real_atlas):
    # Twelve more cells read against vLLM 0.33.0 and FlashInfer 0.7.2.post1 (finding vllm-cell-audit-2026-12-02-c);
    # the golden file keeps only verdict and kernel, so the steps the audit checked are pinned here.
    cells = real_atlas.views.cells
    sixteen = "activation dtype in {float16, bfloat16}"

    def float32_failure(cell, kernel):
        return [(s.verdict, s.selected) for s in cell.otherwise if s.unmet == (sixteen,) and s.selected == kernel]

    # FlashInfer refuses a float32 output (bmm_fp8, mm_mxfp8) or input (CuTe-DSL MXFP4 quantization) after selection:
    # the cells keep their verdicts under --dtype auto, and a float32 model fails at run time with the same kernel.
    for scheme, target, verdict, kernel, message in (
            ("vllm-ct-w8a8-fp8", "nvidia-sm100", "runs", "vllm-flashinfer-fp8-scaled-mm", "FP8 GEMM operations"),
            ("vllm-ct-w8a8-fp8", "nvidia-sm120", "runs", "vllm-flashinfer-fp8-scaled-mm", "FP8 GEMM operations"),
            ("vllm-ct-w8a8-mxfp8", "nvidia-sm120", "runs-if", "vllm-flashinfer-cutlass-mxfp8", "MXFP8 GEMM operations"),
            ("vllm-ct-w8a8-mxfp8", "nvidia-sm100", "runs-if", "vllm-flashinfer-cutedsl-mxfp8", "MXFP8 GEMM operations"),
            ("vllm-ct-w4a4-mxfp4", "nvidia-sm100", "runs-if", "vllm-flashinfer-mxfp4", "must be float16 or bfloat16")):
        cell = cells[(scheme, target)]
        assert (cell.verdict, cell.kernel) == (verdict, kernel), (scheme, target)
        assert sixteen in cell.attempts[[a.kernel for a in cell.attempts].index(kernel)].conditions, (scheme, target)
        assert float32_failure(cell, kernel) == [("fails-at-runtime", kernel)], (scheme, target)
        assert any(message in r for s in cell.otherwise if s.selected == kernel for r in s.reasons), (scheme, target)
    # Cells that hold as they were: NVFP4 through FlashInfer CuTe-DSL on SM100 and through Marlin's Turing kernels
    # (float16 only) on SM75; GPTQ through Marlin on SM120; INT8 on SM100 runs only given --linear-backend triton (a
    # default install selects CUTLASS, which fails: vllmset31).
    assert_verdicts(cells, (
            ("vllm-ct-w4a4-nvfp4", "nvidia-sm100", "runs", "vllm-flashinfer-cutedsl-nvfp4"),
            ("vllm-ct-w4a4-nvfp4", "nvidia-sm75", "fallback", "vllm-marlin-nvfp4"),
            ("vllm-gptq-marlin", "nvidia-sm120", "runs", "vllm-marlin"),
            ("vllm-ct-w8a8-int8", "nvidia-sm100", "runs-if", "vllm-triton-int8-scaled-mm"),
            ("vllm-gptq-marlin", "amd-gfx1151", "runs", "vllm-rdna-hybrid-w4a16"),
            ("vllm-ct-wna16", "amd-gfx906", "runs-if", "vllm-triton-w4a16"),
            ("vllm-ct-w8a8-int8", "x86-cpu-avx512", "runs", "vllm-zentorch-int8-scaled-mm")))
    turing = cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm75")]
    assert "activation dtype in {float16}" in turing.conditions
    # On gfx1151 group sizes other than 32, 64 and 128 leave the hybrid kernel for Triton W4A16.
    rdna = cells[("vllm-gptq-marlin", "amd-gfx1151")]
    assert [(o.verdict, o.selected) for o in rdna.otherwise] == [("runs", "vllm-triton-w4a16")]


def test_the_vllm_cells_the_fourth_audit_read_against_0_33_0(real_atlas):
    # Ten more cells and the third audit's open items, read against vLLM 0.33.0, its published wheel and FlashInfer
    # 0.7.2.post1 (finding vllm-cell-audit-2026-12-02-d); the golden file keeps only verdict and kernel.
    from generators.derive.cells import default_installs, on_target, resolved_kernels, try_kernel

    cells = real_atlas.views.cells
    quant = "vLLM built with its NVFP4 activation quantization kernel"
    # The FlashInfer CuTe-DSL and b12x NVFP4 kernels need vLLM's scaled_fp4_quant kernel, which the default wheel
    # carries: a condition the default install meets, so the verdicts hold.
    for target, kernel in (("nvidia-sm100", "vllm-flashinfer-cutedsl-nvfp4"), ("nvidia-sm120", "vllm-flashinfer-cutlass-nvfp4")):
        cell = cells[("vllm-ct-w4a4-nvfp4", target)]
        assert (cell.verdict, cell.kernel) == ("runs", kernel), target
    sm100 = cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm100")]
    assert any(c.startswith(quant) for c in sm100.conditions)
    assert any(a.condition.startswith(quant) and "nvfp4-quant-kernels" in a.facts for a in sm100.assumes)
    sm120 = cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm120")]
    b12x = next(a for a in sm120.attempts if a.kernel == "vllm-flashinfer-b12x-nvfp4")
    assert any(c.startswith(quant) for c in b12x.conditions)
    # The TensorRT-LLM kernels (--linear-backend flashinfer_trtllm) fail after selection off capabilities 100, 103 and
    # 107, and the NVFP4 one below 100 already in vLLM's quantization kernel; both take only a bfloat16 model.
    index = real_atlas.index
    kernels, installs = resolved_kernels(index), default_installs(index)
    targets = {t.id: t.data for t in index.all("hardware-target")}
    schemes = {s.id: s.data for s in index.all("scheme")}

    def attempt(kernel, scheme, target):
        return try_kernel(kernel, kernels[kernel], on_target(schemes[scheme]["config"], targets[target]),
                          targets[target], schemes[scheme], installs.get(("vllm", "cuda")))

    nvfp4 = "vllm-flashinfer-trtllm-nvfp4"
    on90, on120 = attempt(nvfp4, "vllm-ct-w4a4-nvfp4", "nvidia-sm90"), attempt(nvfp4, "vllm-ct-w4a4-nvfp4", "nvidia-sm120")
    assert on90.after_selection and on90.reason.startswith("No compiled nvfp4 quantization kernel for SM 90")
    assert on120.after_selection and on120.reason == "mm_fp4 does not support backend 'trtllm' with capability 120"
    assert "activation dtype in {bfloat16}" in attempt(nvfp4, "vllm-ct-w4a4-nvfp4", "nvidia-sm100").conditions
    mxfp8 = attempt("vllm-flashinfer-trtllm-mxfp8", "vllm-ct-w8a8-mxfp8", "nvidia-sm100")
    assert not mxfp8.after_selection and "activation dtype in {bfloat16}" in mxfp8.conditions
    # ROCm FP8: a float32 model fails in the skinny GEMM wvSplitKQ, which the per-tensor ROCm kernel uses for batches of
    # four or fewer tokens; the default dtypes keep the verdicts.
    for target in ("amd-gfx950", "amd-gfx942"):
        cell = cells[("vllm-ct-w8a8-fp8", target)]
        assert (cell.verdict, cell.kernel) == ("runs", "vllm-aiter-hipbmm-per-token-fp8-scaled-mm"), target
        rocm = next(a for a in cell.attempts if a.kernel == "vllm-rocm-fp8-scaled-mm")
        assert "activation dtype in {float16, bfloat16}" in rocm.conditions, target
        assert [(s.verdict, s.selected) for s in cell.otherwise if s.kernel == "vllm-rocm-fp8-scaled-mm"
                and s.unmet == ("activation dtype in {float16, bfloat16}",)] == [
            ("fails-at-runtime", "vllm-rocm-fp8-scaled-mm")], target
    # MXFP8 on gfx950 (verdict29 audit): a layer whose K is not a multiple of 128 (without 32-row scale blocks) is
    # dequantized to BF16 at load, a model property, so the cell runs only given it and otherwise falls back.
    mx950 = cells[("vllm-ct-w8a8-mxfp8", "amd-gfx950")]
    assert (mx950.verdict, mx950.kernel) == ("runs-if", "vllm-rocm-dot-scaled-mxfp8")
    assert [(s.verdict, s.selected) for s in mx950.otherwise] == [("fallback", "vllm-rocm-dot-scaled-mxfp8")]
    # FP8 W8A8 on CPUs without AMX-INT8 (verdict29 second reading): PyTorch's CPU torch._scaled_mm converts the FP8
    # operands to float32 there, exactly, and multiplies them in float32 (run with torch 2.14.0): the scheme's
    # arithmetic, so the cells run, the channel-wise kernel taking what the per-tensor one declines.
    for target in ("arm-cpu", "x86-cpu-avx2", "x86-cpu-avx512"):
        cpu = cells[("vllm-ct-w8a8-fp8", target)]
        assert (cpu.verdict, cpu.kernel) == ("runs", "vllm-per-tensor-torch-fp8-scaled-mm"), target
        assert [(s.verdict, s.selected) for s in cpu.otherwise] == [
            ("runs", "vllm-channel-wise-torch-fp8-scaled-mm")], target
    # Cells that hold as they were.
    assert_verdicts(cells, (
            ("vllm-ct-w4a4-mxfp4", "amd-gfx950", "runs-if", "vllm-aiter-mxfp4"),
            ("vllm-ct-w4a4-mxfp4", "amd-gfx942", "fallback", "vllm-emulation-mxfp4"),
            ("vllm-ct-w8a8-fp8", "nvidia-sm89", "runs", "vllm-cutlass-fp8-scaled-mm"),
            ("vllm-ct-w8a8-int8", "nvidia-sm80", "runs", "vllm-cutlass-int8-scaled-mm"),
            ("vllm-ct-wna16", "nvidia-sm80", "runs", "vllm-marlin"),
            ("vllm-ct-w8a8-int8", "x86-cpu-avx2", "runs", "vllm-cpu-int8-scaled-mm")))


def test_the_vllm_cells_the_fifth_audit_read_against_0_33_0(real_atlas):
    # Intel GPU and CPU cells read against vLLM 0.33.0 and the vllm-xpu-kernels 0.1.15.4 wheel its XPU requirements
    # pin (finding vllm-cell-audit-2026-12-02-e); the golden file keeps only verdict and kernel.
    cells = real_atlas.views.cells
    sixteen = "activation dtype in {float16, bfloat16}"

    def fails_after(cell, kernel, unmet):
        return [(s.verdict, s.selected) for s in cell.otherwise if s.unmet == (unmet,) and s.selected == kernel]

    # fp8_gemm_w8a16 (vllm-xpu-kernels) has no float32 input path, and cpu_gemm_wna16 dispatches bfloat16 and
    # float16 only: a float32 model is selected and then fails; the default dtypes keep the kernels.
    for scheme, target, verdict, kernel in (
            ("vllm-ct-w8a16-fp8", "intel-gpu", "runs-if", "vllm-xpu-w8a16-fp8"),
            ("vllm-ct-wna16", "x86-cpu-avx512-amx", "runs-if", "vllm-cpu-wna16")):
        cell = cells[(scheme, target)]
        assert (cell.verdict, cell.kernel) == (verdict, kernel), (scheme, target)
        assert sixteen in cell.conditions, (scheme, target)
        assert fails_after(cell, kernel, sixteen) == [("fails-at-runtime", kernel)], (scheme, target)
    avx512 = cells[("vllm-ct-wna16", "x86-cpu-avx512")]
    # --dtype auto gives bfloat16 or float16 on x86 CPUs (CpuPlatform.supported_dtypes; finding
    # vllm-cell-audit-2026-12-02-g), so the float32 failure is a step off the defaults and the cell runs.
    assert avx512.verdict == "runs"
    assert fails_after(avx512, "vllm-cpu-wna16", sixteen) == [("fails-at-runtime", "vllm-cpu-wna16")]
    amx = cells[("vllm-ct-wna16", "x86-cpu-avx512-amx")]
    assert not any("float16 or float32" in c for c in amx.conditions)
    # The XPU substitution of CompressedTensorsW8A16Fp8 for a W8A8 FP8 checkpoint computes with 16-bit activations only;
    # its own step follows (a float32 model selects the weight-only kernel, then fails: vllmset31).
    w8a8 = cells[("vllm-ct-w8a8-fp8", "intel-gpu")]
    assert [(s.verdict, s.computes_as) for s in w8a8.otherwise if s.selected == "vllm-xpu-w8a16-fp8"] == [
        ("fallback", "CompressedTensorsW8A16Fp8: float8_e4m3fn weights with activations left at float16/bfloat16 "
         "(weight-only arithmetic, activations unquantized)"), ("fails-at-runtime", "")]
    # INT8 on XPU: the Triton kernel takes every layer, and scaled_int8_quant raises for asymmetric activations there.
    int8 = cells[("vllm-ct-w8a8-int8", "intel-gpu")]
    assert (int8.verdict, int8.kernel) == ("runs-if", "vllm-triton-int8-scaled-mm")
    assert [(s.verdict, s.selected, s.reasons) for s in int8.otherwise] == [
        ("fails-at-runtime", "vllm-triton-int8-scaled-mm",
         ("vllm-triton-int8-scaled-mm: asymmetric int8 activation quantization is unsupported on XPU",))]
    for target in ("amd-gfx90a", "nvidia-sm80"):
        assert not cells[("vllm-ct-w8a8-int8", target)].otherwise or all(
            "XPU" not in r for s in cells[("vllm-ct-w8a8-int8", target)].otherwise for r in s.reasons), target
    # XPUwNa16 accepts group size -1 (per-channel), but int4_gemm_w4a16 hands it to oneDNN as the scale group
    # {-1, 1}, which oneDNN v3.13 refuses: selected, then fails (finding xpuchan28-audit-2026-12-04).
    per_group = "group size in {32, 64, 128}"
    for scheme in ("vllm-awq-marlin", "vllm-gptq-marlin", "vllm-ct-wna16"):
        cell = cells[(scheme, "intel-gpu")]
        assert (cell.verdict, cell.kernel) == ("runs-if", "vllm-xpu-wna16"), scheme
        assert per_group in cell.conditions, scheme
        assert fails_after(cell, "vllm-xpu-wna16", per_group) == [("fails-at-runtime", "vllm-xpu-wna16")], scheme
    # Cells that hold as they were.
    assert_verdicts(cells, (
            ("vllm-ct-w4a8-int", "intel-gpu", "runs", "vllm-xpu-w4a8-int"),  # runs since XPU states auto_dtypes (audit g)
            ("vllm-ct-w4a4-mxfp4", "intel-gpu", "runs", "vllm-xpu-mxfp4"),
            ("vllm-ct-w8a8-mxfp8", "intel-gpu", "runs", "vllm-xpu-mxfp8"),
            ("vllm-ct-w4a4-nvfp4", "intel-gpu", "refused", None),
            ("vllm-ct-w4a8-fp8", "intel-gpu", "refused", None),
            ("vllm-ct-w8a8-fp8", "intel-gpu", "runs-if", "vllm-xpu-w8a8-fp8"),
            ("vllm-ct-wna16", "arm-cpu", "fails-at-runtime", "vllm-cpu-wna16"),
            ("vllm-awq-marlin", "arm-cpu", "fails-at-runtime", "vllm-cpu-wna16"),
            ("vllm-gptq-marlin", "x86-cpu-avx512-amx", "runs-if", "vllm-cpu-wna16"),
            ("vllm-ct-w4a8-int", "arm-cpu", "runs", "vllm-dynamic-4bit"),
            ("vllm-ct-w4a8-int", "x86-cpu-avx2", "runs", "vllm-dynamic-4bit"),
            ("vllm-ct-w4a8-int", "x86-cpu-avx512-amx", "runs", "vllm-dynamic-4bit"),
            ("vllm-ct-w8a8-int8", "arm-cpu", "runs", "vllm-cpu-int8-scaled-mm"),
            ("vllm-ct-w8a8-int8", "x86-cpu-avx512-amx", "runs", "vllm-cpu-int8-scaled-mm"),
            ("vllm-ct-w8a16-fp8", "x86-cpu-avx512-amx", "refused", None)))


def test_explain_lists_the_traps_the_answer_shows(real_atlas):
    """`explain` ends with the traps the site's answer lists for the cell, with severity and name, and none where the
    answer has none (here the llama.cpp Q4_0 cell on AVX2 CPUs: the gfx1151 and Arc traps name other hardware, and
    llama.cpp's mistral4 trap names the CUDA and HIP platforms)."""
    from generators.explain import explain_text
    text, found = explain_text(real_atlas, "vllm-ct-w8a8-mxfp8", "nvidia-sm75")
    tail = text.splitlines()[text.splitlines().index("  traps that apply (records/gotchas/):") + 1:]
    tail = tail[:next((n for n, line in enumerate(tail) if not line.startswith("    ")), len(tail))]  # engine-wide after
    assert found and [line.split(" (")[0].strip() for line in tail] == list(
        real_atlas.views.answers[("vllm-ct-w8a8-mxfp8", "nvidia-sm75")].traps)
    assert "    vllm-marlin-mx-float16-model-no-kernel (blocker): " in "\n".join(tail)
    assert "traps that apply" not in explain_text(real_atlas, "llama-cpp-q4-0", "x86-cpu-avx2")[0]
    gfx1151 = explain_text(real_atlas, "llama-cpp-q4-0", "amd-gfx1151")[0]  # a trap naming the engine on one part
    assert "    gfx1151-hip-corrupt-vulkan-correct (blocker, silent): " in gfx1151


def test_explain_says_what_the_card_says_the_answer_computes_in(real_atlas):
    """explain printed no "Computes in" fact where the card has one: the formats the kernel computes in, and the format
    map's notice where it rates them emulated on the target's parts with the way the kernel records it computes them
    there (without_matrix_instruction: vLLM-Gaudi rescales OCP FP8 into Gaudi 2's own FP8 encoding; llama.cpp's MMVQ
    and MMQ multiply INT8 with DP4A on a V100), nor the card's Release, Covers and engine-wide traps lines."""
    from generators.explain import explain_text
    gaudi = explain_text(real_atlas, "vllm-gaudi-fp8", "intel-gaudi2")[0].splitlines()
    assert "  computes in: FP8 E4M3" in gaudi
    notice = next(line for line in gaudi if line.startswith("    the format map rates "))
    assert notice.startswith("    the format map rates FP8 E4M3 emulated on Intel Gaudi 2: ")
    assert notice.endswith("; vllm-gaudi-hpu-fp8-scaled-mm rescales it and its scales into the part's own FP8 encoding "
                           "first and multiplies it in that encoding (torch.ops.hpu.fp8_gemm_v2, source "
                           "vllm-gaudi-src-extension-ops-v0-26-0)")
    # the card's Release line names the host of a platform plugin (wording plugin_of), and explain says it too
    assert "  release read: vLLM-Gaudi v0.26.0, a platform plugin of vLLM for hpu, installed beside it and loaded by it" in gaudi
    volta = explain_text(real_atlas, "llama-cpp-q4-k", "nvidia-sm70")[0].splitlines()
    at = volta.index("  computes in, by kernel, in the engine's order (the conditions say which runs when):")
    assert volta[at + 1:at + 3] == ["    INT8 (llama-cpp-mmvq, llama-cpp-mmq)",
                                    "    FP16 after dequantizing the weights (llama-cpp-cublas-dequant)"]
    assert volta[at + 3].endswith("; llama-cpp-mmvq and llama-cpp-mmq multiply it as it is with vector instructions "
                                  "(__dp4a, source llama-cpp-src-common-cuh-b11312)")
    moe = explain_text(real_atlas, "vllm-fp8-moe", "amd-gfx950")[0].splitlines()
    assert "  computes in: FP8 E4M3" in moe
    assert not any(line.startswith("    the format map ") for line in moe)  # gfx950 rates FP8 natively
    assert any(line.startswith("  covers: the expert layers of the mixture-of-experts models") for line in moe)
    assert "  engine-wide traps (not specific to this format or hardware):" in moe


def test_no_cell_whose_checkpoint_has_no_block_scales_says_it_computes_in_a_block_scaled_format(real_atlas):
    """"Computes in" named a format record, whose name can describe how its checkpoints scale: vLLM-Gaudi's per-tensor
    and per-channel compressed-tensors FP8 on Gaudi 3 (and every other FP8 cell without block scales) said it computes
    in "FP8 E4M3 (per-tensor / per-block scaled)". It says the precision the multiply runs in, as explain prints it and
    as the API index the card and the comparison table read gives it (`precision_label`): nothing about blocks where
    the scheme's weights carry no block scales, and never a format's name that says more than its precision."""
    from generators.render.api import index_document
    labels = {f["id"]: f["precision_label"] for f in index_document(real_atlas)["records"]["format"]}
    checked = 0
    for (scheme_id, target), answer in sorted(real_atlas.views.answers.items()):
        if answer.cell.computes_as:
            continue
        lines = explain_text(real_atlas, scheme_id, target)[0].splitlines()
        several = len(answer.steps) > 1 or (len(answer.steps) == 1 and answer.steps[0].precision)
        said = ([" or ".join(labels[f] for f in step.formats) for step in answer.steps if step.formats] if several
                else [" or ".join(labels[f] for f in answer.computes_in)] if answer.computes_in else [])
        for text, step in zip(said, [s for s in answer.steps if s.formats] if several else [None]):
            line = f"    {text} ({', '.join(step.kernels)})" if step else f"  computes in: {text}"
            assert any(s.startswith(line) for s in lines), (scheme_id, target, line)
        scales = (real_atlas.index.must("scheme", scheme_id).data.get("config") or {}).get("weight_scales", [])
        if said and scales and "block" not in scales:
            checked += 1
            assert not any("block" in text.lower() for text in said), (scheme_id, target, said)
    assert checked > 20  # the per-tensor and per-channel FP8 and INT8 cells
    computed = {f for a in real_atlas.views.answers.values() for f in (*a.computes_in, *(f for s in a.steps for f in s.formats))}
    assert computed and not [labels[f] for f in computed if "(" in labels[f] or "scal" in labels[f].lower()]


def test_explain_names_the_part_a_trap_on_some_of_the_targets_parts_applies_to(real_atlas):
    """MLX's CUDA wheels have only sm_100a code for Blackwell data-centre GPUs: the blocker on the SM 10.x answer
    applies to the B300 alone, which the answer card says ("on this target's NVIDIA B300 (Blackwell Ultra) only");
    explain once listed such a trap with no part, as if it hit every part. The onnxruntime-gpu wheels' blocker names
    every part of SM 7.0 (the V100) and of SM 10.x (B200, GB200, B300), so it concerns the whole target and names no
    part (trt48: it named the GB10 until the aarch64 wheel, which has sm_121a code, was read)."""
    from generators.explain import explain_text
    trap = "mlx-cuda-wheels-sm100a-only-no-code-for-b300"
    lines = explain_text(real_atlas, "mlx-lm-affine-4", "nvidia-sm100")[0].splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith(f"    {trap} (blocker): "))
    assert lines[at + 1] == ("      on this target's NVIDIA B300 (Blackwell Ultra) only (accelerator b300), "
                             "not its other parts")
    ort = "onnxruntime-gpu-wheel-no-code-v100-blackwell-dc-gb10"
    for target in ("nvidia-sm70", "nvidia-sm100"):
        text = explain_text(real_atlas, "onnxruntime-matmulnbits-int4", target)[0]
        assert f"    {ort} (blocker): " in text and "not its other parts" not in text, target
    assert f"    {ort} (blocker): " not in explain_text(real_atlas, "onnxruntime-matmulnbits-int4", "nvidia-sm120")[0]


def test_the_support_grid_counts_a_trap_on_one_part_apart_and_its_note_names_the_part(real_atlas):
    """The grid's trap mark on an SM 10.x cell said "1 trap(s) apply" for a B300-only blocker (MLX's sm_100a-only
    wheels), as if it hit every SM 10.x part; it counts it as applying on some parts only, and the cell's note names
    the B300. (The example was ONNX Runtime's GB10-only blocker on SM 12.x until trt48 read the aarch64 wheel.)"""
    import re

    from generators.render.matrix import support_matrices_html
    text = str(support_matrices_html(real_atlas, "chapters/support-tables.md", {}))
    cell = re.search(r'<td class="atlas-grid__cell[^"]*"><a href="#cell-mlx-lm-affine-4--nvidia-sm100"'
                     r'.*?</td>', text).group(0)
    assert 'trap(s) apply on some of its parts only (see the note)"' in cell
    volta = re.search(r'<td class="atlas-grid__cell[^"]*"><a href="#cell-onnxruntime-matmulnbits-int4--nvidia-sm70"'
                      r'.*?</td>', text).group(0)
    assert 'title="1 trap(s) apply"' in volta
    note = re.search(r'<li id="cell-mlx-lm-affine-4--nvidia-sm100">(.*?)</li>', text).group(1)
    traps = re.sub(r"<[^>]+>", "", note.split(". Traps: ")[1])
    assert "mlx-cuda-wheels-sm100a-only-no-code-for-b300 (on b300 only)" in traps  # (names: ids)


def test_a_published_column_spanning_targets_disagrees_only_on_the_targets_it_is_wrong_for(real_atlas):
    """vLLM's table says yes to FP8 W8A8 on "AMD GPU", a column of four targets: the derivation runs it on gfx942 and
    gfx950 and refuses it on gfx90a and gfx1151. The table cell disagrees as a whole (the column is split), but each
    answer says whether the table is right for its own target, and only the wrong ones carry the explaining finding."""
    answers = real_atlas.views.answers
    column = next(p for p in real_atlas.views.published if p.row == "llm-compressor FP8 (W8A8)" and p.column == "AMD GPU")
    assert (column.published, column.derived, column.agrees) == ("yes", "partial", False)
    for target, agrees in (("amd-gfx90a", False), ("amd-gfx942", True), ("amd-gfx950", True), ("amd-gfx1151", False)):
        [claim] = [c for c in answers[("vllm-ct-w8a8-fp8", target)].published if c.column == "AMD GPU"]
        assert (claim.agrees, claim.finding) == (agrees, None if agrees else "vllm-table-amd-fp8-by-gfx"), target


def test_vllm_computes_fp8_in_the_targets_own_fp8_type(real_atlas):
    # on gfx94x vLLM converts E4M3FN checkpoints to float8_e4m3fnuz and computes in it (the target's fp8_dtype), which
    # CDNA 3's matrix cores run natively; CDNA 4 and NVIDIA compute in OCP E4M3
    answers = real_atlas.views.answers
    assert answers[("vllm-ct-w8a8-fp8", "amd-gfx942")].computes_in == ("fp8-e4m3-fnuz",)
    for target in ("amd-gfx950", "nvidia-sm90"):
        assert answers[("vllm-ct-w8a8-fp8", target)].computes_in == ("fp8-e4m3",)


def test_mlx_cuda_qmv_lists_the_one_route_each_mode_and_capability_takes(real_atlas):
    # MLX 846d176 QuantizedMatmul::eval_gpu calls fp_qmv instead of qmv exactly when supports_fp_qmv holds: compute
    # capability major above 9 and a mode other than affine (qmm.cu lines 127-157); the golden file keeps only verdict
    # and kernel, so the route each cell names is pinned here (finding mlx-qmv-routes-2026-12-03).
    cells = real_atlas.views.cells
    for scheme in ("affine-4", "affine-8", "mxfp4", "mxfp8", "nvfp4"):
        for target in ("nvidia-sm75", "nvidia-sm80", "nvidia-sm86", "nvidia-sm89", "nvidia-sm90", "nvidia-sm100",
                       "nvidia-sm120"):
            [qmv] = [a for a in cells[(f"mlx-lm-{scheme}", target)].attempts if a.kernel == "mlx-cuda-qmv"]
            expected = ("qmv",) if scheme.startswith("affine") else (
                ("fp-qmv",) if target in ("nvidia-sm100", "nvidia-sm120") else ("qmv-fp-pre-sm100",))
            assert qmv.routes == expected, (scheme, target)


def test_a_refusal_carries_the_engines_message_where_the_engine_raises_one(real_atlas):
    """ExLlamaV3 1.6.5 on a wave64 (CDNA or GCN) GPU raises its own RuntimeError when exllamav3 is imported
    (util/arch_list.py lines 58-62), so those refusals carry that message and the card says the engine refuses at load;
    MLX-LM on an Intel GPU and vLLM on an Apple GPU raise nothing there (MLX and vLLM compute on the host CPU), and
    carry neither a message nor a gate (cards30s)."""
    cells = real_atlas.views.cells
    for scheme in ("exllamav3-exl3", "exllamav3-fp8-dequant"):
        for target in ("amd-gfx906", "amd-gfx90a", "amd-gfx942", "amd-gfx950"):
            cell = cells[(scheme, target)]
            assert cell.verdict == "refused" and cell.failure_message.endswith(
                "-wide wavefronts. exllamav3 on ROCm supports wave32 (RDNA) GPUs only."), (scheme, target)
    for key in (("mlx-lm-affine-8", "intel-gpu"), ("vllm-awq-marlin", "apple-gpu")):
        assert cells[key].verdict == "refused" and not cells[key].failure_message and not cells[key].gate, key


def test_nf4_through_transformers_computes_in_the_compute_dtype_the_setting_gives(real_atlas):
    """transformers 5.25.0 turns an unset bnb_4bit_compute_dtype into float32 (quantization_config.py lines 468-469)
    and each Linear4bit casts its input to it (bitsandbytes 0.50.1 nn/modules.py line 628), whatever the model dtype:
    the answers compute in FP32 by default, BF16 or FP16 where the setting says so; on x86 CPUs with AVX512-BF16 only
    bfloat16 runs as specified (the kernel's requirement that does not decline), so those answers name that value
    (cards31)."""
    answers = real_atlas.views.answers
    for target in ("nvidia-sm90", "nvidia-sm70", "amd-gfx942", "apple-gpu", "intel-gpu", "x86-cpu-avx2", "arm-cpu"):
        [step] = answers[("transformers-bnb-nf4", target)].steps
        assert step.setting is not None, target
        assert (step.precision, step.setting.name, step.setting.value, step.setting.default, step.setting.others) == (
            "fp32", "bnb_4bit_compute_dtype", "float32", "float32", (("bfloat16", "bf16"), ("float16", "fp16"))), target
    for target in ("x86-cpu-avx512", "x86-cpu-avx512-amx"):
        [step] = answers[("transformers-bnb-nf4", target)].steps
        assert step.setting is not None, target
        assert (step.precision, step.setting.value, step.setting.default, step.setting.others) == (
            "bf16", "bfloat16", "float32", ()), target
    assert answers[("transformers-bnb-nf4", "amd-gfx906")].steps == ()  # fails at run time: computes nothing


def test_vllm_gguf_dequantizing_steps_compute_in_the_dtype_auto_gives_on_each_target(real_atlas):
    """vllm-gguf-plugin 0.0.5's Triton GEMM and dequantize+matmul multiply in vLLM's model dtype, which --dtype auto
    takes from the original model's config.json (bfloat16 for most) and vLLM 0.33.0 turns into float16 below compute
    capability 8.0 (CudaPlatform.supported_dtypes, no bfloat16; _resolve_auto_dtype). So from 8.0 on those steps say
    BF16 with bfloat16 as the default and FP16, FP32 as the other values; on 7.x FP16, float16 the default there and
    float32 the other value, never bfloat16 (gguf50)."""
    answers = real_atlas.views.answers
    for scheme, target, kernel in (("vllm-gguf-q4-k", "nvidia-sm80", "vllm-gguf-triton"),
                                   ("vllm-gguf-iq2-s", "nvidia-sm120", "vllm-gguf-dequant-matmul")):
        [step] = [s for s in answers[(scheme, target)].steps if kernel in s.kernels]
        assert step.setting is not None, target
        assert (step.precision, step.setting.name, step.setting.value, step.setting.default, step.setting.others) == (
            "bf16", "--dtype", "bfloat16", "bfloat16", (("float16", "fp16"), ("float32", "fp32"))), target
        assert "config.json" in step.setting.default_when, target
    for scheme, target, kernel in (("vllm-gguf-q4-k", "nvidia-sm70", "vllm-gguf-triton"),
                                   ("vllm-gguf-iq2-s", "nvidia-sm75", "vllm-gguf-dequant-matmul")):
        [step] = [s for s in answers[(scheme, target)].steps if kernel in s.kernels]
        assert step.setting is not None, target
        assert (step.precision, step.setting.value, step.setting.default, step.setting.others, step.setting.default_when
                ) == ("fp16", "float16", "float16", (("float32", "fp32"),), ""), target


def test_a_prequantized_nf4_checkpoint_computes_in_the_dtype_it_stores(real_atlas):
    """The float32 default holds only when quantizing on load: for a pre-quantized checkpoint transformers 5.25.0
    takes the whole quantization_config of its config.json and ignores a BitsAndBytesConfig passed beside it
    (quantizers/auto.py lines 244-273; BitsAndBytesConfig is not in LOADING_ATTRIBUTES_CONFIG_TYPES), every save writes
    bnb_4bit_compute_dtype (configuration_utils.py lines 1254-1258, quantization_config.py line 577), and the model
    dtype never reaches it (quantizers/base.py update_dtype, lines 100-110). So every step that a setting chooses says
    where a pre-quantized checkpoint stores it (nf4dtype32)."""
    chosen = [(target, step.setting) for (scheme, target), answer in real_atlas.views.answers.items()
              for step in answer.steps if scheme == "transformers-bnb-nf4" and step.setting is not None]
    assert len(chosen) >= 18
    for target, setting in chosen:
        assert setting.stored_in.startswith("its config.json (quantization_config, "), target
        assert setting.as_dict()["stored_in"] == setting.stored_in


def test_ort_matmulnbits_cards_say_what_a_level_4_checkpoint_computes_in(real_atlas):
    """MatMulNBits' accuracy_level is a node attribute the checkpoint carries: ONNX Runtime's quantizer leaves it out
    (level 0, FP32 after dequantizing), while ONNX Runtime GenAI's model builder writes 4 for CPU and WebGPU builds
    (quant_config.py at 0.18.0), and at level 4 MLAS quantizes the activations to int8 per block on every CPU target
    here (AVX2 and AVX-VNNI tables, AVX512-VNNI run on Zen 4, NEON with dot product). So each CPU answer's MLAS step
    says the default, what level 4 gives and what each tool writes (ortacc33); the CUDA operator never reads the
    attribute, so no CUDA step names it."""
    answers = real_atlas.views.answers
    for target in ("x86-cpu-avx2", "x86-cpu-avx512", "x86-cpu-avx512-amx", "arm-cpu"):
        steps = [s for s in answers[("onnxruntime-matmulnbits-int4", target)].steps
                 if "onnxruntime-mlas-qnbit-gemm" in s.kernels]
        assert len(steps) == 1, target
        setting = steps[0].setting
        assert setting is not None, target
        assert (steps[0].precision, setting.name, setting.value, setting.default) == (
            "fp32", "accuracy_level", "0", "0"), target
        assert ("4", "int8") in setting.others and ("1", "fp32") in setting.others, target
        shown = setting.as_dict()
        assert shown["stored_in"].startswith("the MatMulNBits nodes"), target
        assert [(w["value"], w["source"]) for w in shown["written_by"]] == [
            ("0", "onnxruntime-src-matmul-nbits-quantizer-1-32-0"), ("4", "ortgenai-src-quant-config-0-18-0")], target
        assert "cpu and webgpu" in shown["written_by"][1]["when"], target
        # per block on x86 and MLAS's own NEON path; KleidiAI (Arm64 builds with it) quantizes each row (ortacc33s)
        assert "each activation row" in dict(setting.notes)["4"], target
    for target in ("nvidia-sm80", "nvidia-sm90"):
        assert all(s.setting is None for s in answers[("onnxruntime-matmulnbits-int4", target)].steps), target


def test_ort_genai_cpu_answers_run_on_onnx_runtime_kernels_at_the_level_its_builder_writes(real_atlas):
    """ONNX Runtime GenAI runs its models on ONNX Runtime's operators (kernels_from on its engine record; ortg35): its
    INT4 CPU scheme lists ONNX Runtime's CPU MatMulNBits kernels, not copies of them, and since the builder writes
    accuracy_level 4 for CPU builds (config setting_values), the MLAS step computes in INT8 with level 4 first and
    level 0's FP32 among the others; ONNX Runtime's own scheme still gives level 0 first. No GPU answer is derived."""
    engine = real_atlas.index.get("engine", "onnxruntime-genai")
    assert engine.data["kernels_from"]["engine"] == "onnxruntime"
    answers = real_atlas.views.answers
    genai = {target: answer for (scheme, target), answer in answers.items() if scheme == "onnxruntime-genai-int4-cpu"}
    assert sorted(genai) == ["arm-cpu", "x86-cpu-avx2", "x86-cpu-avx512", "x86-cpu-avx512-amx"]
    for target, answer in genai.items():
        assert answer.cell.engine == "onnxruntime-genai" and answer.cell.kernel == "onnxruntime-mlas-qnbit-gemm"
        step = next(s for s in answer.steps if "onnxruntime-mlas-qnbit-gemm" in s.kernels)
        assert step.setting is not None and step.setting.carried, target
        assert (step.precision, step.setting.value, step.setting.default) == ("int8", "4", "0"), target
        assert ("0", "fp32") in step.setting.others, target
        assert answer.cell.verdict == answers[("onnxruntime-matmulnbits-int4", target)].cell.verdict, target


def test_an_integer_step_is_not_said_to_dequantize_the_weights(real_atlas):
    """MLAS at accuracy_level 4 (the GenAI CPU scheme's step, INT8) quantizes the activations to int8 per block and
    multiplies them with the weights' 4-bit codes widened to 8 bits, applying both scales to the integer sums: explain
    says so, not "after dequantizing the weights" (wording35); a float step (ONNX Runtime's own level 0, FP32) keeps it."""
    from generators.explain import explain_text
    int8 = explain_text(real_atlas, "onnxruntime-genai-int4-cpu", "x86-cpu-avx512")[0].splitlines()
    assert any(line.startswith("    INT8 (activations quantized to it, the weights' integers widened to it; scales "
                               "applied to the sums) (onnxruntime-mlas-qnbit-gemm") for line in int8), int8
    assert not any("INT8 after dequantizing" in line for line in int8)
    fp32 = explain_text(real_atlas, "onnxruntime-matmulnbits-int4", "x86-cpu-avx512")[0].splitlines()
    assert any(line.startswith("    FP32 after dequantizing the weights (onnxruntime-mlas-qnbit-gemm") for line in fp32), fp32


def test_mxfp4_emulation_on_rocm_says_it_needs_a_host_compiler_where_it_runs(real_atlas):
    """amd-quark builds its hw_emulation extension the first time vLLM's MXFP4 emulation runs on ROCm, which needs a
    host C++ compiler (the informational gate's `needs`); every ROCm answer through that kernel says it and cites the
    wheel it is read from: with the verdict where the emulation is the answer's kernel, with the step that selects it
    where it is reached only when AITER is missing (gfx950). No CUDA answer says it (cards31)."""
    answers = real_atlas.views.answers
    for target in ("amd-gfx906", "amd-gfx90a", "amd-gfx942", "amd-gfx1151", "amd-gfx950"):
        answer = answers[("vllm-ct-w4a4-mxfp4", target)]
        gates = [n for n in answer.needs if not n.tool]  # Triton's C compiler, which vLLM brings in, is test_checks_built_with's
        assert [(n.kernel, n.source) for n in gates] == [
            ("vllm-emulation-mxfp4", "amd-quark-wheel-0-12-post1")], target
        assert gates[0].said.startswith("a host C++ compiler"), target
        assert "amd-quark-wheel-0-12-post1" in answer.sources, target
    assert answers[("vllm-ct-w4a4-mxfp4", "amd-gfx942")].cell.kernel == "vllm-emulation-mxfp4"
    gfx950 = answers[("vllm-ct-w4a4-mxfp4", "amd-gfx950")]
    assert gfx950.cell.kernel == "vllm-aiter-mxfp4" and [o.selected for o in gfx950.cell.otherwise][0] == "vllm-emulation-mxfp4"
    assert "amd-quark-wheel-0-12-post1" in dict(gfx950.passed_over)["vllm-emulation-mxfp4"]
    for (scheme, target), answer in answers.items():
        if not target.startswith("amd-"):
            assert [n for n in answer.needs if "C++" in n.said] == [], (scheme, target)
    text, _ = explain_text(real_atlas, "vllm-ct-w4a4-mxfp4", "amd-gfx942")
    assert "  also needed at run time (the engine does not check it when it selects the kernel):\n    " \
           "vllm, on every start, through triton: a host C compiler" in text
    assert "\n    vllm-emulation-mxfp4: a host C++ compiler" in text


def test_per_tensor_fp8_experts_part_by_activation_scheme_where_a_backend_takes_only_one(real_atlas):
    # vLLM's FP8 MoE oracle gets the per-tensor weight key with a static or dynamic per-tensor activation key
    # (Fp8MoEMethod.__init__). FlashInfer's TRT-LLM and CUTLASS experts take static scales only, the XPU experts
    # dynamic ones only; Triton takes both, so where a FlashInfer or XPU backend leads, the other activation scheme
    # goes on to Triton. No CPU expert class takes per-tensor keys: every CPU is refused, AMX included.
    cells = real_atlas.views.cells
    for target, first in (("nvidia-sm90", "vllm-flashinfer-cutlass-fp8-tensor-moe"),
                          ("nvidia-sm100", "vllm-flashinfer-trtllm-fp8-tensor-moe"),
                          ("nvidia-sm120", "vllm-flashinfer-cutlass-fp8-tensor-moe")):
        cell = cells[("vllm-fp8-moe", target)]
        assert (cell.verdict, cell.kernel) == ("runs", first)
        assert "activation scales in {static-tensor}" in cell.conditions
        assert cell.default_kernel == "vllm-triton-fp8-moe"
    xpu = cells[("vllm-fp8-moe", "intel-gpu")]
    assert xpu.kernel == "vllm-xpu-fp8-tensor-moe" and "activation scales in {dynamic-tensor}" in xpu.conditions
    assert [(s.selected, s.verdict) for s in xpu.otherwise] == [("vllm-triton-fp8-moe", "runs")]
    # On Xe2/Xe3 the XPU experts ask for unquantized inputs, so vLLM passes no activation scale and vllm-xpu-kernels
    # 0.1.15.4 multiplies 16-bit activations (act_quant = a1q_scale is not None): weight-only, per tensor and block.
    block_xpu = cells[("vllm-fp8-block-moe", "intel-gpu")]
    for cell in (xpu, block_xpu):
        assert cell.verdict == "fallback" and "activations unquantized" in cell.computes_as
    for target in ("x86-cpu-avx512-amx", "x86-cpu-avx2", "arm-cpu"):
        cpu = cells[("vllm-fp8-moe", target)]
        # NONE reaches convert_to_fp8_moe_kernel_format after the weights load, before the bare assertion.
        assert cpu.verdict == "refused" and cpu.failure_message == "Unsupported FP8 MoE backend: NONE"
    assert cells[("vllm-fp8-block-moe", "x86-cpu-avx512-amx")].verdict == "fallback"


def test_a_refusal_names_the_zen_check_a_default_install_fails_before_the_quant_type(real_atlas):
    """ZentorchWNA16LinearKernel.can_implement tests is_zen_cpu() before the quant type (zentorch.py lines 42-44 at
    vLLM 0.33.0); the default install has no zentorch, so vLLM stays on CpuPlatform and that test is what declines on
    an AVX512 CPU, AMD or Intel. The reason leads with it, not with the later CPUWNA16 quant-type message alone. A
    refusal that is itself one split part of a device test (AITER's gfx list) is not led by the other parts."""
    cells = real_atlas.views.cells
    for scheme in ("vllm-ct-wna16-8", "vllm-ct-wna16-8-asym"):
        zen = next(a for a in cells[(scheme, "x86-cpu-avx512")].attempts if a.kernel == "vllm-zentorch-wna16")
        # is_zen_cpu holds only on an AMD CPU with zentorch (platforms/__init__.py: "AuthenticAMD" in /proc/cpuinfo):
        # an Intel AVX512 CPU of the same target keeps this message with zentorch installed, so both parts are named
        assert zen.reason.startswith("ZentorchWNA16 requires an AMD Zen CPU.")
        assert "(unless CPU vendor AuthenticAMD and package zentorch installed)" in zen.reason
        assert "otherwise: Quant type (" in zen.reason
    aiter = next(a for a in cells[("vllm-mxfp4", "amd-gfx90a")].attempts if a.kernel == "vllm-aiter-triton-w4a16-moe")
    assert aiter.reason.startswith("AiterW4A16ExpertsMonolithic._supports_current_device is false outside gfx942")


def test_a_setting_cell_takes_what_the_defaults_meet_of_the_kernel_it_leaves_as_met(real_atlas):
    """--linear-backend humming leaves HummingMxFp4LinearKernel on SM120: humming-kernels[cu13]==0.1.19 is a requirement
    of vLLM 0.33.0's CUDA wheel (requirements/cuda.txt line 33), and --dtype auto gives only bfloat16 or float16, so the
    reader who gives the setting meets both already; the setting itself stays the one open condition. Likewise the
    XPU W8A8 FP8 kernel's dtype test under --linear-backend xpu."""
    cells = real_atlas.views.cells
    mx = cells[("vllm-ct-w4a4-mxfp4", "nvidia-sm120")]
    met = {a.condition: a for a in mx.assumes}
    assert met["package humming-kernels installed"].facts == ("humming-kernels",)
    assert "activation dtype in {float16, bfloat16}" in met
    assert [c for c in mx.conditions if c not in met] == [mx.conditions[0]] and mx.conditions[0].startswith("--linear-backend humming")
    xpu = cells[("vllm-ct-w8a8-fp8", "intel-gpu")]
    assert [a.condition for a in xpu.assumes] == ["activation dtype in {float16, bfloat16}"]


def test_a_running_cell_lists_the_setting_values_that_make_it_worse(real_atlas):
    """The same walk of the filtered list that makes a runs-if cell: on SM90 FP8 W8A8 runs through CUTLASS by default,
    and --linear-backend marlin (or humming) leaves only a weight-only kernel, b12x a refusal."""
    cells = real_atlas.views.cells
    sm90 = cells[("vllm-ct-w8a8-fp8", "nvidia-sm90")]
    worse = {w.setting: w for w in sm90.worse}
    assert sm90.verdict == "runs" and sm90.kernel == "vllm-cutlass-fp8-scaled-mm"
    marlin = worse["--linear-backend marlin"]
    assert (marlin.verdict, marlin.kernel) == ("fallback", "vllm-marlin-fp8-scaled-mm") and "weight-only" in marlin.computes_as
    b12x = worse["--linear-backend b12x"]
    assert (b12x.verdict, b12x.kernel) == ("refused", None) and b12x.reasons[0].startswith("vllm-b12x-tensor-fp8-scaled-mm: ")
    assert "--linear-backend cutlass" not in worse and "--linear-backend triton" not in worse
    # a list no setting filters, and a cell that does not run, list none
    assert not cells[("vllm-ct-w4a8-int", "x86-cpu-avx512")].worse
    assert not cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm90")].worse


def test_a_setting_that_leaves_only_a_kernel_the_default_install_lacks_a_package_for_is_listed_as_worse(real_atlas):
    """vLLM 0.33.0's CUDA wheel does not require conch-triton-kernels (only requirements/rocm.txt pins it), so on SM86
    --linear-backend conch leaves ConchLinearKernel alone, whose can_implement refuses without the package, and
    choose_mp_linear_kernel raises (finding audit39s-second-reading-2026-12-05): the running 8-bit cell lists it as a
    refusal with the package's message, beside cutlass, machete and triton. Installing the package is a step off the
    default install, not what a reader gets."""
    worse = {w.setting: w for w in real_atlas.views.cells[("vllm-ct-wna16-8", "nvidia-sm86")].worse}
    assert list(worse) == ["--linear-backend cutlass", "--linear-backend machete", "--linear-backend conch",
                           "--linear-backend triton"]
    conch = worse["--linear-backend conch"]
    assert (conch.verdict, conch.kernel) == ("refused", None)
    assert conch.reasons[0].startswith("vllm-conch: ") and "conch-triton-kernels is not installed" in conch.reasons[0]
    # the entry names the kernel the install passes over and what the value gets once the package is there
    assert (conch.passed_over, conch.given_it) == ("vllm-conch", "runs-if")
    assert worse["--linear-backend cutlass"].passed_over is None


def test_a_value_whose_kernel_the_default_install_lacks_a_package_for_is_refused_there_even_if_it_would_fail_later(
        real_atlas):
    """Second reading rev39 of audit39s: on SM120 vLLM 0.33.0's --linear-backend flashinfer_trtllm and fbgemm leave
    FlashInferTrtllmNvFp4LinearKernel and FbgemmNvFp4LinearKernel, whose is_supported refuse without FlashInfer's
    cubins or an nvcc (has_flashinfer) and without fbgemm_gpu, neither of which the CUDA wheel brings; init_nvfp4_linear_kernel
    then raises. The card said 'fails at run time (the engine selects ...)', what an install with them gets; and
    flashinfer_cutedsl said 'falls back' to the CuTe-DSL W4A16 kernel, which needs FlashInfer too. On the default
    install all three are refused; the entry keeps what they would do with the need met."""
    worse = {w.setting: w for w in real_atlas.views.cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm120")].worse}
    for value, kernel, given in (("flashinfer_trtllm", "vllm-flashinfer-trtllm-nvfp4", "fails-at-runtime"),
                                 ("fbgemm", "vllm-fbgemm-nvfp4", "fails-at-runtime"),
                                 ("flashinfer_cutedsl", "vllm-flashinfer-cutedsl-nvfp4-w4a16", "fallback")):
        w = worse[f"--linear-backend {value}"]
        assert (w.verdict, w.kernel, w.passed_over, w.given_it) == ("refused", None, kernel, given), value
    assert worse["--linear-backend marlin"].passed_over is None


def test_onnxruntime_matmulnbits_on_cuda_runs_the_gemv_up_to_16_rows_and_cublas_in_tf32_from_ampere(real_atlas):
    """ONNX Runtime's CUDA MatMulNBits read at main-branch commits 01b814b and 0278001 (findings
    ortgpu32-audit-2026-12-04 and ortgpu32s-second-reading-2026-12-04): for a float32 A the fpA_intB path declines on
    the input type, up to 16 rows run the fused 4-bit GEMV kernels in FP32, more rows dequantize and call cuBLAS SGEMM,
    which runs TF32 from compute capability 8.0 (use_tf32 on by default). The default install (the 1.31.1 GPU wheel's
    cubins, sm_75 to sm_90a and sm_120a) has no code for 7.0, 10.x or the GB10's 12.1: there the default install fails
    at run time and the answer needs a build for the GPU first. The golden file keeps only verdict and kernel, so the
    steps are pinned here."""
    cells = real_atlas.views.cells
    for target in ("nvidia-sm70", "nvidia-sm75", "nvidia-sm80", "nvidia-sm86", "nvidia-sm89", "nvidia-sm90",
                   "nvidia-sm100", "nvidia-sm120"):
        cell = cells[("onnxruntime-matmulnbits-int4", target)]
        tried = [(a.kernel.removeprefix("onnxruntime-cuda-"), a.outcome) for a in cell.attempts]
        assert tried[:2] == [("fpa-intb-gemm", "no"), ("int4-gemv", "conditional")], target
        gemv = next(a for a in cell.attempts if a.kernel == "onnxruntime-cuda-int4-gemv")
        assert gemv.conditions[-1].startswith("at most 16 rows of activations"), target
        cublas = [o for o in cell.otherwise if o.selected == "onnxruntime-cuda-dequant-gemm" and o.verdict.loads]
        assert len(cublas) == 1, target
        tf32 = "TF32 tensor cores" in cublas[0].computes_as and 'use_tf32=0' in cublas[0].computes_as
        assert tf32 == (target not in ("nvidia-sm70", "nvidia-sm75")), target
        unbuilt = target in ("nvidia-sm70", "nvidia-sm100")
        assert cell.conditions[0].startswith("a build compiled for compute capability") == unbuilt, target
        # trt48: the Linux aarch64 wheel has code for 8.9, 9.0a, 12.0a and 12.1a only, so on 7.5, 8.0 and 8.6 the
        # answer names the x86_64 wheel, which pip takes on an x86_64 host; on 8.9 both wheels serve (trt48s)
        x86_only = target in ("nvidia-sm75", "nvidia-sm80", "nvidia-sm86")
        assert cell.conditions[0].startswith("onnxruntime-gpu 1.31.1's Linux x86_64 wheel") == x86_only, target
        assert ("Linux aarch64 wheel, its CUDA provider library (libonnxruntime_providers_cuda.so) carries no code"
                in cell.conditions[0]) == x86_only, target
        fails = [o for o in cell.otherwise if o.verdict.value == "fails-at-runtime"]
        assert bool(fails) == (unbuilt or x86_only), target
        assert cell.verdict == "runs-if", target
    # the GB10's Arm host gets the aarch64 wheel, whose sm_121a code runs there: nothing more than its target
    assert real_atlas.views.answers[("onnxruntime-matmulnbits-int4", "nvidia-sm120")].on_parts == ()
    # the GB200's Arm host gets the aarch64 wheel too, which has no 10.0 code: a build in its place alone
    grace = {p.part: p for p in real_atlas.views.answers[("onnxruntime-matmulnbits-int4", "nvidia-sm100")].on_parts}
    (need,) = grace["gb200-nvl72"].conditions
    assert need.startswith("a build compiled for compute capability 10.0 in place of onnxruntime-gpu 1.31.1's Linux "
                           "aarch64 wheel")


def test_a_setting_whose_kernel_record_leaves_activations_open_is_not_listed_as_worse(real_atlas):
    """B12xMxfp8LinearKernel hands the 16-bit input to b12x's mxfp8 mm, whose quantization the record leaves open
    (no activation_handling): --linear-backend b12x on SM120 is not known to run below W8A8 MXFP8, so the running
    MXFP8 cell does not list it as a setting that makes it worse; the known weight-only and refused values stay."""
    worse = {w.setting: w for w in real_atlas.views.cells[("vllm-ct-w8a8-mxfp8", "nvidia-sm120")].worse}
    assert "--linear-backend b12x" not in worse
    assert worse["--linear-backend marlin"].verdict == "fallback" and worse["--linear-backend flashinfer_trtllm"].verdict == "refused"


def test_a_build_without_cutlass_fp8_sends_vllms_fp8_method_to_the_per_tensor_torch_kernel(real_atlas):
    """vLLM's fp8 method asks cutlass_fp8_supported() for its dynamic activation key: in a build whose CUDA is older
    than CUTLASS FP8 needs, the key is per tensor, so PerTensorTorchFP8ScaledMMLinearKernel takes static and dynamic
    checkpoints alike and the channel-wise torch kernel is never reached. compressed-tensors W8A8 FP8 hands a
    per-token key whatever CUTLASS does, so there a dynamic checkpoint does go to the channel-wise kernel."""
    built = "vLLM was built with CUDA 12.4 or newer for capability 89, CUDA 12.0 or newer for 90 and above"
    flashinfer = "vllm-flashinfer-fp8-scaled-mm"
    for target in ("nvidia-sm89", "nvidia-sm90", "nvidia-sm100", "nvidia-sm120"):
        steps = real_atlas.views.cells[("vllm-fp8", target)].otherwise
        at = next(n for n, s in enumerate(steps) if s.kernel == "vllm-cutlass-fp8-scaled-mm")
        assert steps[at].unmet == (built,) and all(s.off_default for s in steps[at:]), target
        # on Blackwell FlashInfer's FP8 GEMM, declined before for a per-token key, takes the per-tensor one (given
        # FlashInfer usable); below 100 it is refused outright
        blackwell = target in ("nvidia-sm100", "nvidia-sm120")
        assert (steps[at].selected == flashinfer) is blackwell, target
        if blackwell:
            assert steps[at].conditions == steps[at + 1].unmet and steps[at + 1].kernel == flashinfer
        last = steps[-1]
        assert (last.verdict.value, last.selected, last.conditions) == (
            "runs", "vllm-per-tensor-torch-fp8-scaled-mm", ()), target
        assert all(s.selected != "vllm-channel-wise-torch-fp8-scaled-mm" for s in steps[at:]), target
    ct = real_atlas.views.cells[("vllm-ct-w8a8-fp8", "nvidia-sm89")].otherwise
    assert ct[-1].selected == "vllm-channel-wise-torch-fp8-scaled-mm"


def test_aiter_switches_set_without_the_aiter_package_fail_the_fp8_moe_load_rather_than_fall_back(real_atlas):
    """vLLM 0.33.0's select_fp8_moe_backend (oracle/fp8.py lines 505-519) walks its backends only while
    VLLM_ROCM_USE_AITER and VLLM_ROCM_USE_AITER_MOE are unset: with VLLM_ROCM_USE_AITER=1 set (the MoE switch defaults
    on) it tries the AITER backend alone and raises where AITER declines, and without the aiter package AITER's device
    test is false. So the Triton experts serve only with the switches unset; switches set and aiter missing is a load
    that fails in AITER, never a fallback to Triton (finding aiter35-audit-2026-12-04)."""
    cells = real_atlas.views.cells
    switches = ("VLLM_ROCM_USE_AITER=1 and VLLM_ROCM_USE_AITER_MOE=1 (default VLLM_ROCM_USE_AITER=False, "
                "VLLM_ROCM_USE_AITER_MOE=True)")
    raised = ("FP8 MoE backend AITER does not support the deployment configuration since kernel does not support "
              "current device rocm. AITER MoE is not enabled — set VLLM_ROCM_USE_AITER=1 and VLLM_ROCM_USE_AITER_MOE=1 "
              "to enable it.")
    for scheme, aiter in (("vllm-fp8-moe", "vllm-aiter-fp8-tensor-moe"), ("vllm-fp8-block-moe", "vllm-aiter-fp8-moe")):
        for target in ("amd-gfx942", "amd-gfx950"):
            cell = cells[(scheme, target)]
            assert (cell.verdict, cell.kernel, cell.default_kernel) == ("runs", aiter, "vllm-triton-fp8-moe")
            assert [(s.kernel, s.unmet, s.verdict, s.selected, s.conditions, s.off_default) for s in cell.otherwise] == [
                (aiter, (switches,), "runs", "vllm-triton-fp8-moe", (), False),
                (aiter, ("package aiter installed",), "fails-at-runtime", aiter, (switches,), True)]
            assert len(cell.otherwise[1].reasons) == 1 and raised in cell.otherwise[1].reasons[0]
            text = explain_text(real_atlas, scheme, target)[0]
            assert f"unless package aiter installed and {switches}" not in text  # the old wording: one way on to Triton
            assert (f"    unless package aiter installed (for {aiter}, off the defaults):\n"
                    f"      -> FAILS AT RUN TIME via {aiter} (conditions: {switches})\n") in text


def test_explain_says_a_package_test_before_the_gate_first(real_atlas):
    """transformers' FBGEMM FP8 quantizer tests fbgemm-gpu before the capability (the gate's `after_installs`): on a
    GPU below the gate, explain says the package's message first, as a default install without it sees, and the gate's
    after it. The messages are the records' own."""
    atlas = real_atlas
    scheme = atlas.index.get("scheme", "transformers-fbgemm-fp8").data
    gate = scheme["capability_gate"]
    kernel = atlas.index.get("kernel", scheme["candidates"][0]["kernels"][0]).data
    package = next(r["reason"] for r in kernel["requirements"]
                   if set(r.get("met_by_install") or ()) & set(gate["after_installs"]))
    refused = [t for (s, t), c in sorted(atlas.views.cells.items()) if s == "transformers-fbgemm-fp8" and c.gate]
    assert refused
    for target in refused:
        lines = explain_text(atlas, "transformers-fbgemm-fp8", target)[0].split("\n")
        said = [n for n, line in enumerate(lines) if line.endswith(": " + package.strip())]
        gated = [n for n, line in enumerate(lines) if line.endswith(": " + gate["reason"])]
        assert said and gated and said[0] < gated[0], target


def test_the_cells_whose_deciding_step_the_records_mark_inferred_are_known_by_inference(real_atlas):
    """TensorRT-LLM at 00bbf71: FP8 below 8.9 fails in cuBLASLt by PyTorch's report (not read in the engine), and
    NVFP4 below SM 10.0 and W4A16 AWQ on Volta throw in dispatches read at other commits (CUTLASS's FP4 runner at
    0249976, the fpA_intB runner at 567239f), and W4A16 AWQ on Turing finds no code in any build (TensorRT-LLM's CMake
    at 1b84604 and CI at 0127950, trt48); these cells say inferred, not read from code. So do the cells that run
    because those same dispatches (and cublas_scaled_mm, read at 762f616) accept the GPU: FP8 from SM 8.9 (on 8.9 and
    12.0 beyond 8 rows, through cuBLASLt), NVFP4 on SM 10.x and 12.x, W4A16 AWQ from SM 8.0 to 10.x. W8A8 SmoothQuant is refused everywhere
    because get_quant_method has no branch for flags read in an older mode.py: its candidate list is inferred. ONNX
    Runtime's CPU cells, and those of the GenAI models that run on its kernels, run through the packed MLAS path on a
    test read at main-branch commit 001d12d, not at the 1.32.0 the records pin (audit44s); its CUDA cells on every
    NVIDIA target walk the CUDA operator read at main-branch commits 01b814b and 0278001, onnxruntime-gpu having no
    1.32.0 release (audit45)."""
    inferred = sorted(key for key, cell in real_atlas.views.cells.items() if cell.known_by == "inferred")
    below_blackwell = ("nvidia-sm70", "nvidia-sm75", "nvidia-sm80", "nvidia-sm86", "nvidia-sm89", "nvidia-sm90")
    fp8 = ("nvidia-sm100", "nvidia-sm120", "nvidia-sm70", "nvidia-sm75", "nvidia-sm80", "nvidia-sm86", "nvidia-sm89",
           "nvidia-sm90")
    w4a16 = ("nvidia-sm100", "nvidia-sm70", "nvidia-sm75", "nvidia-sm80", "nvidia-sm86", "nvidia-sm89", "nvidia-sm90")
    cpus = ("arm-cpu", "x86-cpu-avx2", "x86-cpu-avx512", "x86-cpu-avx512-amx")
    nvidia = fp8  # every NVIDIA target
    assert inferred == [("onnxruntime-genai-int4-cpu", t) for t in cpus] + [
        ("onnxruntime-matmulnbits-int4", t) for t in sorted(cpus + nvidia)] + [
        ("tensorrt-llm-fp8", t) for t in fp8] + [
        ("tensorrt-llm-nvfp4", t) for t in ("nvidia-sm100", "nvidia-sm120", *below_blackwell)] + [
        ("tensorrt-llm-w4a16-awq", t) for t in w4a16] + [
        ("tensorrt-llm-w8a8-sq", t) for t in ("nvidia-sm100", "nvidia-sm120", *below_blackwell)]
    # a cell that runs names the step it meets (it has no failure reason to name it): what it tests and where it was
    # read, not the account of how it fails elsewhere
    said = explain_text(real_atlas, "tensorrt-llm-nvfp4", "nvidia-sm120")[0]
    # (the locator's lines and branch may be added to; what the step tests, where it was read, and the commit stay)
    assert re.search(r"\n     tensorrt-llm-cutlass-fp4-gemm meets a step marked inferred: compute capability 10\.0, "
                     r"10\.3, 12\.0 or 12\.1, read in tensorrt-llm-src-fp4-gemm-template-0249976, CutlassFp4GemmRunner"
                     r"<T, fp4GemmType>::dispatchToArch[^\n]*, not in TensorRT-LLM at commit 00bbf71\n", said), said
    assert "Arch unsupported for CUTLASS FP4" not in said


def test_explain_leads_with_the_kernel_a_default_install_selects(real_atlas):
    # a cell's kernel is the engine's first choice given an opt-in (a package a default install leaves out, a setting it
    # leaves unset); where a default install selects another, the header names that one first and the cell's as the
    # opt-in's, never "RUNS via" the kernel a default install does not run
    from generators.derive.default_lead import default_lead
    leads = {key: default_lead(cell) for key, cell in real_atlas.views.cells.items() if default_lead(cell)}
    assert leads and {real_atlas.views.cells[key].verdict for key in leads} == {Verdict.RUNS, Verdict.RUNS_IF}
    for (scheme, target), lead in leads.items():
        header = explain_text(real_atlas, scheme, target)[0].splitlines()[0]
        assert f" via {lead.default} on a default install" in header and f"; {lead.opted} with " in header
        assert f" via {lead.opted} " not in header
    # conch-triton-kernels is no requirement of a CUDA wheel: a default install runs Humming
    header = explain_text(real_atlas, "vllm-ct-wna16-8-asym", "nvidia-sm120")[0].splitlines()[0]
    assert header.startswith("vllm-ct-wna16-8-asym on nvidia-sm120: RUNS via vllm-humming on a default install; "
                             "vllm-conch with package conch-triton-kernels installed (")
    # a runs-if verdict is the opt-in kernel's: what a default install gets from its own is said with it
    header = explain_text(real_atlas, "vllm-ct-w8a8-int8", "nvidia-sm100")[0].splitlines()[0]
    assert " via vllm-cutlass-int8-scaled-mm on a default install, which fails at run time; " in header
    header = explain_text(real_atlas, "vllm-ct-w8a8-fp8", "intel-gpu")[0].splitlines()[0]
    assert " via vllm-xpu-w8a16-fp8 on a default install, which falls back to another precision; " in header


def test_a_default_kernel_that_itself_runs_only_if_says_what_it_needs(real_atlas):
    # a runs-if cell whose default install reaches a kernel that is runs-if too (DeepGEMM, which needs a CUDA 12.9+
    # toolkit it does not check for when it is selected): "RUNS IF via DeepGEMM on a default install (where
    # VLLM_USE_DEEP_GEMM=1 (default 1)...)" read as "runs on a default install"; the condition is now said with it
    from generators.derive.default_lead import default_lead
    toolkit = "the host has a CUDA toolkit where DeepGEMM looks for it"
    for scheme, target, default in (("vllm-fp8-block", "nvidia-sm90", "vllm-deepgemm-fp8-block-scaled-mm"),
                                    ("vllm-fp8-block-moe", "nvidia-sm100", "vllm-deepgemm-fp8-moe")):
        lead = default_lead(real_atlas.views.cells[(scheme, target)])
        assert lead is not None and lead.outcome is Verdict.RUNS_IF and lead.needs and lead.needs[0].startswith(toolkit)
        header = explain_text(real_atlas, scheme, target)[0].splitlines()[0]
        assert header.startswith(f"{scheme} on {target}: RUNS IF via {default} on a default install (where ")
        assert f", which runs only if {toolkit}" in header.split(f"; {lead.opted} with ")[0]
    # a default kernel that runs as specified needs nothing said (the 32 runs cells)
    leads = [default_lead(c) for c in real_atlas.views.cells.values() if c.verdict is Verdict.RUNS]
    assert [x for x in leads if x] and not [x for x in leads if x and x.needs]


def test_tensorrt_llm_w4a16_awq_fails_on_turing_since_no_build_carries_7x_code(real_atlas):
    """trt48: the CUTLASS fpA_intB source has Turing kernels, and the SM 7.5 answer ran 'if the installed TensorRT-LLM
    carries them'. No build can: TensorRT-LLM's CMake (cuda_configuration.cmake at 1b84604) compiles no PTX and stops
    with 'Unsupported CUDA architecture' for 7.x, and NVIDIA's CI builds the wheels for 8.0 (x86_64) and 9.0 (aarch64)
    and newer. So the answer fails at run time on every host, inferred (no wheel read), and needs no aarch64 trap:
    none of TensorRT-LLM's SM 7.5 answers loads and runs on any host."""
    cells = real_atlas.views.cells
    turing = cells[("tensorrt-llm-w4a16-awq", "nvidia-sm75")]
    assert (turing.verdict, turing.known_by, turing.conditions) == (Verdict.FAILS_AT_RUNTIME, "inferred", ())
    text = explain_text(real_atlas, "tensorrt-llm-w4a16-awq", "nvidia-sm75")[0]
    assert "'Unsupported CUDA architecture: 75.'" in text and "Build.groovy at 0127950" in text
    assert cells[("tensorrt-llm-w4a16-awq", "nvidia-sm80")].verdict is Verdict.RUNS
    sm75 = {s: c.verdict for (s, t), c in cells.items() if t == "nvidia-sm75" and c.engine == "tensorrt-llm"}
    assert sm75 and not any(v.runs_as_specified or v is Verdict.FALLBACK for v in sm75.values()), sm75


def test_vllm_gguf_on_an_arm_cpu_needs_a_triton_the_install_does_not_bring(real_atlas):
    """vllm-gguf-plugin 0.0.5 imports triton at module level (ops.py lines 7-31 to triton/gemm/utils.py line 2), so
    without one vLLM logs "Failed to load plugin gguf" and knows no gguf method. vLLM 0.33.0's CPU requirements bring
    triton-cpu on x86_64 only (requirements/cpu.txt lines 24-26): on x86 the plugin loads and its Triton GEMM refuses
    CPU tensors; on Arm a triton installed by hand is a condition, and without it the answer is the refusal
    (finding arm48-audit-2026-12-05)."""
    cells = real_atlas.views.cells
    arm_triton = "the triton package installed by hand"
    for scheme, kernel in (("vllm-gguf-q4-k", "vllm-gguf-triton"), ("vllm-gguf-mxfp4", "vllm-gguf-moe")):
        arm = cells[(scheme, "arm-cpu")]
        assert (arm.verdict, arm.kernel) == ("fails-at-runtime", kernel)
        assert [c for c in arm.conditions if c.startswith(arm_triton)], arm.conditions
        assert [(s.verdict, any(u.startswith(arm_triton) for u in s.unmet)) for s in arm.otherwise] == [("refused", True)]
        for target in ("x86-cpu-avx2", "x86-cpu-avx512", "x86-cpu-avx512-amx"):
            x86 = cells[(scheme, target)]
            assert (x86.verdict, x86.kernel) == ("fails-at-runtime", kernel)
            assert not [c for c in x86.conditions if c.startswith(arm_triton)]
            assert [a for a in x86.assumes if "triton-cpu 3.8.0" in str(a)], (target, x86.assumes)


def test_vllm_gguf_on_rocm_and_xpu_loads_because_the_plugins_registration_adds_gguf_to_the_platforms_list(real_atlas):
    """vLLM 0.33.0's register_quantization_config appends a method it did not know to the current platform's
    supported_quantization (quantization/__init__.py lines 96-100), so once vllm-gguf-plugin registers gguf, ROCm's and
    XPU's verify_quantization passes. The PyPI wheel's _C_gguf is a CUDA build, so the Triton path serves: ROCm tensors
    count as CUDA tensors, XPU ones are refused at the first forward pass. The ternary types are still refused after
    load, and the config.json trap is listed on the answers that load (finding rocm49-audit-2026-12-05)."""
    cells, answers = real_atlas.views.cells, real_atlas.views.answers
    trap = "vllm-gguf-needs-original-config-json"
    for target in ("amd-gfx90a", "amd-gfx942", "amd-gfx950", "amd-gfx1151"):
        rocm = cells[("vllm-gguf-q4-k", target)]
        assert (rocm.verdict, rocm.kernel) == ("runs-if", "vllm-gguf-triton"), target
        assert trap in answers[("vllm-gguf-q4-k", target)].traps
    xpu = cells[("vllm-gguf-q4-k", "intel-gpu")]
    assert (xpu.verdict, xpu.kernel) == ("fails-at-runtime", "vllm-gguf-triton")
    assert trap in answers[("vllm-gguf-q4-k", "intel-gpu")].traps
    assert cells[("vllm-gguf-mxfp4", "intel-gpu")].verdict == "fails-at-runtime"
    for target in ("amd-gfx942", "intel-gpu"):
        ternary = cells[("vllm-gguf-tq1-0", target)]
        assert ternary.verdict == "refused" and ternary.failure_message.startswith("Unsupported GGUF quantization type 34")
        assert "vllm-gguf-ternary-refused-after-load" in answers[("vllm-gguf-tq1-0", target)].traps
    assert not [c for (s, t), c in cells.items() if s.startswith("vllm-gguf") and "not supported in" in c.failure_message]


def test_vllm_gguf_iq_expert_layers_on_cuda_name_the_mmvq_moe_launchs_65535_pair_bound(real_atlas):
    """vllm-gguf-plugin 0.0.5's ggml_moe_a8_vec puts every routed (token, expert) pair on the grid's z axis
    (csrc/gguf/moe_vec.cuh, block_nums(block_num_y, 1, tokens * top_k)), which CUDA caps at 65535; _fused_moe_gguf sends
    IQ expert weights there at any token count, standard and K ones only at 64 tokens or fewer. So an IQ expert cell on
    SM 7.5 to 12.0 is runs-if on that bound too, failing at run time past it, while its dense cell and a K expert cell
    on MMQ do not name it (finding moe49s-second-reading-2026-12-05)."""
    cells = real_atlas.views.cells
    bound = "at most 65535 routed token-expert pairs"
    for target in ("nvidia-sm75", "nvidia-sm90", "nvidia-sm120"):
        iq = cells[("vllm-gguf-iq4-xs-moe", target)]
        assert (iq.verdict, iq.kernel) == ("runs-if", "vllm-gguf-mmvq"), target
        assert [c for c in iq.conditions if c.startswith(bound)], iq.conditions
        past = [s for s in iq.otherwise if any(u.startswith(bound) for u in s.unmet)]
        assert [(s.verdict, s.selected) for s in past] == [("fails-at-runtime", "vllm-gguf-mmvq")], past
        assert not [c for c in cells[("vllm-gguf-iq4-xs", target)].conditions if c.startswith(bound)]
        k = cells[("vllm-gguf-q4-k-moe", target)]
        assert (k.verdict, k.kernel) == ("runs-if", "vllm-gguf-mmq") and not [c for c in k.conditions if c.startswith(bound)]
        # A K type reaches MMVQ with at most 64 tokens, so the bound is no step of its walk either (audit55).
        assert not [s for s in k.otherwise if any(u.startswith(bound) for u in s.unmet)], k.otherwise
        assert not [s for s in k.otherwise if any(c.startswith(bound) for c in s.conditions)], k.otherwise
    v100 = cells[("vllm-gguf-iq4-xs-moe", "nvidia-sm70")]
    assert v100.kernel == "vllm-gguf-triton" and not [c for c in v100.conditions if c.startswith(bound)]


def test_vllm_gguf_off_cuda_fails_first_in_a_quantized_token_embedding_then_in_each_types_own_test(real_atlas):
    """vllm-gguf-plugin 0.0.5's GGUFEmbeddingMethod dequantizes a quantized token embedding's looked-up rows through
    ggml_dequantize at every call (quantization/vocal_embeds.py lines 26-43 and 133-141), and the embedding runs before
    any linear layer in the start-up profiling run, so off CUDA a file whose token embedding is quantized (llama.cpp's
    quantize stores it in a K, legacy or IQ type) stops in the dequantize kernel's test first, whatever the layers'
    type (finding embd49-audit-2026-12-05). With an F16, BF16 or F32 token embedding (vLLM's own embedding), a Q4_0
    layer stops in ggml_gemm_q4_0_triton's test, "Q4_0 Triton kernel requires CUDA tensors" (triton/gemm/standard_quant/
    q4_0.py lines 102-103), the other standard and K types in _validate_args' "Triton kernels require CUDA tensors"
    (triton/gemm/utils.py lines 230-231; second reading rocm49s-second-reading-2026-12-05). An IQ type takes the GEMM
    only up to mmvq_safe tokens and is dequantized above it (quantization/linear.py lines 37-53), and the first forward
    pass is the start-up profiling run, so it stops in the dequantize kernel's test either way (audit55)."""
    cells = real_atlas.views.cells
    dequant = "Triton dequant kernels require CUDA tensors"

    def runtime_reason(scheme, target):
        cell = cells[(scheme, target)]
        assert (cell.verdict, cell.kernel) == ("fails-at-runtime", "vllm-gguf-triton"), (scheme, target)
        return next(a.reason for a in cell.attempts if a.kernel == "vllm-gguf-triton" and a.after_selection)

    linear = {"q4-0": "Q4_0 Triton kernel requires CUDA tensors",
              **{t: "Triton kernels require CUDA tensors"
                 for t in ("q4-1", "q5-0", "q5-1", "q8-0", "q2-k", "q3-k", "q4-k", "q5-k", "q6-k")}}
    for target in ("intel-gpu", "x86-cpu-avx2", "x86-cpu-avx512", "x86-cpu-avx512-amx"):
        for weight_type, message in linear.items():
            reason = runtime_reason(f"vllm-gguf-{weight_type}", target)
            quantized, _, unquantized = reason.partition("with an F16, BF16 or F32 token embedding")
            assert unquantized, reason  # the unquantized embedding is the exception, named after the common case
            assert f'"{dequant}"' in quantized and "token embedding is quantized" in quantized, reason
            assert f'"{message}"' not in quantized and f'"{message}"' in unquantized, reason
        assert runtime_reason("vllm-gguf-iq2-xs", target) == dequant
