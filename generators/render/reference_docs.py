"""Contributor reference views generated from the schemas and the check registry, so the docs cannot drift."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..checks import REGISTRY
from ..kinds import FOLDER_OF_KIND, KINDS
from ..model.schemas import Schemas


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    required: bool
    description: str


@dataclass(frozen=True)
class KindDoc:
    kind: str
    folder: str
    description: str
    fields: tuple[FieldDoc, ...]


def kind_docs(schemas: Schemas) -> list[KindDoc]:
    """Every kind's fields, nested ones included (`requirements[].check`), with type, requiredness and description."""
    docs = []
    for kind in KINDS:
        schema = schemas.schema_of(kind)
        fields = tuple(_fields(schemas, schema, f"{kind}.schema.json", ""))
        docs.append(KindDoc(kind, FOLDER_OF_KIND[kind], schema.get("description", ""), fields))
    return docs


_SHARED_BLOCKS = ("citation", "sources", "contested", "known-gaps", "sourced-number")


def _fields(schemas: Schemas, schema: dict[str, Any], base: str, prefix: str) -> list[FieldDoc]:
    out = []
    required = set(schema.get("required", []))
    for name, prop in schema.get("properties", {}).items():
        out.append(FieldDoc(prefix + name, _type_of(schemas, prop, base), name in required,
                            _description(schemas, prop, base)))
        if any(prop.get("$ref", "").endswith(block) for block in _SHARED_BLOCKS):
            continue  # shared blocks are documented once, under every kind's first use would repeat them
        target, doc = _resolved(schemas, prop, base)
        if target.get("type") == "array" and isinstance(target.get("items"), dict):
            target, doc = _resolved(schemas, target["items"], doc)
            out += _fields(schemas, target, doc, f"{prefix}{name}[].")
        elif target.get("type") == "object":
            out += _fields(schemas, target, doc, f"{prefix}{name}.")
    return out


def shared_docs(schemas: Schemas) -> list[KindDoc]:
    """The blocks every kind reuses (citations, contested values, known gaps, sourced numbers), documented once."""
    defs = schemas.documents["defs.schema.json"]["$defs"]
    docs = []
    for block in _SHARED_BLOCKS:
        target, doc = _resolved(schemas, defs[block], "defs.schema.json")
        if target.get("type") == "array":
            target, doc = _resolved(schemas, target["items"], doc)
        docs.append(KindDoc(block, "", defs[block].get("description", ""), tuple(_fields(schemas, target, doc, ""))))
    return docs


def claim_docs() -> list[tuple[str, str]]:
    from .claims import CLAIMS
    return [(name, (CLAIMS[name].__doc__ or "").strip()) for name in sorted(CLAIMS)]


def check_docs() -> list[tuple[str, str, str, str]]:
    """Each check's name, scope, stage (checks/base.py: a `pages` check runs only where record pages render) and rule."""
    return [(check.name, check.scope, check.stage, check.description) for check in REGISTRY]


def _resolved(schemas: Schemas, prop: dict[str, Any], base: str) -> tuple[dict[str, Any], str]:
    while "$ref" in prop:
        prop, base = schemas.resolve(prop, base)
    return prop, base


def _description(schemas: Schemas, prop: dict[str, Any], base: str) -> str:
    return str(prop.get("description") or _resolved(schemas, prop, base)[0].get("description", ""))


def _type_of(schemas: Schemas, prop: dict[str, Any], base: str) -> str:
    target, base = _resolved(schemas, prop, base)
    if "x-ref" in target:
        kind = target["x-ref"]
        return "id of " + ("any record (kind/id)" if kind == "*" else f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}")
    if "enum" in target:
        return "one of " + ", ".join(str(v) for v in target["enum"])
    kind = target.get("type", "any")
    if kind == "array":
        return "list of " + _type_of(schemas, target.get("items", {}), base)
    if kind == "object":
        return "mapping"
    return " or ".join(kind) if isinstance(kind, list) else str(kind)
