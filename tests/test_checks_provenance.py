"""The provenance checks (unverified-declared, quoted-value, quoted-difference, trap-scope), each failing and passing,
full messages."""
from __future__ import annotations

from generators.derive.provenance import unverified_records
from generators.build import check_tree

from .conftest import write
from .test_checks import edit, problems_of

SEED = ("name: A seed draft\nsummary: Working notes.\ntype: seed\nurl: https://example.org/seed\n"
        "sources:\n  - source: src-seed\n")


def _seed_only(tree, relative):
    write(tree, "records/sources/src-seed.yaml", SEED)
    edit(tree, relative, "  - source: src-doc\n", "  - source: src-seed\n")


def test_unverified_declared_missing(tree):
    _seed_only(tree, "records/benchmarks/b-ref.yaml")
    assert problems_of(tree, "unverified-declared") == [
        "records/benchmarks/b-ref.yaml:1:1: error: [unverified-declared] benchmark 'b-ref' cites no primary source "
        "(only 'src-seed'; a seed draft is not evidence); cite the engine code, datasheet, paper or thread that "
        "states it, or declare unverified: <why no primary source exists>"]


def test_unverified_declared_passes_when_declared_and_is_listed_as_a_gap(tree):
    _seed_only(tree, "records/benchmarks/b-ref.yaml")
    edit(tree, "records/benchmarks/b-ref.yaml", "grade: measured\n", "grade: measured\nunverified: Only the seed states it.\n")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.rule == "unverified-declared"] == []
    listed = [(u.record, u.reason, u.declared) for u in unverified_records(atlas.index, ("benchmark",))]
    assert listed == [("benchmark/b-ref", "Only the seed states it.", True)]


def test_unverified_declared_stale(tree):
    edit(tree, "records/benchmarks/b-quant.yaml", "grade: measured\n", "grade: measured\nunverified: Only the seed.\n")
    assert problems_of(tree, "unverified-declared") == [
        "records/benchmarks/b-quant.yaml:9:13: error: [unverified-declared] unverified: stale declaration: 'b-quant' "
        "cites the primary source 'src-doc' at sources[0].source; remove unverified"]


def test_quoted_value_needs_a_quote_containing_the_number(tree):
    edit(tree, "records/benchmarks/b-quant.yaml", "  - source: src-doc\n",
         "  - source: src-doc\n    value: 78.16\n  - source: src-code\n    quote: scored 78.2 points\n    value: 78.16\n")
    assert problems_of(tree, "quoted-value") == [
        "records/benchmarks/b-quant.yaml:12:12: error: [quoted-value] sources[0].value: cites 78.16 from 'src-doc' "
        "without a quote; add the verbatim text that states it",
        "records/benchmarks/b-quant.yaml:14:12: error: [quoted-value] sources[1].quote: the quote 'scored 78.2 points' "
        "does not contain 78.16; quote the text that states the number verbatim"]


def test_quoted_value_primary_source_sets_the_value(tree):
    edit(tree, "records/benchmarks/b-quant.yaml", "  - source: src-doc\n",
         "  - source: src-doc\n    quote: averages 78.10 points\n    value: 78.1\n")
    assert problems_of(tree, "quoted-value") == [
        "records/benchmarks/b-quant.yaml:6:8: error: [quoted-value] value: value 78.16 differs from 78.1 quoted from "
        "the primary source 'src-doc' at sources.0; publish the source's figure (keep the other as a contested claim)"]
    edit(tree, "records/benchmarks/b-quant.yaml", "value: 78.16\n", "value: 78.1\n")
    assert problems_of(tree, "quoted-value") == []


def test_quoted_value_seed_figure_may_differ(tree):
    write(tree, "records/sources/src-seed.yaml", SEED)
    edit(tree, "records/benchmarks/b-quant.yaml", "  - source: src-doc\n",
         "  - source: src-doc\n  - source: src-seed\n    quote: 1,078.2 points\n    value: 1078.2\n")
    assert problems_of(tree, "quoted-value") == []


def test_quoted_difference_is_checked_against_value_minus_baseline_at_its_decimals(tree):
    """b-quant (78.16) against b-ref (82.36): -4.2 and -4.20 agree, a 4.3 gap or the wrong sign does not."""
    edit(tree, "records/benchmarks/b-quant.yaml", "  - source: src-doc\n",
         "  - source: src-doc\n    quote: trails by 4.2 points\n    difference: -4.2\n"
         "  - source: src-code\n    quote: 4.20 points lower\n    difference: -4.20\n")
    assert problems_of(tree, "quoted-difference") == []
    edit(tree, "records/benchmarks/b-quant.yaml", "    quote: trails by 4.2 points\n    difference: -4.2\n",
         "    quote: trails by 4.3 points\n    difference: -4.3\n")
    edit(tree, "records/benchmarks/b-quant.yaml", "    difference: -4.20\n", "    difference: 4.20\n")
    assert problems_of(tree, "quoted-difference") == [
        "records/benchmarks/b-quant.yaml:13:17: error: [quoted-difference] sources[0].difference: 'src-doc' states a "
        "difference of -4.3, but the value minus the baseline is -4.20; correct the value or the baseline, or keep the "
        "source's figure as a contested claim",
        "records/benchmarks/b-quant.yaml:16:17: error: [quoted-difference] sources[1].difference: 'src-code' states a "
        "difference of 4.2, but the value minus the baseline is -4.20; correct the value or the baseline, or keep the "
        "source's figure as a contested claim"]


def test_quoted_difference_needs_its_quote_a_baseline_and_a_benchmark(tree):
    edit(tree, "records/benchmarks/b-quant.yaml", "  - source: src-doc\n",
         "  - source: src-doc\n    quote: trails by 4.3 points\n    difference: -4.2\n")
    edit(tree, "records/benchmarks/b-ref.yaml", "  - source: src-doc\n",
         "  - source: src-doc\n    quote: 4.2 points above\n    difference: 4.2\n")
    edit(tree, "records/sources/src-code.yaml", "  - source: src-code\n",
         "  - source: src-code\n    quote: by 4.2 points\n    difference: 4.2\n")
    assert problems_of(tree, "quoted-difference") == [
        "records/benchmarks/b-quant.yaml:12:12: error: [quoted-difference] sources[0].quote: the difference -4.2 cited "
        "from 'src-doc' needs a quote that states it verbatim",
        "records/benchmarks/b-ref.yaml:12:17: error: [quoted-difference] sources[0].difference: a stated difference "
        "needs the benchmark's value and exactly one baseline value to be checked against",
        "records/sources/src-code.yaml:10:17: error: [quoted-difference] sources[0].difference: only a benchmark has a "
        "difference from a baseline"]


def test_trap_scope_word_without_scope(tree):
    path = tree / "records/gotchas/trap-silent.yaml"
    path.write_text(path.read_text().split("scope:\n")[0])
    assert problems_of(tree, "trap-scope") == [
        "records/gotchas/trap-silent.yaml:7:10: error: [trap-scope] symptom: says 'Every' but the trap declares no "
        "scope; narrow the wording to what the evidence shows, or add scope: {statement, affected, fixed_in, sources} "
        "citing a primary source whose locator or quote backs it"]


def test_trap_scope_needs_a_primary_source_with_a_locator(tree):
    write(tree, "records/sources/src-seed.yaml", SEED)
    edit(tree, "records/gotchas/trap-silent.yaml", "    - source: src-doc\n      locator: FP4 row\n",
         "    - source: src-seed\n      locator: FP4 row\n    - source: src-code\n")
    assert problems_of(tree, "trap-scope") == [
        "records/gotchas/trap-silent.yaml:16:5: error: [trap-scope] scope.sources: symptom says 'Every' but no scope "
        "source is a primary source with a locator or quote; cite the code, issue or paper passage that shows the scope",
        "records/gotchas/trap-silent.yaml:16:15: error: [trap-scope] scope.sources[0].source: 'src-seed' is a seed "
        "draft; a scope rests on primary sources only (cite it in sources instead)"]


def test_unverified_record_page_and_gaps_row(tree):
    from generators.build import render_tree
    _seed_only(tree, "records/benchmarks/b-ref.yaml")
    edit(tree, "records/benchmarks/b-ref.yaml", "grade: measured\n", "grade: measured\nunverified: Only the <seed> states it.\n")
    write(tree, "docs/chapters/unverified.md.j2",
          "{% for u in views.gaps.unverified %}{{ link_to(u.record) }}: {{ u.reason }}\n{% endfor %}")
    pages, problems = render_tree(tree)
    assert [p.rule for p in problems] == ["unverified-record"]
    assert pages["benchmarks/b-ref.md"].split("\n")[7:10] == [  # after the front matter, the title and the id line
        '!!! warning "Unverified"',
        "    No primary source backs this record yet: Only the &lt;seed&gt; states it.", ""]
    assert '!!! warning "Unverified"' not in pages["benchmarks/b-quant.md"]  # it cites a primary source itself
    assert ('[Reference accuracy](b-ref.md) <span class="atlas-unverified" title="Unverified: Only the &lt;seed&gt; '
            'states it.">unverified</span>') in pages["benchmarks/b-quant.md"]  # its baseline does not: the link says so
    assert pages["chapters/unverified.md"].splitlines() == [
        "[Reference accuracy](../benchmarks/b-ref.md): Only the &lt;seed&gt; states it."]


def test_unverified_declared_covers_techniques_and_kernels(tree):
    _seed_only(tree, "records/techniques/calib.yaml")
    assert problems_of(tree, "unverified-declared") == [
        "records/techniques/calib.yaml:1:1: error: [unverified-declared] technique 'calib' cites no primary source "
        "(only 'src-seed'; a seed draft is not evidence); cite the engine code, datasheet, paper or thread that "
        "states it, or declare unverified: <why no primary source exists>"]


def test_unverified_record_is_a_warning_located_at_its_declaration(tree):
    _seed_only(tree, "records/benchmarks/b-ref.yaml")
    edit(tree, "records/benchmarks/b-ref.yaml", "grade: measured\n", "grade: measured\nunverified: Only the seed states it.\n")
    assert problems_of(tree, "unverified-record") == [
        "records/benchmarks/b-ref.yaml:9:13: warning: [unverified-record] unverified: benchmark 'b-ref' rests on no "
        "primary source, so the site marks it unverified (see the reason declared here); cite one to clear this warning"]



def test_a_past_side_skips_the_checks_that_only_warn_and_keeps_its_atlas(tree):
    """The changelog's past sides need only whether a tree has errors: a check marked warns_only (its findings are all
    warnings, asserted here on a tree where it finds some) is skipped there and nowhere else."""
    from generators import checks, diff
    from generators.build import check_stages
    _seed_only(tree, "records/benchmarks/b-ref.yaml")
    edit(tree, "records/benchmarks/b-ref.yaml", "grade: measured\n", "grade: measured\nunverified: Only the seed states it.\n")
    full, past = check_stages(tree), check_stages(tree, views=diff.CHANGE_VIEWS)
    assert full.atlas is not None and past.atlas is not None
    warning_only = {check.name for check in checks.REGISTRY if check.warns_only}
    assert warning_only == {"unverified-record"}
    found = [p for p in full.problems if p.rule in warning_only]
    assert found and {p.severity for p in found} == {"warning"}
    assert [p for p in past.problems if p.rule in warning_only] == []
    assert [str(p) for p in past.problems] == [str(p) for p in full.problems if p.rule not in warning_only]

def test_a_past_side_stops_at_its_first_error_and_fails_as_the_full_run_does(tree):
    """A past side reads only whether the tree has errors: the first error found ends its run (here two shape checks
    find one each; the later in the registry is not run), and it has no atlas exactly when the full run has none."""
    from generators import checks, diff
    from generators.build import check_stages
    edit(tree, "records/benchmarks/b-ref.yaml", "unit: points", "unit: percent")
    edit(tree, "records/schemes/sch-w4a16.yaml", "  - platform: cpu\n", "  - platform: cuda\n")
    full, past = check_stages(tree), check_stages(tree, views=diff.CHANGE_VIEWS)
    order = [check.name for check in checks.REGISTRY]
    assert {p.rule for p in full.problems if p.severity == "error"} == {"benchmark-baseline", "scheme-candidates"}
    assert order.index("benchmark-baseline") < order.index("scheme-candidates")
    assert full.atlas is None and past.atlas is None
    assert [str(p) for p in past.problems if p.severity == "error"] == [
        str(p) for p in full.problems if p.rule == "benchmark-baseline"]


def test_unverified_record_spares_findings_and_verified_records(tree):
    assert problems_of(tree, "unverified-record") == []


def test_the_unverified_view_gives_each_records_reason_as_unverified_reason_does(real_atlas, tree):
    """Record pages read a record's reason from the `unverified` view: for every record of every kind (sources and
    verified records included, with no reason) it is what derive.provenance.unverified_reason says."""
    from generators.derive.provenance import unverified_reason

    _seed_only(tree, "records/benchmarks/b-ref.yaml")
    edit(tree, "records/benchmarks/b-ref.yaml", "grade: measured\n", "grade: measured\nunverified: Only the seed.\n")
    mini, _ = check_tree(tree)
    for atlas in (real_atlas, mini):
        assert atlas is not None
        records = [r for kind in atlas.index.by_kind for r in atlas.index.all(kind)]
        assert any(unverified_reason(atlas.index, r) for r in records) and any(r.kind == "source" for r in records)
        assert all(atlas.views.unverified.get(r.ref, "") == unverified_reason(atlas.index, r) for r in records)


def test_an_unverified_reason_is_a_sentence_or_two_not_a_search_log(tree):
    _seed_only(tree, "records/benchmarks/b-ref.yaml")
    edit(tree, "records/benchmarks/b-ref.yaml", "grade: measured\n", "grade: measured\nunverified: " + "x" * 401 + "\n")
    assert problems_of(tree, "schema") == [
        "records/benchmarks/b-ref.yaml:9:13: error: [schema] unverified: 401 characters, more than the 400 this field "
        "takes"]
    edit(tree, "records/benchmarks/b-ref.yaml", "x" * 401, "x" * 400)
    assert problems_of(tree, "schema") == []
