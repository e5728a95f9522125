"""A fallback's short "Computes in" (the comparison's cell, api `computes_short`) says no precision its full note
(`computes_as`) does not say, and none the target cannot load the model in."""
from __future__ import annotations

import re

from generators.derive.route_computes import PRECISION_OF, precision_label

# how a full note names each precision a short form may give ("the model dtype" and "16-bit" name the dtypes the
# target loads the model in, checked against its model_dtypes below)
_SAID = {"FP16": r"float16|\bFP16\b|\bfp16\b", "BF16": r"bfloat16|\bBF16\b|\bbf16\b", "FP32": r"float32|\bFP32\b",
         "FP8 E4M3": r"FP8 E4M3", "INT8": r"\bint8\b|\bINT8\b"}
_ANY_MODEL_DTYPE = {"FP16": r"model dtype|16-bit", "BF16": r"model dtype|16-bit"}


def test_a_short_form_claims_no_precision_the_full_note_or_the_target_does_not(real_atlas):
    cells, answers, index = real_atlas.views.cells, real_atlas.views.answers, real_atlas.index
    wrong, shortened = [], 0
    for key, answer in answers.items():
        short, cell = answer.computes_short, cells[key]
        if short is None:
            continue
        shortened += 1
        target = index.get("hardware-target", cell.target)
        # a target's model_dtypes are its dtypes_engine's rule (vLLM's), no other engine's
        ruled = target is not None and target.data.get("dtypes_engine") == cell.engine
        loads = {precision_label(PRECISION_OF[d]) for d in target.data.get("model_dtypes", [])} if ruled else set()
        for label in short.precisions:
            said = re.search(_SAID.get(label, re.escape(label)), cell.computes_as)
            by_dtype = re.search(_ANY_MODEL_DTYPE.get(label, r"(?!)"), cell.computes_as)
            if not (said or by_dtype) or (label in _ANY_MODEL_DTYPE and loads and label not in loads):
                wrong.append((key, label, cell.computes_as[:90]))
    assert shortened > 50  # the records give most fallbacks a short form: this test reads them
    assert wrong == [], "\n".join(map(str, wrong))


def test_a_requirement_states_typed_how_its_kernel_computes_where_its_check_does_not(real_atlas):
    """14 fallbacks (Humming below capability 120, the Gaudi FP8 block requantization, ExLlamaV3's int8 GEMV, the OCP MX
    emulation on gfx906) said their precision in prose only: their requirement's check (a capability bound, a scale
    kind) says nothing of it. Such a requirement states it typed (`computes`), and every fallback cell has a short form;
    the kernel's own fields give what the type leaves out (ExLlamaV3's int8 is stated; the Gaudi FP8 kernels' precision
    is their hardware format)."""
    cells, answers, index = real_atlas.views.cells, real_atlas.views.answers, real_atlas.index
    fallbacks = [k for k, c in cells.items() if c.verdict.value == "fallback"]
    assert len(fallbacks) > 50 and [k for k in fallbacks if answers[k].computes_short is None] == []
    stated = {(c.kernel, a.computes_stated) for c in cells.values() for a in c.attempts
              if a.kernel == c.kernel and a.computes_stated and c.verdict.value == "fallback"}
    for kernel, (way, precision, _) in stated:
        requirement = next(r for r in index.must("kernel", kernel).data["requirements"]
                           if r.get("computes", {}).get("way") == way and r.get("computes", {}).get("precision", "") == precision)
        assert requirement.get("declines") is False and requirement["locator"]
    assert {k for k, _ in stated} >= {"exllamav3-exl3-gemv-int8", "vllm-humming-mxfp4", "vllm-gaudi-hpu-fp8-requant"}


def test_a_kernel_that_makes_int8_weights_bf16_at_load_says_so_short(real_atlas):
    """vLLM-Gaudi's INT8 W8A8 layer multiplies the INT8 weights by their scales once at load and keeps them as BF16
    (v0.26.0 hpu_compressed_tensors.py lines 358-366): its short form said "weight-only" (weights kept quantized, the
    activations not), as Marlin's does, where the weights are dequantized, stored at 16 bits, as the gpt-oss BF16
    experts' are."""
    kernel = "vllm-gaudi-ct-int8-bf16-linear"
    shorts = {a.computes_short for a in real_atlas.views.answers.values() if a.cell.kernel == kernel}
    assert shorts and all(s is not None and s.way == "dequantized" for s in shorts)
    assert {p for s in shorts if s for p in s.precisions} == {
        precision_label(real_atlas.index.must("kernel", kernel).data["computes_in"]["precision"])}
