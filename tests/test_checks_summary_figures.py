"""The summary-figures check: a benchmark's summary restates only its value, baseline, their difference or quoted figures."""
from __future__ import annotations

import copy
import dataclasses
from decimal import Decimal

from generators.checks import summary_figures
from generators.checks.summary_figures import figures

from .test_checks import edit, problems_of

BENCH = "records/benchmarks/b-quant.yaml"  # value 78.16, baseline b-ref at 82.36: a difference of 4.20
WHY = ("and no quote of this record's citations states it; correct it against the source, or cite the passage that "
       "states it (a source with its locator and quote)")


def test_value_baseline_difference_and_quoted_figures_pass(tree):
    edit(tree, BENCH, "summary: Quantized run.\n",
         "summary: Llama-2-70B g128 W4A16 v6.0 in AIME 2024 scores 78.16 (78.2 rounded) against 82.36, 4.2 points "
         "(4.20) below, a 5.10% loss; the table's other row has 80.02.\n")
    edit(tree, BENCH, "  - source: src-doc\n",
         "  - source: src-doc\n    locator: results table\n    quote: 'Example-8B | 78.16 | 80.02 | 5.10%'\n")
    assert problems_of(tree, "summary-figures") == []


def test_a_stale_figure_and_a_difference_at_the_wrong_precision_fail_where_they_stand(tree):
    edit(tree, BENCH, "summary: Quantized run.\n",
         "summary: >-\n  Quantized run scoring 78.61 against 82.36,\n  4.3 points below (4.2 at one decimal).\n")
    assert problems_of(tree, "summary-figures") == [
        f"{BENCH}:3:25: error: [summary-figures] summary: '78.61' is not the value (78.16), the baseline (82.36) or "
        f"their difference (4.20) at the 2 decimals it shows, {WHY}",
        f"{BENCH}:4:3: error: [summary-figures] summary: '4.3' is not the value (78.16), the baseline (82.36) or "
        f"their difference (4.20) at the one decimal it shows, {WHY}"]


def test_a_quote_states_a_number_as_a_word_of_its_own_not_inside_a_name(tree):
    # 99% and 70% stand in the quote only inside the benchmark name llama2-70b-99, 4.0 only in W4A16: not stated
    edit(tree, BENCH, "summary: Quantized run.\n",
         "summary: Quantized run at the 99% accuracy target, 70% of the rows, 4.0 bits.\n")
    edit(tree, BENCH, "  - source: src-doc\n",
         "  - source: src-doc\n    locator: results table\n    quote: '<td>llama2-70b-99</td> W4A16'\n")
    assert [p.split("summary: ")[1].split(" is not")[0] for p in problems_of(tree, "summary-figures")] == [
        "'99'", "'70'", "'4.0'"]
    # the same numbers as words of their own, at any precision the quote writes, are stated
    edit(tree, BENCH, "W4A16'", "W4A16 | 99 | 70.0% | 4 bits'")
    assert problems_of(tree, "summary-figures") == []


def test_what_counts_as_a_figure():
    text = ("Llama-2-70B, g128, W4A16, Qwen3.6-35B-A3B, v6.0, 0.33.0, 4.58G, 8xMI355X, 2026-12-02, Llama 2, AIME 2024, "
            "RTX 3090, group size 128, 4 bits, 4-bit, 25-50, jumped to 3024, arXiv 2306.00978, Table 4.2, §3.2 | "
            "56.40; 0.9037, +0.1754, 2.9-point, 91%, 4x, 1,234, 0.5-1.0, 179 tokens per second, 207 t/s.")
    assert [figure for _, figure in figures(text)] == [
        "56.40", "0.9037", "0.1754", "2.9", "91", "4", "1,234", "0.5", "1.0", "179", "207"]


def test_a_figure_is_the_number_rounded_to_the_decimals_it_shows():
    shows = summary_figures._shows
    assert all(shows(figure, Decimal("7.58")) for figure in ("7.58", "7.6", "7.580", "8"))  # "8" as in 8%
    assert not any(shows(figure, Decimal("7.58")) for figure in ("7.5", "7.57", "7.59", "7"))
    assert shows("0.13", Decimal("0.125")) and shows("0.12", Decimal("0.125"))  # a tie rounds either way


def test_a_corrected_value_leaves_its_real_summary_failing(real_atlas):
    record = real_atlas.index.get("benchmark", "awq-int4-g128-llama-2-70b-gsm8k")
    assert list(summary_figures.check(real_atlas, record)) == []
    data = copy.deepcopy(record.data)  # corrected as a contributor would: value and its quote, not the summary
    data["value"] = data["sources"][0]["value"] = 56.5
    data["sources"][0]["quote"] = data["sources"][0]["quote"].replace("56.40", "56.50")
    problems = [str(p) for p in summary_figures.check(real_atlas, dataclasses.replace(record, data=data))]
    before = record.text[:record.text.index("56.40")]  # the summary's copy, the record's first
    assert problems == [
        f"{record.path}:{before.count(chr(10)) + 1}:{len(before.rpartition(chr(10))[2]) + 1}: error: [summary-figures] "
        f"summary: '56.40' is not the value (56.5), the baseline (56.41) or their difference (0.09) at the 2 decimals "
        f"it shows, {WHY}"]


def test_a_figure_a_resolved_contest_set_aside_ties_nothing(real_atlas):
    """The seed's 211 tokens per second lost to the README's 207: quoted in the contest, it is no figure to restate."""
    record = real_atlas.index.get("benchmark", "exl2-4-0bpw-llama2-7b-rtx-4090-throughput")
    assert list(summary_figures.check(real_atlas, record)) == []
    data = copy.deepcopy(record.data)
    data["summary"] = data["summary"].replace("207 tokens", "211 tokens")
    problems = [p.message for p in summary_figures.check(real_atlas, dataclasses.replace(record, data=data))]
    assert problems == [f"summary: '211' is not the value (207) as the whole number it shows, {WHY}"]
