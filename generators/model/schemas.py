"""The loaded JSON Schemas: documents, one compiled validator per kind, and where reference fields live."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


@dataclass(frozen=True)
class RefField:
    """Where a reference lives in records of one kind: a path pattern ('*' = every list item) and the target kind."""

    pattern: tuple[str, ...]
    target: str


@dataclass
class Schemas:
    """The schema files of a tree: the documents, their validators and reference fields, and what was found valid."""

    documents: dict[str, dict[str, Any]]
    validators: Mapping[str, Draft202012Validator]  # built on first use (validate asks only for records that fail)
    ref_fields: dict[str, list[RefField]]
    fast: Mapping[str, Any] = field(default_factory=dict)  # kind -> compiled jsonschema-rs validator (yes/no only)
    valid: dict[tuple[str, str], str] = field(default_factory=dict)  # (kind, record text) found valid against these
    # schemas -> its key in validate.py's table on disk ("" when found while caching was off)
    digest: str = ""  # a hash of the schema files' paths and texts (the key of what was found valid against them)
    kind_digests: dict[str, str] = field(default_factory=dict)  # per kind, a hash of the texts of the files its
    # schema reaches (the key of what was found valid against it: schema sets that differ elsewhere share it)

    def schema_of(self, kind: str) -> dict[str, Any]:
        return self.documents[f"{kind}.schema.json"]

    def resolve(self, schema: dict[str, Any], base: str) -> tuple[dict[str, Any], str]:
        """Follow a `$ref` (local or to another file) to the schema it names; returns it and its document."""
        ref = schema["$ref"]
        doc_name, _, fragment = ref.partition("#")
        doc_name = doc_name or base
        target: Any = self.documents[doc_name]
        for part in fragment.strip("/").split("/") if fragment.strip("/") else []:
            target = target[part]
        return target, doc_name
