"""A fallback that a default install does not reach is labelled "Fallback if", as a runs-if is: its verdict (and
every count) stays `fallback`, and every surface that shows the verdict says "if" (derive/cells.py Cell.fallback_if)."""
from __future__ import annotations

from generators.derive.cells import Cell, Otherwise
from generators.explain import explain_text
from generators.model.verdicts import FALLBACK_IF_LABEL, Verdict
from generators.render.matrix import legend
from generators.render.pages import verdict_markup


def _fallback(*steps: Otherwise) -> Cell:
    return Cell("e", "s", "t", Verdict.FALLBACK, "k", ("a build for the target",), (), computes_as="float16",
                otherwise=steps)


def _step(verdict: Verdict, off_default: bool = False, elsewhere: str = "") -> Otherwise:
    return Otherwise("k", ("a build for the target",), verdict, None if not verdict.loads else "k",
                     off_default=off_default, elsewhere=elsewhere)


def test_a_fallback_is_conditional_only_where_a_default_install_reaches_a_worse_step() -> None:
    assert _fallback(_step(Verdict.FAILS_AT_RUNTIME)).fallback_if
    assert _fallback(_step(Verdict.REFUSED)).fallback_if
    assert _fallback(_step(Verdict.FALLBACK, elsewhere="the host CPU")).fallback_if  # this hardware runs nothing
    # reached only off the defaults (a package the default install has, a setting left at its default): plain fallback
    assert not _fallback(_step(Verdict.REFUSED, off_default=True)).fallback_if
    assert not _fallback(_step(Verdict.FALLBACK), _step(Verdict.RUNS)).fallback_if
    assert not _fallback().fallback_if
    runs_if = Cell("e", "s", "t", Verdict.RUNS_IF, "k", ("c",), (), otherwise=(_step(Verdict.REFUSED),))
    assert not runs_if.fallback_if and runs_if.label == "Runs if"  # its verdict says it already
    assert _fallback(_step(Verdict.REFUSED)).label == FALLBACK_IF_LABEL
    assert _fallback(_step(Verdict.REFUSED)).as_dict()["fallback_if"] is True


def test_the_real_cells_a_default_install_does_not_reach(real_atlas) -> None:
    cells = real_atlas.views.cells
    # a V100: only a build of PyTorch and vLLM for compute capability 7.0 reaches the emulation; the default fails
    moe_v100 = cells[("vllm-ct-w4a4-nvfp4-moe", "nvidia-sm70")]
    assert moe_v100.verdict is Verdict.FALLBACK and moe_v100.fallback_if
    # a T4 with a bfloat16 checkpoint fails at run time: the fallback needs float16
    assert cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm75")].fallback_if
    # the activation dtype the A100 fallback needs is one the default dtype gives: the other is reached off the defaults
    assert not cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm80")].fallback_if
    # a setting left at its default (VLLM_BATCH_INVARIANT unset) is no opt-in
    assert not cells[("vllm-fp8", "nvidia-sm75")].fallback_if
    assert all(c.verdict is Verdict.FALLBACK for c in cells.values() if c.fallback_if)


def test_every_surface_says_if(real_atlas) -> None:
    cell = real_atlas.views.cells[("vllm-ct-w4a4-nvfp4-moe", "nvidia-sm70")]
    assert f">{FALLBACK_IF_LABEL}</span>" in verdict_markup(cell)  # scheme pages, chapter 23
    plain = real_atlas.views.cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm80")]
    assert ">Fallback</span>" in verdict_markup(plain)
    assert FALLBACK_IF_LABEL in legend() and "≈?" in legend(compact=True)
    said, _ = explain_text(real_atlas, "vllm-ct-w4a4-nvfp4-moe", "nvidia-sm70")
    assert said.startswith("vllm-ct-w4a4-nvfp4-moe on nvidia-sm70: FALLBACK IF via")
    assert "\n  only if: a build compiled for compute capability 7.0" in said
