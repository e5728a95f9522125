"""The gotcha-figures check: a figure in a gotcha's summary or symptom restates a linked benchmark, a quote, a linked
record's capability or toolkit, or an estimate the record derives."""
from __future__ import annotations

import time

import pytest

from generators.checks import gotcha_figures

from generators.build import check_tree

from .test_checks import edit, problems_of

TRAP = "records/gotchas/trap-loud.yaml"  # summary line 2, symptom line 7, sources from line 8
SUMMARY = "summary: Loading fails with an error.\n"
SYMPTOM = "symptom: Import error.\n"
SOURCES = "sources:\n  - source: src-doc\n"
UNTIED = ("{field}: {figure!r} is no value, baseline or difference of the linked or named benchmarks ({benchmarks}), "
          "no compute capability or CUDA toolkit a linked accelerator, kernel, scheme or engine states, no figure "
          "derived_figures works out, and no quote of the gotcha's or a named finding's citations states it{nearest}; "
          "correct it against the source, or tie it: cite the passage that states it, link the record that states it, "
          "or list an estimate the record works out in derived_figures with its arithmetic")


def untied(line: int, column: int, field: str, figure: str, benchmarks: str = "none", nearest: str = "") -> str:
    return (f"{TRAP}:{line}:{column}: error: [gotcha-figures] "
            + UNTIED.format(field=field, figure=figure, benchmarks=benchmarks, nearest=nearest))


def _tie_everything(tree):
    edit(tree, TRAP, SUMMARY, "summary: On a 9.0 GPU and from 7.5 up it is 1.25x slower; logits shrink to 0.71.\n")
    edit(tree, TRAP, SYMPTOM, "symptom: The average falls to 78.16, a 4.2-point loss (b-ref gives 82.36).\n")
    edit(tree, TRAP, SOURCES, "accelerators: [acc-big]\nschemes: [sch-w4a16]\nbenchmarks: [b-quant]\n"
         "derived_figures:\n  - {figure: '0.71', expression: 1 / sqrt(2)}\n"
         "sources:\n  - {source: src-doc, locator: page 3, quote: 'it runs 1.25x slower'}\n")


def test_figures_tied_to_benchmarks_capabilities_quotes_and_derivations_pass(tree):
    _tie_everything(tree)
    assert problems_of(tree, "gotcha-figures") == []


def test_a_drifted_figure_fails_where_it_stands_and_names_the_nearest_recorded_number(tree):
    _tie_everything(tree)
    edit(tree, TRAP, "a 9.0 GPU and from 7.5 up it is 1.25x", "a 9.1 GPU and from 7.5 up it is 1.35x")
    edit(tree, TRAP, "falls to 78.16, a 4.2-point", "falls to 78.61, a 4.3-point")
    assert problems_of(tree, "gotcha-figures") == [
        untied(2, 15, "summary", "9.1", "b-quant, b-ref",
               " (the nearest recorded number is 9.0, accelerator acc-big's compute capability)"),
        untied(2, 45, "summary", "1.35", "b-quant, b-ref", " (the nearest recorded number is 1.25, a quote)"),
        untied(7, 31, "symptom", "78.61", "b-quant, b-ref", " (the nearest recorded number is 78.16, benchmark b-quant's value)"),
        untied(7, 40, "symptom", "4.3", "b-quant, b-ref",
               " (the nearest recorded number is 4.2, benchmark b-quant's difference from its baseline)")]


def test_a_capability_ties_only_a_figure_written_major_minor_and_only_from_a_linked_record(tree):
    edit(tree, TRAP, SUMMARY, "summary: Needs 9.0 exactly, so a 9x family runs it.\n")
    assert problems_of(tree, "gotcha-figures") == [untied(2, 16, "summary", "9.0"), untied(2, 34, "summary", "9")]
    edit(tree, TRAP, SOURCES, "kernels: [k-hopper]\n" + SOURCES)
    assert problems_of(tree, "gotcha-figures") == [
        untied(2, 34, "summary", "9", nearest=" (the nearest recorded number is 9.0, a capability kernel k-hopper tests)")]
    edit(tree, TRAP, "a 9x family", "the 9.x family")
    assert problems_of(tree, "gotcha-figures") == []


def test_a_scope_quote_and_a_named_finding_s_evidence_tie_a_figure(tree):
    silent = "records/gotchas/trap-silent.yaml"
    edit(tree, silent, "symptom: Every answer is garbled.", "symptom: Every answer is garbled, 2.5 times in 3.")
    assert len(problems_of(tree, "gotcha-figures")) == 1
    edit(tree, silent, "      locator: FP4 row\n", "      locator: FP4 row\n      quote: garbled 2.5 times in 3\n")
    assert problems_of(tree, "gotcha-figures") == []
    edit(tree, TRAP, SYMPTOM, "symptom: The seed's 22.0 is refuted (finding cpu-cell-wrong).\n")
    assert len(problems_of(tree, "gotcha-figures")) == 1
    edit(tree, "records/findings/cpu-cell-wrong.yaml", "locator: CpuKernel.can_implement}",
         "locator: CpuKernel.can_implement, quote: 'a gap of 22.0 points'}")
    assert problems_of(tree, "gotcha-figures") == []


def test_a_derived_figure_must_be_its_arithmetic_and_a_needless_entry_is_stale(tree):
    _tie_everything(tree)
    edit(tree, TRAP, "expression: 1 / sqrt(2)}", "expression: 1 / sqrt(3)}")
    assert problems_of(tree, "gotcha-figures") == [
        f"{TRAP}:12:14: error: [gotcha-figures] derived_figures[0].figure: '0.71' is not 1 / sqrt(3) = "
        f"0.5773502691896258 at the precision it shows; correct the figure (in the text as well) or the arithmetic"]
    edit(tree, TRAP, "expression: 1 / sqrt(3)}", "expression: __import__('os').getcwd()}")
    assert problems_of(tree, "gotcha-figures") == [
        f"{TRAP}:12:34: error: [gotcha-figures] derived_figures[0].expression: \"__import__('os').getcwd()\" is not "
        f"arithmetic this check evaluates to a finite number (numbers, + - * /, sqrt, atan, degrees; at most 200 "
        f"characters)"]
    edit(tree, TRAP, "expression: __import__('os').getcwd()}", "expression: 1 / sqrt(2)}")
    edit(tree, TRAP, "logits shrink to 0.71.", "logits shrink to 1.25.")
    assert problems_of(tree, "gotcha-figures") == [
        f"{TRAP}:12:14: error: [gotcha-figures] derived_figures[0].figure: stale entry: neither summary nor symptom "
        f"writes '0.71' as a figure that nothing else ties; remove the entry"]


@pytest.mark.parametrize("expression", [
    "2 ** 10000000", "9 ** 9 ** 9", "x", "sqrt.__globals__", "().__class__.__bases__", "__import__('os').getcwd()",
    "(lambda: 1)()", "sqrt(x=2)", "sqrt(4, 2)", "1 / 0", "sqrt(-1)", "1e999", "1e308 * 10 - 1e308 * 10",
    "10 ** 400", "1" + "0" * 400, "(" * 120 + "1" + ")" * 120, "-" * 100000 + "1", "+".join(["1"] * 3000),
    "sqrt(" * 2000 + "4" + ")" * 2000, "1 +" * 1000000 + " 1", "'a' * 10 ** 9", "[1][0]", "True", "1j", ""])
def test_a_hostile_expression_is_refused_unrun_and_in_bounded_time(expression):
    started = time.monotonic()
    assert gotcha_figures.evaluate(expression) is None
    assert time.monotonic() - started < 1


def test_a_hostile_expression_is_a_located_error_not_a_crash(tree):
    _tie_everything(tree)
    edit(tree, TRAP, "expression: 1 / sqrt(2)}", "expression: 1e308 * 10 - 1e308 * 10}")
    assert problems_of(tree, "gotcha-figures") == [
        f"{TRAP}:12:34: error: [gotcha-figures] derived_figures[0].expression: '1e308 * 10 - 1e308 * 10' is not "
        f"arithmetic this check evaluates to a finite number (numbers, + - * /, sqrt, atan, degrees; at most 200 "
        f"characters)"]
    long = "+".join(["1"] * 1500)
    edit(tree, TRAP, "expression: 1e308 * 10 - 1e308 * 10}", f"expression: '{long}'}}")
    atlas, problems = check_tree(tree)
    assert [(p.file, p.line, p.column, p.rule) for p in problems] == [(TRAP, 12, 34, "schema")]
    assert gotcha_figures._shown(long) == f"{long[:200]!r}... (2999 characters)"
