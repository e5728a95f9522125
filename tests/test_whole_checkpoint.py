"""What a whole checkpoint's line says the other (and the expert) layers need (derive/whole_checkpoint.needs_to_run), and
how every surface that counts what loads counts an expert-layer cell (whole_checkpoint.loads)."""
from __future__ import annotations

import json

from generators.build import check_tree, render_tree
from generators.derive.cells import Cell, Otherwise
from generators.derive.format_map import format_map
from generators.derive.whole_checkpoint import counted, loads, needs_to_run, why_said
from generators.render.api import _runs_of_format, answers_of, api_files
from generators.render.format_map import format_runs_html
from generators.render.reader_views import accelerator_cells
from generators.render.values import ValueRenderer
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


def _expert_beside_refused_dense(tree):
    """The mini scheme made an expert-layer scheme whose checkpoint's other layers are a dense scheme with no CPU list:
    on the CPU target its expert layers run and the whole checkpoint is refused (as in test_render's whole-checkpoint
    test); on the GPUs both run alike."""
    dense = (tree / "records/schemes/sch-w4a16.yaml").read_text().replace(
        "  - platform: cpu\n    kernels: [k-cpu]\n", "").replace("Example W4A16 scheme", "Example dense scheme").replace(
        '"Failed to find a kernel"', '"Failed to find a dense kernel"')
    (tree / "records/schemes/sch-dense.yaml").write_text(dense)
    experts = (tree / "records/schemes/sch-w4a16.yaml").read_text().replace(
        "formats: [fmt-int4]\n", "formats: [fmt-int4]\nlayers: experts\n"
        "other_layers: {scheme: sch-dense, source: src-code, locator: here}\n")
    (tree / "records/schemes/sch-w4a16.yaml").write_text(experts)
    (tree / "docs/chapters/demo.md.j2").write_text("# T\n\n{{ format_runs() }}\n")


def test_every_surface_that_counts_what_loads_counts_an_expert_cell_by_its_whole_checkpoint(tree):
    """An expert cell that runs beside other layers that are refused is a checkpoint that cannot load: chapter 23's
    target counts and lists it with the refused, the format page's "Where it runs", the format map's runs table and the
    data API's `runs_on` leave it out, and where it loads each says the whole checkpoint's verdict. Each failed on main,
    which counted the expert layers' own Runs."""
    _expert_beside_refused_dense(tree)
    atlas, problems = check_tree(tree)
    assert atlas is not None and not [p for p in problems if p.severity == "error"], problems
    assert atlas.views.cells[("sch-w4a16", "cpu-avx512")].verdict is Verdict.RUNS  # the expert layers' own, unchanged
    assert atlas.views.whole_checkpoints[("sch-w4a16", "cpu-avx512")].verdict is Verdict.REFUSED
    cpu = next(s for s in atlas.views.target_selections if s.target == "cpu-avx512")
    assert [s.scheme for s in cpu.served] == [] and [c.scheme for c in cpu.refused] == ["sch-dense", "sch-w4a16"]
    sm90 = next(s for s in atlas.views.target_selections if s.target == "gpu-sm90")
    assert [s.scheme for s in sm90.served] == ["sch-dense", "sch-w4a16"]

    fmt = json.loads(api_files(atlas)["api/format-map.json"])
    runs = {(r["scheme"], r["target"]): r for f in fmt["formats"] if f["id"] == "fmt-int4" for r in f["runs_on"]}
    assert ("sch-w4a16", "cpu-avx512") not in runs
    assert runs[("sch-w4a16", "gpu-sm90")]["whole_checkpoint"] == "runs"
    assert runs[("sch-dense", "gpu-sm90")]["whole_checkpoint"] is None

    pages, problems = render_tree(tree)
    where = pages["formats/fmt-int4.md"].split("## Where it runs", 1)[1].split("\n## ", 1)[0]
    assert "cpu-avx512" not in where and "whole checkpoint:</small>" in where
    runs_table = pages["chapters/demo.md"]
    cpu_row = next(r for r in runs_table.split("<tr>") if "hardware-targets/cpu-avx512" in r)
    assert 'title="no scheme loads it on' in cpu_row and "atlas-runs__kernel" not in cpu_row
    assert "expert-layer scheme's verdict here is its expert layers' own" in pages["kernels/k-cpu.md"]


def test_the_real_expert_cells_are_served_and_listed_as_their_whole_checkpoints(real_atlas):
    """On the real records: chapter 23's served and refused, a format's runs and the data API's `runs_on` each hold an
    expert-layer cell exactly where its whole checkpoint loads (whole_checkpoint.loads), and a run is shown by the
    whole checkpoint's verdict; some expert cell loads where its whole checkpoint does not, or this checks nothing."""
    views = real_atlas.views
    wholes = views.whole_checkpoints
    split = [key for key, w in wholes.items() if views.cells[key].verdict.loads and w.verdict and not w.verdict.loads]
    assert split, "no expert cell loads beside other layers that do not: this test checks nothing"
    for selection in views.target_selections:
        cells = [views.cells[(s.scheme, selection.target)] for s in selection.served] + list(selection.refused)
        assert [loads(c, wholes) for c in cells] == [True] * len(selection.served) + [False] * len(selection.refused)
    view = format_map(real_atlas.index, views.tallies, views.answers, wholes)
    assert {(r.scheme, r.target) for r in view.runs} == {
        key for key, a in views.answers.items() if loads(a.cell, wholes) and real_atlas.index.must(
            "scheme", key[0]).data.get("formats")}
    assert all(r.counted == counted(r.answer.cell, wholes) for r in view.runs)
    answers = answers_of(real_atlas)
    listed = {(r["scheme"], r["target"]) for f in real_atlas.index.all("format")
              for r in _runs_of_format(real_atlas, f.id, answers)}
    assert not listed & set(split)


def test_the_runs_table_colours_an_expert_kernel_by_its_whole_checkpoint_and_says_both(real_atlas):
    """Where an expert cell's whole checkpoint loads but reads otherwise than the expert layers' own verdict (their
    kernel "Runs", the other layers' scheme "Runs if"), the runs table's chip takes the whole checkpoint's colour and
    its title says both; main's generators coloured it by the expert layers alone."""
    views = real_atlas.views
    view = format_map(real_atlas.index, views.tallies, views.answers, views.whole_checkpoints)
    differ = [r for r in view.runs if r.counted.whole is not None and r.counted.label != r.answer.cell.label]
    assert differ, "no expert cell's whole checkpoint reads otherwise than its own verdict: this test checks nothing"
    html = str(format_runs_html(real_atlas, "chapters/format-map.md", {}))
    for run in differ:
        chip = (f'class="atlas-runs__kernel verdict-{run.counted.verdict.value}" title="{run.counted.label} (the whole '
                f'checkpoint; the expert layers alone: {run.answer.cell.label}) via {run.kernel} ({run.scheme}')
        assert chip in html, chip


def test_a_part_page_gives_an_expert_cell_its_whole_checkpoint(real_atlas):
    """A part's page lists its targets' cells as the hardware target's page does: an expert-layer cell's badge is its
    expert layers' own, and its whole checkpoint's follows it, so the V100 reader is not left with a "Fallback if" for
    an NVFP4 MoE checkpoint whose other layers are refused (main gave the expert badge alone)."""
    wholes = real_atlas.views.whole_checkpoints
    values = ValueRenderer({}, {}, "accelerators/v100.md")
    _, rows, note = accelerator_cells(real_atlas, real_atlas.index.must("accelerator", "v100"), values)
    experts = {str(row[1]).split("schemes/")[1].split(".md")[0]: str(row[2]) for row in rows
               if "hardware-targets/nvidia-sm70.md" in str(row[0])}
    shown = {s: w for (s, t), w in wholes.items() if t == "nvidia-sm70" and w.verdict is not None}
    cells = real_atlas.views.cells
    assert any(cells[(s, "nvidia-sm70")].verdict.loads and not w.verdict.loads for s, w in shown.items()), \
        "no expert cell on SM 7.0 loads beside other layers that do not: this test checks nothing"
    for scheme, whole in shown.items():
        said = experts[scheme].split("whole checkpoint:</small> ", 1)
        assert len(said) == 2 and f"verdict-{whole.verdict.value}" in said[1], experts[scheme]
    assert all("whole checkpoint" not in v for s, v in experts.items() if (s, "nvidia-sm70") not in wholes)
    assert "whole checkpoint's" in note


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
