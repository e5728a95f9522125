"""Traps per engine: a trap naming only an engine is on that engine's page and beside its answers, never on a cell."""
from __future__ import annotations

from generators.derive.engine_traps import ScopedTrap
from generators.model.atlas import Atlas
from generators.render.pages import names_of, record_page

from .memory_atlas import atlas_of

TRAP = {"summary": "s", "severity": "major", "silent": False, "regime": "other", "sources": [{"source": "s"}]}


def _atlas():
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "engine/eng": {"name": "Eng", "summary": "s", "version_read": "0.5.0", "sources": [{"source": "s"}]},
        "engine/other": {"name": "Other", "summary": "s", "sources": [{"source": "s"}]},
        "format/fmt": {"name": "Fmt", "summary": "s", "sources": [{"source": "s"}]},
        "gotcha/wide": {**TRAP, "name": "Wide", "engines": ["eng"]},
        "gotcha/wide-silent": {**TRAP, "name": "Wide silent", "silent": True, "engines": ["eng", "other"]},
        "gotcha/on-format": {**TRAP, "name": "On a format", "engines": ["eng"], "formats": ["fmt"]},
        "gotcha/on-platform": {**TRAP, "name": "On a platform", "engines": ["eng"], "platforms": ["rocm"]},
        "gotcha/old": {**TRAP, "name": "Old releases", "engines": ["eng"],
                       "scope": {"statement": "s", "affected": "a", "sources": [{"source": "s"}],
                                 "releases": {"engine": "eng", "first": "0.1.0", "last": "0.4.0"}}}})


def test_engine_wide_traps_name_the_engine_and_nothing_narrower_in_reading_order() -> None:
    found = _atlas().views.traps_by_engine
    assert found["eng"].engine_wide == ("wide-silent", "wide")  # silent first
    assert found["eng"].scoped == (  # by name: 'Old releases', 'On a format', 'On a platform'
        ScopedTrap("old", (), (), (), (), "0.1.0–0.4.0"),  # outside the release read (0.5.0): not engine-wide
        ScopedTrap("on-format", ("fmt",), (), (), (), ""), ScopedTrap("on-platform", (), (), ("rocm",), (), ""))
    assert found["other"].engine_wide == ("wide-silent",) and found["other"].scoped == ()


def test_the_engine_page_lists_engine_wide_traps_apart_from_the_narrower_ones() -> None:
    atlas = _atlas()
    page = record_page(atlas, atlas.index.must("engine", "eng"), names_of(atlas))
    tables = {t.title: t for t in page.tables}
    assert list(tables)[:2] == ["Engine-wide traps", "Traps in a narrower scope"]
    assert tables["Engine-wide traps"].note.startswith("Not specific to a format, kernel or hardware: they concern every "
                                                       "use of Eng. Silent")  # no scheme: no answer to show them beside
    assert [str(row[1]) for row in tables["Engine-wide traps"].rows] == ["[Wide silent](../gotchas/wide-silent.md)",
                                                                         "[Wide](../gotchas/wide.md)"]
    assert [str(row[2]) for row in tables["Traps in a narrower scope"].rows] == [
        "releases: 0.1.0–0.4.0", "formats: [Fmt](../formats/fmt.md)", "platforms: rocm"]


def test_the_real_engine_wide_traps_are_on_no_answer(real_atlas: Atlas) -> None:
    """MTP spec-decode and the CXX11 ABI trap name only vLLM: they are its engine-wide traps and no cell lists them
    (trap_scope keeps a trap off every cell whose scope it does not match)."""
    atlas = real_atlas
    wide = {t for found in atlas.views.traps_by_engine.values() for t in found.engine_wide}
    assert {"mtp-spec-decode-prefix-caching-accuracy-loss", "vllm-extension-cxx11-abi-mismatch"} <= \
        set(atlas.views.traps_by_engine["vllm"].engine_wide)
    assert wide and not wide & {t for answer in atlas.views.answers.values() for t in answer.traps}
    assert atlas.views.traps_by_engine["vllm"].answered and atlas.views.traps_by_engine["llama-cpp"].answered
    assert atlas.views.traps_by_engine["mlx-lm"].answered  # its schemes give answers, which show none of the wide traps
    for trap_id in wide:
        data = atlas.index.must("gotcha", trap_id).data
        assert not any(data.get(k) for k in ("formats", "kernels", "platforms", "accelerators")), trap_id


def test_the_engine_page_says_the_layers_and_the_native_format_a_trap_needs() -> None:
    """A trap narrowed to dense layers or to parts computing a format natively says so where the engine page lists
    it, as a support answer lists it only there."""
    atlas = atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "engine/eng": {"name": "Eng", "summary": "s", "sources": [{"source": "s"}]},
        "format/fmt": {"name": "Fmt", "summary": "s", "sources": [{"source": "s"}]},
        "gotcha/narrow": {**TRAP, "name": "Narrow", "engines": ["eng"], "formats": ["fmt"], "layers": "dense",
                          "native": ["fmt"]}})
    page = record_page(atlas, atlas.index.must("engine", "eng"), names_of(atlas))
    rows = {t.title: t for t in page.tables}["Traps in a narrower scope"].rows
    assert [str(row[2]) for row in rows] == [
        "formats: [Fmt](../formats/fmt.md); on parts computing natively: [Fmt](../formats/fmt.md); layers: dense"]
