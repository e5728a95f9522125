"""Record pages for readers: field labels for people, agreeing sources folded, disagreeing ones flagged."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.paths import dotted
from generators.render.reader_views import field_label, folded_rows
from generators.render.values import ValueRenderer


@pytest.mark.parametrize("key, label", [("memory_gb", "Memory (GB)"), ("memory_bandwidth_gbs", "Memory bandwidth (GB/s)"),
                                        ("power_w", "Power (W)"), ("isa_features", "ISA features"), ("name", "Name")])
def test_field_labels(key: str, label: str) -> None:
    assert field_label(key) == label


def test_agreeing_sources_fold_into_one_row_and_disagreeing_ones_are_flagged() -> None:
    values = ValueRenderer({"peak[0].source": "source/a", "peak[1].source": "source/b", "peak[2].source": "source/c",
                            "peak[3].source": "source/d"}, {"source/a": "A", "source/b": "B", "source/c": "C", "source/d": "D"},
                           "accelerators/x.md")
    items = [{"precision": "fp8", "tflops": 1979, "source": "a"}, {"precision": "fp8", "tflops": 1979, "source": "b"},
             {"precision": "fp8", "tflops": 1978, "source": "c", "note": "written as 1978"},
             {"precision": "bf16", "tflops": 989, "source": "d"}]
    columns, rows = folded_rows("peak", items, values)
    assert columns == ["precision", "tflops", "sources", "notes"]
    assert [r[:2] for r in rows] == [["fp8", "1979"], ["fp8", "1978"], ["bf16", "989"]]
    assert "[A](../sources/a.md), [B](../sources/b.md)" in rows[0][2] and "sources disagree" in rows[0][2]
    assert "sources disagree" in rows[1][2] and "sources disagree" not in rows[2][2]
    assert rows[1][3] == "written as 1978"
    assert folded_rows("cells", [{"row": 1}], values) is None


def test_the_notes_of_agreeing_sources_are_one_line_each_in_the_order_of_their_links() -> None:
    """Notes are sentences: joined with "; " they read "pages.; Secondary" on the A10's memory row."""
    values = ValueRenderer({f"m[{n}].source": f"source/{s}" for n, s in enumerate("abc")},
                           {f"source/{s}": s.upper() for s in "abc"}, "accelerators/x.md")
    items = [{"value": 24, "source": "a", "note": "Secondary (pages)."}, {"value": 24, "source": "b"},
             {"value": 24, "source": "c", "note": "Stated as 24 GiB <b>."}]
    _, rows = folded_rows("m", items, values)
    assert rows[0][-1] == "Secondary \\(pages\\).<br>Stated as 24 GiB &lt;b&gt;."  # (Markdown escapes kept)


def test_an_equal_figure_called_an_estimate_by_one_source_is_not_a_disagreement() -> None:
    """The RTX 5090's NVFP4 peak: one source states 1676, another estimates 1676.0. Two rows (the estimate shows), no
    flag; an estimate of another figure for the same precision is still flagged."""
    values = ValueRenderer({f"peak[{n}].source": f"source/{s}" for n, s in enumerate("abcd")},
                           {f"source/{s}": s.upper() for s in "abcd"}, "accelerators/x.md")
    items = [{"precision": "nvfp4", "tflops": 1676, "source": "a"},
             {"precision": "nvfp4", "tflops": 1676.0, "estimate": True, "source": "b"},
             {"precision": "int8", "tflops": 838, "source": "c"},
             {"precision": "int8", "tflops": 419.0, "estimate": True, "source": "d"}]
    columns, rows = folded_rows("peak", items, values)
    assert columns == ["precision", "tflops", "estimate", "sources", "notes"]
    assert [(r[0], "sources disagree" in r[3]) for r in rows] == [
        ("nvfp4", False), ("nvfp4", False), ("int8", True), ("int8", True)]



def test_an_unverified_figure_is_marked_and_its_reason_links_a_finding_it_names_all_text_escaped() -> None:
    """A figure with an `unverified` reason carries the mark (its reason on hover, every character Markdown or a table
    would read as syntax an entity, `|` too); the reason's "finding <id>" links where the id is a finding, and nothing
    else of the record's text becomes markup. A figure without a reason is left as it was."""
    hostile = 'a | `b` *c* <script>x</script> "q" [l](u) (finding f-1); finding <i>f-1</i> and finding nope'
    values = ValueRenderer({"peak[0].source": "source/a", "peak[1].source": "source/a"},
                           {"source/a": "A", "finding/f-1": "F"}, "accelerators/x.md")
    columns, rows = folded_rows("peak", [{"precision": "fp8", "tflops": 10, "source": "a", "unverified": hostile},
                                         {"precision": "bf16", "tflops": 5, "source": "a"}], values)
    assert columns == ["precision", "tflops", "unverified", "sources", "notes"]
    mark, reason = rows[0][1], rows[0][2]
    assert mark.startswith('<span class="atlas-unverified-value" title="unverified: a &#124; &#96;b&#96; &#42;c&#42; &lt;script&gt;')
    assert mark.endswith(">10<sup>u</sup></span>") and "<script>" not in mark and "|" not in mark
    assert reason.count("[f-1](../findings/f-1.md)") == 1 and "finding nope" in reason  # (not "<i>f-1</i>": not the id)
    assert "<script>" not in reason and "<i>" not in reason and "\\[l\\]\\(u\\)" in reason and "&#124;" in reason
    assert rows[1][:3] == ["bf16", "5", ""]


def test_nested_values_are_escaped_once_keys_and_leaves_alike() -> None:
    """Mapping keys and leaves are escaped where they are read, and never again when the pieces are joined."""
    values = ValueRenderer({"f.refs[1]": "source/a"}, {"source/a": "A & <B>"}, "accelerators/x.md")
    shown = values.render({"a&b": "<x>", "q'\"": ["1 & 2", "y"], "refs": ["z", "a"]}, ("f",))
    assert shown == "a&amp;b: &lt;x&gt;; q'\": 1 &amp; 2, y; refs: z, [A &amp; &lt;B&gt;](../sources/a.md)"
    assert type(shown).__name__ == "Markup"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 12), st.sampled_from(["sources", "source", "peak", "a_b"])), max_size=5))
def test_a_value_nested_anywhere_finds_its_reference_by_the_path_dotted_writes(path: list[object]) -> None:
    """ValueRenderer writes paths one step per level; a reference at any depth must still be found under dotted(path)."""
    value: object = "plain"
    for part in reversed(path):
        value = [*(["x"] * part), value] if isinstance(part, int) else {part: value}
    values = ValueRenderer({dotted(tuple(path)): "source/a"}, {"source/a": "A"}, "accelerators/x.md")
    shown = values.render(value, ())
    assert "[A](../sources/a.md)" in shown and "plain" not in shown

def test_sources_to_check_again_are_old_checks_and_older_pins() -> None:
    from generators.derive.source_freshness import stale_sources

    from .memory_atlas import atlas_of
    base = {"name": "S", "summary": "s", "type": "code", "repository": "o/r", "path": "p.py"}
    atlas = atlas_of({
        "source/new": {**base, "revision": "v0.33.0", "accessed": "2026-11-30"},
        "source/old-pin": {**base, "revision": "v0.9.1", "accessed": "2026-11-29"},
        "source/old-check": {**base, "type": "docs", "url": "https://x.org/", "accessed": "2026-01-01"},
        "source/pkg-new": {**base, "package": "vllm==0.33.0", "accessed": "2026-11-30"},
        "source/undated": {**base, "type": "web", "url": "https://y.org/"}})
    report = stale_sources(atlas.index, max_age_days=180)
    assert {s.source: s.reason for s in report.items} == {
        "old-check": "last checked 2026-01-01, 333 days before the newest check",
        "old-pin": "pinned to o/r v0.9.1; the records also cite v0.33.0",
        "undated": "no check date recorded"}


def test_ridges_fold_to_one_row_per_part_with_ranges() -> None:
    from generators.derive.flops import Ridge
    from generators.derive.ridge_rows import ridge_table
    ridges = [Ridge("h100", "bf16", 989, 3350, 295.2, "a", "b", "", False),
              Ridge("h100", "bf16", 989, 3000, 329.7, "a", "c", "", True),
              Ridge("h100", "fp8", 1979, 3350, 590.7, "a", "b", "", False),
              Ridge("a10", "fp16", 125, 600, 208.3, "d", "d", "", False)]
    table = ridge_table(ridges)
    assert table.precisions == ("fp16", "bf16", "fp8")
    assert [p.accelerator for p in table.parts] == ["h100", "a10"]
    h100 = table.parts[0].spans
    assert h100[0] is None and (h100[1].low, h100[1].high, h100[1].pairings, h100[1].estimate) == (295.2, 329.7, 2, True)
    assert h100[2].single and h100[2].pairings == 1


def _part(vendor: str, architecture: str, **extra: object) -> dict:
    return {"name": f"{vendor} part", "summary": "s", "vendor": vendor, "category": "cpu", "architecture": architecture,
            "sources": [{"source": "s"}], **extra}


def test_cpu_columns_sit_under_their_members_vendor_with_the_generation() -> None:
    from generators.derive.matrix import by_vendor, column_of, group_columns

    from .memory_atlas import atlas_of
    target = {"summary": "s", "sources": [{"source": "s"}]}
    atlas = atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "accelerator/epyc": _part("AMD", "Zen 4 (x86-64)"), "accelerator/xeon": _part("Intel", "Sapphire Rapids"),
        "accelerator/mi": _part("AMD", "CDNA3"),
        "hardware-target/amd-gpu": {**target, "name": "AMD GPU (ROCm)", "platform": "rocm", "order": 1, "accelerators": ["mi"]},
        "hardware-target/intel-gpu": {**target, "name": "Intel GPU (XPU)", "platform": "xpu", "order": 2},
        "hardware-target/avx2": {**target, "name": "x86 AVX2", "platform": "cpu", "cpu_arch": "x86_64",
                                 "isa_features": ["avx2"], "order": 3},
        "hardware-target/avx512": {**target, "name": "x86 AVX512", "platform": "cpu", "cpu_arch": "x86_64", "order": 4,
                                   "isa_features": ["avx2", "avx512f"], "accelerators": ["epyc"]},
        "hardware-target/amx": {**target, "name": "x86 AMX", "platform": "cpu", "cpu_arch": "x86_64", "order": 5,
                                "isa_features": ["avx512f", "amx_tile"], "accelerators": ["xeon"]}})
    targets = sorted(atlas.index.all("hardware-target"), key=lambda t: t.data["order"])
    columns = by_vendor([column_of(t, atlas.index) for t in targets])
    assert [(c.target, c.vendor, c.short, c.detail) for c in columns] == [
        ("amd-gpu", "AMD", "GPU", "ROCm"), ("avx512", "AMD", "CPU", "AVX512 · Zen 4"),
        ("intel-gpu", "Intel", "GPU", "XPU"), ("amx", "Intel", "CPU", "AMX · Sapphire Rapids"),
        ("avx2", "x86", "CPU", "AVX2")]
    assert group_columns(columns) == [("AMD", 2), ("Intel", 2), ("x86", 1)]


def test_a_cpu_column_that_answers_for_several_vendors_sits_under_the_architecture() -> None:
    """The AVX2 target's parts are all AMD EPYC, but its cpu_vendors say it answers for Intel CPUs as well: the column
    sits under 'x86', not under AMD; a target stated for Intel alone sits under Intel whatever its parts."""
    from generators.derive.matrix import column_of

    from .memory_atlas import atlas_of
    target = {"summary": "s", "sources": [{"source": "s"}], "platform": "cpu", "cpu_arch": "x86_64"}
    atlas = atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "accelerator/milan": _part("AMD", "Zen 3 (x86-64)"),
        "hardware-target/avx2": {**target, "name": "x86 AVX2", "order": 1, "isa_features": ["avx2"],
                                 "cpu_vendors": ["AuthenticAMD", "GenuineIntel"], "accelerators": ["milan"]},
        "hardware-target/amx": {**target, "name": "x86 AMX", "order": 2, "isa_features": ["amx_tile"],
                                "cpu_vendors": ["GenuineIntel"], "accelerators": ["milan"]}})
    columns = {t.id: column_of(t, atlas.index) for t in atlas.index.all("hardware-target")}
    assert (columns["avx2"].vendor, columns["avx2"].detail) == ("x86", "AVX2 · Zen 3")
    assert columns["amx"].vendor == "Intel"


def test_the_format_map_groups_parts_by_vendor_and_generation_and_keeps_the_peaks() -> None:
    from generators.derive.format_map import format_map
    from generators.render.format_map import split_panels

    from .memory_atlas import atlas_of
    peak = {"sparsity": "dense", "tflops": 100, "source": "s"}
    fmt = {"summary": "s", "sources": [{"source": "s"}], "format_class": "hardware"}
    atlas = atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "format/bf16": {**fmt, "name": "BF16", "peak_precision": "bf16"},
        "format/fp8": {**fmt, "name": "FP8 (E4M3)", "peak_precision": "fp8", "emulated_via": ["bf16"]},
        "accelerator/new": _part("NVIDIA", "Hopper", name="NVIDIA New (80GB)", peak_compute=[{**peak, "precision": "bf16"}]),
        "accelerator/old": _part("NVIDIA", "Ampere (GA102)", name="NVIDIA Old", peak_compute=[{**peak, "precision": "fp8"}]),
        "accelerator/tpu": _part("Google", "", name="Google TPU", peak_compute=[{**peak, "precision": "bf16"}]),
        "accelerator/none": _part("NVIDIA", "Hopper"),
        "hardware-target/t-old": {"name": "Old", "summary": "s", "sources": [{"source": "s"}], "platform": "cuda",
                                  "order": 1, "accelerators": ["old"]},
        "hardware-target/t-new": {"name": "New", "summary": "s", "sources": [{"source": "s"}], "platform": "cuda",
                                  "order": 2, "accelerators": ["new"]}})
    view = format_map(atlas.index, atlas.views.tallies, {})
    assert [c.short for c in view.columns] == ["BF16", "FP8"]
    assert [(v.vendor, [(g.name, [(r.short, r.statuses) for r in g.rows]) for g in v.generations]) for v in view.vendors] == [
        ("NVIDIA", [("Ampere", [("Old", ("none", "native"))]), ("Hopper", [("New", ("native", "emulated"))])]),
        ("Google", [("", [("TPU", ("native", "emulated"))])])]
    assert view.unlisted == ("none",)
    assert [(p.precision, p.tflops, p.source) for p in view.vendors[0].generations[1].rows[0].cells[1].peaks] == [("bf16", 100.0, "s")]
    assert [[v.vendor for v in panel] for panel in split_panels(view.vendors, 2)] == [["NVIDIA"], ["Google"]]


def test_listing_keeps_the_spaces_of_its_separator() -> None:
    from generators.render.template_globals import listing
    assert str(listing(["fp8", "a|b"])) == "fp8, a&#124;b"
    assert str(listing(["x", "y"], separator=" or ")) == "x or y" and str(listing([], "none recorded")) == "none recorded"


def test_an_amd_target_stands_for_the_parts_of_its_gfx_id_and_is_labelled_by_it() -> None:
    from generators.derive.matrix import column_of, target_label
    from generators.derive.members import members, targets_of

    from .memory_atlas import atlas_of
    target = {"summary": "s", "sources": [{"source": "s"}], "platform": "rocm"}
    atlas = atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "accelerator/mi300x": _part("AMD", "CDNA3", name="AMD Instinct MI300X", category="datacenter-gpu", gfx_target="gfx942"),
        "accelerator/mi325x": _part("AMD", "CDNA3", name="AMD Instinct MI325X", category="datacenter-gpu", gfx_target="gfx942"),
        "accelerator/igpu": _part("AMD", "RDNA 3.5", name="AMD Radeon 8060S (Strix Halo iGPU, gfx1151)",
                                  category="consumer-gpu", gfx_target="gfx1151"),
        "hardware-target/amd-gfx942": {**target, "name": "AMD gfx942 (CDNA 3)", "gfx": "gfx942", "compute_capability": 94,
                                       "order": 1},
        "hardware-target/amd-gfx1151": {**target, "name": "AMD gfx1151 (RDNA 3.5)", "gfx": "gfx1151",
                                        "compute_capability": 115, "order": 2}})
    cdna3 = atlas.index.must("hardware-target", "amd-gfx942")
    assert members(atlas.index, cdna3) == ("mi300x", "mi325x")
    assert targets_of(atlas.index, "igpu") == ["amd-gfx1151"]
    column = column_of(cdna3, atlas.index)
    assert (column.vendor, column.short, column.detail, column.compact) == ("AMD", "gfx942", "MI300X/MI325X", True)
    assert target_label(atlas.index, atlas.index.must("hardware-target", "amd-gfx1151")) == "AMD gfx1151 · Radeon 8060S"


def test_a_cuda_column_names_every_capability_its_members_state() -> None:
    from generators.derive.matrix import column_of

    from .memory_atlas import atlas_of
    target = {"summary": "s", "sources": [{"source": "s"}], "platform": "cuda", "compute_capability": 120}
    atlas = atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "accelerator/rtx": _part("NVIDIA", "Blackwell", compute_capability="12.0"),
        "accelerator/spark": _part("NVIDIA", "Blackwell", compute_capability="12.1"),
        "hardware-target/both": {**target, "name": "NVIDIA SM 12.x", "order": 1, "accelerators": ["spark", "rtx"]},
        "hardware-target/one": {**target, "name": "NVIDIA SM 12.0", "order": 2, "accelerators": ["rtx"]},
        "hardware-target/none": {**target, "name": "NVIDIA SM 12.0 (none listed)", "order": 3}})
    shorts = {t.id: column_of(t, atlas.index).short for t in atlas.index.all("hardware-target")}
    assert shorts == {"both": "SM 12.0/12.1", "one": "SM 12.0", "none": "SM 12.0"}


def test_a_part_and_its_target_read_as_one_label_without_nested_parentheses() -> None:
    """'NVIDIA A10 — SM 8.6 · Ampere', not 'NVIDIA A10 (NVIDIA SM 8.6 (Ampere))': the target's parenthetical follows
    a middle dot and the vendor is said once; a part is answered through the first target (in order) standing for it."""
    from generators.derive.matrix import part_label, part_targets, target_label

    from .memory_atlas import atlas_of
    target = {"summary": "s", "sources": [{"source": "s"}], "platform": "cuda", "compute_capability": 86}
    atlas = atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "accelerator/a10": _part("NVIDIA", "Ampere", name="NVIDIA A10", compute_capability="8.6"),
        "accelerator/epyc": _part("AMD", "Zen 4", name="AMD EPYC Genoa"),
        "hardware-target/sm86": {**target, "name": "NVIDIA SM 8.6 (Ampere)", "order": 2, "accelerators": ["a10"]},
        "hardware-target/any": {**target, "name": "NVIDIA any (all of them)", "order": 3, "accelerators": ["a10"]},
        "hardware-target/cpu": {"summary": "s", "sources": [{"source": "s"}], "platform": "cpu", "cpu_arch": "x86_64",
                                "name": "x86 CPU, AVX512 (no AMX)", "order": 1, "accelerators": ["epyc"]}})
    index = atlas.index
    sm86, cpu = index.must("hardware-target", "sm86"), index.must("hardware-target", "cpu")
    a10, epyc = index.must("accelerator", "a10"), index.must("accelerator", "epyc")
    assert target_label(index, sm86) == "NVIDIA SM 8.6 · Ampere"
    assert part_label(index, a10, sm86) == "NVIDIA A10 — SM 8.6 · Ampere"
    assert part_label(index, epyc, cpu) == "AMD EPYC Genoa — x86 CPU, AVX512 · no AMX"
    assert part_targets(index) == {"epyc": "cpu", "a10": "sm86"}


def test_of_the_formats_a_checkpoint_allows_a_cell_computes_in_those_every_part_runs_natively() -> None:
    """FP8 block scaling allows FP8 E4M3 or MXFP8: on parts that all run E4M3 and none MXFP8 the cell computes in E4M3;
    where all or none run them the list stays (the format map's emulated notice speaks for the rest)."""
    from generators.derive.answers import natively_computed
    hopper = {"h100": frozenset({"fp8-e4m3", "int8-w8a8"}), "h200": frozenset({"fp8-e4m3"})}
    assert natively_computed(("fp8-e4m3", "mxfp8"), frozenset(hopper), hopper) == ("fp8-e4m3",)
    blackwell = {"b200": frozenset({"fp8-e4m3", "mxfp8"})}
    assert natively_computed(("fp8-e4m3", "mxfp8"), frozenset(blackwell), blackwell) == ("fp8-e4m3", "mxfp8")
    mixed = {**hopper, **blackwell}  # one part lacks MXFP8: only E4M3 is native on every part
    assert natively_computed(("fp8-e4m3", "mxfp8"), frozenset(mixed), mixed) == ("fp8-e4m3",)
    cdna2 = {"mi250x": frozenset({"int8-w8a8"})}
    assert natively_computed(("fp8-e4m3", "mxfp8"), frozenset(cdna2), cdna2) == ("fp8-e4m3", "mxfp8")
    assert natively_computed(("fp8-e4m3", "mxfp8"), frozenset({"unknown"}), hopper) == ("fp8-e4m3", "mxfp8")


def test_a_cpu_targets_matrix_instructions_do_not_narrow_what_a_kernel_computes_in(real_atlas) -> None:
    """Neoverse V2 (arm-cpu) has a BF16 matrix instruction and no FP16 one, but MLX's CPU loop multiplies in the
    model's dtype, so its cells there keep FP16 or BF16 rather than narrowing to BF16 (finding nv234)."""
    assert "bf16" in real_atlas.views.tallies["arm-neoverse-v2-cpu"].native
    assert "fp16" not in real_atlas.views.tallies["arm-neoverse-v2-cpu"].native
    assert real_atlas.views.answers[("mlx-lm-affine-4", "arm-cpu")].computes_in == ("fp16", "bf16")


def test_vllm_fp8_block_on_hopper_computes_in_e4m3_alone(real_atlas) -> None:
    answers = real_atlas.views.answers
    assert answers[("vllm-fp8-block", "nvidia-sm90")].computes_in == ("fp8-e4m3",)
    assert set(answers[("vllm-fp8-block", "nvidia-sm100")].computes_in) == {"fp8-e4m3", "mxfp8"}


def test_a_kernel_that_applies_float32_block_scales_computes_in_fp8_e4m3_not_mxfp8(real_atlas) -> None:
    """vLLM's Triton FP8 MoE experts and Triton block-FP8 GEMM, and the AITER block GEMM it hands float32 scales, state
    `block_scales: float32` (accumulator += tl.dot(a, b) * a_scale * b_scale), so a block-scaled checkpoint computes in
    E4M3 through them, not MXFP8, even on gfx950, which runs both natively; a kernel that states no scale kind keeps
    both (DeepGEMM on SM100, handed UE8M0 scales)."""
    answers = real_atlas.views.answers
    for target in ("amd-gfx1151", "amd-gfx906", "amd-gfx90a"):
        assert answers[("vllm-fp8-block-moe", target)].computes_in == ("fp8-e4m3",)
        assert answers[("vllm-fp8-block", target)].computes_in == ("fp8-e4m3",)
    assert answers[("vllm-fp8-block", "amd-gfx950")].computes_in == ("fp8-e4m3",)
    assert answers[("vllm-fp8-block", "amd-gfx942")].computes_in == ("fp8-e4m3-fnuz",)
    assert set(answers[("vllm-fp8-block-moe", "nvidia-sm100")].computes_in) == {"fp8-e4m3", "mxfp8"}
    assert set(answers[("vllm-fp8-block", "nvidia-sm120")].computes_in) == {"fp8-e4m3", "mxfp8"}
