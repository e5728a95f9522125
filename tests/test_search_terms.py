"""Search terms: a format, kernel or engine page is found first by its name, short name or alias, one word or several,
and only its own names weigh it up (derive/search_terms.py); no page boost lifts it for every other query."""
from __future__ import annotations

import bisect
import functools
import json
import re
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.build import render_tree
from generators.derive.search_terms import MARKER, SearchTerms, clauses, search_terms_by_record, words
from generators.kinds import FOLDER_OF_KIND
from generators.model.atlas import Atlas

from .memory_atlas import atlas_of

_MARKUP = re.compile(r"<[^>]*>")  # the theme's tokenizer reads the text between tags


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


def test_names_ids_class_names_and_aliases_are_terms_names_without_their_prose() -> None:
    terms = _terms()
    assert {ref: t.terms for ref, t in terms.items()} == {
        "format/exl2": ("EXL2",), "format/gptq": ("GPTQ",), "format/fp8-e4m3": ("FP8 E4M3", "FP8", "float8_e4m3fn"),
        "format/fp8-kv-cache": ("FP8 KV", "fp8-kv-cache", "FP8_KV_CACHE"),
        "kernel/vllm-marlin-moe": ("vLLM MarlinExperts", "vllm-marlin-moe", "MarlinExperts"),
        "kernel/hostile": ("hostile",),
        "engine/exllamav2": ("ExLlamaV2",), "engine/gptqmodel": ("GPTQModel",), "engine/onnxruntime": ("ONNX Runtime",
                                                                                                       "onnxruntime"),
        "engine/onnxruntime-genai": ("ONNX Runtime GenAI", "onnxruntime-genai"), "engine/tensorrt-llm": ("TensorRT-LLM",),
        "engine/vllm": ("vLLM",)}
    # 'FP8 KV cache' without its prose word; a format's longer alias 'ExLlamaV2 format' would lift it for every
    # 'format' query, its label 'FP8(W8A8)' would be one more tag that every 'fp8' query begins; the hostile kernel's
    # name and class name would be written into the result list as HTML (its id is kept); the finding is not a search
    # kind


def test_a_name_loses_its_prose_and_a_name_of_one_word_left_is_no_term() -> None:
    """Words of lower-case letters only describe ('weight-only', 'grouped / masked', 'for'): as tags they would list
    these kernels first for 'weight' or 'for'; 'bit' after a number stays ('4-bit': the formats of that width, tagged
    with it, would outweigh Machete for its own name). 'FP8 block scaling' left with 'FP8' would take the FP8 format's
    own name."""
    atlas = atlas_of({
        "kernel/machete-gemm": {"name": "Machete weight-only 4-bit GEMM (Hopper)"},
        "kernel/deepgemm-grouped-gemm": {"name": "DeepGEMM grouped / masked FP8 GEMM for MoE"},
        "format/fp8-blockwise": {"name": "FP8 block scaling (E4M3 with per-block scale)"}})
    assert {ref: t.terms for ref, t in search_terms_by_record(atlas.index).items()} == {
        "kernel/machete-gemm": ("Machete 4 bit GEMM", "machete-gemm"),
        "kernel/deepgemm-grouped-gemm": ("DeepGEMM FP8 GEMM MoE", "deepgemm-grouped-gemm"),
        "format/fp8-blockwise": ("fp8-blockwise",)}


def test_a_term_two_records_share_stays_with_the_record_it_names() -> None:
    """'AutoRound' is the engine's name and the format's alias; 'NVIDIA ModelOpt' the engine's id and the format's
    name without its prose."""
    atlas = atlas_of({
        "engine/auto-round": {"name": "AutoRound"},
        "format/autoround-w4a16": {"name": "AutoRound W4A16", "aliases": ["AutoRound"]},
        "engine/nvidia-modelopt": {"name": "NVIDIA Model Optimizer (ModelOpt)"},
        "format/modelopt": {"name": "NVIDIA ModelOpt quantized checkpoint", "aliases": ["ModelOpt"]}})
    assert {ref: t.terms for ref, t in search_terms_by_record(atlas.index).items()} == {
        "format/autoround-w4a16": ("AutoRound W4A16",), "format/modelopt": ("modelopt",),
        "engine/auto-round": ("AutoRound", "auto-round"),
        "engine/nvidia-modelopt": ("NVIDIA Model Optimizer", "nvidia-modelopt")}


def test_markers_weigh_each_term_above_every_page_that_lacks_it() -> None:
    """'GPTQ' begins 'GPTQModel' and its marker (two tags): GPTQ gets two markers, three tags to two. 'FP8' begins
    'fp8_kv_cache' and the KV cache's own 'fp8': the FP8 format gets two; 'fp8_kv_cache' starts with no marker, being
    the FP8 format's name and '_' (one would lift the KV cache page on 'FP8' too). 'ONNX Runtime GenAI' needs a
    second 'genai_': 'onnx' also begins 'onnxruntime' and its marker on ONNX Runtime's page. A term of several words
    starts with a marker on its last word: 'ONNX Runtime' and 'ONNX Runtime GenAI' differ by it."""
    markers = {ref: t.markers for ref, t in _terms().items()}
    assert markers["format/gptq"] == ("gptq_", "gptq__")
    assert markers["format/fp8-e4m3"] == ("e4m3_", "fp8_", "fp8__", "float8_e4m3fn_")
    assert markers["format/fp8-kv-cache"] == ("kv_", "cache_")
    assert markers["engine/vllm"] == ("vllm_",)
    assert markers["engine/onnxruntime"] == ("runtime_", "onnxruntime_")
    assert markers["engine/onnxruntime-genai"] == ("genai_", "genai__")
    assert markers["kernel/vllm-marlin-moe"] == ("marlinexperts_", "moe_")
    assert markers["engine/tensorrt-llm"] == ("llm_",)
    assert _outweighed(_terms()) == []


def test_an_identifier_beginning_with_a_name_starts_without_a_marker_and_a_shared_term_can_be_raised() -> None:
    """The records of 3fdda0fe in small: a vLLM-Gaudi kernel's alias 'VLLM_HPU_FORCE_CHANNEL_FP8' with a marker was three
    tag words on 'vllm', so the vLLM engine took three markers and each 'vLLM <class name>' kernel as many on its class
    name; FlashInfer's CUTLASS MoE kernel, its class name shared with a sibling and so not raised, was left with
    'moe', and raised it against the B12x kernel, which raised its own to stay ahead on its id: both to MOST, the CUTLASS
    kernel still second on its id typed with spaces. The identifier starts with no marker (the name it begins with is
    the engine's), and a page may raise a word it shares as a term with another."""
    atlas = atlas_of({
        "engine/vllm": {"name": "vLLM"}, "engine/flashinfer": {"name": "FlashInfer"}, "engine/cutlass": {"name": "CUTLASS"},
        **{f"kernel/vllm-flashinfer-{n}": {"name": "vLLM FlashInferExperts", "class_name": "FlashInferExperts"}
           for n in ("cutlass-moe", "cutlass-fp8-tensor-moe")},
        "kernel/vllm-flashinfer-b12x-moe": {"name": "vLLM FlashInferB12xExperts", "class_name": "FlashInferB12xExperts"},
        "kernel/vllm-gaudi-hpu-fp8-block": {"name": "vLLM-Gaudi HPUFp8BlockScaledMMLinearKernel (selected)",
                                            "class_name": "HPUFp8BlockScaledMMLinearKernel",
                                            "aliases": ["VLLM_HPU_FORCE_CHANNEL_FP8"]}})
    found = search_terms_by_record(atlas.index)
    assert "VLLM_HPU_FORCE_CHANNEL_FP8" in found["kernel/vllm-gaudi-hpu-fp8-block"].terms
    assert found["kernel/vllm-gaudi-hpu-fp8-block"].markers == ("hpufp8blockscaledmmlinearkernel_", "block_")
    assert found["engine/vllm"].markers == ("vllm_", "vllm__")
    assert found["kernel/vllm-flashinfer-cutlass-moe"].markers == ("flashinferexperts_", "flashinferexperts__", "moe_")
    assert _outweighed(found) == []


def _outweighed(found: dict[str, SearchTerms]) -> list[str]:
    """Each (page, term, other page) where the other page, which does not hold the term (see _Markers), weighs as much
    on it, though the term has a prefix word that no other page is named by alone: counted the long way, every page
    against every other."""
    tags = {ref: {w for tag in t.tags for w in words(tag)} for ref, t in found.items()}
    terms = {ref: {words(term) for term in t.terms} for ref, t in found.items()}
    # (every page is weighed on every term: each term's words and clauses, and each page's words, are found once)
    clauses_of, words_of = functools.cache(clauses), functools.cache(words)
    term_words = {ref: {w for t in held for w in t} for ref, held in terms.items()}

    ordered = {ref: sorted(found) for ref, found in tags.items()}

    def starting(ref: str, word: str) -> int:
        """How many of the page's tags start with the word: those sort from the word up to the first string after
        every string it begins (its last character's successor), counted by bisection."""
        if not word:
            return len(ordered[ref])
        return bisect.bisect_left(ordered[ref], word[:-1] + chr(ord(word[-1]) + 1)) - bisect.bisect_left(ordered[ref], word)

    def weight(ref: str, term: str) -> int:  # typed as written: 'vllm-cutlass' is vllm (the word) and cutlass*
        # each tag that starts with a prefix word, or is a whole word (tags are a set: one or none)
        return sum(starting(ref, word) if prefix else word in tags[ref] for word, prefix in clauses_of(term))

    def width(term: tuple[str, ...]) -> bool:
        return len(term) == 2 and term[1] == "bit" and term[0].replace(".", "", 1).isdigit()

    widths = {ref: any(width(t) for t in held) for ref, held in terms.items()}

    def holds(ref: str, term: str) -> bool:  # the term, each of its prefix words alone, or all its several words; a
        # width, any width ('4-bit' and '8-bit' weigh alike on 'bit' and its markers, lunr tells them apart by the number)
        split = words_of(term)
        return split in terms[ref] or all((word,) in terms[ref] for word, prefix in clauses_of(term) if prefix) or (
            len(split) > 1 and set(split) <= term_words[ref]) or (width(split) and widths[ref])
    def free(ref: str, term: str) -> bool:  # a prefix word that alone is no other page's term: markers can go there
        return any(not any((word,) in terms[other] for other in found if other != ref)
                   for word, prefix in clauses(term) if prefix)
    typed = {term: {term, " ".join(words(term))} for t in found.values() for term in t.terms}  # pasted, or typed
    return [f"{ref} {form!r} {other}" for ref, t in found.items() for term in t.terms for form in typed[term]
            if free(ref, form) for own in [weight(ref, form)]  # once per form, not once per other page
            for other in found if not holds(other, form) and weight(other, form) >= own]


def test_record_pages_carry_the_terms_and_markers_as_front_matter_tags_and_only_sources_and_terms_a_boost(
        tree: Path) -> None:
    """Each format, kernel and engine page lists its terms and markers: the engine's name of several words, the
    kernels' ids ('Hopper kernel' without its prose word is one word, no term); no record page but a source's or a
    glossary term's sets the theme's page boost, and those below 1: one above would lift a page for every query."""
    pages, problems = render_tree(tree)
    assert [p for p in problems if p.severity == "error"] == []
    front = {path: yaml.safe_load(text.split("---\n")[1]) for path, text in pages.items()
             if path.count("/") == 1 and not path.endswith("index.md") and text.startswith("---\n")}
    assert front["engines/eng.md"]["tags"] == ["Example Engine", "eng", "engine_", "eng_"]
    assert front["kernels/k-hopper.md"]["tags"] == ["k-hopper", "hopper_"]
    assert front["formats/fmt-fp4.md"]["tags"] == ["fmt-fp4", "4-bit", "fp4_", *(f"bit{'_' * n}" for n in range(1, 9))]
    assert {(path.split("/")[0], matter["search"]["boost"]) for path, matter in front.items() if "search" in matter} == {
        ("sources", 0.3), ("terms", 0.9)}


def test_the_built_search_index_carries_the_names_and_markers_and_no_boost_but_the_sources_and_terms(
        built_site: Path) -> None:
    """What the theme indexes: every section of a page has its tags; only source pages keep a page boost (0.3), and
    glossary pages (0.9)."""
    docs = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    pages: dict[str, list[dict]] = {}
    for doc in docs:
        pages.setdefault(doc["location"].split("#")[0], []).append(doc)

    def tags(page: str) -> set[tuple[str, ...]]:
        return {tuple(d.get("tags", ())) for d in pages[page]}

    assert tags("engines/tensorrt-llm/") == {("TensorRT-LLM", "TRT-LLM", "llm_")}
    assert tags("engines/onnxruntime-genai/") == {("ONNX Runtime GenAI", "onnxruntime-genai", "genai_", "genai__")}
    assert tags("formats/fp8-e5m2/") == {("FP8 E5M2", "E5M2", "float8_e5m2", "8-bit", "e5m2_", "e5m2__", "e5m2___",
                                          "float8_e5m2_", "float8_e5m2__", *(f"bit{'_' * n}" for n in range(1, 9)))}
    assert tags("hardware-targets/nvidia-sm90/") == {("nvidia-sm90", "sm_90", "sm_90a", "Hopper", "sm90_", "sm_90_", "sm_90a_",
                                                        "hopper_")}
    assert tags("formats/exl2/") == {("EXL2", "exl2_", "exl2__")}  # a second marker: ExLlamaV2 kernel ids hold exl2
    boosted = {page for page, found in pages.items() for d in found if "boost" in d}
    assert {(page.split("/")[0], d["boost"]) for page in boosted for d in pages[page]} == {("sources", 0.3), ("terms", 0.9)}


def test_the_search_index_skips_copies_of_derived_cells_and_backlinks_and_keeps_what_records_state(
        built_site: Path) -> None:
    """Derived cells are repeated on scheme, target, kernel, format and accelerator pages and in the support tables'
    notes, and every record lists what references it: the index keeps none of those copies (they were over a third of
    it), and keeps each record's own sections, where a cell's reasons and conditions are stated."""
    docs = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    titles = {doc["title"] for doc in docs}
    copies = {"Derived support", "Support cells of its hardware targets", "Where the engine selects it", "Where it runs",
              "Observed across releases", "Derived support: scheme × hardware target", "Referenced by"}
    assert sorted(t for t in titles if t in copies or t.startswith("Notes on every cell")) == []
    by_page: dict[str, set[str]] = {}
    for doc in docs:
        by_page.setdefault(doc["location"].split("#")[0], set()).add(doc["title"])
    assert {"Requirements", "Notes", "Sources"} <= by_page["kernels/marlin-int4-gemm/"]  # what the kernel record states
    assert "Runtime checks" in by_page["engines/exllamav2/"]  # where a cell's condition is worded
    assert "Candidates" in by_page["schemes/vllm-gptq-marlin/"]


def test_every_id_and_kernel_and_engine_alias_is_a_tag_and_every_term_outweighs_the_pages_that_lack_it(
        real_atlas: Atlas, built_site: Path) -> None:
    """The defects this replaces: names of several words ('ONNX Runtime', 'TensorRT-LLM', 'vLLM MarlinExperts') and ids
    ('vllm-cutlass-int8-scaled-mm') were not tags, so those records were not found first by them; aliases ('TRT-LLM')
    are tags too. On the real records the markers settle: each term's page outweighs every page without it."""
    docs = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    tags = {doc["location"]: doc.get("tags", []) for doc in docs if "#" not in doc["location"]}
    names = {f"{FOLDER_OF_KIND[kind]}/{r.id}/": [r.id, *(r.data.get("aliases", []) if kind != "format" else [])]
             for kind in ("format", "kernel", "engine") for r in real_atlas.index.all(kind)}
    untagged = [f"{page}: {name!r}" for page, found in names.items() for name in found
                if not any(words(tag) == words(name) for tag in tags[page])]
    assert sum(map(len, names.values())) > len(names) > 140
    assert untagged == ["formats/intel-neural-compressor/: 'intel-neural-compressor'"]  # the engine's name, its words
    assert _outweighed(real_atlas.views.search_terms) == []


def _hyphens(term: str) -> str:
    return term.replace(" ", "-", term.count("a"))  # some terms typed as ids are: whole words before the last


_WORD = st.from_regex(r"[abg]([abg_]?[abg])?", fullmatch=True)  # a marker ends in '_': a word that did would be one


@settings(max_examples=50, deadline=None)
@given(st.dictionaries(st.sampled_from([f"kernel/k{n}" for n in range(9)]),
                       st.lists(st.lists(_WORD, min_size=1, max_size=3).map(" ".join).map(_hyphens), min_size=1,
                                max_size=3),
                       min_size=1))
def test_the_rival_is_the_long_counts_rival_or_more(names: dict[str, list[str]]) -> None:
    """Rivals come from the pages the term's rarest clause matches and a bound for the rest (counting every page for
    every term was quadratic in the records: 8.5 s of a 10k-record check): never less than the most any page without
    the term weighs, counted the long way, and exactly that for a term of one or two clauses."""
    from generators.derive.search_terms import _Markers
    terms = {ref: tuple(dict.fromkeys(found)) for ref, found in names.items()}
    markers = _Markers(terms)
    markers.solve()
    markers._index()
    found = {ref: SearchTerms(t, markers._markers(ref)) for ref, t in terms.items()}
    for ref, t in terms.items():
        for term in t:
            typed = clauses(term)  # as written
            holders = markers._holders(words(term), typed)
            brute = max((markers._weight(other, typed) for other in terms if other not in holders), default=0)
            rival = markers._rival(words(term), typed)[1]
            assert rival >= brute and (rival == brute or len(typed) > 2), (ref, term)
    assert all(len(f.markers) <= markers.MOST * sum(len(words(x)) for x in f.terms) for f in found.values())


def test_the_solver_runs_again_only_when_a_term_changed() -> None:
    """A long-lived process keeps the last solution: a summary edit gives the same object, an alias edit a new one
    that equals a fresh solve."""
    from generators.derive.search_terms import _Markers, _solved
    base = {"format/exl2": {"name": "EXL2 (GPTQ with mixed per-tensor bitrate)", "aliases": ["EXL2"]},
            "engine/exllamav2": {"name": "ExLlamaV2"}, "engine/onnxruntime": {"name": "ONNX Runtime"},
            "engine/onnxruntime-genai": {"name": "ONNX Runtime GenAI"}}
    first = search_terms_by_record(atlas_of(base).index)
    solved = _solved.cache_info().misses
    resummarised = search_terms_by_record(atlas_of({**base, "engine/exllamav2": {"name": "ExLlamaV2",
                                                                                 "summary": "edited"}}).index)
    assert resummarised == first and _solved.cache_info().misses == solved
    renamed = search_terms_by_record(atlas_of({**base, "format/exl2": {"name": "EXL2", "aliases": ["ExLlama"]}}).index)
    assert _solved.cache_info().misses == solved + 1
    fresh = _Markers({ref: t.terms for ref, t in renamed.items()}).solve()
    assert {ref: t.markers for ref, t in renamed.items()} == fresh and renamed != first


def test_a_hardware_target_is_found_by_its_id_and_a_cuda_one_by_nvccs_spelling() -> None:
    """'sm90', 'sm_90' and 'gfx942' found nothing: no page held those spellings. A CUDA target's compute capability
    reads as nvcc's architecture name; a ROCm target's number is no nvcc name, and its name is no term ('NVIDIA SM 9.0'
    would tag every NVIDIA target with 'nvidia')."""
    atlas = atlas_of({
        "hardware-target/nvidia-sm90": {"name": "NVIDIA SM 9.0 (Hopper)", "platform": "cuda", "compute_capability": 90},
        "hardware-target/nvidia-sm120": {"name": "NVIDIA SM 12.x", "platform": "cuda", "compute_capability": 120},
        "hardware-target/amd-gfx942": {"name": "AMD gfx942 (CDNA 3)", "platform": "rocm", "compute_capability": 94},
        "hardware-target/arm-cpu": {"name": "Arm CPU", "platform": "cpu"}})
    terms = {ref: t.terms for ref, t in search_terms_by_record(atlas.index).items()}
    assert terms == {"hardware-target/nvidia-sm90": ("nvidia-sm90", "sm_90"),
                     "hardware-target/nvidia-sm120": ("nvidia-sm120", "sm_120"),
                     "hardware-target/amd-gfx942": ("amd-gfx942",), "hardware-target/arm-cpu": ("arm-cpu",)}
    assert _outweighed(search_terms_by_record(atlas.index)) == []


def test_a_cuda_target_is_found_by_its_parts_capabilities_and_its_cited_arch_names() -> None:
    """'sm_90a' (from build flags and kernel errors) and 'sm_103' (B300) found nothing: a CUDA target's terms take the
    architecture-specific names it cites, which a typed part capability ('sm_103') begins."""
    atlas = atlas_of({
        "accelerator/b200": {"name": "B200", "compute_capability": "10.0"},
        "accelerator/b300": {"name": "B300", "compute_capability": "10.3"},
        "accelerator/h100-sxm": {"name": "H100 SXM", "compute_capability": "9.0"},
        "hardware-target/nvidia-sm90": {"name": "NVIDIA SM 9.0", "platform": "cuda", "compute_capability": 90,
                                        "accelerators": ["h100-sxm"], "cuda_arch_names": ["sm_90a"]},
        "hardware-target/nvidia-sm100": {"name": "NVIDIA SM 10.x", "platform": "cuda", "compute_capability": 100,
                                         "accelerators": ["b200", "b300"],
                                         "cuda_arch_names": ["sm_100a", "sm_103a"]}})
    found = search_terms_by_record(atlas.index)
    assert {ref: t.terms for ref, t in found.items()} == {
        "hardware-target/nvidia-sm90": ("nvidia-sm90", "sm_90", "sm_90a"),
        "hardware-target/nvidia-sm100": ("nvidia-sm100", "sm_100", "sm_100a", "sm_103a")}
    assert _outweighed(found) == []


def test_a_format_is_found_by_its_width_and_a_target_by_its_accelerators_architecture() -> None:
    """'4-bit' listed BitNet, bitnet.cpp and bitsandbytes first and 'Hopper' did not find the SM 9.0 target: a format's
    bits per weight is the term '4-bit' ('1.58-bit'; none when not one number), and a target's terms take the
    architecture each of its accelerators states (listed, or on ROCm by gfx id), without the trailing parenthetical,
    each once; an architecture that is no plain text for the theme is left out. Two targets share 'Blackwell'."""
    atlas = atlas_of({
        "format/nvfp4": {"name": "NVFP4 (block-scaled E2M1)", "weight_bits": 4},
        "format/bitnet-b1-58": {"name": "BitNet b1.58 (ternary LLM)", "weight_bits": 1.58},
        "format/fp8-e4m3": {"name": "FP8 E4M3", "weight_bits": 8.0},
        "format/exl2": {"name": "EXL2", "weight_bits": None},
        "accelerator/h100-sxm": {"name": "H100 SXM", "architecture": "Hopper"},
        "accelerator/h200-sxm": {"name": "H200 SXM", "architecture": "Hopper"},
        "accelerator/rtx-5090": {"name": "RTX 5090", "architecture": "Blackwell (GB202)"},
        "accelerator/b300": {"name": "B300", "architecture": "Blackwell Ultra"},
        "accelerator/mi300x": {"name": "MI300X", "architecture": "CDNA3", "gfx_target": "gfx942"},
        "accelerator/evil": {"name": "Evil", "architecture": "<img src=x onerror=alert(1)>"},
        "hardware-target/nvidia-sm90": {"name": "NVIDIA SM 9.0 (Hopper)", "platform": "cuda", "compute_capability": 90,
                                        "accelerators": ["h100-sxm", "h200-sxm"]},
        "hardware-target/nvidia-sm100": {"name": "NVIDIA SM 10.x", "platform": "cuda", "compute_capability": 100,
                                         "accelerators": ["b300"]},
        "hardware-target/nvidia-sm120": {"name": "NVIDIA SM 12.x", "platform": "cuda", "compute_capability": 120,
                                         "accelerators": ["rtx-5090", "evil"]},
        "hardware-target/amd-gfx942": {"name": "AMD gfx942", "platform": "rocm", "gfx": "gfx942"}})
    found = search_terms_by_record(atlas.index)
    assert {ref: t.terms for ref, t in found.items()} == {
        "format/nvfp4": ("NVFP4", "4-bit"), "format/bitnet-b1-58": ("BitNet b1.58", "bitnet-b1-58", "1.58-bit"),
        "format/fp8-e4m3": ("FP8 E4M3", "8-bit"), "format/exl2": ("EXL2",),
        "hardware-target/nvidia-sm90": ("nvidia-sm90", "sm_90", "Hopper"),
        "hardware-target/nvidia-sm100": ("nvidia-sm100", "sm_100", "Blackwell Ultra"),
        "hardware-target/nvidia-sm120": ("nvidia-sm120", "sm_120", "Blackwell"),
        "hardware-target/amd-gfx942": ("amd-gfx942", "CDNA3")}
    bits = {ref: sum(m.rstrip("_") == "bit" for m in t.markers) for ref, t in found.items() if ref.startswith("format/")}
    assert bits == {"format/nvfp4": 8, "format/bitnet-b1-58": 1, "format/fp8-e4m3": 8, "format/exl2": 0}
    # every width starts with MOST markers on 'bit': lunr weighs BitNet's rare words beginning with 'bit' three times
    # a marker fifty formats share; BitNet, whose own words 'bit' begins, keeps one (else it led every width again)
    assert _outweighed(found) == []


def test_a_term_the_solver_cannot_settle_fails_check_naming_the_page_that_outweighs_it(monkeypatch) -> None:
    """With one marker a word at most, 'GPTQ' (two tag words on the format) is level with GPTQModel's 'gptqmodel' and
    its marker: the search-ranking check reports it at the format's record, naming the engine and the capped word, as
    the real records did when one added vLLM alias took 'moe' markers to the cap (GGUF ids ending '-m' came second)."""
    from generators.checks import search_ranking
    from generators.derive.search_terms import _Markers, _solved, outweighed
    monkeypatch.setattr(_Markers, "MOST", 1)
    _solved.cache_clear()
    try:
        atlas = atlas_of({"format/gptq": {"name": "GPTQ (one-shot PTQ)"}, "engine/gptqmodel": {"name": "GPTQModel"}})
        found = search_terms_by_record(atlas.index)
        assert [(o.page, o.typed, o.rival, o.own, o.theirs, o.capped) for o in outweighed(found)] == [
            ("format/gptq", "GPTQ", "engine/gptqmodel", 2, 2, ("gptq",))]
        assert set(_outweighed(found)) == {f"format/gptq {form!r} engine/gptqmodel" for form in ("GPTQ", "gptq")}
        problems = list(search_ranking.run(atlas))
        assert [(p.file, p.rule) for p in problems] == [("records/formats/gptq.yaml", "search-ranking")]
        assert "engine/gptqmodel" in problems[0].message and "'gptq' are at the cap" in problems[0].message
    finally:
        monkeypatch.undo()
        _solved.cache_clear()
    assert outweighed(_terms()) == [] and list(search_ranking.run(atlas_of({"format/gptq": {"name": "GPTQ"}}))) == []


def test_a_glossary_terms_spellings_are_its_terms_beside_a_records_name_or_id_and_ahead_of_an_alias() -> None:
    """A term record's spellings, prose words included, are its page's terms. A record named or identified by one
    keeps it too: 'Marlin' is the Marlin engine's name and id, 'mmvq' a kernel's id (the glossary spelling took it from
    the kernel, which a pasted id then did not find first); a format's alias that a term spells goes to the term's
    page."""
    atlas = atlas_of({
        "engine/marlin": {"name": "Marlin (IST-DASLab)"},
        "format/fp8-e4m3": {"name": "FP8 E4M3", "aliases": ["FP8", "float8_e4m3fn"]},
        "kernel/mmvq": {"name": "llama.cpp MMVQ (quantized matrix-vector product)"},
        "term/marlin": {"name": "Marlin (the kernel and those named after it)", "spellings": ["Marlin"]},
        "term/mmvq": {"name": "MMVQ (llama.cpp's quantized matrix-vector product)", "spellings": ["MMVQ"]},
        "term/float8-e4m3fn": {"name": "float8_e4m3fn (PyTorch's FP8 E4M3)", "spellings": ["float8_e4m3fn"]},
        "term/compute-capability": {"name": "compute capability (NVIDIA's GPU version)",
                                    "spellings": ["compute capability"]}})
    assert {ref: t.terms for ref, t in search_terms_by_record(atlas.index).items()} == {
        "engine/marlin": ("Marlin",), "format/fp8-e4m3": ("FP8 E4M3", "FP8"), "kernel/mmvq": ("llama.cpp MMVQ", "mmvq"),
        "term/compute-capability": ("compute capability",), "term/float8-e4m3fn": ("float8_e4m3fn",),
        "term/marlin": ("Marlin",), "term/mmvq": ("MMVQ",)}


def test_a_glossary_pages_first_section_lacks_the_other_words_of_the_names_and_ids_that_carry_its_spelling(
        built_site: Path) -> None:
    """The theme multiplies a page's first section by 5 where it holds every typed word, by less where it lacks some
    (derive/search_terms.py). A glossary page weighs on its spelling ('mmvq' and its markers, to come first for 'MMVQ'),
    so where its first section also held every other word of a record's id or name ('vllm-gguf-mmvq', 'llama.cpp
    MMVQ'), it was listed before that record: its definition and the list of the kernels named with its word were in
    that section. Read from the built search index as the theme's worker reads a document: each typed word held if one
    of the section's words (title, text, tags) begins it (a prefix) or is it (a whole word)."""
    docs = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    first = {doc["location"]: doc for doc in docs if "#" not in doc["location"]}
    glossary = {page: doc for page, doc in first.items() if page.startswith("terms/") and page != "terms/"}

    def indexed(doc: dict) -> set[str]:
        return {w for text in [doc["title"], doc["text"], *doc.get("tags", ())] for w in words(_MARKUP.sub(" ", text))}

    def held(found: set[str], typed: tuple[tuple[str, bool], ...]) -> bool:
        return all(any(w.startswith(word) for w in found) if prefix else word in found for word, prefix in typed)

    assert glossary and {"kernels/vllm-gguf-mmvq/", "kernels/llama-cpp-mmq/"} <= set(first)
    listed_first = []  # (record page, its term, the glossary page that weighs on it and holds all its words first)
    for page, doc in first.items():
        terms = [t for t in doc.get("tags", ()) if not t.endswith(MARKER)] if page not in glossary else []
        for term, typed in ((t, clauses(t)) for t in terms):
            for term_page, term_doc in glossary.items():
                tags = {w for t in term_doc.get("tags", ()) for w in words(t)}  # its spellings and their markers
                weighs = any(held(tags, (clause,)) for clause in typed)
                if weighs and words(term) not in map(words, term_doc.get("tags", ())) and held(indexed(term_doc), typed):
                    listed_first.append((page, term, term_page))
    assert listed_first == []
    # an id and a name of the real records that came second to the glossary page: their own first section holds every
    # typed word (its tags), the glossary page's does not
    for page, tag, term_page in [("kernels/vllm-gguf-mmvq/", "vllm-gguf-mmvq", "terms/mmvq/"),
                                 ("kernels/llama-cpp-mmq/", "llama.cpp MMQ", "terms/mmq/")]:
        assert held(indexed(first[page]), clauses(tag)) and not held(indexed(glossary[term_page]), clauses(tag))
