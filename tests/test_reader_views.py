"""Record pages for readers: field labels for people, agreeing sources folded, disagreeing ones flagged."""
from __future__ import annotations

import pytest

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
