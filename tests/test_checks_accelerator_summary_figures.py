"""The accelerator-summary-figures check: a figure with a unit in an accelerator's summary is a value of its field."""
from __future__ import annotations

from generators.checks.accelerator_summary_figures import figures

from .test_checks import edit, problems_of

ACC = "records/accelerators/acc-big.yaml"  # 4000 GB/s; peaks 1000, 2000 and 4000 TFLOPS; no memory_gb, no power_w
FIX = "state the figure once, in {0} with its source, and make the summary say what that field says"


def test_figures_that_restate_the_fields_pass(tree):
    edit(tree, ACC, "summary: A datacenter GPU.\n",
         "summary: A datacenter GPU with 4 TB/s (4,000 GB/s) and 2 PFLOPS of FP8 (1000 TFLOPS BF16), on SM 9.0 at 1.4 GHz.\n")
    assert problems_of(tree, "accelerator-summary-figures") == []


def test_a_drifted_or_unsourced_figure_fails_where_it_stands(tree):
    edit(tree, ACC, "summary: A datacenter GPU.\n",
         "summary: >-\n  A datacenter GPU with 80 GB and\n  3.35 TB/s, drawing 700 W.\n")
    assert problems_of(tree, "accelerator-summary-figures") == [
        f"{ACC}:3:25: error: [accelerator-summary-figures] summary: '80 GB' is not one of the values memory_gb states "
        f"(none); {FIX.format('memory_gb')}",
        f"{ACC}:4:3: error: [accelerator-summary-figures] summary: '3.35 TB/s' is not one of the values "
        f"memory_bandwidth_gbs states (4000); {FIX.format('memory_bandwidth_gbs')}",
        f"{ACC}:4:22: error: [accelerator-summary-figures] summary: '700 W' is not one of the values power_w states "
        f"(none); {FIX.format('power_w')}"]


def test_what_counts_as_a_figure():
    text = "24 GB, 24GB, 3.35 TB/s, 1,979 TFLOPS, 72 W, GB200, 8 GPUs, HBM3e, sm_90, 2x24 GB, W4A16, 128 GBit, 1.5TB"
    assert [(number, unit) for _, number, unit in figures(text)] == [
        ("24", "GB"), ("24", "GB"), ("3.35", "TB/s"), ("1,979", "TFLOPS"), ("72", "W"), ("1.5", "TB")]
