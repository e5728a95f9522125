"""A platform none of an engine's schemes lists: no cell there; a platform another of its schemes lists: refused."""
from __future__ import annotations

from generators.derive.matrix import matrices
from generators.explain import explain_text
from generators.model.verdicts import Verdict

from .memory_atlas import atlas_of

TARGET = {"summary": "s", "sources": [{"source": "s"}]}
CONFIG = {"weight_type": "int4", "activation_types": ["float16"], "activation_quantized": False}


def _scheme(name: str, candidates: list[dict[str, object]]) -> dict[str, object]:
    return {"name": name, "summary": "s", "sources": [{"source": "s"}], "engine": "eng", "config": CONFIG,
            "candidates": candidates, "code": {"source": "s"}}


def _atlas():
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "engine/eng": {"name": "Eng", "summary": "s", "sources": [{"source": "s"}]},
        "kernel/k": {"name": "K", "summary": "s", "sources": [{"source": "s"}], "engine": "eng",
                     "requirements": [{"check": "platform", "values": ["cuda", "cpu"], "reason": "CUDA or CPU"}]},
        "scheme/both": _scheme("Eng both", [{"platform": "cuda", "kernels": ["k"]}, {"platform": "cpu", "kernels": ["k"]}]),
        "scheme/gpu": _scheme("Eng gpu", [{"platform": "cuda", "kernels": ["k"]}]),
        "hardware-target/gpu": {**TARGET, "name": "GPU", "platform": "cuda", "compute_capability": 80, "order": 1},
        "hardware-target/x86": {**TARGET, "name": "x86", "platform": "cpu", "cpu_arch": "x86_64", "order": 2},
        "hardware-target/mac": {**TARGET, "name": "Mac GPU", "platform": "metal", "order": 3}})


def test_a_platform_no_scheme_of_the_engine_lists_gets_no_cell():
    cells = _atlas().views.cells
    assert sorted(cells) == [("both", "gpu"), ("both", "x86"), ("gpu", "gpu"), ("gpu", "x86")]


def test_a_platform_another_scheme_of_the_engine_lists_is_still_refused():
    cell = _atlas().views.cells[("gpu", "x86")]
    assert cell.verdict is Verdict.REFUSED and cell.reasons == ("no candidate kernels for platform 'cpu'",)


def test_the_engines_grid_has_no_column_for_it_and_lists_it_as_unread_nowhere():
    atlas = _atlas()
    (grid,) = matrices(atlas.index, atlas.views.answers)
    assert [c.target for c in grid.columns] == ["gpu", "x86"] and grid.unread == ()


def test_explain_says_the_engine_has_no_candidate_list_there():
    text, ok = explain_text(_atlas(), "gpu", "mac")
    assert ok and text == "gpu on mac: NOT DERIVED (no scheme of engine 'eng' has a candidate list for platform 'metal')"


def _no_path_atlas():
    """Eng states once that Metal has no path; both schemes mark their Metal lists `no_path: true`."""
    no_path = {"platform": "metal", "selector": "import eng", "failure_message": "eng needs CUDA",
               "locator": "eng/ext.py lines 1-9: the extension is CUDA only", "sources": [{"source": "ext"}]}
    marked = {"platform": "metal", "kernels": [], "no_path": True}
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "source/ext": {"name": "Ext", "summary": "s", "type": "web", "url": "https://x.org/ext"},
        "engine/eng": {"name": "Eng", "summary": "s", "sources": [{"source": "s"}], "no_path": [no_path]},
        "kernel/k": {"name": "K", "summary": "s", "sources": [{"source": "s"}], "engine": "eng",
                     "requirements": [{"check": "platform", "values": ["cuda"], "reason": "CUDA"}]},
        "scheme/both": _scheme("Eng both", [{"platform": "cuda", "kernels": ["k"]}, marked]),
        "scheme/gpu": _scheme("Eng gpu", [{"platform": "cuda", "kernels": ["k"]}, dict(marked)]),
        "hardware-target/gpu": {**TARGET, "name": "GPU", "platform": "cuda", "compute_capability": 80, "order": 1},
        "hardware-target/mac": {**TARGET, "name": "Mac GPU", "platform": "metal", "order": 3}})


def test_a_no_path_list_is_refused_with_the_engines_statement_of_it():
    atlas = _no_path_atlas()
    for scheme in ("both", "gpu"):
        cell = atlas.views.cells[(scheme, "mac")]
        assert cell.verdict is Verdict.REFUSED and cell.kernel is None
        assert cell.reasons == ("no candidate kernels for platform 'metal' (eng/ext.py lines 1-9: the extension is CUDA "
                                "only)",)
        assert cell.failure_message == "eng needs CUDA"
        assert "ext" in atlas.views.answers[(scheme, "mac")].sources
        assert "ext" not in atlas.views.answers[(scheme, "gpu")].sources
