"""An engine that runs another engine's kernels says so once (`kernels_from` on its engine record): its schemes may then
list that engine's kernel records (checks/scheme_candidates.py), and the release those records describe must meet the
stated requirement (checks/kernels_from.py)."""
from __future__ import annotations

from generators.build import check_tree
from generators.checks.kernels_from import satisfies

from .test_checks import edit, problems_of

WRAPPER = """name: Example wrapper
summary: A generation loop over another engine's operators.
category: local-runtime
version_read: 0.3.0
sources:
  - source: src-doc
"""
RELATION = ("kernels_from: {engine: eng, requirement: '>=2.1.0', source: src-code, locator: METADATA, "
            "quote: 'Requires-Dist: eng>=2.1.0'}\n")
SCHEME = """name: Example wrapper W4A16 scheme
summary: INT4 weights run by the other engine's CPU kernel.
engine: wrap
formats: [fmt-int4]
config:
  weight_type: int4
  activation_types: [float16, bfloat16]
  group_sizes: [128]
  activation_quantized: false
candidates:
  - platform: cpu
    kernels: [k-cpu]
code: {source: src-code, locator: WrapperScheme}
sources:
  - source: src-code
"""
WRAP = "records/engines/wrap.yaml"


def with_wrapper(tree, relation=""):
    (tree / WRAP).write_text(WRAPPER + relation)
    (tree / "records/schemes/sch-wrap.yaml").write_text(SCHEME)
    edit(tree, "records/engines/eng.yaml", "category: serving-engine\n", "category: serving-engine\nversion_read: 2.1.0\n")
    return tree


def test_a_scheme_listing_another_engines_kernel_without_the_relation_fails(tree):
    with_wrapper(tree)
    assert problems_of(tree, "scheme-candidates") == [
        "records/schemes/sch-wrap.yaml:12:15: error: [scheme-candidates] candidates[0].kernels[0]: kernel 'k-cpu' "
        "belongs to engine 'eng', not 'wrap'; if 'wrap' runs the kernels of 'eng', say so once with `kernels_from` on "
        "its engine record"]


def test_with_the_relation_the_scheme_lists_the_other_engines_kernels_and_its_cell_is_derived(tree):
    with_wrapper(tree, RELATION)
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    cells = {key: cell for key, cell in atlas.views.cells.items() if key[0] == "sch-wrap"}
    assert cells and {cell.engine for cell in cells.values()} == {"wrap"}
    assert {cell.kernel for cell in cells.values()} <= {"k-cpu", None}
    assert any(cell.kernel == "k-cpu" for cell in cells.values())


def test_a_kernel_outside_both_engines_still_fails_with_the_relation(tree):
    with_wrapper(tree, RELATION)
    (tree / "records/engines/third.yaml").write_text(WRAPPER.replace("Example wrapper", "Third"))
    edit(tree, "records/kernels/k-cpu.yaml", "engine: eng", "engine: third")
    assert problems_of(tree, "scheme-candidates")[-1] == (
        "records/schemes/sch-wrap.yaml:12:15: error: [scheme-candidates] candidates[0].kernels[0]: kernel 'k-cpu' "
        "belongs to engine 'third', not 'wrap' nor 'eng', whose kernels it runs; if 'wrap' runs the kernels of "
        "'third', say so once with `kernels_from` on its engine record")


def test_a_requirement_the_read_release_does_not_meet_is_reported(tree):
    with_wrapper(tree, RELATION.replace(">=2.1.0'", ">=2.2'"))
    assert problems_of(tree, "kernels-from") == [
        "records/engines/wrap.yaml:7:42: error: [kernels-from] kernels_from.requirement: 'wrap' requires eng >=2.2, but "
        "the kernel records of 'eng' describe its release 2.1.0, which does not satisfy it; read 'eng''s kernels at a release "
        "that does (and state it as its version_read), or correct the requirement"]


def test_the_named_engine_must_state_its_release_and_the_wrapper_owns_no_kernels(tree):
    with_wrapper(tree, RELATION)
    edit(tree, "records/engines/eng.yaml", "version_read: 2.1.0\n", "")
    edit(tree, "records/kernels/k-generic.yaml", "engine: eng", "engine: wrap")
    assert problems_of(tree, "kernels-from") == [
        "records/engines/wrap.yaml:7:15: error: [kernels-from] kernels_from: kernel records k-generic belong to 'wrap', "
        "which runs the kernels of 'eng'; list the kernel records of 'eng' in its schemes instead",
        "records/engines/wrap.yaml:7:24: error: [kernels-from] kernels_from.engine: engine 'eng' states no "
        "`version_read`, so nothing says which of its releases its kernel records describe; state it there"]


def test_requirements_compare_numeric_releases():
    assert satisfies("1.32.0", ">=1.31.0") is True
    assert satisfies("v1.31", ">=1.31.0") is True
    assert satisfies("1.30.2", ">=1.31.0") is False
    assert satisfies("1.32.0", ">=1.31.0, <1.32") is False
    assert satisfies("main@001d12d", ">=1.31.0") is None


def test_a_value_the_models_carry_gives_the_answers_precision_and_must_be_one_the_setting_takes(tree):
    """ONNX Runtime GenAI's CPU builds store accuracy_level 4 in every MatMulNBits node: a scheme says so once
    (config.setting_values), its answers give level 4's precision first, and a name or value no candidate kernel's
    setting has is reported."""
    from .test_checks import INTEGER_SETTING
    with_wrapper(tree, RELATION)
    edit(tree, "records/kernels/k-cpu.yaml", "\nsources:", "\ncomputes_in:\n  precision: fp32\n  source: src-code\n"
         "  locator: CpuKernel\n" + INTEGER_SETTING + "sources:")
    carried = ("  setting_values:\n  - {setting: accuracy_level, value: 4, source: src-code, locator: build, "
               "quote: 'accuracy_level=4'}\ncandidates:")
    edit(tree, "records/schemes/sch-wrap.yaml", "\ncandidates:", "\n" + carried)
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    settings = [s.setting for answer in (a for (scheme, _), a in atlas.views.answers.items() if scheme == "sch-wrap")
                for s in answer.steps if s.setting is not None]
    assert settings and all((s.value, s.default, s.carried) == ("4", "0", True) for s in settings)
    assert all(s.as_dict()["carried"] is True for s in settings)
    others = [s.setting for (scheme, _), a in atlas.views.answers.items() if scheme == "sch-w4a16"
              for s in a.steps if s.setting is not None]
    assert others and all((s.value, s.carried) == ("0", False) and "carried" not in s.as_dict() for s in others)
    edit(tree, "records/schemes/sch-wrap.yaml", "value: 4,", "value: 5,")
    assert problems_of(tree, "scheme-candidates") == [
        "records/schemes/sch-wrap.yaml:11:38: error: [scheme-candidates] config.setting_values[0].value: "
        "accuracy_level takes 0, 1, 4 on the candidate kernels, not 5"]
    edit(tree, "records/schemes/sch-wrap.yaml", "setting: accuracy_level, value: 5,", "setting: level, value: 4,")
    assert problems_of(tree, "scheme-candidates") == [
        "records/schemes/sch-wrap.yaml:11:15: error: [scheme-candidates] config.setting_values[0].setting: no "
        "candidate kernel has a computes_in.setting named 'level' (they have accuracy_level)"]
    edit(tree, "records/schemes/sch-wrap.yaml", "setting: level, value: 4,", "setting: accuracy_level, value: 4,")
    edit(tree, "records/schemes/sch-wrap.yaml", "\ncandidates:", "\n  - {setting: accuracy_level, value: 0, source: src-code, "
         "locator: build, quote: 'accuracy_level=4'}\ncandidates:")
    assert problems_of(tree, "scheme-candidates") == [
        "records/schemes/sch-wrap.yaml:12:15: error: [scheme-candidates] config.setting_values[1].setting: "
        "accuracy_level already has the value its models carry at config.setting_values[0]; a setting carries one value"]
