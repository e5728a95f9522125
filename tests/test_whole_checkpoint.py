"""What a whole checkpoint's line says the other (and the expert) layers need: derive/whole_checkpoint.needs_to_run."""
from __future__ import annotations

from generators.derive.cells import Cell, Otherwise
from generators.derive.whole_checkpoint import needs_to_run, why_said
from generators.model.verdicts import Verdict


def _cell(conditions: tuple[str, ...], *steps: Otherwise) -> Cell:
    return Cell("e", "s", "t", Verdict.RUNS_IF, "k1", conditions, (), otherwise=steps)


def test_a_condition_that_only_chooses_between_running_kernels_is_not_needed():
    """k1 needs the package, its extension and few tokens; without the extension or with more tokens k2 runs (the
    package only), without the package it is refused: only the package is needed, whichever kernel runs."""
    cell = _cell(("package", "extension", "few tokens"),
                 Otherwise("k1", ("package", "extension", "few tokens"), Verdict.RUNS_IF, "k2", ("package",)),
                 Otherwise("k2", ("package",), Verdict.REFUSED, None))
    assert needs_to_run(cell) == ("package",)
    assert why_said(cell) == "package"


def test_a_condition_whose_failure_does_not_run_here_is_needed_and_so_are_the_next_kernels_own():
    """A bound whose failure fails at run time stays; a fallback is not running as specified; a running next step's
    own new condition (a build of its own) is needed in turn; a condition no step names is needed."""
    cell = _cell(("package", "bound", "extension", "unnamed"),
                 Otherwise("k1", ("package", "extension"), Verdict.RUNS_IF, "k2", ("package", "build")),
                 Otherwise("k1", ("bound",), Verdict.FAILS_AT_RUNTIME, "k1"),
                 Otherwise("k2", ("package",), Verdict.REFUSED, None),
                 Otherwise("k2", ("build",), Verdict.FALLBACK, "k3"))
    assert needs_to_run(cell) == ("package", "build", "bound", "unnamed")


def test_a_step_on_another_device_does_not_run_here():
    cell = _cell(("device memory",), Otherwise("k1", ("device memory",), Verdict.RUNS, "k1", elsewhere="the CPU"))
    assert needs_to_run(cell) == ("device memory",)


def test_the_real_vllm_gguf_expert_answers_do_not_make_the_dense_layers_depend_on_the_token_count(real_atlas):
    """vLLM GGUF's dense MMVQ runs at a few tokens and MMQ above them (moe49s): the whole checkpoint of its expert
    answers must not read as if the dense layers ran only at two tokens; the IQ experts' grid bound, whose failure
    fails at run time, stays among what the expert layers need."""
    wholes = {key: w for key, w in real_atlas.views.whole_checkpoints.items() if key[0].startswith("vllm-gguf-")
              and w.others is Verdict.RUNS_IF and key[1] == "nvidia-sm90"}
    assert len(wholes) >= 19, "the GGUF expert schemes' Hopper answers are gone: this test checks nothing"
    for whole in wholes.values():
        assert "tokens in the call" not in whole.why and "vllm-gguf-plugin package installed" in whole.why, whole.why
    iq = wholes[("vllm-gguf-iq2-xs-moe", "nvidia-sm90")]
    assert iq.both_conditional and "65535 routed token-expert pairs" in iq.experts_why


def test_a_condition_whose_failure_is_off_the_defaults_is_kept_not_traded_for_the_next_kernels_own():
    """A step off the defaults (derive/cells.py _by_default) is reached only where the install lacks what the default
    one has: the condition costs a default install nothing, and the next kernel's own conditions (a narrower group
    size) are a route its reader never takes, so the condition stays as it is (review49s)."""
    cell = _cell(("wheel has it", "bf16"),
                 Otherwise("k1", ("wheel has it",), Verdict.RUNS_IF, "k2", ("group size 128",), off_default=True),
                 Otherwise("k2", ("group size 128",), Verdict.REFUSED, None, off_default=True))
    assert needs_to_run(cell) == ("wheel has it", "bf16")


def test_the_fp8_block_expert_answer_on_sm120_does_not_say_the_dense_layers_need_b12x(real_atlas):
    """vLLM's FP8 block dense layers on SM 12.0 take DeepGEMM, else CUTLASS, which the wheel carries; B12X is reached
    only where vLLM was built without those CUTLASS kernels (off the defaults): the whole checkpoint names the CUTLASS
    build, as on SM 10.0, and not the b12x package (review49s)."""
    wholes = real_atlas.views.whole_checkpoints
    sm100, sm120 = (wholes[("vllm-fp8-block-moe", t)] for t in ("nvidia-sm100", "nvidia-sm120"))
    assert sm120.others is Verdict.RUNS_IF and sm120.why, sm120
    assert "b12x" not in sm120.why and "blockwise CUTLASS kernels" in sm120.why, sm120.why
    assert sm120.why == sm100.why
