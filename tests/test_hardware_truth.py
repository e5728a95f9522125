"""Hardware facts the site shows as facts agree across records, and a figure no primary source settles is shown as
contested, not as a single value."""
from __future__ import annotations

import re
from pathlib import Path

from generators.build import Atlas
from generators.derive.format_map import short_name


def _text(page: Path) -> str:
    html = re.sub(r"<script.*?</script>", "", page.read_text(encoding="utf-8"), flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_two_bmg_g21_cards_name_one_architecture(real_atlas: Atlas):
    names = {a: real_atlas.index.must("accelerator", a).data for a in ("arc-b580", "arc-pro-b60")}
    assert {d["die"] for d in names.values()} == {"BMG-G21"}
    assert {short_name(d["architecture"]).strip() for d in names.values()} == {"Xe2-HPG"}


def test_the_l40s_int4_figure_is_contested_on_its_page(built_site: Path):
    text = _text(built_site / "accelerators/l40s/index.html")
    rows = re.findall(r"int4 dense (\d+(?:\.\d+)?) [^⚠]*?⚠ sources disagree", text)
    assert len(set(rows)) >= 2, rows
    assert "Contested: peak_compute int4 dense" in text and "unresolved" in text
    flop = _text(built_site / "chapters/02-flop-map/index.html")
    folded = re.search(r"NVIDIA L40S((?: [\d.–]+ \(\d+\))+)", flop)
    assert folded and "848.4–1709.3" in folded.group(1)  # int4 ridge as the range of the two figures, not one value


def test_a_cuda_target_page_lists_each_members_capability(built_site: Path):
    text = _text(built_site / "hardware-targets/nvidia-sm120/index.html")
    table = text[text.index("Accelerators &para;"):text.index("Derived support &para;")]
    assert "NVIDIA GeForce RTX 5090 12.0" in table and "NVIDIA GB10 (DGX Spark) 12.1" in table


def test_a_figure_no_primary_source_states_is_marked_unverified_wherever_it_is_shown(real_atlas: Atlas):
    """Gaudi 2's 865 FP8 TFLOPS (ml-engineering alone) and the A10's datasheet figures (compilations only) carry the
    unverified mark into the ridge points, ratios and hardware table; Gaudi 2's Intel-stated BF16 figure does not."""
    views = real_atlas.views
    gaudi = {(r.precision, r.compute_source): r.unverified for r in views.ridges if r.accelerator == "gaudi-2"}
    assert gaudi[("fp8", "ml-engineering-accelerators")] and not gaudi[("bf16", "intel-gaudi3-hot-chips-2024")]
    assert all(r.unverified for r in views.ratios if r.accelerator == "a10")
    rows = {r.accelerator: r for g in views.hardware_groups for r in g.rows}
    assert all(f.unverified for f in rows["a10"].memory_gb) and not any(f.unverified for f in rows["h100-sxm"].memory_gb)
    assert [f.unverified for f in rows["mi325x"].memory_gb] == ["", ""]  # AMD's ROCm table states the 256


def test_chapters_01_and_02_mark_an_unverified_value_as_the_format_map_and_part_pages_do(real_atlas):
    """A ratio, a ridge point, a memory figure and a dense precision no primary source states (the A10's, from
    compilations only) carry the shared mark (markdown.unverified_value: a dotted outline, a superscript u, why on
    hover), not the word *unverified* after them; a memory figure's hover gives its record's own reason. The two
    chapters are rendered from the run's atlas of the real records as the site renders a chapter (render_page), not by
    loading and rendering the whole tree again (2 s of CPU for two pages)."""
    import html

    import yaml

    from generators.render import environment, render_page
    from generators.render.markdown import UNVERIFIED_MARK
    from generators.render.pages import names_of

    from .conftest import ROOT

    env, names, problems = environment(ROOT / "docs"), names_of(real_atlas), []
    pages = {page: render_page(env, real_atlas, f"{page}.j2", page, names, {}, problems)
             for page in ("chapters/01-hardware-selection.md", "chapters/02-flop-map.md")}
    assert problems == []
    mark = re.compile(rf'<span class="atlas-unverified-value" title="unverified: ([^"]+)">([^<]+)<sup>{UNVERIFIED_MARK}'
                      r"</sup></span>")
    rows = {chapter: [line for line in pages[chapter].splitlines() if line.startswith("| [NVIDIA A10]")]
            for chapter in ("chapters/01-hardware-selection.md", "chapters/02-flop-map.md")}
    for chapter, lines in rows.items():
        assert lines and all(mark.search(line) for line in lines), chapter
        assert not any("*unverified*" in line for line in lines), chapter
    # the ratios' rows and the ridge row: every value of the A10's rests on a figure no primary source states
    assert all(len(mark.findall(line)) == line.count("<sup>") for line in rows["chapters/02-flop-map.md"])
    (hardware,) = rows["chapters/01-hardware-selection.md"]
    record = yaml.safe_load((ROOT / "records/accelerators/a10.yaml").read_text(encoding="utf-8"))
    said = [(html.unescape(why), value) for why, value in mark.findall(hardware)]
    assert (" ".join(record["memory_gb"][0]["unverified"].split()), "24") in said
    assert any(value == "int8" for _, value in said)  # a dense precision the format map marks unverified on the A10
