"""Every page type loads in a real browser without console errors or requests to other hosts; search finds aliases."""
from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import DESKTOP, PHONE, Browser

PAGE_TYPES = {
    "home": "",
    "chapter": "chapters/05-known-traps/",
    "support tables": "chapters/support-tables/",
    "format map": "chapters/format-map/",
    "trap index": "gotchas/",
    "selector": "can-i-run-it/",
    "data API": "data-api/",
    "kind index": "formats/",
    "format": "formats/nvfp4/",
    "accelerator": "accelerators/h100-sxm/",
    "scheme": "schemes/vllm-ct-w4a8-int/",
    "support matrix": "support-matrices/vllm-quantization-hardware-table/",
    "source": "sources/vllm-src-platform-cpu/",
    "source index": "sources/",
    "hardware target": "hardware-targets/x86-cpu-avx512/",
    "trap": "gotchas/nvfp4-bf16-dtype-garbled-without-native-fp4/",
    "gaps": "chapters/gaps/",
    "history": "chapters/history/",
    "kernel": "kernels/vllm-marlin/",
    "engine": "engines/vllm/",
    "benchmark": "benchmarks/deepseek-r1-0528-nvfp4-aime-2024/",
    "finding": "findings/vllm-w4a8-x86-cpu-cell/",
    "technique": "techniques/gguf-imatrix/",
    "term": "terms/compute-capability/",
    "glossary": "terms/",
    "observation": "observations/vllm-0-33-0-h1/",
    "contributing": "contributing/fields/",
}


@pytest.mark.parametrize("kind", PAGE_TYPES)  # one test per page: the workers share them
def test_every_page_type_loads_clean_and_local_and_fits_a_phone(browser: Browser, built_site: Path, kind: str) -> None:
    path = PAGE_TYPES[kind]
    browser.console_errors(), browser.requested_hosts()  # drain what earlier pages logged
    browser.open(path, PHONE)  # console and requests do not depend on the width; page-level scrolling does
    width, title, wide = browser.js("const h1 = document.querySelector('h1');"
                                    "return [document.documentElement.scrollWidth, h1 && h1.textContent,"
                                    " [...document.querySelectorAll('article .md-typeset__scrollwrap')]"  # (a table's)
                                    "  .filter(w => w.scrollWidth > w.clientWidth + 1)"
                                    "  .map(w => w.textContent.trim().slice(0, 60))]")
    problems = []
    if width > PHONE[0]:
        problems.append(f"{width} px wide at {PHONE[0]} px")
    if wide:  # a long identifier in a cell held its column open: the table scrolled sideways, its last columns unseen
        problems.append(f"tables wider than the page: {wide}")
    if not title:
        problems.append("no h1")
    errors = browser.console_errors()
    if errors:
        problems.append(f"console errors {errors}")
    hosts = browser.requested_hosts() - {"127.0.0.1"}
    if hosts:
        problems.append(f"requests to {sorted(hosts)}")
    assert problems == [], f"{kind} ({path})"
    if kind in SAME_PAGE:  # the checks of this page's own test, on this load of it, at 1440 px as they were written
        browser.resize(DESKTOP)
        SAME_PAGE[kind](browser, built_site)


ALIASES = {"float8_e5m2": "formats/fp8-e5m2/", "FP8_KV_CACHE": "formats/fp8-kv-cache/"}
# ('ExLlamaV2' no longer lists the EXL2 format among the first ten results: the engine's kernels, whose ids and names
# begin with it, and its schemes and findings come first; 'EXL2' still finds the format first, see FIRST)
FIRST = {"EXL2": "formats/exl2/", "ExLlamaV2": "engines/exllamav2/", "GPTQ": "formats/gptq/",
         "vLLM": "engines/vllm/", "ONNX Runtime": "engines/onnxruntime/", "ONNX Runtime GenAI": "engines/onnxruntime-genai/",
         "TensorRT-LLM": "engines/tensorrt-llm/", "MarlinExperts": "kernels/vllm-marlin-moe/",
         "vLLM MarlinLinearKernel": "kernels/vllm-marlin/", "TRT-LLM": "engines/tensorrt-llm/",
         "Marlin MoE": "kernels/vllm-marlin-moe/", "vllm-cutlass-int8-scaled-mm": "kernels/vllm-cutlass-int8-scaled-mm/",
         "NVIDIA ModelOpt": "engines/nvidia-modelopt/",
         "FP8 E5M2": "formats/fp8-e5m2/", "FP8": "formats/fp8-e4m3/",
         "kernel": "kernels/marlin-int4-gemm/", "sm_90": "hardware-targets/nvidia-sm90/",
         "gfx942": "hardware-targets/amd-gfx942/", "Hopper": "hardware-targets/nvidia-sm90/",
         "Machete weight-only 4-bit GEMM": "kernels/machete-gemm/", "MMVQ": "terms/mmvq/", "Marlin": "engines/marlin/",
         "compute capability": "terms/compute-capability/", "vllm-gguf-mmvq": "kernels/vllm-gguf-mmvq/",
         "vllm-marlin": "kernels/vllm-marlin/", "llama.cpp MMQ": "kernels/llama-cpp-mmq/"}  # the record whose name or
# id is the query (derive/search_terms.py; 'Hopper' is the architecture the target's accelerators state; a glossary
# term's spelling that no record is named or identified by, its term page, before the kernels named with it; the
# Marlin engine, named and identified 'marlin', before the Marlin glossary page; a kernel's id or name that carries a
# spelling, its kernel, before the glossary page, whose definition is not in its first section),
# before the ExLlamaV2 engine and benchmarks that mention EXL2, GPTQModel (which 'GPTQ' begins), every vLLM kernel and
# trap, ONNX Runtime GenAI (which has both words of 'ONNX Runtime'), the kernels that share four of the id's five words,
# the ModelOpt checkpoint format, FP8 E4M3 (whose alias 'FP8' is the one word the query shares); 'FlashInfer FP4 GEMM'
# outweighs the FlashInfer engine by one tag word, yet lunr's idf still puts the engine first (its markers are rarer);
# a word in no record's name finds a page titled with it, not a page a search boost lifts for every query
# (formats/gptq/ came first for 'kernel'); Machete's name holds '4-bit', which the 4-bit formats are tagged with.
# benchmarks/search_ranking.py tries every name and id.
UNNAMED_WORDS = ("kernel",)  # FIRST's queries chosen as a word no record's name held when the case was written
WIDTHS = {"4-bit": 4, "8-bit": 8}  # the first five results are formats of that many bits per weight (BitNet,
# bitnet.cpp and bitsandbytes came first: 'bit' begins their names)


SEARCH_FOR = """const box = document.querySelector('.md-search__input');  // the theme searches on keyup
box.value = arguments[0]; box.dispatchEvent(new KeyboardEvent('keyup'));"""


def test_search_finds_records_by_their_aliases_and_the_named_record_first(browser: Browser, built_site: Path) -> None:
    """Each alias, put into one page's search box, lists its record, and a format, kernel or engine id or name
    lists that record first, a width its formats: the search worker fetches and indexes the ~600 pages once for all of
    them. A query is set whole (typed key by key, each prefix would be searched and its results read); between queries
    the box is emptied and the old results must go first."""
    widths = {query: {f"/formats/{path.stem}/" for path in (built_site / "api/records/formats").glob("*.json")
                      if json.loads(path.read_text(encoding="utf-8"))["data"].get("weight_bits") == bits}
              for query, bits in WIDTHS.items()}
    queries: list[tuple[str, Callable[[list[str]], bool]]] = [
        (query, lambda hrefs, page=page: any(h.endswith(page) for h in hrefs)) for query, page in [*ALIASES.items(),
                                                                                                     *FIRST.items()]]
    queries += [(query, lambda hrefs, pages=pages: len(_pages(hrefs)) == 5 and set(_pages(hrefs)) <= pages)
                for query, pages in widths.items()]
    found: dict[str, list[str]] = {}
    with browser.full_search():  # the worker fetches the index after the page has loaded
        browser.open("")
        browser.js("document.querySelector('.md-search__input').focus()")
        for query, done in queries:
            browser.js(SEARCH_FOR, "")
            assert _results(browser, lambda hrefs: not hrefs) == [], "results of the previous query stayed"
            browser.js(SEARCH_FOR, query)
            found[query] = _results(browser, done)
        shown_tags = browser.js("return [...document.querySelectorAll('.md-search-result .md-tag')]"
                                ".filter(e => e.offsetParent).map(e => e.textContent)")
    assert {alias: any(h.endswith(page) for h in found[alias]) for alias, page in ALIASES.items()} == \
        dict.fromkeys(ALIASES, True), found
    # a word in no record's name ('kernel') finds the page FIRST names; once a record is named with the word (a finding
    # such as "... name their kernel"), that record comes first, as any record named by a query does
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    named = {word: {f"/{r['page'].strip('/')}/" for rows in index["records"].values() for r in rows
                    if re.search(rf"\b{word}\b", r["name"], re.IGNORECASE)} for word in UNNAMED_WORDS}
    assert {query: found[query][0] in named[query] if named.get(query) else found[query][0] for query in FIRST} == \
        {query: True if named.get(query) else "/" + page for query, page in FIRST.items()}, found
    assert all(len(pages) > 5 for pages in widths.values()), widths
    assert {query: set(_pages(found[query])) <= pages for query, pages in widths.items()} == \
        dict.fromkeys(WIDTHS, True), found
    assert shown_tags == []  # the last results (8-bit formats, tagged '8-bit' and 'bit_') show no search terms


def _pages(hrefs: list[str]) -> list[str]:
    """The first five pages listed (a page's sections are links to it too)."""
    return list(dict.fromkeys(hrefs))[:5]


# The result links' paths, as soon as they differ from the list given (arguments[0]), else when the results change, else
# after arguments[1] ms: the page waits, instead of the test asking it every few milliseconds.
NEXT_RESULTS = """const [seen, wait, reply] = arguments;
const read = () => [...document.querySelectorAll('.md-search-result__link')].map(a => new URL(a.href).pathname);
const now = read();
if (JSON.stringify(now) !== JSON.stringify(seen)) return reply(now);
const observer = new MutationObserver(() => { observer.disconnect(); clearTimeout(timer); reply(read()); });
const timer = setTimeout(() => { observer.disconnect(); reply(read()); }, wait);
observer.observe(document.querySelector('.md-search-result') || document.body,
                 {childList: true, subtree: true, attributes: true, characterData: true});"""


def _results(browser: Browser, done: Callable[[list[str]], bool]) -> list[str]:
    """The search results' paths once `done` holds for them, or when 60 s have passed: the worker indexes ~600 pages
    before it answers the first query, which took over 15 s once at a load of 8 on two cores (a passing query returns
    as soon as its page is listed, so only a failure waits that long). The page reports each change of the results
    (NEXT_RESULTS): reading them every 20 ms instead kept the test, the driver and the page's main thread busy beside
    the worker that builds the index; a query is answered in tens of milliseconds once the index is built."""
    deadline = time.monotonic() + 60
    hrefs: list[str] | None = None
    while True:
        hrefs = browser.driver.execute_async_script(NEXT_RESULTS, hrefs, 1000)
        if done(hrefs) or time.monotonic() > deadline:
            return hrefs


BROKEN_HEADS = """const broken = [];  // a header word drawn on two lines ('Blackwe' / 'll') or past its column
for (const th of document.querySelectorAll('.atlas-grid__scroll thead th')) {
  const edge = th.getBoundingClientRect();
  const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/[^\\s·/]+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index); range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()];
      const wide = rects.some(r => r.left < edge.left - 1 || r.right > edge.right + 1);
      if (rects.length > 1 || wide) broken.push(match[0]);
    }
  }
}
return broken;"""
SPILLED_VERDICTS = """return [...document.querySelectorAll('.atlas-grid__scroll td.atlas-grid__cell > a')].filter(a => {
    const cell = a.parentElement.getBoundingClientRect(), label = a.getBoundingClientRect();
    return label.right > cell.right + 0.5 || label.left < cell.left - 0.5; }).map(a => a.textContent)"""
TABLETS = (768, 800, 900)  # no sidebar at these widths: the page is the window's, the grids' columns their narrowest


def test_the_support_grids_keep_each_verdict_and_header_in_its_column_at_tablet_widths(browser: Browser) -> None:
    """Between the phone's per-target lists (under 720 px) and a desktop, the grids' fixed columns shrank to a share of
    the page, 30 px at 800 px, and 'Refused', 'Fallback', 'Runs if' and 'Blackwell' ran over the next column: the grid
    now keeps a least width per column and scrolls inside its box. One load, resized (the page is the site's largest)."""
    browser.open("chapters/support-tables/", (TABLETS[0], 900))
    for width in TABLETS:
        browser.resize((width, 900))
        found = {"sideways": browser.js("const page = document.documentElement; return page.scrollWidth - page.clientWidth"),
                 "verdicts": sorted(set(browser.js(SPILLED_VERDICTS))), "heads": sorted(set(browser.js(BROKEN_HEADS)))}
        assert found == {"sideways": 0, "verdicts": [], "heads": []}, f"at {width} px"


def test_the_support_tables_page(browser: Browser) -> None:
    """The derived tables at 1440 and 390 px, the published tables at 390 px and a cell's link to its note, read from
    one load of the page (its 1.6 MB is the site's largest): the checks change the width and, last, follow links."""
    browser.open("chapters/support-tables/")
    _the_derived_support_table_fits_1440_and_reads_per_target_at_390(browser)
    _a_phone_s_per_target_lists_carry_the_grid_s_marks_and_lead_to_the_note(browser)  # left at 390 px by the above
    _published_tables_read_per_column_at_390_with_the_derived_verdict_beside(browser)
    browser.resize(DESKTOP)
    _a_cell_leads_to_its_note(browser)


def _the_derived_support_table_fits_1440_and_reads_per_target_at_390(browser: Browser) -> None:
    browser.resize(DESKTOP)
    browser.screenshot("support-tables-1440")
    grids = browser.js("""return [...document.querySelectorAll('.atlas-matrix')].map(m => {  // one per engine
        const s = m.querySelector('.atlas-grid__scroll');
        const heads = [...s.querySelectorAll('thead tr:last-child th')].map(th => th.getBoundingClientRect().right);
        return {scroll: s.scrollWidth, client: s.clientWidth, page: document.documentElement.scrollWidth,
                columns: heads.length, rightmost: Math.max(...heads), bottom: s.getBoundingClientRect().bottom,
                rows: s.querySelectorAll('tbody tr').length, cells: s.querySelectorAll('tbody td').length,
                targets: m.querySelectorAll('.atlas-matrix__per-target .atlas-target').length}; })""")
    assert len(grids) >= 2 and max(grid["columns"] for grid in grids) > 10
    for grid in grids:
        assert grid["columns"] == grid["targets"] and grid["cells"] == grid["rows"] * grid["targets"]
        assert grid["scroll"] <= grid["client"] and grid["page"] <= 1440 and grid["rightmost"] <= 1440
    targets = sum(grid["targets"] for grid in grids)
    assert browser.js(BROKEN_HEADS) == []
    # and no cell's verdict drawn past its cell ("Fallback if" overlapped its neighbours: it now wraps at its space)
    assert browser.js(SPILLED_VERDICTS) == []
    browser.resize(PHONE)
    browser.screenshot("support-tables-390")
    phone = browser.js("""return {page: document.documentElement.scrollWidth,
        grid: getComputedStyle(document.querySelector('.atlas-grid__scroll')).display,
        lists: [...document.querySelectorAll('.atlas-matrix__per-target .atlas-target')].filter(d => d.getBoundingClientRect().width > 0).length,
        named: [...document.querySelectorAll('.atlas-matrix')].filter(m => {  // the engine, with the caption hidden
            const head = m.querySelector('.atlas-matrix__engine'); return head && head.getBoundingClientRect().height > 0;
        }).length}""")
    assert phone == {"page": PHONE[0], "grid": "none", "lists": targets, "named": len(grids)}


def _a_phone_s_per_target_lists_carry_the_grid_s_marks_and_lead_to_the_note(browser: Browser) -> None:
    """On a phone the grid gives way to one list per target under the same legend ("‡ a published table says otherwise
    (see the note)", "! traps apply"): each item's verdict leads to its cell's note, as the grid's cell does, and carries
    the cell's marks. The lists once showed the verdict and the scheme alone: no trap, no published disagreement, no
    way to the note on a phone."""
    shown = browser.js("""const marks = e => [...e.querySelectorAll('.atlas-mark')].map(m => m.textContent).join('');
        const grid = {}, lists = {};
        for (const a of document.querySelectorAll('.atlas-matrix .atlas-grid__cell > a')) grid[a.getAttribute('href')] = marks(a.parentElement);
        for (const li of document.querySelectorAll('.atlas-matrix__per-target li')) {
          const a = li.querySelector('a.atlas-target__note');
          lists[a ? a.getAttribute('href') : li.textContent] = marks(li);
        }
        return {grid, lists}""")
    assert shown["lists"] == shown["grid"]
    assert {mark: any(mark in marks for marks in shown["grid"].values()) for mark in "‡!"} == {"‡": True, "!": True}
    note = browser.js("""const li = [...document.querySelectorAll('.atlas-matrix__per-target li')]
            .find(li => li.querySelector('.atlas-mark--trap'));
        li.closest('details').open = true;
        const a = li.querySelector('a.atlas-target__note'); a.click();
        const target = document.getElementById(a.getAttribute('href').slice(1)), box = target.getBoundingClientRect();
        const found = {open: target.closest('details').open, visible: box.top >= 0 && box.top < innerHeight && box.width > 0,
                       trap: target.textContent.toLowerCase().includes('trap')};
        target.closest('details').open = li.closest('details').open = false;  // as the later checks expect the page
        history.replaceState(null, '', location.pathname);
        return found""")
    assert note == {"open": True, "visible": True, "trap": True}


UNVERIFIED_FIGURES = """const rows = [];
for (const table of document.querySelectorAll('article table')) {
  const heads = [...table.querySelectorAll('thead th')].map(th => th.textContent.trim());
  const at = heads.indexOf('unverified');
  if (at < 0) continue;
  for (const tr of table.querySelectorAll('tbody tr')) {
    const cells = [...tr.children], reason = cells[at].textContent.replace(/\\s+/g, ' ').trim();
    const marks = [...tr.querySelectorAll('.atlas-unverified-value')];
    rows.push({reason, marks: marks.map(m => ({title: m.title, sup: m.querySelector('sup')?.textContent || '',
                                               column: heads[cells.indexOf(m.closest('td'))], width: m.getBoundingClientRect().width,
                                               right: m.getBoundingClientRect().right})),
               links: [...cells[at].querySelectorAll('a')].map(a => [a.textContent, a.pathname])});
  }
}
return {rows, width: document.documentElement.clientWidth}"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
def test_an_unverified_figure_reads_as_unverified_where_it_stands_and_its_reason_links_the_finding(
        browser: Browser, built_site: Path, size: tuple[int, int]) -> None:
    """An accelerator's figure that no primary source states (its `unverified` reason) once looked like any other: only
    the "unverified" column beside it said so, and the finding that reason names ("finding hw-nvidia-datasheets-unread")
    was plain text. The figure now carries the format map's unverified mark (a dotted outline and a superscript u, the
    reason on hover), a figure with no reason none, and each finding the reason names by id links to its page."""
    folder = built_site / "api/records"
    findings = {path.stem for path in (folder / "findings").glob("*.json")}
    pages = []
    for path in sorted((folder / "accelerators").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))["data"]
        if any(isinstance(v, list) and any(isinstance(i, dict) and i.get("unverified") for i in v) for v in data.values()):
            pages.append(path.stem)
    assert len(pages) >= 5
    linked = 0
    for page in pages if size == DESKTOP else pages[:2]:
        browser.open(f"accelerators/{page}/", size)
        shown = browser.js(UNVERIFIED_FIGURES)
        marked = [row for row in shown["rows"] if row["reason"]]
        assert marked, page
        for row in shown["rows"]:
            if not row["reason"]:
                assert row["marks"] == [], (page, row)
                continue
            assert row["marks"], (page, row)
            assert all(m["title"] == f"unverified: {row['reason']}" and m["sup"] == "u" and m["column"] != "unverified"
                       and m["width"] > 0 and m["right"] <= shown["width"] for m in row["marks"]), (page, row)
            named = [f for f in re.findall(r"\bfinding ([a-z0-9]+(?:-[a-z0-9]+)*)", row["reason"]) if f in findings]
            assert row["links"] == [[f, f"/findings/{f}/"] for f in named], (page, row)
            linked += len(named)
    assert linked  # hw-nvidia-datasheets-unread, among others


def test_a_stacked_row_on_a_phone_shows_an_empty_cell_as_its_column_name_and_a_dash(browser: Browser) -> None:
    """Stacked at phone width, an empty cell means something: on a scheme's history table, a release not observed on
    a target; on an accelerator's figures, a note not given. It once showed its column's name alone ("notes:"), then
    was hidden, so the row lost the release without a word; now it keeps the name and shows a dash, and every cell
    with a value still shows it under its column's name."""
    read = """const cells = [...document.querySelectorAll('.md-typeset table[data-atlas-stack] tbody td:not(:first-child)')];
        const empty = cells.filter(td => !td.textContent.trim() && !td.querySelector('img, svg, input'));
        const said = td => getComputedStyle(td, '::before').content + getComputedStyle(td, '::after').content;
        return {empty: empty.length, shownEmpty: empty.filter(td => getComputedStyle(td).display !== 'none').length,
                dashed: empty.filter(td => said(td) === '"' + td.dataset.label + ': ""\u2014"').length,
                releases: empty.filter(td => /^[0-9]+[.][0-9]+[.][0-9]+$/.test(td.dataset.label || '')).length,
                shownFull: cells.filter(td => td.textContent.trim() && getComputedStyle(td).display !== 'none').length,
                full: cells.filter(td => td.textContent.trim()).length}"""
    for page, releases in (("schemes/vllm-ct-w8a8-fp8/", True), ("accelerators/rtx-4090/", False)):
        browser.open(page, PHONE)
        phone = browser.js(read)
        assert phone["empty"] > 0 and phone["shownEmpty"] == phone["empty"] == phone["dashed"], (page, phone)
        assert (phone["releases"] > 0) == releases, (page, phone)  # the history table's unobserved releases are among them
        assert phone["full"] > 0 and phone["shownFull"] == phone["full"], (page, phone)


def test_a_record_page_wide_table_reads_one_row_at_a_time_at_390_and_stays_a_table_at_1440(browser: Browser) -> None:
    """A target's derived-support table (scheme, verdict, why) at phone width: no sideways scrolling, each row a block
    whose cells after the first name their column; at desktop width the same table keeps its header row, and a row's
    "why" folds what runs if its conditions fail under a disclosure that opens on a click."""
    read = """const table = [...document.querySelectorAll('.md-typeset table')].find(t =>
            [...t.querySelectorAll('thead th')].map(th => th.textContent.trim()).join('|') === 'scheme|verdict|whole checkpoint|why');
        const cells = [...table.querySelectorAll('tbody td')];
        return {stacked: table.hasAttribute('data-atlas-stack'), head: getComputedStyle(table.tHead).display,
                page: document.documentElement.scrollWidth, rows: table.tBodies[0].rows.length,
                blocks: cells.filter(td => getComputedStyle(td).display === 'block').length, cells: cells.length,
                outside: cells.filter(td => td.getBoundingClientRect().right > innerWidth + 1).length,
                labels: [...new Set([...table.querySelectorAll('tbody tr')].flatMap(tr =>
                    [...tr.cells].slice(1).map(td => getComputedStyle(td, '::before').content)))]}"""
    browser.open("hardware-targets/nvidia-sm90/", PHONE)
    browser.screenshot("stacked-table-390")
    phone = browser.js(read)
    assert phone["stacked"] and phone["head"] == "none" and phone["rows"] > 10
    assert phone["page"] <= PHONE[0] and phone["outside"] == 0 and phone["blocks"] == phone["cells"] == 4 * phone["rows"]
    # (SM 9.0 has expert-layer schemes: the table adds their whole checkpoint, "—" on the other rows)
    assert sorted(phone["labels"]) == ['"verdict: "', '"whole checkpoint: "', '"why: "']
    browser.resize(DESKTOP)
    desktop = browser.js(read)
    assert desktop["head"] == "table-header-group" and desktop["blocks"] == 0
    folded = browser.js("""const more = [...document.querySelectorAll('td details.atlas-why-more')]
            .find(d => d.textContent.includes("If not, in the engine's order"));
        const cell = more.closest('td'), summary = more.querySelector('summary');
        const before = {open: more.open, height: more.getBoundingClientRect().height};
        summary.click();
        return {before, label: summary.textContent, open: more.open, height: more.getBoundingClientRect().height,
                lead: cell.textContent.slice(0, cell.textContent.indexOf(summary.textContent)),
                tableRows: document.querySelectorAll('details.atlas-why-more').length}""")
    # a row reads kernel and conditions; what runs if they fail is one click away, not printed on every row
    assert folded["before"]["open"] is False and folded["open"] is True
    assert folded["height"] > 2 * folded["before"]["height"] and folded["label"].startswith("if not")
    assert folded["lead"].startswith("via ") and "If not" not in folded["lead"] and folded["tableRows"] > 10


LAPTOP = (1280, 800)
# the kernels whose requirements state the most fields (fourteen: transformers' MXFP4 and bitsandbytes linears) or the
# longest texts: one column per field made their tables the widest of the site
WIDE_REQUIREMENTS = ("kernels/transformers-mxfp4-matmul-ogs/", "kernels/transformers-bnb-4bit-linear/",
                     "kernels/exllamav2-q-gemm-exl2/")
OVERFLOWING = """return [...document.querySelectorAll('article .md-typeset__scrollwrap')]
    .filter(w => w.scrollWidth > w.clientWidth + 1).map(w => w.textContent.trim().slice(0, 60))"""


def test_a_kernel_s_requirements_fit_the_page_at_1280_and_read_one_requirement_a_block_at_390(browser: Browser) -> None:
    """A column per requirement field (up to fourteen) ran the table past the content column at 1280 px, its prose a
    few words a line; with the check, its values and one cell of labelled lines, no table scrolls sideways at 1280 px,
    every label shows, and on a phone each requirement is one block."""
    read = """const table = document.getElementById('requirements').nextElementSibling.querySelector('table');
        return {columns: table.tHead.rows[0].cells.length, rows: table.tBodies[0].rows.length,
                labels: table.querySelectorAll('.atlas-field-label').length, page: document.documentElement.scrollWidth,
                right: table.getBoundingClientRect().right, article: document.querySelector('article').getBoundingClientRect().right,
                cut: [...table.tBodies[0].rows].filter(r => r.cells[0].scrollWidth > r.cells[0].clientWidth + 1).length,
                blocks: [...table.querySelectorAll('tbody td')].every(td => getComputedStyle(td).display === 'block')}"""
    for path in WIDE_REQUIREMENTS:
        browser.open(path, LAPTOP)
        wide, laptop = browser.js(OVERFLOWING), browser.js(read)
        assert wide == [] and laptop["columns"] == 3 and laptop["rows"] > 2, (path, wide, laptop)
        assert laptop["labels"] > 2 * laptop["rows"] and laptop["right"] <= laptop["article"] + 1, (path, laptop)
        assert laptop["cut"] == 0, (path, laptop)  # a check's name shows whole
        browser.resize(PHONE)
        phone = browser.js(read)
        assert phone["page"] <= PHONE[0] and phone["blocks"] and browser.js(OVERFLOWING) == [], (path, phone)


def test_a_requirement_s_value_shows_beside_its_check_a_short_one_on_one_line(browser: Browser) -> None:
    """What a requirement tests is a list of values or one value; the single value (a capability, a package spec) was
    a line of the details cell, the column beside "capability-min" blank, and at its least width that column broke
    "accelerate>=1.1.0" mid-version. Each sits beside its check, and a value of up to 20 characters without a space
    reads on one line at 1280 px."""
    browser.open("kernels/transformers-mxfp4-matmul-ogs/", LAPTOP)
    read = browser.js("""const table = document.getElementById('requirements').nextElementSibling.querySelector('table');
        const lines = c => { const r = document.createRange(); r.selectNodeContents(c); return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; };
        return {head: [...table.tHead.rows[0].cells].map(c => c.textContent.trim()),
                rows: [...table.tBodies[0].rows].map(r => [r.cells[0].textContent.trim(), r.cells[1].textContent.trim(), lines(r.cells[1])])}""")
    assert read["head"] == ["check", "value", "details"], read["head"]
    assert [value for check, value, _ in read["rows"] if check in ("capability-min", "package")] and all(
        value for check, value, _ in read["rows"] if check in ("capability-min", "package")), read["rows"]
    short = [(value, lines) for _, value, lines in read["rows"] if value and len(value) <= 20 and " " not in value]
    assert short and all(lines == 1 for _, lines in short), short


def test_chapter_02_pairings_fit_the_page_at_1280_and_read_one_pairing_a_block_at_390(browser: Browser) -> None:
    """Chapter 02's folded pairings had nine columns (accumulate, estimate and each figure's source beside the figures):
    at 1280 px the table ran 1163 px in a 938 px content column, its bandwidth source out of sight. With the figures as
    columns and the rest labelled lines of one cell, it fits at 1280 px, a part's name wraps at its spaces, every line
    keeps its label, and on a phone each pairing is one block."""
    read = """const fold = [...document.querySelectorAll('article details')]
            .find(d => d.querySelector('summary').textContent.startsWith('Every pairing'));
        fold.open = true;
        const table = fold.querySelector('table'), rows = [...table.tBodies[0].rows];
        const wrap = table.closest('.md-typeset__scrollwrap') || table.parentElement;
        return {columns: table.tHead.rows[0].cells.length, rows: rows.length, page: document.documentElement.scrollWidth,
                labels: table.querySelectorAll('.atlas-field-label').length, scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
                right: table.getBoundingClientRect().right, article: document.querySelector('article').getBoundingClientRect().right,
                tallest: Math.max(...rows.map(r => r.getBoundingClientRect().height)),
                blocks: [...table.querySelectorAll('tbody td')].slice(0, 60).every(td => getComputedStyle(td).display === 'block')}"""
    browser.open("chapters/02-flop-map/", LAPTOP)
    laptop = browser.js(read)
    assert laptop["columns"] == 6 and laptop["rows"] > 100 and not laptop["scrolls"], laptop
    assert laptop["right"] <= laptop["article"] + 1 and laptop["labels"] >= 2 * laptop["rows"], laptop
    assert laptop["tallest"] < 250, laptop  # a few lines a row, not a word a line
    browser.screenshot("chapter-02-pairings-1280")
    browser.resize(PHONE)
    phone = browser.js(read)
    assert phone["page"] <= PHONE[0] and phone["blocks"] and not phone["scrolls"], phone
    browser.screenshot("chapter-02-pairings-390")


def test_chapter_23_folds_each_target_s_refusals_and_a_jump_link_lands_on_its_target(browser: Browser) -> None:
    """Chapter 23 was about 170,000 px tall at 1280 px, a third of it the refusal lists of targets a reader did not ask
    about. Each list is now a closed fold, one line tall, whose text is still in the page (the browser's find opens it);
    opening them all gives the height back; a link of the table at the top lands on its target's heading."""
    browser.open("chapters/23-quantization-selection/", LAPTOP)
    closed = browser.js("""const folds = [...document.querySelectorAll('article details')].filter(d =>
            d.querySelector('summary').textContent.startsWith('Schemes refused or failing here'));
        return {folds: folds.length, open: folds.filter(d => d.open).length, text: Math.min(...folds.map(d => d.textContent.length)),
                tallest: Math.max(...folds.map(d => d.getBoundingClientRect().height)), page: document.documentElement.scrollHeight}""")
    assert closed["folds"] > 10 and closed["open"] == 0 and closed["text"] > 200 and closed["tallest"] < 80, closed
    opened = browser.js("""for (const d of document.querySelectorAll('article details')) d.open = true;
        return document.documentElement.scrollHeight""")
    assert opened > closed["page"] + closed["folds"] * 200, (opened, closed)
    landed = browser.js("""for (const d of document.querySelectorAll('article details')) d.open = false;
        const links = [...document.querySelectorAll('article table a[href^="#"]')];
        const link = links[links.length - 1]; link.click();
        const heading = document.getElementById(link.hash.slice(1));
        return {links: links.length, tag: heading.tagName, same: heading.textContent.startsWith(link.textContent),
                top: heading.getBoundingClientRect().top}""")
    assert landed["links"] > 10 and landed["tag"] == "H3" and landed["same"] and 0 <= landed["top"] < LAPTOP[1] / 2, landed


def test_chapter_23_s_refusal_fold_opens_from_the_keyboard_and_reads_at_390(browser: Browser) -> None:
    """A closed fold hides a target's refusals from the eye only: Shift+Tab from the first link after it reaches its
    summary, Enter opens it and Space closes it, and open on a phone its list stays within the page's width."""
    from selenium.webdriver.common.keys import Keys
    browser.open("chapters/23-quantization-selection/", PHONE)
    first = """const fold = [...document.querySelectorAll('article details')].find(d =>
            d.querySelector('summary').textContent.startsWith('Schemes refused or failing here'));"""
    browser.js(first + """const after = [...document.querySelectorAll('article a[href]')].find(a =>
            fold.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING && !fold.contains(a));
        after.focus();""")
    active = browser.driver.switch_to.active_element
    active.send_keys(Keys.SHIFT, Keys.TAB)
    on = browser.js(first + "return [document.activeElement === fold.querySelector('summary'), fold.open]")
    browser.driver.switch_to.active_element.send_keys(Keys.ENTER)
    opened = browser.js(first + "return [fold.open, document.documentElement.scrollWidth, fold.getBoundingClientRect().right]")
    browser.driver.switch_to.active_element.send_keys(Keys.SPACE)
    closed = browser.js(first + "return fold.open")
    assert on == [True, False] and opened[0] and opened[1] <= PHONE[0] and opened[2] <= PHONE[0] and not closed, (on, opened, closed)


def _a_record_page_table_fits_1440(browser: Browser) -> None:
    """A cell breaks a long identifier anywhere, so vLLM's default-install table (six columns, paths and kernel classes
    in them) fits the content column with its source column in sight (on engines/vllm/; a table of nine or more
    columns: see the next check)."""
    wide = browser.js("return [...document.querySelectorAll('article .md-typeset__scrollwrap')]"
                      ".filter(w => w.scrollWidth > w.clientWidth + 1).map(w => w.textContent.trim().slice(0, 60))")
    assert wide == []


def _a_record_page_table_of_nine_columns_keeps_its_prose_wide(browser: Browser) -> None:
    """A table of nine or more columns (a scheme's releases, on schemes/vllm-ct-w4a8-int/) scrolls instead, its prose
    column wide enough that a row stays a few lines (it grew to 1191 px when every column shrank to the theme's least
    width)."""
    rows = browser.js("const t = [...document.querySelectorAll('article table')].find(t => t.querySelector('th:nth-child(9)'));"
                      "return [...t.tBodies[0].rows].map(r => r.getBoundingClientRect().height)")
    assert len(rows) > 10 and max(rows) < 500


def _a_cell_leads_to_its_note(browser: Browser) -> None:
    """The notes are folded under each engine's grid (the page is the grids, one after another); a cell's link opens
    its engine's notes at its own, from this page or from the engine selection chapter's grids."""
    folded = browser.js("return [...document.querySelectorAll('details.atlas-notes__fold')].map(d => d.open)")
    assert len(folded) >= 5 and not any(folded)
    note = browser.js("""const a = document.querySelector('.atlas-grid__cell.verdict-refused a'); a.click();
        const li = document.querySelector(a.getAttribute('href'));
        return {hash: location.hash, text: li.textContent, visible: li.getBoundingClientRect().top < innerHeight,
                open: li.closest('details').open}""")
    assert note["hash"].startswith("#cell-") and "Refused" in note["text"] and note["visible"] and note["open"]
    browser.open("chapters/03-engine-selection/")
    href = browser.js("const a = document.querySelector('.atlas-grid__cell.verdict-runs a'); a.click(); return a.getAttribute('href')")
    assert href.startswith("../support-tables/#cell-")
    # the click navigates to another page: read it once it has loaded and its script has opened the note (up to 20 s;
    # read at once, the old page or the new one before its load handlers answered once when the machine was idle)
    arrive = """const li = document.getElementById(location.hash.slice(1));
        if (document.readyState !== 'complete' || !li) return null;
        return {path: location.pathname, open: li.closest('details').open, visible: li.getBoundingClientRect().top < innerHeight}"""
    deadline, arrived = time.monotonic() + 20, None
    while time.monotonic() < deadline and (arrived is None or not arrived["open"] or not arrived["visible"]):
        time.sleep(0.05)
        arrived = browser.js(arrive)
    assert arrived == {"path": "/chapters/support-tables/", "open": True, "visible": True}


def _the_trap_index_filters_and_sorts(browser: Browser) -> None:
    result = browser.js("""const table = document.querySelector('#atlas-traps');
        const rows = () => [...table.tBodies[0].rows];
        const all = rows().length;
        const select = document.querySelector('#atlas-traps-filter-severity');
        select.value = 'blocker'; select.dispatchEvent(new Event('change'));
        const shown = rows().filter(r => !r.hidden).map(r => r.cells[1].dataset.values);
        select.value = ''; select.dispatchEvent(new Event('change'));
        const silent = document.querySelector('#atlas-traps-filter-silent');
        silent.value = 'silent'; silent.dispatchEvent(new Event('change'));
        const silentShown = rows().filter(r => !r.hidden).map(r => r.cells[2].dataset.values);
        silent.value = ''; silent.dispatchEvent(new Event('change'));
        const head = table.tHead.rows[0].cells[1]; head.click(); head.click();
        const order = rows().map(r => Number(r.cells[1].dataset.sort));
        return {all, shown, silentShown, order, filters: document.querySelectorAll('.atlas-table-tools select').length}""")
    assert result["filters"] == 5 and result["all"] > 5
    assert result["shown"] and set(result["shown"]) == {"blocker"} and len(result["shown"]) < result["all"]
    assert result["silentShown"] and set(result["silentShown"]) == {"silent"}
    assert result["order"] == sorted(result["order"], reverse=True)


def _the_format_map_fits_one_1440_by_900_screen_and_cites_its_peaks(browser: Browser, built_site: Path) -> None:
    document = json.loads((built_site / "api/format-map.json").read_text(encoding="utf-8"))
    listed = [a for a in document["accelerators"] if a["native"] or a["emulated"]]
    browser.screenshot("format-map-1440")
    found = browser.js("""const panels = document.querySelector('.atlas-map__panels'); const box = panels.getBoundingClientRect();
        const native = document.querySelector('.atlas-map__cell--native a');
        return {top: box.top, bottom: box.bottom, right: box.right, scroll: panels.scrollWidth, client: panels.clientWidth,
                page: document.documentElement.scrollHeight > innerHeight ? scrollY : 0, height: innerHeight,
                parts: panels.querySelectorAll('tbody tr:not([class])').length, title: native.title,
                vendors: [...panels.querySelectorAll('.atlas-map__vendor th')].map(th => th.textContent)}""")
    assert found["parts"] == len(listed) > 20
    assert found["page"] == 0 and found["top"] > 0 and found["bottom"] <= found["height"] == DESKTOP[1]
    assert found["right"] <= DESKTOP[0] and found["scroll"] <= found["client"]
    assert "native" in found["title"] and "TFLOPS" in found["title"], found["title"]
    assert len(found["vendors"]) == len(set(found["vendors"])) == len({a["vendor"] for a in listed})
    browser.resize(PHONE)
    assert browser.js("return document.documentElement.scrollWidth") <= PHONE[0]


def _published_tables_read_per_column_at_390_with_the_derived_verdict_beside(browser: Browser) -> None:
    browser.resize(PHONE)
    found = browser.js("""const shown = e => e.getBoundingClientRect().width > 0;
        const blocks = [...document.querySelectorAll('.atlas-published__per-column details')];
        return {page: document.documentElement.scrollWidth,
                grids: [...document.querySelectorAll('.atlas-grid__scroll--published')].filter(shown).length,
                columns: document.querySelectorAll('.atlas-grid--published thead th:not(.atlas-grid__corner)').length,
                blocks: blocks.filter(shown).length,
                differing: document.querySelectorAll('.atlas-grid--published .atlas-derived').length,
                beside: blocks.filter(d => d.open).flatMap(d => [...d.querySelectorAll('.atlas-derived-inline')]).filter(shown).length}""")
    assert found["page"] <= PHONE[0] and found["grids"] == 0
    assert found["blocks"] == found["columns"] > 10
    assert found["beside"] == found["differing"] > 0


def _an_observation_leads_with_its_verdict_grid(browser: Browser) -> None:
    found = browser.js("""const grid = document.querySelector('.atlas-observed');
        return {cells: grid.querySelectorAll('tbody td.atlas-grid__cell').length, rows: grid.querySelectorAll('tbody tr').length,
                fits: grid.scrollWidth <= grid.clientWidth, before: grid.compareDocumentPosition(document.querySelector('.md-typeset table:not(.atlas-grid)')) & Node.DOCUMENT_POSITION_FOLLOWING,
                page: document.documentElement.scrollHeight}""")
    assert found["rows"] > 5 and found["cells"] > found["rows"] * 10 and found["fits"] and found["before"]
    assert found["page"] < 4 * DESKTOP[1]  # the raw runs stay in the record file, not on the page


LUNR_KEYS = """
const done = arguments[arguments.length - 1];
const config = JSON.parse(document.getElementById('__config').textContent);
const theme = new URL(config.search, location.href).hash.slice(1);
const root = new URL(config.base + '/', location.href);
const code = `importScripts(${JSON.stringify(new URL(theme, root).href)},
                            ${JSON.stringify(new URL('javascripts/lunr-repair.js', root).href)});
  function node(edges) {  // a TokenSet node with these (label, child id) edges
    const n = new lunr.TokenSet();
    for (const [label, id] of edges) n.edges[label] = {id};
    return n;
  }
  const keys = () => [node([['1', 2], ['3', 4]]).toString(), node([['1', 234]]).toString()];
  const before = keys();
  const repaired = repairLunr(self.lunr);
  postMessage({before, repaired, after: keys()});`;
const worker = new Worker(URL.createObjectURL(new Blob([code], {type: 'text/javascript'})));
worker.onmessage = (event) => done(event.data);
worker.onerror = (event) => done({error: event.message});
"""


def _search_runs_the_theme_worker_with_lunrs_node_keys_repaired(browser: Browser) -> None:
    """The lunr the theme's worker bundles gives two different nodes one key when their edges hold digits (1->2 and
    3->4 against 1->234), merges them and invents words: a query reaching one made the site's search show nothing.
    Every page runs the theme worker through javascripts/search-worker.js, which repairs the key (on the home page)."""
    search = browser.js("return JSON.parse(document.getElementById('__config').textContent).search")
    assert "/javascripts/search-worker.js#assets/javascripts/workers/search." in "/" + search, search
    keys = browser.driver.execute_async_script(LUNR_KEYS)
    assert keys.get("error") is None, keys
    assert keys["before"][0] == keys["before"][1]  # the theme's lunr as shipped: one key for two nodes
    assert keys["repaired"] is True and keys["after"][0] != keys["after"][1]


# A page's own checks, run by test_every_page_type_loads_clean_and_local_and_fits_a_phone on its load of the page (at
# 1440 px) instead of loading the page again.
SAME_PAGE: dict[str, Callable[[Browser, Path], None]] = {
    "home": lambda browser, _: _search_runs_the_theme_worker_with_lunrs_node_keys_repaired(browser),
    "trap index": lambda browser, _: _the_trap_index_filters_and_sorts(browser),
    "format map": _the_format_map_fits_one_1440_by_900_screen_and_cites_its_peaks,
    "engine": lambda browser, _: _a_record_page_table_fits_1440(browser),
    "scheme": lambda browser, _: _a_record_page_table_of_nine_columns_keeps_its_prose_wide(browser),
    "observation": lambda browser, _: _an_observation_leads_with_its_verdict_grid(browser),
}


# Each text the site colours itself (verdict cells and badges, the card's finding box and notices, trap severities,
# the format map's cells, the stacked rows' column names) with its colour and the background it is drawn on: the
# nearest opaque background up the tree, with translucent ones between composited over it, and the text's own alpha
# composited over that (the theme's lighter text colours are translucent). WCAG 2's relative luminance and contrast.
CONTRAST = """
const rgb = s => { const m = s.match(/[\\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; };
const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
                               b: top.b * top.a + under.b * (1 - top.a), a: 1});
const lum = c => [c.r, c.g, c.b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
  .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
const ground = el => {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.a > 0) { layers.push(c); if (c.a >= 1) break; }
  }
  return layers.reverse().reduce((under, top) => over(top, under), rgb(getComputedStyle(document.body).backgroundColor));
};
const measure = (el, style, text) => {
  const bg = ground(el), fg = over(rgb(style.color), bg), [a, b] = [lum(fg), lum(bg)];
  const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
  return {what: el.className + ' ' + text.slice(0, 30), ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
          need: size >= 24 || (bold && size >= 18.66) ? 3 : 4.5, textDarker: a < b, color: style.color,
          ground: `rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)})`};
};
const found = [];
for (const el of document.querySelectorAll(arguments[0])) {
  if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
  const texts = [...el.querySelectorAll('*'), el].filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.data.trim()));
  const own = measure(el, getComputedStyle(el), '').ground;  // a verdict's text is on its colour, not a mark's inside it
  for (const e of texts) {
    const m = measure(e, getComputedStyle(e), e.textContent.trim());
    found.push({verdict: el.matches(arguments[1]) && m.ground === own, ...m});
  }
}
for (const td of document.querySelectorAll('table[data-atlas-stack] td[data-label]:not(:first-child)')) {
  const before = getComputedStyle(td, '::before');
  if (td.getClientRects().length && before.content.startsWith('"')) found.push({verdict: false, ...measure(td, before, before.content)});
}
return {scheme: document.body.getAttribute('data-md-color-scheme'), found};
"""
COLOURED = (".atlas-grid__cell, .verdict, .atlas-verdict, .atlas-severity, .atlas-silent, .atlas-card__finding, .atlas-notice, "
            ".atlas-unverified, .atlas-disagree, .atlas-card__emulated, .atlas-compare__emulated, .atlas-compare__gap, "
            ".atlas-compare__elsewhere, .atlas-runs__kernel, .atlas-map__cell")
VERDICT_CELLS = "[class*='verdict-'], [class*='atlas-verdict--'], [class*='atlas-severity--']"
# The theme's own quieter texts: a heading's ¶ permalink (drawn when the heading is hovered, the accent colour when it is
# focused or its heading is the page's target), the search panel's "Initializing search" line and the phone menu's
# section titles; at the theme's colours 2.2 and 2.5:1 (¶), 4.42 and 4.06:1 (the others, on their grey band).
THEME_QUIET = ".headerlink, .md-search-result__meta, .md-nav__title"
TARGET_PERMALINK = """document.head.insertAdjacentHTML('beforeend', '<style>*, ::before { transition: none !important; }</style>');
const link = [...document.querySelectorAll('article .headerlink')].find(l => l.getClientRects().length);
location.hash = link.hash; return document.querySelector(':target > .headerlink') === link;"""
CONTRAST_PAGES = (("chapters/support-tables/", DESKTOP), ("chapters/format-map/", DESKTOP),
                  ("can-i-run-it/?engine=vllm&scheme=vllm-ct-w4a8-int&hardware=target:x86-cpu-avx512", PHONE),
                  ("can-i-run-it/?engine=any&format=fp8-e4m3&hardware=part:rtx-4090", DESKTOP),
                  ("schemes/vllm-ct-w8a8-fp8/", PHONE), ("gotchas/", DESKTOP), ("chapters/changelog/", PHONE))


# The schemes the contrast test reads each page in: the system's preference, and the scheme Material then draws.
SCHEMES = (("light", "default"), ("dark", "slate"))
# Resolves once the page draws the scheme asked for (arguments[0]) and Material has ended the switch (it drops
# data-md-color-switching, which holds transitions at zero, a task later), then one frame on; false after 10 s.
SCHEME_DRAWN = """const [scheme, reply] = arguments; const t0 = Date.now();
(function wait() {
  if (document.body.getAttribute('data-md-color-scheme') === scheme && !document.body.hasAttribute('data-md-color-switching'))
    requestAnimationFrame(() => reply(true));
  else if (Date.now() - t0 > 10000) reply(false); else setTimeout(wait, 20);
})();"""


def test_the_site_s_own_colours_read_in_the_light_and_the_dark_scheme(browser: Browser) -> None:
    """Material draws the light (default) or dark (slate) scheme as the reader's system prefers, with a toggle in the
    header; the colours the site sets itself (docs/stylesheets/atlas.css: the verdict colours of the support tables,
    the card, the badges, the format map) have their own slate values. In each scheme every such text, and each stacked
    row's column name on a phone, has WCAG AA contrast with what it is drawn on (4.5:1, 3:1 for large text), and a
    verdict cell is dark text on a light ground in the light scheme and light text on a dark ground in the dark one, as
    the page around it. The format map's dash ("no scheme loads it here") once had 2.2:1 (light) and 2.5:1 (dark). The
    theme's own quieter texts on these pages (THEME_QUIET, and the ¶ of the heading a link targets) are held to the same ratios.

    Each page is loaded once and read in both schemes, every other page loaded in the dark one: the theme follows a
    change of the system's preference on the open page (Material's components/palette/index.ts restarts on the media
    query's change and sets the body attributes a load sets), so a second load of each page (2.3 MB of support tables
    among them) read nothing more."""
    prefer = lambda value: browser.driver.execute_cdp_cmd(  # noqa: E731
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": value}]})
    try:
        prefer(SCHEMES[0][0])
        for n, (page, size) in enumerate(CONTRAST_PAGES):
            browser.open(page, size)  # in the scheme the last page was read in last
            if page.startswith("can-i-run-it/"):  # the answer is drawn once the page has fetched its data
                assert browser.js("return new Promise(done => { const t0 = Date.now(); (function wait() {"
                                  " if (document.querySelector('#atlas-answer .atlas-card, #atlas-answer table')) done(true);"
                                  " else if (Date.now() - t0 > 20000) done(false); else setTimeout(wait, 50); })(); })")
            for preference, scheme in SCHEMES[::-1] if n % 2 else SCHEMES:
                prefer(preference)
                assert browser.driver.execute_async_script(SCHEME_DRAWN, scheme), (page, preference)
                shown = browser.js(CONTRAST, f"{COLOURED}, {THEME_QUIET}", VERDICT_CELLS)
                assert shown["scheme"] == scheme, page
                cells = [f for f in shown["found"] if f["verdict"]]
                assert cells, page
                assert browser.js(TARGET_PERMALINK), page  # the ¶ in its accent colour, with no transition to wait for
                target = browser.js(CONTRAST, ":target > .headerlink", VERDICT_CELLS)["found"]
                assert target, page
                low = [f for f in shown["found"] + target if f["ratio"] < f["need"]]
                assert low == [], (page, preference, low[:5])
                glaring = [f for f in cells if f["textDarker"] != (scheme == "default")]
                assert glaring == [], (page, preference, glaring[:5])
                if page == CONTRAST_PAGES[-1][0]:
                    browser.screenshot(f"contrast-{scheme}")
    finally:
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_a_changelog_flip_shows_its_verdicts_in_the_support_tables_colours(browser: Browser) -> None:
    """A cell that flipped, in an engine release or a commit to the records (`scheme on target: runs via K → refused
    (scheme)`), draws its verdict before and after the arrow as the support tables do: the changelog once wrote them as
    bare words, the one page where a verdict had no colour."""
    browser.open("chapters/changelog/", PHONE)
    flips = browser.js("""const own = li => [...li.childNodes].filter(n => !(n.nodeType === 1 && n.matches('details, ul')))
            .map(n => n.textContent).join('').trim();
        return [...document.querySelectorAll('article li')].filter(li => /^[\\w.-]+ on [\\w.-]+: .+ → /.test(own(li)))
            .map(li => ({text: own(li).slice(0, 80), drawn: [...li.querySelectorAll(':scope > .verdict, :scope > p > .verdict')]
                .filter(v => getComputedStyle(v).backgroundColor !== 'rgba(0, 0, 0, 0)').length}))""")
    assert len(flips) > 5
    assert [f for f in flips if f["drawn"] != 2] == []


# The page the scheme tests load over and over (thirteen loads in all): the header's toggle and the theme's palette
# script are those of every page, and a kernel page shows verdict badges (`.verdict-runs`) at a tenth of the format
# map's size (55 kB against 546 kB; each load of the map cost Chromium about 0.2 s of CPU more). The format map's own
# colours are read in both schemes by test_the_site_s_own_colours_read_in_the_light_and_the_dark_scheme.
SCHEME_PAGE = "kernels/vllm-marlin/"


def test_the_scheme_follows_the_system_until_the_reader_picks_one_with_the_header_toggle(browser: Browser) -> None:
    """The header's toggle (mkdocs.yml theme.palette) cycles through the system's preference, dark and light, each
    icon and label saying what a click does. While it is on the system's preference the scheme follows it on every
    load; with a light and a dark option only (the site's first palette), the theme stored the first visit's scheme and
    kept it after the system switched. A scheme the reader picks is kept across loads, and the verdict colours follow
    the scheme."""
    prefer = lambda value: browser.driver.execute_cdp_cmd(  # noqa: E731
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": value}]})
    toggle = "label.md-header__button[for^=\"__palette\"]:not([hidden])"
    read = ("const c = document.querySelector('.verdict-runs'); return [document.body.getAttribute("
            f"'data-md-color-scheme'), getComputedStyle(c).backgroundColor, document.querySelector('{toggle}').title]")
    page = SCHEME_PAGE
    try:
        browser.open(page)
        browser.js("localStorage.clear()")
        prefer("dark")
        browser.open(page)
        dark = browser.js(read)
        assert dark[0] == "slate" and dark[2] == "Switch to dark mode", dark
        prefer("light")
        browser.open(page)  # the system switched: the next load follows it
        light = browser.js(read)
        assert light[0] == "default" and light[1] != dark[1] and light[2] == "Switch to dark mode", (light, dark)
        shown = []
        for _ in range(2):  # to dark, then to light
            browser.js(f"document.querySelector('{toggle}').click()")
            shown.append(browser.js(read))
        assert shown == [["slate", dark[1], "Switch to light mode"], ["default", light[1], "Switch to system preference"]]
        prefer("dark")
        browser.open(page)  # the reader's pick outlasts the system's preference
        assert browser.js(read) == shown[1]
        browser.js(f"document.querySelector('{toggle}').click()")  # back to the system's, which is dark now
        assert browser.js(read) == dark
    finally:
        browser.js("localStorage.clear()")
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


# what the site's first palette (light, then dark) stored for a reader: Material keeps the option's position and colours
FIRST_PALETTE = {"light": {"index": 0, "color": {"media": "(prefers-color-scheme: light)", "scheme": "default",
                                                 "primary": "indigo", "accent": "indigo"}},
                 "dark": {"index": 1, "color": {"media": "(prefers-color-scheme: dark)", "scheme": "slate",
                                                "primary": "indigo", "accent": "indigo"}}}


@pytest.mark.parametrize("stored,system,scheme", [("dark", "light", "slate"), ("light", "dark", "slate"),
                                                  ("light", "light", "default")])
def test_a_scheme_the_first_palette_stored_is_kept_as_dark_or_read_as_the_system_s(browser: Browser, stored: str,
                                                                                  system: str, scheme: str) -> None:
    """Material applies a stored palette by its position in the list. The site's first palette stored light at 0 and
    dark at 1, for every first visit (as the system then preferred) and every click; with the automatic option first
    and light second, a reader stored as dark came back to light and stayed there. Dark is second now: a stored dark
    stays dark whatever the system prefers, and a stored light becomes the system's preference, read on every load."""
    page = SCHEME_PAGE
    try:
        browser.open(page)
        browser.js("localStorage.clear(); __md_set('__palette', arguments[0])", FIRST_PALETTE[stored])
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                       {"features": [{"name": "prefers-color-scheme", "value": system}]})
        for _ in range(2):  # the first load re-stores the option by its position; the second reads what it stored
            browser.open(page)
            assert browser.js("return document.body.getAttribute('data-md-color-scheme')") == scheme, (stored, system)
    finally:
        browser.js("localStorage.clear()")
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_a_record_page_links_its_jargon_once_to_where_it_is_defined(browser: Browser) -> None:
    """float4_e2m1f, float8_e4m3fn and Marlin stood unexplained on Marlin MoE's page. Each spelling of a term record is
    linked at its first use (to the term's page, or the record it names in `defined_by`), and only there."""
    browser.open("kernels/vllm-marlin-moe/", PHONE)
    links = browser.js("return [...document.querySelectorAll('article a.atlas-term')].map(a => [a.textContent, a.pathname])")
    assert ["float4_e2m1f", "/terms/float4-e2m1f/"] in links and ["float8_e4m3fn", "/formats/fp8-e4m3/"] in links
    # "Marlin" names several kernels (IST-DASLab's original, vLLM's, GPTQModel's): it leads to the term's page, which
    # lists them, not to one of them (ux48s)
    assert ["Marlin", "/terms/marlin/"] in links
    assert len({text for text, _ in links}) == len(links)
    assert browser.js("return document.documentElement.scrollWidth") <= PHONE[0]


def test_a_part_page_lists_the_traps_on_its_answers_with_unbroken_severity_badges(browser: Browser) -> None:
    """The V100's page listed only traps naming the V100, so llama.cpp's cuBLAS FP16 overflow (scoped by kernel and
    platform) left it; its answers' traps are now listed before its cells. In that narrow column a severity badge
    broke inside the word ("BLOCKE / R"): a badge stays on one line at either width."""
    read = """const h = [...document.querySelectorAll('h2')].find(h => h.textContent.trim().startsWith('Traps on its answers'));
        if (!h) return null;
        let table = h.nextElementSibling; while (table && !table.querySelector('table')) table = table.nextElementSibling;
        const badges = [...table.querySelectorAll('.atlas-severity')];
        return {rows: table.querySelectorAll('tbody tr').length,
                overflow: [...table.querySelectorAll('tbody tr td:first-child a')].some(a =>
                    a.getAttribute('href').includes('llama-cpp-cublas-f16-activation-overflow')),
                tallest: Math.max(...badges.map(b => b.getBoundingClientRect().height / parseFloat(getComputedStyle(b).fontSize)))}"""
    for size in (DESKTOP, PHONE):
        browser.open("accelerators/v100/", size)
        shown = browser.js(read)
        assert shown is not None and shown["rows"] >= 3 and shown["overflow"]
        assert shown["tallest"] < 2.2, shown  # one line of the badge's own font, not two


# every box that scrolls a table sideways, shown: whether it hides columns, and what the page says of it
SCROLL_HINTS = """return [...document.querySelectorAll('article .atlas-grid__scroll, article .md-typeset__scrollwrap, article .atlas-map__panels')]
    .filter(box => box.getBoundingClientRect().width > 0 && box.querySelector('table')).map(box => {
      const frame = box.parentElement.closest('.atlas-more'), shown = e => !!e && getComputedStyle(e).display !== 'none'
          && e.getBoundingClientRect().width > 0;
      const say = frame && frame.querySelector(':scope > .atlas-more__say');
      const edge = side => frame && frame.querySelector(':scope > .atlas-more__edge--' + side);
      const right = edge('right'), boxRight = box.getBoundingClientRect().left + box.clientLeft + box.clientWidth;
      return {name: (box.getAttribute('aria-label') || box.textContent).trim().slice(0, 40),
              hides: box.scrollWidth > box.clientWidth + 1, say: shown(say) ? say.textContent : '',
              left: shown(edge('left')), right: shown(right),
              // the right shade lies on the box's own right edge, inside it, over its last visible cells
              onEdge: shown(right) ? Math.abs(right.getBoundingClientRect().right - boxRight) <= 1 : null};
    })"""


def _scroll_hints(browser: Browser) -> list[dict[str, object]]:
    """The boxes once the hints have caught up with the layout (they follow it a frame later)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait
    found: list[dict[str, object]] = []

    def settled(_: object) -> bool:
        found[:] = browser.js(SCROLL_HINTS)
        return all(bool(box["say"]) == box["hides"] for box in found)
    with contextlib.suppress(TimeoutException):  # the assertions that follow say what differs
        WebDriverWait(browser.driver, 5).until(settled)
    return found


def test_a_table_wider_than_its_box_says_more_columns_lie_to_the_right_and_a_table_that_fits_says_nothing(
        browser: Browser) -> None:
    """At tablet widths a support grid (and at every width a scheme's release history, the format map's checkpoint grid)
    scrolls sideways in its box with only a scrollbar to say so: the targets a reader came for sat out of sight. A box
    that hides columns now says so above it and shades the edge they hide behind; one that fits shows neither."""
    cases = (("chapters/support-tables/", 768), ("chapters/support-tables/", 1280), ("schemes/vllm-ct-w8a8-fp8/", 1280),
             ("schemes/vllm-ct-w8a8-fp8/", 390), ("hardware-targets/nvidia-sm90/", 768), ("chapters/format-map/", 390))
    seen = {}
    for path, width in cases:
        if browser.driver.current_url.endswith("/" + path):
            browser.resize((width, 900))
        else:
            browser.open(path, (width, 900))
        boxes = _scroll_hints(browser)
        seen[path, width] = sum(bool(box["hides"]) for box in boxes), len(boxes)
        for box in boxes:
            expected = ({"say": "Scroll sideways for more columns \u2192", "left": False, "right": True, "onEdge": True}
                        if box["hides"] else {"say": "", "left": False, "right": False, "onEdge": None})
            assert {key: box[key] for key in expected} == expected, (path, width, box)
        assert browser.console_errors() == [], (path, width)
    # the grids hide targets at 768 px and fit at 1280; a scheme's release history hides releases at 1280 where its
    # other tables fit; a phone stacks a scheme's and a target's tables, and the format map's checkpoint grid scrolls
    hiding = {case: counts[0] for case, counts in seen.items()}
    assert hiding[("chapters/support-tables/", 768)] >= 7 and hiding[("chapters/support-tables/", 1280)] == 0, seen
    assert 0 < hiding[("schemes/vllm-ct-w8a8-fp8/", 1280)] < seen[("schemes/vllm-ct-w8a8-fp8/", 1280)][1], seen
    assert hiding[("schemes/vllm-ct-w8a8-fp8/", 390)] == 0 and hiding[("hardware-targets/nvidia-sm90/", 768)] == 0, seen
    assert hiding[("chapters/format-map/", 390)] == 1, seen


def test_a_scrolled_table_shades_the_side_whose_columns_it_hides(browser: Browser) -> None:
    """Scrolled to its end, a grid says its hidden columns are to the left and shades that edge, past its held first
    column (the shade falls on the scrolled cells, not on the scheme names); half-way, both."""
    browser.open("chapters/format-map/", (768, 900))
    read = """const box = document.querySelector('.atlas-runs'), frame = box.closest('.atlas-more');
        const shown = side => getComputedStyle(frame.querySelector('.atlas-more__edge--' + side)).display !== 'none';
        const held = box.querySelector('tbody tr:not([class]) th').getBoundingClientRect().right;
        return {state: frame.getAttribute('data-atlas-more'), say: frame.querySelector('.atlas-more__say').textContent,
                left: shown('left'), right: shown('right'),
                past: shown('left') ? Math.abs(frame.querySelector('.atlas-more__edge--left').getBoundingClientRect().left - held) <= 1 : null}"""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait
    for scroll, expected in (("box.scrollWidth", {"state": "left", "say": "\u2190 More columns to the left", "left": True,
                                                 "right": False, "past": True}),
                             ("box.scrollWidth / 3", {"state": "left right", "say": "\u2190 More columns on both sides \u2192",
                                                     "left": True, "right": True, "past": True}),
                             ("0", {"state": "right", "say": "Scroll sideways for more columns \u2192", "left": False,
                                    "right": True, "past": None})):
        browser.js(f"const box = document.querySelector('.atlas-runs'); box.scrollLeft = {scroll}")
        with contextlib.suppress(TimeoutException):  # the assertion says what differs
            WebDriverWait(browser.driver, 5).until(lambda _, want=expected: browser.js(read) == want)
        assert browser.js(read) == expected
    browser.screenshot("scroll-hint-768")
