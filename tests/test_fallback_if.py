"""A fallback that a default install does not reach is labelled "Fallback if", as a runs-if is: its verdict (and
every count) stays `fallback`, and every surface that shows the verdict says "if" (derive/cells.py Cell.fallback_if)."""
from __future__ import annotations

import re
from pathlib import Path

from generators.cell_content import cell_contents
from generators.derive.cells import Assumed, Attempt, Cell, Otherwise, runs_by_default
from generators.derive.parts import PartAnswer, PartNeed
from generators.explain import explain_text
from generators.model.verdicts import FALLBACK_IF_LABEL, FALLBACK_IF_MEANING, Verdict
from generators.render.format_map import format_runs_html
from generators.render.matrix import legend, support_matrices_html
from generators.render.pages import verdict_markup
from generators.render.reader_views import accelerator_cells, format_sections
from generators.render.values import ValueRenderer

ROOT = Path(__file__).resolve().parent.parent


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
    # a T4 whose --dtype auto gives float32 (gemma2, gemma3, glm4, which vLLM does not run in float16) fails at run
    # time: the fallback needs float16 (a bfloat16 checkpoint is cast to float16 there, and falls back)
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


def test_a_step_a_default_install_passes_over_makes_no_fallback_conditional_as_it_makes_no_runs_if() -> None:
    """The steps a fallback reads are those a runs-if reads to stay runs-if (cells.default_reached): the outcome of
    selecting a kernel that needs an opt-in (a package the default install leaves out) is not reached by default; the
    install passes that kernel over to its own step, here a fallback. A runs-if with the same steps becomes `runs`
    only where that step runs, so both read the opt-in kernel's failure as unreached."""
    lacking = Assumed("package p installed", "not in the default install", ())
    attempts = (Attempt("a", "conditional", conditions=("x",)), Attempt("b", "conditional", opt_in=(lacking,)),
                Attempt("c", "yes"))
    steps = (Otherwise("a", ("x",), Verdict.FAILS_AT_RUNTIME, "b"),  # only with p: b is selected and fails
             Otherwise("b", ("package p installed",), Verdict.FALLBACK, "c"))  # the default install: c, a fallback
    cell = Cell("e", "s", "t", Verdict.FALLBACK, "a", ("x",), attempts, computes_as="float16", otherwise=steps)
    assert not cell.fallback_if
    assert runs_by_default(Cell("e", "s", "t", Verdict.RUNS_IF, "a", ("x",), attempts,
                                otherwise=(steps[0], Otherwise("b", ("package p installed",), Verdict.RUNS, "c"))),
                           {"b"})
    refused = (steps[0], Otherwise("b", ("package p installed",), Verdict.REFUSED, None))
    assert Cell("e", "s", "t", Verdict.FALLBACK, "a", ("x",), attempts, otherwise=refused).fallback_if


def test_the_meaning_names_every_way_a_default_install_misses_the_fallback(real_atlas) -> None:
    """The legend, the badges' hover, the verdicts page and the card say what a default install gets instead: on
    the real cells that is a failure at run time, a refusal, or the model on another device (transformers on a GPU
    without a device_map loads it onto the host CPU), and each is said."""
    script = (ROOT / "docs/javascripts/can-i-run-it.js").read_text(encoding="utf-8")
    card = re.search(r'var FALLBACK_IF = \[("[^"]*"), ("[^"]*" \+\s*"[^"]*")\]', script)
    assert card is not None
    card_said = card.group(2).replace('" +', "").replace('"', "").split()
    said = {Verdict.FAILS_AT_RUNTIME: "fails at run time", Verdict.REFUSED: "refuses", "elsewhere": "another device"}
    ways = {"elsewhere" if step.elsewhere else step.verdict
            for c in real_atlas.views.cells.values() if c.fallback_if
            for step in c.otherwise if not step.off_default and (step.elsewhere or not step.verdict.loads)}
    assert ways == set(said)
    for way in ways:
        assert said[way] in FALLBACK_IF_MEANING and said[way] in " ".join(card_said)


def test_format_and_part_pages_the_format_map_and_the_diff_say_if(real_atlas) -> None:
    """The V100 part's page lists the NVFP4 MoE cell on SM 7.0 as "Fallback if" and the diff's content of the cell
    reads its label (cell_content); the NVFP4 format's page and the format map's runs leave it out, its whole checkpoint
    being refused there (whole49), and say "Fallback if" of the same cell on SM 7.5, whose whole checkpoint is one too."""
    key = ("vllm-ct-w4a4-nvfp4-moe", "nvidia-sm70")
    values = ValueRenderer({}, {}, "accelerators/v100.md")
    _, rows, _ = accelerator_cells(real_atlas, real_atlas.index.must("accelerator", "v100"), values)
    verdicts = {str(row[1]): str(row[2]) for row in rows}
    moe = next(v for scheme, v in verdicts.items() if "schemes/vllm-ct-w4a4-nvfp4-moe.md" in scheme)
    assert f">{FALLBACK_IF_LABEL}</span>" in moe
    assert real_atlas.views.whole_checkpoints[key].verdict is Verdict.REFUSED
    assert real_atlas.views.whole_checkpoints[(key[0], "nvidia-sm75")].label == FALLBACK_IF_LABEL
    values = ValueRenderer({}, {}, "formats/nvfp4.md")
    runs = next(rows for title, _, rows, _, _ in format_sections(real_atlas, real_atlas.index.must("format", "nvfp4"),
                                                                 values) if title == "Where it runs")
    ours = {str(r[0]).split("hardware-targets/")[1].split(".md")[0]: str(r[1]) for r in runs if key[0] + ".md" in str(r[3])}
    assert "nvidia-sm70" not in ours
    assert ours["nvidia-sm75"].count(f">{FALLBACK_IF_LABEL}</span>") == 2  # the expert layers' and the whole checkpoint's
    assert ">Fallback</span>" in ours["nvidia-sm80"]
    runs_map = str(format_runs_html(real_atlas, "chapters/format-map.md", {}))
    assert f"via vllm-nvfp4-emulation-moe ({key[0]})" not in runs_map.split("NVIDIA SM 7.5")[0].split("NVIDIA SM 7.0")[1]
    assert f'title="{FALLBACK_IF_LABEL} via vllm-marlin-moe (vllm-ct-w4a4-nvfp4-moe)"' in runs_map
    assert cell_contents(real_atlas)[key]["verdict_label"] == FALLBACK_IF_LABEL


def test_the_grid_lets_fallback_if_wrap_and_a_part_that_needs_more_falls_back_only_if() -> None:
    """"Fallback if" is wider than a column of vLLM's grid at 1440 px: its link may wrap (the stylesheet's
    atlas-grid__wraps; the browser test holds every label inside its cell). A part's answer is the cell's with what
    the part needs first, which a default install lacks: a fallback there is "Fallback if", as a runs there is runs-if."""
    css = (ROOT / "docs/stylesheets/atlas.css").read_text(encoding="utf-8")
    assert re.search(r"\.atlas-grid__cell a\.atlas-grid__wraps \{ white-space: normal; word-break: keep-all;", css)
    need = (PartNeed("a build for this part's host CPU", "src"),)
    assert PartAnswer("p", Verdict.FALLBACK, need).fallback_if
    assert not PartAnswer("p", Verdict.RUNS_IF, need).fallback_if


def test_the_support_tables_grid_marks_each_fallback_if_link_to_wrap(real_atlas) -> None:
    html = str(support_matrices_html(real_atlas, "chapters/support-tables.md", {}))
    wraps = re.findall(r'<a href="[^"]*" title="Fallback if[^"]*" class="atlas-grid__wraps">Fallback if</a>', html)
    assert len(wraps) == sum(1 for c in real_atlas.views.cells.values() if c.fallback_if and not c.target.startswith("amd-"))
