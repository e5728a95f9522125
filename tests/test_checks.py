"""Every check with a passing and a failing case, asserting the full message."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generators.build import check_tree
from generators.checks import REGISTRY, run_checks
from generators.checks.base import Check
from generators.checks.trap_severity import SEVERITY_OF_EFFECT
from generators.checks.trap_silent import CORRUPTS_OUTPUT, WHY as WHY_NOT_SILENT
from generators.model.fields import ENUMS



def problems_of(tree, rule):
    atlas, problems = check_tree(tree)
    return [str(p) for p in problems if p.rule == rule]


def edit(tree, relative, old, new):
    path = tree / relative
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new))


def test_mini_tree_passes_every_check(tree):
    atlas, problems = check_tree(tree)
    assert problems == []


def test_stated_support_is_checked_against_the_derivation(tree):
    edit(tree, "records/formats/fmt-fp4.yaml", "  - accelerators: [acc-big]", "  - accelerators: [acc-big, acc-old]")
    assert problems_of(tree, "stated-support") == [
        "records/formats/fmt-fp4.yaml:11:5: error: [stated-support] stated_native[0]: the source lists ['acc-old'] as "
        "native, but the accelerators' peak figures and their targets' matrix instructions make 'fmt-fp4' native on "
        "['acc-big']; correct the accelerator's "
        "peaks, or add `explained_by:` naming a finding that explains the disagreement"]


def test_a_checkpoint_format_is_never_native_and_a_stale_explanation_fails(tree):
    edit(tree, "records/formats/fmt-int4.yaml", "format_class: hardware\npeak_precision: int4\nemulated_via: [bf16]",
         "format_class: checkpoint")
    edit(tree, "records/formats/fmt-fp4.yaml", "    sources: [{source: src-doc}]\nstated_emulated",
         "    sources: [{source: src-doc}]\n    explained_by: cpu-cell-wrong\nstated_emulated")
    assert problems_of(tree, "stated-support") == [
        "records/formats/fmt-fp4.yaml:13:19: error: [stated-support] stated_native[0].explained_by: stale explanation: "
        "every accelerator listed is derived native; remove explained_by",
        "records/formats/fmt-int4.yaml:8:5: error: [stated-support] stated_emulated[0]: the source lists ['acc-big', "
        "'acc-old'] as emulated, but 'fmt-int4' is a checkpoint format, and only hardware formats can be native or "
        "emulated; correct the accelerator's peaks, or add `explained_by:` naming a finding that explains the disagreement"]


def test_stated_tallies_are_checked_against_the_derivation(tree):
    edit(tree, "records/accelerators/acc-big.yaml", "{native: 1,", "{native: 2,")
    assert problems_of(tree, "stated-tallies") == [
        "records/accelerators/acc-big.yaml:13:5: error: [stated-tallies] stated_tallies[0]: 'src-doc' states counts the "
        "peak figures do not give (native: stated 2, derived 1 ['fmt-fp4']); add `explained_by:` naming a finding that "
        "explains the difference, or correct the peaks"]


def test_matrix_shape_row_length_and_legend(tree):
    edit(tree, "records/support-matrices/pub-table.yaml", '["✅", "✅", "❌"]', '["✅", "?"]')
    assert problems_of(tree, "matrix-shape") == [
        "records/support-matrices/pub-table.yaml:13:5: error: [matrix-shape] cells[0]: row 'INT4 (W4A16)' has 2 cells for 3 columns",
        "records/support-matrices/pub-table.yaml:13:11: error: [matrix-shape] cells[0][1]: symbol '?' has no legend entry; "
        "add it to legend with its verdict"]


def test_unexplained_disagreement_fails(tree):
    (tree / "records/findings/cpu-cell-wrong.yaml").unlink()
    assert problems_of(tree, "published-explained") == [
        "records/support-matrices/pub-table.yaml:13:16: error: [published-explained] cells[0][2]: published '❌' (no) at "
        "['INT4 (W4A16)', 'x86 CPU'] but the dispatch rules derive 'yes'; fix the mapping or add a finding whose explains "
        "names this cell"]


def test_stale_finding_fails(tree):
    edit(tree, "records/support-matrices/pub-table.yaml", '["✅", "✅", "❌"]', '["✅", "✅", "✅"]')
    assert problems_of(tree, "published-explained") == [
        "records/findings/cpu-cell-wrong.yaml:10:5: error: [published-explained] explains[0]: stale explanation: pub-table "
        "['INT4 (W4A16)', 'x86 CPU'] is published '✅' and derived 'yes', which agree; remove this entry"]


def test_finding_naming_a_cell_that_does_not_exist(tree):
    edit(tree, "records/findings/cpu-cell-wrong.yaml", "column: x86 CPU", "column: Arm CPU")
    messages = problems_of(tree, "published-explained")
    assert ("records/findings/cpu-cell-wrong.yaml:10:5: error: [published-explained] explains[0]: pub-table has no cell "
            "at row 'INT4 (W4A16)', column 'Arm CPU'; fix the labels") in messages


def test_target_members_capability(tree):
    edit(tree, "records/hardware-targets/gpu-sm90.yaml", "accelerators: [acc-big]", "accelerators: [acc-big, acc-old]")
    assert problems_of(tree, "target-members") == [
        "records/hardware-targets/gpu-sm90.yaml:5:25: error: [target-members] accelerators[1]: 'acc-old' has compute "
        "capability 8.0 (records/accelerators/acc-old.yaml) but this target is 90"]


def test_target_members_cpu(tree):
    edit(tree, "records/hardware-targets/cpu-avx512.yaml", "accelerators: [acc-cpu]", "accelerators: [acc-cpu, acc-old]")
    assert problems_of(tree, "target-members") == [
        "records/hardware-targets/cpu-avx512.yaml:6:25: error: [target-members] accelerators[1]: 'acc-old' is a "
        "datacenter-gpu, not a cpu, but this is a CPU target"]


def test_benchmark_baseline_unit(tree):
    edit(tree, "records/benchmarks/b-ref.yaml", "unit: points", "unit: percent")
    assert problems_of(tree, "benchmark-baseline") == [
        "records/benchmarks/b-quant.yaml:9:23: error: [benchmark-baseline] baseline.benchmark: baseline 'b-ref' has unit "
        "'percent' (records/benchmarks/b-ref.yaml), this benchmark 'points'; compare like with like"]


def test_benchmark_is_not_its_own_baseline(tree):
    edit(tree, "records/benchmarks/b-quant.yaml", "baseline: {benchmark: b-ref}", "baseline: {benchmark: b-quant}")
    assert problems_of(tree, "benchmark-baseline") == [
        "records/benchmarks/b-quant.yaml:9:23: error: [benchmark-baseline] baseline.benchmark: a benchmark cannot be its own baseline"]


def test_scheme_candidates_duplicate_platform(tree):
    edit(tree, "records/schemes/sch-w4a16.yaml", "  - platform: cpu\n", "  - platform: cuda\n")
    assert problems_of(tree, "scheme-candidates") == [
        "records/schemes/sch-w4a16.yaml:15:15: error: [scheme-candidates] candidates[1].platform: platform 'cuda' already "
        "has a candidate list at candidates[0]"]


def test_scheme_fallback_names_another_scheme_of_the_same_engine(tree):
    edit(tree, "records/schemes/sch-w4a16.yaml", "capability_gate: {min: 75}",
         "capability_gate: {min: 75, on_failure: sch-w4a16}")
    assert problems_of(tree, "scheme-fallback") == [
        "records/schemes/sch-w4a16.yaml:10:40: error: [scheme-fallback] capability_gate.on_failure: a scheme cannot be "
        "what the engine returns instead of itself; name another scheme or remove on_failure"]


def test_other_layers_is_stated_on_expert_schemes_only_and_names_a_dense_scheme_of_the_engine(tree):
    experts = tree / "records/schemes/sch-moe.yaml"
    experts.write_text((tree / "records/schemes/sch-w4a16.yaml").read_text().replace(
        "formats: [fmt-int4]\n", "formats: [fmt-int4]\nlayers: experts\n"))
    assert problems_of(tree, "other-layers") == [
        "records/schemes/sch-moe.yaml:5:9: error: [other-layers] layers: an expert-layer scheme states what the engine "
        "gives its checkpoint's other linear layers: add other_layers with `scheme` (the dense-layer scheme whose cells "
        "describe them) or `no_scheme` (why none applies), and the source and locator where the engine assigns them"]
    edit(tree, "records/schemes/sch-moe.yaml", "layers: experts\n",
         "layers: experts\nother_layers: {scheme: sch-moe, source: src-code, locator: here}\n")
    (tree / "records/engines/other.yaml").write_text((tree / "records/engines/eng.yaml").read_text())
    (tree / "records/schemes/sch-other.yaml").write_text(
        (tree / "records/schemes/sch-w4a16.yaml").read_text().replace("engine: eng", "engine: other"))
    edit(tree, "records/schemes/sch-w4a16.yaml", "formats: [fmt-int4]\n",
         "formats: [fmt-int4]\nother_layers: {no_scheme: none, source: src-code, locator: here}\n")
    assert problems_of(tree, "other-layers") == [
        "records/schemes/sch-moe.yaml:6:24: error: [other-layers] other_layers.scheme: scheme 'sch-moe' "
        "(records/schemes/sch-moe.yaml) describes expert layers too; name the scheme whose cells describe the "
        "checkpoint's other (dense) linear layers",
        "records/schemes/sch-w4a16.yaml:5:15: error: [other-layers] other_layers: only a scheme with `layers: experts` "
        "names the scheme of its checkpoint's other layers; remove other_layers"]
    edit(tree, "records/schemes/sch-moe.yaml", "scheme: sch-moe,", "scheme: sch-other,")
    edit(tree, "records/schemes/sch-w4a16.yaml", "other_layers: {no_scheme: none, source: src-code, locator: here}\n", "")
    assert problems_of(tree, "other-layers") == [
        "records/schemes/sch-moe.yaml:6:24: error: [other-layers] other_layers.scheme: scheme 'sch-other' belongs to "
        "engine 'other' (records/schemes/sch-other.yaml), not 'eng': the engine that loads the experts loads the other "
        "layers too"]
    edit(tree, "records/schemes/sch-moe.yaml", "scheme: sch-other,", "scheme: sch-w4a16,")
    assert problems_of(tree, "other-layers") == []


def test_scheme_substitution_names_another_scheme_substituted_no_further(tree):
    other = tree / "records/schemes/sch-w8a8.yaml"
    substituted = ("    kernels: [k-cpu]\n    substitution: {scheme: sch-w4a16, setting: --backend, values: [cpu], "
                   "locator: here}\n")
    other.write_text((tree / "records/schemes/sch-w4a16.yaml").read_text().replace("    kernels: [k-cpu]\n", substituted))
    assert problems_of(tree, "scheme-substitution") == []
    edit(tree, "records/schemes/sch-w4a16.yaml", "    kernels: [k-cpu]\n", substituted.replace("sch-w4a16", "sch-w8a8"))
    assert problems_of(tree, "scheme-substitution") == [
        "records/schemes/sch-w4a16.yaml:17:28: error: [scheme-substitution] candidates[1].substitution.scheme: scheme "
        "'sch-w8a8' (records/schemes/sch-w8a8.yaml) is itself substituted on cpu by 'sch-w4a16'; the cell follows one "
        "step only, so name the scheme the engine finally returns",
        "records/schemes/sch-w8a8.yaml:17:28: error: [scheme-substitution] candidates[1].substitution.scheme: scheme "
        "'sch-w4a16' (records/schemes/sch-w4a16.yaml) is itself substituted on cpu by 'sch-w8a8'; the cell follows one "
        "step only, so name the scheme the engine finally returns"]
    edit(tree, "records/schemes/sch-w4a16.yaml", "scheme: sch-w8a8,", "scheme: sch-w4a16,")
    (tree / "records/engines/other.yaml").write_text((tree / "records/engines/eng.yaml").read_text())
    edit(tree, "records/schemes/sch-w8a8.yaml", "engine: eng", "engine: other")
    assert problems_of(tree, "scheme-substitution") == [
        "records/schemes/sch-w4a16.yaml:17:28: error: [scheme-substitution] candidates[1].substitution.scheme: a scheme "
        "cannot be what the engine returns instead of itself; name another scheme or remove the substitution",
        "records/schemes/sch-w8a8.yaml:17:28: error: [scheme-substitution] candidates[1].substitution.scheme: scheme "
        "'sch-w4a16' belongs to engine 'eng' (records/schemes/sch-w4a16.yaml), not 'other'"]


def test_a_gates_after_installs_names_a_fact_of_its_first_kernels_requirements(tree):
    edit(tree, "records/schemes/sch-w4a16.yaml", "capability_gate: {min: 75}",
         "capability_gate: {min: 75, after_installs: [pkg]}")
    assert problems_of(tree, "gate-after-installs") == [
        "records/schemes/sch-w4a16.yaml:10:45: error: [gate-after-installs] capability_gate.after_installs[0]: no "
        "requirement of the first candidate kernel on the gate's platforms is met by install fact 'pkg'; name a fact "
        "one of them lists in met_by_install"]
    edit(tree, "records/kernels/k-hopper.yaml", "reason_verbatim: true}\n  - {check: capability-exact",
         "reason_verbatim: true}\n  - {check: package, value: pkg, met_by_install: [pkg], reason: needs pkg}\n"
         "  - {check: capability-exact")
    assert problems_of(tree, "gate-after-installs") == []


def test_scheme_fallback_is_followed_one_step_only(tree):
    other = tree / "records/schemes/sch-w8a16.yaml"
    other.write_text((tree / "records/schemes/sch-w4a16.yaml").read_text().replace(
        "capability_gate: {min: 75}", "capability_gate: {min: 70, on_failure: sch-w4a16}"))
    edit(tree, "records/schemes/sch-w4a16.yaml", "capability_gate: {min: 75}",
         "capability_gate: {min: 75, on_failure: sch-w8a16}")
    assert problems_of(tree, "scheme-fallback") == [
        "records/schemes/sch-w4a16.yaml:10:40: error: [scheme-fallback] capability_gate.on_failure: scheme 'sch-w8a16' "
        "(records/schemes/sch-w8a16.yaml) hands its own checkpoints on to 'sch-w4a16'; the cell follows one step only, "
        "so name the scheme the engine finally returns",
        "records/schemes/sch-w8a16.yaml:10:40: error: [scheme-fallback] capability_gate.on_failure: scheme 'sch-w4a16' "
        "(records/schemes/sch-w4a16.yaml) hands its own checkpoints on to 'sch-w8a16'; the cell follows one step only, "
        "so name the scheme the engine finally returns"]


def test_contested_resolution_must_concern_the_record(tree):
    path = tree / "records/formats/fmt-int4.yaml"
    path.write_text(path.read_text() + "contested:\n  - field: quality_note\n    resolution: cpu-cell-wrong\n    upheld: 0\n    claims:\n"
                    "      - {value: a, sources: [{source: src-doc}]}\n      - {value: b, sources: [{source: src-code}]}\n")
    assert problems_of(tree, "contested-resolution") == [
        "records/formats/fmt-int4.yaml:17:17: error: [contested-resolution] contested[0].resolution: finding "
        "'cpu-cell-wrong' does not list 'format/fmt-int4' in its concerns (records/findings/cpu-cell-wrong.yaml); "
        "add it there or pick the finding that does"]


def _contest(tree, relative, field, upheld, values, resolution="cpu-cell-wrong"):
    """Append a contest of `field` with one claim per value; `upheld` None leaves out the key."""
    claims = "".join(f"      - {{value: {v}, sources: [{{source: src-doc}}]}}\n" for v in values)
    settled = f"    resolution: {resolution}\n" if resolution else ""
    settled += f"    upheld: {upheld}\n" if upheld is not None else ""
    path = tree / relative
    path.write_text(path.read_text() + f"contested:\n  - field: {field}\n{settled}    claims:\n{claims}")


def test_contested_upheld_claim_is_the_records_value(tree):
    _contest(tree, "records/formats/fmt-int4.yaml", "weight_bits", 1, [4, 3])
    assert problems_of(tree, "contested-upheld") == [
        "records/formats/fmt-int4.yaml:5:14: error: [contested-upheld] weight_bits: states 4 but contest 'weight_bits' "
        "upholds 3 (claim 1, settled by cpu-cell-wrong); state the upheld value here and keep the other as a claim, "
        "or correct `upheld`"]


def test_contested_upheld_agrees_with_the_record_passes(tree):
    _contest(tree, "records/formats/fmt-int4.yaml", "weight_bits", 0, [4, 3])
    assert problems_of(tree, "contested-upheld") == []


def test_contested_upheld_losing_figure_left_in_a_sourced_list_fails(tree):
    edit(tree, "records/accelerators/acc-big.yaml", "  - {value: 4000, source: src-doc}\n",
         "  - {value: 4000, source: src-doc}\n  - {value: 3900, source: src-code}\n")
    _contest(tree, "records/accelerators/acc-big.yaml", "memory_bandwidth_gbs", 0, [4000, 3900])
    assert [p.split(": error: ")[0] for p in problems_of(tree, "contested-upheld")] == [
        "records/accelerators/acc-big.yaml:8:13"]


def test_contested_upheld_peak_label_names_the_peak_compute_entries(tree):
    _contest(tree, "records/accelerators/acc-big.yaml", "peak_compute fp8 dense", 1, [2000, 1900])
    found = problems_of(tree, "contested-upheld")
    assert len(found) == 1 and "peak_compute[1].tflops: states 2000 but contest" in found[0]


def test_contested_upheld_peak_label_matching_no_entry_is_reported(tree):
    """A label whose precision no peak_compute entry states (fp4 where the record says mxfp4) compares nothing,
    so a wrong figure behind it would pass unseen: the label itself is reported."""
    _contest(tree, "records/accelerators/acc-big.yaml", "peak_compute fp4 dense", 0, [2000, 1900])
    found = problems_of(tree, "contested-upheld")
    assert [p.split(": error: ")[0] for p in found] == ["records/accelerators/acc-big.yaml:17:12"]
    assert "states no peak_compute entry of that precision and sparsity" in found[0]


def test_contested_upheld_names_one_of_the_claims(tree):
    _contest(tree, "records/formats/fmt-int4.yaml", "weight_bits", 2, [4, 3])
    assert [p.split("] ")[1] for p in problems_of(tree, "contested-upheld")] == [
        "contested[0].upheld: upheld is 2 but the contest has 2 claims (counted from 0)"]


def test_a_resolution_without_upheld_is_a_schema_error(tree):
    _contest(tree, "records/formats/fmt-int4.yaml", "weight_bits", None, [4, 3])
    _, problems = check_tree(tree)
    assert any("upheld" in str(p) for p in problems), [str(p) for p in problems]


def test_a_crashing_check_becomes_a_problem_and_others_still_run(tree):
    atlas, _ = check_tree(tree)

    def boom(_atlas):
        raise RuntimeError("bad data shape")

    problems = run_checks(atlas, (Check("boom", "Always crashes.", "tree", boom),) + REGISTRY)
    assert [str(p) for p in problems] == [
        "generators/checks:1:1: error: [boom] check crashed: RuntimeError: bad data shape"]


def test_every_check_has_a_name_a_rule_and_a_scope():
    names = [c.name for c in REGISTRY]
    assert len(names) == len(set(names))
    for check in REGISTRY:
        assert check.description.endswith(".") and check.scope


def test_every_check_has_a_sibling_test():
    from pathlib import Path
    source = "".join(p.read_text(encoding="utf-8") for p in sorted(Path(__file__).parent.glob("test_checks*.py")))
    for check in REGISTRY:
        assert f'"{check.name}"' in source, f"no test names check {check.name!r}"


def test_dispatch_provenance(tree):
    edit(tree, "records/kernels/k-generic.yaml", "code: {source: src-code, locator: GenericKernel}\n", "")
    edit(tree, "records/sources/src-code.yaml", "revision: v1.0\n", "")
    edit(tree, "records/sources/src-code.yaml", "package: exampleengine==1.0\n", "")
    pinned = ("names no revision or package version; dispatch rules change between releases, "
              "so pin the one that was read")
    assert problems_of(tree, "dispatch-provenance") == [
        f"records/kernels/k-cpu.yaml:5:16: error: [dispatch-provenance] code.source: source 'src-code' "
        f"(records/sources/src-code.yaml) {pinned}",
        "records/kernels/k-generic.yaml:1:1: error: [dispatch-provenance] kernel 'k-generic' is used in dispatch but "
        "has no code citation; add code: {source: <source id>, locator: <class or function>}",
        f"records/kernels/k-hopper.yaml:5:16: error: [dispatch-provenance] code.source: source 'src-code' "
        f"(records/sources/src-code.yaml) {pinned}",
        f"records/schemes/sch-w4a16.yaml:17:16: error: [dispatch-provenance] code.source: source 'src-code' "
        f"(records/sources/src-code.yaml) {pinned}",
    ]


def test_parts_sharing_a_die_share_native_formats(tree):
    edit(tree, "records/accelerators/acc-big.yaml", "category: datacenter-gpu\n", "category: datacenter-gpu\ndie: D1\n")
    edit(tree, "records/accelerators/acc-old.yaml", "category: datacenter-gpu\n", "category: datacenter-gpu\ndie: D1\n")
    assert problems_of(tree, "shared-die") == [
        "records/accelerators/acc-old.yaml:5:6: error: [shared-die] die: shares die 'D1' with 'acc-big' but its peaks "
        "make it native for nothing more and not for ['fmt-fp4']; record the missing peaks, or name the finding that "
        "explains the difference in `die_difference`"]
    edit(tree, "records/accelerators/acc-old.yaml", "die: D1\n", "die: D1\ndie_difference: cpu-cell-wrong\n")
    assert problems_of(tree, "shared-die") == []
    edit(tree, "records/accelerators/acc-old.yaml", "die: D1\n", "die: D2\n")
    assert problems_of(tree, "shared-die") == [
        "records/accelerators/acc-old.yaml:6:17: error: [shared-die] die_difference: stale explanation: no part sharing "
        "this die differs in native formats; remove die_difference"]


def test_parts_sharing_a_die_name_one_architecture(tree):
    edit(tree, "records/accelerators/acc-big.yaml", "category: datacenter-gpu\n",
         "category: datacenter-gpu\ndie: D1\narchitecture: Xe2-HPG (D1)\n")
    edit(tree, "records/accelerators/acc-old.yaml", "category: datacenter-gpu\n",
         "category: datacenter-gpu\ndie: D1\ndie_difference: cpu-cell-wrong\narchitecture: Xe2 (D1)\n")
    assert problems_of(tree, "die-architecture") == [
        "records/accelerators/acc-old.yaml:7:15: error: [die-architecture] architecture: shares die 'D1' with 'acc-big', "
        "whose architecture is 'Xe2-HPG', but names 'Xe2'; name the die's architecture the same way on both (cite the "
        "vendor's name for it)"]
    edit(tree, "records/accelerators/acc-old.yaml", "architecture: Xe2 (D1)\n", "architecture: Xe2-HPG\n")
    assert problems_of(tree, "die-architecture") == []


def test_memory_bandwidth_is_bounded_by_the_bus(tree):
    edit(tree, "records/accelerators/acc-big.yaml", "memory_bandwidth_gbs:\n",
         "memory_type: HBM3\nmemory_bus_bits:\n  - {value: 1024, source: src-doc}\nmemory_bandwidth_gbs:\n")
    assert problems_of(tree, "memory-bandwidth") == [
        "records/accelerators/acc-big.yaml:10:13: error: [memory-bandwidth] memory_bandwidth_gbs[0].value: 4000 GB/s is "
        "more than a 1024-bit HBM3 bus can carry (819 GB/s at 6.4 Gbit/s per pin); if the source gives a link speed, "
        "record it under interconnect_bandwidth_gbs"]
    edit(tree, "records/accelerators/acc-big.yaml", "value: 1024", "value: 5120")
    assert problems_of(tree, "memory-bandwidth") == []


def test_ridge_points_stay_within_physical_bounds(tree):
    edit(tree, "records/accelerators/acc-big.yaml", "tflops: 2000,", "tflops: 2000000,")
    assert problems_of(tree, "ridge-bounds") == [
        "records/accelerators/acc-big.yaml:10:47: error: [ridge-bounds] peak_compute[1].tflops: fp8 2e+06 TFLOPS over "
        "4000 GB/s gives 500000 FLOP/byte, outside 1-10,000; check the units of both figures"]


def test_a_figure_that_runs_as_another_precision_names_a_rated_one_and_no_instruction_contradicts_it(tree):
    figure = "{precision: fp8, sparsity: dense, tflops: 2000, source: src-doc}"
    edit(tree, "records/accelerators/acc-big.yaml", figure,
         "{precision: fp8, sparsity: dense, tflops: 2000, source: src-doc, "
         "runs_as: {precision: fp16, source: src-doc, locator: p. 1}}")
    assert [p.split(": error: [peak-runs-as] ")[1] for p in problems_of(tree, "peak-runs-as")] == [
        "peak_compute[1].runs_as.precision: runs as fp16, but the part states no dense fp16 figure of its own to be "
        "that rate"]
    edit(tree, "records/accelerators/acc-big.yaml", "runs_as: {precision: fp16", "runs_as: {precision: bf16")
    assert problems_of(tree, "peak-runs-as") == []
    edit(tree, "records/hardware-targets/gpu-sm90.yaml", "order: 10\n",
         "order: 10\nmatrix_formats:\n  - {precision: fp8, instruction: mma e4m3, source: src-doc, locator: l. 1}\n")
    assert [p.split(": error: [peak-runs-as] ")[1] for p in problems_of(tree, "peak-runs-as")] == [
        "peak_compute[1].runs_as: says the engines convert fp8, but gpu-sm90 list(s) a fp8 matrix instruction for the part"]


def test_a_kernel_taking_activations_as_given_lists_no_activation_quantized_format(tree):
    edit(tree, "records/kernels/k-generic.yaml", "registry: mixed-precision-linear\n",
         "registry: mixed-precision-linear\nactivation_handling: as-given\nformats: [fmt-int4, fmt-fp4]\n")
    assert problems_of(tree, "kernel-operands") == [
        "records/kernels/k-generic.yaml:6:21: error: [kernel-operands] formats[1]: the kernel takes activations as "
        "given (16-bit), but 'fmt-fp4' quantizes activations (records/formats/fmt-fp4.yaml); a layer in that format "
        "runs here only as a weight-only fallback, so list the format on a kernel that quantizes activations, or "
        "correct activation_handling"]


def test_a_kernel_lists_every_format_it_computes_in_a_derived_cell(tree):
    # k-hopper is the kernel of sch-w4a16 (fmt-int4) on gpu-sm90, where it runs as specified.
    edit(tree, "records/kernels/k-hopper.yaml", "registry: mixed-precision-linear\n",
         "registry: mixed-precision-linear\nformats: [fmt-fp4]\n")
    assert problems_of(tree, "kernel-formats") == [
        "records/kernels/k-hopper.yaml:5:10: error: [kernel-formats] formats: the derived cells have the engine select "
        "this kernel for scheme 'sch-w4a16', whose format 'fmt-int4' its formats do not list; list it, or correct the "
        "scheme's candidates or this kernel's requirements"]
    edit(tree, "records/kernels/k-hopper.yaml", "formats: [fmt-fp4]", "formats: [fmt-fp4, fmt-int4]")
    assert problems_of(tree, "kernel-formats") == []


def test_a_record_check_that_crashes_is_isolated_to_the_record(tree):
    from generators.checks import Check, run_checks
    atlas, _ = check_tree(tree)

    def picky(atlas, record):
        if record.id == "acc-old":
            raise ValueError("odd record")
        return iter(())

    problems = run_checks(atlas, (Check("picky", "Crashes on one record.", "record:accelerator", check_record=picky),))
    assert [str(p) for p in problems] == [
        "records/accelerators/acc-old.yaml:1:1: error: [picky] check crashed on this record: ValueError: odd record"]


def test_shape_checks_run_before_views_and_stop_the_build(tree):
    edit(tree, "records/hardware-targets/gpu-sm90.yaml", "accelerators: [acc-big]", "accelerators: [acc-big, acc-old]")
    edit(tree, "records/accelerators/acc-big.yaml", "{native: 1,", "{native: 2,")  # a views problem, not reported
    atlas, problems = check_tree(tree)
    assert atlas is None and {p.rule for p in problems} == {"target-members"}


def test_observed_cells_agreeing_observation(tree):
    from tests.test_observed_cells import _observe
    _observe(tree)
    assert problems_of(tree, "observed-cells") == []  # failing cases: tests/test_observed_cells.py


def test_gfx_capability_is_the_one_vllm_derives_from_the_gfx_id(tree):
    target = ("name: AMD gfx{gfx}\nsummary: s.\nplatform: rocm\ngfx: gfx{gfx}\ncompute_capability: {cap}\norder: 50\n"
              "sources:\n  - source: src-code\n")
    (tree / "records/hardware-targets/amd-a.yaml").write_text(target.format(gfx="90a", cap=90))
    (tree / "records/hardware-targets/amd-b.yaml").write_text(target.format(gfx="1151", cap=115))
    assert problems_of(tree, "gfx-capability") == []
    (tree / "records/hardware-targets/amd-b.yaml").write_text(target.format(gfx="1151", cap=111))
    assert problems_of(tree, "gfx-capability") == [
        "records/hardware-targets/amd-b.yaml:5:21: error: [gfx-capability] compute_capability: vLLM derives capability "
        "115 from 'gfx1151', but this target states 111; state 115"]


def test_cuda_arch_names_stand_for_the_targets_own_parts(tree):
    """'sm_90a' builds for capability 9.0 only and 'sm_100f' for the 10.x family: a name no part of the target has is
    an error, as is any nvcc name on a ROCm target."""
    target = "records/hardware-targets/gpu-sm90.yaml"
    edit(tree, target, "compute_capability: 90\n", "compute_capability: 90\ncuda_arch_names: [sm_90a, sm_90f]\n")
    assert problems_of(tree, "cuda-arch-names") == []
    edit(tree, target, "[sm_90a, sm_90f]", "[sm_90a, sm_103a, sm_120f]")
    assert problems_of(tree, "cuda-arch-names") == [
        "records/hardware-targets/gpu-sm90.yaml:5:27: error: [cuda-arch-names] cuda_arch_names[1]: sm_103a builds for "
        "capability 103 only, which neither this target nor its accelerators state (they state 90)",
        "records/hardware-targets/gpu-sm90.yaml:5:36: error: [cuda-arch-names] cuda_arch_names[2]: sm_120f builds for "
        "the capability 12.x family, which none of this target's parts belongs to (they state 90)"]
    edit(tree, target, "platform: cuda", "platform: rocm")
    assert [p.split("] ")[1] for p in problems_of(tree, "cuda-arch-names")] == [
        "cuda_arch_names: cuda_arch_names on a rocm target: only CUDA targets have nvcc architecture names"]


def test_auto_dtypes_are_dtypes_the_target_lets_a_model_run_in(tree):
    target = "records/hardware-targets/gpu-sm90.yaml"
    edit(tree, target, "compute_capability: 90\n", "compute_capability: 90\ndtypes_engine: eng\n"
         "model_dtypes: [float16, float32]\nauto_dtypes: [float16, float32]\n")
    assert problems_of(tree, "auto-dtypes") == []
    edit(tree, target, "auto_dtypes: [float16, float32]", "auto_dtypes: [bfloat16, float16]")
    assert problems_of(tree, "auto-dtypes") == [
        "records/hardware-targets/gpu-sm90.yaml:7:15: error: [auto-dtypes] auto_dtypes[0]: --dtype auto cannot give "
        "bfloat16 here: this target's model_dtypes (float16, float32) refuse it before loading"]


def test_a_requirement_met_by_install_names_a_fact_the_engines_default_install_provides(tree):
    edit(tree, "records/kernels/k-generic.yaml", "reason_verbatim: true}\n  - {check: activation-type",
         "reason_verbatim: true}\n  - {check: package, value: fast, reason: needs fast, met_by_install: [fast-pkg]}\n"
         "  - {check: activation-type")
    assert problems_of(tree, "install-facts") == [
        "records/kernels/k-generic.yaml:8:72: error: [install-facts] requirements[1].met_by_install[0]: no default "
        "install of engine 'eng' states 'fast-pkg' (its record states no default_install)"]
    edit(tree, "records/engines/eng.yaml", "category: serving-engine\n",
         "category: serving-engine\nversion_read: '2.0'\ndefault_install:\n  - platform: cuda\n    route: pip install eng\n"
         "    release: '1.0'\n    provides:\n      - {fact: fast-pkg, text: fast 1.0, source: src-doc}\n")
    assert problems_of(tree, "install-facts") == [
        "records/engines/eng.yaml:8:14: error: [install-facts] default_install[0].release: the default install was "
        "read for '1.0' but the record reads '2.0'; check its facts against '2.0' and update the release"]
    edit(tree, "records/engines/eng.yaml", "release: '1.0'", "release: '2.0'")
    assert problems_of(tree, "install-facts") == []
    edit(tree, "records/engines/eng.yaml", "      - {fact: fast-pkg, text: fast 1.0, source: src-doc}\n",
         "      - {fact: fast-pkg, text: fast 1.0, source: src-doc}\n    lacks:\n"
         "      - {fact: fast-pkg, text: only an extra, source: src-doc}\n")
    assert problems_of(tree, "install-facts") == [
        "records/engines/eng.yaml:12:16: error: [install-facts] default_install[0].lacks[0].fact: 'fast-pkg' is both "
        "provided and lacking in the same install"]


FAST_CHECK = ("runtime_checks:\n  - {id: fast, check: package, value: fast, condition: the fast package installed, "
              "source: src-doc, locator: has_fast}\n")


def test_a_runtime_check_is_stated_once_on_the_engine_and_named_by_its_kernels(tree):
    edit(tree, "records/kernels/k-generic.yaml", "reason_verbatim: true}\n  - {check: activation-type",
         "reason_verbatim: true}\n  - {check: package, value: fast, reason: needs fast}\n  - {check: activation-type")
    edit(tree, "records/kernels/k-hopper.yaml", "  - {check: weight-only",
         "  - {check: package, value: fast, reason: no fast}\n  - {check: weight-only")
    assert problems_of(tree, "runtime-checks") == [
        "records/kernels/k-generic.yaml:8:5: error: [runtime-checks] requirements[1]: the package test 'fast' is also "
        "stated by k-hopper: state it once in engine 'eng''s runtime_checks and name it with `uses`",
        "records/kernels/k-hopper.yaml:9:5: error: [runtime-checks] requirements[2]: the package test 'fast' is also "
        "stated by k-generic: state it once in engine 'eng''s runtime_checks and name it with `uses`"]
    edit(tree, "records/engines/eng.yaml", "sources:\n", FAST_CHECK + "sources:\n")
    assert problems_of(tree, "runtime-checks")[0] == (
        "records/engines/eng.yaml:7:5: error: [runtime-checks] runtime_checks[0]: no kernel of engine 'eng' uses "
        "runtime check 'fast': remove it or name it in a kernel requirement's `uses`")
    assert problems_of(tree, "runtime-checks")[1] == (
        "records/kernels/k-generic.yaml:8:5: error: [runtime-checks] requirements[1]: engine 'eng' states this "
        "package test as runtime check 'fast': write `uses: fast` instead of check and value")
    edit(tree, "records/kernels/k-generic.yaml", "{check: package, value: fast, reason: needs fast}",
         "{uses: fast, reason: needs fast}")
    edit(tree, "records/kernels/k-hopper.yaml", "{check: package, value: fast, reason: no fast}",
         "{uses: fasst, reason: no fast}")
    assert problems_of(tree, "runtime-checks") == [
        "records/kernels/k-hopper.yaml:9:12: error: [runtime-checks] requirements[2].uses: engine 'eng' states no "
        "runtime check 'fasst' (it states: fast)"]
    edit(tree, "records/kernels/k-hopper.yaml", "{uses: fasst, reason: no fast}", "{uses: fast, reason: no fast}")
    assert problems_of(tree, "runtime-checks") == []


NO_CPU = "no_path:\n  - {platform: cpu, selector: import eng, locator: the extension is CUDA only, sources: [{source: src-doc}]}\n"


def test_a_platform_without_a_path_is_stated_once_on_the_engine_and_marked_by_its_schemes(tree):
    scheme = tree / "records/schemes/sch-w4a16.yaml"
    (tree / "records/schemes/sch-copy.yaml").write_text(scheme.read_text().replace("Example W4A16", "Copied W4A16"))
    for name in ("sch-w4a16", "sch-copy"):
        edit(tree, f"records/schemes/{name}.yaml", "kernels: [k-cpu]", "kernels: []\n    locator: the extension is CUDA only")
    assert problems_of(tree, "no-path") == [
        "records/schemes/sch-copy.yaml:17:14: error: [no-path] candidates[1].locator: the empty 'cpu' list's locator is "
        "also sch-w4a16's: state it once in engine 'eng''s no_path and write each list as `kernels: []` with "
        "`no_path: true`",
        "records/schemes/sch-w4a16.yaml:17:14: error: [no-path] candidates[1].locator: the empty 'cpu' list's locator is "
        "also sch-copy's: state it once in engine 'eng''s no_path and write each list as `kernels: []` with "
        "`no_path: true`"]
    edit(tree, "records/engines/eng.yaml", "sources:\n", NO_CPU + "sources:\n")
    assert problems_of(tree, "no-path")[1] == (
        "records/schemes/sch-copy.yaml:15:5: error: [no-path] candidates[1]: engine 'eng' states that it has no path on "
        "'cpu' (no_path[0]); write this list as `kernels: []` with `no_path: true`, or correct the engine's no_path")
    for name in ("sch-w4a16", "sch-copy"):
        edit(tree, f"records/schemes/{name}.yaml", "kernels: []\n    locator: the extension is CUDA only",
             "kernels: [k-cpu]\n    no_path: true")
    assert problems_of(tree, "no-path")[0] == (
        "records/schemes/sch-copy.yaml:16:14: error: [no-path] candidates[1].kernels: a list marked no_path names no "
        "kernel, but this one names 1; empty it, or drop no_path")
    for name in ("sch-w4a16", "sch-copy"):
        edit(tree, f"records/schemes/{name}.yaml", "kernels: [k-cpu]\n", "kernels: []\n")
    assert problems_of(tree, "no-path") == []
    edit(tree, "records/engines/eng.yaml", "platform: cpu", "platform: xpu")
    assert problems_of(tree, "no-path") == [
        "records/engines/eng.yaml:7:5: error: [no-path] no_path[0]: no scheme of engine 'eng' marks its 'xpu' list "
        "`no_path: true`: remove the entry or mark the schemes' lists",
        "records/schemes/sch-copy.yaml:17:14: error: [no-path] candidates[1].no_path: engine 'eng' states no no_path "
        "entry for 'cpu'; add one (platform, selector, locator, sources) to the engine record, or give this list its "
        "own kernels",
        "records/schemes/sch-w4a16.yaml:17:14: error: [no-path] candidates[1].no_path: engine 'eng' states no no_path "
        "entry for 'cpu'; add one (platform, selector, locator, sources) to the engine record, or give this list its "
        "own kernels"]


def test_a_list_marked_no_path_states_no_text_of_its_own(tree):
    edit(tree, "records/engines/eng.yaml", "sources:\n", NO_CPU + "sources:\n")
    edit(tree, "records/schemes/sch-w4a16.yaml", "kernels: [k-cpu]", "kernels: []\n    no_path: true\n    locator: again")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.rule == "schema"] == [
        "records/schemes/sch-w4a16.yaml:15:5: error: [schema] candidates[1]: the fields 'no_path' and 'locator' exclude "
        "each other; keep one"]


GPU_WALK = ("candidate_lists:\n  - id: gpu-walk\n    platform: cuda\n    kernels: [k-hopper, k-generic]\n"
            "    failure_message: \"Failed to find a kernel\"\n")


def _two_schemes_walking_one_list(tree):
    """sch-copy is sch-w4a16 under another name: both type the same CUDA and CPU lists."""
    scheme = tree / "records/schemes/sch-w4a16.yaml"
    (tree / "records/schemes/sch-copy.yaml").write_text(scheme.read_text().replace("Example W4A16", "Copied W4A16"))


def test_a_list_several_schemes_walk_alike_is_stated_once_on_the_engine_and_named_by_them(tree):
    _two_schemes_walking_one_list(tree)
    copies = problems_of(tree, "candidate-lists")
    assert copies[0] == (
        "records/schemes/sch-copy.yaml:12:5: error: [candidate-lists] candidates[0]: the same 'cuda' list is typed in "
        "sch-w4a16: state it once in engine 'eng''s candidate_lists and write `list: ID` in each scheme's list")
    assert len(copies) == 4  # the CUDA and the CPU list, in each scheme
    edit(tree, "records/engines/eng.yaml", "sources:\n", GPU_WALK + "sources:\n")
    assert problems_of(tree, "candidate-lists")[:2] == [
        "records/engines/eng.yaml:7:5: error: [candidate-lists] candidate_lists[0]: candidate list 'gpu-walk': no "
        "scheme names it; a list one scheme walks belongs in that scheme's candidates",
        "records/schemes/sch-copy.yaml:12:5: error: [candidate-lists] candidates[0]: this 'cuda' list is engine "
        "'eng''s candidate list 'gpu-walk' typed again: write `list: gpu-walk` in place of its kernels, selector, "
        "locator and sources"]
    for name in ("sch-w4a16", "sch-copy"):
        edit(tree, f"records/schemes/{name}.yaml", "    kernels: [k-hopper, k-generic]\n    failure_message: \"Failed "
             "to find a kernel\"\n", "    list: gpu-walk\n")
        edit(tree, f"records/schemes/{name}.yaml", "kernels: [k-cpu]", "kernels: [k-cpu, k-generic]" if name == "sch-copy"
             else "kernels: [k-cpu]")
    assert problems_of(tree, "candidate-lists") == []


def _name_lists(tree, first: str, second: str) -> None:
    """sch-w4a16's GPU candidates name list `first` and sch-copy's name `second`; sch-copy's CPU list gains k-generic
    so that the two schemes' CPU lists differ (only the named GPU lists are in question)."""
    for name, given in (("sch-w4a16", first), ("sch-copy", second)):
        edit(tree, f"records/schemes/{name}.yaml", "    kernels: [k-hopper, k-generic]\n    failure_message: \"Failed "
             "to find a kernel\"\n", f"    list: {given}\n")
    edit(tree, "records/schemes/sch-copy.yaml", "kernels: [k-cpu]", "kernels: [k-cpu, k-generic]")


def test_a_list_naming_a_list_its_engine_does_not_state_is_an_error_at_the_name(tree):
    _two_schemes_walking_one_list(tree)
    edit(tree, "records/engines/eng.yaml", "sources:\n", GPU_WALK + "sources:\n")
    _name_lists(tree, "gpu-walk", "gpu-wlak")
    assert problems_of(tree, "candidate-lists") == [
        "records/engines/eng.yaml:7:5: error: [candidate-lists] candidate_lists[0]: candidate list 'gpu-walk': only "
        "scheme 'sch-w4a16' names it; a list one scheme walks belongs in that scheme's candidates",
        "records/schemes/sch-copy.yaml:13:11: error: [candidate-lists] candidates[0].list: engine 'eng' states no "
        "candidate list 'gpu-wlak' (did you mean 'gpu-walk'?); it states: gpu-walk"]
    edit(tree, "records/schemes/sch-copy.yaml", "list: gpu-wlak", "list: gpu-walk")
    edit(tree, "records/engines/eng.yaml", "    platform: cuda\n", "    platform: cpu\n")
    assert problems_of(tree, "candidate-lists")[0] == (
        "records/schemes/sch-copy.yaml:13:11: error: [candidate-lists] candidates[0].list: candidate list 'gpu-walk' of "
        "engine 'eng' is for 'cpu', not 'cuda': name it in the scheme's 'cpu' list")


def test_an_engine_stating_one_list_under_two_ids_is_an_error_at_the_second(tree):
    _two_schemes_walking_one_list(tree)
    again = GPU_WALK.replace("candidate_lists:\n", "").replace("gpu-walk", "gpu-again")
    edit(tree, "records/engines/eng.yaml", "sources:\n", GPU_WALK + again + "sources:\n")
    _name_lists(tree, "gpu-walk", "gpu-again")
    for name, given, cpu in (("sch-third", "gpu-walk", "k-hopper"), ("sch-fourth", "gpu-again", "k-cpu")):
        (tree / f"records/schemes/{name}.yaml").write_text(  # each list named by two schemes, each CPU list its own
            (tree / "records/schemes/sch-w4a16.yaml").read_text().replace("Example W4A16", name)
            .replace("list: gpu-walk", f"list: {given}").replace("kernels: [k-cpu]", f"kernels: [k-generic, {cpu}]"))
    assert problems_of(tree, "candidate-lists") == [
        "records/engines/eng.yaml:11:5: error: [candidate-lists] candidate_lists[1]: candidate list 'gpu-again' is list "
        "'gpu-walk' again (the same kernels, selector, locator and sources on 'cuda'): keep 'gpu-walk' and name it in "
        "the schemes naming 'gpu-again'"]


def test_a_list_naming_an_engines_list_states_none_of_its_own(tree):
    edit(tree, "records/engines/eng.yaml", "sources:\n", GPU_WALK + "sources:\n")
    edit(tree, "records/schemes/sch-w4a16.yaml", "    failure_message: \"Failed to find a kernel\"\n",
         "    list: gpu-walk\n")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.rule == "schema"] == [
        "records/schemes/sch-w4a16.yaml:12:5: error: [schema] candidates[0]: the fields 'list' and 'kernels' exclude "
        "each other; keep one"]


def test_a_requirement_that_uses_a_runtime_check_states_none_of_its_fields(tree):
    edit(tree, "records/engines/eng.yaml", "sources:\n", FAST_CHECK + "sources:\n")
    edit(tree, "records/kernels/k-generic.yaml", "reason_verbatim: true}\n  - {check: activation-type",
         "reason_verbatim: true}\n  - {uses: fast, check: package, reason: needs fast}\n  - {check: activation-type")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.rule == "schema"] == [
        "records/kernels/k-generic.yaml:8:5: error: [schema] requirements[1]: the fields 'uses' and 'check' exclude "
        "each other; keep one"]


def test_a_runtime_checks_install_facts_are_stated_by_the_engine(tree):
    edit(tree, "records/engines/eng.yaml", "sources:\n",
         FAST_CHECK.replace("locator: has_fast}", "locator: has_fast, met_by_install: [fast-pkg]}") + "sources:\n")
    edit(tree, "records/kernels/k-generic.yaml", "reason_verbatim: true}\n  - {check: activation-type",
         "reason_verbatim: true}\n  - {uses: fast, reason: needs fast}\n  - {check: activation-type")
    assert problems_of(tree, "install-facts") == [
        "records/engines/eng.yaml:7:137: error: [install-facts] runtime_checks[0].met_by_install[0]: no default install "
        "of this engine states 'fast-pkg' (it states no default_install)"]


def test_only_a_trap_that_corrupts_output_is_silent(tree):
    assert set(ENUMS["gotcha.effect"]) == CORRUPTS_OUTPUT | set(WHY_NOT_SILENT)  # every effect is one or the other
    stated = json.loads((Path(__file__).parents[1] / "schema/gotcha.schema.json").read_text())["properties"]["silent"]
    assert "whose effect is garbage or degraded" in stated["description"] and "trap-silent" in stated["description"]
    assert problems_of(tree, "trap-silent") == []  # a silent garbage trap, a loud one that stops
    edit(tree, "records/gotchas/trap-loud.yaml", "silent: false", "silent: true")
    assert problems_of(tree, "trap-silent") == [
        "records/gotchas/trap-loud.yaml:4:9: error: [trap-silent] silent: a trap with effect 'stops' (nothing is "
        "served) corrupts no output, so it cannot be silent; set silent: false, or correct effect if the evidence "
        "shows degraded or garbage output"]
    edit(tree, "records/gotchas/trap-loud.yaml", "effect: stops", "effect: degraded")
    edit(tree, "records/gotchas/trap-loud.yaml", "severity: blocker", "severity: major")
    assert problems_of(tree, "trap-silent") == []
    edit(tree, "records/gotchas/trap-silent.yaml", "effect: garbage", "effect: misleads")
    assert [p.split(": error: ")[0] for p in problems_of(tree, "trap-silent")] == ["records/gotchas/trap-silent.yaml:4:9"]


def test_trap_severity_follows_from_the_effect(tree):
    assert set(SEVERITY_OF_EFFECT) == set(ENUMS["gotcha.effect"])
    assert set(SEVERITY_OF_EFFECT.values()) == set(ENUMS["gotcha.severity"])
    stated = json.loads((Path(__file__).parents[1] / "schema/gotcha.schema.json").read_text())["properties"]["severity"]
    for level in ENUMS["gotcha.severity"]:  # the schema states the same rule, level by level
        rule = re.search(rf"\b{level}: effect ([a-z ]+),", stated["description"])
        assert rule and set(rule[1].split(" or ")) == {e for e, s in SEVERITY_OF_EFFECT.items() if s == level}, level
    assert problems_of(tree, "trap-severity") == []
    edit(tree, "records/gotchas/trap-silent.yaml", "severity: blocker", "severity: major")
    assert problems_of(tree, "trap-severity") == [
        "records/gotchas/trap-silent.yaml:3:11: error: [trap-severity] severity: 'major' does not follow from effect "
        "'garbage' (what is served is unusable), which makes a trap 'blocker'; set severity: blocker, or correct "
        "effect if it misstates what the trap does"]


def test_format_encoding(tree):
    """Formats sharing a peak precision each name a distinct encoding, which their element_format begins with."""
    edit(tree, "records/formats/fmt-int4.yaml", "peak_precision: int4", "peak_precision: fp8")
    found = problems_of(tree, "format-encoding")
    assert [p.split(": error: ")[0] for p in found] == ["records/formats/fmt-fp4.yaml:8:17", "records/formats/fmt-int4.yaml:7:17"]
    assert "shares peak precision 'fp8' with 'fmt-int4'; name its `encoding`" in found[0]
    edit(tree, "records/formats/fmt-fp4.yaml", "peak_precision: fp8", "peak_precision: fp8\nencoding: e4m3\nelement_format: E2M1")
    edit(tree, "records/formats/fmt-int4.yaml", "peak_precision: fp8", "peak_precision: fp8\nencoding: e4m3")
    found = problems_of(tree, "format-encoding")
    assert [p.split(": error: [format-encoding] ")[1] for p in found] == [
        "encoding: 'fmt-int4' names the same encoding in the same precision",
        "element_format: element_format 'E2M1' does not begin with the encoding 'E4M3' the record names",
        "encoding: 'fmt-fp4' names the same encoding in the same precision"]
    edit(tree, "records/formats/fmt-int4.yaml", "encoding: e4m3", "encoding: e5m2")
    edit(tree, "records/formats/fmt-fp4.yaml", "element_format: E2M1", "element_format: E4M3 (float8_e4m3fn)")
    assert problems_of(tree, "format-encoding") == []
    # fields that differ yet read alike where "Computes in" says a format by its precision label (an fp8 format
    # naming a FNUZ encoding and the fp8-fnuz one): a reader would take two multiplies for one
    edit(tree, "records/formats/fmt-int4.yaml", "peak_precision: fp8\nencoding: e5m2", "peak_precision: fp8-fnuz\nencoding: e4m3fnuz")
    edit(tree, "records/formats/fmt-fp4.yaml", "encoding: e4m3\nelement_format: E4M3 (float8_e4m3fn)", "encoding: e4m3fnuz")
    found = problems_of(tree, "format-encoding")
    assert [p.split(": error: [format-encoding] ")[1] for p in found] == [
        "peak_precision: \"Computes in\" would say 'FP8 E4M3 FNUZ' for it and for 'fmt-int4', whose peak precision or "
        "encoding differs; correct the fields",
        "peak_precision: \"Computes in\" would say 'FP8 E4M3 FNUZ' for it and for 'fmt-fp4', whose peak precision or "
        "encoding differs; correct the fields"]
    # an encoding never stands for the precision: MXFP8 with E4M3 elements is not said as plain FP8 E4M3
    edit(tree, "records/formats/fmt-int4.yaml", "peak_precision: fp8-fnuz\nencoding: e4m3fnuz", "peak_precision: mxfp8\nencoding: e4m3")
    edit(tree, "records/formats/fmt-fp4.yaml", "encoding: e4m3fnuz", "encoding: e4m3")
    assert problems_of(tree, "format-encoding") == []


def test_a_setting_that_chooses_what_a_kernel_computes_in_gives_its_precision_by_default(tree):
    kernel = "records/kernels/k-generic.yaml"
    edit(tree, kernel, "code: {source: src-code, locator: GenericKernel}\n",
         "code: {source: src-code, locator: GenericKernel}\n"
         "computes_in:\n  precision: fp32\n  source: src-code\n  locator: GenericKernel\n"
         "  setting: {name: compute_dtype, default: float32, values: [bfloat16, float16], read_from: the config,"
         " source: src-code, locator: forward}\n")
    assert problems_of(tree, "computes-in-setting") == []
    edit(tree, kernel, "precision: fp32", "precision: fp16")
    edit(tree, kernel, "values: [bfloat16, float16]", "values: [float32, int8]")
    assert problems_of(tree, "computes-in-setting") == [
        "records/kernels/k-generic.yaml:10:43: error: [computes-in-setting] computes_in.setting.default: compute_dtype "
        "defaults to 'float32', which multiplies in fp32, but computes_in.precision says 'fp16'; state the precision "
        "the default gives",
        "records/kernels/k-generic.yaml:10:61: error: [computes-in-setting] computes_in.setting.values[0]: 'float32' is "
        "the default; values lists only the others",
        "records/kernels/k-generic.yaml:10:70: error: [computes-in-setting] computes_in.setting.values[1]: 'int8' is not "
        "a float dtype a multiply runs in (expected one of: float32, bfloat16, float16) nor an integer level with an "
        "entry in precisions"]


INTEGER_SETTING = ("  setting:\n    name: accuracy_level\n    default: 0\n    values: [1, 4]\n"
                   "    precisions:\n    - {value: 0, precision: fp32}\n    - {value: 1, precision: fp32}\n"
                   "    - {value: 4, precision: int8}\n    read_from: the node attribute\n"
                   "    stored_in: the node\n    written_by:\n"
                   "    - {writer: a builder, value: 4, source: src-code, locator: build}\n"
                   "    source: src-code\n    locator: forward\n")


def test_an_integer_setting_gives_each_level_the_precision_it_states(tree):
    """ONNX Runtime's accuracy_level is an integer node attribute (ortacc33): each level's precision comes from
    `precisions`, which names only levels the setting takes, once each, and a tool writes only such a level."""
    kernel = "records/kernels/k-generic.yaml"
    edit(tree, kernel, "code: {source: src-code, locator: GenericKernel}\n",
         "code: {source: src-code, locator: GenericKernel}\n"
         "computes_in:\n  precision: fp32\n  source: src-code\n  locator: GenericKernel\n" + INTEGER_SETTING)
    assert problems_of(tree, "computes-in-setting") == []
    edit(tree, kernel, "    - {value: 0, precision: fp32}\n", "    - {value: 0, precision: int8}\n")
    edit(tree, kernel, "    - {value: 4, precision: int8}\n", "    - {value: 4, precision: int8}\n    - {value: 7, precision: int8}\n"
         "    - {value: 1, precision: fp16}\n")
    edit(tree, kernel, "- {writer: a builder, value: 4,", "- {writer: a builder, value: 5,")
    edit(tree, kernel, "values: [1, 4]", "values: [1, 4, 3]")
    assert [p.split(" error: [computes-in-setting] ")[1] for p in problems_of(tree, "computes-in-setting")] == [
        "computes_in.setting.default: accuracy_level defaults to 0, which multiplies in int8, but "
        "computes_in.precision says 'fp32'; state the precision the default gives",
        "computes_in.setting.values[2]: 3 is not a float dtype a multiply runs in (expected one of: float32, "
        "bfloat16, float16) nor an integer level with an entry in precisions",
        "computes_in.setting.precisions[3].value: 7 is neither the default nor one of values",
        "computes_in.setting.precisions[4].value: 1 has two entries",
        "computes_in.setting.written_by[0].value: a builder writes 5, which is neither the default nor one of values"]


def test_the_schema_rejects_a_malformed_integer_setting_where_it_is_written(tree):
    kernel = "records/kernels/k-generic.yaml"
    edit(tree, kernel, "code: {source: src-code, locator: GenericKernel}\n",
         "code: {source: src-code, locator: GenericKernel}\n"
         "computes_in:\n  precision: fp32\n  source: src-code\n  locator: GenericKernel\n"
         + INTEGER_SETTING.replace("{value: 4, precision: int8}", "{value: '4', precision: int9}")
         .replace("locator: build}", "locator: build, by: me}"))
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.rule == "schema"] == [
        "records/kernels/k-generic.yaml:17:15: error: [schema] computes_in.setting.precisions[2].value: expected a "
        "whole number, found the text '4'",
        "records/kernels/k-generic.yaml:17:31: error: [schema] computes_in.setting.precisions[2].precision: 'int9' is "
        "not one of 'fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'fp8', 'fp8-fnuz', 'int8', 'fp6', 'fp4', 'nvfp4', 'mxfp8', "
        "'mxfp6', 'mxfp4', 'int4' (did you mean 'int8'?)",
        "records/kernels/k-generic.yaml:21:71: error: [schema] computes_in.setting.written_by[0].by: unknown field 'by'"]


def test_only_an_informational_gate_says_what_a_reader_also_needs(tree):
    kernel = "records/kernels/k-generic.yaml"
    edit(tree, kernel, "sources:\n  - source: src-code",
         "external_gates:\n  - {description: builds an extension on first use, effect: informational,"
         " needs: a host C++ compiler}\nsources:\n  - source: src-code")
    assert problems_of(tree, "gate-needs") == []
    edit(tree, kernel, "effect: informational", "effect: excludes")
    assert problems_of(tree, "gate-needs") == [
        "records/kernels/k-generic.yaml:10:78: error: [gate-needs] external_gates[0].needs: a gate with effect "
        "'excludes' decides the verdict, and the answers say it as a reason; `needs` belongs on an informational gate "
        "(remove it, or make the gate informational)"]


def test_a_requirement_saying_where_the_model_runs_instead_is_a_scoped_kept_other_condition(tree):
    kernel = "records/kernels/k-generic.yaml"
    placed = ("  - {check: other, when: {platform: [cpu]}, condition: device_map names the GPU, elsewhere: the host CPU,"
              " reason: loads on the CPU, reason_verbatim: false}\n")
    edit(tree, kernel, "sources:\n  - source: src-code", placed + "sources:\n  - source: src-code")
    assert problems_of(tree, "elsewhere-placement") == []
    edit(tree, kernel, "{check: other, when: {platform: [cpu]}, condition: device_map names the GPU,",
         "{check: env, declines: false,")
    assert problems_of(tree, "elsewhere-placement") == [
        "records/kernels/k-generic.yaml:9:46: error: [elsewhere-placement] requirements[2].elsewhere: says the model "
        "runs on 'the host CPU' when the condition does not hold, so the requirement needs check: other, a condition, "
        "when.platform, no declines: false: an `other` check whose condition is the placement (stated here or in "
        "the engine's runtime check it `uses`), scoped to the platforms where the engine places the model "
        "elsewhere, and kept, not declined or failed (remove `elsewhere`, or state the requirement so)"]


PLACEMENT_CHECK = ("runtime_checks:\n  - {id: gpu-placement, check: other, value: device_map, condition: device_map names "
                   "the GPU, source: src-doc, locator: check_and_set_device_map}\n")


def test_a_placement_several_kernels_need_is_stated_once_on_the_engine_and_named_with_uses(tree):
    # the check and the condition come from the engine's runtime check: the requirement states only where it is read
    edit(tree, "records/engines/eng.yaml", "sources:\n", PLACEMENT_CHECK + "sources:\n")
    placed = ("  - {uses: gpu-placement, when: {platform: [cpu]}, elsewhere: the host CPU, reason: loads on the CPU,"
              " reason_verbatim: false}\n")
    edit(tree, "records/kernels/k-generic.yaml", "sources:\n  - source: src-code", placed + "sources:\n  - source: src-code")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.rule in ("elsewhere-placement", "runtime-checks", "schema")] == []
    edit(tree, "records/kernels/k-generic.yaml", "elsewhere: the host CPU,", "elsewhere: the host CPU, after_selection: true,")
    assert problems_of(tree, "elsewhere-placement") == [
        "records/kernels/k-generic.yaml:9:63: error: [elsewhere-placement] requirements[2].elsewhere: says the model "
        "runs on 'the host CPU' when the condition does not hold, so the requirement needs no after_selection: an "
        "`other` check whose condition is the placement (stated here or in the engine's runtime check it `uses`), "
        "scoped to the platforms where the engine places the model elsewhere, and kept, not declined or failed "
        "(remove `elsewhere`, or state the requirement so)"]


def test_a_condition_naming_the_device_is_read_only_where_it_names_one(tree):
    """A runtime check whose condition names {device} states the device per platform, and a requirement using it is
    scoped to those platforms: unscoped, or on a platform it names no device for, a cell would show a placeholder."""
    named = PLACEMENT_CHECK.replace("condition: device_map names the GPU,",
                                    "condition: 'device_map=\"{device}\"', devices: {cuda: cuda},")
    edit(tree, "records/engines/eng.yaml", "sources:\n", named + "sources:\n")
    edit(tree, "records/kernels/k-generic.yaml", "sources:\n  - source: src-code",
         "  - {uses: gpu-placement, when: {platform: [cuda]}, reason: fails on CPU tensors}\nsources:\n  - source: src-code")
    assert problems_of(tree, "runtime-checks") == []
    edit(tree, "records/kernels/k-generic.yaml", "when: {platform: [cuda]}, reason: fails", "when: {platform: [cuda, cpu]}, reason: fails")
    assert problems_of(tree, "runtime-checks") == [
        "records/kernels/k-generic.yaml:9:12: error: [runtime-checks] requirements[2].uses: runtime check "
        "'gpu-placement' names {device}, which it states for cuda: scope this requirement with when.platform to those "
        "platforms (not cpu)"]
    edit(tree, "records/engines/eng.yaml", ", devices: {cuda: cuda}", "")
    assert "records/engines/eng.yaml:7:5: error: [runtime-checks] runtime_checks[0]: runtime check 'gpu-placement': a " \
           "condition naming {device} and `devices` go together (state both, or neither)" in problems_of(tree, "runtime-checks")


def test_a_runtime_check_of_another_kind_states_its_condition(tree):
    edit(tree, "records/engines/eng.yaml", "sources:\n",
         PLACEMENT_CHECK.replace("condition: device_map names the GPU, ", "") + "sources:\n")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.rule == "schema"] == [
        "records/engines/eng.yaml:7:5: error: [schema] runtime_checks[0]: missing required field 'condition'"]


def test_a_way_without_a_matrix_instruction_names_only_formats_the_map_rates_emulated_on_every_part(tree):
    # acc-big, gpu-sm90's only part, is rated native in fmt-fp4 and emulated in fmt-int4 by the mini tree's figures.
    edit(tree, "records/kernels/k-hopper.yaml", "registry: mixed-precision-linear\n",
         "registry: mixed-precision-linear\nwithout_matrix_instruction:\n"
         "  - {targets: [gpu-sm90], formats: [fmt-fp4], computes: vector, source: src-code, locator: l. 1}\n")
    assert problems_of(tree, "no-matrix-way") == [
        "records/kernels/k-hopper.yaml:6:5: error: [no-matrix-way] without_matrix_instruction[0]: says no matrix "
        "instruction takes 'fmt-fp4' on gpu-sm90, but the format map rates it native on its part 'acc-big'; correct "
        "the entry or the part's figures"]
    edit(tree, "records/kernels/k-hopper.yaml", "formats: [fmt-fp4], computes", "formats: [fmt-int4], computes")
    assert problems_of(tree, "no-matrix-way") == []


def test_a_target_without_matrix_instructions_contradicts_no_instruction_list_or_matrix_peak(tree):
    """no_matrix_instructions says the parts have no matrix instruction in any precision: a matrix_formats entry, a
    no_matrix_formats entry (implied, typed twice) and a part's matrix peak are each reported; without them, none."""
    target, part = "records/hardware-targets/gpu-sm80.yaml", "records/accelerators/acc-old.yaml"
    statement = ("no_matrix_instructions: {source: src-doc, locator: feature set, quote: 'def X'}\n"
                 "matrix_formats:\n  - {precision: int8, instruction: mma, source: src-doc, locator: l. 1}\n"
                 "no_matrix_formats:\n  - {precision: fp8, source: src-doc, locator: l. 2}\n")
    edit(tree, target, "order: 20\n", "order: 20\n" + statement)
    assert [p.split(" error: [no-matrix-instructions] ")[1] for p in problems_of(tree, "no-matrix-instructions")] == [
        "no_matrix_instructions: says its parts have no matrix instruction, but its part 'acc-old' states a dense bf16 "
        "matrix peak; correct the part's record or this statement",
        "matrix_formats[0]: lists a matrix instruction in 'int8', but no_matrix_instructions says the target has none "
        "in any precision; correct one of them",
        "no_matrix_formats[0]: states no matrix instruction in 'fp8', which no_matrix_instructions already says for "
        "every precision; remove the entry (move its evidence to no_matrix_instructions if it adds any)"]
    edit(tree, target, statement, "no_matrix_instructions: {source: src-doc, locator: feature set, quote: 'def X'}\n")
    edit(tree, part, "peak_compute:\n  - {precision: bf16, sparsity: dense, tflops: 300, source: src-doc}\n", "")
    assert problems_of(tree, "no-matrix-instructions") == []
    other = "records/hardware-targets/gpu-sm90.yaml"
    edit(tree, other, "accelerators: [acc-big]\n", "accelerators: [acc-big, acc-old]\nmatrix_formats:\n"
         "  - {precision: bf16, instruction: mma, source: src-doc, locator: l. 3}\n")
    assert [p.split(" error: [no-matrix-instructions] ")[1] for p in problems_of(tree, "no-matrix-instructions")] == [
        "no_matrix_instructions: says its parts have no matrix instruction, but its part 'acc-old' belongs to "
        "target 'gpu-sm90', which lists matrix instructions; correct the part's record or this statement"]


def test_a_part_states_only_matrix_formats_its_targets_leave_unstated(tree):
    """A part's own matrix_formats / no_matrix_formats add to its targets': an entry its target already states the same
    way is typed twice, one stated the other way contradicts it, and a precision in both of the part's lists
    contradicts itself; each is reported at the part's entry. A precision the target leaves open is accepted."""
    target, part = "records/hardware-targets/gpu-sm80.yaml", "records/accelerators/acc-old.yaml"
    edit(tree, target, "order: 20\n", "order: 20\nmatrix_formats:\n"
         "  - {precision: int8, instruction: mma, source: src-doc, locator: l. 1}\n"
         "no_matrix_formats:\n  - {precision: fp8, source: src-doc, locator: l. 2}\n")
    own = ("matrix_formats:\n  - {precision: fp16, instruction: mma, source: src-doc, locator: l. 3}\n"
           "no_matrix_formats:\n  - {precision: tf32, source: src-doc, locator: l. 4}\n")
    edit(tree, part, "sources:\n", own + "sources:\n")
    assert problems_of(tree, "part-matrix-formats") == []
    edit(tree, part, own, own.replace("fp16, instruction", "fp8, instruction").replace("tf32", "int8") +
         "  - {precision: fp16, source: src-doc, locator: l. 5}\n  - {precision: fp8, source: src-doc, locator: l. 6}\n")
    assert problems_of(tree, "part-matrix-formats") == [
        "records/accelerators/acc-old.yaml:9:5: error: [part-matrix-formats] matrix_formats[0]: contradicts its target "
        "'gpu-sm80', whose no_matrix_formats states 'fp8' the other way for every part; correct one of them (if the parts "
        "differ, move the target's entry to each part)",
        "records/accelerators/acc-old.yaml:11:5: error: [part-matrix-formats] no_matrix_formats[0]: contradicts its "
        "target 'gpu-sm80', whose matrix_formats states 'int8' the other way for every part; correct one of them (if the "
        "parts differ, move the target's entry to each part)",
        "records/accelerators/acc-old.yaml:13:5: error: [part-matrix-formats] no_matrix_formats[2]: restates 'fp8', which "
        "its target 'gpu-sm80' already states in its no_matrix_formats for every part; remove the entry (a part states "
        "only what its targets leave unstated)",
        "records/accelerators/acc-old.yaml:13:5: error: [part-matrix-formats] no_matrix_formats[2]: states no matrix "
        "instruction in 'fp8', but the part's own matrix_formats lists one (matrix_formats[0]); correct one of them"]



def test_a_part_states_no_matrix_format_its_own_record_or_its_siblings_contradict(tree):
    """A part's no_matrix_formats precision in which the same record states a matrix peak (without runs_as) or
    matrix_encodings contradicts it; a precision every part of a target states alike belongs on the target. A peak
    that runs_as a wider precision, and a precision only some parts state, are accepted."""
    target, part, other = ("records/hardware-targets/gpu-sm80.yaml", "records/accelerators/acc-old.yaml",
                           "records/accelerators/acc-big.yaml")
    own = "no_matrix_formats:\n  - {precision: bf16, source: src-doc, locator: l. 4}\n"
    edit(tree, part, "sources:\n", own + "sources:\n")
    assert [p.split(" error: [part-matrix-formats] ")[1] for p in problems_of(tree, "part-matrix-formats")] == [
        "no_matrix_formats[0]: states no matrix instruction in 'bf16', but the part's own record states a dense bf16 "
        "matrix peak (peak_compute[0]); correct one of them (a figure the engines reach by converting takes runs_as)"]
    edit(tree, part, own, own.replace("bf16", "fp16"))
    assert problems_of(tree, "part-matrix-formats") == []
    edit(tree, target, "accelerators: [acc-old]\n", "accelerators: [acc-old, acc-big]\n")
    assert problems_of(tree, "part-matrix-formats") == []
    edit(tree, other, "sources:\n", own.replace("bf16", "fp16") + "sources:\n")
    assert [p.split(" error: [part-matrix-formats] ")[1] for p in problems_of(tree, "part-matrix-formats")] == [
        "no_matrix_formats[0]: states 'fp16' as every part of its target 'gpu-sm80' does in its own no_matrix_formats "
        "(acc-big, acc-old); the parts do not differ, so state it once in the target's no_matrix_formats"] * 2


def test_search_ranking(monkeypatch):
    """A term the marker solver leaves level with a page that lacks it is an error at the field stating it (here with one
    marker a word at most: 'GPTQ' is two tag words on the format and on GPTQModel); the repository's records pass."""
    from generators.checks import search_ranking
    from generators.derive.search_terms import _Markers, _solved
    from tests.memory_atlas import atlas_of
    assert search_ranking.NAME == "search-ranking"
    monkeypatch.setattr(_Markers, "MOST", 1)
    _solved.cache_clear()
    try:
        atlas = atlas_of({"format/gptq": {"name": "GPTQ (one-shot PTQ)"}, "engine/gptqmodel": {"name": "GPTQModel"}})
        assert [str(p) for p in search_ranking.run(atlas)] == [
            "records/formats/gptq.yaml:1:7: error: [search-ranking] name: search for its term 'GPTQ' lists engine/gptqmodel "
            "first or level with this page: that page's tags match 2 times ('gptqmodel' and 1 marker), this page's 2; "
            "its markers on 'gptq' are at the cap. Usually a name, id, class name or alias added to engine/gptqmodel or "
            "to a record whose terms share its words set this off (derive/search_terms.py, _Markers): rename or drop "
            "the new alias, or change the solver"]
    finally:
        monkeypatch.undo()
        _solved.cache_clear()
    records = {"format/gptq": {"name": "GPTQ (one-shot PTQ)"}, "engine/gptqmodel": {"name": "GPTQModel"}}
    assert list(search_ranking.run(atlas_of(records))) == []  # the same records with MOST markers: settled


def test_trap_layers_names_the_layers_once(tree):
    edit(tree, "records/gotchas/trap-loud.yaml", "effect: stops", "effect: stops\nlayers: dense")
    assert problems_of(tree, "trap-layers") == []
    edit(tree, "records/gotchas/trap-loud.yaml", "layers: dense", "layers: dense\napplies_when:\n  layers: experts")
    assert problems_of(tree, "trap-layers") == [
        "records/gotchas/trap-loud.yaml:11:9: error: [trap-layers] layers: says both layers: dense (not listed on the "
        "other layers' answers) and applies_when.layers: experts (listed, with when it bites); keep the one its "
        "trigger needs"]


def test_trap_layers_wants_a_scheme_covering_its_layers(tree):
    """`layers: experts` on a trap whose schemes all cover dense layers would drop it from every answer: the mix-up
    with applies_when.layers (listed on the dense answers, biting with a MoE model) is refused where it is made."""
    edit(tree, "records/gotchas/trap-loud.yaml", "effect: stops", "effect: stops\nschemes: [sch-w4a16]\nlayers: dense")
    assert problems_of(tree, "trap-layers") == []
    edit(tree, "records/gotchas/trap-loud.yaml", "layers: dense", "layers: experts")
    assert problems_of(tree, "trap-layers") == [
        "records/gotchas/trap-loud.yaml:12:9: error: [trap-layers] layers: says layers: experts, but no scheme it names "
        "covers experts layers, so no answer would list it; where it bites on those schemes' answers only with a MoE "
        "model, say applies_when.layers: experts instead"]
    edit(tree, "records/gotchas/trap-loud.yaml", "schemes: [sch-w4a16]", "formats: [fmt-int4]")
    assert [p.split("] ", 1)[1] for p in problems_of(tree, "trap-layers")] == [
        "layers: says layers: experts, but no scheme of its formats covers experts layers, so no answer would list it; "
        "where it bites on those schemes' answers only with a MoE model, say applies_when.layers: experts instead"]
    edit(tree, "records/schemes/sch-w4a16.yaml", "engine: eng", "engine: eng\nlayers: experts")
    assert problems_of(tree, "trap-layers") == []  # an expert-layer scheme reads the format


def test_trap_native_names_a_hardware_format_some_part_computes(tree):
    edit(tree, "records/gotchas/trap-loud.yaml", "effect: stops", "effect: stops\nnative: [fmt-fp4]")
    assert problems_of(tree, "trap-native") == []  # native on acc-big
    edit(tree, "records/gotchas/trap-loud.yaml", "native: [fmt-fp4]", "native: [fmt-fp4, fmt-int4]")
    assert problems_of(tree, "trap-native") == [
        "records/gotchas/trap-loud.yaml:11:19: error: [trap-native] native[1]: no accelerator computes fmt-int4 "
        "natively, so the trap would bite on no part the records know of"]
    edit(tree, "records/formats/fmt-int4.yaml", "format_class: hardware\npeak_precision: int4\nemulated_via: [bf16]\n"
         "stated_emulated:\n  - accelerators: [acc-big, acc-old]\n    sources: [{source: src-doc}]\n",
         "format_class: checkpoint\n")  # a checkpoint format states no peak precision and no emulation
    assert problems_of(tree, "trap-native") == [
        "records/gotchas/trap-loud.yaml:11:19: error: [trap-native] native[1]: fmt-int4 is a checkpoint format; a part "
        "computes only hardware formats natively (name the hardware format it holds)"]


@pytest.mark.parametrize(("added", "expected"), [
    ("native: nvfp4", "records/gotchas/trap-loud.yaml:11:9: error: [schema] native: expected a list"),
    ("native: [no-such-format]", "records/gotchas/trap-loud.yaml:11:10: error: [refs] native[0]: 'no-such-format' is "
                                 "not a format id"),
    ("native: [1]", "records/gotchas/trap-loud.yaml:11:10: error: [schema] native[0]: expected text"),
    ("native: []", "records/gotchas/trap-loud.yaml:11:9: error: [schema] native: [] should be non-empty"),
    ("layers: moe", "records/gotchas/trap-loud.yaml:11:9: error: [schema] layers: 'moe' is not one of 'dense', "
                    "'experts'"),
    ("layers: [dense]", "records/gotchas/trap-loud.yaml:11:9: error: [schema] layers: "),
])
def test_hostile_trap_scope_fields_give_located_errors(tree, added, expected):
    """A wrong type or an unknown format id in `native` or `layers` is a located error, never a crash of the
    derivation or of a check."""
    edit(tree, "records/gotchas/trap-loud.yaml", "effect: stops", f"effect: stops\n{added}")
    atlas, problems = check_tree(tree)
    said = [str(p) for p in problems]
    assert any(s.startswith(expected) for s in said), said
    assert not any("crashed" in s or "Traceback" in s for s in said), said
