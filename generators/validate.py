"""Stage 2, validate: each record against its kind's JSON Schema, every error mapped to file:line:column.

A compiled validator (jsonschema-rs) first answers "valid or not" for each record; jsonschema
itself then validates only the records it calls invalid, and its errors are the messages. Where
the two disagree jsonschema decides (tests assert they agree on every schema).

A record text found valid is remembered with the schemas' texts: in the process (Schemas.valid, `mkdocs serve`)
and on disk (a table of generators/cache.py keyed by a hash of the texts of the schema files the kind's schema reaches,
the kind and the record text, salted with the code that parses and validates), so a build after a small edit
validates, and compiles validators for, the edited records alone, and a schema set that differs from another only in
some files (the changelog's past trees) validates again only the records of the kinds whose schemas reach those.
"""
from __future__ import annotations

import difflib
import functools
import hashlib
import os
from typing import TYPE_CHECKING, Any, cast
from collections.abc import Iterable

import yaml

from . import fast_yaml, formats, load, schemas as schema_stage
from .cache import ContentCache, cache_dir
from .paths import dotted
from .problems import Problem
from .model.records import Record
from .model.schemas import Schemas

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

RULE = "schema"


def validate_records(records: Iterable[Record], schemas: Schemas) -> list[Problem]:
    """All schema problems of all records (never stops at the first)."""
    problems: list[Problem] = []
    table = _valid_texts() if schemas.digest else None
    fast: dict[str, Any] = {}  # kind -> schemas.fast's validator (compiled on first use), asked once per kind
    for record in records:
        known = (record.kind, record.text)  # the text fixes the data: a text once valid is valid again
        key = schemas.valid.get(known)
        if key is not None and (table is None or key):  # valid in this process (a rebuild under `mkdocs serve`)
            if table is not None:
                table.keep(key, True)
            continue
        key = _key(schemas.kind_digests.get(record.kind, schemas.digest), record) if table is not None else ""
        if table is not None and table.get(key) is True:
            schemas.valid[known] = key
            continue
        if record.kind not in fast:
            fast[record.kind] = schemas.fast.get(record.kind)
        if _fast_says_valid(fast[record.kind], record.data):
            schemas.valid[known] = key
            if table is not None:
                table.put(key, True)
            continue
        validator = schemas.validators[record.kind]
        for error in validator.iter_errors(record.data):
            problems.extend(_problems_for(record, error, schemas))
    if table is not None:
        table.save()
    return problems


def _valid_texts() -> ContentCache | None:
    """The on-disk table of record texts found valid, or None when caching is off."""
    return None if cache_dir() is None else ContentCache("valid-records", _salt())


@functools.lru_cache(maxsize=1)
def _salt() -> str:
    """The code that turns a record text into data and judges it, and the libraries' versions (once per process:
    its code does not change while it runs)."""
    versions = "|".join([yaml.__version__, getattr(getattr(fast_yaml, "yaml_rs", None), "__version__", "none"),
                         schema_stage.version_of("jsonschema"), schema_stage.version_of("jsonschema_rs")])
    unique_items = os.path.join(os.path.dirname(__file__), "unique_items.py")  # (importing it imports jsonschema)
    return ContentCache.for_code("valid-records", __file__, schema_stage.__file__, formats.__file__, unique_items,
                                 load.__file__, fast_yaml.__file__, extra=versions).salt


def _key(digest: str, record: Record) -> str:
    return hashlib.blake2b(f"{digest}\0{record.kind}\0{record.text_digest}".encode(), digest_size=20).hexdigest()


def _fast_says_valid(fast: Any, data: dict[str, Any]) -> bool:
    if fast is None:
        return False
    try:
        return bool(fast.is_valid(data))
    except Exception:  # noqa: BLE001 - a value it cannot take (a huge integer, ...) goes to jsonschema
        return False


def _problems_for(record: Record, error: ValidationError, schemas: Schemas) -> list[Problem]:
    return _problems_from(record, cast(Any, error), schemas)


def _problems_from(record: Record, error: Any, schemas: Schemas) -> list[Problem]:
    """The located problems of one jsonschema error (typed Any: its fields are Unset until jsonschema fills them)."""
    path = tuple(error.absolute_path)
    where = dotted(path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(error.schema.get("properties", {}))
        return [_at(record, path + (extra,), f"{dotted(path + (extra,))}: unknown field {extra!r}{_suggest(extra, allowed)}", key=True)
                for extra in sorted(set(error.instance) - set(allowed))]
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        # a field a rule asks for only with another (an if/then) says why, where the `then` has a description
        why = error.schema.get("description", "") if "then" in error.relative_schema_path else ""
        return [_at(record, path, f"{where}: missing required field {missing!r}{': ' + why if why else ''}")]
    if error.validator == "enum":
        options = [str(o) for o in error.validator_value]
        shown = ", ".join(repr(o) for o in error.validator_value)
        return [_at(record, path, f"{where}: {error.instance!r} is not one of {shown}{_suggest(str(error.instance), options)}")]
    if error.validator == "anyOf" and all(set(branch) == {"required"} for branch in error.validator_value):
        fields = " or ".join(repr(f) for branch in error.validator_value for f in branch["required"])
        return [_at(record, path, f"{where}: needs at least one of the fields {fields}")]
    if error.validator == "not" and set(error.validator_value) == {"required"}:
        fields = " and ".join(repr(f) for f in error.validator_value["required"])
        return [_at(record, path, f"{where}: the fields {fields} exclude each other; keep one")]
    if error.validator == "not" and "const" in error.validator_value:  # a value excluded by name says why, if told
        why = error.validator_value.get("description", "")
        return [_at(record, path, f"{where}: {error.instance!r} is not allowed here{': ' + why if why else ''}")]
    if error.validator == "type":
        return [_at(record, path, f"{where}: expected {_expected(error.validator_value)}, found {_describe(error.instance)}")]
    if error.validator == "maxLength" and isinstance(error.instance, str):  # (jsonschema's message repeats the text)
        return [_at(record, path, f"{where}: {len(error.instance)} characters, more than the {error.validator_value} "
                                  "this field takes")]
    return [_at(record, path, f"{where}: {error.message}")]


def _at(record: Record, path: tuple[Any, ...], message: str, key: bool = False) -> Problem:
    line, column = record.position(path, key=key)
    return Problem(record.path, line, column, RULE, message)


def _suggest(value: str, options: list[str]) -> str:
    close = difflib.get_close_matches(value, options, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _expected(types: Any) -> str:
    names = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
             "array": "a list", "object": "a mapping", "null": "null"}
    if isinstance(types, list):
        return " or ".join(names.get(t, str(t)) for t in types)
    return names.get(types, str(types))


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {value!r}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "null" if value is None else repr(value)
