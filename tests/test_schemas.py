"""The schemas themselves: valid, every property described, every reference findable, docs generated from them."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from collections.abc import Iterator

from generators.kinds import KINDS
from generators.render.reference_docs import kind_docs
from generators.schemas import load_schemas

ROOT = Path(__file__).resolve().parent.parent


def properties(schema: Any, where: str) -> Iterator[tuple[str, dict]]:
    if isinstance(schema, dict):
        for name, prop in schema.get("properties", {}).items():
            yield f"{where}.{name}", prop
        for key, value in schema.items():
            yield from properties(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for n, item in enumerate(schema):
            yield from properties(item, f"{where}[{n}]")


def test_schemas_load_and_cover_every_kind():
    schemas, problems = load_schemas(ROOT / "schema")
    assert problems == [] and schemas is not None
    assert set(schemas.validators) == set(KINDS)


def test_every_schema_property_has_a_description():
    schemas, _ = load_schemas(ROOT / "schema")
    undescribed = []
    for path in sorted((ROOT / "schema").glob("*.schema.json")):
        for where, prop in properties(json.loads(path.read_text()), path.name):
            described = "description" in prop or ("$ref" in prop and "description" in schemas.resolve(prop, path.name)[0])
            if not described:
                undescribed.append(where)
    assert undescribed == []


def test_every_api_schema_property_has_a_description():
    """The data API's own schemas (render/api_schemas.py) too: a property copied from a record points at the record
    schema's property (`records/<kind>.schema.json#/...`), whose description counts."""
    from generators.render.api_schemas import SCHEMAS
    schemas, _ = load_schemas(ROOT / "schema")
    assert schemas is not None
    undescribed = []
    for name, schema in SCHEMAS.items():
        for where, prop in properties(schema, name):
            record = {"$ref": prop["$ref"].removeprefix("records/")} if "$ref" in prop else None
            if "description" not in prop and (record is None or "description" not in schemas.resolve(record, name)[0]):
                undescribed.append(where)
    assert undescribed == []


def test_a_property_without_description_is_caught(tmp_path):
    (tmp_path / "x.schema.json").write_text(json.dumps({"properties": {"a": {"type": "string"}}}))
    assert [w for w, p in properties(json.loads((tmp_path / "x.schema.json").read_text()), "x") if "description" not in p] == ["x.a"]


def test_a_reference_under_a_combinator_is_refused(tmp_path):
    schema_dir = tmp_path / "schema"
    schema_dir.mkdir()
    for path in (ROOT / "schema").glob("*.schema.json"):
        (schema_dir / path.name).write_text(path.read_text())
    technique = json.loads((schema_dir / "technique.schema.json").read_text())
    technique["properties"]["category"] = {"description": "x", "anyOf": [{"type": "string", "x-ref": "format"}]}
    (schema_dir / "technique.schema.json").write_text(json.dumps(technique))
    schemas, problems = load_schemas(schema_dir)
    assert schemas is None
    assert [str(p) for p in problems] == [
        "schema/technique.schema.json:1:1: error: [schema] category: x-ref under a combinator cannot be linked; "
        "move it out of anyOf/oneOf/allOf"]


def test_a_broken_schema_is_reported_not_raised(tmp_path):
    schema_dir = tmp_path / "schema"
    schema_dir.mkdir()
    for path in (ROOT / "schema").glob("*.schema.json"):
        (schema_dir / path.name).write_text(path.read_text())
    (schema_dir / "format.schema.json").write_text('{"type": "object",\n "properties": }')
    (schema_dir / "engine.schema.json").write_text('{"type": 12}')
    _, problems = load_schemas(schema_dir)
    assert [str(p) for p in problems] == [
        "schema/engine.schema.json:1:1: error: [schema] type: not a valid draft 2020-12 schema: 12 is not valid under any of the given schemas",
        "schema/format.schema.json:2:16: error: [schema] invalid JSON: Expecting value",
    ]


def test_fields_page_lists_every_property_of_every_kind(real_atlas):
    atlas = real_atlas
    docs = {d.kind: {f.name for f in d.fields if "." not in f.name and "[" not in f.name} for d in kind_docs(atlas.schemas)}
    for kind in KINDS:
        schema = json.loads((ROOT / "schema" / f"{kind}.schema.json").read_text())
        assert docs[kind] == set(schema["properties"])


def test_fields_page_documents_nested_fields_and_shared_blocks(real_atlas):
    from generators.render.reference_docs import shared_docs
    atlas = real_atlas
    kernel = next(d for d in kind_docs(atlas.schemas) if d.kind == "kernel")
    check = next(f for f in kernel.fields if f.name == "requirements[].check")
    assert not check.required and check.type.startswith("one of platform, capability-min")
    assert check.description.startswith("Required unless the requirement `uses` a runtime check")
    assert next(f for f in kernel.fields if f.name == "requirements[].reason").required
    citation = next(d for d in shared_docs(atlas.schemas) if d.kind == "citation")
    assert [(f.name, f.required) for f in citation.fields] == [("source", True), ("locator", False), ("quote", False), ("value", False),
                                                          ("difference", False), ("platforms", False)]


def test_the_same_schema_texts_compile_once_and_a_changed_one_is_read_again(tree: Path) -> None:
    from generators.build import check_tree
    first, _ = load_schemas(tree / "schema")
    again, _ = load_schemas(tree / "schema")
    assert first is not None and again is first  # the changelog's past trees and serve's rebuilds reuse it
    assert not check_tree(tree)[1] and first.valid  # records found valid are remembered with these schemas
    path = tree / "schema" / "format.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    # A field no other test requires: the valid-records table on disk is shared by the run's tests, and a schema text
    # another test also wrote would come with the texts that test found valid under it.
    schema["required"] = [*schema.get("required", []), "field_only_test_schemas_requires"]
    path.write_text(json.dumps(schema), encoding="utf-8")
    changed, _ = load_schemas(tree / "schema")
    assert changed is not None and changed is not first and not changed.valid
    assert any("field_only_test_schemas_requires" in str(p) for p in check_tree(tree)[1])  # valid before, not now


def test_a_forced_walk_is_stated_only_on_a_list_the_scheme_types():
    # `forced` says how the engine walks the list (vLLM's weight-only NVFP4 selection), so a list that names the
    # engine's list or marks the platform as having no path states none of its own, as with promotions and filters.
    schemas, _ = load_schemas(ROOT / "schema")
    assert schemas is not None
    forced = {"kernels": [{"kernel": "vllm-marlin-nvfp4"}], "failure_message": "Forced kernel", "locator": "init"}
    typed = {"platform": "cuda", "kernels": ["vllm-marlin-nvfp4"], "selector": "s", "locator": "l",
             "failure_message": "f", "forced": forced}
    named = {"platform": "cuda", "list": "cuda-walk", "forced": forced}
    unrun = {"platform": "metal", "kernels": [], "no_path": True, "forced": forced}

    def excluded(candidates: dict) -> list[list[str]]:  # the field pairs the list states that exclude each other
        schema = schemas.validators["scheme"].schema["properties"]["candidates"]["items"]
        validator = schemas.validators["scheme"].evolve(schema=schema)
        return [e.validator_value["required"] for e in validator.iter_errors(candidates) if e.validator == "not"]

    assert excluded(typed) == []
    assert excluded(named) == [["list", "forced"]] and excluded(unrun) == [["no_path", "forced"]]


def test_a_requirement_states_one_value_or_a_list_of_values_never_both():
    # a kernel page shows what a requirement tests in one column beside its check (render/pages.py _requirements_table):
    # a `value` and a `values` on one requirement would have to share that cell, and no reader could tell which is meant
    schemas, _ = load_schemas(ROOT / "schema")
    assert schemas is not None
    schema = schemas.validators["kernel"].schema["properties"]["requirements"]["items"]
    validator = schemas.validators["kernel"].evolve(schema=schema)

    def excluded(requirement: dict) -> list[list[str]]:
        return [e.validator_value["required"] for e in validator.iter_errors(requirement) if e.validator == "not"]

    assert excluded({"check": "capability-min", "value": 80}) == [] == excluded({"check": "platform", "values": ["cuda"]})
    assert excluded({"check": "capability-min", "value": 80, "values": [80, 90]}) == [["value", "values"]]
