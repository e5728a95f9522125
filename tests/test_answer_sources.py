"""What a support answer cites: every kernel on its route, the rule a condition rests on, and only its platform's files;
and how a trap that bites only with some models or settings says so."""
from __future__ import annotations

import json

from generators.build import check_tree
from generators.derive.trap_scope import applies_when

from .test_checks import edit


def _source(tree, name: str) -> None:
    text = (tree / "records/sources/src-doc.yaml").read_text().replace("name:", f"name: {name} of", 1)
    (tree / f"records/sources/{name}.yaml").write_text(text)


def _answers(tree):
    atlas, problems = check_tree(tree)
    assert problems == []
    return atlas.views.answers


def test_an_answer_cites_the_kernels_it_tried_before_the_one_it_selects(tree):
    """On SM 8.0 the Hopper kernel declines first (capability 90 only): its reason is part of the answer, so are its
    sources; on the CPU it is never tried."""
    _source(tree, "src-hopper")
    edit(tree, "records/kernels/k-hopper.yaml", "sources:\n  - source: src-code\n",
         "sources:\n  - source: src-code\n  - source: src-hopper\n")
    answers = _answers(tree)
    assert answers[("sch-w4a16", "gpu-sm80")].cell.kernel == "k-generic"
    assert "src-hopper" in answers[("sch-w4a16", "gpu-sm80")].sources
    assert "src-hopper" not in answers[("sch-w4a16", "cpu-avx512")].sources


def test_a_citation_naming_platforms_backs_answers_on_those_platforms_only(tree):
    """A scheme's own citation of one backend's file, and a kernel's, name `platforms`: an answer on another platform
    leaves them out, whichever record cites them."""
    _source(tree, "src-cpu-file")
    _source(tree, "src-rocm-file")
    edit(tree, "records/schemes/sch-w4a16.yaml", "sources:\n  - source: src-code\n",
         "sources:\n  - source: src-code\n  - source: src-cpu-file\n    platforms: [cpu]\n")
    edit(tree, "records/kernels/k-generic.yaml", "sources:\n  - source: src-code\n",
         "sources:\n  - source: src-code\n  - source: src-rocm-file\n    platforms: [rocm, cpu]\n")
    answers = _answers(tree)
    gpu, cpu = answers[("sch-w4a16", "gpu-sm80")].sources, answers[("sch-w4a16", "cpu-avx512")].sources
    assert "src-cpu-file" in cpu and "src-cpu-file" not in gpu
    assert "src-rocm-file" not in gpu and "src-code" in gpu


def test_a_runtime_check_a_requirement_uses_on_some_platforms_backs_answers_on_those_only(tree):
    """A placement stated once on the engine and used by requirements scoped to CUDA (in the GPU kernel and in the CPU
    one): its source backs the GPU answer and not the CPU one, where the requirement does not apply."""
    _source(tree, "src-placement")
    edit(tree, "records/engines/eng.yaml", "sources:\n",
         "runtime_checks:\n  - {id: gpu-placement, check: other, value: device_map, condition: device_map names the "
         "GPU, source: src-placement, locator: check_and_set_device_map}\nsources:\n")
    edit(tree, "records/kernels/k-generic.yaml", "sources:\n  - source: src-code",
         "  - {uses: gpu-placement, when: {platform: [cuda]}, after_selection: true, reason: fails on CPU tensors,"
         " reason_verbatim: false}\nsources:\n  - source: src-code")
    edit(tree, "records/kernels/k-cpu.yaml", "reason_verbatim: true}\nroutes:",
         "reason_verbatim: true}\n  - {uses: gpu-placement, when: {platform: [cuda]}, after_selection: true, reason: "
         "fails on CPU tensors, reason_verbatim: false}\nroutes:")
    answers = _answers(tree)
    assert "device_map names the GPU" in answers[("sch-w4a16", "gpu-sm80")].cell.conditions
    assert "src-placement" in answers[("sch-w4a16", "gpu-sm80")].sources
    assert "src-placement" not in answers[("sch-w4a16", "cpu-avx512")].sources


def test_a_ptx_driver_condition_cites_the_toolkit_rule_and_a_step_its_kernel(real_atlas):
    """llama.cpp on SM 9.0 runs its CUDA assets' PTX, so its answers name a driver that supports the toolkit: they cite
    NVIDIA's rule and the error text (the install's toolkit_sources). On SM 8.6 the assets carry cubins: no rule, but the
    install's list still serves the target. MMQ, the step above MMVQ's batch bound, is cited by its own sources."""
    answers, cells = real_atlas.views.answers, real_atlas.views.cells
    rule = {"nvidia-cuda-compatibility-minor-version", "nvidia-cuda-python-driver-cu-result-explanations"}
    for target, from_ptx in [("nvidia-sm90", True), ("nvidia-sm80", True), ("nvidia-sm86", False)]:
        sources = answers[("llama-cpp-q4-k", target)].sources
        assert cells[("llama-cpp-q4-k", target)].verdict.loads
        assert rule <= set(sources) if from_ptx else not rule & set(sources), target
        assert "llama-cpp-src-cuda-cmakelists-b11312" in sources, target
        assert any(step.selected == "llama-cpp-mmq" for step in cells[("llama-cpp-q4-k", target)].otherwise)
        assert "llama-cpp-src-mmq-cuh-b11312" in sources, target  # cited by the MMQ kernel alone
    assert not rule & set(answers[("llama-cpp-q4-k", "x86-cpu-avx2")].sources)


def test_a_cpu_answer_lists_no_cuda_file(real_atlas):
    """bitsandbytes' 4-bit kernel record serves CUDA and the CPU; its CUDA backend files back the CUDA answers only.
    llama.cpp's MXFP4 scheme cites the CUDA and SYCL expert dispatch, which no CPU answer rests on."""
    answers = real_atlas.views.answers
    cuda_files = {"bitsandbytes-src-backends-cuda-ops-0-50-1", "bitsandbytes-src-csrc-gemm-4bit-0-50-1"}
    assert cuda_files <= set(answers[("transformers-bnb-nf4", "nvidia-sm86")].sources)
    assert not cuda_files & set(answers[("transformers-bnb-nf4", "x86-cpu-avx2")].sources)
    assert "bitsandbytes-src-backends-cpu-ops-0-50-1" in answers[("transformers-bnb-nf4", "x86-cpu-avx2")].sources
    ggml = {"llama-cpp-src-ggml-cuda-cu-b11312", "llama-cpp-src-mmvq-cu-b11312", "llama-cpp-src-ggml-sycl-cpp-b11312"}
    assert not ggml & set(answers[("llama-cpp-mxfp4", "x86-cpu-avx2")].sources)
    assert "llama-cpp-src-ggml-cuda-cu-b11312" in answers[("llama-cpp-mxfp4", "nvidia-sm86")].sources


def test_applies_when_says_the_models_and_settings_a_trap_needs():
    assert applies_when({}) == ""
    assert applies_when({"applies_when": {"layers": "experts"}}) == "with a MoE model"
    assert applies_when({"applies_when": {"env": ["A_B"]}}) == "if A_B is set"
    assert applies_when({"applies_when": {"layers": "experts", "env": ["A", "B"]}}) == "with a MoE model, if A or B is set"


def test_applies_when_names_the_host_first():
    # no target models the host, so a trap that bites only behind an Arm host must say so before anything else
    assert applies_when({"applies_when": {"host": "aarch64"}}) == "on an Arm (aarch64) host"
    assert applies_when({"applies_when": {"env": ["A"], "host": "aarch64"}}) == "on an Arm (aarch64) host, if A is set"


def test_the_index_document_says_a_trap_bites_on_an_arm_host(tree):
    from generators.render.api import index_document

    edit(tree, "records/gotchas/trap-silent.yaml", "severity:", "applies_when:\n  host: aarch64\nseverity:")
    atlas, problems = check_tree(tree)
    assert problems == []
    briefs = {g["id"]: g for g in json.loads(json.dumps(index_document(atlas)))["records"]["gotcha"]}
    assert briefs["trap-silent"]["applies_when"] == "on an Arm (aarch64) host"


def test_the_index_document_carries_when_a_trap_applies(tree):
    from generators.render.api import index_document

    edit(tree, "records/gotchas/trap-silent.yaml", "severity:", "applies_when:\n  env: [ENG_FAST]\nseverity:")
    atlas, problems = check_tree(tree)
    assert problems == []
    briefs = {g["id"]: g for g in json.loads(json.dumps(index_document(atlas)))["records"]["gotcha"]}
    assert briefs["trap-silent"]["applies_when"] == "if ENG_FAST is set"
    assert briefs["trap-loud"]["applies_when"] == ""


def test_a_kernel_of_another_platform_alone_backs_no_refusal_here(real_atlas):
    """MLX has no AMD GPU backend: its answer there tries the Metal, CUDA and CPU kernels, each declined by its platform
    requirement (a paraphrase), and rests on the candidate list's reading of MLX's device code, not on those kernels'
    files. A kernel whose platform refusal is the engine's own message (FBGEMM FP8 on a CPU) keeps its sources."""
    answers = real_atlas.views.answers
    amd = set(answers[("mlx-lm-mxfp8", "amd-gfx942")].sources)
    assert "mlx-src-device-cpp-846d176" in amd
    assert not {"mlx-src-cuda-qmm-cu-846d176", "mlx-src-metal-quantized-cpp-846d176"} & amd
    assert "mlx-src-cuda-qmm-cu-846d176" in answers[("mlx-lm-mxfp8", "nvidia-sm90")].sources
    fbgemm = real_atlas.index.get("kernel", "transformers-fbgemm-fp8-linear")
    assert {c["source"] for c in fbgemm.data["sources"]} & set(answers[("transformers-fbgemm-fp8", "x86-cpu-avx2")].sources)


def test_an_answer_folds_the_sources_of_the_kernels_it_passes_over_by_kernel(real_atlas):
    """vLLM's FP8 block scheme on SM 9.0 computes with FlashInfer and DeepGEMM (a default install: DeepGEMM); the
    CUTLASS, B12x, Humming, Marlin and Triton kernels it passes over have their own files folded under them, each once,
    and a file the scheme or the computing kernels cite as well (fp8_utils.py) stays with the verdict."""
    answer = real_atlas.views.answers[("vllm-fp8-block", "nvidia-sm90")]
    passed = dict(answer.passed_over)
    folded = [s for ids in passed.values() for s in ids]
    assert answer.cell.kernel not in passed and answer.cell.default_kernel not in passed
    assert "vllm-src-smm-cutlass" in passed["vllm-cutlass-fp8-block-scaled-mm"]
    assert len(folded) == len(set(folded)) and set(folded) < set(answer.sources)
    assert "vllm-src-smm-deep-gemm" not in folded and "vllm-src-fp8-utils" not in folded
    assert not dict(real_atlas.views.answers[("transformers-bnb-nf4", "x86-cpu-avx512-amx")].passed_over)


def test_the_kernels_declined_before_a_refusal_or_a_fallback_keep_their_sources_with_the_verdict(real_atlas):
    """Their reasons are the verdict's: on an AVX512 CPU without AMX both CPU kernels decline and the scheme is refused,
    so nothing folds; on SM 8.6 FlashInfer, DeepGEMM, CUTLASS and B12x decline before the weight-only Marlin fallback,
    and only Humming and Triton, reached when Marlin's condition fails, fold. On SM 8.9, where the cell runs only given
    --linear-backend triton, what a default install selects (Marlin) rests on the same declines, which stay cited."""
    answers = real_atlas.views.answers
    assert answers[("vllm-fp8-block", "x86-cpu-avx512")].cell.verdict.value == "refused"
    assert answers[("vllm-fp8-block", "x86-cpu-avx512")].passed_over == ()
    fallback = answers[("vllm-fp8-block", "nvidia-sm86")]
    assert [k for k, _ in fallback.passed_over] == ["vllm-humming-fp8-scaled-mm", "vllm-triton-fp8-block-scaled-mm"]
    assert "vllm-src-smm-cutlass" in fallback.sources
    given = answers[("vllm-fp8-block", "nvidia-sm89")]
    assert (given.cell.verdict.value, given.cell.default_kernel) == ("runs-if", "vllm-marlin-fp8-scaled-mm")
    assert "vllm-src-smm-cutlass" in given.sources


def test_a_published_claim_cites_the_copy_of_the_table_it_is_read_from_not_every_release(real_atlas):
    """vLLM's quantization table is kept over fourteen releases, each copy a source of its page; an answer the table
    rates cites the copy its claim is read from (published_in) and the finding that explains a disagreement, not
    every release's copy."""
    answers, index = real_atlas.views.answers, real_atlas.index
    table = index.get("support-matrix", "vllm-quantization-hardware-table").data
    answer = answers[("vllm-gptq-marlin", "amd-gfx90a")]
    assert [p.matrix for p in answer.published] == ["vllm-quantization-hardware-table"]
    scoping = {c["source"] for c in table["sources"] if c.get("platforms") == ["rocm"]}
    other = {c["source"] for c in table["sources"]} - {table["published_in"]["source"]} - scoping
    assert len(other) > 10
    assert table["published_in"]["source"] in answer.sources and not other & set(answer.sources)
    # which gfx ids the AMD GPU column covers rests on the ROCm install page's GPU list: an AMD answer keeps it, an
    # answer on another platform (the x86 CPU column) does not
    assert "vllm-docs-install-gpu-rocm-0-33-0" in scoping and scoping <= set(answer.sources)
    cpu = answers[("vllm-gptq-marlin", "x86-cpu-avx512")]
    assert [p.matrix for p in cpu.published] == ["vllm-quantization-hardware-table"]
    assert table["published_in"]["source"] in cpu.sources and not scoping & set(cpu.sources)
    finding = index.get("finding", answer.published[0].finding).data
    assert {s["source"] for s in finding["sources"]} <= set(answer.sources)


def test_an_answers_sources_are_grouped_by_the_record_field_that_cites_each(real_atlas):
    """The card listed an answer's sources flat, so a reader could not tell which backs which sentence. Each group
    now comes from the field that cites it: the scheme's and its list's (the selection), each kernel's, each condition's
    default-install facts, each trap's own; no source of the answer is left to `other`, on any answer."""
    index = real_atlas.index
    answers = real_atlas.views.answers
    answer = answers[("vllm-ct-w4a4-nvfp4", "nvidia-sm120")]
    groups = {(g.backs, g.subject): g.sources for g in answer.source_groups}
    scheme = index.must("scheme", "vllm-ct-w4a4-nvfp4")
    own = list(dict.fromkeys(c["source"] for c in scheme.data["sources"]))
    assert list(groups[("selection", "")])[:len(own)] == own
    kernel = index.must("kernel", answer.cell.kernel)
    assert set(groups[("kernel", answer.cell.kernel)]) == {c["source"] for c in kernel.data["sources"]}
    facts = {f["fact"]: f["source"] for i in index.must("engine", "vllm").data["default_install"]
             for f in [*i.get("provides", []), *i.get("lacks", [])]}
    stated = [a for a in (*answer.cell.assumes, *answer.cell.opt_in) if a.facts]
    assert len(stated) >= 3
    for assumed in stated:
        assert {facts[f] for f in assumed.facts} <= set(groups[("condition", assumed.condition)])
    for trap in answer.traps:
        assert groups[("trap", trap)] == tuple(dict.fromkeys(c["source"] for c in index.must("gotcha", trap).data["sources"]))
    passed = {k for k, _ in answer.passed_over}
    assert passed <= {subject for backs, subject in groups if backs == "passed-over"}
    assert all(g.backs != "other" for a in answers.values() for g in a.source_groups)
    for a in answers.values():
        assert set(a.sources) <= {s for g in a.source_groups if g.backs != "trap" for s in g.sources}


def test_a_fallback_says_its_precision_short_from_typed_fields(real_atlas):
    """The compare table showed a fallback's whole computes note (Marlin MoE's mentions the FP8 oracle on an NVFP4 row).
    The short form is read from the requirement's check and the kernel's handling: Marlin MoE's weight-only check gives
    the activation dtypes; a check that does not say how (Humming's capability bound) gives what the requirement's
    typed `computes` says, the way, with the activation dtypes where it states no precision."""
    answers = real_atlas.views.answers
    marlin = answers[("vllm-ct-w4a4-nvfp4-moe", "nvidia-sm80")]
    assert marlin.cell.kernel == "vllm-marlin-moe" and "FP8 oracle" in marlin.cell.computes_as
    assert marlin.computes_short is not None and marlin.computes_short.way == "weight-only"
    assert set(marlin.computes_short.precisions) == {"FP16", "BF16"}
    stated = answers[("vllm-gaudi-ct-w8a16-int8", "intel-gaudi")] if ("vllm-gaudi-ct-w8a16-int8", "intel-gaudi") in answers \
        else next(a for a in answers.values() if a.cell.kernel == "vllm-gaudi-ct-int8-bf16-linear")
    assert stated.computes_short is not None and stated.computes_short.precisions == ("BF16",)
    humming = [a for a in answers.values() if a.cell.kernel == "vllm-humming-nvfp4" and a.cell.computes_as]
    assert humming and all(a.computes_short is not None and a.computes_short.way == "weight-only" and
                           set(a.computes_short.precisions) == {"FP16", "BF16"} for a in humming)
    assert all(a.computes_short is None for a in answers.values() if not a.cell.computes_as)


def _stated(cell) -> set[str]:
    """The conditions an answer states: its own, each step's, and what the default install meets or lacks."""
    return {*cell.conditions, *(c for step in cell.otherwise for c in step.conditions),
            *(a.condition for a in (*cell.assumes, *cell.opt_in))}


def test_a_source_group_of_a_condition_is_one_the_answer_states_and_the_card_loses_no_source(real_atlas):
    """The card says "The condition «...»" over a group: that must be one of the answer's conditions, not a runtime
    check of a kernel declined before the one that runs (FlashInfer usable, on an SM 8.0 NVFP4 MoE fallback), whose
    source then backs that kernel. Every source of the flat list is on the card: in a group it shows (all but the
    passed-over kernels') or in the passed-over kernels' list."""
    stray, lost = [], []
    for key, answer in real_atlas.views.answers.items():
        stated = _stated(answer.cell)
        stray += [(key, g.subject) for g in answer.source_groups
                  if g.backs == "condition" and not any(g.subject in said for said in stated)]
        shown = {s for g in answer.source_groups if g.backs != "passed-over" for s in g.sources}
        shown |= {s for _, found in answer.passed_over for s in found}
        lost += [(key, s) for s in answer.sources if s not in shown]
    assert stray == [], stray[:5]
    assert lost == [], lost[:5]
