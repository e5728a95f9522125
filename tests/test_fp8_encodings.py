"""An FP8 figure or instruction that names its encodings makes only those native; one that names none leaves E4M3 and
E5M2 native with the encoding unstated, and the site says so instead of reading 'FP8' as both."""
from __future__ import annotations

from typing import Any

from generators.build import Atlas
from generators.derive.format_map import format_map
from generators.render.format_map import _cell
from generators.render.matrix import _Html

from .memory_atlas import atlas_of

_FMT = {"summary": "s", "sources": [{"source": "s"}], "format_class": "hardware", "peak_precision": "fp8",
        "emulated_via": ["bf16"]}


def _part(*fp8: list[str] | None) -> dict[str, Any]:
    """A part with a dense BF16 peak and one dense FP8 peak per argument (naming those encodings, or none for None)."""
    peaks = [{"precision": "bf16", "sparsity": "dense", "tflops": 100, "source": "s"}]
    peaks += [{"precision": "fp8", "sparsity": "dense", "tflops": 200 + n, "source": "s", **({"encodings": e} if e else {})}
              for n, e in enumerate(fp8)]
    return {"name": "Vendor Part", "summary": "s", "vendor": "Vendor", "category": "datacenter-gpu", "architecture": "X",
            "sources": [{"source": "s"}], "peak_compute": peaks}


def _atlas() -> Atlas:
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "format/e4m3": {**_FMT, "name": "FP8 E4M3", "encoding": "e4m3"},
        "format/e5m2": {**_FMT, "name": "FP8 E5M2", "encoding": "e5m2"},
        "accelerator/unnamed": _part(None),
        "accelerator/both": _part(["e4m3", "e5m2"]),
        "accelerator/only-e4m3": _part(["e4m3"]),
        "accelerator/generic-and-named": _part(None, ["e4m3"]),
        "accelerator/by-instruction": _part(None),
        "accelerator/part-level": {**_part(None), "matrix_encodings": [
            {"precision": "fp8", "encodings": ["e5m2"], "source": "s", "locator": "data types"}]},
        "hardware-target/t": {"name": "SM X", "summary": "s", "sources": [{"source": "s"}], "platform": "cuda", "order": 1,
                              "accelerators": ["by-instruction"],
                              "matrix_formats": [{"precision": "fp8", "encodings": ["e5m2"], "instruction": "mma e5m2",
                                                  "source": "s", "locator": "line 1"}]}})


def test_named_encodings_decide_which_fp8_format_is_native() -> None:
    tallies = _atlas().views.tallies
    found = {part: (t.native, t.emulated, t.encoding_unstated, t.unrated) for part, t in tallies.items()}
    assert found == {
        "unnamed": (("e4m3", "e5m2"), (), ("e4m3", "e5m2"), ()),  # 'FP8' alone: native, encoding unstated
        "both": (("e4m3", "e5m2"), (), (), ()),
        "only-e4m3": (("e4m3",), ("e5m2",), (), ()),  # a named list that leaves E5M2 out: E5M2 converts to BF16
        "generic-and-named": (("e4m3",), ("e5m2",), (), ()),  # one figure naming encodings names them for the part
        # the instruction names E5M2 only, so E4M3 is not native; E5M2's rate is the generic FP8 figure
        "by-instruction": (("e5m2",), ("e4m3",), (), ()),
        "part-level": (("e5m2",), ("e4m3",), (), ()),  # a data-type reference for the part names E5M2 only
    }


def test_the_map_cites_only_the_figures_that_admit_the_encoding_and_marks_an_unstated_one() -> None:
    atlas = _atlas()
    view = format_map(atlas.index, atlas.views.tallies, {})
    cells = {r.accelerator: dict(zip([c.format for c in view.columns], r.cells)) for v in view.vendors for r in v.rows}
    assert [p.tflops for p in cells["generic-and-named"]["e4m3"].peaks] == [200, 201]
    assert cells["generic-and-named"]["e5m2"].status == "emulated"
    assert [p.tflops for p in cells["both"]["e5m2"].peaks] == [200] and not cells["both"]["e5m2"].encoding_unstated
    assert [i.instruction for i in cells["by-instruction"]["e5m2"].instructions] == ["mma e5m2"]
    assert cells["part-level"]["e5m2"].encoding_sources == ("s",) and cells["part-level"]["e4m3"].status == "emulated"
    stated = str(_cell(cells["part-level"]["e5m2"], "FP8 E5M2", "Part", "x.html", _Html({"source/s": "S"}, "p.md")))
    assert "; encodings named by S" in stated and ">N</a>" in stated
    assert cells["part-level"]["e4m3"].other_encodings == ((("e5m2",), "s"),)
    converted = str(_cell(cells["part-level"]["e4m3"], "FP8 E4M3", "Part", "x.html", _Html({"source/s": "S"}, "p.md")))
    assert "; its matrix engines take E5M2 only in this precision (S)" in converted and ">E</a>" in converted
    assert cells["unnamed"]["e4m3"].other_encodings == () and cells["both"]["e4m3"].other_encodings == ()
    by_instruction = str(_cell(cells["by-instruction"]["e5m2"], "FP8 E5M2", "Part", "x.html",
                               _Html({"source/s": "S", "hardware-target/t": "SM X"}, "p.md")))
    assert "; mma e5m2 (SM X: S)" in by_instruction  # the instruction that names the encoding is in the hover text
    unstated = cells["unnamed"]["e5m2"]
    assert (unstated.status, unstated.encoding_unstated) == ("native", True)
    html = str(_cell(unstated, "FP8 E5M2", "Part", "x.html", _Html({"source/s": "S"}, "p.md")))
    assert ">N?</a>" in html and "atlas-map__cell--unstated" in html and "name no FP8 encoding" in html
    named = str(_cell(cells["both"]["e5m2"], "FP8 E5M2", "Part", "x.html", _Html({"source/s": "S"}, "p.md")))
    assert ">N</a>" in named and "unstated" not in named


def test_the_real_fp8_formats_name_their_encoding_and_every_unstated_cell_has_an_fp8_figure(real_atlas: Atlas) -> None:
    assert {f: real_atlas.index.must("format", f).data.get("encoding") for f in ("fp8-e4m3", "fp8-e5m2")} == \
        {"fp8-e4m3": "e4m3", "fp8-e5m2": "e5m2"}
    for part, tally in real_atlas.views.tallies.items():
        assert set(tally.encoding_unstated) <= {"fp8-e4m3", "fp8-e5m2"} and set(tally.encoding_unstated) <= set(tally.native), part


def test_the_format_and_part_pages_list_where_the_encoding_is_unstated() -> None:
    from generators.render.pages import _format_parts_table, _tally_table
    from generators.render.values import ValueRenderer

    atlas = _atlas()
    values = ValueRenderer({}, {}, "formats/e5m2.md")
    rows = {str(r[0]): str(r[-1]) for r in _format_parts_table(atlas, atlas.index.must("format", "e5m2"), values).rows}
    assert "unnamed" in rows["of which the sources say FP8 without naming this encoding"] and "both" not in \
        rows["of which the sources say FP8 without naming this encoding"]
    tally = {str(r[0]): str(r[1]) for r in _tally_table(atlas, atlas.index.must("accelerator", "unnamed"), values).rows}
    assert [v for k, v in tally.items() if k.startswith("of which FP8 with the encoding unstated")] == ["2"]
    named = [str(r[0]) for r in _tally_table(atlas, atlas.index.must("accelerator", "both"), values).rows]
    assert not any("unstated" in label for label in named)



def test_an_fp8_figure_that_runs_as_bf16_makes_fp8_emulated_not_native() -> None:
    """A vendor FP8 rate that a source says is the BF16 path (operands converted) stays a figure but is no native path:
    both FP8 formats are derived emulated through BF16, and the map's emulated cell cites the BF16 figure."""
    runs_as = {"precision": "bf16", "source": "s", "locator": "first paragraph"}
    converted = _part(None)
    converted["peak_compute"][1].update(tflops=100, runs_as=runs_as)
    atlas = atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        "format/e4m3": {**_FMT, "name": "FP8 E4M3", "encoding": "e4m3"},
        "format/e5m2": {**_FMT, "name": "FP8 E5M2", "encoding": "e5m2"},
        "accelerator/converted": converted})
    tally = atlas.views.tallies["converted"]
    assert (tally.native, tally.emulated, tally.encoding_unstated) == ((), ("e4m3", "e5m2"), ())
    view = format_map(atlas.index, atlas.views.tallies, {})
    cells = {r.accelerator: dict(zip([c.format for c in view.columns], r.cells)) for v in view.vendors for r in v.rows}
    assert [(p.precision, p.tflops) for p in cells["converted"]["e4m3"].peaks] == [("bf16", 100)]
    _FNUZ = {**_FMT, "name": "FP8 FNUZ", "peak_precision": "fp8-fnuz", "emulated_via": ["fp8", "bf16"]}
    fnuz = atlas_of({**{f"{r.kind}/{r.id}": r.data for r in atlas.index.all("source")},
                     **{f"{r.kind}/{r.id}": r.data for r in atlas.index.all("accelerator")}, "format/fnuz": _FNUZ})
    view = format_map(fnuz.index, fnuz.views.tallies, {})
    cell = next(r.cells[0] for v in view.vendors for r in v.rows)  # converting through FP8 means through BF16 here
    assert cell.status == "emulated" and [(p.precision, p.tflops) for p in cell.peaks] == [("bf16", 100)]
    assert [(r.precision, r.ratio) for r in atlas.views.ratios if r.accelerator == "converted"] == [("fp8", 1.0)]


def test_the_tpu_v5p_fp8_figure_runs_as_bf16(real_atlas: Atlas) -> None:
    """Google states an FP8 peak for v5p equal to its BF16 one and calls Ironwood its first TPU with FP8: v5p's FP8
    formats are emulated, as on v6e, whose page states no FP8 figure at all."""
    for part in ("tpu-v5p", "tpu-v6e"):
        tally = real_atlas.views.tallies[part]
        assert {"fp8-e4m3", "fp8-e5m2"} <= set(tally.emulated) and not {"fp8-e4m3", "fp8-e5m2"} & set(tally.native), part
