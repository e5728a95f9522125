"""An engine's later releases: its grid names each beside the release the cells describe, with the finding."""
from __future__ import annotations

from generators.derive.matrix import LaterRelease, matrices
from generators.render.matrix import support_matrices_html
from generators.validate import validate_records

from .memory_atlas import atlas_of, real_schemas, record

LATER = {"release": "2.1.0", "published": "2026-11-16", "finding": "f",
         "summary": "No cell changes its verdict or kernel."}
FINDING = {"name": "Eng 2.1.0 against 2.0.0", "summary": "s", "sources": [{"source": "s"}], "claim": "c",
           "verdict": "confirmed", "conclusion": "c", "verified_on": "2026-12-04", "evidence": [{"source": "s"}]}


def _atlas(engine_extra: dict[str, object]):
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "finding/f": FINDING,
        "engine/eng": {"name": "Eng", "summary": "s", "sources": [{"source": "s"}], "category": "serving-engine",
                       "version_read": "2.0.0", **engine_extra},
        "kernel/k": {"name": "K", "summary": "s", "sources": [{"source": "s"}], "engine": "eng",
                     "requirements": [{"check": "platform", "values": ["cuda"], "reason": "CUDA only"}]},
        "scheme/sch": {"name": "Eng scheme", "summary": "s", "sources": [{"source": "s"}], "engine": "eng",
                       "config": {"weight_type": "int4", "activation_types": ["float16"], "activation_quantized": False},
                       "candidates": [{"platform": "cuda", "kernels": ["k"]}], "code": {"source": "s"}},
        "hardware-target/gpu": {"name": "GPU", "summary": "s", "sources": [{"source": "s"}], "platform": "cuda",
                                "compute_capability": 80, "order": 1}})


def test_the_engine_record_with_a_later_release_is_valid():
    engine = record("engine", "eng", {"name": "Eng", "summary": "s", "sources": [{"source": "s"}],
                                      "category": "serving-engine", "version_read": "2.0.0", "later_releases": [LATER]})
    assert validate_records([engine], real_schemas()) == []


def test_the_grid_carries_the_later_releases_the_engine_lists():
    atlas = _atlas({"later_releases": [LATER]})
    (grid,) = matrices(atlas.index, atlas.views.answers)
    assert grid.release == "2.0.0"
    assert grid.later == (LaterRelease("2.1.0", "2026-11-16", "f", "No cell changes its verdict or kernel."),)


def test_the_grid_says_which_release_it_describes_and_links_the_finding():
    html = str(support_matrices_html(_atlas({"later_releases": [LATER]}), "chapters/x.md", {"finding/f": "Eng 2.1.0 against 2.0.0"}))
    assert ('<p class="atlas-matrix__later">This grid describes Eng 2.0.0. A later release was compared with it and is '
            'not modelled: <strong>2.1.0</strong> (published 2026-11-16). No cell changes its verdict or kernel. '
            'What differs: <a href="../../findings/f/">Eng 2.1.0 against 2.0.0</a></p>') in html


def test_a_grid_without_later_releases_has_no_such_line():
    atlas = _atlas({})
    (grid,) = matrices(atlas.index, atlas.views.answers)
    assert grid.later == ()
    assert "atlas-matrix__later" not in str(support_matrices_html(atlas, "chapters/x.md", {}))
