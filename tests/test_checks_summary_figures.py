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
    shows = summary_figures.shows
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
    """An older README's 207 tokens per second lost to v0.3.2's 211: quoted in the contest, it is no figure to restate."""
    record = real_atlas.index.get("benchmark", "exl2-4-0bpw-llama2-7b-rtx-4090-throughput")
    assert list(summary_figures.check(real_atlas, record)) == []
    data = copy.deepcopy(record.data)
    data["summary"] = data["summary"].replace("211 tokens", "207 tokens")
    problems = [p.message for p in summary_figures.check(real_atlas, dataclasses.replace(record, data=data))]
    assert problems == [f"summary: '207' is not the value (211) as the whole number it shows, {WHY}"]


DIRECTION = "give the difference the direction of value minus baseline"


def _messages(tree):
    return [p.split("[summary-figures] ")[1] for p in problems_of(tree, "summary-figures")]


def test_a_difference_with_the_wrong_sign_or_direction_word_fails_where_it_stands(tree):
    # 78.16 against 82.36: the value is 4.20 beneath its baseline
    edit(tree, BENCH, "summary: Quantized run.\n",
         "summary: >-\n  Quantized run scoring 78.16, +4.2 points,\n  4.20 points higher than the reference.\n")
    assert problems_of(tree, "summary-figures") == [
        f"{BENCH}:3:33: error: [summary-figures] summary: '+4.2' is their difference, but its sign (+) says the value "
        f"is above the baseline, and it is beneath it (78.16 against 82.36); {DIRECTION}",
        f"{BENCH}:4:3: error: [summary-figures] summary: '4.20' is their difference, but 'higher' says the value is "
        f"above the baseline, and it is beneath it (78.16 against 82.36); {DIRECTION}"]


def test_better_and_worse_words_follow_the_metric_direction_the_record_states(tree):
    edit(tree, BENCH, "summary: Quantized run.\n", "summary: Quantized run scoring 78.16, a 4.2-point gain.\n")
    assert problems_of(tree, "summary-figures") == []  # no higher_is_better: gain and loss say nothing checkable
    edit(tree, BENCH, "unit: points\n", "unit: points\nhigher_is_better: true\n")
    assert _messages(tree) == [
        f"summary: '4.2' is their difference, but 'gain' says the value is better than the baseline, and it is worse "
        f"(78.16 against 82.36; higher is better); {DIRECTION}"]
    edit(tree, BENCH, "higher_is_better: true", "higher_is_better: false")  # 78.16 under 82.36 is then a gain
    assert problems_of(tree, "summary-figures") == []


def test_a_difference_in_the_right_direction_passes(tree):
    edit(tree, BENCH, "unit: points\n", "unit: points\nhigher_is_better: true\n")
    edit(tree, BENCH, "summary: Quantized run.\n",
         "summary: Quantized run scoring 78.16 against 82.36, 4.2 points below, -4.20, −4.2, a loss of 4.2, "
         "drops by about 4.2, 4.2-point drop, within 4.2 of it, a 4.2 gap, 4.2 points short of it.\n")
    assert problems_of(tree, "summary-figures") == []


def test_a_figure_that_is_also_the_value_or_a_baseline_has_no_direction_to_check(tree):
    # the value of a delta metric carries its own sign: +78.16 is the value, not a claim about the difference
    edit(tree, BENCH, "summary: Quantized run.\n", "summary: Quantized run, +78.16 higher, 82.36 lower.\n")
    assert problems_of(tree, "summary-figures") == []


def test_a_percent_or_times_sign_on_a_difference_in_points_fails_unless_quoted(tree):
    edit(tree, BENCH, "summary: Quantized run.\n", "summary: Quantized run scoring 78.16, a 4.2% drop, 4.2x lower.\n")
    assert _messages(tree) == [
        "summary: '4.2%' is their difference, but the difference is in points, not a percent (a relative change is "
        "another number); write it in points, or cite the passage that states the relative change",
        "summary: '4.2x' is their difference, but a multiplication sign makes it a ratio, not a difference; write the "
        "difference in the record's unit"]
    edit(tree, BENCH, "  - source: src-doc\n",
         "  - source: src-doc\n    locator: results table\n    quote: 'Example-8B | 78.16 | 4.2%'\n")
    assert [m.split(" is their")[0] for m in _messages(tree)] == ["summary: '4.2x'"]


def test_value_and_baseline_swapped_around_a_connective_fail_at_the_first(tree):
    edit(tree, BENCH, "summary: Quantized run.\n",
         "summary: >-\n  Quantized run scoring 82.36 against 78.16 for the\n  reference; the error went from 78.16 to 82.36.\n")
    assert problems_of(tree, "summary-figures") == [
        f"{BENCH}:3:25: error: [summary-figures] summary: '82.36' is the baseline and '78.16' the value, but "
        f"'82.36 against 78.16' reads as the result against what it is compared with; swap them, or say in words "
        f"which is which",
        f"{BENCH}:4:34: error: [summary-figures] summary: '78.16' is the value and '82.36' the baseline, but "
        f"'from 78.16 to 82.36' reads as from the baseline to the result; swap them, or say in words which is which"]
    edit(tree, BENCH, "scoring 82.36 against 78.16", "scoring 78.16 vs. 82.36")
    edit(tree, BENCH, "from 78.16 to 82.36", "from 82.36 to 78.16")
    assert problems_of(tree, "summary-figures") == []
    # the baseline first, said in words, is no swap
    edit(tree, BENCH, "scoring 78.16 vs. 82.36", "where the reference scores 82.36 and the quantized model 78.16")
    assert problems_of(tree, "summary-figures") == []


def test_real_summaries_with_a_direction_fail_when_it_is_turned(real_atlas):
    """The Marlin MXFP4 record (78.16, 4.2 below 82.36, higher is better) and the GPTQ OPT-175B record (8.37
    perplexity, a 0.03 loss against 8.34, lower is better) pass; turned round, each fails."""
    for name, old, new, message in [
            ("qwen3-8b-mxfp4-w4a16-marlin-mxfp4-avg-accuracy", "4.2 below", "4.2 above",
             "summary: '4.2' is their difference, but 'above' says the value is above the baseline, and it is "
             f"beneath it (78.16 against 82.36); {DIRECTION}"),
            ("gptq-4bit-opt-175b-wikitext2-ppl", "a 0.03 loss", "a 0.03 gain",
             "summary: '0.03' is their difference, but 'gain' says the value is better than the baseline, and it is "
             f"worse (8.37 against 8.34; lower is better); {DIRECTION}")]:
        record = real_atlas.index.get("benchmark", name)
        assert old in record.data["summary"] and list(summary_figures.check(real_atlas, record)) == []
        data = copy.deepcopy(record.data)
        data["summary"] = data["summary"].replace(old, new)
        assert [p.message for p in summary_figures.check(real_atlas, dataclasses.replace(record, data=data))] == [message]
