"""A contest a finding settled shows its upheld value as the value and the other claims as settled; only open
contests warn that the sources disagree, and no chart or table draws a claim a finding set aside."""
from __future__ import annotations

from generators.build import check_tree
from generators.checks.contested_upheld import stated_values
from generators.derive.wording import WORDS
from generators.render.pages import names_of, record_page

from .test_render import render

CONTEST = ("contested:\n  - field: weight_bits\n{settled}    claims:\n"
           "      - {{value: 4, sources: [{{source: src-doc}}]}}\n      - {{value: 3, sources: [{{source: src-code}}]}}\n")


def _contest(tree, settled: str) -> None:
    """fmt-int4 contests its weight_bits (4 against 3); the mini finding cpu-cell-wrong concerns it, to settle it."""
    path = tree / "records/formats/fmt-int4.yaml"
    path.write_text(path.read_text() + CONTEST.format(settled=settled))
    finding = tree / "records/findings/cpu-cell-wrong.yaml"
    finding.write_text(finding.read_text().replace("concerns: [support-matrix/pub-table]",
                                                   "concerns: [support-matrix/pub-table, format/fmt-int4]"))


def _page(tree, settled: str):
    _contest(tree, settled)
    atlas, problems = check_tree(tree)
    assert atlas is not None, [str(p) for p in problems]
    return atlas, record_page(atlas, atlas.index.get("format", "fmt-int4"), names_of(atlas))


def test_a_settled_contest_shows_the_upheld_value_first_and_the_other_claim_as_settled(tree):
    atlas, page = _page(tree, "    resolution: cpu-cell-wrong\n    upheld: 0\n")
    assert page.contested == [] and [t.title for t in page.settled] == ["Settled: weight_bits"]
    rows = page.settled[0].rows
    assert [str(r[0]) for r in rows] == ["<strong>4</strong>", "3"]  # the value that stands, in bold; the other plain
    assert str(rows[0][2]).startswith('<span class="atlas-upheld">✓ stands</span>: the value, upheld by [The x86 CPU')
    assert str(rows[1][2]).startswith('<span class="atlas-set-aside">set aside</span> by [The x86 CPU cell is wrong]')
    assert "stands" not in rows[1][2]
    assert atlas.views.gaps.contested == () and [(c.field, c.upheld) for c in atlas.views.gaps.settled] == [("weight_bits", 4)]


def test_the_upheld_claim_leads_wherever_it_stands_among_the_claims(tree):
    edit_bits = tree / "records/formats/fmt-int4.yaml"
    edit_bits.write_text(edit_bits.read_text().replace("weight_bits: 4", "weight_bits: 3"))
    _, page = _page(tree, "    resolution: cpu-cell-wrong\n    upheld: 1\n")
    assert [str(r[0]) for r in page.settled[0].rows] == ["<strong>3</strong>", "4"]


def test_an_open_contest_keeps_the_warning_and_is_listed_as_a_gap(tree):
    atlas, page = _page(tree, "")
    assert page.settled == [] and [t.title for t in page.contested] == ["Contested: weight_bits"]
    assert [c.field for c in atlas.views.gaps.contested] == ["weight_bits"] and atlas.views.gaps.settled == ()


def test_the_record_page_warns_only_for_open_contests(tree):
    _contest(tree, "    resolution: cpu-cell-wrong\n    upheld: 0\n")
    pages, problems = render(tree)
    assert problems == []
    page = pages["formats/fmt-int4.md"]
    assert "## Settled contests" in page and "The sources disagree" not in page


def test_the_field_s_value_links_to_its_contest_on_the_same_page(tree):
    """The fields table marks a contested field's value in words and links it to the contest's table, whose heading
    carries that id: a reader at the value finds why it stands (or that the sources still disagree)."""
    for settled, mark in (("    resolution: cpu-cell-wrong\n    upheld: 0\n", "settled contest, see below"),
                          ("", "⚠ contested, see below")):
        _, page = _page(tree, settled)
        bits = dict(page.facts)["Weight (bits)"]
        assert str(bits).startswith("4 <a class=\"atlas-contest-mark") and str(bits).endswith(f'href="#contest-0">{mark}</a>')
        assert [t.anchor for t in page.settled + page.contested] == ["contest-0"]
        assert str(dict(page.facts)["Family"]) == "integer"  # only the contested field is marked
        (tree / "records/formats/fmt-int4.yaml").write_text(
            (tree / "records/formats/fmt-int4.yaml").read_text().split("contested:")[0])
    _contest(tree, "    resolution: cpu-cell-wrong\n    upheld: 0\n")
    pages, problems = render(tree)
    assert problems == [] and "### Settled: weight\\_bits { #contest-0 }" in pages["formats/fmt-int4.md"]


def test_every_resolved_contest_of_the_atlas_names_the_claim_it_upholds(real_atlas):
    loose = [f"{r.ref} {e['field']}" for kind in real_atlas.index.by_kind for r in real_atlas.index.all(kind)
             for e in r.data.get("contested", []) if "resolution" in e and "upheld" not in e]
    assert loose == []


def test_no_ridge_pairing_uses_a_figure_a_finding_set_aside(real_atlas):
    """The FLOP map and the ridge rows pair every stated compute and bandwidth figure; a claim a finding set aside is
    no longer stated, so no pairing may carry it."""
    set_aside = set()
    for record in real_atlas.index.all("accelerator"):
        for entry in record.data.get("contested", []):
            words = entry["field"].split()
            if "upheld" not in entry or not stated_values(record, entry["field"]) or \
                    entry["field"] != "memory_bandwidth_gbs" and words[0] != "peak_compute":
                continue
            upheld = entry["claims"][entry["upheld"]]["value"]
            which = "bandwidth" if entry["field"] == "memory_bandwidth_gbs" else words[1]
            set_aside |= {(record.id, which, c["value"]) for c in entry["claims"] if c["value"] != upheld}
    assert set_aside  # the atlas has settled figure contests, so the test reads something
    used = {(r.accelerator, "bandwidth", r.bandwidth_gbs) for r in real_atlas.views.ridges}
    used |= {(r.accelerator, r.precision, r.tflops) for r in real_atlas.views.ridges}
    assert sorted(set_aside & used) == []


def test_chapter_01_marks_the_precisions_the_part_page_lists_as_native_unverified(real_atlas):
    """One fact, one place: chapter 01's unverified marks come from the format map's gaps (Views.unverified_formats),
    as the part page's 'of which native, unverified' row does."""
    formats = real_atlas.index.by_kind["format"]
    rows = [row for group in real_atlas.views.hardware_groups for row in group.rows]
    assert any(row.unverified_precisions for row in rows)
    for row in rows:
        tally = real_atlas.views.tallies[row.accelerator]
        gaps = [f for f in tally.native if f in real_atlas.views.unverified_formats.get(row.accelerator, ())]
        assert row.unverified_native == tuple(gaps)
        for precision in row.unverified_precisions:
            native_in_it = [f for f in tally.native if formats[f].data.get("peak_precision") == precision]
            assert native_in_it and set(native_in_it) <= set(gaps), (row.accelerator, precision)
        for f in gaps:
            precision = formats[f].data.get("peak_precision")
            backed = [g for g in tally.native if g not in gaps and formats[g].data.get("peak_precision") == precision]
            assert precision not in row.dense_precisions or backed or precision in row.unverified_precisions


MTP = "mtp-spec-decode-prefix-caching-accuracy-loss"


def test_the_api_lists_a_trap_s_open_contests_only(real_atlas):
    """The answer card marks a trap 'contested' from the API index: a gotcha entry carries its open contests (field and
    the heading's id on its page), never a settled one, and no key when it has none."""
    from generators.render import api

    gotchas = {g["id"]: g for g in api.index_document(real_atlas)["records"]["gotcha"]}
    for record in real_atlas.index.all("gotcha"):
        contests = record.data.get("contested", [])
        expected = [{"field": e["field"], "anchor": f"contest-{n}"} for n, e in enumerate(contests) if "upheld" not in e]
        assert gotchas[record.id].get("contested", []) == expected, record.id
    # the MTP trap's first contest (which models) is settled, its second (whether 0.33.0 is affected) open
    assert [c["anchor"] for c in gotchas[MTP]["contested"]] == ["contest-1"]
    assert "upheld" in real_atlas.index.get("gotcha", MTP).data["contested"][0]


def test_the_support_tables_note_marks_a_listed_trap_with_an_open_contest(real_atlas, monkeypatch):
    """No cell lists a trap with an open contest today; the note marks one as the card does, linking to the contest,
    and leaves the cell's other traps unmarked (open_contests stood in for, as if MLX's B300 wheel trap had one)."""
    import re

    from generators.render import matrix

    trap = "mlx-cuda-wheels-sm100a-only-no-code-for-b300"
    real = matrix.open_contests
    monkeypatch.setattr(matrix, "open_contests", lambda data: (
        [{"field": "<b>x</b>", "anchor": "contest-2"}] if data.get("name") == real_atlas.index.get("gotcha", trap).data["name"]
        else real(data)))
    text = str(matrix.support_matrices_html(real_atlas, "chapters/support-tables.md", {}))
    note = re.search(r'<li id="cell-mlx-lm-affine-4--nvidia-sm100">(.*?)</li>', text).group(1)
    assert (f'<a href="../../gotchas/{trap}/">{trap}</a> (on <a href="../../accelerators/b300/">b300'
            f'</a> only) <a class="atlas-contest-mark atlas-contest-mark--contested" href="../../gotchas/{trap}/#contest-2">'
            f'{WORDS["trap_contested"]}</a>') in note
    assert note.count("class=\"atlas-contest-mark ") == 1
    monkeypatch.undo()  # the atlas as it is: no trap a cell lists has an open contest, so no note is marked
    assert "atlas-contest-mark" not in str(matrix.support_matrices_html(real_atlas, "chapters/support-tables.md", {}))


def test_a_trap_with_an_open_contest_leaves_contested_to_the_mark_not_its_name(real_atlas):
    """An answer lists a trap with an open contest as its name followed by the mark (WORDS trap_contested), so a name
    that says 'contested' itself reads it twice ('... is contested) ⚠ contested'). The MTP trap's name keeps what is
    open, vLLM 0.33.0, and leaves the contest to the mark and its page."""
    from generators.render.contests import open_contests

    marked = [g for g in real_atlas.index.all("gotcha") if open_contests(g.data)]
    assert MTP in {g.id for g in marked}
    assert [g.id for g in marked if "contested" in g.data["name"].lower()] == []
    assert "vLLM 0.33.0" in real_atlas.index.get("gotcha", MTP).data["name"]


def test_the_chapters_and_the_trap_index_mark_a_listed_trap_with_an_open_contest(real_atlas):
    """Chapters 04 and 05 and the trap index list traps by name; a trap with an open contest is followed by the mark
    the answer card and the support tables' notes give it ("⚠ contested", linking to its first open contest), so its
    name is not read as a settled claim; a trap with none, or whose contests a finding settled, has no mark. (Chapter
    04's table of disputes names the contested field beside the record: the row is the contest, unmarked.)"""
    import re

    from generators.build import render_tree
    from generators.render.contests import open_contests
    from generators.render.markdown import escape_text

    from .conftest import ROOT

    pages, _ = render_tree(ROOT)
    anchors = {g.id: found[0]["anchor"] for g in real_atlas.index.all("gotcha") if (found := open_contests(g.data))}
    settled_only = {g.id for g in real_atlas.index.all("gotcha") if g.data.get("contested") and g.id not in anchors}
    assert MTP in anchors and settled_only
    listed = {"chapters/04-quantization-regimes.md": re.compile(r"\]\(\.\./gotchas/([a-z0-9-]+)\.md\)"),
              "chapters/05-known-traps.md": re.compile(r"\]\(\.\./gotchas/([a-z0-9-]+)\.md\)"),
              "gotchas/index.md": re.compile(r'<a href="([a-z0-9-]+)/">[^<]*</a>')}
    mark = re.compile(r'(?: <span class="atlas-unverified"[^>]*>unverified</span>)?'
                      r' <a class="atlas-contest-mark atlas-contest-mark--contested" href="([^"]+)">⚠ contested</a>')
    for page, trap_link in listed.items():
        text = pages[page]
        seen = set()
        for found in trap_link.finditer(text):
            trap = found.group(1)
            if trap not in real_atlas.index.by_kind["gotcha"]:
                continue
            fields = [str(c["field"]) for c in real_atlas.index.must("gotcha", trap).data.get("contested", [])]
            if any(text.startswith(f" | {escape_text(field)} |", found.end()) for field in fields):
                continue  # a row of the disputes table
            seen.add(trap)
            marked = mark.match(text, found.end())
            if trap in anchors:
                assert marked and marked.group(1).endswith(f"{trap}/#{anchors[trap]}"), (page, trap)
            else:
                assert not marked, (page, trap)
        assert MTP in seen and seen & settled_only, page
