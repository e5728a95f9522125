"""Selection and engine views on the mini fixture: concrete rows, stable order."""
from __future__ import annotations

from generators.build import check_tree
from generators.derive.engines import SupportRow, cell_grids, engine_support, formats_without_engine
from generators.derive.selection import (accelerators_without_dense_peaks, hardware_groups, target_selections,
                                         targets_in_order, uncovered_accelerators)


def _atlas(tree):
    atlas, problems = check_tree(tree)
    assert atlas is not None, problems
    return atlas


def test_hardware_groups_by_category_with_dense_and_sparse_apart(tree):
    atlas = _atlas(tree)
    groups = hardware_groups(atlas.index, atlas.views.tallies)
    assert [(g.category, [r.accelerator for r in g.rows]) for g in groups] == [
        ("datacenter-gpu", ["acc-big", "acc-old"]), ("cpu", ["acc-cpu"])]
    big = groups[0].rows[0]
    assert (big.native_count, big.emulated_count) == (1, 1)
    assert big.dense_precisions == ("bf16", "fp8")
    assert big.sparse_precisions == ("fp8",)
    assert [(f.value, f.source) for f in big.bandwidth_gbs] == [(4000, "src-doc")]
    assert accelerators_without_dense_peaks(atlas.index) == ("acc-cpu",)


def test_targets_follow_order_field(tree):
    atlas = _atlas(tree)
    assert [t.id for t in targets_in_order(atlas.index)] == ["gpu-sm90", "gpu-sm80", "cpu-avx512"]


def test_target_selection_rows(tree):
    atlas = _atlas(tree)
    views = atlas.views
    rows = target_selections(atlas.index, views.answers, views.tallies, views.traps)
    assert [r.target for r in rows] == ["gpu-sm90", "gpu-sm80", "cpu-avx512"]
    sm90, sm80, cpu = rows
    assert [(s.scheme, s.verdict, s.kernel, s.formats) for s in sm90.served] == [
        ("sch-w4a16", "runs", "k-hopper", ("fmt-int4",))]
    assert sm90.native == ("fmt-fp4",)
    assert [(s.scheme, s.verdict, s.kernel, s.conditions) for s in sm80.served] == [
        ("sch-w4a16", "runs-if", "k-generic", ("activation dtype in {float16}",))]
    assert [(s.kernel, s.verdict) for s in cpu.served] == [("k-cpu", "runs")]
    assert all(not r.refused and not r.traps for r in rows)


def test_uncovered_accelerators_empty_when_every_part_has_a_target(tree):
    atlas = _atlas(tree)
    assert uncovered_accelerators(atlas.index, atlas.views.tallies, atlas.views.traps) == []


def test_engine_rows_and_grid(tree):
    atlas = _atlas(tree)
    support = engine_support(atlas.index)
    assert [(e.engine, e.category) for e in support] == [("eng", "serving-engine")]
    assert support[0].rows == (SupportRow("fmt-int4", "yes", ("CUDA", "CPU"), "", "src-doc", True),)
    assert formats_without_engine(atlas.index) == ("fmt-fp4",)
    grids = cell_grids(atlas.index, atlas.views.cells)
    assert [(g.engine, g.targets) for g in grids] == [("eng", ("gpu-sm90", "gpu-sm80", "cpu-avx512"))]
    assert [(c.target, c.verdict) for c in grids[0].rows[0].cells] == [
        ("gpu-sm90", "runs"), ("gpu-sm80", "runs-if"), ("cpu-avx512", "runs")]


def test_traps_apply_by_accelerator_or_serving_kernel(tree):
    from tests.conftest import write
    write(tree, "records/gotchas/trap-kernel.yaml", "name: Kernel trap\nsummary: s.\nseverity: minor\neffect: misleads\nsilent: false\n"
          "regime: weight-only\ntrigger: t.\nsymptom: s.\nkernels: [k-hopper]\nsources:\n  - source: src-doc\n")
    write(tree, "records/gotchas/trap-part.yaml", "name: Part trap\nsummary: s.\nseverity: major\neffect: degraded\nsilent: true\n"
          "regime: backend\ntrigger: t.\nsymptom: s.\naccelerators: [acc-old]\nsources:\n  - source: src-doc\n")
    atlas = _atlas(tree)
    rows = {r.target: r.traps for r in atlas.views.target_selections}
    assert rows == {"gpu-sm90": ("trap-kernel",), "gpu-sm80": ("trap-part",), "cpu-avx512": ()}


def test_a_trap_tied_to_other_parts_does_not_follow_its_kernel(tree):
    base = "severity: minor\neffect: misleads\nsilent: false\nregime: backend\ntrigger: T.\nsymptom: S.\nsources:\n  - source: src-doc\n"
    (tree / "records/gotchas/kernel-only.yaml").write_text("name: K\nsummary: S.\nkernels: [k-generic]\n" + base)
    (tree / "records/gotchas/kernel-on-big.yaml").write_text(
        "name: KB\nsummary: S.\nkernels: [k-generic]\naccelerators: [acc-big]\n" + base)
    atlas, problems = check_tree(tree)
    assert problems == []
    sm80 = next(s for s in atlas.views.target_selections if s.target == "gpu-sm80")
    assert "kernel-only" in sm80.traps and "kernel-on-big" not in sm80.traps
    sm90 = next(s for s in atlas.views.target_selections if s.target == "gpu-sm90")
    assert "kernel-on-big" in sm90.traps


def test_schemes_served_alike_share_one_row_and_no_row_hides_a_difference(real_atlas):
    """Chapter 23's rows: each served scheme in exactly one row, every scheme of a row shown truly by the row's verdict,
    kernel, conditions, precision, next outcomes and whole checkpoint (an expert-layer scheme's), and no two rows of a target that could have been one."""
    answers, wholes = real_atlas.views.answers, real_atlas.views.whole_checkpoints
    shown = lambda cell, target: (cell.engine, cell.verdict, cell.kernel or "", cell.conditions,  # noqa: E731
                                  cell.computes_as, cell.otherwise, answers[(cell.scheme, target)].on_parts,
                                  wholes.get((cell.scheme, target)))
    grouped = 0
    parted = 0
    for selection in real_atlas.views.target_selections:
        rows, target = selection.rows, selection.target
        assert sorted(s for row in rows for s in row.schemes) == sorted(s.scheme for s in selection.served)
        for row in rows:
            cells = [s.cell for s in selection.served if s.scheme in row.schemes]
            assert {shown(c, target) for c in cells} == {shown(row.cell, target)}, (target, row.schemes)
            assert row.on_parts == answers[(row.cell.scheme, target)].on_parts, (target, row.schemes)
            assert set(row.formats) == {f for s in selection.served if s.scheme in row.schemes for f in s.formats}
            parted += bool(row.on_parts)
        assert len({shown(row.cell, target) for row in rows}) == len(rows), target
        grouped += sum(len(row.schemes) > 1 for row in rows)
    assert grouped > 19  # llama.cpp's types, ExLlamaV2's bit widths and MLX-LM's modes share rows on many targets
    assert parted  # a GB200's aarch64 host, a B300's capability 10.3: rows that need more on some part say so
