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


def _chapters(atlas: Atlas, *pages: str) -> dict[str, str]:
    """The chapters' Markdown rendered from the atlas as render_site renders a chapter (render_page), each without a
    problem: for the run's atlas of the real records, what render_tree(ROOT) gives for them (byte for byte), without
    loading, validating and rendering the whole tree again for each test (2 s of CPU each)."""
    from generators.render import environment, render_page
    from generators.render.pages import names_of

    from .conftest import ROOT

    env, names, problems = environment(ROOT / "docs"), names_of(atlas), []
    rendered = {page: render_page(env, atlas, f"{page}.j2", page, names, {}, problems) for page in pages}
    assert problems == []
    return rendered


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
    """The A10's datasheet figures (compilations only) carry the unverified mark into the ridge points, ratios and
    hardware table; the A10's 24 GB, which NVIDIA's MLPerf hardware table states (finding
    verify48s-second-reading-2026-12-05), and Gaudi 2's 865 FP8 TFLOPS, which Intel's Gaudi 3 technical paper states
    (finding verify50-audit-2026-12-05), do not."""
    views = real_atlas.views
    a10 = {(r.precision, r.compute_source): r.unverified for r in views.ridges if r.accelerator == "a10"}
    assert a10[("tf32", "gmasse-gpu-specs")]
    gaudi = {(r.precision, r.compute_source): r.unverified for r in views.ridges if r.accelerator == "gaudi-2"}
    assert not gaudi[("fp8", "intel-gaudi3-technical-paper-v1-rev3")] and not gaudi[("fp8", "ml-engineering-accelerators")]
    assert all(r.unverified for r in views.ratios if r.accelerator == "a10")
    rows = {r.accelerator: r for g in views.hardware_groups for r in g.rows}
    assert all(f.unverified for f in rows["a10"].bandwidth_gbs) and not any(f.unverified for f in rows["a10"].memory_gb)
    assert not any(f.unverified for f in rows["h100-sxm"].memory_gb)
    assert [f.unverified for f in rows["mi325x"].memory_gb] == ["", ""]  # AMD's ROCm table states the 256


def test_chapters_01_and_02_mark_an_unverified_value_as_the_format_map_and_part_pages_do(real_atlas):
    """A ratio, a ridge point, a bandwidth figure and a dense precision no primary source states (the A10's, from
    compilations only) carry the shared mark (markdown.unverified_value: a dotted outline, a superscript u, why on
    hover), not the word *unverified* after them; a bandwidth figure's hover gives its record's own reason."""
    import html

    import yaml

    from generators.render.markdown import UNVERIFIED_MARK

    from .conftest import ROOT

    pages = _chapters(real_atlas, "chapters/01-hardware-selection.md", "chapters/02-flop-map.md")
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
    assert (" ".join(record["memory_bandwidth_gbs"][0]["unverified"].split()), "600") in said
    assert not any(value == "24" for _, value in said)  # NVIDIA states the 24 GB (finding verify48s-second-reading-2026-12-05)
    assert any(value == "int8" for _, value in said)  # a dense precision the format map marks unverified on the A10


def _marked(pages: dict[str, str], chapter: str) -> tuple[str, re.Pattern[str]]:
    from generators.render.markdown import UNVERIFIED_MARK

    return pages[chapter], re.compile(rf'<span class="atlas-unverified-value" title="unverified: ([^"]+)">([^<]+)'
                                      rf"<sup>{UNVERIFIED_MARK}</sup></span>")


def test_chapter_03_marks_an_unverified_status_with_the_shared_mark_and_its_reason(real_atlas: Atlas):
    """A format_support entry only a seed draft states, or one its source shows only in part (TensorRT-LLM's MXFP8),
    carries the unverified mark on its status as chapters 01 and 02 mark a value, with why on hover (the entry's own
    reason where it gives one), not the words '(unverified)' after it; a status read whole carries none."""
    import html

    from generators.derive.engines import engine_support

    pages = _chapters(real_atlas, "chapters/03-engine-selection.md")
    text, mark = _marked(pages, "chapters/03-engine-selection.md")
    assert "(unverified)" not in text
    rows = [line for line in text.splitlines() if line.startswith("| [")]
    marked = [mark.search(line) for line in rows]
    expected = [r for e in engine_support(real_atlas.index) for r in e.rows if r.unverified or not r.primary]
    assert len(expected) >= 5 and sum(1 for m in marked if m) == len(expected)
    said = {(html.unescape(m.group(1)), m.group(2)) for m in marked if m}
    mxfp8 = next(r for r in expected if r.format == "mxfp8" and r.primary)
    assert (" ".join(mxfp8.unverified.split()), "partial") in said
    assert any(why.startswith("only a seed draft") and status == "writes" for why, status in said)


def test_chapter_02_pairings_mark_the_unverified_figure_itself_not_a_column(real_atlas: Atlas):
    """The pairings folded under the ridge table mark each figure no primary source states (the A10's compute and
    bandwidth figures) with the shared mark and the figure's own reason, where a column said only that one of the
    two was; a figure a primary source states is not marked."""
    import html

    import yaml

    from .conftest import ROOT

    pages = _chapters(real_atlas, "chapters/02-flop-map.md")
    text, mark = _marked(pages, "chapters/02-flop-map.md")
    header = next(line for line in text.splitlines() if line.strip().startswith("| accelerator | precision | TFLOPS"))
    assert "| unverified |" not in header and header.strip().endswith("| FLOP per byte | accumulate and sources |")
    a10 = [line for line in text.splitlines() if line.startswith("    | [NVIDIA A10]") and "| bf16 |" in line]
    record = yaml.safe_load((ROOT / "records/accelerators/a10.yaml").read_text(encoding="utf-8"))
    bandwidth = record["memory_bandwidth_gbs"][0]
    assert a10 and all((" ".join(bandwidth["unverified"].split()), f"{bandwidth['value']:g}")
                       in [(html.unescape(w), v) for w, v in mark.findall(line)] for line in a10)
    h100 = [line for line in text.splitlines() if line.startswith("    | [NVIDIA H100 SXM")]
    assert h100 and not any(mark.search(line) for line in h100)
    pairings = [line for line in text.splitlines() if line.startswith("    | [")]  # the folded table, indented
    assert len(pairings) == len(real_atlas.views.ridges)
    assert sum(bool(mark.search(line)) for line in pairings) == sum(r.unverified for r in real_atlas.views.ridges) > 0


def test_chapter_02_pairings_give_accumulate_and_sources_as_labelled_lines_of_one_cell(real_atlas: Atlas):
    """The pairings table keeps its figures as columns and says the accumulate precision, *estimate* and the two
    sources as labelled lines of its last cell (six columns, which fit the content column at 1280 px, where nine ran
    past it): a source that states both figures is named once, two sources each under its own label."""
    pages = _chapters(real_atlas, "chapters/02-flop-map.md")
    pairings = [line for line in pages["chapters/02-flop-map.md"].splitlines() if line.startswith("    | [")]
    ridges = real_atlas.views.ridges
    assert len(pairings) == len(ridges) and all(line.count(" | ") == 6 for line in pairings)  # (its indent, then five between cells)
    label = '<span class="atlas-field-label">{}</span>: '
    for line, ridge in zip(pairings, ridges):
        details = line.rsplit(" | ", 1)[1]
        assert details.startswith(label.format("accumulate") + (ridge.accumulate or "not stated"))
        assert ("· *estimate*<br>" in details) == ridge.estimate
        one = ridge.compute_source == ridge.bandwidth_source
        assert (label.format("source of both figures") in details) == one
        assert (label.format("compute source") in details and label.format("bandwidth source") in details) == (not one)
        assert f"(../sources/{ridge.compute_source}.md)" in details and f"(../sources/{ridge.bandwidth_source}.md)" in details
    assert any(r.estimate for r in ridges) and any(r.compute_source != r.bandwidth_source for r in ridges)


def test_record_text_on_hover_of_chapters_02_and_03_marks_is_text_only(real_atlas: Atlas):
    """The unverified mark's hover is a record's own reason, which is untrusted text: a reason holding a quote, HTML,
    Markdown and a table's `|` reaches the built chapter as the title of its mark, read back whole, and makes no
    element or attribute of its own (chapter 02's pairings: a bandwidth figure's reason; chapter 03: an entry's)."""
    import copy
    import dataclasses
    from html.parser import HTMLParser

    import markdown

    from generators.derive import derive_views
    from generators.link import relink
    from generators.render import environment, render_page
    from generators.render.pages import names_of

    from .conftest import ROOT

    hostile = 'x" onmouseover="alert(1)" <script>alert(2)</script> <img src=x> | a `b` *c* [l](https://e.example) &amp; \\'
    a10 = copy.deepcopy(real_atlas.index.must("accelerator", "a10").data)
    a10["memory_bandwidth_gbs"][0]["unverified"] = hostile
    trtllm = copy.deepcopy(real_atlas.index.must("engine", "tensorrt-llm").data)
    next(e for e in trtllm["format_support"] if e["format"] == "mxfp8")["unverified"] = hostile
    index, _ = relink(real_atlas.index, [dataclasses.replace(real_atlas.index.must("accelerator", "a10"), data=a10),
                                         dataclasses.replace(real_atlas.index.must("engine", "tensorrt-llm"), data=trtllm)],
                      real_atlas.schemas)
    atlas = Atlas(real_atlas.root, real_atlas.schemas, index, derive_views(index))

    class Page(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: set[str] = set()
            self.attributes: set[str] = set()
            self.titles: list[str] = []

        def handle_starttag(self, tag, attrs):
            self.tags.add(tag)
            self.attributes |= {name for name, _ in attrs}
            if ("class", "atlas-unverified-value") in attrs:
                self.titles.append(dict(attrs)["title"])

    for template in ("chapters/02-flop-map.md.j2", "chapters/03-engine-selection.md.j2"):
        problems: list = []
        text = render_page(environment(ROOT / "docs"), atlas, template, template[: -len(".j2")], names_of(atlas), {},
                           problems)
        assert text and not [p for p in problems if p.severity == "error"], problems
        page = Page()
        page.feed(markdown.markdown(text, extensions=["tables", "admonition", "pymdownx.details", "attr_list", "toc"]))
        assert f"unverified: {hostile}" in page.titles, template
        assert not page.tags & {"script", "img"} and "onmouseover" not in page.attributes, template
