"""The record types generated from the schemas: current, complete, and what makes a misspelt field a type error."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from generators import typegen
from generators.kinds import KINDS
from generators.model import fields

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schema"


def _schema(kind: str) -> dict:
    return json.loads((SCHEMA / f"{kind}.schema.json").read_text(encoding="utf-8"))


def _property_names(node: object) -> set[str]:
    names: set[str] = set()
    if isinstance(node, dict):
        names |= set(node.get("properties", {}))
        for value in node.values():
            names |= _property_names(value)
    elif isinstance(node, list):
        for value in node:
            names |= _property_names(value)
    return names


def test_the_generated_module_is_current():
    assert typegen.is_current(SCHEMA), "generators/model/fields.py is stale: run `python -m generators types`"


def test_a_schema_change_makes_the_module_stale(tmp_path):
    for source in SCHEMA.glob("*.json"):
        (tmp_path / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    schema = _schema("format")
    schema["properties"]["new_field"] = {"type": "string"}
    (tmp_path / "format.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    assert not typegen.is_current(tmp_path)
    assert "    new_field: NotRequired[str]\n" in typegen.render_module(tmp_path)


def test_each_kind_has_a_typed_dict_with_exactly_its_schema_fields():
    for kind in KINDS:
        typed = getattr(fields, typegen.kind_type_name(kind))
        assert set(typed.__annotations__) == set(_schema(kind)["properties"]), kind


def _data_keys(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, key) for every string-literal key read from a `.data` mapping: x.data["k"], x.data.get("k"), "k" in x.data."""
    def is_data(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "data"

    found = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Subscript) and is_data(node.value):
            key = node.slice
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and is_data(node.func.value) and node.args):
            key = node.args[0]
        elif isinstance(node, ast.Compare) and any(is_data(c) for c in node.comparators):
            key = node.left
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            found.append((node.lineno, key.value))
    return found


def test_every_literal_field_read_from_record_data_is_a_schema_field():
    # mypy checks `data["k"]` against the TypedDict but lets `data.get("k")` through; this closes that gap.
    known = set().union(*(_property_names(_schema(kind)) for kind in KINDS))
    known |= _property_names(json.loads((SCHEMA / "defs.schema.json").read_text(encoding="utf-8")))
    unknown = [f"{path.relative_to(ROOT)}:{line}: {key!r}"
               for path in sorted((ROOT / "generators").rglob("*.py"))
               for line, key in _data_keys(ast.parse(path.read_text(encoding="utf-8")))
               if key not in known]
    assert unknown == []


def test_the_scan_sees_a_misspelt_get():
    assert _data_keys(ast.parse('r.data.get("peak_precison")\n"x" in r.data\nr.data["y"]')) == [
        (1, "peak_precison"), (2, "x"), (3, "y")]


def test_mypy_rejects_a_misspelt_field_of_a_typed_lookup(tmp_path):
    snippet = tmp_path / "snippet.py"
    snippet.write_text(
        "from generators.model.index import Index\n\n\n"
        "def peak(index: Index) -> object:\n"
        '    return [f.data["peak_precison"] for f in index.all("format")]\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull, str(snippet)],
        capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "MYPYPATH": str(ROOT)}, timeout=120)
    assert result.returncode == 1
    assert 'TypedDict "FormatFields" has no key "peak_precison"' in result.stdout
