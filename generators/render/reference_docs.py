"""Contributor reference views generated from the schemas and the check registry, so the docs cannot drift."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..checks import REGISTRY
from ..kinds import FOLDER_OF_KIND, KINDS
from ..schemas import Schemas


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
    """Every kind's top-level fields with type, requiredness and description, in schema order."""
    docs = []
    for kind in KINDS:
        schema = schemas.schema_of(kind)
        required = set(schema.get("required", []))
        fields = tuple(FieldDoc(name, _type_of(schemas, prop, f"{kind}.schema.json"), name in required,
                                _description(schemas, prop, f"{kind}.schema.json"))
                       for name, prop in schema["properties"].items())
        docs.append(KindDoc(kind, FOLDER_OF_KIND[kind], schema.get("description", ""), fields))
    return docs


def claim_docs() -> list[tuple[str, str]]:
    from .claims import CLAIMS
    return [(name, (CLAIMS[name].__doc__ or "").strip()) for name in sorted(CLAIMS)]


def check_docs() -> list[tuple[str, str, str]]:
    return [(check.name, check.scope, check.description) for check in REGISTRY]


def _resolved(schemas: Schemas, prop: dict[str, Any], base: str) -> tuple[dict[str, Any], str]:
    while "$ref" in prop:
        prop, base = schemas.resolve(prop, base)
    return prop, base


def _description(schemas: Schemas, prop: dict[str, Any], base: str) -> str:
    return prop.get("description") or _resolved(schemas, prop, base)[0].get("description", "")


def _type_of(schemas: Schemas, prop: dict[str, Any], base: str) -> str:
    target, base = _resolved(schemas, prop, base)
    if "x-ref" in target:
        return "id of " + ("any record (kind/id)" if target["x-ref"] == "*" else f"a {target['x-ref']}")
    if "enum" in target:
        return "one of " + ", ".join(str(v) for v in target["enum"])
    kind = target.get("type", "any")
    if kind == "array":
        return "list of " + _type_of(schemas, target.get("items", {}), base)
    if kind == "object":
        return "mapping"
    return " or ".join(kind) if isinstance(kind, list) else str(kind)
