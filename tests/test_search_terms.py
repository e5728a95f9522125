"""Search terms: a format, kernel or engine page is found first by its one-word id, short name or alias."""
from __future__ import annotations

import json
from pathlib import Path

from generators.derive.search_terms import PREFIX_BOOST, SearchTerms, search_terms_by_record

from .memory_atlas import atlas_of


def _terms() -> dict[str, SearchTerms]:
    atlas = atlas_of({
        "format/exl2": {"name": "EXL2 (GPTQ with mixed per-tensor bitrate)", "aliases": ["EXL2", "ExLlamaV2 format"]},
        "format/gptq": {"name": "GPTQ (one-shot PTQ)"},
        "format/fp8-e4m3": {"name": "FP8 E4M3", "aliases": ["FP8", "float8_e4m3fn"]},
        "format/fp8-kv-cache": {"name": "FP8 KV cache", "aliases": ["FP8_KV_CACHE"]},
        "engine/exllamav2": {"name": "ExLlamaV2"},
        "engine/gptqmodel": {"name": "GPTQModel (GPT-QModel)"},
        "kernel/vllm-marlin": {"name": "vLLM Marlin (MarlinLinearKernel)"},
        "finding/exl2": {"name": "EXL2"}})
    return search_terms_by_record(atlas.index)


def test_one_word_ids_names_and_aliases_are_the_terms_each_once_whatever_its_case() -> None:
    terms = _terms()
    assert {ref: t.terms for ref, t in terms.items()} == {
        "format/exl2": ("exl2",), "format/gptq": ("gptq",), "format/fp8-e4m3": ("FP8", "float8_e4m3fn"),
        "format/fp8-kv-cache": ("FP8_KV_CACHE",), "engine/exllamav2": ("exllamav2",),
        "engine/gptqmodel": ("gptqmodel",)}  # 'vllm-marlin' and 'FP8 E4M3' would match every 'vllm' or 'e4m3' query


def test_a_page_whose_term_begins_another_records_term_is_boosted_over_it() -> None:
    """The search reads 'GPTQ' as a prefix, so GPTQModel's tag matches it too; the exact term's page is boosted."""
    boosts = {ref: t.boost for ref, t in _terms().items() if t.boost}
    assert boosts == {"format/gptq": PREFIX_BOOST, "format/fp8-e4m3": PREFIX_BOOST}


def test_the_built_search_index_carries_the_terms_and_boosts(built_site: Path) -> None:
    """What the theme indexes: every section of the EXL2 format's page is tagged 'exl2'; GPTQ's page is boosted;
    a source page keeps its lower boost and no tags."""
    docs = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    pages: dict[str, list[dict]] = {}
    for doc in docs:
        pages.setdefault(doc["location"].split("#")[0], []).append(doc)
    assert {d.get("tags", None) == ["exl2"] for d in pages["formats/exl2/"]} == {True}
    assert {d.get("tags", None) == ["exllamav2"] for d in pages["engines/exllamav2/"]} == {True}
    assert {(d.get("boost"), tuple(d.get("tags", ()))) for d in pages["formats/gptq/"]} == {(PREFIX_BOOST, ("gptq",))}
    sources = [d for page, found in pages.items() if page.startswith("sources/") and page != "sources/" for d in found]
    assert sources and {(d.get("boost"), "tags" in d) for d in sources} == {(0.3, False)}
