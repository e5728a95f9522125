"""The rules each view family states in its docstring, on crafted in-memory records: break a rule, fail here."""
from __future__ import annotations

from tests.memory_atlas import atlas_of


def peak(precision: str, tflops: float, source: str, accumulate: str | None = None) -> dict:
    figure = {"precision": precision, "sparsity": "dense", "tflops": tflops, "source": source}
    return {**figure, "accumulate": accumulate} if accumulate else figure


def test_a_precision_ratio_pairs_only_figures_from_the_same_source_and_accumulate():
    atlas = atlas_of({"accelerator/gpu": {"peak_compute": [
        peak("bf16", 100, "vendor", "fp32"), peak("fp8", 400, "vendor", "fp32"),
        peak("fp8", 300, "blog", "fp32"), peak("fp8", 200, "vendor", "fp16")]}})
    assert [(r.precision, r.ratio, r.source, r.accumulate) for r in atlas.views.ratios] == [("fp8", 4.0, "vendor", "fp32")]


def test_ridges_never_mix_dense_and_sparse_and_divide_by_the_bandwidth():
    sparse = {**peak("fp8", 800, "vendor"), "sparsity": "sparse"}
    atlas = atlas_of({"accelerator/gpu": {"peak_compute": [peak("fp8", 400, "vendor"), sparse],
                                          "memory_bandwidth_gbs": [{"value": 2000, "source": "vendor"}]}})
    assert [(r.precision, r.tflops, r.flop_per_byte) for r in atlas.views.ridges] == [("fp8", 400, 200.0)]


def trap(name: str, silent: bool, severity: str, regime: str = "weight-only") -> dict:
    effect = {"blocker": "stops", "major": "degraded", "minor": "misleads"}[severity]  # (the order reads severity only)
    return {"name": name, "silent": silent, "severity": severity, "effect": effect, "regime": regime}


def test_traps_read_silent_first_then_by_severity_then_by_name():
    atlas = atlas_of({"gotcha/loud-blocker": trap("A loud blocker", False, "blocker"),
                      "gotcha/silent-minor": trap("B silent minor", True, "minor"),
                      "gotcha/silent-major": trap("C silent major", True, "major"),
                      "gotcha/silent-major-2": trap("A silent major", True, "major", "kv-cache")})
    assert [t.id for t in atlas.views.traps] == ["silent-major-2", "silent-major", "silent-minor", "loud-blocker"]
    assert {regime: [t.id for t in traps] for regime, traps in atlas.views.traps_by_regime.items()} == {
        "kv-cache": ["silent-major-2"], "weight-only": ["silent-major", "silent-minor", "loud-blocker"]}


def fmt(family: str = "integer") -> dict:
    return {"name": "f", "family": family, "regime": "weight-only"}


def test_formats_without_benchmarks_are_those_with_no_measured_value():
    atlas = atlas_of({"format/measured": fmt(), "format/unmeasured": fmt(), "format/named-only": fmt(),
                      "format/a-category": fmt("category"),
                      "benchmark/b1": {"format": "measured", "value": 1.0},
                      "benchmark/b2": {"format": "named-only"}})
    gaps = atlas.views.gaps
    assert gaps.formats_without_benchmarks == ("named-only", "unmeasured")
    assert gaps.benchmarks_without_value == ("b2",)


def test_an_engine_entry_stated_only_by_a_seed_is_not_primary():
    atlas = atlas_of({"source/seed": {"type": "seed"}, "source/code": {"type": "code"},
                      "format/f": fmt(),
                      "engine/e": {"category": "serving-engine", "format_support": [
                          {"format": "f", "status": "yes", "source": "seed"},
                          {"format": "f", "status": "writes", "source": "code"}]}})
    [engine] = atlas.views.engine_support
    assert [(row.status, row.source, row.primary) for row in engine.rows] == [("yes", "seed", False), ("writes", "code", True)]


def test_release_disagreements_list_every_disagreeing_release_per_published_cell_in_claim_order():
    from generators.derive.published_grid import ReleaseDisagreement, release_disagreements
    from generators.derive.published_history import ReleaseClaim

    def claim(release: str, row: str, published: str, observed: str) -> ReleaseClaim:
        return ReleaseClaim("m", release, row, "x86", "✅" if published == "yes" else "❌", published, observed, "obs", ("p", (), ()))

    claims = [claim("0.30.0", "W4A8", "no", "yes"), claim("0.30.0", "W8A8", "yes", "yes"),
              claim("0.31.0", "W4A8", "no", "partial"), claim("0.31.0", "W8A8", "yes", "none"),
              claim("0.33.0", "W4A8", "no", "no"), claim("0.33.0", "W8A8", "unknown", "no")]
    assert release_disagreements(claims) == {
        ("m", "W4A8", "x86"): (ReleaseDisagreement("0.30.0", "yes"), ReleaseDisagreement("0.31.0", "partial"))}


def test_a_kernel_is_used_where_a_cell_selects_it_by_default_or_when_a_condition_fails():
    from generators.derive.cells import Attempt, Cell, Otherwise
    from generators.derive.kernel_uses import BY_DEFAULT, OTHERWISE, SELECTED, kernel_uses
    from generators.model.verdicts import Verdict

    def cell(target, verdict, kernel, **more):
        return Cell("eng", "sch", target, verdict, kernel, (), (Attempt(kernel or "k-declined", "no"),), **more)

    fails = Otherwise("k-fast", ("bf16 model",), Verdict.FALLBACK, "k-slow")
    refused = Otherwise("k-slow", ("x",), Verdict.REFUSED, None)  # nothing selected: no use
    uses = kernel_uses([
        cell("t1", Verdict.RUNS_IF, "k-fast", otherwise=(fails, refused)),
        cell("t2", Verdict.RUNS_IF, "k-fast", otherwise=(fails,)),
        cell("t3", Verdict.RUNS, "k-opt", default_kernel="k-fast"),
        cell("t4", Verdict.REFUSED, None),
        # the opted-in kernel runs the scheme; the weight-only one a default install reaches computes otherwise
        cell("t5", Verdict.RUNS_IF, "k-opt", default_kernel="k-weight-only",
             otherwise=(Otherwise("k-opt", ("a setting",), Verdict.FALLBACK, "k-weight-only"),))])
    assert {k: [(u.role, u.verdict, u.instead_of, u.unmet, u.targets) for u in found] for k, found in uses.items()} == {
        "k-fast": [(SELECTED, Verdict.RUNS_IF, "", (), ("t1", "t2")), (BY_DEFAULT, Verdict.RUNS, "k-opt", (), ("t3",))],
        "k-slow": [(OTHERWISE, Verdict.FALLBACK, "k-fast", ("bf16 model",), ("t1", "t2"))],
        "k-opt": [(SELECTED, Verdict.RUNS, "k-fast", (), ("t3",)), (SELECTED, Verdict.RUNS_IF, "k-weight-only", (), ("t5",))],
        "k-weight-only": [(BY_DEFAULT, Verdict.FALLBACK, "k-opt", (), ("t5",)),
                          (OTHERWISE, Verdict.FALLBACK, "k-opt", ("a setting",), ("t5",))]}


def test_only_schemes_marked_experts_are_expert_layer_schemes():
    atlas = atlas_of({"scheme/dense-default": {}, "scheme/dense-said": {"layers": "dense"},
                      "scheme/b-experts": {"layers": "experts"}, "scheme/a-experts": {"layers": "experts"}})
    assert atlas.views.expert_layer_schemes == ("a-experts", "b-experts")


def test_an_expert_cells_whole_checkpoint_is_the_worse_of_it_and_its_other_layers_cell_on_the_same_target():
    """The whole checkpoint of an expert-layer scheme's cell is the worse, in the verdict vocabulary's order, of its own
    verdict and the cell of the scheme its record names for the checkpoint's other layers on the same target; the
    expert cell keeps its verdict, a scheme saying none applies (`no_scheme`) has none, nor has a dense scheme."""
    from generators.derive.cells import Cell
    from generators.derive.whole_checkpoint import BOTH, EXPERTS, OTHERS, whole_checkpoints
    from generators.model.verdicts import Verdict

    def cell(scheme, target, verdict, conditions=(), **more):
        return Cell("eng", scheme, target, verdict, None, conditions, (), **more)

    other = {"source": "src", "locator": "here"}
    atlas = atlas_of({"scheme/dense": {}, "scheme/moe": {"layers": "experts", "other_layers": {"scheme": "dense", **other}},
                      "scheme/gpt-oss": {"layers": "experts", "other_layers": {"no_scheme": "bf16", **other}}})
    gate = "Min capability: 75."
    cells = {("moe", "old"): cell("moe", "old", Verdict.FALLBACK, computes_as="emulated"),
             ("dense", "old"): cell("dense", "old", Verdict.REFUSED, gate=gate, reasons=(gate,)),
             ("moe", "new"): cell("moe", "new", Verdict.REFUSED, failure_message="none"),
             ("dense", "new"): cell("dense", "new", Verdict.RUNS_IF, conditions=("pkg installed",)),
             ("moe", "mid"): cell("moe", "mid", Verdict.RUNS),
             ("dense", "mid"): cell("dense", "mid", Verdict.RUNS),
             ("moe", "lone"): cell("moe", "lone", Verdict.RUNS),
             ("gpt-oss", "old"): cell("gpt-oss", "old", Verdict.RUNS)}
    found = whole_checkpoints(atlas.index, cells)
    assert {key: (w.other, w.experts, w.others, w.verdict, w.decided_by, w.why) for key, w in found.items()} == {
        ("moe", "old"): ("dense", Verdict.FALLBACK, Verdict.REFUSED, Verdict.REFUSED, OTHERS, gate),
        ("moe", "new"): ("dense", Verdict.REFUSED, Verdict.RUNS_IF, Verdict.REFUSED, EXPERTS, "pkg installed"),
        ("moe", "mid"): ("dense", Verdict.RUNS, Verdict.RUNS, Verdict.RUNS, BOTH, ""),
        ("moe", "lone"): ("dense", Verdict.RUNS, None, None, "", "")}
    assert cells[("moe", "old")].verdict is Verdict.FALLBACK  # the expert cell's own verdict is never changed


def test_worse_follows_the_verdict_vocabularys_order_which_the_cards_rank_mirrors():
    """`worse` takes the order the Verdict enum declares (best first); the card's comparison sorts and picks the worse
    by its RANK list, which must keep the same order for the same verdicts."""
    import re

    from generators.model.verdicts import Verdict, worse
    from tests.memory_atlas import ROOT

    order = list(Verdict)
    assert [worse(a, b) for a, b in zip(order, order[1:])] == order[1:]
    assert [worse(b, a) for a, b in zip(order, order[1:])] == order[1:]
    script = (ROOT / "docs" / "javascripts" / "can-i-run-it.js").read_text(encoding="utf-8")
    rank = re.findall(r'"([a-z-]+)"', re.search(r"var RANK = \[([^\]]*)\]", script).group(1))
    assert [v for v in rank if v in {x.value for x in Verdict}] == [v.value for v in order]


def test_a_whole_checkpoint_says_what_a_default_install_gets_and_needs_both_cells_conditions():
    """Where the other layers' cell is runs-if on a kernel a default install does not select, and the kernel a default
    install selects falls back, the whole checkpoint is "Runs if" given the flag and a fallback without it: the second
    is said (`by_default`, with the layers and the kernel), not left to the reader. Where both cells are runs-if the
    whole checkpoint needs both sets of conditions (`both_conditional`). Where the worse verdict is a fallback and the
    other, runs-if, cell is refused without its conditions, the whole checkpoint is a "Fallback if"."""
    from generators.derive.cells import Cell, Otherwise
    from generators.derive.whole_checkpoint import OTHERS, whole_checkpoints
    from generators.model.verdicts import Verdict

    def cell(scheme, target, verdict, conditions=(), **more):
        return Cell("eng", scheme, target, verdict, more.pop("kernel", None), conditions, (), **more)

    atlas = atlas_of({"scheme/dense": {}, "scheme/moe": {"layers": "experts", "other_layers": {
        "scheme": "dense", "source": "src", "locator": "here"}}})
    marlin = Otherwise("k-opt", ("--backend opt",), Verdict.FALLBACK, "k-marlin", computes_as="weight-only")
    refused = Otherwise("k-pkg", ("pkg installed",), Verdict.REFUSED, None, reasons=("no kernel",))
    cells = {("moe", "ada"): cell("moe", "ada", Verdict.RUNS, kernel="k-moe"),
             ("dense", "ada"): cell("dense", "ada", Verdict.RUNS_IF, ("--backend opt",), kernel="k-opt",
                                    default_kernel="k-marlin", otherwise=(marlin,)),
             ("moe", "new"): cell("moe", "new", Verdict.RUNS_IF, ("flag a",)),
             ("dense", "new"): cell("dense", "new", Verdict.RUNS_IF, ("flag b",)),
             ("moe", "old"): cell("moe", "old", Verdict.FALLBACK, computes_as="emulated"),
             ("dense", "old"): cell("dense", "old", Verdict.RUNS_IF, ("pkg installed",), kernel="k-pkg",
                                    otherwise=(refused,))}
    found = whole_checkpoints(atlas.index, cells)
    ada = found[("moe", "ada")]
    assert (ada.verdict, ada.by_default, ada.default_layers, ada.default_kernel) == (
        Verdict.RUNS_IF, Verdict.FALLBACK, OTHERS, "k-marlin")
    assert ada.as_dict()["by_default"] == "fallback"
    # the other layers' conditions are their opt-in kernel's: said with the default install's kernel first
    assert ada.others_lead and ada.why.startswith("k-marlin on a default install") and "k-opt with --backend opt" in ada.why
    assert (found[("moe", "new")].both_conditional, ada.both_conditional) == (True, False)
    assert found[("moe", "new")].by_default is None
    old = found[("moe", "old")]
    assert (old.verdict, old.fallback_if, old.label) == (Verdict.FALLBACK, True, "Fallback if")
