"""Per-cell history, published tables per release and the changelog, on crafted in-memory records (golden-style:
the whole expected view is written out, so a broken rule fails here)."""
from __future__ import annotations

import html
import xml.etree.ElementTree as ET

from generators.derive.changelog import changelog
from generators.derive.history import release_key
from generators.diff_model import CellChange, CommitChange, OtherwiseStep, RecordChange
from generators.render.changelog import ATOM, atom_feed, item_markup
from generators.render.values import ValueRenderer
from tests.memory_atlas import atlas_of

SELECTS = "k.can_implement accepted"


def run(kernel: str | None = None, message: str = "", stage: str = "kernel-selection", worlds=("bare",),
        scheme_class: str = "") -> dict:
    if kernel:
        entry = {"worlds": list(worlds), "variants": ["g128"], "stage": stage, "outcome": "selected", "kernel": kernel,
                 "candidates": [f"{kernel}.can_implement accepted"]}
    else:
        entry = {"worlds": list(worlds), "variants": ["g128"], "stage": stage, "outcome": "refused",
                 "error_type": "ValueError", "message": message,
                 "candidates": ["KHopper.can_implement refused: needs capability 90"]}
    return {**entry, "scheme_class": scheme_class} if scheme_class else entry


def cell(target: str, verdict: str, runs: list[dict], kernel: str | None = None, scheme: str = "sch") -> dict:
    data = {"scheme": scheme, "target": target, "verdict": verdict, "runs": runs}
    return {**data, "kernel": kernel} if kernel else data


def observation(release: str, harness: int, cells: list[dict]) -> dict:
    return {"name": f"eng {release} h{harness}", "engine": "eng", "release": release, "harness_version": harness,
            "observed_on": "2026-11-30", "cells": cells}


RECORDS = {
    "engine/eng": {"name": "Engine"},
    "scheme/sch": {"name": "Scheme", "engine": "eng", "class_name": "SchemeW4A8", "config": {"activation_quantized": True}},
    "hardware-target/gpu": {"name": "GPU", "platform": "cuda", "compute_capability": 90},
    "hardware-target/cpu": {"name": "CPU", "platform": "cpu", "cpu_arch": "aarch64"},
    "kernel/k-hopper": {"name": "KHopper", "class_name": "KHopper", "activation_handling": "quantized"},
    "kernel/k-weight-only": {"name": "KWeightOnly", "class_name": "KWeightOnly", "activation_handling": "as-given"},
    # 1.9.0 was observed by harness 1 only; 1.10.0 by harness 1 and 2 (2 wins); release order is numeric.
    "observation/eng-1-10-0-h1": observation("1.10.0", 1, [cell("gpu", "refused", [run(message="harness-1 artifact")])]),
    "observation/eng-1-10-0-h2": observation("1.10.0", 2, [
        cell("gpu", "refused", [run(message="needs capability 90")]),
        cell("cpu", "runs", [run("KWeightOnly")], "KWeightOnly")]),
    "observation/eng-1-9-0-h1": observation("1.9.0", 1, [
        cell("gpu", "runs", [run("KHopper")], "KHopper"),
        cell("cpu", "runs", [run("KHopper")], "KHopper")]),
}


def test_history_uses_the_newest_harness_per_release_and_orders_releases_numerically():
    history = atlas_of(RECORDS).views.history
    assert {key: [(o.release, o.observation, o.verdict, o.kernels, o.refusal) for o in h.outcomes]
            for key, h in history.items()} == {
        ("sch", "cpu"): [("1.9.0", "eng-1-9-0-h1", "runs", ("KHopper",), ""),
                         ("1.10.0", "eng-1-10-0-h2", "runs", ("KWeightOnly",), "")],
        ("sch", "gpu"): [("1.9.0", "eng-1-9-0-h1", "runs", ("KHopper",), ""),
                         ("1.10.0", "eng-1-10-0-h2", "refused", (),
                          "kernel-selection: ValueError: needs capability 90")]}


def test_a_flip_names_what_the_newer_selector_answered_for_the_kernel_chosen_before():
    flips = atlas_of(RECORDS).views.flips
    assert [(f.scheme, f.target, f.before.summary, f.after.summary, f.why) for f in flips] == [
        ("sch", "cpu", "runs via KHopper", "runs via KWeightOnly", ("KHopper is no longer asked in 1.10.0",)),
        ("sch", "gpu", "runs via KHopper", "refused (kernel-selection)",
         ("1.10.0 refuses KHopper.can_implement refused: needs capability 90",
          "1.10.0 refuses at kernel-selection: ValueError: needs capability 90"))]


def test_a_reworded_refusal_at_the_same_stage_is_not_a_flip():
    records = {**RECORDS, "observation/eng-1-11-0-h1": observation("1.11.0", 1, [
        cell("gpu", "refused", [run(message="reworded: capability 90 needed")]),
        cell("cpu", "runs", [run("KWeightOnly")], "KWeightOnly")])}
    assert [f.after.release for f in atlas_of(records).views.flips] == ["1.10.0", "1.10.0"]
    assert release_key("1.10.0") > release_key("1.9.0")


def matrix(releases: list[str], symbol: str) -> dict:
    return {"name": "Published", "publisher": "eng", "releases": releases,
            "rows": [{"label": "W4A8", "schemes": ["sch"]}], "columns": [{"label": "CPU", "targets": ["cpu"]},
                                                                         {"label": "GPU", "targets": ["gpu"]}],
            "cells": [[symbol, symbol]], "legend": [{"symbol": "Y", "verdict": "yes"}, {"symbol": "N", "verdict": "no"}]}


def test_published_tables_per_release_are_checked_against_that_releases_observation():
    records = {**RECORDS, "support-matrix/old": matrix(["1.9.0"], "N"), "support-matrix/new": matrix(["1.10.0"], "N"),
               "finding/explained": {"name": "Explained", "explains": [{"matrix": "new", "row": "W4A8", "column": "GPU"}]}}
    views = atlas_of(records).views
    assert [(c.matrix, c.release, c.column, c.published, c.observed, c.agrees) for c in views.release_claims] == [
        ("old", "1.9.0", "CPU", "no", "yes", False), ("old", "1.9.0", "GPU", "no", "yes", False),
        # a weight-only kernel under an activation-quantized scheme is a fallback, not a yes
        ("new", "1.10.0", "CPU", "no", "no", True), ("new", "1.10.0", "GPU", "no", "no", True)]
    assert [(s.row, s.column, s.first_published, s.first_disagreeing, s.last_checked, s.checked, s.disagreeing,
             s.disagrees_now, s.findings) for s in views.disagreement_spans] == [
        ("W4A8", "CPU", "1.9.0", "1.9.0", "1.10.0", 2, 1, False, ()),
        ("W4A8", "GPU", "1.9.0", "1.9.0", "1.10.0", 2, 1, False, ("explained",))]


def test_a_selection_the_read_code_shows_failing_after_it_is_no_in_the_read_release_and_unchecked_before():
    # The harness stops at selection: on CPU it sees KWeightOnly chosen in both releases. The scheme's derived cell,
    # read at 1.10.0, selects the same kernel and then fails (its op is built only for x86): "no" in 1.10.0, and in
    # 1.9.0, whose code was not read, not checked.
    only_x86 = {"description": "op not built for Arm", "when": {"cpu_arch": ["aarch64"]}, "effect": "excludes"}
    records = {**RECORDS, "engine/eng": {"name": "Engine", "version_read": "1.10.0"},
               "scheme/sch": {**RECORDS["scheme/sch"], "config": {}, "candidates": [
                   {"platform": "cpu", "kernels": ["k-weight-only"], "failure_message": "none"}]},
               "kernel/k-weight-only": {**RECORDS["kernel/k-weight-only"], "requirements": [],
                                        "external_gates": [only_x86]},
               "observation/eng-1-9-0-h1": observation("1.9.0", 1, [cell("cpu", "runs", [run("KWeightOnly")], "KWeightOnly")]),
               "support-matrix/old": matrix(["1.9.0", "1.10.0"], "N")}
    views = atlas_of(records).views
    assert views.cells[("sch", "cpu")].verdict == "fails-at-runtime"
    assert [(c.release, c.observed, c.checked, c.agrees) for c in views.release_claims if c.column == "CPU"] == [
        ("1.9.0", "unknown", False, True), ("1.10.0", "no", True, True)]
    assert [s.column for s in views.disagreement_spans] == []  # GPU: unmapped scheme platform, never a yes either


def test_a_run_handed_to_another_scheme_class_is_not_the_scheme_as_specified():
    records = {**RECORDS, "scheme/sch": {**RECORDS["scheme/sch"], "class_name": "CompressedTensorsW4A8"},
               "observation/eng-1-9-0-h1": observation("1.9.0", 1, [
                   cell("gpu", "runs", [run("KHopper", scheme_class="CompressedTensorsW4A16")], "KHopper")]),
               "support-matrix/old": matrix(["1.9.0"], "N")}
    claims = atlas_of(records).views.release_claims
    assert [(c.release, c.column, c.observed) for c in claims if c.release == "1.9.0"] == [
        ("1.9.0", "CPU", "none"), ("1.9.0", "GPU", "no")]


HOSTILE = 'A </title><script>alert(1)</script> & "trap" \x01'


def entries(records: dict) -> list:
    atlas = atlas_of(records)
    commit = CommitChange("a" * 40, "2026-12-01T10:00:00+01:00", HOSTILE,
                          (CellChange("sch", "gpu", "refused", "runs", "", "via k-hopper"),
                           CellChange("sch", "gone", "runs", "(absent)", "via k-hopper", "")), (),
                          (RecordChange("gotcha", "hostile", "added"),))
    return changelog(atlas.index, atlas.views.flips, atlas.views.release_claims, (commit,))


def test_changelog_lists_commits_and_releases_newest_first_with_dates_from_the_data():
    records = {**RECORDS, "gotcha/hostile": {"name": HOSTILE},
               "source/sdist": {"name": "sdist", "package": "eng==1.10.0", "published": "2026-11-02"},
               "source/older": {"name": "older sdist", "package": "eng==1.9.0", "published": "2026-10-01"}}
    got = entries(records)
    assert [(e.key, e.date, e.origin) for e in got] == [
        ("commit-aaaaaaaaaaaa", "2026-12-01T10:00:00+01:00", "records"),
        ("release-eng-1.10.0", "2026-11-02", "engine release"),
        ("release-eng-1.9.0", "2026-10-01", "engine release")]
    assert [(i.kind, i.text, i.refs) for i in got[0].items] == [
        ("flip", "sch on gpu: refused → runs (via k-hopper)", ("scheme/sch", "hardware-target/gpu")),
        ("flip", "sch: 1 removed cell (runs 1)", ("scheme/sch",)),  # a target removed since links nowhere
        ("trap", f"new trap: {HOSTILE}", ("gotcha/hostile",)),
        ("record", "1 record(s) added, removed or edited (gotcha)", ("gotcha/hostile",))]
    flips = [(i.text, i.detail) for i in got[1].items if i.kind == "flip"]
    assert flips[0] == ("sch on cpu: runs via KHopper → runs via KWeightOnly (KHopper is no longer asked in 1.10.0)", ())
    assert flips[1][0] == "sch on gpu: runs via KHopper → refused (kernel-selection)"  # several reasons: folded
    assert flips[1][1][0] == "1.10.0 refuses KHopper.can_implement refused: needs capability 90" and len(flips[1][1]) > 1


def test_a_new_trap_is_named_once_on_the_page_as_its_link_and_in_full_in_the_feed():
    got = entries({**RECORDS, "gotcha/hostile": {"name": HOSTILE}})
    item = next(i for i in got[0].items if i.kind == "trap")
    markup = str(item_markup(item, ValueRenderer({}, {"gotcha/hostile": HOSTILE}, "chapters/changelog.md")))
    assert markup.startswith("new trap: [") and markup.count("alert") == 1  # the name once: the link's text
    assert "<script>" not in markup and "../gotchas/hostile.md" in markup
    flip = next(i for i in got[0].items if i.kind == "flip")  # an item without a lead keeps its text and its links,
    shown = str(item_markup(flip, ValueRenderer({}, {}, "chapters/changelog.md")))  # its verdicts drawn as badges
    assert shown.startswith('sch on gpu: <span class="verdict verdict-refused"') and "→ <span class=\"verdict verdict-runs\"" in shown
    assert shown.endswith("(../hardware-targets/gpu.md)")
    content = next(ET.fromstring(atom_feed(got).encode("utf-8")).iter(f"{{{ATOM}}}entry")).findtext(f"{{{ATOM}}}content")
    assert "new trap: " + html.escape(HOSTILE.replace("\x01", "")) in content  # the feed keeps the whole text


def test_the_feed_is_atom_with_every_entry_and_the_hostile_text_escaped():
    feed = atom_feed(entries({**RECORDS, "gotcha/hostile": {"name": HOSTILE}}))
    root = ET.fromstring(feed.encode("utf-8"))  # parses: nothing from the records broke the XML
    assert root.tag == f"{{{ATOM}}}feed"
    assert root.findtext(f"{{{ATOM}}}updated") == "2026-12-01T09:00:00Z"  # the newest entry's date, not the build's
    titles = [e.findtext(f"{{{ATOM}}}title") for e in root.iter(f"{{{ATOM}}}entry")]
    assert titles == ["records: " + HOSTILE.replace("\x01", ""), "engine release: eng 1.10.0", "engine release: eng 1.9.0"]
    content = next(root.iter(f"{{{ATOM}}}entry")).findtext(f"{{{ATOM}}}content")
    assert "sch on gpu: refused → runs" in content and "<script>" not in content and "&lt;script&gt;" in content
    assert "<script>" not in feed and "\x01" not in feed
    assert feed == atom_feed(entries({**RECORDS, "gotcha/hostile": {"name": HOSTILE}}))  # deterministic


def test_a_commit_that_changes_what_a_cell_needs_or_runs_otherwise_lists_each_term_and_the_feed_escapes_it():
    atlas = atlas_of(RECORDS)
    step = OtherwiseStep("package p installed", "k-hopper", "RUNS via k-weight-only")
    words = "unless package p installed (for k-hopper): RUNS via k-weight-only"
    change = CommitChange("b" * 40, "2026-12-01T11:00:00+00:00", "terms", (
        CellChange("sch", "gpu", "runs-if", "runs-if", "via k-hopper", "via k-hopper",
                   ("package p installed",), (HOSTILE,), (step,), ()),
        CellChange("sch", "cpu", "runs", "runs-if", "via k-hopper", "via k-hopper", (), ("package p installed",),
                   (), (step,)),
        CellChange("sch", "big", "runs-if", "runs-if", "via k-hopper", "via k-hopper", ("package p installed",),
                   ("package p installed",), (step,), (OtherwiseStep("package p installed", "k-hopper", "REFUSED"),))),
        (), ())
    got = changelog(atlas.index, [], [], (change,))[0]
    refs = ("scheme/sch", "hardware-target/gpu")
    cpu = ("scheme/sch", "hardware-target/cpu")
    assert [(i.kind, i.text, i.refs, i.detail) for i in got.items] == [
        ("conditions", "sch on gpu (still runs-if via k-hopper): what must hold changed", refs,
         ("before: package p installed", f"after: {HOSTILE}")),
        ("otherwise", "sch on gpu (still runs-if via k-hopper): what runs otherwise changed", refs,
         (f"before: {words}", "after: no step")),
        ("flip", "sch on cpu: runs → runs-if (via k-hopper)", cpu, ()),
        ("conditions", "sch on cpu: what must hold changed", cpu, ("before: nothing", "after: package p installed")),
        ("otherwise", "sch on cpu: what runs otherwise changed", cpu, ("before: no step", f"after: {words}")),
        # the same condition failing, another outcome: only that step, once
        ("otherwise", "sch on big (still runs-if via k-hopper): what runs otherwise changed", ("scheme/sch",),
         ("unless package p installed (for k-hopper): RUNS via k-weight-only → REFUSED",))]
    content = ET.fromstring(atom_feed([got]).encode("utf-8")).find(f"{{{ATOM}}}entry").findtext(f"{{{ATOM}}}content")
    assert "<li>after: A &lt;/title&gt;&lt;script&gt;" in content and "<script>" not in content


def test_a_long_subject_is_cut_for_the_heading_and_shown_whole_and_counts_say_new_or_removed():
    from generators.derive.changelog import HEADLINE, headline
    from generators.diff_model import CountChange
    subject = "a runs-if cell now says what runs when its conditions do not hold, " * 3 + HOSTILE
    counts = (CountChange("acc-new", "native formats", None, 0), CountChange("acc-old", "native formats", 3, None),
              CountChange("acc-same", "native formats", 2, 3))
    got = changelog(atlas_of(RECORDS).index, [], [], (CommitChange("c" * 40, "2026-12-01T12:00:00+00:00", subject,
                                                                   (), counts, ()),))[0]
    assert got.title == headline(subject) and got.title.endswith("…") and len(got.title) <= HEADLINE + 1
    assert subject.startswith(got.title[:-1]) and got.description == subject
    assert [i.text for i in got.items] == ["acc-new, native formats: 0 (new)", "acc-old, native formats: 3 → (removed)",
                                           "acc-same, native formats: 2 → 3"]
    short = changelog(atlas_of(RECORDS).index, [], [], (CommitChange("d" * 40, "2026-12-01T12:00:00+00:00", "short",
                                                                     (), (), ()),))[0]
    assert (short.title, short.description) == ("short", "")
    content = ET.fromstring(atom_feed([got]).encode("utf-8")).find(f"{{{ATOM}}}entry").findtext(f"{{{ATOM}}}content")
    assert content.startswith("<p>a runs-if cell") and "&lt;script&gt;" in content and "<script>" not in content


def test_the_page_folds_a_change_s_before_and_after_and_escapes_them():
    import markdown

    from generators.render import environment, names_of, render_page
    from tests.memory_atlas import ROOT
    atlas = atlas_of(RECORDS)
    atlas.commits = (CommitChange("e" * 40, "2026-12-01T12:00:00+00:00", "terms " * 30, (
        CellChange("sch", "gpu", "runs-if", "runs-if", "via k-hopper", "via k-hopper", ("package p installed",),
                   (HOSTILE,), (), ()),), (), ()),)
    problems: list = []
    text = render_page(environment(ROOT / "docs"), atlas, "chapters/changelog.md.j2", "chapters/changelog.md",
                       names_of(atlas), {}, problems)
    assert problems == []
    page = markdown.markdown(text, extensions=["admonition", "pymdownx.details", "attr_list", "toc"])
    folded = page.split("what must hold changed", 1)[1].split("</details>", 1)[0]
    assert '<details class="note">' in folded and "<summary>Details</summary>" in folded
    assert "after: A &lt;/title&gt;&lt;script&gt;" in folded and "<script>" not in page
    heading = page.split("<a id=", 1)[1].split("<h2", 1)[1].split("</h2>", 1)[0]  # (the entry after its anchor)
    assert heading.endswith("terms…") and len(heading.split(">", 1)[1]) <= 91  # the whole subject follows it


def test_cells_that_appear_or_go_are_one_item_per_scheme_with_each_target_folded():
    atlas = atlas_of(RECORDS)
    new = [CellChange("sch", target, "(absent)", verdict, "", detail)
           for target, verdict, detail in (("cpu", "runs", "via k-hopper"), ("big", "runs-if", "via k-hopper"),
                                           ("gone", "runs", "via k-hopper"))]
    change = CommitChange("c" * 40, "2026-12-01T12:00:00+00:00", "a new row", (
        *new, CellChange("sch", "gpu", "refused", "runs", "k: no", "via k-hopper")), (), ())
    items = changelog(atlas.index, [], [], (change,))[0].items
    assert [(i.text, i.detail) for i in items if i.kind == "flip"] == [
        ("sch on gpu: refused → runs (via k-hopper)", ()),  # a flip of a cell that was there comes first, alone
        ("sch: 3 new cells (runs 2, runs-if 1)",
         ("cpu: runs (via k-hopper)", "big: runs-if (via k-hopper)", "gone: runs (via k-hopper)"))]


def test_release_order_of_dotted_releases_and_their_suffixes_is_pinned():
    """The order these release strings had before llama.cpp build names were ordered by number; it must not move
    (whatever it does with rc, post, local and pre-release suffixes)."""
    pinned = ["v1.4.1", "0.2.0rc2", "0.3.2", "0.3.36", "0.9.0", "0.10.0rc1", "0.10.0", "0.10.0+cu128", "0.10.0.post1",
              "0.10.0-rc1", "0.10.1", "0.16.1", "0.18.0", "0.22.0", "0.23.0", "0.30.0", "0.33.0", "0.47.0", "1.0.0a1",
              "1.0.0b1", "1.0.0.dev0", "1.32.0", "2.0", "10"]
    for shuffled in (pinned[::-1], pinned[1::2] + pinned[::2]):
        assert sorted(shuffled, key=release_key) == pinned
    assert len({release_key(r) for r in pinned}) == len(pinned)


def test_llama_cpp_builds_order_by_their_number():
    builds = ["b11312", "b10040", "b9999", "b10588", "b10039", "b100"]
    assert sorted(builds, key=release_key) == ["b100", "b9999", "b10039", "b10040", "b10588", "b11312"]
    assert release_key("b10040") == release_key("b10040") and release_key("b9999") < release_key("b10040")
    # only a whole build name is read as one: a suffix such as '-b10' keeps the order it had
    assert sorted(["1.0.0-b2", "1.0.0-b10"], key=release_key) == ["1.0.0-b10", "1.0.0-b2"]


def test_a_commit_entry_links_the_records_it_changed_that_still_exist_at_most_twelve():
    records = {**RECORDS, **{f"gotcha/g{n:02}": {"name": f"Trap {n}"} for n in range(14)}}
    atlas = atlas_of(records)
    changes = tuple(RecordChange("gotcha", f"g{n:02}", "changed") for n in range(14)) + (
        RecordChange("gotcha", "gone", "removed"),)
    commit = CommitChange("b" * 40, "2026-12-02T10:00:00+00:00", "edit traps", (), (), changes)
    entry = changelog(atlas.index, atlas.views.flips, atlas.views.release_claims, (commit,))[0]
    item = next(i for i in entry.items if i.kind == "record")
    assert item.text == "15 record(s) added, removed or edited (gotcha); the first 12 that still exist are linked"
    assert item.refs == tuple(f"gotcha/g{n:02}" for n in range(12))


def test_a_flip_to_a_fallback_a_default_install_does_not_reach_reads_fallback_if_in_the_item_and_the_feed():
    """Every surface reads such a cell "Fallback if" (Cell.label); the changelog drew its verdict's "Fallback"."""
    atlas = atlas_of(RECORDS)
    change = CommitChange("c" * 40, "2026-12-02T11:00:00+00:00", "label", (
        CellChange("sch", "cpu", "refused", "fallback", "no kernel", "via k-hopper", new_label="Fallback if"),), (), ())
    got = changelog(atlas.index, [], [], (change,))[0]
    assert [i.text for i in got.items] == ["sch on cpu: refused → fallback if (via k-hopper)"]
    drawn = str(item_markup(got.items[0], ValueRenderer({}, {}, "chapters/changelog.md", {})))
    assert ">Fallback if</span> \\(via k-hopper\\)" in drawn and "</span> if" not in drawn  # its badge, "if" once
    assert "refused → fallback if" in atom_feed([got])


def test_cells_that_appear_or_go_are_tallied_and_listed_as_their_readers_read_them():
    """A new or removed cell read "Fallback if" (Cell.label) is counted and listed as "fallback if", apart from a
    fallback a default install reaches, as the flips and every other surface say it; the tally counted its verdict."""
    atlas = atlas_of(RECORDS)
    new = [CellChange("sch", "cpu", "(absent)", "fallback", "", "via k-hopper", new_label="Fallback if"),
           CellChange("sch", "gpu", "(absent)", "fallback", "", "via k-hopper")]
    gone = [CellChange("old", "cpu", "fallback", "(absent)", "via k-hopper", "", old_label="Fallback if")]
    change = CommitChange("c" * 40, "2026-12-02T12:00:00+00:00", "labels", (*new, *gone), (), ())
    items = changelog(atlas.index, [], [], (change,))[0].items
    assert [(i.text, i.detail) for i in items if i.kind == "flip"] == [
        ("old: 1 removed cell (fallback if 1)", ("cpu: fallback if (via k-hopper)",)),
        ("sch: 2 new cells (fallback 1, fallback if 1)",
         ("cpu: fallback if (via k-hopper)", "gpu: fallback (via k-hopper)"))]
