"""Record types from the schemas: one TypedDict per record kind, written to `generators/model/fields.py`.

The schemas are the one statement of a record's shape; this module turns them into Python types so
that code reading a record got from `index.all("format")` (or `get`/`must`) has its keys checked by mypy
(a misspelt field is a type error, not a silent `None`). `python -m generators types` rewrites the module and
`--check` fails when it is stale; the test suite runs the check.

Mapping: string/integer/number/boolean to str/int/float/bool, `enum`/`const` to Literal, arrays to
list, objects with `properties` to a TypedDict (keys outside `required` are NotRequired), objects
with only `additionalProperties` to dict, `$ref` to the named type of the definition, and anything
the mapping cannot say (conditional requirements, `not`) is left to the validator.
"""
from __future__ import annotations

import json
import keyword
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .kinds import KINDS

MODULE = Path(__file__).parent / "model" / "fields.py"
DEFS_FILE = "defs.schema.json"

_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("_", "-").split("-") if part)


@dataclass
class _Writer:
    """Collects the type definitions in the order they are first needed (definitions before uses)."""

    defs: dict[str, Any]
    blocks: list[str] = field(default_factory=list)
    named: dict[str, str] = field(default_factory=dict)

    def type_of(self, schema: dict[str, Any], name: str) -> str:
        """The Python type expression for `schema`; `name` names a TypedDict it may need."""
        if "$ref" in schema:
            return self.ref(schema["$ref"])
        if "const" in schema:
            return f"Literal[{schema['const']!r}]"
        if "enum" in schema:
            return "Literal[" + ", ".join(repr(value) for value in schema["enum"]) + "]"
        for combinator in ("anyOf", "oneOf"):
            if combinator in schema and not all(_constraint_only(m) for m in schema[combinator]):
                members = [self.type_of(member, f"{name}{i}") for i, member in enumerate(schema[combinator])]
                return _union(members)
        kind = schema.get("type")
        if isinstance(kind, list):
            return _union([self.type_of({**schema, "type": one}, name) for one in kind])
        if kind == "array":
            items = schema.get("items")
            item_name = name + "Item" if name in self.named.values() else name  # a named list: `ContestedItem`
            return f"list[{self.type_of(items, item_name) if isinstance(items, dict) else 'Any'}]"
        if kind == "object" or "properties" in schema:
            return self.object(schema, name)
        return _SCALARS.get(kind, "Any") if isinstance(kind, str) else "Any"

    def ref(self, ref: str) -> str:
        target = ref.split("#/$defs/")[-1]
        if target not in self.named:
            definition = self.defs[target]
            type_name = camel(target)
            self.named[target] = type_name
            expression = self.type_of(definition, type_name)
            if expression != type_name:
                self.blocks.append(f"{type_name}: TypeAlias = {expression}\n")
        return self.named[target]

    def object(self, schema: dict[str, Any], name: str, prefix: str = "") -> str:
        """A TypedDict called `name`; types nested in it are named `prefix` (default: `name`) + the key."""
        prefix = prefix or name
        properties: dict[str, Any] = schema.get("properties", {})
        if not properties:
            extra = schema.get("additionalProperties")
            value = self.type_of(extra, name + "Value") if isinstance(extra, dict) else "Any"
            return f"dict[str, {value}]"
        required = set(schema.get("required", []))
        lines = {key: self.type_of(sub, prefix + camel(key)) for key, sub in properties.items()}
        typed = {key: (kind if key in required else f"NotRequired[{kind}]") for key, kind in lines.items()}
        self.blocks.append(_typed_dict(name, schema.get("description", ""), typed))
        return name


def _constraint_only(schema: Any) -> bool:
    """A branch that only says which keys must (or must not) be present: it narrows an object, it is no type."""
    return isinstance(schema, dict) and set(schema) <= {"required", "not"}


def _union(members: list[str]) -> str:
    unique = list(dict.fromkeys(members))
    return unique[0] if len(unique) == 1 else " | ".join(unique)


def _typed_dict(name: str, description: str, typed: dict[str, str]) -> str:
    doc = " ".join(description.split()).replace("\\", "\\\\").replace('"""', "'''")
    if all(key.isidentifier() and not keyword.iskeyword(key) for key in typed):
        body = [f"class {name}(TypedDict):"]
        if doc:
            body.append(f'    """{doc}"""\n')
        body += [f"    {key}: {kind}" for key, kind in typed.items()]
        return "\n".join(body) + "\n"
    pairs = ", ".join(f"{key!r}: {kind!r}" for key, kind in typed.items())
    return f"if TYPE_CHECKING:\n    {name} = TypedDict({name!r}, {{{pairs}}})\nelse:\n    {name} = dict\n"


def kind_type_name(kind: str) -> str:
    return camel(kind) + "Fields"


def render_module(schema_dir: Path) -> str:
    """The source of `generators/model/fields.py`, from the schemas in `schema_dir`."""
    defs = json.loads((schema_dir / DEFS_FILE).read_text(encoding="utf-8"))["$defs"]
    writer = _Writer(defs)
    enums = {f"defs.{name}": definition["enum"] for name, definition in defs.items() if "enum" in definition}
    for kind in KINDS:
        schema = json.loads((schema_dir / f"{kind}.schema.json").read_text(encoding="utf-8"))
        writer.object(schema, kind_type_name(kind), prefix=camel(kind))
        enums.update(_enums(schema, kind))
    return (_HEADER + "\n\n".join(writer.blocks) + "\n\n" + _enum_table(enums) + "\n\n" + _accessor())


def _enums(schema: dict[str, Any], path: str) -> dict[str, list[str]]:
    """Every inline enum under `schema`, keyed by its dotted field path (`engine.format_support.status`)."""
    found = {path: schema["enum"]} if "enum" in schema and "." in path else {}
    for key, sub in schema.get("properties", {}).items():
        found.update(_enums(sub, f"{path}.{key}"))
    if isinstance(schema.get("items"), dict):
        found.update(_enums(schema["items"], path))
    return found


def _enum_table(enums: dict[str, list[str]]) -> str:
    rows = "".join(f"    {key!r}: ({', '.join(repr(v) for v in values)}{',' if len(values) == 1 else ''}),\n"
                   for key, values in sorted(enums.items()))
    return ("# Every enum of the schemas, in the schema's order, which is the order the site sorts by:\n"
            "# `kind.field[.subfield]` for a field's own enum, `defs.name` for a shared definition.\n"
            f"ENUMS: dict[str, tuple[str, ...]] = {{\n{rows}}}\n")


_HEADER = '''"""Record types, one TypedDict per kind: GENERATED from schema/ by `python -m generators types`; do not edit.

`Index.all/get/must("<kind>", ...)` return records whose `.data` is the kind's TypedDict, so mypy checks
every key a stage reads against the schema.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypedDict, overload

if TYPE_CHECKING:
    from typing_extensions import NotRequired

    from .records import Record, TypedRecord
else:
    NotRequired = Any
    # At run time a record type is a plain dict (its data is one): typing's TypedDict would check every field's
    # annotation on import, which only mypy reads (half of this module's import, on every command).
    TypedDict = dict


'''


def _accessor() -> str:
    """`TypedLookups`, the base of Index: `all`/`get`/`must` overloaded per kind, so `index.all("format")`
    gives records whose `.data` is a FormatFields."""
    lines = ["_NO_RECORDS: dict[str, Record] = {}  # a kind with no record (never written: one object for every look-up)",
             "", "",
             "class TypedLookups:", '    """Index look-ups typed per kind (generated: one overload per kind)."""', "",
             "    by_kind: dict[str, dict[str, Record]]", ""]
    for method, extra, returns in (("all", "", "list[TypedRecord[{}]]"), ("get", ", record_id: str", "TypedRecord[{}] | None"),
                                   ("must", ", record_id: str", "TypedRecord[{}]")):
        for kind in KINDS:
            lines += ["    @overload", f"    def {method}(self, kind: Literal[{kind!r}]{extra}) -> {returns.format(kind_type_name(kind))}: ...",
                      ""]
        lines += ["    @overload", f"    def {method}(self, kind: str{extra}) -> {returns.format('Any')}: ...", ""]
        lines += [f"    def {method}(self, kind: str{extra}) -> {returns.format('Any')}:", _BODIES[method], ""]
    return "\n".join(lines).rstrip() + "\n"


_BODIES = {
    "all": "        records = self.by_kind.get(kind, _NO_RECORDS)\n        return [records[k] for k in sorted(records)]",
    "get": "        return self.by_kind.get(kind, _NO_RECORDS).get(record_id)",
    "must": '''        """The record, which the caller knows exists (a KeyError names it otherwise)."""
        record = self.by_kind.get(kind, _NO_RECORDS).get(record_id)
        if record is None:
            raise KeyError(f"{kind}/{record_id}")
        return record''',
}


def is_current(schema_dir: Path, module: Path = MODULE) -> bool:
    return module.is_file() and module.read_text(encoding="utf-8") == render_module(schema_dir)


def write(schema_dir: Path, module: Path = MODULE) -> bool:
    """Rewrite the module; true when it changed."""
    text = render_module(schema_dir)
    if module.is_file() and module.read_text(encoding="utf-8") == text:
        return False
    module.write_text(text, encoding="utf-8")
    return True
