"""The JSON Schemas: loaded and checked once, one compiled validator per kind, and where references live.

A string property whose schema carries the custom keyword `x-ref: <kind>` holds the id of a
record of that kind (`x-ref: "*"` holds `kind/id`). Reference fields may sit under `properties`,
`items` and local or cross-file `$ref`s, never under combinators (`anyOf`, `oneOf`, ...), so that
the link stage can find every reference from the schema alone.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Iterator, Mapping

from . import formats, tree_files
from .cache import ContentCache, content_key
from .kinds import KINDS
from .model.schemas import RefField, Schemas
from .problems import Problem

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

_DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
_COMBINATORS = ("anyOf", "oneOf", "allOf", "not", "if", "then", "else")


_LOADED: dict[tuple[tuple[str, str], ...], Schemas] = {}  # the schema files' (path, text) -> what they compiled to
_LOADED_KEEP = 4


def load_schemas(schema_dir: Path, stored: tree_files.StoredTree | None = None) -> tuple[Schemas | None, list[Problem]]:
    """Read and check every schema file; compile one validator per kind. None when a schema is broken.
    With a stored tree (a past commit's), its files under the folder named like schema_dir are read instead.

    Schema files read before in this process (the same paths and texts) give the same compiled schemas: the changelog
    loads several past trees, and `mkdocs serve` loads the tree after every edit."""
    def schema_file(rel: str) -> bool:
        return rel.count("/") == 1 and rel.endswith(".schema.json")

    listing = (stored.listing(schema_dir.name, keep=schema_file) if stored is not None
               else tree_files.list_tree(schema_dir.parent, schema_dir.name, keep=schema_file))
    texts: list[tuple[str, str]] = []
    problems: list[Problem] = list(listing.problems)
    if stored is not None:
        stored.fetch([rel for rel in listing.files if (rel, stored.object_id(rel)) not in _STORED_TEXTS])
    for rel in listing.files:
        try:
            texts.append((rel, _stored_text(stored, rel) if stored is not None
                          else tree_files.read_text(schema_dir.parent, rel, limit=tree_files.DOCS_MAX_BYTES)))
        except tree_files.Refused as refused:
            problems.append(refused.problem())
    key = tuple(texts)
    if not problems and key in _LOADED:
        return _LOADED[key], []
    schemas, problems = _compiled(schema_dir, texts, problems)
    if schemas is not None and not problems:
        while len(_LOADED) >= _LOADED_KEEP:
            del _LOADED[next(iter(_LOADED))]
        _LOADED[key] = schemas
    return schemas, problems


_STORED_TEXTS: dict[tuple[str, str], str] = {}  # (path, git object id) -> the text read from a stored tree
_STORED_TEXTS_KEEP = 1_000


def _stored_text(stored: tree_files.StoredTree, rel: str) -> str:
    """A stored schema file's text; one read before from the same path and object is not read from git again (the
    changelog's past trees share most of their schema files)."""
    key = (rel, stored.object_id(rel))
    if key not in _STORED_TEXTS:
        text = stored.read_text(rel, limit=tree_files.DOCS_MAX_BYTES)
        if len(_STORED_TEXTS) >= _STORED_TEXTS_KEEP:
            _STORED_TEXTS.clear()
        _STORED_TEXTS[key] = text
    return _STORED_TEXTS[key]


def _compiled(schema_dir: Path, texts: list[tuple[str, str]], problems: list[Problem]) -> tuple[Schemas | None, list[Problem]]:
    """The schemas of the files' texts, checked and compiled; None with the problems when one is broken."""
    documents: dict[str, dict[str, Any]] = {}
    checked = ContentCache.for_code("checked-schemas", extra=version_of("jsonschema") + version_of("jsonschema_rs"))
    for rel, text in texts:
        path = schema_dir.parent / rel
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            problems.append(Problem(rel, error.lineno, error.colno, "schema", f"invalid JSON: {error.msg}"))
            continue
        invalid = _check_schema_once(text, document, checked)
        if invalid is not None:
            problems.append(Problem(rel, 1, 1, "schema", invalid))
            continue
        documents[path.name] = document
    checked.save()
    for kind in KINDS:
        if f"{kind}.schema.json" not in documents and not problems:
            problems.append(Problem(f"{schema_dir.name}/{kind}.schema.json", 1, 1, "schema", f"missing schema for kind {kind!r}"))
    if problems:
        return None, problems
    inlined: dict[str, Any] = {}
    parts: dict[str, _KindPart] = {}
    schemas = Schemas(documents, _SlowValidators(documents, inlined), {}, _FastValidators(inlined, documents, parts),
                      digest=_digest(texts))
    reached = _reached(documents, {Path(rel).name: text for rel, text in texts})
    for kind in KINDS:
        part = parts[kind] = _kind_part(schemas, kind, reached[f"{kind}.schema.json"])
        inlined[kind], schemas.ref_fields[kind], schemas.kind_digests[kind] = part.inlined, part.ref_fields, part.digest
        problems.extend(Problem(f"{schema_dir.name}/{kind}.schema.json", 1, 1, "schema",
                                f"{where}: x-ref under a combinator cannot be linked; move it out of anyOf/oneOf/allOf")
                        for where in part.misplaced)
    return (None if problems else schemas), problems


@dataclass
class _KindPart:
    """What one kind's schema compiles to: a function of the texts of the files it reaches through `$ref`s (digest)."""

    digest: str
    inlined: Any  # the kind's schema with its references inlined once, so validation does no registry look-ups
    ref_fields: list[RefField]
    misplaced: list[str]  # where an x-ref sits under a combinator
    fast: list[Any] = field(default_factory=list)  # [jsonschema-rs's validator, or None] once compiled


_PARTS: dict[str, _KindPart] = {}  # digest -> part: schema sets that differ in other files (the changelog's past trees,
_PARTS_KEEP = 200                  # `mkdocs serve` after a schema edit) share a kind's part, its validator included


def _kind_part(schemas: Schemas, kind: str, reached: list[tuple[str, str]]) -> _KindPart:
    """The kind's part: the one compiled before from the same texts, else compiled now and kept."""
    digest = _digest([(kind, "")] + reached)
    part = _PARTS.get(digest)
    if part is None:
        name = f"{kind}.schema.json"
        found, misplaced = _find_ref_fields(schemas, schemas.schema_of(kind), name, (), set())
        part = _KindPart(digest, _inlined(schemas, schemas.schema_of(kind), name, frozenset()),
                         sorted(set(found), key=lambda r: r.pattern), misplaced)
        if len(_PARTS) >= _PARTS_KEEP:
            _PARTS.clear()
        _PARTS[digest] = part
    return part


def _reached(documents: dict[str, dict[str, Any]], texts: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """Per document, the (name, text) of every document its `$ref`s reach, directly or not, itself included (a name
    no document has is listed with an empty text: resolving it fails as it did)."""
    direct = {name: _referenced(document, name, set()) for name, document in documents.items()}
    reached: dict[str, list[tuple[str, str]]] = {}
    for name in documents:
        seen, todo = {name}, [name]
        while todo:
            for target in direct.get(todo.pop(), ()):
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        reached[name] = [(target, texts.get(target, "")) for target in sorted(seen)]
    return reached


def _referenced(schema: Any, base: str, found: set[str]) -> set[str]:
    """The documents named by `$ref`s anywhere in a schema (a local reference names its own document)."""
    if isinstance(schema, dict):
        if isinstance(schema.get("$ref"), str):
            found.add(schema["$ref"].partition("#")[0] or base)
        for value in schema.values():
            _referenced(value, base, found)
    elif isinstance(schema, list):
        for item in schema:
            _referenced(item, base, found)
    return found


_CHECKED: set[str] = set()


class _SlowValidators(Mapping[str, "Draft202012Validator"]):
    """jsonschema's validator per kind, built on first use: only a record the fast validator calls invalid needs one
    (its errors are the messages), so a clean `check` never imports jsonschema."""

    def __init__(self, documents: dict[str, dict[str, Any]], inlined: dict[str, Any]):
        self._documents, self._inlined = documents, inlined
        self._built: dict[str, Draft202012Validator] = {}

    def __getitem__(self, kind: str) -> Draft202012Validator:
        if kind not in self._built:
            if kind not in self._inlined:
                raise KeyError(kind)
            self._built[kind] = _slow_validator(self._inlined[kind], self._documents)
        return self._built[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._inlined)

    def __len__(self) -> int:
        return len(self._inlined)


class _FastValidators(Mapping[str, Any]):
    """jsonschema-rs's validator per kind, compiled on first use (a build whose records were all found valid before,
    validate.py, compiles none) and kept with the kind's part; a kind whose schema it cannot compile is not in it."""

    def __init__(self, inlined: dict[str, Any], documents: dict[str, dict[str, Any]], parts: dict[str, _KindPart]):
        self._inlined, self._documents, self._parts = inlined, documents, parts
        self._built: dict[str, Any] = {}
        self._checks: dict[str, Callable[[Any], bool]] | None = None

    def __getitem__(self, kind: str) -> Any:
        if kind not in self._built:
            schema = self._inlined[kind]  # KeyError for an unknown kind
            part = self._parts[kind]
            if not part.fast:  # (the formats a kind's schema names are in the files it reaches: the same checks)
                if self._checks is None:
                    self._checks = formats.checks_for(self._documents.values())
                part.fast.append(_fast_validator(schema, self._checks) if isinstance(schema, dict) else None)
            self._built[kind] = part.fast[0]
        if self._built[kind] is None:
            raise KeyError(kind)
        return self._built[kind]

    def __iter__(self) -> Iterator[str]:
        return (kind for kind in self._inlined if kind in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _digest(texts: list[tuple[str, str]]) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for rel, text in texts:
        encoded = text.encode("utf-8", "surrogatepass")
        digest.update(f"{rel}\0{len(encoded)}\0".encode("utf-8", "surrogatepass"))
        digest.update(encoded)
    return digest.hexdigest()


def _slow_validator(schema: Any, documents: dict[str, dict[str, Any]]) -> Draft202012Validator:
    from jsonschema import Draft202012Validator, validators
    from referencing import Registry, Resource

    from .unique_items import unique_items
    cls = validators.extend(Draft202012Validator, {"uniqueItems": unique_items})  # type: ignore[no-untyped-call]  # linear
    registry: Registry[Any] = Registry().with_resources((name, Resource.from_contents(doc)) for name, doc in documents.items())
    validator: Draft202012Validator = cls(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return validator


def _fast_validator(schema: dict[str, Any], checks: Mapping[str, Callable[[Any], bool]]) -> Any:
    """The same (inlined) schema compiled by jsonschema-rs, to answer "valid?" fast; None if it cannot be compiled.

    Formats are checked by the functions in formats.py (each gives jsonschema's answer), so both validators agree.
    """
    try:
        import jsonschema_rs
    except ImportError:  # optional speed-up: jsonschema alone gives the same answers, slower
        return None
    try:
        return jsonschema_rs.Draft202012Validator(schema, formats=dict(checks), validate_formats=True)
    except Exception:  # noqa: BLE001 - a schema it cannot compile is validated by jsonschema alone
        return None


def _inlined(schemas: Schemas, schema: Any, base: str, visiting: frozenset[str]) -> Any:
    """The schema with every non-recursive `$ref` replaced by its target (sibling keywords win)."""
    if isinstance(schema, list):
        return [_inlined(schemas, item, base, visiting) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if isinstance(schema.get("$ref"), str):
        key = f"{base}#{schema['$ref']}"
        if key not in visiting:
            target, doc = schemas.resolve(schema, base)
            siblings = {k: _inlined(schemas, v, base, visiting) for k, v in schema.items() if k != "$ref"}
            return {**_inlined(schemas, target, doc, visiting | {key}), **siblings}
    return {k: (v if k in ("enum", "const", "required") else _inlined(schemas, v, base, visiting)) for k, v in schema.items()}


def _check_schema_once(text: str, document: dict[str, Any], checked: ContentCache) -> str | None:
    """Why a schema is not a valid draft 2020-12 schema, or None; checked once per distinct text (here and on disk)."""
    key = content_key(text.encode("utf-8"))
    if text in _CHECKED or checked.get(key):
        _CHECKED.add(text)
        return None
    if not meta_valid_fast(document):  # jsonschema decides, and says why
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError
        try:
            Draft202012Validator.check_schema(document)
        except SchemaError as error:
            where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
            return f"{where}: not a valid draft 2020-12 schema: {error.message}"
    _CHECKED.add(text)
    checked.put(key, True)
    return None


def meta_valid_fast(document: Any) -> bool:
    """True when jsonschema-rs finds a draft 2020-12 schema valid against its metaschema; False means "ask jsonschema"."""
    if not isinstance(document, dict) or document.get("$schema") != _DRAFT_2020_12:
        return False
    try:
        import jsonschema_rs
        return bool(jsonschema_rs.meta.is_valid(document))
    except Exception:  # noqa: BLE001 - not installed or cannot tell: jsonschema checks it
        return False


def version_of(package: str) -> str:
    """Where the package is installed and when its files were written: changes with every install (importlib.metadata
    costs more to import than the whole schema stage takes; the package itself is found, not imported)."""
    import importlib.util
    spec = importlib.util.find_spec(package)
    folder = os.path.dirname(spec.origin or "") if spec is not None else ""
    try:
        stamps = sorted((entry.name, entry.stat().st_mtime_ns, entry.stat().st_size) for entry in os.scandir(folder)
                        if entry.name.endswith(".py"))
    except OSError:
        return folder
    return f"{folder}|{stamps}"


def _find_ref_fields(schemas: Schemas, schema: dict[str, Any], base: str, pattern: tuple[str, ...],
                     visiting: set[str]) -> tuple[list[RefField], list[str]]:
    found: list[RefField] = []
    misplaced: list[str] = []
    if "$ref" in schema:
        key = f"{base}#{schema['$ref']}:{pattern}"
        if key not in visiting:
            target, doc = schemas.resolve(schema, base)
            sub = _find_ref_fields(schemas, target, doc, pattern, visiting | {key})
            found += sub[0]
            misplaced += sub[1]
    if "x-ref" in schema:
        found.append(RefField(pattern, schema["x-ref"]))
    for name, sub_schema in schema.get("properties", {}).items():
        sub = _find_ref_fields(schemas, sub_schema, base, pattern + (name,), visiting)
        found += sub[0]
        misplaced += sub[1]
    if isinstance(schema.get("items"), dict):
        sub = _find_ref_fields(schemas, schema["items"], base, pattern + ("*",), visiting)
        found += sub[0]
        misplaced += sub[1]
    for keyword in _COMBINATORS:
        if keyword in schema:  # (most nodes have none: no generator made for them)
            for branch in _branches(schema[keyword]):
                if _mentions_ref(branch):
                    misplaced.append("/".join(pattern) or "(top level)")
    return found, misplaced


def _branches(value: Any) -> Iterator[Any]:
    if isinstance(value, list):
        yield from value
    elif isinstance(value, dict):
        yield value


def _mentions_ref(schema: Any) -> bool:
    return "x-ref" in json.dumps(schema)


def values_at(data: Any, pattern: tuple[str, ...]) -> list[tuple[tuple[Any, ...], Any]]:
    """Every (concrete path, value) in `data` matching a RefField pattern, in document order."""
    found: list[tuple[tuple[Any, ...], Any]] = [((), data)]
    for head in pattern:
        deeper: list[tuple[tuple[Any, ...], Any]] = []
        for prefix, value in found:
            if head == "*":
                if value.__class__ is list:
                    deeper.extend((prefix + (index,), item) for index, item in enumerate(value))
            elif value.__class__ is dict and head in value:
                deeper.append((prefix + (head,), value[head]))
        if not deeper:
            return deeper
        found = deeper
    return found
