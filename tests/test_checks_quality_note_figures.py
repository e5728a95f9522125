"""The quality-note-figures check: a figure in a format's quality note restates a benchmark, a field or a quote."""
from __future__ import annotations

from .test_checks import edit, problems_of

INT4 = "records/formats/fmt-int4.yaml"  # benchmarks b-quant (78.16) and b-ref (82.36, b-quant's baseline)
FP4 = "records/formats/fmt-fp4.yaml"  # no benchmark of its own
NOTE = "quality_note: No controlled delta is recorded.\n"
FIX = ("no bits_per_weight value, and no quote of the format's, those benchmarks' or a named finding's citations "
       "states it{}; state the figure once (a benchmark record, or a citation with its locator and quote) and make the "
       "note say what it says")
NEAREST = " (the nearest recorded number is {}, {})"


def test_figures_tied_to_benchmarks_fields_and_quotes_pass(tree):
    edit(tree, INT4, NOTE,
         "quality_note: 78.16 against 82.36, 4.2 points below (78.2 rounded), 4.25 bpw, 9.5% of a 1.35x claim.\n"
         "bits_per_weight:\n  - {value: 4.25, basis: nominal, source: src-doc, locator: table}\n")
    edit(tree, INT4, "sources:\n  - source: src-doc\n",
         "sources:\n  - {source: src-doc, locator: page 2, quote: 'loses 9.5% at 1.35x smaller'}\n")
    assert problems_of(tree, "quality-note-figures") == []


def test_a_drifted_or_unsourced_figure_fails_where_it_stands(tree):
    edit(tree, INT4, NOTE, "quality_note: >-\n  Scores 78.61 against\n  82.36, a 4.3-point loss.\n")
    assert problems_of(tree, "quality-note-figures") == [
        f"{INT4}:13:10: error: [quality-note-figures] quality_note: '78.61' is no value, baseline or difference of "
        f"this format's or the named benchmarks (b-quant, b-ref), "
        + FIX.format(NEAREST.format("78.16", "benchmark b-quant's value")),
        f"{INT4}:14:12: error: [quality-note-figures] quality_note: '4.3' is no value, baseline or difference of "
        f"this format's or the named benchmarks (b-quant, b-ref), "
        + FIX.format(NEAREST.format("4.2", "benchmark b-quant's difference from its baseline"))]


def test_another_format_s_figures_tie_only_where_the_note_names_their_record(tree):
    edit(tree, FP4, "sources:\n", "quality_note: The INT4 run scores 78.16.\nsources:\n")
    assert problems_of(tree, "quality-note-figures") == [
        f"{FP4}:16:35: error: [quality-note-figures] quality_note: '78.16' is no value, baseline or difference of "
        f"this format's or the named benchmarks (none), " + FIX.format("")]
    edit(tree, FP4, "scores 78.16.", "scores 78.16 (benchmark b-quant).")
    assert problems_of(tree, "quality-note-figures") == []


def test_a_named_finding_s_evidence_states_a_seed_figure(tree):
    edit(tree, FP4, "sources:\n", "quality_note: The seed's 22.0 is refuted (finding cpu-cell-wrong).\nsources:\n")
    assert len(problems_of(tree, "quality-note-figures")) == 1
    edit(tree, "records/findings/cpu-cell-wrong.yaml", "locator: CpuKernel.can_implement}",
         "locator: CpuKernel.can_implement, quote: 'a gap of 22.0 points'}")
    assert problems_of(tree, "quality-note-figures") == []


def test_a_quote_of_a_named_benchmark_s_citation_states_another_row(tree):
    edit(tree, FP4, "sources:\n", "quality_note: The table's other row gives 81.9 (benchmark b-quant).\nsources:\n")
    assert problems_of(tree, "quality-note-figures") == [
        f"{FP4}:16:43: error: [quality-note-figures] quality_note: '81.9' is no value, baseline or difference of "
        f"this format's or the named benchmarks (b-quant), "
        + FIX.format(NEAREST.format("82.36", "benchmark b-quant's baseline"))]
    edit(tree, "records/benchmarks/b-quant.yaml", "  - source: src-doc\n",
         "  - {source: src-doc, locator: table 2, quote: 'FP8 81.9 INT4 78.16'}\n")
    assert problems_of(tree, "quality-note-figures") == []


def test_the_message_names_the_nearest_number_a_quote_states(tree):
    edit(tree, FP4, "sources:\n  - source: src-doc\n",
         "quality_note: It loses 9.6% of its accuracy.\nsources:\n"
         "  - {source: src-doc, locator: page 2, quote: 'loses 9.5% at 1.35x smaller'}\n")
    assert problems_of(tree, "quality-note-figures") == [
        f"{FP4}:16:24: error: [quality-note-figures] quality_note: '9.6' is no value, baseline or difference of "
        f"this format's or the named benchmarks (none), " + FIX.format(NEAREST.format("9.5", "a quote"))]
