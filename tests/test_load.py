"""One test per YAML hazard: the exact message and location."""
from __future__ import annotations

from pathlib import Path

import pytest

from generators.build import check_tree
from generators.load import load_tree

from .conftest import write

VALID = "name: X\nsummary: S\ncategory: calibration\nsources:\n  - source: src-doc\n"


def only_problem(root, relative: str) -> str:
    _, problems = load_tree(root)
    mine = [str(p) for p in problems if p.file == relative]
    assert len(mine) == 1, mine
    return mine[0]


@pytest.mark.parametrize("text, expected", [
    ("name: X\nsummary: [unclosed\n", "3:1: error: [load] YAML syntax error: while parsing a flow sequence did not find expected ',' or ']'"),
    ("name: X\nname: Y\n", "2:1: error: [load] duplicate key 'name' (first defined at line 1); a key may appear once per mapping"),
    ("name: &a X\nsummary: *a\n", "1:7: error: [load] anchors are not allowed (found '&a'); write the value out in full"),
    ("name: !!python/object:os.system X\n", "1:7: error: [load] YAML tags are not allowed (found 'tag:yaml.org,2002:python/object:os.system'); records hold plain data only"),
    ("name: !custom X\n", "1:7: error: [load] YAML tags are not allowed (found '!custom'); records hold plain data only"),
    ("name: X\n1: one\n", "2:1: error: [load] keys must be strings, found '1' read as an integer; quote it or rename it"),
    ("name: X\n? [a, b]\n: v\n", "2:3: error: [load] keys must be strings, found 'a sequence' read as a sequence; quote it or rename it"),
    ("- a\n- b\n", "1:1: error: [load] a record must be a mapping of field names to values, found a list"),
    ("just text\n", "1:1: error: [load] a record must be a mapping of field names to values, found a single value"),
    ("", "1:1: error: [load] file is empty; a record needs at least the fields its schema requires"),
    ("\n# only a comment\n", "1:1: error: [load] file is empty; a record needs at least the fields its schema requires"),
    ("name: X\nsilent: yes\n", "2:9: error: [load] 'yes' is read as a boolean by YAML 1.1; write true or false, or quote it if you mean text"),
    ("id: other\n" + VALID, "1:1: error: [load] id 'other' differs from the file stem 'calib2'; rename the file or fix the id"),
])
def test_yaml_hazards(tree, text, expected):
    write(tree, "records/techniques/calib2.yaml", text)
    assert only_problem(tree, "records/techniques/calib2.yaml") == f"records/techniques/calib2.yaml:{expected}"


@pytest.mark.parametrize("text, expected", [
    ("name: X\nsummary: fixed by PR #123 in 0.9\n", "2:22: error: [load] comment after the value 'fixed by PR': YAML ends "
     "an unquoted value at ' #' and drops '#123 in 0.9'; quote the value if the '#' belongs to it, or put the comment "
     "on a line of its own"),
    ("name: X\nsources:\n  - source: src-doc  # the draft\n", "3:22: error: [load] comment after the value 'src-doc'"),
    ("name: X\naliases:\n  - a\n  - b\t# tab\n", "4:7: error: [load] comment after the value 'b'"),
    ("name: X\nsummary: two\n  lines # folded\n", "3:9: error: [load] comment after the value 'two lines'"),
])
def test_a_comment_after_an_unquoted_value_is_refused_where_it_starts(tree, text, expected):
    write(tree, "records/techniques/calib2.yaml", text)
    assert only_problem(tree, "records/techniques/calib2.yaml").startswith(f"records/techniques/calib2.yaml:{expected}")


def test_comments_that_drop_nothing_and_hashes_inside_text_load(tree):
    """A comment on its own line, after a key or a quoted value or a flow list, and `#` inside quoted, block or plain
    text (no blank before it) keep every character of every value."""
    text = ("# about this record\nname: 'X #1'\nsummary: \"see #2\"  # quoted: nothing dropped\n"
            "aliases: [a, b]  # after the list\nnotes: |\n  a block # keeps this\n"
            "category: calibration\nsources:  # the list follows\n  - source: src-doc\nunverified: C#-style\n")
    write(tree, "records/techniques/calib2.yaml", text)
    records, problems = load_tree(tree)
    assert [p for p in problems if p.file == "records/techniques/calib2.yaml"] == []
    data = next(r.data for r in records if r.id == "calib2")
    assert (data["name"], data["summary"], data["aliases"], data["notes"], data["unverified"]) == (
        "X #1", "see #2", ["a", "b"], "a block # keeps this\n", "C#-style")


def test_alias_without_anchor_in_same_document_is_rejected_at_the_alias(tree):
    write(tree, "records/techniques/calib2.yaml", "name: X\nsummary: *missing\n")
    problem = only_problem(tree, "records/techniques/calib2.yaml")
    assert problem.startswith("records/techniques/calib2.yaml:2:10: error: [load] aliases are not allowed (found '*missing')")


def test_non_utf8_reports_the_byte_and_its_position(tree):
    write(tree, "records/techniques/calib2.yaml", b"name: X\nsummary: caf\xe9\n")
    assert only_problem(tree, "records/techniques/calib2.yaml") == (
        "records/techniques/calib2.yaml:2:13: error: [load] file is not valid UTF-8 (byte 0xe9); save it as UTF-8")


def test_the_byte_check_finds_every_control_character_and_no_other():
    """load._may_hold_control (bytes) lets the text search run exactly when the text holds a character of CONTROL:
    every code point alone, and between ASCII text (the position a search would report is the regex's own)."""
    from generators import fast_yaml, load
    wrong = [point for point in range(0x110000) if not 0xD800 <= point <= 0xDFFF
             and load._may_hold_control(f"a{chr(point)}b".encode()) != bool(fast_yaml.CONTROL.search(chr(point)))]
    assert wrong == []


def test_unknown_kind_folder_suggests_the_close_one(tree):
    write(tree, "records/format/x.yaml", VALID)
    assert only_problem(tree, "records/format/x.yaml") == (
        "records/format/x.yaml:1:1: error: [load] unknown record folder 'format' (did you mean 'formats'?)")


def test_file_that_is_not_yaml(tree):
    write(tree, "records/formats/notes.txt", "hello")
    assert only_problem(tree, "records/formats/notes.txt") == (
        "records/formats/notes.txt:1:1: error: [load] 'notes.txt' is not a .yaml file; records are records/<kind>/<id>.yaml")


def test_yml_extension_is_rejected(tree):
    write(tree, "records/formats/x.yml", VALID)
    assert "is not a .yaml file" in only_problem(tree, "records/formats/x.yml")


def test_file_name_that_is_not_an_id(tree):
    write(tree, "records/techniques/Bad_Name.yaml", VALID)
    assert only_problem(tree, "records/techniques/Bad_Name.yaml") == (
        "records/techniques/Bad_Name.yaml:1:1: error: [load] file name 'Bad_Name' is not a valid id "
        "(lowercase letters and digits in groups joined by single hyphens)")


def test_matching_id_field_is_accepted_and_dropped(tree):
    write(tree, "records/techniques/calib2.yaml", "id: calib2\n" + VALID)
    records, problems = load_tree(tree)
    assert problems == []
    record = next(r for r in records if r.id == "calib2")
    assert "id" not in record.data and record.kind == "technique"


def test_dates_stay_text_and_positions_are_kept(tree):
    records, _ = load_tree(tree)
    finding = next(r for r in records if r.id == "cpu-cell-wrong")
    assert finding.data["verified_on"] == "2026-11-29"
    assert finding.position(("explains", 0, "column")) == (10, 54)


def test_every_hazard_is_reported_in_one_run(tree):
    write(tree, "records/techniques/a.yaml", "name: X\nname: Y\n")
    write(tree, "records/techniques/b.yaml", "")
    write(tree, "records/techniques/c.yaml", "x: !tag 1\n")
    _, problems = check_tree(tree)
    assert [p.file for p in problems] == ["records/techniques/a.yaml", "records/techniques/b.yaml", "records/techniques/c.yaml"]


def test_the_mini_tree_loads_clean(tree):
    records, problems = load_tree(tree)
    assert problems == []
    assert len(records) == 23


def test_an_edited_file_is_reparsed_and_an_unchanged_one_reused(tree):
    path = write(tree, "records/techniques/calib2.yaml", VALID)
    first, _ = load_tree(tree)
    again, _ = load_tree(tree)
    assert next(r for r in again if r.id == "calib2") is next(r for r in first if r.id == "calib2")
    write(tree, "records/techniques/calib2.yaml", VALID.replace("name: X", "name: Changed"))
    edited, _ = load_tree(tree)
    assert next(r for r in edited if r.id == "calib2").name == "Changed"
    write(tree, "records/techniques/calib2.yaml", "name: X\nname: Y\n")
    _, problems = load_tree(tree)
    assert [p.file for p in problems] == ["records/techniques/calib2.yaml"]
    assert path.exists()


def test_loading_a_past_commit_keeps_the_working_trees_parsed_records(tree: Path) -> None:
    """The changelog loads past commits' trees after the working tree's: each adds its entries to the parse cache and
    drops none, so the next build reads the unchanged records from it instead of parsing them all again."""
    from generators import load, revisions

    from .conftest import git
    git(tree, "init", "-q")
    git(tree, "add", "-A")
    git(tree, "commit", "-qm", "one")
    sha = git(tree, "rev-parse", "HEAD").strip()
    record = tree / "records/formats/fmt-fp4.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("summary: ", "summary: Edited. ", 1), encoding="utf-8")
    load.load_tree(tree)
    working = set(load.parse_cache().entries)
    load._STORED.clear()
    load.load_tree(tree, stored=revisions.GitTree(tree, sha, "", ("records",)))
    kept = set(load.parse_cache().entries)
    assert working < kept and len(kept - working) == 1  # the committed text of the edited record is added


def test_a_file_a_past_commit_holds_alike_is_one_record_for_both_trees(tree: Path) -> None:
    """Loading is a function of a file's path and bytes: the working tree and a past commit's tree share the record
    of each file they hold alike, and one that differs is loaded on its own, as a load without sharing loads it."""
    from generators import load, revisions

    from .conftest import git
    git(tree, "init", "-q")
    git(tree, "add", "-A")
    git(tree, "commit", "-qm", "one")
    sha = git(tree, "rev-parse", "HEAD").strip()
    edited = "records/formats/fmt-fp4.yaml"
    (tree / edited).write_text((tree / edited).read_text(encoding="utf-8").replace("summary: ", "summary: Edited. ", 1),
                               encoding="utf-8")
    load._STORED.clear()
    load._LOADED.clear()
    past, _ = load.load_tree(tree, stored=revisions.GitTree(tree, sha, "", ("records",)))
    working, problems = load.load_tree(tree)
    assert problems == []
    of_past = {r.path: r for r in past}
    assert [r.path for r in working if r is not of_past[r.path]] == [edited]
    assert of_past[edited].data["summary"] != next(r for r in working if r.path == edited).data["summary"]
    load._LOADED.clear()
    load._CACHE.clear()
    alone, _ = load.load_tree(tree)
    assert [(r.kind, r.id, r.path, r.data, r.text) for r in alone] == [(r.kind, r.id, r.path, r.data, r.text) for r in working]
