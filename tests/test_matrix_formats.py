"""A hardware target's matrix instructions make a format native on its parts even where no peak is recorded, never emulated."""
from __future__ import annotations

from typing import Any

from generators.build import Atlas
from generators.derive.format_map import format_map
from generators.render.format_map import _cell
from generators.render.matrix import _Html

from .memory_atlas import atlas_of

_PEAK = {"sparsity": "dense", "tflops": 100, "source": "s"}
_FMT = {"summary": "s", "sources": [{"source": "s"}], "format_class": "hardware"}


def _part(*precisions: str) -> dict[str, Any]:
    return {"name": "NVIDIA Part", "summary": "s", "vendor": "NVIDIA", "category": "consumer-gpu", "architecture": "Blackwell",
            "sources": [{"source": "s"}], "peak_compute": [{**_PEAK, "precision": p} for p in precisions]}


def _atlas() -> Atlas:
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "format/mxfp6": {**_FMT, "name": "MXFP6", "peak_precision": "mxfp6", "emulated_via": ["fp8", "bf16"]},
        "format/fp8": {**_FMT, "name": "FP8", "peak_precision": "fp8", "emulated_via": ["bf16"]},
        "accelerator/inside": _part("bf16", "fp8"),
        "accelerator/rated": _part("bf16", "fp8", "mxfp6"),
        "accelerator/outside": _part("bf16", "fp8"),
        "hardware-target/t": {"name": "SM X", "summary": "s", "sources": [{"source": "s"}], "platform": "cuda", "order": 1,
                              "accelerators": ["inside", "rated"],
                              "matrix_formats": [{"precision": "mxfp6", "instruction": "mma kind::mxf8f6f4", "source": "s",
                                                  "locator": "line 1"}]}})


def test_an_instruction_of_the_target_makes_the_format_native_without_a_rate_and_not_emulated() -> None:
    tallies = _atlas().views.tallies
    assert (tallies["inside"].native, tallies["inside"].unrated, tallies["inside"].emulated) == (("fp8", "mxfp6"), ("mxfp6",), ())
    assert (tallies["rated"].native, tallies["rated"].unrated) == (("fp8", "mxfp6"), ())  # a peak is a rate: not unrated
    assert (tallies["outside"].native, tallies["outside"].emulated) == (("fp8",), ("mxfp6",))  # no instruction: converts


def test_the_map_marks_a_native_cell_without_a_rate_and_names_its_instruction() -> None:
    atlas = _atlas()
    view = format_map(atlas.index, atlas.views.tallies, {})
    cells = {r.accelerator: dict(zip([c.format for c in view.columns], r.cells)) for v in view.vendors for r in v.rows}
    unrated, rated = cells["inside"]["mxfp6"], cells["rated"]["mxfp6"]
    assert (unrated.status, unrated.unrated, unrated.peaks) == ("native", True, ())
    assert [(i.instruction, i.target, i.source) for i in unrated.instructions] == [("mma kind::mxf8f6f4", "t", "s")]
    assert (rated.unrated, [p.precision for p in rated.peaks]) == (False, ["mxfp6"])
    assert cells["outside"]["mxfp6"].status == "emulated" and not cells["outside"]["mxfp6"].instructions
    html = str(_cell(unrated, "MXFP6", "Part", "x.html", _Html({"source/s": "S", "hardware-target/t": "SM X"}, "p.md")))
    assert ">N*</a>" in html and "atlas-map__cell--unrated" in html
    assert 'title="MXFP6 on Part: native instruction, no rate recorded — mma kind::mxf8f6f4 (SM X: S)"' in html


def test_the_blackwell_fp6_and_ada_int4_cells_are_native_instructions_not_emulated(real_atlas: Atlas) -> None:
    tallies = real_atlas.views.tallies
    for part, fmt in (("rtx-5090", "mxfp6"), ("rtx-pro-6000-blackwell", "mxfp6"), ("b300", "mxfp6"), ("l4", "int4")):
        assert fmt in tallies[part].native and fmt in tallies[part].unrated and fmt not in tallies[part].emulated, (part, fmt)
    assert "mxfp6" in tallies["b200"].native and "mxfp6" not in tallies["b200"].unrated  # B200 states an FP6 rate
    # No 4-bit integer MMA on Hopper (wgmma s8 only), SM100 (tcgen05 kind::i8 only) or CDNA2 matrix cores: converted.
    for part in ("h100-sxm", "b200", "b300", "mi250x"):
        assert "int4" in tallies[part].emulated, part


def test_the_xe2_dpas_types_and_the_sm100_f16_and_tf32_kinds_are_native_instructions(real_atlas: Atlas) -> None:
    tallies = real_atlas.views.tallies
    for part in ("arc-pro-b60", "arc-b580"):  # both BMG-G21: FP16, TF32 and INT4 were E (B60) or absent (B580)
        for fmt in ("fp16", "tf32", "int4"):
            assert fmt in tallies[part].native and fmt in tallies[part].unrated and fmt not in tallies[part].emulated, (part, fmt)
    assert "bf16" in tallies["arc-pro-b60"].native and "bf16" not in tallies["arc-pro-b60"].unrated  # the B60 states a BF16 rate
    for fmt in ("fp16", "tf32"):  # tcgen05 kind::f16 and kind::tf32 are built for sm_103a; no B300 rate was read
        assert fmt in tallies["b300"].native and fmt in tallies["b300"].unrated, fmt
    # SM 12.x FP16 and BF16 mma.sync assemble to HMMA on sm_120 and sm_121 (finding fp16map32-audit-2026-12-04);
    # no rate is recorded for the RTX 5090's FP16 or for any of GB10's
    assert "fp16" in tallies["rtx-5090"].native and "fp16" in tallies["rtx-5090"].unrated
    # SM 12.x TF32 mma.sync assembles to HMMA.1688.F32.TF32 on sm_120 and sm_121 (finding tf32map32-audit-2026-12-04);
    # the RTX 5090 and GB10 state no TF32 rate, so it is native without one there, and the GB202 pair reads alike
    for acc in ("rtx-5090", "gb10-dgx-spark"):
        assert "tf32" in tallies[acc].native and "tf32" in tallies[acc].unrated, acc
    assert "tf32" in tallies["rtx-pro-6000-blackwell"].native and "tf32" not in tallies["rtx-pro-6000-blackwell"].unrated
    assert set(tallies["rtx-5090"].native) == set(tallies["rtx-pro-6000-blackwell"].native)
    for fmt in ("fp16", "bf16"):
        assert fmt in tallies["gb10-dgx-spark"].native and fmt in tallies["gb10-dgx-spark"].unrated, fmt


def test_a_matrix_instruction_in_a_wider_precision_makes_a_format_emulated_as_a_peak_does(real_atlas: Atlas) -> None:
    """The Arc B580 states no peak, but its target's Xe2 DPAS takes FP16 and BF16 and no FP8 (finding
    hw-xe2-dpas-no-fp8): FP8 and the block-scaled formats convert to those, as on the B60 of the same die, which
    states a BF16 rate. A part with neither a peak nor an instruction in a wider precision still gets nothing."""
    tallies = real_atlas.views.tallies
    for fmt in ("fp8-e4m3", "fp8-e5m2", "mxfp4", "mxfp8", "nvfp4"):
        assert fmt in tallies["arc-b580"].emulated and fmt not in tallies["arc-b580"].native, fmt
    assert set(tallies["arc-b580"].emulated) == set(tallies["arc-pro-b60"].emulated)


def test_an_emulated_cell_resting_on_instructions_alone_names_them_on_hover(real_atlas: Atlas) -> None:
    """The B580's FP8 cell has no peak to cite: its hover names the DPAS FP16 and BF16 instructions it converts to,
    not an empty reason; a native cell still cites only its own precision's instructions."""
    view = format_map(real_atlas.index, real_atlas.views.tallies, {})
    cells = {r.accelerator: dict(zip([c.format for c in view.columns], r.cells)) for v in view.vendors for r in v.rows}
    fp8 = cells["arc-b580"]["fp8-e4m3"]
    assert (fp8.status, fp8.peaks) == ("emulated", ())
    assert sorted({i.precision for i in fp8.instructions}) == ["bf16", "fp16"]
    assert {i.target for i in fp8.instructions} == {"intel-gpu"}
    html = str(_cell(fp8, "FP8 E4M3", "Intel Arc B580", "x.html", _Html({}, "p.md")))
    assert "emulated — DPAS with hf (FP16)" in html and "— ;" not in html and "— \"" not in html
    assert {i.precision for i in cells["arc-b580"]["fp16"].instructions} == {"fp16"}


def test_a_fallback_through_the_capability_gate_names_the_scheme_it_loads_as(real_atlas: Atlas) -> None:
    """The W8A8 FP8 note below capability 89 says the gate handed the checkpoint to the W8A16 scheme; SM 8.9's does not."""
    import re

    from generators.render.matrix import support_matrices_html
    text = str(support_matrices_html(real_atlas, "chapters/support-tables.md", {}))
    notes = {re.sub(r"<[^>]+>", "", note).split(":")[0]: note for note in re.findall(r"<li[^>]*>(.*?)</li>", text, re.S)}
    handed = "; the scheme's capability gate fails here, so the engine loads the checkpoint as"
    turing = next(v for k, v in notes.items() if "W8A8 FP8 on NVIDIA SM 7.5" in k)
    ada = next(v for k, v in notes.items() if "W8A8 FP8 on NVIDIA SM 8.9" in k)
    assert handed in turing and "schemes/vllm-ct-w8a16-fp8/" in turing.split(handed)[1].split("</a>")[0]
    assert handed not in ada


def test_a_note_puts_no_second_full_stop_after_an_engine_message(real_atlas: Atlas) -> None:
    """A refusal's message ends in a full stop; the next sentence of the note does not add another."""
    import re

    from generators.render.matrix import support_matrices_html
    text = re.sub(r"<[^>]+>", "", str(support_matrices_html(real_atlas, "chapters/support-tables.md", {})))
    assert "Current capability: 70. Selection observed" in text
    assert ".. " not in text


def test_a_substituted_scheme_note_names_the_scheme_a_default_install_loads(real_atlas: Atlas) -> None:
    """On Intel GPU the W8A8 FP8 note says a default install loads the checkpoint as the W8A16 scheme, linked."""
    import re

    from generators.render.matrix import support_matrices_html
    text = str(support_matrices_html(real_atlas, "chapters/support-tables.md", {}))
    notes = {re.sub(r"<[^>]+>", "", note).split(":")[0]: note for note in re.findall(r"<li[^>]*>(.*?)</li>", text, re.S)}
    xpu = next(v for k, v in notes.items() if "W8A8 FP8 on Intel GPU" in k)
    loads = "; a default install loads the checkpoint as "
    assert loads in xpu and "schemes/vllm-ct-w8a16-fp8/" in xpu.split(loads)[1].split("</a>")[0]


def test_a_precision_the_target_states_no_matrix_instruction_in_is_emulated_on_a_part_with_no_figures() -> None:
    """A part with no peak figures is not native by silence: where its target states the matrix engines have no
    instruction in the format's precision, the format is emulated there; where nothing is stated, it is neither."""
    atlas = atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "format/fp8": {**_FMT, "name": "FP8", "peak_precision": "fp8", "emulated_via": ["fp16"]},
        "accelerator/bare": {**_part(), "peak_compute": []},
        "accelerator/unknown": {**_part(), "peak_compute": []},
        "hardware-target/t": {"name": "GFX X", "summary": "s", "sources": [{"source": "s"}], "platform": "rocm", "order": 1,
                              "accelerators": ["bare"],
                              "no_matrix_formats": [{"precision": "fp8", "source": "s", "locator": "line 1"}]}})
    tallies = atlas.views.tallies
    assert (tallies["bare"].native, tallies["bare"].emulated) == ((), ("fp8",))
    assert (tallies["unknown"].native, tallies["unknown"].emulated) == ((), ())
    view = format_map(atlas.index, tallies, {})
    cell = next(r.cells[0] for v in view.vendors for g in v.generations for r in g.rows if r.accelerator == "bare")
    assert cell.status == "emulated" and [(n.target, n.source) for n in cell.without] == [("t", "s")]
    html = str(_cell(cell, "FP8", "Part", "x.html", _Html({"source/s": "S", "hardware-target/t": "GFX X"}, "p.md")))
    assert 'title="FP8 on Part: emulated — no matrix instruction in this precision (GFX X: S)"' in html


def test_fp8_is_emulated_on_the_radeon_pro_vii_and_the_radeon_8060s_as_on_the_mi250x(real_atlas: Atlas) -> None:
    """Triton 3.8.0 widens FP8 tl.dot operands on gfx906 (FP32 FMA), gfx1151 (FP16 WMMA) and gfx90a (FP16 MFMA): the
    first two state no peak figure, so the emulated reading rests on their targets' statement, not on a rate."""
    tallies = real_atlas.views.tallies
    for part in ("radeon-pro-vii", "radeon-8060s-gfx1151", "mi250x"):
        assert "fp8-e4m3" in tallies[part].emulated and "fp8-e4m3" not in tallies[part].native, part


def test_a_target_with_no_matrix_instruction_at_all_makes_every_hardware_format_emulated_on_its_parts() -> None:
    """One statement, `no_matrix_instructions`, settles every format on the target's parts: each hardware format is
    emulated there (TF32 and NVFP4 too, whose wider precision no instruction takes), with no per-precision list; a part
    of no such target stays neither, and a checkpoint format is never counted."""
    atlas = atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "format/tf32": {**_FMT, "name": "TF32", "peak_precision": "tf32", "emulated_via": ["fp32"]},
        "format/nvfp4": {**_FMT, "name": "NVFP4", "peak_precision": "nvfp4", "emulated_via": ["fp16"]},
        "format/awq": {"summary": "s", "sources": [{"source": "s"}], "format_class": "checkpoint", "name": "AWQ"},
        "accelerator/bare": {**_part(), "peak_compute": []},
        "accelerator/unknown": {**_part(), "peak_compute": []},
        "hardware-target/t": {"name": "GFX X", "summary": "s", "sources": [{"source": "s"}], "platform": "rocm", "order": 1,
                              "accelerators": ["bare"],
                              "no_matrix_instructions": {"source": "s", "locator": "feature set", "quote": "def X"}}})
    tallies = atlas.views.tallies
    assert (tallies["bare"].native, tallies["bare"].emulated) == ((), ("nvfp4", "tf32"))
    assert (tallies["unknown"].native, tallies["unknown"].emulated) == ((), ())
    view = format_map(atlas.index, tallies, {})
    cell = next(r.cells[1] for v in view.vendors for g in v.generations for r in g.rows if r.accelerator == "bare")
    assert cell.status == "emulated" and [(n.precision, n.target, n.source) for n in cell.without] == [(None, "t", "s")]
    html = str(_cell(cell, "TF32", "Part", "x.html", _Html({"source/s": "S", "hardware-target/t": "GFX X"}, "p.md")))
    assert 'title="TF32 on Part: emulated — no matrix instruction in any precision (GFX X: S)"' in html


def test_the_radeon_pro_vii_emulates_every_hardware_format_from_one_statement_on_gfx906(real_atlas: Atlas) -> None:
    """gfx906 has no matrix instruction at all (LLVM's gfx906 feature set has no MAI feature; the assembler refuses
    every MFMA, SMFMAC, WMMA and SWMMAC mnemonic for it): every hardware format, TF32, the FNUZ FP8s, MX and NVFP4
    included, is emulated on the Radeon Pro VII and none is native, from the target's one statement, not a list."""
    from generators.derive.tallies import hardware_formats
    tally = real_atlas.views.tallies["radeon-pro-vii"]
    assert tally.native == ()
    assert set(tally.emulated) == {f.id for f in hardware_formats(real_atlas.index)}
    assert {"tf32", "fp8-e4m3-fnuz", "fp8-e5m2-fnuz", "mxfp8", "mxfp6", "mxfp4", "nvfp4"} <= set(tally.emulated)
    target = real_atlas.index.must("hardware-target", "amd-gfx906")
    assert "no_matrix_instructions" in target.data and "no_matrix_formats" not in target.data


def test_tf32_is_emulated_on_the_radeon_8060s_as_rdna3_5_wmma_takes_no_tf32(real_atlas: Atlas) -> None:
    """The six GFX11 WMMA instructions take FP16, BF16, IU8 and IU4 only: gfx1151 lists TF32 among its precisions
    without a matrix instruction, so the Radeon 8060S reads TF32 emulated, not blank and not native."""
    tally = real_atlas.views.tallies["radeon-8060s-gfx1151"]
    assert "tf32" in tally.emulated and "tf32" not in tally.native
    target = real_atlas.index.must("hardware-target", "amd-gfx1151")
    assert "tf32" in {e["precision"] for e in target.data["no_matrix_formats"]}
    assert "tf32" not in {e["precision"] for e in target.data["matrix_formats"]}


def _split_atlas() -> Atlas:
    """Two parts of one target that differ in FP16: each states it on its own record."""
    part = {"summary": "s", "vendor": "Intel", "category": "cpu", "architecture": "X", "sources": [{"source": "s"}]}
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "format/fp16": {**_FMT, "name": "FP16", "peak_precision": "fp16", "emulated_via": ["fp32"]},
        "format/fp8": {**_FMT, "name": "FP8", "peak_precision": "fp8", "emulated_via": ["fp16", "bf16"]},
        "format/bf16": {**_FMT, "name": "BF16", "peak_precision": "bf16", "emulated_via": ["fp32"]},
        "accelerator/newer": {**part, "name": "Intel Newer",
                              "matrix_formats": [{"precision": "fp16", "instruction": "TDPFP16PS", "source": "s",
                                                  "locator": "line 2", "quote": "HasAMXFP16"}]},
        "accelerator/older": {**part, "name": "Intel Older",
                              "no_matrix_formats": [{"precision": "fp16", "source": "s", "locator": "line 3"}]},
        "hardware-target/amx": {"name": "AMX", "summary": "s", "sources": [{"source": "s"}], "platform": "cpu", "order": 1,
                                "accelerators": ["newer", "older"],
                                "matrix_formats": [{"precision": "bf16", "instruction": "TDPBF16PS", "source": "s",
                                                    "locator": "line 1"}]}})


def test_a_part_states_a_matrix_format_its_target_leaves_unstated_and_the_map_derives_from_both() -> None:
    """The target's BF16 holds for both parts; FP16, stated per part, is native (unrated) on one and emulated on the
    other, and the map names the part's own statement as 'this part'."""
    atlas = _split_atlas()
    tallies = atlas.views.tallies
    assert (tallies["newer"].native, tallies["newer"].unrated, tallies["newer"].emulated) == (
        ("bf16", "fp16"), ("bf16", "fp16"), ("fp8",))
    assert (tallies["older"].native, tallies["older"].emulated) == (("bf16",), ("fp16", "fp8"))
    view = format_map(atlas.index, atlas.views.tallies, {})
    cells = {r.accelerator: dict(zip([c.format for c in view.columns], r.cells)) for v in view.vendors for r in v.rows}
    native, emulated = cells["newer"]["fp16"], cells["older"]["fp16"]
    assert [(i.instruction, i.target, i.on_part) for i in native.instructions] == [("TDPFP16PS", "newer", True)]
    assert (emulated.status, [(n.precision, n.target, n.on_part) for n in emulated.without]) == (
        "emulated", [("fp16", "older", True)])
    # the newer part converts FP8 to either tile type, so its FP8 cell names both instructions, the target's first
    assert [i.instruction for i in cells["newer"]["fp8"].instructions] == ["TDPBF16PS", "TDPFP16PS"]
    names = _Html({"source/s": "S", "hardware-target/amx": "AMX"}, "p.md")
    assert 'title="FP16 on Newer: native instruction, no rate recorded — TDPFP16PS (this part: S)"' in str(
        _cell(native, "FP16", "Newer", "x.html", names))
    assert 'title="FP16 on Older: emulated — no matrix instruction in this precision (this part: S)"' in str(
        _cell(emulated, "FP16", "Older", "x.html", names))


def test_the_xeons_fp16_is_stated_per_part_native_on_granite_rapids_and_emulated_on_sapphire_rapids(real_atlas: Atlas) -> None:
    """x86-cpu-avx512-amx states no FP16: Granite Rapids has TDPFP16PS (AMX-FP16), Sapphire Rapids has no FP16 tile
    multiply, so each part states it (finding partmx35-audit-2026-12-04)."""
    tallies = real_atlas.views.tallies
    target = real_atlas.index.must("hardware-target", "x86-cpu-avx512-amx").data
    assert "fp16" not in {e["precision"] for e in [*target.get("matrix_formats", []), *target.get("no_matrix_formats", [])]}
    gnr, spr = tallies["intel-xeon-granite-rapids"], tallies["intel-xeon-sapphire-rapids"]
    assert "fp16" in gnr.native and "fp16" in gnr.unrated and "fp16" not in gnr.emulated
    assert "fp16" in spr.emulated and "fp16" not in spr.native
