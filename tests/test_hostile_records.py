"""Hostile record content: numbers, control characters, ids, cascades and cost (issue 11, classes 3-4, 7-8).

Each test asserts the exact message and location.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from generators import load
from generators.build import run_pipeline
from generators.skeleton import SkeletonError, write_skeleton

from .conftest import write

CALIB = "records/techniques/calib.yaml"


def problems_in(tree: Path, rel: str) -> list[str]:
    return [str(p) for p in run_pipeline(tree).problems if p.file == rel]


def set_field(tree: Path, rel: str, old: str, new: str) -> None:
    path = tree / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


NUMBERS = [
    ("010", "'010' is read as an octal number by YAML 1.1; write it in decimal without the leading zero, "
            "or quote it (\"010\") if you mean text"),
    ("1:30", "'1:30' is read as a base-60 (sexagesimal) number by YAML 1.1; quote it (\"1:30\") if you mean text, "
             "or write the number in decimal"),
    ("1_000", "'1_000' is read by YAML 1.1 with its underscores dropped; write the number without underscores, "
              "or quote it (\"1_000\") if you mean text"),
    ("0b101", "'0b101' is read as a binary number by YAML 1.1; write it in decimal, or quote it (\"0b101\") if you mean text"),
    ("0x" + "f" * 300, "'0xffffffffff…ffff (302 characters)' is a hexadecimal number; write it in decimal, "
                       "or quote it if you mean text"),
    (".nan", "'.nan' is not a finite number; write a number, or leave the field out (and record the gap) "
             "if the value is unknown"),
    ("-.inf", "'-.inf' is not a finite number; write a number, or leave the field out (and record the gap) "
              "if the value is unknown"),
    ("9" * 400, "the number 999999999999…9999 (400 characters) is out of range; numbers in a record are at most "
                "10^15 in magnitude"),
    ("9" * 5000, "the number 999999999999…9999 (5000 characters) is out of range; numbers in a record are at most "
                 "10^15 in magnitude"),
    ("1.0e+999", "the number 1.0e+999 is out of range; numbers in a record are at most 10^15 in magnitude"),
]


@pytest.mark.parametrize("written, message", NUMBERS, ids=[n[0][:8] for n in NUMBERS])
def test_numbers_yaml_reads_otherwise_are_located_errors(tree, written, message):
    set_field(tree, "records/accelerators/acc-big.yaml", "{value: 4000,", f"{{value: {written},")
    assert problems_in(tree, "records/accelerators/acc-big.yaml") == [
        f"records/accelerators/acc-big.yaml:7:13: error: [load] {message}"]


def test_zero_bandwidth_is_a_schema_error_not_a_division_by_zero(tree):
    set_field(tree, "records/accelerators/acc-big.yaml", "{value: 4000,", "{value: 0,")
    assert problems_in(tree, "records/accelerators/acc-big.yaml") == [
        "records/accelerators/acc-big.yaml:7:13: error: [schema] memory_bandwidth_gbs[0].value: "
        "0 is less than or equal to the minimum of 0"]


@pytest.mark.parametrize("text, where, message", [
    ("name: X\x00\n", "1:8", "control character U+0000 is not allowed in a record; remove it"),
    ("name: X\nsummary: a\x1b[31mred\n", "2:11", "control character U+001B is not allowed in a record; remove it"),
    ('name: "a\\x1bb"\n', "1:7", "text contains the control character U+001B; remove it"),
    ('"k\\x07": v\n', "1:1", "text contains the control character U+0007; remove it"),
])
def test_control_characters_are_located_errors(tree, text, where, message):
    write(tree, CALIB, text)
    assert problems_in(tree, CALIB) == [f"{CALIB}:{where}: error: [load] {message}"]


@pytest.mark.parametrize("stem, message", [
    ("index", "file name 'index' is the name of the page the site generates for every kind (index.md); choose another id"),
    ("con", "file name 'con' is a reserved file name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9); choose another id"),
    ("lpt9", "file name 'lpt9' is a reserved file name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9); choose another id"),
    ("calib\n", "file name 'calib\\n' is not a valid id (lowercase letters and digits in groups joined by single hyphens)"),
])
def test_ids_that_collide_with_pages_or_reserved_names(tree, stem, message):
    rel = f"records/techniques/{stem}.yaml"
    write(tree, rel, (tree / CALIB).read_text())
    assert problems_in(tree, rel) == [f"{rel}:1:1: error: [load] {message}"]


def test_ids_colliding_by_case_or_normalisation(tree):
    write(tree, "records/techniques/Calib.yaml", (tree / CALIB).read_text())
    write(tree, "records/techniques/ｃalib.yaml", (tree / CALIB).read_text())  # fullwidth c: NFKC folds it to 'c'
    problems = [str(p) for p in run_pipeline(tree).problems if "alib.yaml" in p.file]
    collides = ("file name collides with records/techniques/calib.yaml on file systems that ignore case or Unicode "
                "normalisation (macOS, Windows); rename one")
    assert problems == [f"records/techniques/Calib.yaml:1:1: error: [load] {collides}",
                        f"records/techniques/ｃalib.yaml:1:1: error: [load] {collides}"]


@pytest.mark.parametrize("record_id, message", [
    ("index", "invalid id: 'index' is the name of the page the site generates for every kind (index.md); choose another id"),
    ("nul", "invalid id: 'nul' is a reserved file name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9); choose another id"),
    ("bad\n", "invalid id: 'bad\\n' is not a valid id (lowercase letters and digits in groups joined by single hyphens), "
              "e.g. my-format"),
])
def test_new_refuses_such_ids(tree, record_id, message):
    with pytest.raises(SkeletonError) as error:
        write_skeleton(tree, "format", record_id)
    assert str(error.value) == message
    assert not list((tree / "records/formats").glob("*\n*")) and not (tree / "records/formats/index.yaml").exists()


def test_trailing_newline_fails_schema_patterns(tree):
    set_field(tree, "records/accelerators/acc-big.yaml", 'compute_capability: "9.0"', 'compute_capability: "9.0\\n"')
    assert problems_in(tree, "records/accelerators/acc-big.yaml") == [
        "records/accelerators/acc-big.yaml:5:21: error: [schema] compute_capability: '9.0\\n' does not match "
        "'^[0-9]+\\\\.[0-9]+$(?!\\\\n)'"]


def test_a_record_that_fails_to_load_is_reported_once(tree):
    write(tree, "records/formats/fmt-int4.yaml", "name: [unclosed\n")  # five records reference fmt-int4
    assert [str(p) for p in run_pipeline(tree).problems] == [
        "records/formats/fmt-int4.yaml:2:1: error: [load] YAML syntax error: while parsing a flow sequence "
        "did not find expected ',' or ']'"]


def test_unique_items_is_linear_and_located(tree):
    aliases = ", ".join(f"alias-{n}" for n in range(20000)) + ", 7, alias-3"  # mixed types: jsonschema went pairwise
    set_field(tree, "records/formats/fmt-int4.yaml", "name: INT4 weight-only\n", f"name: INT4 weight-only\naliases: [{aliases}]\n")
    assert (tree / "records/formats/fmt-int4.yaml").stat().st_size > 200_000
    load._CACHE.clear()
    started = time.perf_counter()
    problems = problems_in(tree, "records/formats/fmt-int4.yaml")
    assert time.perf_counter() - started < 10
    assert "records/formats/fmt-int4.yaml:2:248904: error: [schema] aliases[20001]: repeats item 3; each item may appear " \
           "once in this list" in problems
