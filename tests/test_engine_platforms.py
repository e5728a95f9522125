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


def _named_list_atlas(named: bool):
    """Two schemes walk one CUDA list: typed in each (named=False) or stated once on the engine and named (True)."""
    walk = {"selector": "choose", "kernels": ["k"], "failure_message": "no kernel", "locator": "eng/pick.py lines 1-9",
            "sources": [{"source": "ext"}]}
    engine = {"name": "Eng", "summary": "s", "sources": [{"source": "s"}]}
    if named:
        engine["candidate_lists"] = [{"id": "gpu-walk", "platform": "cuda", **walk}]
    listed = {"platform": "cuda", "list": "gpu-walk"} if named else {"platform": "cuda", **walk}
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "source/ext": {"name": "Ext", "summary": "s", "type": "web", "url": "https://x.org/ext"},
        "engine/eng": engine,
        "kernel/k": {"name": "K", "summary": "s", "sources": [{"source": "s"}], "engine": "eng",
                     "requirements": [{"check": "capability-exact", "value": 90, "reason": "needs SM90"}]},
        "scheme/both": _scheme("Eng both", [dict(listed), {"platform": "cpu", "kernels": []}]),
        "scheme/gpu": _scheme("Eng gpu", [dict(listed)]),
        "hardware-target/gpu": {**TARGET, "name": "GPU", "platform": "cuda", "compute_capability": 80, "order": 1},
        "hardware-target/x86": {**TARGET, "name": "x86", "platform": "cpu", "cpu_arch": "x86_64", "order": 2}})


def test_a_scheme_list_naming_an_engines_candidate_list_derives_what_the_typed_list_does():
    typed, named = _named_list_atlas(False), _named_list_atlas(True)
    assert sorted(named.views.cells) == sorted(typed.views.cells)
    for key in typed.views.cells:
        assert named.views.cells[key] == typed.views.cells[key]
        assert named.views.answers[key].sources == typed.views.answers[key].sources
    cell = named.views.cells[("gpu", "gpu")]
    assert cell.verdict is Verdict.REFUSED and cell.failure_message == "no kernel"
    assert cell.reasons == ("k: needs SM90",)
    assert "ext" in named.views.answers[("both", "gpu")].sources  # the list's sources, on its platform
    assert "ext" not in named.views.answers[("both", "x86")].sources


def test_a_named_list_resolves_to_the_same_object_while_scheme_and_engine_are_the_same():
    from generators.derive.candidate_lists import resolved_scheme
    atlas = _named_list_atlas(True)
    scheme, engine = atlas.index.must("scheme", "gpu").data, atlas.index.must("engine", "eng").data
    first = resolved_scheme("gpu", scheme, engine)
    assert first["candidates"][0]["kernels"] == ["k"] and "list" not in first["candidates"][0]
    assert resolved_scheme("gpu", scheme, engine) is first
    moved = {**engine, "candidate_lists": [{**engine["candidate_lists"][0], "kernels": ["k", "k"]}]}
    assert resolved_scheme("gpu", scheme, moved)["candidates"][0]["kernels"] == ["k", "k"]  # a new statement, read anew
