"""The fast paths of `check` give the answers of the slow ones: the compiled validator agrees with jsonschema
on every schema (real records and crafted bad ones), and the on-disk parse cache changes nothing but time."""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest
import yaml

from generators import load
from generators.cache import ContentCache, content_key
from generators.kinds import FOLDER_OF_KIND
from generators.model.atlas import Atlas
from generators.schemas import load_schemas, meta_valid_fast
from jsonschema import Draft202012Validator

from .conftest import write

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS, _ = load_schemas(ROOT / "schema")
PER_KIND = 3  # records per kind whose every field is mutated (keeps the sweep to a few seconds)
WRONG_VALUES: tuple[Any, ...] = (None, True, 0, -1, 1.5, "", "x", "2026-13-45", "not a uri", [], ["x"], [1, 1], {}, {"x": 1})


def real_records(atlas: Atlas, kind: str) -> list[dict[str, Any]]:
    """Every record of the kind, in file order, as the run's atlas loaded them (loading the files again here took
    a tenth of these tests)."""
    records = sorted(atlas.index.all(kind), key=lambda record: record.path)
    assert len(records) == len(list((ROOT / "records" / FOLDER_OF_KIND[kind]).glob("*.yaml")))
    return [record.data for record in records]


def shortened(data: dict[str, Any], keep: int = 2) -> dict[str, Any]:
    """The record with its long lists cut to their first items: mutating a 3,000-line observation costs
    a deep copy and a full slow validation per mutant, and the later items add no new field to mutate."""
    return {key: value[:keep] if isinstance(value, list) else value for key, value in data.items()}


def mutations(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Each field removed; each field (and each first list item's fields) replaced by wrong values; an unknown field."""
    yield {**data, "no_such_field": 1}
    for key, value in data.items():
        yield {k: v for k, v in data.items() if k != key}
        for wrong in WRONG_VALUES:
            yield {**data, key: wrong}
        if isinstance(value, list) and value and isinstance(value[0], dict):
            for field in value[0]:
                for wrong in WRONG_VALUES[:6]:
                    changed = copy.deepcopy(data)
                    changed[key][0][field] = wrong
                    yield changed
            changed = copy.deepcopy(data)
            changed[key].append(copy.deepcopy(value[0]))  # a duplicate item (uniqueItems)
            yield changed


@pytest.mark.parametrize("kind", sorted(FOLDER_OF_KIND))
def test_fast_validator_agrees_with_jsonschema(real_atlas: Atlas, kind: str) -> None:
    assert SCHEMAS is not None and kind in SCHEMAS.fast, "jsonschema-rs compiles every schema"
    slow, fast = SCHEMAS.validators[kind], SCHEMAS.fast[kind]
    records = real_records(real_atlas, kind)
    cases = records + [m for data in records[:PER_KIND] for m in mutations(shortened(data))]
    disagreements = []
    valid = invalid = 0
    for case in cases:
        expected = not any(True for _ in slow.iter_errors(case))
        valid, invalid = valid + expected, invalid + (not expected)
        if fast.is_valid(case) != expected:
            disagreements.append((expected, json.dumps(case, default=str)[:300]))
    assert disagreements == []
    assert valid >= len(records) and invalid > 0  # the sweep exercised both answers


def schema_cases() -> Iterator[Any]:
    for path in sorted((ROOT / "schema").glob("*.schema.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        yield document
        for broken in ({"type": "strin"}, {"minLength": -1}, {"required": "name"}, {"properties": []},
                       {"enum": "a"}, {"items": 3}, {"$defs": {"x": {"type": 1}}}, {"pattern": 5}):
            yield {**document, **broken}


def test_fast_metaschema_check_agrees_with_jsonschema():
    disagreements = [case for case in schema_cases()
                     if meta_valid_fast(case) and any(True for _ in Draft202012Validator(
                         Draft202012Validator.META_SCHEMA).iter_errors(case))]
    assert disagreements == []
    assert sum(meta_valid_fast(case) for case in schema_cases()) == len(list((ROOT / "schema").glob("*.schema.json")))


def test_parse_cache_is_used_and_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "tree"
    good = write(tree, "records/formats/one.yaml", "name: One\nweight_bits: 4\nnotes: [a, b]\n")
    write(tree, "records/formats/two.yaml", "name: Two\nname: again\n")
    first, first_problems = load.load_tree(tree)
    cached = load.parse_cache()
    assert list(cached.entries) == [content_key(good.read_bytes())]  # only clean parses are kept
    load._CACHE.clear()
    second, second_problems = load.load_tree(tree)
    assert [r.data for r in second] == [r.data for r in first] == [{"name": "One", "weight_bits": 4, "notes": ["a", "b"]}]
    assert second_problems == first_problems and "duplicate key" in first_problems[0].message
    assert second[0].position(("notes", 1)) == (3, 12)  # positions come back from the text, not the cache


def test_parse_cache_entry_for_other_bytes_is_never_used(tmp_path, monkeypatch):
    """A cached value is found only by the exact bytes it came from; edits and stale entries are parsed afresh."""
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "tree"
    path = write(tree, "records/formats/one.yaml", "name: One\n")
    load.load_tree(tree)
    load._CACHE.clear()
    path.write_text("name: One\nname: Two\n", encoding="utf-8")
    records, problems = load.load_tree(tree)
    assert records == [] and "duplicate key" in problems[0].message
    cached = load.parse_cache()
    assert cached.entries == {}  # the entry of the old bytes was not used, so it was dropped


def test_a_change_to_either_parser_empties_the_parse_caches(tmp_path, monkeypatch):
    """The fast path decides the data of most files: a fix to it must not leave data it read before in the cache."""
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(tmp_path / "cache"))
    assert {Path(p) for p in load._PARSERS} == {Path(load.__file__), Path(load.fast_yaml.__file__)}
    fast = tmp_path / "fast_yaml.py"
    fast.write_bytes(Path(load.fast_yaml.__file__).read_bytes())
    monkeypatch.setattr(load, "_PARSERS", (load.__file__, str(fast)))
    before = (load.parse_cache().salt, load.seen_cache().salt)
    fast.write_text(fast.read_text(encoding="utf-8") + "\n# a change\n", encoding="utf-8")
    after = (load.parse_cache().salt, load.seen_cache().salt)
    assert before[0] != after[0] and before[1] != after[1]


def test_parse_cache_ignores_a_broken_or_foreign_file(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / "t.json").write_text("{not json", encoding="utf-8")
    assert ContentCache("t", "salt", folder).entries == {}
    (folder / "t.json").write_text(json.dumps({"salt": "other", "entries": {"k": 1}}), encoding="utf-8")
    assert ContentCache("t", "salt", folder).entries == {}
    cache = ContentCache("t", "salt", folder)
    cache.put("k", {"a": 1})
    cache.save()
    assert ContentCache("t", "salt", folder).entries == {"k": {"a": 1}}
    assert [p.name for p in folder.iterdir()] == ["t.json"]  # no temporary file left behind


def test_parse_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("ATLAS_CACHE", "off")
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "tree"
    write(tree, "records/formats/one.yaml", "name: One\n")
    load.load_tree(tree)
    assert not (tmp_path / "cache").exists()


SCALARS = ("", "a", "Synthetic text", "yes", "Yes", "NO", "on", "Off", "true", "False", "~", "null", "Null", "1", "-1", "+1",
           "0x1f", "0o7", "0b101", "07", "1_000", "1.5", ".5", "-.inf", ".NaN", "1e3", "1.0e+3", "2024-01-01",
           "2024-1-1 10:00:00", "12:30", "190:20:30", "=", "<<", "-", ".", "n", "y", "Y", "?", "!x", "&a", "*a")


@pytest.mark.parametrize("implicit", [(True, False), (False, True), (False, False), (True, True)])
def test_the_fast_tag_resolver_gives_pyyaml_s_tags(implicit):
    ours, theirs = load._Loader(""), yaml.SafeLoader("")
    assert [ours.resolve(yaml.ScalarNode, v, implicit) for v in SCALARS] == \
           [theirs.resolve(yaml.ScalarNode, v, implicit) for v in SCALARS]


class _DatesAsText(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """PyYAML's safe loader with its own resolver and constructor, keeping dates as their text (as records do).

    Its parser is libyaml, as in `load` (the pure-Python parser took eight times as long and checked PyYAML's two
    parsers against each other, not our code): so a difference can only come from what `load` does itself, its
    implicit-tag resolver and its construction of values from nodes.
    """


_DatesAsText.add_constructor("tag:yaml.org,2002:timestamp", lambda loader, node: node.value)


def test_every_real_record_loads_to_what_pyyaml_builds():
    for path in sorted((ROOT / "records").rglob("*.yaml")):
        record, problems = load.load_file(ROOT, path)
        assert record is not None, problems
        expected = yaml.load(path.read_text(encoding="utf-8"), Loader=_DatesAsText)
        expected.pop("id", None)
        assert record.data == expected, path


def test_a_clean_check_never_imports_jsonschema(tree):
    """jsonschema builds the messages of records that fail; a clean tree is checked by jsonschema-rs alone (it costs
    a tenth of a second to import). A record that fails brings it in, and its message."""
    program = ("import sys; from pathlib import Path; from generators.build import check_tree; "
               "_, problems = check_tree(Path(sys.argv[1])); "
               "print(len(problems), any(m == 'jsonschema' or m.startswith('jsonschema.') for m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ATLAS_CACHE": "off"}
    clean = subprocess.run([sys.executable, "-c", program, str(tree)], env=env, capture_output=True, text=True, check=True)
    assert clean.stdout.split() == ["0", "False"]
    write(tree, "records/techniques/bad.yaml", "name: X\nsummary: S\ncategory: 7\nsources:\n  - source: src-doc\n")
    failing = subprocess.run([sys.executable, "-c", program, str(tree)], env=env, capture_output=True, text=True, check=True)
    count, imported = failing.stdout.split()
    assert int(count) > 0 and imported == "True"


def test_a_check_with_no_page_template_never_imports_jinja(tree):
    """`check` renders the chapters; a tree without a page template (the synthetic benchmark corpus) has none to
    render, so the render stage and Jinja are not imported, and the run's problems and pages are those of a run that
    renders. Which files are page templates is the render stage's own rule (render.chapter_templates)."""
    from generators import build, render
    program = ("import sys; from pathlib import Path; from generators.build import run_pipeline; "
               "run = run_pipeline(Path(sys.argv[1]), 'docs', record_pages=False); "
               "print(len(run.problems), len(run.pages), 'jinja2' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ATLAS_CACHE": "off"}
    with_chapter = subprocess.run([sys.executable, "-c", program, str(tree)], env=env, capture_output=True, text=True,
                                  check=True)
    assert with_chapter.stdout.split() == ["0", "1", "True"]
    assert build._page_templates(tree / "docs") and render.chapter_templates(tree / "docs") == ["chapters/demo.md.j2"]
    (tree / "docs" / "chapters" / "demo.md.j2").rename(tree / "docs" / "chapters" / "demo.md")
    without = subprocess.run([sys.executable, "-c", program, str(tree)], env=env, capture_output=True, text=True,
                             check=True)
    assert without.stdout.split() == ["0", "0", "False"]
    assert not build._page_templates(tree / "docs") and render.chapter_templates(tree / "docs") == []


def test_the_plain_url_shortcut_agrees_with_rfc3986_validator():
    """formats.is_uri answers plain http(s) addresses itself; each such answer is rfc3986-validator's too."""
    from rfc3986_validator import validate_rfc3986

    from generators import formats
    urls = sorted({r.data["url"] for r in (load.load_file(ROOT, p)[0] for p in (ROOT / "records" / "sources").glob("*.yaml"))
                   if r is not None and "url" in r.data})
    crafted = ["https://a.example/x?y=1#z", "http://h:80/", "https://h/a b", "https://h/%zz", "https://h/%41", "https://[::1]/",
               "https://h/<x>", "https://h/a\"b", "https://h\\x", "http://", "https://h:x/", "https://h/é", "https://h/a|b",
               "https://h/{x}", "https://h/a^b", "https://h/`x`", "https://u@h/", "HTTPS://H/", "mailto:a@b", "x", ""]
    shortcut = [url for url in urls + crafted if formats._PLAIN_URL.fullmatch(url)]
    assert len(shortcut) > len(urls) // 2  # most real addresses take the shortcut
    assert [url for url in shortcut if not validate_rfc3986(url, rule="URI")] == []
    assert [url for url in urls + crafted if formats.is_uri(url) != bool(validate_rfc3986(url, rule="URI"))] == []


def test_a_file_whose_status_is_unchanged_is_not_read_again(tmp_path, monkeypatch):
    """A new process finds an unchanged file's text and data in the on-disk cache by its status (times to the
    nanosecond, size, inode): a second check after one edit reads that file alone."""
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(load, "SETTLED_NS", -10**12)  # files written just now count as settled
    tree = tmp_path / "tree"
    for n in range(3):
        write(tree, f"records/formats/f{n}.yaml", f"name: F{n}\nweight_bits: {n}\nnotes: [a]\n")
    reads: list[str] = []
    original = load.tree_files.Reader.read_bytes

    def counting(self, rel, *args, **kwargs):
        reads.append(rel)
        return original(self, rel, *args, **kwargs)

    monkeypatch.setattr(load.tree_files.Reader, "read_bytes", counting)
    first, _ = load.load_tree(tree)
    assert len(reads) == 3
    load._CACHE.clear()  # as in a new process
    reads.clear()
    second, problems = load.load_tree(tree)
    assert reads == [] and problems == []
    assert [(r.id, r.data, r.text) for r in second] == [(r.id, r.data, r.text) for r in first]
    assert second[1].position(("notes", 0)) == (3, 9)  # positions come from the cached text
    write(tree, "records/formats/f1.yaml", "name: G1\nweight_bits: 1\nnotes: [a]\n")  # same size, new content
    load._CACHE.clear()
    reads.clear()
    third, _ = load.load_tree(tree)
    assert reads == ["records/formats/f1.yaml"] and third[1].data["name"] == "G1"


def test_a_file_changed_just_now_is_read_again_next_time(tmp_path, monkeypatch):
    """A file whose status is younger than its timestamps' resolution can change again unseen: it is not
    remembered by status (only by content), so the next run reads it."""
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "tree"
    write(tree, "records/formats/f.yaml", "name: F\n")
    load.load_tree(tree)
    load._CACHE.clear()
    assert load.seen_cache().entries == {}


def test_one_edit_does_not_rewrite_a_large_cache(tmp_path, monkeypatch):
    """After one edit in a large tree the cache files are not rewritten (that costs more than reading the one file
    again next time); the edited file is read and parsed again on each run until more has changed."""
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(load, "SETTLED_NS", -10**12)
    tree = tmp_path / "tree"
    for n in range(40):
        write(tree, f"records/formats/f{n}.yaml", f"name: F{n}\n")
    load.load_tree(tree)
    saved = {path.name: path.read_bytes() for path in (tmp_path / "cache").iterdir()}
    write(tree, "records/formats/f7.yaml", "name: G7\n")
    for _ in range(2):
        load._CACHE.clear()
        records, problems = load.load_tree(tree)
        assert problems == [] and records[[r.id for r in records].index("f7")].data == {"name": "G7"}
        assert {path.name: path.read_bytes() for path in (tmp_path / "cache").iterdir()} == saved
