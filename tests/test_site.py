"""End to end: the real records pass check, and `mkdocs build --strict` builds the site; bad input fails cleanly."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_real_records_check_clean(real_check):
    atlas, problems = real_check
    assert [str(p) for p in problems if p.severity == "error"] == []  # warnings: records marked unverified
    assert atlas is not None


def test_mkdocs_build_strict_on_the_real_records(built_site, tmp_path_factory):
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:  # the workers share one build only while each one's temporary folder sits in the run's (conftest.py)
        assert tmp_path_factory.getbasetemp().name.endswith(worker), "pytest-xdist workers no longer share the run's folder"
        assert built_site.parent.parent == tmp_path_factory.getbasetemp().parent
    site = built_site
    for page in ("chapters/04-quantization-regimes/index.html", "chapters/support-tables/index.html",
                 "formats/nvfp4/index.html", "search/search_index.json"):
        assert (site / page).is_file(), page
    assert not list(ROOT.glob("docs/**/*.md.j2.md")), "generated pages must not be written into the repository"


def test_every_page_searches_through_the_repaired_worker(built_site):
    """The plugin adds generators/theme_overrides to the theme: every page's search configuration names
    javascripts/search-worker.js (lunr repaired) with the theme's worker after the '#', at the page's depth."""
    config = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.DOTALL)
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 500
    for page in pages:
        found = config.search(page.read_text(encoding="utf-8"))
        assert found, page
        depth = len(page.relative_to(built_site).parts) - 1  # (404.html is served at any depth: from the root)
        search = json.loads(found.group(1))["search"]
        assert re.fullmatch(r"(/|(\.\./)*)javascripts/search-worker\.js#assets/javascripts/workers/search\.[0-9a-f]+\.min\.js",
                            search), (page, search)
        assert search.count("../") == depth if page.name == "index.html" else search.startswith("/"), (page, search)


def test_mkdocs_build_fails_with_the_problem_list_and_no_traceback(tmp_path):
    project = tmp_path / "project"  # what the build reads, without the repository's history (a clone took seconds)
    for folder in ("records", "docs", "schema"):
        shutil.copytree(ROOT / folder, project / folder)
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    bad = project / "records/formats/nvfp4.yaml"
    bad.write_text(bad.read_text().replace("stated_native:", "stated_native:\n- h100\n", 1) + "name: dup\n")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                            cwd=project, capture_output=True, text=True)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "records/formats/nvfp4.yaml:" in output and "duplicate key 'name'" in output
    assert "Traceback" not in output
    assert not (tmp_path / "site" / "index.html").exists()


class _NamesInsideParentheses(HTMLParser):
    """Links in a page's article whose text has a parenthesis, written where the sentence already has one open."""

    BLOCKS = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "dd", "dt", "caption", "figcaption"}
    SKIPPED = {"script", "style", "code", "pre"}

    def __init__(self) -> None:
        super().__init__()
        self.article = self.skipped = 0
        self.sentence, self.before, self.name, self.href = "", "", None, ""
        self.found: list[str] = []
        self.claims: list[str] = []  # links to a trap's or finding's page written inside a parenthesis

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.article += tag == "article"
        self.skipped += tag in self.SKIPPED
        if tag in self.BLOCKS:
            self.sentence = ""
        if tag == "a":
            self.before, self.name, self.href = self.sentence, "", dict(attrs).get("href") or ""

    def handle_endtag(self, tag: str) -> None:
        self.article -= tag == "article"
        self.skipped -= tag in self.SKIPPED
        if tag == "a" and self.name is not None:
            inside = self.before.count("(") > self.before.count(")")
            if "(" in self.name and inside:
                self.found.append(f"...{self.before[-40:]}[{self.name}]")
            if inside and re.search(r"(gotchas|findings)/[^/#]+/", self.href):
                self.claims.append(f"...{self.before[-40:]}[{self.name}]")
            self.name = None

    def handle_data(self, data: str) -> None:
        if self.article and not self.skipped:
            self.sentence += data
            if self.name is not None:
                self.name += data


@pytest.fixture(scope="module")
def chapter_links(built_site: Path) -> dict[str, _NamesInsideParentheses]:
    """Each built chapter's links, parsed once for the two rules below (each parse reads every chapter's HTML)."""
    parsed = {}
    for page in sorted(built_site.glob("chapters/*/index.html")):
        parsed[page.parent.name] = parser = _NamesInsideParentheses()
        parser.feed(page.read_text(encoding="utf-8"))
    assert parsed  # the rules below are not checked on nothing
    return parsed


def test_chapters_never_put_a_record_name_with_its_own_parenthesis_inside_another(chapter_links):
    """'(Seed: 04 Quantization regimes (earlier chapter draft))' reads badly: inside a parenthesis a chapter writes
    ref(..., nested=True), which turns the name's own aside into a comma clause."""
    found = [f"{chapter}: {' '.join(name.split())}" for chapter, parser in chapter_links.items() for name in parser.found]
    assert found == []


class _BlockTexts(HTMLParser):
    """The text of each paragraph, list item and table cell of a page's article (an inner block starts afresh)."""

    def __init__(self) -> None:
        super().__init__()
        self.article = 0
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.article += tag == "article"
        if tag in _NamesInsideParentheses.BLOCKS:
            self.texts.append("")

    def handle_endtag(self, tag: str) -> None:
        self.article -= tag == "article"

    def handle_data(self, data: str) -> None:
        if self.article and self.texts:
            self.texts[-1] += data


def test_chapter_23_never_puts_an_engine_message_inside_a_parenthesis(built_site, real_atlas):
    """The engine's messages carry their own parentheses ('(for group_size = 128, ...)'): chapter 23 lists each refused
    scheme with its reasons after a colon, never inside '(...)' of its own."""
    messages = {" ".join(text.split()) for row in real_atlas.views.target_selections for cell in row.refused
                for text in (cell.gate, *cell.reasons, *(a.reason for a in cell.attempts)) if len(text) > 20}
    parser = _BlockTexts()
    parser.feed((built_site / "chapters/23-quantization-selection/index.html").read_text(encoding="utf-8"))
    found, nested = set(), []
    for text in (" ".join(t.split()) for t in parser.texts):
        for message in messages:
            at = text.find(message)
            if at >= 0:
                found.add(message)
                if text[:at].count("(") > text[:at].count(")"):
                    nested.append(f"...{text[max(0, at - 60):at + 40]}...")
    assert len(found) > 10 and nested == []


def test_chapter_23_names_the_parts_a_trap_on_some_of_a_targets_parts_applies_on(built_site, real_atlas):
    """Under x86 CPU with AMX, vLLM's support-table trap on W4A8 concerns the Sapphire Rapids part alone: the
    target's list of traps says 'on the Intel Xeon Scalable 4th Gen (Sapphire Rapids) only' before it, and lists the
    traps on every part first, as they were. (The example was the onnxruntime-gpu wheel's GB10 blocker under SM 12.x
    until trt48 read the aarch64 wheel, which has code for the GB10.)"""
    trap = real_atlas.index.must("gotcha", "vllm-w4a8-support-table-x86-cpu-no").name
    whole = real_atlas.index.must("gotcha", "named-quant-not-comparable-across-models").name
    parser = _BlockTexts()
    parser.feed((built_site / "chapters/23-quantization-selection/index.html").read_text(encoding="utf-8"))
    lists = [" ".join(t.split()) for t in parser.texts if t.strip().startswith("Traps that apply")]
    only = "; on the Intel Xeon Scalable 4th Gen (Sapphire Rapids) only: "
    amx = [text for text in lists if only in text]
    assert len(amx) == 1
    head, limited = amx[0].split(only)
    assert head.startswith("Traps that apply: ") and whole in head and trap not in head and trap in limited


class _Chapter23(HTMLParser):
    """Chapter 23's article: its h3 ids, its links within the page (href, text), and each fold: whether it is open,
    its summary and the scheme pages it links."""

    def __init__(self) -> None:
        super().__init__()
        self.article = 0
        self.sections: list[str] = []
        self.jumps: list[list[str]] = []
        self.folds: list[dict] = []
        self.into: list | dict | None = None  # what the text read now belongs to: a jump link or a fold's summary

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attrs = dict(attrs)
        self.article += tag == "article"
        if not self.article:
            return
        href = attrs.get("href") or ""
        if tag == "h3" and attrs.get("id"):
            self.sections.append(attrs["id"])
        elif tag == "a" and href.startswith("#") and "headerlink" not in (attrs.get("class") or ""):
            self.jumps.append([href[1:], ""])
            self.into = self.jumps[-1]
        elif tag == "details":
            self.folds.append({"open": "open" in attrs, "summary": "", "schemes": []})
        elif tag == "summary" and self.folds:
            self.into = self.folds[-1]
        elif tag == "a" and self.folds and href.startswith("../../schemes/"):
            self.folds[-1]["schemes"].append(href.split("/")[3])

    def handle_endtag(self, tag: str) -> None:
        self.article -= tag == "article"
        if tag in ("a", "summary"):
            self.into = None

    def handle_data(self, data: str) -> None:
        if isinstance(self.into, list):
            self.into[1] += data
        elif isinstance(self.into, dict):
            self.into["summary"] += data


def test_chapter_23_jumps_to_each_target_and_folds_its_refused_schemes_with_their_count(built_site, real_atlas):
    """The chapter was about 170,000 px tall at 1280 px: a reader after one target scrolled through every other's
    refusals. A table at the top links each target's section (by the id its heading already had, so links from
    elsewhere still land) with its counts; each target's refused or failing schemes are folded, closed, under a summary
    that gives their number, and stay in the page, every one, for the site's search and the browser's find."""
    page = _Chapter23()
    page.feed((built_site / "chapters/23-quantization-selection/index.html").read_text(encoding="utf-8"))
    rows = real_atlas.views.target_selections
    names = [real_atlas.index.must("hardware-target", row.target).name for row in rows]
    assert [text for _, text in page.jumps] == names
    assert [href for href, _ in page.jumps] == page.sections[:len(rows)]  # each lands on its target's heading
    folds = [f for f in page.folds if f["summary"].startswith("Schemes refused or failing here")]
    refused = [row for row in rows if row.refused]
    assert len(folds) == len(refused) > 10 and not any(f["open"] for f in folds)
    for fold, row in zip(folds, refused):
        assert fold["summary"].startswith(f"Schemes refused or failing here: {len(row.refused)},"), (row.target, fold["summary"])
        assert {c.scheme for c in row.refused} <= set(fold["schemes"]), row.target  # (a reason may name another)


def test_chapter_23_s_table_of_targets_counts_what_each_target_s_section_shows(built_site, real_atlas):
    """Each row of the table at the top gives a target's schemes served, refused or failing, and traps: the same numbers
    as its section below (the schemes its served table names, the items of its refusal fold, the traps it links,
    those on some of its parts among them), read from the built page, not from the view that wrote both."""
    from .chapter23 import Chapter23
    page = Chapter23()
    page.feed((built_site / "chapters/23-quantization-selection/index.html").read_text(encoding="utf-8"))
    sections = {section.id: section for section in page.sections}
    rows = real_atlas.views.target_selections
    assert len(page.jumps) == len(rows) and any(row.traps_on_parts for row in rows)
    for href, text, counts in page.jumps:
        section = sections[href[1:]]
        shown = [len(section.served), len(section.refused), len(section.traps)]
        assert section.text == text and counts == [str(n) for n in shown], (text, counts, shown)
        assert len(set(section.served)) == shown[0] and len(set(section.refused)) == shown[1], text  # each scheme once
        assert section.summaries == ([f"Schemes refused or failing here: {shown[1]}, each with the engine's reason"]
                                     if shown[1] else []) and section.open_folds == 0, (text, section.summaries)


def test_chapters_never_put_a_trap_or_finding_inside_a_parenthesis(chapter_links):
    """A trap's or finding's name is a whole claim ('Machete does not apply on Blackwell, so W4A16 there falls back to
    Marlin or gets misrouted'): inside a parenthesis it reads as a stiff aside, so chapters write it as a labelled
    sentence after the prose it backs (macros.md.j2: recorded_traps, findings) or after a colon."""
    found = [f"{chapter}: {' '.join(name.split())}" for chapter, parser in chapter_links.items() for name in parser.claims]
    assert found == []


def test_support_table_notes_count_further_reasons_in_words(built_site):
    """A cell's note ends '(and 2 more reasons on the scheme's page)': no 'reason(s)', a parenthesis inside another."""
    text = (built_site / "chapters/support-tables/index.html").read_text(encoding="utf-8")
    counted = re.findall(r"and (\d+) more (reasons?) on the scheme", text)
    assert "reason(s)" not in text and counted
    assert all((n == "1") == (word == "reason") for n, word in counted)


def test_every_fenced_example_renders_as_a_code_block(built_site):
    """A fence glued to the line before it (a Jinja block tag eats the newline) turns the example into inline code."""
    source = (ROOT / "docs" / "contributing" / "template-functions.md.j2").read_text(encoding="utf-8")
    page = (built_site / "contributing" / "template-functions" / "index.html").read_text(encoding="utf-8")
    assert page.count("<pre") == source.count("```jinja") >= 7
    assert not any("<code>jinja " in p.read_text(encoding="utf-8") for p in built_site.rglob("*.html"))


def test_every_page_steps_its_headings_down_one_level_at_a_time(built_site):
    """A page's headings go h1, h2, h3 without skipping a level (a record page's first tables were h3 under the h1, as
    were the changelog's entries and the support tables' notes): a screen reader's outline, and the theme's table of
    contents, nest by level."""
    skipped = []
    for page in sorted(built_site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        article = text[text.find("<article"):text.find("</article>")]
        level = 0
        for found in re.findall(r"<h([1-6])[\s>]", article):
            if int(found) > level + 1:
                skipped.append(f"{page.relative_to(built_site)}: h{level} then h{found}")
                break
            level = int(found)
    assert skipped == []


def test_generated_prose_keeps_a_space_after_its_colons(built_site):
    """escape_text trims its text, so a fragment written as 'where X: ' ran into the link after it ('installed:selects
    vLLM HummingLinearKernel', '0.23.0 → 0.24.0:the ...'): the space is written after the escaped text."""
    joined = re.compile(r":selects\b|\d → \d+(?:\.\d+)+:\S")
    found = []
    for folder in ("hardware-targets", "schemes"):
        for page in sorted((built_site / folder).glob("*/index.html")):
            text = re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8"))
            found += [f"{page.parent.name}: {m.group()}" for m in joined.finditer(text)]
    assert found == []


def test_each_engine_s_support_matrix_is_under_a_heading_naming_it(built_site, real_atlas):
    """The grid's caption is hidden with the grid on a phone, which reads per-target lists instead: the engine is named
    by a heading above (h2 on the support tables page, h3 under the engine selection chapter's h2), and a line of links
    at the top leads to each."""
    from generators.derive.matrix import matrices
    engines = [m.engine for m in matrices(real_atlas.index, real_atlas.views.answers)]
    assert len(engines) >= 5
    for chapter, level in (("support-tables", 2), ("03-engine-selection", 3)):
        text = (built_site / "chapters" / chapter / "index.html").read_text(encoding="utf-8")
        heads = re.findall(rf'<h{level} id="derived-([\w-]+)" class="atlas-matrix__engine"><a href="../../engines/\1/">', text)
        jump = re.search(r'<p class="atlas-matrix__jump">(.*?)</p>', text).group(1)
        assert heads == engines and re.findall(r'href="#derived-([\w-]+)"', jump) == engines, chapter
        blocks = text.split('<div class="atlas-matrix">')[1:]
        assert all(block.lstrip().startswith(f'<h{level} id="derived-') for block in blocks), chapter


def test_every_table_column_has_a_heading(built_site):
    """A column with an empty heading ('provides' or 'lacks' under nothing, on an engine's default install) reads as a
    stray; on a phone its cells lose the label a stacked row gives them."""
    empty = re.compile(r"<th(?:\s[^>]*)?>\s*</th>")
    found = [str(page.relative_to(built_site)) for page in sorted(built_site.rglob("*.html"))
             if empty.search(page.read_text(encoding="utf-8"))]
    assert found == []


def test_a_long_run_time_failure_is_one_click_away_in_each_row(built_site):
    """Where vLLM selects Humming for a W4A8 INT checkpoint and fails at load, the scheme's and the targets' tables say
    so in one line and fold the thousand-character explanation under 'why it fails', instead of printing it on every
    NVIDIA target's row."""
    for page in ("schemes/vllm-ct-w4a8-int/index.html", "hardware-targets/nvidia-sm90/index.html"):
        text = (built_site / page).read_text(encoding="utf-8")
        article = text[text.find("<article"):text.find("</article>")]
        unfolded = re.sub(r"<details.*?</details>", "", article, flags=re.S)
        assert "weight shape mismatched" in article and "weight shape mismatched" not in unfolded, page
        assert article.count("<summary>why it fails</summary>") >= (7 if page.startswith("schemes") else 1), page


def test_a_format_support_entry_read_only_in_part_says_so_beside_its_status(built_site, real_atlas):
    """TensorRT-LLM's MXFP8 entry rests on its checkpoint loader and a unit test, not its linear layer at a named commit
    or a release: chapter 03 marks the status unverified and gives why in the note, as it does for an entry only a seed
    draft states: the status carries the shared unverified mark (its reason on hover), as chapters 01 and 02 mark a
    value, not the words '(unverified)'."""
    from generators.derive.engines import engine_support
    rows = {(e.engine, r.format): r for e in engine_support(real_atlas.index) for r in e.rows}
    partial = rows[("tensorrt-llm", "mxfp8")]
    assert partial.primary and partial.unverified.startswith("Read from the checkpoint loader")
    text = (built_site / "chapters" / "03-engine-selection" / "index.html").read_text(encoding="utf-8")
    row = next(r for r in text.split("<tr>") if 'href="../../formats/mxfp8/"' in r and "Unverified: " in r)
    assert ('<span class="atlas-unverified-value" title="unverified: Read from the checkpoint loader' in row
            and ">partial<sup>u</sup></span>" in row and "Unverified: Read from the checkpoint loader" in row)
    assert "(unverified)" not in text
    assert text.count("Unverified: ") == sum(1 for r in rows.values() if r.unverified)  # none where it is read whole


def test_the_home_page_leads_to_the_changelog_and_to_where_unverified_and_contested_facts_are_listed(built_site):
    """A reader asking what changed this week, or where a fact shows as unverified or contested, found neither from
    the home page's list of where to start: the changelog was in the navigation alone, and 'Gaps' did not say it lists
    both. Each link must reach a heading the target page has."""
    home = (built_site / "index.html").read_text(encoding="utf-8")
    start = home[home.index('id="where-to-start"'):]
    start = start[:start.index("</ul>")]
    links = re.findall(r'href="([^"]+)"', start)
    assert "chapters/changelog/" in links
    for anchor in ("records-no-primary-source-backs-yet", "contested-values"):
        assert f"chapters/gaps/#{anchor}" in links, links
        assert f'id="{anchor}"' in (built_site / "chapters/gaps/index.html").read_text(encoding="utf-8")


def test_the_changelog_says_how_many_commits_to_the_records_it_lists(built_site):
    """It walks only the latest few (changelog_depth.COMMITS): a reader asking what changed this week took the list for
    the week's, when it held the last minutes' commits."""
    from generators.changelog_depth import commit_limit

    page = (built_site / "chapters/changelog/index.html").read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))
    assert f"one of the {commit_limit()} latest commits that touched records/" in text
    shown = page.count("<small>records ·")
    assert 0 < shown <= commit_limit()


def test_the_format_map_breaks_a_kernel_chip_only_inside_a_long_word(built_site):
    """A break opportunity after every lower-case letter before a capital, and none at a space (the chip's link does
    not wrap), let 'cuBLAS Hgemm' wrap as 'cu' / 'BLAS Hgemm': a chip now breaks at its spaces, and only inside a
    word too long for a column."""
    from generators.render.format_map import SHORT_WORD

    page = (built_site / "chapters/format-map/index.html").read_text(encoding="utf-8")
    chips = re.findall(r'class="atlas-runs__kernel[^"]*"[^>]*>(?:<a [^>]*>)?(.*?)</', page)
    words = [word.removeprefix("<wbr>") for chip in chips for word in chip.split(" ")]
    assert [word for word in words if "<wbr>" in word and len(word.replace("<wbr>", "")) <= SHORT_WORD] == []
    assert any("<wbr>" in word for word in words)  # (MarlinFP8ScaledMM and its like still break)
    spaced = [chip for chip in chips if " " in chip]
    assert spaced and all(chip.count(" ") == chip.count(" <wbr>") for chip in spaced)  # (the link does not wrap)


def test_every_searched_section_fits_zensical_s_search_index(built_site):
    """Zensical (the engine the README offers beside MkDocs) refuses to build a site one of whose search sections has
    more token positions than its index holds: 65,536 at 10,827 items, which reads as 2 ** (30 - bits of the item
    count), half as many past 16,384 items. Chapter 04's table of every finding (71,313 positions), a kind index's
    list of 1,232 sources and a changelog entry of hundreds of changed cells grew past it or near it. MkDocs's own
    search index splits sections as Zensical does and counts about as many words (69,788 where Zensical counted
    71,313), so every section of it must stay under half the limit: room for the atlas to grow before it bites."""
    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    limit = 2 ** (30 - (len(docs) - 1).bit_length())
    sizes = sorted(((len(re.findall(r"\w+", re.sub(r"<[^>]+>", " ", d.get("text", "")))), d["location"])
                    for d in docs), reverse=True)
    assert sizes[0][0] > 5000, "no large section: the count is not reading the index"
    assert [s for s in sizes if s[0] > limit // 2] == [], (limit, sizes[:5])
