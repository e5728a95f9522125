"""Rendering: template functions pass and fail with the full message, escaping, literals, determinism."""
from __future__ import annotations

import re

import pytest

from generators.build import check_tree, render_tree
from generators.render import render_site
from generators.render.literals import literal_problems
from generators.render.markdown import code_span, escape_text

from .conftest import ROOT, write
from .test_checks import edit

CHAPTER = "docs/chapters/demo.md.j2"


def render(tree, template: str | None = None):
    if template is not None:
        write(tree, CHAPTER, template)
    pages, problems = render_tree(tree)
    return pages, [str(p) for p in problems]


def test_demo_chapter_renders_computed_values(tree):
    pages, problems = render(tree)
    assert problems == []
    assert pages["chapters/demo.md"] == (
        "# Demo chapter (2026)\n\n"
        "[Big GPU](../accelerators/acc-big.md) has 1 native formats.\n"
        "[INT4 weight-only](../formats/fmt-int4.md) is “Four-bit integer weights”.\n"
        "On x86 the scheme is <span class=\"verdict verdict-runs\" title=\"runs as specified: the named kernel computes at the scheme&#39;s precision (conditions, where named, only choose the kernel)\">Runs</span>.\n"
        "The drop is 82.36 to 78.16 points.\n")


def test_ref_unknown_id_fails_at_the_template_line(tree):
    _, problems = render(tree, "# T\n\nSee {{ ref('format', 'fmt-fp8') }}.\n")
    assert problems == [f"{CHAPTER}:3:1: error: [ref] format 'fmt-fp8' has no record (records/formats/fmt-fp8.yaml)"]


def test_quote_must_be_verbatim(tree):
    pages, problems = render(tree, "# T\n\n{{ quote('format', 'fmt-int4', 'summary', 'Four-bit   integer\nweights') }}\n")
    assert problems == [] and "“Four-bit integer weights”" in pages["chapters/demo.md"]
    _, problems = render(tree, "# T\n\n{{ quote('format', 'fmt-int4', 'summary', 'Five-bit integer weights') }}\n")
    assert problems == [f"{CHAPTER}:3:1: error: [quote] quotation 'Five-bit integer weights' is not in 'summary' of "
                        "records/formats/fmt-int4.yaml; quote the record verbatim or change the record"]


def test_field_with_unit_and_missing_field(tree):
    pages, problems = render(tree, "# T\n\n{{ field('accelerator', 'acc-big', 'memory_bandwidth_gbs[0].value', 'GB/s') }}\n")
    assert problems == [] and "4000 GB/s" in pages["chapters/demo.md"]
    _, problems = render(tree, "# T\n\n{{ field('accelerator', 'acc-big', 'memory_gb[0].value') }}\n")
    assert problems == [f"{CHAPTER}:3:1: error: [field] records/accelerators/acc-big.yaml has no field 'memory_gb[0].value'"]


def test_difference_is_value_minus_baseline_without_its_sign_and_fails_without_one_baseline(tree):
    pages, problems = render(tree, "# T\n\nIt trails by {{ difference('benchmark', 'b-quant', 'points') }}."
                                   "{{ claim('below_baseline', 'b-quant') }}\n")
    assert problems == [] and "It trails by 4.2 points." in pages["chapters/demo.md"]
    _, problems = render(tree, "# T\n\n{{ difference('benchmark', 'b-ref') }}{{ claim('below_baseline', 'b-ref') }}\n"
                               "{{ difference('format', 'fmt-int4') }}\n")
    assert problems == [
        f"{CHAPTER}:3:1: error: [claim] claim below_baseline('b-ref') no longer holds: benchmark/b-ref has no value "
        "with exactly one baseline value",
        f"{CHAPTER}:3:1: error: [difference] records/benchmarks/b-ref.yaml is not a benchmark with a value and one "
        "baseline value",
        f"{CHAPTER}:4:1: error: [difference] records/formats/fmt-int4.yaml is not a benchmark with a value and one "
        "baseline value"]


def test_false_claim_fails_quoting_the_claim(tree):
    _, problems = render(tree, "# T\n\nOld GPU leads.{{ claim('most_native', 'acc-old') }}\n")
    assert problems == [f"{CHAPTER}:3:1: error: [claim] claim most_native('acc-old') no longer holds: acc-old has 0 "
                        "native formats; the most is 1 (acc-big)"]


def test_claims_pass_and_fail(tree):
    ok = ("{{ claim('native_empty', 'fmt-int4') }}{{ claim('in_native', 'fmt-fp4', 'acc-big') }}"
          "{{ claim('in_emulated', 'fmt-int4', 'acc-old') }}{{ claim('unlisted', 'acc-cpu') }}"
          "{{ claim('verdict', 'sch-w4a16', 'gpu-sm80', 'runs-if') }}{{ claim('accepted_by', 'sch-w4a16', 'gpu-sm90', 'k-hopper') }}"
          "{{ claim('difference', 'b-ref', 'b-quant', 4.2) }}{{ claim('published_disagrees', 'pub-table', 'INT4 (W4A16)', 'x86 CPU') }}"
          "{{ claim('native_rank', 'acc-big', 1) }}{{ claim('field_equals', 'gotcha', 'trap-silent', 'silent', true) }}\n")
    assert render(tree, ok)[1] == []
    _, problems = render(tree, "{{ claim('difference', 'b-ref', 'b-quant', 7.58) }}\n{{ claim('nonsense') }}\n")
    assert problems[0] == f"{CHAPTER}:1:1: error: [claim] claim difference('b-ref', 'b-quant', 7.58) no longer holds: b-ref - b-quant = 4.2"
    assert problems[1].startswith(f"{CHAPTER}:2:1: error: [claim] unknown claim 'nonsense'; known claims: accepted_by, ")


def test_all_failures_of_a_template_are_reported_together(tree):
    _, problems = render(tree, "{{ ref('format', 'nope') }}\n{{ claim('unlisted', 'acc-big') }}\n")
    assert [p.split(": error: ")[0] for p in problems] == [f"{CHAPTER}:1:1", f"{CHAPTER}:2:1"]


def test_undefined_variable_is_an_error_with_line(tree):
    _, problems = render(tree, "# T\n\n{{ no_such_thing }}\n")
    assert problems == [f"{CHAPTER}:3:1: error: [template] undefined value: 'no_such_thing' is undefined"]


def test_template_syntax_error(tree):
    _, problems = render(tree, "# T\n{% for x in %}\n")
    assert problems[0].startswith(f"{CHAPTER}:2:1: error: [template] template syntax error:")


def test_only_j2_files_can_be_included(tree):
    """A page memo knows a page's templates by the .j2 files: an included Markdown file would go stale unnoticed."""
    (tree / "docs" / "snippet.md").write_text("included text\n", encoding="utf-8")
    _, problems = render(tree, '# T\n\n{% include "snippet.md" %}\n')
    assert len(problems) == 1 and "only .j2 templates can be included" in problems[0]


@pytest.mark.parametrize("expression", ["views.traps | length", "views.traps | sort", "views.traps | selectattr('id')",
                                        "views.traps | map(attribute='id') | join"])
def test_templates_cannot_count_sort_or_filter(tree, expression):
    """Counting, sorting and filtering are views in derive/; a template that tries it fails at its line."""
    _, problems = render(tree, "# T\n\n{{ " + expression + " }}\n")
    assert len(problems) == 1 and problems[0].startswith(f"{CHAPTER}:3:1: error: [template] template syntax error: No filter named")


def test_record_text_cannot_inject_markup_or_template_syntax(tree):
    path = tree / "records/formats/fmt-int4.yaml"
    evil = "<script>alert(1)</script> [x](javascript:alert(1)) {{ 7*7 }} {% raw %} | col | **bold**"
    path.write_text(path.read_text().replace("summary: Four-bit integer weights with 16-bit activations.",
                                             f"summary: '{evil}'"))
    pages, problems = render(tree, "# T\n")
    assert problems == []
    page = pages["formats/fmt-int4.md"]
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "\\[x\\]\\(javascript:alert\\(1\\)\\)" in page
    assert "49" not in page and "\\{\\{ 7\\*7 \\}\\}" in page
    assert "&#124; col &#124;" in page and "\\*\\*bold\\*\\*" in page


def test_a_macro_passes_its_links_through_and_still_escapes_record_text(tree):
    path = tree / "records/formats/fmt-int4.yaml"
    path.write_text(path.read_text().replace("summary: Four-bit integer weights with 16-bit activations.",
                                             "summary: '[x](javascript:alert(1))'"))
    template = ("# T\n\n{% macro part(id) %}{{ ref('accelerator', id) }} says {{ field('format', 'fmt-int4', 'summary') }}"
                "{% endmacro %}{{ part('acc-big') }}\n")
    pages, problems = render(tree, template)
    assert problems == []
    assert pages["chapters/demo.md"] == (
        "# T\n\n[Big GPU](../accelerators/acc-big.md) says \\[x\\]\\(javascript:alert\\(1\\)\\)\n")



def test_the_layouts_without_autoescape_only_print_values():
    """render._autoescape turns Jinja's autoescape off for the print-only layouts (finalize still escapes every value);
    a macro, `call`, block `set`, import or `~` there would need it, so none may appear."""
    from jinja2 import nodes

    from generators.render import PRINT_ONLY_LAYOUTS, _autoescape, environment
    env = environment(ROOT / "docs")
    for name in sorted(PRINT_ONLY_LAYOUTS):
        assert not _autoescape(name) and (ROOT / "docs" / name).is_file()
        tree = env.parse((ROOT / "docs" / name).read_text(encoding="utf-8"))
        needing = [type(n).__name__ for n in tree.find_all((nodes.Macro, nodes.CallBlock, nodes.AssignBlock, nodes.Concat,
                                                             nodes.FilterBlock, nodes.Import, nodes.FromImport,
                                                             nodes.ScopedEvalContextModifier))]
        assert needing == [], f"{name}: {needing}"
    assert _autoescape("_templates/macros.md.j2") and _autoescape("chapters/gaps.md.j2")

def test_escape_text_leaves_plain_text_alone():
    assert escape_text("Q4_K_M on H100 SXM, 4-bit") == "Q4\\_K\\_M on H100 SXM, 4-bit"
    assert escape_text("1. starts a list") == "1\\. starts a list"


def test_literal_numbers_in_prose():
    source = ("{# allow-literal: 2026 -- year #}\n{# allow-literal: 1999 -- stale #}\n"
              "W4A16 on SM90, E4M3, Q4_K_M, Llama-3.1-8B, 4-bit, §3.2 in 2026.\n"
              "It lost 7.58 points, 25x energy, a 7.58-point drop, ~20% of it. {{ field('a', 'b', 'c') }}\n")
    assert [str(p) for p in literal_problems("t.md.j2", source)] == [
        "t.md.j2:4:9: error: [literal-number] hand-typed number '7.58' in prose; compute it with a template function or "
        "declare it with {# allow-literal: 7.58 -- reason #}",
        "t.md.j2:4:22: error: [literal-number] hand-typed number '25x' in prose; compute it with a template function or "
        "declare it with {# allow-literal: 25x -- reason #}",
        "t.md.j2:4:36: error: [literal-number] hand-typed number '7.58-point' in prose; compute it with a template function "
        "or declare it with {# allow-literal: 7.58-point -- reason #}",
        "t.md.j2:4:53: error: [literal-number] hand-typed number '~20%' in prose; compute it with a template function or "
        "declare it with {# allow-literal: ~20% -- reason #}",
        "t.md.j2:2:1: error: [literal-number] allowed literal '1999' no longer occurs in the prose; remove the allow-literal",
    ]


def test_literal_numbers_fail_the_render(tree):
    _, problems = render(tree, "# T\n\nIt has 13 formats.\n")
    assert problems == [f"{CHAPTER}:3:8: error: [literal-number] hand-typed number '13' in prose; compute it with a "
                        "template function or declare it with {# allow-literal: 13 -- reason #}"]


def test_a_layout_is_given_only_the_template_globals_it_or_its_includes_read(tree, monkeypatch):
    """Record pages bind no template global (their layout reads none): binding all ~50 per page was about a quarter of
    their Jinja render. A global a layout (or a template it includes) reads is still there; a layout that names a template at
    run time, which jinja2.meta cannot follow, is given every global; macros it imports with context read theirs."""
    import generators.render as render_module
    from generators.render.pages import RecordPage
    scopes: list[str] = []
    made = render_module.PageScope
    monkeypatch.setattr(render_module, "PageScope", lambda atlas, page, *rest: scopes.append(page) or made(atlas, page, *rest))
    pages, problems = render(tree)
    assert problems == [] and not [page for page in scopes if page in pages and "/index.md" not in page
                                   and not page.startswith(("chapters/", "contributing/"))]
    write(tree, "docs/_templates/table.md.j2", "{{ count(t.rows) }} row(s)\n")
    scopes.clear()
    pages, problems = render(tree)
    assert problems == [] and re.search(r"^\d+ row\(s\)$", pages["schemes/sch-w4a16.md"], re.MULTILINE)
    assert "schemes/sch-w4a16.md" in scopes
    # the macros a layout imports with context (the way docs/_templates/macros.md.j2 is shared) read globals too
    write(tree, "docs/_templates/table.md.j2", '{% import "_templates/macros.md.j2" as m with context %}'
                                               '{{ m.findings(["cpu-cell-wrong"]) }}\n')
    pages, problems = render(tree)
    assert problems == [] and "findings/cpu-cell-wrong.md" in pages["schemes/sch-w4a16.md"]
    layout = (tree / "docs/_templates/record.md.j2").read_text(encoding="utf-8")
    write(tree, "docs/_templates/record.md.j2", layout.replace('{% include "_templates/table.md.j2" %}',
                                                                 "{% include view.layout_of_table %}", 1))
    write(tree, "docs/_templates/table.md.j2", "{{ ref('accelerator', 'acc-big') }}\n")
    monkeypatch.setattr(RecordPage, "layout_of_table", "_templates/table.md.j2", raising=False)
    pages, problems = render(tree)
    assert problems == [] and "[Big GPU](../accelerators/acc-big.md)" in pages["schemes/sch-w4a16.md"]


def test_output_is_byte_identical_across_runs(tree):
    first, _ = render(tree)
    second, _ = render(tree)
    assert first == second and list(first) == sorted(first)


def test_record_page_has_backlinks_sources_and_derived_cells(tree):
    pages, _ = render(tree)
    scheme = pages["schemes/sch-w4a16.md"]
    assert "| [GPU SM80](../hardware-targets/gpu-sm80.md) | <span class=\"verdict verdict-runs-if\" title=\"runs as specified only given the named optional package, build flag, setting or model property; without it the engine falls back, fails or refuses\">Runs if</span> | via [Generic kernel](../kernels/k-generic.md); " \
           "when activation dtype in \\{float16\\}<details class=\"atlas-why-more\"><summary>if not, and more</summary>" \
           "after 1 candidate\\(s\\) declined<br>If not, in the engine's order: " \
           "<span class=\"verdict verdict-refused\" title=\"not run on this hardware: the engine refuses at load, or " \
           "none of its kernels or backends serves it; every reason is listed in order\">Refused</span>, no candidate left \\(every reason on the scheme's page\\)</details> |" in scheme
    assert "- [Example published table](../support-matrices/pub-table.md)" in scheme
    matrix = pages["support-matrices/pub-table.md"]
    assert "❌ <small>derived: YES, [The x86 CPU cell is wrong](../findings/cpu-cell-wrong.md)</small>" in matrix


def test_view_functions_fail_on_unknown_ids(tree):
    _, problems = render(tree, "{{ tally('acc-huge') }}\n{{ cell('sch-w4a16', 'gpu-sm99') }}\n{{ name('engine', 'nope') }}\n"
                               "{{ refs('support-matrix', ['pub-table', 'pub-tabel']) }}\n")
    assert problems == [
        f"{CHAPTER}:1:1: error: [tally] accelerator 'acc-huge' has no record",
        f"{CHAPTER}:2:1: error: [cell] no derived cell for scheme 'sch-w4a16' on target 'gpu-sm99'",
        f"{CHAPTER}:3:1: error: [name] engine 'nope' has no record (records/engines/nope.yaml)",
        f"{CHAPTER}:4:1: error: [ref] support-matrix 'pub-tabel' has no record (records/support-matrices/pub-tabel.yaml)",
    ]


def test_view_functions_pass(tree):
    pages, problems = render(tree, "{{ name('engine', 'eng') }}|{{ refs('format', ['fmt-int4', 'fmt-fp4']) }}|"
                                   "{{ count(records('gotcha')) }}|{{ number(82.3649) }}|{{ tally('acc-old').emulated_count }}\n")
    assert problems == []
    assert pages["chapters/demo.md"] == ("Example Engine|[INT4 weight-only](../formats/fmt-int4.md), "
                                         "[FP4 block format](../formats/fmt-fp4.md)|2|82.36|2\n")


def test_ridge_chart_draws_every_value_and_escapes_names():
    from generators.derive.flops import Ridge
    from generators.render.charts import ridge_chart
    ridges = [Ridge("a", "bf16", 1000, 4000, 250.0, "s1", "s1", "", False),
              Ridge("a", "bf16", 1000, 8000, 125.0, "s1", "s2", "", False),
              Ridge("b", "bf16", 100, 1000, 100.0, "s1", "s1", "", True),
              Ridge("b", "fp8", 200, 1000, 200.0, "s1", "s1", "", True)]
    svg = ridge_chart(ridges, {"accelerator/a": "A <fast>", "accelerator/b": "B"}, "bf16")
    assert svg.startswith("<svg") and svg.count("<circle") == 3
    assert "A &lt;fast&gt;" in svg and "<fast>" not in svg
    assert svg.index("A &lt;fast&gt;") < svg.index(">B<")  # highest ridge first
    assert svg == ridge_chart(list(reversed(ridges)), {"accelerator/a": "A <fast>", "accelerator/b": "B"}, "bf16")
    assert ridge_chart(ridges, {}, "fp4") == ""


def test_every_template_global_is_documented_on_the_contributor_page(tree):
    from generators.render.template_globals import TEMPLATE_GLOBALS
    source = (ROOT / "docs" / "contributing" / "template-functions.md.j2").read_text(encoding="utf-8")
    section = source[source.index("## Every template global"):]
    pages, problems = render(tree, "# T\n\n" + section)
    assert problems == []
    for template_global in TEMPLATE_GLOBALS:
        assert template_global.doc, f"{template_global.name} has no description"
        row = f"| {code_span(template_global.name)} | {code_span(template_global.signature)} | "
        assert row in pages["chapters/demo.md"], f"{template_global.name} is not on the contributor page"


def test_the_checks_page_says_which_checks_a_plain_check_skips(tree):
    """A `pages` check (search-ranking) runs where record pages render, not in a plain `check`: the contributor page
    listing the checks says so on its row, and names `check --all-pages` as the command that runs it."""
    from generators.checks import PAGES, REGISTRY
    source = (ROOT / "docs" / "contributing" / "checks.md.j2").read_text(encoding="utf-8")
    assert "`check --all-pages`" in source[:source.index("| check |")]
    pages, problems = render(tree, "# T\n\n" + source[source.index("| check |"):])
    assert problems == []
    assert any(check.stage == PAGES for check in REGISTRY)
    for check in REGISTRY:
        runs = "`check --all-pages`, the site build" if check.stage == PAGES else "`check`"
        assert f"| {code_span(check.name)} | {check.scope} | {runs} | " in pages["chapters/demo.md"], check.name


def test_figures_fold_agreeing_sources_into_numbered_links_named_on_hover(tree):
    path = tree / "records/accelerators/acc-big.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "  - {value: 4000, source: src-doc}\n",
        "  - {value: 4000, source: src-doc}\n  - {value: 4000, source: src-code}\n  - {value: 3900, source: src-doc, estimate: true}\n"),
        encoding="utf-8")
    pages, problems = render(tree, "# T\n\n{% for g in views.hardware_groups %}{% for r in g.rows %}"
                                   "{% if r.accelerator == 'acc-big' %}{{ figures(r.bandwidth_gbs) }}|{{ figures([]) }}{% endif %}"
                                   "{% endfor %}{% endfor %}\n")
    assert problems == []
    names = {s: (tree / f"records/sources/{s}.yaml").read_text(encoding="utf-8").split("\n")[0].removeprefix("name: ").strip("'\"")
             for s in ("src-doc", "src-code")}
    assert pages["chapters/demo.md"] == (
        f'# T\n\n4000 ([1](../sources/src-doc.md "{names["src-doc"]}"), [2](../sources/src-code.md "{names["src-code"]}")); '
        f'3900 *estimate* ([3](../sources/src-doc.md "{names["src-doc"]}"))|not recorded')


def test_a_link_to_a_record_no_primary_source_backs_says_so_with_its_reason_escaped(tree):
    write(tree, "records/sources/src-seed.yaml",
          "name: Seed draft\nsummary: An early draft.\ntype: seed\npath: seeds/draft.md\nsources:\n  - source: src-seed\n")
    path = tree / "records/benchmarks/b-quant.yaml"
    path.write_text(path.read_text().replace("sources:\n  - source: src-doc",
                                             "unverified: 'only the draft \"<b>quotes</b>\" it'\nsources:\n  - source: src-seed"))
    pages, problems = render(tree, "# T\n\n{{ ref('benchmark', 'b-quant') }} and {{ ref('benchmark', 'b-ref') }}; "
                                   "{{ ref('source', 'src-seed') }}.\n")
    assert [p for p in problems if "error" in p] == []
    assert pages["chapters/demo.md"] == (
        "# T\n\n[Quantized accuracy](../benchmarks/b-quant.md) <span class=\"atlas-unverified\" "
        "title=\"Unverified: only the draft &#34;&lt;b&gt;quotes&lt;/b&gt;&#34; it\">unverified</span> and "
        "[Reference accuracy](../benchmarks/b-ref.md); [Seed draft](../sources/src-seed.md).\n")


def test_compiled_templates_on_disk_are_kept_per_environment_settings(tmp_path, monkeypatch):
    """Settings such as autoescape compile into a template's code: code compiled under other settings is never
    loaded (nor kept), however equal the template's source."""
    import jinja2

    from generators import render
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("ATLAS_CACHE", raising=False)

    def compile_once(salt: str) -> list[str]:
        monkeypatch.setattr(render, "environment_salt", lambda: salt)
        cache = render._CompiledTemplates()
        env = jinja2.Environment(loader=jinja2.DictLoader({"t.md.j2": "{{ x }}"}), bytecode_cache=cache)
        assert env.get_template("t.md.j2").render(x="<b>") == "<b>"
        return sorted(p.name for p in (tmp_path / "templates").iterdir())

    assert compile_once("a" * 16) == ["a" * 16] and list((tmp_path / "templates" / ("a" * 16)).iterdir())
    (tmp_path / "templates" / ("a" * 16) / "stale").write_text("x")
    assert compile_once("b" * 16) == ["b" * 16]  # the other settings' code is gone, not merely unread


def test_the_page_views_are_computed_by_record_pages_and_not_by_check(tree):
    """derive.PAGE_VIEWS (the search tags) are read by record pages alone: `check` renders the chapters without them,
    and the site build computes them when its record pages render."""
    from generators import build, derive
    chapters = build.run_pipeline(tree, "docs", record_pages=False)
    assert chapters.atlas is not None and chapters.pages and not chapters.failed
    assert set(derive.PAGE_VIEWS) & set(vars(chapters.atlas.views)) == set()
    assert set(derive.CHECKED_VIEWS) <= set(vars(chapters.atlas.views))
    site = build.run_pipeline(tree, "docs")
    assert site.atlas is not None and set(derive.PAGE_VIEWS) <= set(vars(site.atlas.views))


def test_the_search_ranking_check_runs_where_record_pages_render_and_not_in_a_plain_check(tree, monkeypatch):
    """The search-ranking check reads the search tags, a page view: a plain `check` would pay for both (about 1.7 s of
    CPU at 10k records, which took `check` from 1.7x to 4.8x the bare parse), so it runs where record pages render
    (the site build, `check --all-pages`), and a term it finds outweighed fails that build at the term's record."""
    from generators import build
    from generators.checks import search_ranking
    from generators.derive.search_terms import Outweighed
    calls = []

    def settled_nowhere(found):
        calls.append(len(found))
        return [Outweighed(page="format/fmt-int4", term="fmt-int4", typed="fmt-int4", rival="format/fmt-fp4", own=1,
                           theirs=1, matched=("fmt",), capped=())]

    monkeypatch.setattr(search_ranking, "outweighed", settled_nowhere)
    chapters = build.run_pipeline(tree, "docs", record_pages=False)
    assert calls == [] and not chapters.failed
    site = build.run_pipeline(tree, "docs")
    assert calls and site.failed and not site.pages
    assert [(p.file, p.rule) for p in site.problems if p.severity == "error"] == [
        ("records/formats/fmt-int4.yaml", "search-ranking")]


def test_every_command_that_renders_record_pages_reports_a_search_ranking_error_and_fails(tree, monkeypatch, capsys):
    """What the contributor pages say (docs/contributing/checks.md.j2, README): a plain `check` passes a term left
    outweighed, while `check --all-pages`, `build --out` and a `serve` rebuild (site_cache with a page memo, twice)
    fail on it with its file, line and column; `build --out` then writes nothing."""
    from generators.checks import search_ranking
    from generators.cli import main
    from generators.derive.search_terms import Outweighed
    from generators.render.memo import PageMemo
    from generators.site_cache import generate
    monkeypatch.setattr(search_ranking, "outweighed", lambda found: [Outweighed(
        page="format/fmt-int4", term="fmt-int4", typed="fmt-int4", rival="format/fmt-fp4", own=1, theirs=1,
        matched=("fmt",), capped=())])
    located = "records/formats/fmt-int4.yaml:1:1: error: [search-ranking] search for its term 'fmt-int4'"
    out = tree.parent / "out"
    for args, code in ((["check"], 0), (["check", "--all-pages"], 1), (["build", "--out", str(out)], 1)):
        assert main(["--root", str(tree), *args]) == code, args
        assert any(line.startswith(located) for line in capsys.readouterr().out.splitlines()) == bool(code), args
    assert not out.exists()
    memo = PageMemo()
    for _ in range(2):
        rebuilt = generate(tree, "docs", memo=memo)
        assert rebuilt.failed and not rebuilt.files and any(str(p).startswith(located) for p in rebuilt.problems)


@pytest.mark.parametrize(("term", "field", "line"), [("4-bit", "weight_bits", 5), ("INT4", "name", 1), ("fmt-int4", "", 1)])
def test_a_search_ranking_error_points_at_the_field_that_states_the_term(tree, monkeypatch, term, field, line):
    """The error names the field holding the outweighed term (its line), not only the record: a width at weight_bits,
    a name at name, an id (the file name) at the record's first line."""
    from generators.checks import search_ranking
    from generators.derive.search_terms import Outweighed
    atlas, _ = check_tree(tree)
    assert atlas is not None
    monkeypatch.setattr(search_ranking, "outweighed", lambda found: [Outweighed(
        page="format/fmt-int4", term=term, typed=term, rival="format/fmt-fp4", own=1, theirs=1, matched=(), capped=())])
    [problem] = list(search_ranking.run(atlas))
    assert (problem.file, problem.line) == ("records/formats/fmt-int4.yaml", line)
    assert problem.message.startswith(f"{field}: " if field else "search for its term"), problem.message


def test_a_kernel_page_shows_where_the_engine_selects_it(tree):
    pages, problems = render_tree(tree)
    assert problems == []
    page = pages["kernels/k-generic.md"]
    table = page[page.index("## Where the engine selects it"):].split("\n\n")[2].splitlines()
    assert table[0] == "| verdict | scheme | hardware targets | how | "
    assert table[2].startswith('| <span class="verdict verdict-runs-if" ')  # float16 activations only: runs if
    assert table[2].endswith("| [Example W4A16 scheme](../schemes/sch-w4a16.md) | "
                             "[GPU SM80](../hardware-targets/gpu-sm80.md) | selected | ")
    assert len(table) == 3  # k-hopper is selected on SM90 first
    # where it runs comes before the record's own fields; a kind without such an answer shows its fields first
    assert page.index("## Where the engine selects it") < page.index("## Fields") < page.index("| field | value |")
    assert "## Fields" not in pages["formats/fmt-int4.md"] and "| field | value |" in pages["formats/fmt-int4.md"]
    assert "| Requirements |" not in page  # listed in their own table
    edit(tree, "records/kernels/k-cpu.yaml", """requirements:
  - {check: platform, values: [cpu], reason: "only CPU", reason_verbatim: false}
  - {check: weight-type, values: [int4], reason: "unsupported weight type", reason_verbatim: true}""",
         "requirements: []\nformats: []")  # (a candidate on the CPU alone, so its cells stay)
    pages, problems = render_tree(tree)
    lines = pages["kernels/k-cpu.md"].splitlines()
    assert "| Requirements | none: on every platform where a scheme lists it as a candidate, the engine accepts it |" in lines
    assert "| Formats | none |" in lines  # an empty list is said, not an empty cell


def test_a_kernel_page_says_a_divisible_group_size_in_one_phrase(tree):
    """A group size passes a divisibility requirement if `values` lists it or `multiple_of` divides it (vLLM's CPUWNA16:
    -1 or any even size). The page once showed the two fields as a "values" column (-1) and a "multiple of" column
    (2), which reads as a size that is both; it now says the accepted sizes in the value column, in the words the
    cell's condition uses, and a requirement with `multiple_of` alone (the RDNA3 op's 32) says any multiple."""
    edit(tree, "records/kernels/k-cpu.yaml", """  - {check: weight-type, values: [int4], reason: "unsupported weight type", reason_verbatim: true}""",
         """  - {check: weight-type, values: [int4], reason: "unsupported weight type", reason_verbatim: true}
  - {check: group-size, values: [-1], multiple_of: 2, reason: "not even", reason_verbatim: false}
  - {check: group-size, multiple_of: 32, after_selection: true, reason: "not a multiple of 32", reason_verbatim: false}""")
    pages, problems = render_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    page = pages["kernels/k-cpu.md"]
    rows = page[page.index("## Requirements"):].split("\n\n")[1].splitlines()
    header = [c.strip() for c in rows[0].strip("| ").split(" | ")]
    assert "multiple of" not in header and header[:2] == ["check", "value"], header
    sizes = [[c.strip() for c in row.strip("| ").split(" | ")][:2] for row in rows[2:] if row.startswith("| group-size")]
    assert sizes == [["group-size", "\\-1, or any multiple of 2"], ["group-size", "any multiple of 32"]]


def test_a_kernel_page_gives_each_requirement_s_other_fields_as_labelled_lines_of_one_cell(tree):
    """A kernel's requirements table had a column per field (up to fourteen, most cells empty) and ran past the content
    column at 1280 px, its prose a few words a line; the check and what it tests are its columns, and every other field
    the requirement states is a labelled line of a third (in the order the old columns had), none left out. What it
    tests is a list of `values` or one `value` (a capability, a package), each beside its check: a single value among
    the details left the column beside "capability-min" blank."""
    edit(tree, "records/kernels/k-cpu.yaml", """  - {check: weight-type, values: [int4], reason: "unsupported weight type", reason_verbatim: true}""",
         """  - {check: weight-type, values: [int4], reason: "unsupported weight type", reason_verbatim: true}
  - {check: group-size, multiple_of: 32, after_selection: true, reason: "not a multiple of 32", reason_verbatim: false,
     locator: "gemm.cpp line 7", when: {platform: [cpu]}}
  - {check: capability-min, value: 80, reason: "needs 8.0", reason_verbatim: false, when: {platform: [cuda]}}""")
    pages, problems = render_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    page = pages["kernels/k-cpu.md"]
    rows = page[page.index("## Requirements"):].split("\n\n")[1].splitlines()
    assert rows[0] == "| check | value | details | "
    cells = [row.strip("| ").split(" | ") for row in rows[2:]]
    assert [len(c) for c in cells] == [3, 3, 3, 3] and [c[:2] for c in cells][2:] == [["group-size", "any multiple of 32"],
                                                                                    ["capability-min", "80"]]
    label = '<span class="atlas-field-label">{}</span>: '
    assert cells[2][2].split("<br>") == [label.format("reason") + "not a multiple of 32", label.format("reason verbatim") + "no",
                                         label.format("after selection") + "yes",
                                         label.format("locator") + "gemm.cpp line 7", label.format("when") + "platform: cpu"]
    assert cells[0][2].split("<br>") == [label.format("reason") + "only CPU", label.format("reason verbatim") + "no"]
    assert cells[3][2].split("<br>") == [label.format("reason") + "needs 8.0", label.format("reason verbatim") + "no",
                                         label.format("when") + "platform: cuda"]


def test_heading_ids_are_the_ids_markdown_gives_the_headings():
    """A chapter's list of its sections links `#id` and writes the same id on each heading: the ids Python-Markdown's
    toc gives headings showing those escaped names, in that order, whatever characters the names hold (punctuation,
    Markdown and HTML syntax, accents), with its `_1`, `_2` where two slug alike or one slugs to nothing."""
    import re

    import markdown
    from generators.render.markdown import heading_ids
    names = ("NVIDIA SM 12.x (Blackwell workstation/consumer)", "A & B <c> *d* | e_f", "žlutý -- 4-bit_[x](y) `z`",
             "x86 CPU, AVX512 with AMX (Sapphire Rapids and newer)", "A & B <c> *d* | e_f", "a-b-c-d-e_f", "昇腾",
             "a-b-c-d-e_f_1", "Ω", "a-b-c-d-e_f")
    written = markdown.markdown("\n\n".join(f"### {escape_text(name)}" for name in names), extensions=["toc"])
    assert re.findall(r'<h3 id="([^"]*)">', written) == heading_ids(escape_text(name) for name in names)
    assert heading_ids(["A", "a", "", ""]) == ["a", "a_1", "_1", "_2"]


def test_an_accelerator_page_shows_its_own_figures_before_its_targets_cells(tree):
    """A part's memory and peaks are what its page is read for; the cells of its hardware targets (a long list on a GPU
    every engine reads) come after them, and the site's search skips that copy of the cells."""
    pages, problems = render_tree(tree)
    assert problems == []
    headings = [line for line in pages["accelerators/acc-big.md"].splitlines() if line.startswith("## ")]
    cells = headings.index("## Support cells of its hardware targets { data-search-exclude }")
    assert headings.index("## Memory bandwidth \\(GB/s\\)") < headings.index("## Peak compute") < cells
    assert headings.index("## Native and emulated formats") < cells


def test_code_shows_text_as_written_and_injects_nothing():
    """`| code` (ids, file paths, signatures): every character shows as typed, where a Markdown code span around an
    escaped value showed escape_text's backslashes (`if\\_not\\(cell\\)`), and no character starts markup."""
    import markdown
    hostile = "if_not(cell) <script>x</script> & `tick` | *b* [l](u) \\ #"
    html = markdown.markdown(f"| a |\n| --- |\n| {code_span(hostile)} |", extensions=["tables"])
    assert "<script>" not in html and html.count("<td>") == 1
    shown = re.sub(r"&#(\d+);", lambda m: chr(int(m.group(1))), re.search(r"<code>(.*)</code>", html).group(1))
    assert shown.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") == hostile


def test_with_code_shows_backticked_parts_as_code_and_escapes_the_rest():
    from generators.render.markdown import with_code
    assert with_code("Fails on an unknown `kind/id`; *not* emphasis") == \
        "Fails on an unknown <code>kind/id</code>; \\*not\\* emphasis"
    assert with_code("an unpaired ` tick") == escape_text("an unpaired ` tick")  # nothing becomes code
    assert with_code("`<b>` & more") == "<code>&lt;b&gt;</code> &amp; more"


def test_a_trap_page_colours_its_severity_and_silence_as_the_trap_index_does(tree):
    """The Severity and Silent fields of a trap's page read as the index's and the answers' badges, not plain words."""
    pages, problems = render_tree(tree)
    assert problems == []
    silent, loud = pages["gotchas/trap-silent.md"].splitlines(), pages["gotchas/trap-loud.md"].splitlines()
    assert '| Severity | <span class="atlas-severity atlas-severity--blocker">blocker</span> |' in silent
    assert '| Silent | <span class="atlas-silent">silent</span> |' in silent
    assert "| Silent | no |" in loud


def test_a_benchmark_page_gives_its_value_and_baseline_in_their_unit(tree):
    """The value's row carries its unit, the baseline's row its value, unit and what it is (here a linked record's
    value); the unit has no row of its own, and it is escaped like any record text."""
    for name in ("b-quant", "b-ref"):
        edit(tree, f"records/benchmarks/{name}.yaml", "unit: points\n", "unit: 'pts | <b>x</b>'\n")
    pages, problems = render_tree(tree)
    assert problems == []
    lines = pages["benchmarks/b-quant.md"].splitlines()
    unit = escape_text("pts | <b>x</b>")
    assert f"| Value | 78.16 {unit} |" in lines
    assert f"| Baseline | 82.36 {unit}: [Reference accuracy](b-ref.md) |" in lines
    assert f"| Difference | 4.2 {unit} below the baseline |" in lines  # the linked record holds the same metric
    assert not any(line.startswith("| Unit |") for line in lines)


def test_a_benchmark_page_gives_no_difference_against_a_bare_baseline_value(tree):
    """A baseline typed as a number need not be the same quantity (a shortfall's baseline is the score it misses)."""
    edit(tree, "records/benchmarks/b-quant.yaml", "baseline: {benchmark: b-ref}\n", "baseline: {value: 82.36}\n")
    pages, problems = render_tree(tree)
    lines = pages["benchmarks/b-quant.md"].splitlines()
    assert "| Baseline | 82.36 points |" in lines and not any(line.startswith("| Difference |") for line in lines)


def test_a_no_path_list_shows_its_engines_text_escaped_with_a_link_to_the_engines_table(tree):
    evil = "the extension is CUDA only <b>x</b> | col **bold**"
    edit(tree, "records/engines/eng.yaml", "sources:\n",
         f"no_path:\n  - {{platform: cpu, selector: import eng, locator: '{evil}', sources: [{{source: src-doc}}]}}\n"
         "sources:\n")
    edit(tree, "records/schemes/sch-w4a16.yaml", "kernels: [k-cpu]", "kernels: []\n    no_path: true")
    atlas, problems = check_tree(tree)
    assert [p.rule for p in problems] == ["published-explained"]  # the fixture's finding explained the CPU cell's old route
    pages, _ = render_site(atlas, tree / "docs")
    shown = "the extension is CUDA only &lt;b&gt;x&lt;/b&gt; &#124; col \\*\\*bold\\*\\*"
    engine = pages["engines/eng.md"]
    assert "## No path\n" in engine  # the anchor #no-path the scheme page links to
    assert f"| cpu | import eng | {shown} | source: [Example vendor table](../sources/src-doc.md) | " in engine.splitlines()
    row = next(line for line in pages["schemes/sch-w4a16.md"].splitlines() if line.startswith("| cpu |"))
    assert row.endswith(f"| import eng | {shown} | [Example Engine: no path on cpu](../engines/eng.md#no-path) | ")
    assert "<b>" not in row and "src-doc" not in row  # its sources are on the engine's table


def test_a_named_list_shows_on_the_scheme_page_as_typed_with_a_link_to_the_engines_list_and_its_schemes(tree):
    typed = render_tree(tree)[0]["schemes/sch-w4a16.md"]
    _named_walk(tree)
    atlas, problems = check_tree(tree)
    pages, _ = render_site(atlas, tree / "docs")
    before = next(line for line in typed.splitlines() if line.startswith("| cuda |"))
    row = next(line for line in pages["schemes/sch-w4a16.md"].splitlines() if line.startswith("| cuda |"))
    assert row == before + "[Example Engine: candidate list gpu-walk](../engines/eng.md#candidate-lists) | "
    engine = pages["engines/eng.md"]
    assert "## Candidate lists\n" in engine  # the anchor #candidate-lists the scheme page links to
    listed = next(line for line in engine.splitlines() if line.startswith("| gpu-walk |"))
    assert listed.endswith("| [Copied W4A16 scheme](../schemes/sch-copy.md), "
                           "[Example W4A16 scheme](../schemes/sch-w4a16.md) | ")


def _named_walk(tree):
    """sch-copy is sch-w4a16 with another CPU list; both name the engine's CUDA list gpu-walk instead of typing it."""
    scheme = tree / "records/schemes/sch-w4a16.yaml"
    (tree / "records/schemes/sch-copy.yaml").write_text(scheme.read_text().replace("Example W4A16", "Copied W4A16")
                                                       .replace("kernels: [k-cpu]", "kernels: [k-cpu, k-generic]"))
    edit(tree, "records/engines/eng.yaml", "sources:\n", "candidate_lists:\n  - id: gpu-walk\n    platform: cuda\n"
         "    kernels: [k-hopper, k-generic]\n    failure_message: \"Failed to find a kernel\"\nsources:\n")
    for name in ("sch-w4a16", "sch-copy"):
        edit(tree, f"records/schemes/{name}.yaml", "    kernels: [k-hopper, k-generic]\n    failure_message: \"Failed "
             "to find a kernel\"\n", "    list: gpu-walk\n")


def _referenced_by(page):
    return page[page.index("## Referenced by"):]


def test_a_kernel_a_named_list_walks_is_referenced_by_the_schemes_naming_it_beside_the_engine(tree):
    typed = _referenced_by(render_tree(tree)[0]["kernels/k-hopper.md"])  # sch-w4a16 types its CUDA list
    _named_walk(tree)
    atlas, problems = check_tree(tree)
    assert problems == []
    named = _referenced_by(render_site(atlas, tree / "docs")[0]["kernels/k-hopper.md"])
    typed_line = next(line for line in typed.splitlines() if "../schemes/" in line)
    assert typed_line == "- [Example W4A16 scheme](../schemes/sch-w4a16.md) <small>(candidates)</small>"
    assert [line for line in named.splitlines() if "../schemes/" in line] == [
        "- [Copied W4A16 scheme](../schemes/sch-copy.md) <small>(candidates)</small>", typed_line]  # as when typed
    assert "- [Example Engine](../engines/eng.md) <small>(candidate lists)</small>" in named  # and where it is stated


def test_an_api_record_gives_the_schemes_reaching_it_through_a_named_list_with_where_the_engine_states_it(tree):
    from generators.render.api import record_document
    _named_walk(tree)
    atlas, problems = check_tree(tree)
    backlinks = record_document(atlas, atlas.index.must("kernel", "k-generic"))["backlinks"]
    assert [b for b in backlinks if "through" in b or b["record"] == "engine/eng"] == [
        {"record": "engine/eng", "field": "candidate_lists[0].kernels[1]"},
        {"record": "scheme/sch-copy", "field": "candidates[0].list",
         "through": {"record": "engine/eng", "field": "candidate_lists[0].kernels[1]"}},
        {"record": "scheme/sch-w4a16", "field": "candidates[0].list",
         "through": {"record": "engine/eng", "field": "candidate_lists[0].kernels[1]"}}]
    assert {"record": "scheme/sch-copy", "field": "candidates[1].kernels[1]"} in backlinks  # its typed CPU list
    assert record_document(atlas, atlas.index.must("kernel", "k-cpu"))["backlinks"] == [
        {"record": "scheme/sch-copy", "field": "candidates[1].kernels[0]"},
        {"record": "scheme/sch-w4a16", "field": "candidates[1].kernels[0]"}]  # no named list: the index's alone


def test_tables_lead_with_the_kernel_a_default_install_selects(real_atlas):
    # conch-triton-kernels is no requirement of a CUDA wheel: every table that names the cell's kernel says a default
    # install runs Humming first, and Conch as the kernel the package brings
    from generators.derive.default_lead import default_lead
    from generators.render.matrix import support_matrices_html
    from generators.render.pages import why_markup
    from generators.render.values import ValueRenderer
    cell = real_atlas.views.cells[("vllm-ct-wna16-8-asym", "nvidia-sm120")]
    assert default_lead(cell) is not None
    html = str(support_matrices_html(real_atlas, "chapters/support-tables.md", {}))
    hover = re.search(r'href="#cell-vllm-ct-wna16-8-asym--nvidia-sm120" title="([^"]*)"', html)
    assert hover and hover.group(1).startswith("Runs via vllm-humming on a default install; vllm-conch with package "
                                               "conch-triton-kernels installed — the opt-in kernel when ")
    note = html[html.index('id="cell-vllm-ct-wna16-8-asym--nvidia-sm120"'):]
    note = re.sub(r"<[^>]+>", "", note[:note.index("</li>")])
    assert (": Runs via vllm-humming on a default install; vllm-conch with package conch-triton-kernels installed "
            "(a default install lacks it: ") in note
    assert "; the opt-in kernel when group size in {-1, 128}" in note
    why = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", str(why_markup(cell, ValueRenderer({}, {}, "chapters/x.md"))))
    assert why.startswith("via vllm-humming on a default install; vllm-conch with package conch-triton-kernels installed")
    # chapter 23's served rows: cells whose default install selects another kernel share no row with one that does not
    sm120 = next(s for s in real_atlas.views.target_selections if s.target == "nvidia-sm120")
    for row in sm120.rows:
        assert len({default_lead(real_atlas.views.cells[(s, "nvidia-sm120")]) for s in row.schemes}) == 1


def test_an_expert_layer_answer_shows_its_whole_checkpoint_where_the_other_layers_are_worse(tree):
    """The mini scheme made an expert-layer scheme whose checkpoint's other layers are a dense scheme with no CPU list:
    on the CPU target the experts run and the dense layers are refused, so the scheme page, the target page and a
    chapter's whole_checkpoint(cell) say the whole checkpoint is refused, set by the other layers, linking that scheme,
    while the expert cell's own verdict stays Runs."""
    dense = (tree / "records/schemes/sch-w4a16.yaml").read_text().replace(
        "  - platform: cpu\n    kernels: [k-cpu]\n", "").replace("Example W4A16 scheme", "Example dense scheme").replace(
        '"Failed to find a kernel"', '"Failed to find a dense kernel"')  # (a list typed alike twice is an error)
    (tree / "records/schemes/sch-dense.yaml").write_text(dense)
    edit_text = (tree / "records/schemes/sch-w4a16.yaml").read_text().replace(
        "formats: [fmt-int4]\n", "formats: [fmt-int4]\nlayers: experts\n"
        "other_layers: {scheme: sch-dense, source: src-code, locator: here}\n")
    (tree / "records/schemes/sch-w4a16.yaml").write_text(edit_text)
    pages, problems = render(tree, "# T\n\n{{ cell('sch-w4a16', 'cpu-avx512') | verdict }}: "
                                   "{{ whole_checkpoint(cell('sch-w4a16', 'cpu-avx512')) }}\n")
    assert problems == []
    said = ("(set by the other linear layers, worse than the expert layers): the checkpoint's other linear layers, "
            "scheme [Example dense scheme](../schemes/sch-dense.md), are refused on this target: ")
    chapter = pages["chapters/demo.md"]
    assert chapter.startswith('# T\n\n<span class="verdict verdict-runs"') and ">Runs</span>: <span class=\"verdict verdict-refused\"" in chapter
    assert said in chapter
    scheme = pages["schemes/sch-w4a16.md"]
    assert "| target | verdict | whole checkpoint | why |" in scheme
    assert said.replace("../schemes/sch-dense.md", "sch-dense.md") in scheme
    assert "| target | verdict | why |" in pages["schemes/sch-dense.md"]  # a dense scheme's page has no such column


def test_a_whole_checkpoint_worse_on_a_default_install_says_so_in_explain_and_on_the_pages(real_atlas):
    """Where the other layers' kernel is one a default install does not select and what it selects instead is worse
    (vLLM's block FP8 linear layers on Ada: Triton only with --linear-backend triton, else a Marlin fallback), the
    whole checkpoint's "Runs if" line adds what a default install gets, in explain and on the pages alike: the layers,
    the kernel (linked) and the default verdict, so "Runs if" is not read as "runs once the flag is set, else fine"."""
    from generators.derive.wording import WORDS
    from generators.explain import explain_text
    from generators.render.pages import whole_markup
    from generators.render.values import ValueRenderer

    shown = [w for w in real_atlas.views.whole_checkpoints.values() if w.by_default is not None]
    assert shown, "no whole checkpoint a default install makes worse: this test checks nothing"
    for whole in shown:
        text, _ = explain_text(real_atlas, whole.scheme, whole.target)
        line = next(x for x in text.splitlines() if x.startswith("  whole checkpoint: "))
        layers = WORDS["whole_checkpoint_layers"][whole.default_layers]
        if whole.default_layers == "others":  # their kernels as their own answer leads with them
            assert f"run on this target by {whole.default_kernel} on a default install" in line, line
        assert line.endswith(f"; on a default install ({layers} kernel named first) the whole checkpoint: "
                             f"{whole.by_default.label.upper()} (explain {whole.other} {whole.target})"), line
        markup = str(whole_markup(real_atlas, real_atlas.views.cells[(whole.scheme, whole.target)],
                                  ValueRenderer({}, {}, "schemes/x.md")))
        assert f"kernels/{whole.default_kernel}.md" in markup, markup
        assert f'the whole checkpoint: <span class="verdict verdict-{whole.by_default.value}"' in markup, markup
