"""Skeleton records: `write_skeleton(root, kind, id)` writes a record with every required field, valid as written.

Placeholder values are derived from the kind's JSON Schema (with `$ref` resolved into
`defs.schema.json`): enums take their first value, text "TODO: <field>", numbers their minimum
or 0, dates today, arrays one valid item when they need one, and references the first existing
record of the referenced kind (a source cites itself). The file passes `python -m generators
check` until the contributor replaces the TODOs.
"""
from __future__ import annotations

import datetime
import difflib
import json
import os
import re
from pathlib import Path
from typing import Any

import yaml

from . import tree_files
from .kinds import FOLDER_OF_KIND
from .load import ID_PATTERN, id_problem

HEADER = "# Skeleton written by `python -m generators new {kind} {id}`: replace every TODO, then run `python -m generators check`.\n"
_FIRST_KEYS = ("name", "summary")
_LAST_KEYS = ("sources",)


class SkeletonError(Exception):
    """A user error: unknown kind, invalid id, existing record, or an unreadable schema."""


def write_skeleton(root: Path, kind: str, record_id: str) -> Path:
    """Write records/<folder>/<id>.yaml for `kind` with valid placeholders for every required field; return its path."""
    root = Path(root)
    if kind not in FOLDER_OF_KIND:
        close = difflib.get_close_matches(kind, list(FOLDER_OF_KIND) + list(FOLDER_OF_KIND.values()), n=1)
        hint = f" (did you mean {_kind_of(close[0])!r}?)" if close else ""
        raise SkeletonError(f"unknown kind {kind!r}{hint}; kinds are: {', '.join(sorted(FOLDER_OF_KIND))}")
    why = id_problem(record_id)
    if why:
        raise SkeletonError(f"invalid id: {why}" + (", e.g. my-format" if not ID_PATTERN.fullmatch(record_id) else ""))
    rel = f"records/{FOLDER_OF_KIND[kind]}/{record_id}.yaml"
    if os.path.lexists(root / rel):
        raise SkeletonError(f"{rel} already exists; edit it or choose another id")
    data = skeleton_data(root, kind, record_id)
    try:  # never through a symbolic link: a linked kind folder would write outside the repository
        tree_files.write_new_file(root, rel, (HEADER.format(kind=kind, id=record_id) + dump_yaml(data)).encode("utf-8"))
    except tree_files.Refused as refused:
        raise SkeletonError(str(refused)) from None
    return root / rel


def skeleton_data(root: Path, kind: str, record_id: str) -> dict[str, Any]:
    """The placeholder record (without `id`) for `kind`, built from its schema (pure apart from reading schemas and ids)."""
    schema_dir = Path(root) / "schema"
    schema = _read_json(schema_dir / f"{kind}.schema.json")
    defs = _read_json(schema_dir / "defs.schema.json") if (schema_dir / "defs.schema.json").exists() else {}
    builder = _Builder(defs, _existing_ids(Path(root)), kind, record_id)
    data = builder.value(schema, kind)
    if kind == "support-matrix":
        symbol = data["legend"][0]["symbol"]
        data["cells"] = [[symbol for _ in data["columns"]] for _ in data["rows"]]
    return _ordered(data)


def dump_yaml(data: dict[str, Any]) -> str:
    """Block-style YAML; strings YAML 1.1 would misread (yes, no, on, off, dates, numbers) come out quoted."""
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True, width=100)


class _Builder:
    def __init__(self, defs: dict[str, Any], ids: dict[str, list[str]], kind: str, record_id: str):
        self.defs, self.ids, self.kind, self.record_id = defs, ids, kind, record_id

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            ref = schema["$ref"]
            target = ref.split("#", 1)[1] if "#" in ref else ""
            node: Any = self.defs
            for part in [p for p in target.split("/") if p]:
                node = node[part]
            merged = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**node, **{k: v for k, v in merged.items() if k not in node or k == "description"}}
        return schema

    def value(self, schema: dict[str, Any], label: str) -> Any:
        schema = self.resolve(schema)
        if "x-ref" in schema:
            return self.reference(schema["x-ref"])
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return schema["enum"][0]
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = kind[0]
        if kind == "object" or "properties" in schema:
            required = list(schema.get("required", []))
            for alternative in schema.get("anyOf", schema.get("oneOf", []))[:1]:
                required += [r for r in alternative.get("required", []) if r not in required]
            properties = schema.get("properties", {})
            return {key: self.value(properties.get(key, {}), key) for key in required}
        if kind == "array":
            count = schema.get("minItems", 0)
            items = schema.get("items", {})
            return [self.value(items, label) for _ in range(count)]
        if kind == "integer":
            return int(_lowest(schema))
        if kind == "number":
            return _lowest(schema)
        if kind == "boolean":
            return False
        return self.text(schema, label)

    def text(self, schema: dict[str, Any], label: str) -> str:
        fmt = schema.get("format")
        if fmt == "date":
            return datetime.date.today().isoformat()
        if fmt in ("uri", "iri", "url"):
            return "https://example.org/TODO"
        return f"TODO: {label.replace('_', ' ')}"

    def reference(self, ref_kind: str) -> str:
        if ref_kind == "*":
            source = self.reference("source")
            return f"source/{source}"
        if ref_kind == self.kind:
            return self.record_id
        existing = self.ids.get(ref_kind, [])
        if not existing:
            raise SkeletonError(f"a {self.kind} record must reference a {ref_kind} record and there is none yet; "
                                f"write one first: python -m generators new {ref_kind} <id>")
        return existing[0]


def _lowest(schema: dict[str, Any]) -> float | int:
    value: float | int = 0
    if "minimum" in schema and value < schema["minimum"]:
        value = schema["minimum"]
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        value = schema["exclusiveMinimum"] + 1
    if "maximum" in schema and value > schema["maximum"]:
        value = schema["maximum"]
    return value


def _ordered(data: dict[str, Any]) -> dict[str, Any]:
    first = [k for k in _FIRST_KEYS if k in data]
    last = [k for k in _LAST_KEYS if k in data]
    middle = [k for k in data if k not in first and k not in last]
    return {k: data[k] for k in first + middle + last}


def _existing_ids(root: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for kind, folder in FOLDER_OF_KIND.items():
        base = root / "records" / folder
        if base.is_dir():
            out[kind] = sorted(p.stem for p in base.glob("*.yaml") if ID_PATTERN.fullmatch(p.stem))
    # a skeleton cites a pinned source first, so a scheme's or kernel's code citation passes dispatch-provenance
    pinned = {p.stem for p in (root / "records" / "sources").glob("*.yaml")
              if re.search(r"^(revision|package):", p.read_text(encoding="utf-8", errors="replace"), re.M)}
    out["source"] = sorted(out.get("source", []), key=lambda source_id: (source_id not in pinned, source_id))
    return out


def _read_json(path: Path) -> dict[str, Any]:
    try:
        document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return document
    except (OSError, ValueError) as error:
        raise SkeletonError(f"cannot read schema {path.name}: {error}") from None


def _kind_of(name: str) -> str:
    return next((k for k, folder in FOLDER_OF_KIND.items() if folder == name), name)
