"""A map cell whose status rests only on figures the records mark unverified is shown as a gap, not as a verified N or E."""
from __future__ import annotations

import json
from typing import Any

from generators.build import Atlas
from generators.derive.format_map import format_map, unverified_formats
from generators.render.api import format_map_document
from generators.render.format_map import _cell, _legend
from generators.render.matrix import _Html

from .memory_atlas import atlas_of

# every cell of the repository's map whose figures (and instructions) are all unverified, found by unv35 on 2026-12-04
# (records/findings/unv35-audit-2026-12-04.yaml): a primary source for one of the figures removes the cell from here
EXPECTED = {
    "a10": ("bf16", "fp16", "fp8-e4m3", "fp8-e4m3-fnuz", "fp8-e5m2", "fp8-e5m2-fnuz", "int4", "int8-w8a8", "mxfp4",
            "mxfp6", "mxfp8", "nvfp4", "tf32"),
    "h200-sxm": ("fp16", "tf32"),
    # no MI325X cell: AMD's matrix-core blog states FP16 1307.4 (unv35s) and AMD's CDNA 3 white paper BF16 1307.4,
    # INT8 2614.9 and TF32 653.7 (vendor35)
    # no Gaudi 2 or Gaudi 3 cell: Intel's Gaudi 3 technical paper states Gaudi 2's FP8 865 and Gaudi 3's FP16 and TF32
    # 459 (records/findings/verify50-audit-2026-12-05.yaml)
    # FP16 and TF32 rest on ml-engineering alone and INT4 on Glenn Lockwood's transcription alone, marked unverified by
    # hw44 (records/findings/hw44-audit-2026-12-05.yaml); NVIDIA's A100 80GB datasheet was not found (hw44s)
    "a100-80gb-sxm4": ("fp16", "int4", "tf32"),
}

_PEAK = {"sparsity": "dense", "tflops": 100, "source": "s"}
_FMT = {"summary": "s", "sources": [{"source": "s"}], "format_class": "hardware"}
_WHY = "Only a compilation gives it."


def _part(*peaks: dict[str, Any]) -> dict[str, Any]:
    return {"name": "NVIDIA Part", "summary": "s", "vendor": "NVIDIA", "category": "consumer-gpu", "architecture": "Blackwell",
            "sources": [{"source": "s"}], "peak_compute": [{**_PEAK, **p} for p in peaks]}


def _atlas() -> Atlas:
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "format/fp8": {**_FMT, "name": "FP8", "peak_precision": "fp8", "emulated_via": ["bf16"]},
        "format/bf16": {**_FMT, "name": "BF16", "peak_precision": "bf16"},
        "format/mxfp6": {**_FMT, "name": "MXFP6", "peak_precision": "mxfp6", "emulated_via": ["bf16"]},
        # every figure unverified: its native BF16 and its emulated FP8 (resting on the BF16 figure) are gaps
        "accelerator/gap": _part({"precision": "bf16", "unverified": _WHY}),
        # one of two figures in the precision is primary: not a gap
        "accelerator/mixed": _part({"precision": "bf16", "unverified": _WHY}, {"precision": "bf16", "tflops": 101}),
        # an unverified figure beside a primary instruction of its target: not a gap
        "accelerator/taught": _part({"precision": "bf16", "unverified": _WHY}),
        # no figure at all: its emulated FP8 rests on the target's instruction alone and its MXFP6 on nothing unverified
        "accelerator/bare": {**_part(), "peak_compute": []},
        "hardware-target/t": {"name": "SM X", "summary": "s", "sources": [{"source": "s"}], "platform": "cuda", "order": 1,
                              "accelerators": ["taught", "bare"],
                              "matrix_formats": [{"precision": "bf16", "instruction": "mma bf16", "source": "s",
                                                  "locator": "line 1"}]}})


def _cells(atlas: Atlas) -> dict[str, dict[str, Any]]:
    view = format_map(atlas.index, atlas.views.tallies, {})
    return {r.accelerator: dict(zip([c.format for c in view.columns], r.cells)) for v in view.vendors for r in v.rows}


def test_a_cell_is_unverified_only_when_everything_its_status_rests_on_is() -> None:
    cells = _cells(_atlas())
    assert (cells["gap"]["bf16"].status, cells["gap"]["bf16"].unverified) == ("native", True)
    assert (cells["gap"]["fp8"].status, cells["gap"]["fp8"].unverified) == ("emulated", True)
    assert not cells["mixed"]["bf16"].unverified and not cells["mixed"]["fp8"].unverified
    assert cells["taught"]["bf16"].instructions and not cells["taught"]["bf16"].unverified
    assert not cells["taught"]["fp8"].unverified
    assert cells["bare"]["fp8"].status == "emulated" and not cells["bare"]["fp8"].unverified
    assert cells["gap"]["mxfp6"].status == "emulated" and cells["gap"]["mxfp6"].unverified


def test_an_instruction_citing_only_a_seed_draft_is_unverified_too() -> None:
    atlas = _atlas()
    seeded = atlas_of({**{r.ref: r.data for kind in atlas.index.by_kind.values() for r in kind.values()},
                       "source/seed": {"name": "Seed", "summary": "s", "type": "seed", "path": "notes.md"},
                       "hardware-target/t": {**atlas.index.must("hardware-target", "t").data,
                                             "matrix_formats": [{"precision": "bf16", "instruction": "mma bf16",
                                                                 "source": "seed", "locator": "line 1"}]}})
    cells = _cells(seeded)
    assert cells["taught"]["bf16"].unverified
    assert cells["bare"]["bf16"].unrated and cells["bare"]["bf16"].unverified
    assert not cells["bare"]["fp8"].unverified  # no figure: an emulated cell on instructions alone is never marked


def test_the_map_shows_an_unverified_cell_at_a_glance() -> None:
    cells = _cells(_atlas())
    names = _Html({"source/s": "S", "hardware-target/t": "SM X"}, "p.md")
    html = str(_cell(cells["gap"]["bf16"], "BF16", "Part", "x.html", names))
    assert "atlas-map__cell--unverified" in html and ">N<sup>u</sup></a>" in html
    assert 'title="BF16 on Part: native, unverified — dense BF16 peak 100 TFLOPS (unverified) (S)"' in html
    plain = str(_cell(cells["mixed"]["bf16"], "BF16", "Part", "x.html", names))
    assert "unverified" not in plain.split("—")[0] and "<sup>" not in plain and ">N</a>" in plain
    assert "every figure it rests on is unverified" in str(_legend())


def test_every_unverified_cell_of_the_repository_is_found(real_atlas: Atlas) -> None:
    """Intel Gaudi 3's FP16 and TF32 rest only on ml-engineering's 459 TFLOPS, marked unverified; its BF16 does not."""
    view = format_map(real_atlas.index, real_atlas.views.tallies, {})
    assert unverified_formats(view) == EXPECTED
    cells = {r.accelerator: dict(zip([c.format for c in view.columns], r.cells)) for v in view.vendors for r in v.rows}
    assert cells["gaudi-3"]["fp16"].status == "native" and not cells["gaudi-3"]["bf16"].unverified


def test_the_format_map_document_names_the_unverified_formats(real_atlas: Atlas) -> None:
    document = json.loads(json.dumps(format_map_document(real_atlas, {})))
    rows = {row["id"]: row for row in document["accelerators"]}
    assert {a: tuple(row["unverified"]) for a, row in rows.items() if row["unverified"]} == EXPECTED
    assert all(set(row["unverified"]) <= set(row["native"]) | set(row["emulated"]) for row in rows.values())


def test_the_part_and_format_pages_say_which_of_their_formats_rest_on_unverified_figures_only() -> None:
    """The accelerator page's native and emulated lists, and a format page's parts, mark the map's gaps too: a reader
    of the part's page is not told BF16 is plainly native where every figure it rests on is unverified."""
    from generators.render.pages import _format_parts_table, _tally_table
    from generators.render.values import ValueRenderer

    atlas = _atlas()
    values = ValueRenderer({}, {}, "accelerators/gap.md")
    gap = {str(r[0]): (str(r[1]), str(r[2])) for r in _tally_table(atlas, atlas.index.must("accelerator", "gap"), values).rows}
    native = gap["of which native, unverified (every figure it rests on is unverified)"]
    emulated = gap["of which emulated, unverified (every figure it rests on is unverified)"]
    assert native[0] == "1" and "bf16" in native[1] and emulated[0] == "2" and "fp8" in emulated[1] and "mxfp6" in emulated[1]
    labels = list(gap)
    assert labels.index("native (derived from its peaks and instructions)") < labels.index(
        "of which native, unverified (every figure it rests on is unverified)") < labels.index(
        "emulated (derived from its peaks and instructions)") < labels.index(
        "of which emulated, unverified (every figure it rests on is unverified)")
    mixed = [str(r[0]) for r in _tally_table(atlas, atlas.index.must("accelerator", "mixed"), values).rows]
    assert not any("unverified" in label for label in mixed)  # one primary figure beside the unverified one
    parts = {str(r[0]): str(r[1]) for r in _format_parts_table(atlas, atlas.index.must("format", "bf16"), values).rows}
    marked = parts["of which native, unverified (every figure it rests on is unverified)"]
    assert "gap" in marked and "mixed" not in marked and "taught" not in marked and "mixed" in parts["native"]


def test_the_views_unverified_formats_are_the_maps(real_atlas: Atlas) -> None:
    assert real_atlas.views.unverified_formats == unverified_formats(format_map(real_atlas.index, real_atlas.views.tallies, {}))
