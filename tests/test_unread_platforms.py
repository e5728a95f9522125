"""A platform a scheme has not read: no cell there, the engine's grid leaves its targets out and says why."""
from __future__ import annotations

from generators.derive.matrix import Unread, matrices
from generators.explain import explain_text
from generators.validate import validate_records

from .memory_atlas import atlas_of, real_schemas, record

WHY = "the CPU backend's dispatch is not read yet"
TARGET = {"summary": "s", "sources": [{"source": "s"}]}


def _atlas():
    candidates = [{"platform": "cuda", "kernels": ["k"]}, {"platform": "cpu", "kernels": [], "unread": WHY}]
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "engine/eng": {"name": "Eng", "summary": "s", "sources": [{"source": "s"}]},
        "kernel/k": {"name": "K", "summary": "s", "sources": [{"source": "s"}], "engine": "eng",
                     "requirements": [{"check": "platform", "values": ["cuda"], "reason": "CUDA only"}]},
        "scheme/read": {"name": "Eng read", "summary": "s", "sources": [{"source": "s"}], "engine": "eng",
                        "config": {"weight_type": "int4", "activation_types": ["float16"], "activation_quantized": False},
                        "candidates": candidates, "code": {"source": "s"}},
        "hardware-target/gpu": {**TARGET, "name": "GPU", "platform": "cuda", "compute_capability": 80, "order": 1},
        "hardware-target/x86": {**TARGET, "name": "x86", "platform": "cpu", "cpu_arch": "x86_64", "order": 2}})


def test_no_cell_is_derived_on_a_platform_the_scheme_has_not_read():
    cells = _atlas().views.cells
    assert ("read", "gpu") in cells and ("read", "x86") not in cells  # never a refusal the engine does not make


def test_the_engines_grid_leaves_the_unread_targets_out_and_says_why():
    atlas = _atlas()
    (grid,) = matrices(atlas.index, atlas.views.answers)
    assert [c.target for c in grid.columns] == ["gpu"]
    assert grid.unread == (Unread("cpu", WHY, ("x86",)),)


def test_explain_says_a_cell_on_an_unread_platform_is_not_derived():
    text, ok = explain_text(_atlas(), "read", "x86")
    assert ok and text == f"read on x86: NOT DERIVED (the scheme has not read platform 'cpu': {WHY})"


def test_an_unread_candidate_list_names_no_kernel():
    data = {"name": "S", "summary": "s", "sources": [{"source": "s"}], "engine": "eng", "code": {"source": "s"},
            "config": {"weight_type": "int4", "activation_types": ["float16"], "activation_quantized": False},
            "candidates": [{"platform": "cpu", "kernels": ["k"], "unread": WHY}]}
    problems = validate_records([record("scheme", "s", data)], real_schemas())
    assert [p.message for p in problems] == ["candidates[0].kernels: ['k'] is expected to be empty"]
    data["candidates"][0]["kernels"] = []
    assert validate_records([record("scheme", "s", data)], real_schemas()) == []
