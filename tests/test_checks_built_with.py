"""A need shared by every kernel built with one tool (Triton's host C compiler) is stated once, on the tool's engine
record (`first_use_needs`), and reaches every answer whose route passes through a kernel, or an engine, that names the
tool in `built_with` (derive/route_needs.py; the rule on the reference: checks/built_with.py)."""
from __future__ import annotations

from generators.build import check_tree

from .test_checks import edit, problems_of

TOOL = """name: Example compiler
summary: Compiles kernels at first call.
category: compiler
first_use_needs:
  - when: {platform: [cuda]}
    needs: a host C compiler the first time a kernel runs
    description: the driver builds its launcher from C source
    source: src-code
    locator: build.py
sources:
  - source: src-code
"""
KERNEL = "records/kernels/k-generic.yaml"
USES = "built_with:\n  - {tool: jit, source: src-code, locator: GenericKernel.apply}\n"
NEED = "a host C compiler the first time a kernel runs"


def with_tool(tree):
    (tree / "records" / "engines" / "jit.yaml").write_text(TOOL)
    return tree


def needs_by_target(tree):
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    return {target: [(n.kernel, n.engine, n.tool, n.said) for n in answer.needs]
            for (scheme, target), answer in sorted(atlas.views.answers.items())}


def test_a_kernel_built_with_a_tool_brings_its_need_to_every_answer_through_it(tree):
    with_tool(tree)
    edit(tree, KERNEL, "sources:\n  - source: src-code", USES + "sources:\n  - source: src-code")
    # the generic kernel serves SM80 (the Hopper kernel serves SM90); the CPU answer runs another kernel, and the tool
    # states no CPU need
    found = needs_by_target(tree)
    assert found["gpu-sm80"] == [("k-generic", "", "jit", NEED)]
    assert found["gpu-sm90"] == found["cpu-avx512"] == []


def test_removing_the_reference_removes_the_need(tree):
    with_tool(tree)
    edit(tree, KERNEL, "sources:\n  - source: src-code", USES + "sources:\n  - source: src-code")
    assert needs_by_target(tree)["gpu-sm80"] == [("k-generic", "", "jit", NEED)]
    edit(tree, KERNEL, USES, "")
    assert all(needs == [] for needs in needs_by_target(tree).values())


def test_an_engine_built_with_a_tool_brings_its_need_once_to_every_answer_that_runs(tree):
    with_tool(tree)
    edit(tree, KERNEL, "sources:\n  - source: src-code", USES + "sources:\n  - source: src-code")
    edit(tree, "records/engines/eng.yaml", "sources:\n  - source: src-doc",
         "built_with:\n  - {tool: jit, when: {platform: [cuda]}, source: src-code, locator: runner.py}\n"
         "sources:\n  - source: src-doc")
    found = needs_by_target(tree)
    # said once, by the engine, although the kernel is built with the same tool
    assert found["gpu-sm80"] == [("", "eng", "jit", NEED)]
    assert found["cpu-avx512"] == []


def test_a_reference_scoped_to_a_platform_brings_the_need_there_only(tree):
    """An AWQ kernel that takes its Triton route on ROCm only: the tool's CUDA need does not reach its CUDA answers."""
    (tree / "records" / "engines" / "jit.yaml").write_text(TOOL.replace("platform: [cuda]", "platform: [cuda, rocm]"))
    scoped = "built_with:\n  - {tool: jit, when: {platform: [rocm]}, source: src-code, locator: GenericKernel.apply}\n"
    edit(tree, KERNEL, "sources:\n  - source: src-code", scoped + "sources:\n  - source: src-code")
    assert problems_of(tree, "built-with") == []
    assert all(needs == [] for needs in needs_by_target(tree).values())
    edit(tree, KERNEL, "platform: [rocm]", "platform: [cuda, rocm]")
    assert needs_by_target(tree)["gpu-sm80"] == [("k-generic", "", "jit", NEED)]


def test_a_kernel_that_names_an_unknown_tool_is_an_error_with_its_place(tree):
    edit(tree, KERNEL, "sources:\n  - source: src-code", USES + "sources:\n  - source: src-code")
    assert problems_of(tree, "refs") == [
        "records/kernels/k-generic.yaml:10:12: error: [refs] built_with[0].tool: 'jit' is not an engine id"]
    with_tool(tree)
    assert problems_of(tree, "refs") == []
    edit(tree, KERNEL, "tool: jit", "tool: jti")
    assert problems_of(tree, "refs") == [
        "records/kernels/k-generic.yaml:10:12: error: [refs] built_with[0].tool: 'jti' is not an engine id "
        "(did you mean 'jit'?)"]


def test_a_tool_must_state_what_its_first_use_needs(tree):
    edit(tree, KERNEL, "sources:\n  - source: src-code",
         "built_with:\n  - {tool: eng, source: src-code, locator: GenericKernel.apply}\nsources:\n  - source: src-code")
    assert problems_of(tree, "built-with") == [
        "records/kernels/k-generic.yaml:10:12: error: [built-with] built_with[0].tool: engine 'eng' states no "
        "`first_use_needs`, so naming it here adds nothing to any answer (state what its first use needs on its "
        "record, or say in `notes` that the code uses it)"]


def test_a_reference_scoped_to_platforms_the_tool_states_no_need_for_is_an_error(tree):
    with_tool(tree)
    edit(tree, KERNEL, "sources:\n  - source: src-code",
         "built_with:\n  - {tool: jit, when: {platform: [cpu]}, source: src-code, locator: GenericKernel.apply}\n"
         "sources:\n  - source: src-code")
    assert problems_of(tree, "built-with") == [
        "records/kernels/k-generic.yaml:10:34: error: [built-with] built_with[0].when.platform: engine 'jit' states "
        "`first_use_needs` for cuda only, and this entry allows cpu: it adds nothing to any answer (name a platform "
        "its needs cover, or remove the entry)"]
    edit(tree, KERNEL, "platform: [cpu]", "platform: [cuda]")
    assert problems_of(tree, "built-with") == []


def test_every_answer_through_a_triton_kernel_on_cuda_or_rocm_says_the_compiler_need_once(real_atlas):
    """On the real records: each answer whose route runs a kernel built with Triton (or a vLLM answer that runs any
    kernel, since vLLM's GPU model runners launch a Triton kernel for every batch) on a CUDA or ROCm target lists
    Triton's need exactly once; no answer on another platform lists it."""
    index = real_atlas.index
    triton = {k.id for k in index.all("kernel") if any(u["tool"] == "triton" for u in k.data.get("built_with", []))}
    # DeepGEMM's fused MoE permutes its tokens with Triton kernels on every forward pass, not only for shapes it
    # leaves to the Triton experts (second reading tritoncc33s)
    assert {"vllm-triton-fp8-block-scaled-mm", "vllm-emulation-nvfp4", "transformers-fp8-linear",
            "transformers-mxfp4-matmul-ogs", "vllm-deepgemm-fp8-moe"} <= triton
    checked = 0
    for (scheme, target), answer in real_atlas.views.answers.items():
        platform = index.get("hardware-target", target).data["platform"]
        cell = answer.cell
        runs = [k for k in (cell.kernel, cell.default_kernel, *(o.selected for o in cell.otherwise)) if k]
        said = [n for n in answer.needs if n.tool == "triton"]
        expected = platform in ("cuda", "rocm") and bool(runs) and (
            cell.engine == "vllm" and bool(cell.kernel or cell.default_kernel) or any(k in triton for k in runs))
        assert len(said) == (1 if expected else 0), (scheme, target, said)
        if said:
            assert said[0].source == "triton-wheel-3-8-0" and "triton-wheel-3-8-0" in answer.sources
            checked += 1
    assert checked > 100
