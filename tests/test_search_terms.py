"""Search terms: a format, kernel or engine page is found first by its name, short name or alias, one word or several,
and only its own names weigh it up (derive/search_terms.py); no page boost lifts it for every other query."""
from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.build import render_tree
from generators.derive.search_terms import SearchTerms, search_terms_by_record
from generators.kinds import FOLDER_OF_KIND
from generators.model.atlas import Atlas

from .memory_atlas import atlas_of


def _terms() -> dict[str, SearchTerms]:
    atlas = atlas_of({
        "format/exl2": {"name": "EXL2 (GPTQ with mixed per-tensor bitrate)", "aliases": ["EXL2", "ExLlamaV2 format"]},
        "format/gptq": {"name": "GPTQ (one-shot PTQ)"},
        "format/fp8-e4m3": {"name": "FP8 E4M3", "aliases": ["FP8", "float8_e4m3fn", "FP8(W8A8)"]},
        "format/fp8-kv-cache": {"name": "FP8 KV cache", "aliases": ["FP8_KV_CACHE"]},
        "engine/exllamav2": {"name": "ExLlamaV2"},
        "engine/gptqmodel": {"name": "GPTQModel (GPT-QModel)"},
        "engine/onnxruntime": {"name": "ONNX Runtime"},
        "engine/onnxruntime-genai": {"name": "ONNX Runtime GenAI"},
        "engine/tensorrt-llm": {"name": "TensorRT-LLM"},
        "engine/vllm": {"name": "vLLM"},
        "kernel/vllm-marlin-moe": {"name": "vLLM MarlinExperts (Marlin fused MoE)", "class_name": "MarlinExperts"},
        "kernel/hostile": {"name": "<img src=x onerror=alert(1)> kernel", "class_name": "Fine&Dandy"},
        "finding/exl2": {"name": "EXL2"}})
    return search_terms_by_record(atlas.index)


def test_names_of_several_words_are_terms_of_kernels_and_engines_and_one_word_names_of_formats() -> None:
    terms = _terms()
    assert {ref: t.terms for ref, t in terms.items()} == {
        "format/exl2": ("EXL2",), "format/gptq": ("GPTQ",), "format/fp8-e4m3": ("FP8", "float8_e4m3fn"),
        "format/fp8-kv-cache": ("FP8_KV_CACHE",), "kernel/vllm-marlin-moe": ("vLLM MarlinExperts", "MarlinExperts"),
        "kernel/hostile": ("hostile",),
        "engine/exllamav2": ("ExLlamaV2",), "engine/gptqmodel": ("GPTQModel",), "engine/onnxruntime": ("ONNX Runtime",
                                                                                                       "onnxruntime"),
        "engine/onnxruntime-genai": ("ONNX Runtime GenAI", "onnxruntime-genai"), "engine/tensorrt-llm": ("TensorRT-LLM",),
        "engine/vllm": ("vLLM",)}
    # a format's 'FP8 E4M3' or 'ExLlamaV2 format' would lift it for every 'e4m3' or 'format' query, its label
    # 'FP8(W8A8)' would be one more tag that every 'fp8' query begins; the hostile
    # kernel's name and class name would be written into the result list as HTML (its one-word id is kept); the
    # finding is not a search kind


def test_markers_weigh_a_name_only_against_the_names_it_begins() -> None:
    """'GPTQ' begins 'GPTQModel' and its marker (two tags), 'FP8' begins 'FP8_KV_CACHE' and its marker: each gets
    three markers, one more than those; 'vLLM', a word of the kernel's name but the beginning of none, one. A name
    of several words gets one on its last word: 'ONNX Runtime' and 'ONNX Runtime GenAI' differ by it."""
    markers = {ref: t.markers for ref, t in _terms().items()}
    assert markers["format/gptq"] == ("gptq_", "gptq__", "gptq___")
    assert markers["format/fp8-e4m3"] == ("fp8_", "fp8__", "fp8___", "float8_e4m3fn_")
    assert markers["engine/vllm"] == ("vllm_",)
    assert markers["engine/onnxruntime"] == ("runtime_", "onnxruntime_")
    assert markers["engine/onnxruntime-genai"] == ("genai_",)
    assert markers["kernel/vllm-marlin-moe"] == ("marlinexperts_",)
    assert markers["engine/tensorrt-llm"] == ("llm_",)


def test_record_pages_carry_the_terms_and_markers_as_front_matter_tags_and_only_sources_a_boost(tree: Path) -> None:
    """The mini engine and kernels are named in several words: each page lists them; no record page but a source's
    sets the theme's page boost, which would lift it for every query."""
    pages, problems = render_tree(tree)
    assert [p for p in problems if p.severity == "error"] == []
    front = {path: yaml.safe_load(text.split("---\n")[1]) for path, text in pages.items()
             if path.count("/") == 1 and not path.endswith("index.md") and text.startswith("---\n")}
    assert front["engines/eng.md"]["tags"] == ["Example Engine", "eng", "engine_", "eng_"]
    assert front["kernels/k-hopper.md"]["tags"] == ["Hopper kernel", "kernel_"]
    assert {path.split("/")[0] for path, matter in front.items() if "search" in matter} == {"sources"}
    assert {matter["search"]["boost"] for matter in front.values() if "search" in matter} == {0.3}


def test_the_built_search_index_carries_the_names_and_markers_and_no_boost_but_the_sources(built_site: Path) -> None:
    """What the theme indexes: every section of a page has its tags; only source pages keep a page boost (0.3)."""
    docs = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    pages: dict[str, list[dict]] = {}
    for doc in docs:
        pages.setdefault(doc["location"].split("#")[0], []).append(doc)

    def tags(page: str) -> set[tuple[str, ...]]:
        return {tuple(d.get("tags", ())) for d in pages[page]}

    assert tags("engines/tensorrt-llm/") == {("TensorRT-LLM", "TRT-LLM", "llm_")}
    assert tags("engines/onnxruntime-genai/") == {("ONNX Runtime GenAI", "onnxruntime-genai", "genai_")}
    assert tags("kernels/vllm-marlin-moe/") == {("vLLM MarlinExperts", "MarlinExperts", "Marlin MoE", "marlinexperts_",
                                                 "moe_")}
    assert tags("formats/exl2/") == {("EXL2", "exl2_")}
    boosted = {page for page, found in pages.items() for d in found if "boost" in d}
    assert boosted and {page.split("/")[0] for page in boosted} == {"sources"}
    assert {d["boost"] for page in boosted for d in pages[page]} == {0.3}


def test_every_kernel_and_engine_name_and_alias_is_a_tag_of_its_page(real_atlas: Atlas, built_site: Path) -> None:
    """The defect this replaces: names of several words ('ONNX Runtime', 'TensorRT-LLM', 'vLLM MarlinExperts') were
    never tags, so those records were not found first by their names; their aliases ('TRT-LLM') are tags too."""
    docs = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    tags = {doc["location"]: doc.get("tags", []) for doc in docs if "#" not in doc["location"]}
    names = {f"{FOLDER_OF_KIND[kind]}/{r.id}/": [re.sub(r"\s*\([^)]*\)\s*$", "", r.name), *r.data.get("aliases", [])]
             for kind in ("kernel", "engine") for r in real_atlas.index.all(kind)}
    untagged = [f"{page}: {name!r}" for page, found in names.items() for name in found if name not in tags[page]]
    assert sum(map(len, names.values())) > len(names) > 50 and untagged == []


_TAG = st.text(alphabet="abgpq_", min_size=1, max_size=5)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from([f"kernel/k{n}" for n in range(6)]), st.sets(_TAG, max_size=6), min_size=1),
       _TAG)
def test_the_rival_count_is_the_brute_force_count(plain: dict[str, set[str]], word: str) -> None:
    """The sorted-range count of tags a word begins on another page equals counting every other page's tags (which was
    quadratic in the records: 8.5 s of a 10k-record check)."""
    from generators.derive.search_terms import _Rivals
    rivals = _Rivals(plain)
    for ref in [*plain, "kernel/none"]:
        brute = max((sum(t.startswith(word) and t != word for t in tags) for other, tags in plain.items() if other != ref),
                    default=0)
        assert rivals.most_begun(word, ref) == brute
