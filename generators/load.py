"""Stage 1, load: parse every records/<kind>/<id>.yaml into Records, rejecting what YAML lets through silently.

A text that yaml-rs can read with the same result is read by it (fast_yaml.py: no positions, five times faster);
any other is parsed by libyaml (PyYAML's C loader) at the node level so every value keeps its line and column
for the message, and load's rules below are written against those nodes. Rejected, each as a Problem with a
location: syntax errors, duplicate keys, anchors and aliases, explicit tags, non-string keys, a top level that is not a mapping, empty files,
non-UTF-8 bytes, YAML 1.1 booleans spelled other than true/false, a comment on the line of an unquoted value (which
cuts the value short at ` #`), a file name that is not a
valid id or an `id:` that differs from it, unknown kind folders and files that are not `.yaml`.
"""
from __future__ import annotations

import difflib
import json
import math
import operator
import os
import re
import time
import unicodedata
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import yaml

from . import fast_yaml, invisible_text, tree_files
from .cache import ContentCache, content_key
from .kinds import KIND_OF_FOLDER
from .problems import Problem
from .model.records import Record, TypedRecord

ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # always used with fullmatch: no trailing newline slips through
GENERATED_PAGE_NAMES = frozenset({"index"})  # <kind folder>/index.md is the kind's index page
RESERVED_NAMES = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)),
                            *(f"lpt{n}" for n in range(1, 10))})
RULE = "load"
_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVED: dict[tuple[str, tuple[bool, bool]], str] = {}


class _Loader(_BASE_LOADER):  # type: ignore[misc,valid-type]
    """The C loader with a faster implicit-tag resolver; it gives exactly the tags PyYAML's resolver gives.

    A quoted scalar, and a plain one whose first character starts no implicit pattern (most text), is a
    string without a look-up; the rest (numbers, booleans, nulls, dates: short, repeated) are memoised.
    """

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        if kind is not yaml.ScalarNode:
            return str(super().resolve(kind, value, implicit))
        if not implicit[0] or (value and value[0] not in _STARTS):
            return _STR
        key = (value, implicit)
        tag = _RESOLVED.get(key)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(_RESOLVED) > 200_000:
                _RESOLVED.clear()
            _RESOLVED[key] = tag
        return tag


_STARTS = frozenset(k for k in _BASE_LOADER.yaml_implicit_resolvers if k)  # first characters with a pattern
assert None not in _BASE_LOADER.yaml_implicit_resolvers and not _BASE_LOADER.yaml_path_resolvers  # no wildcard, no path rules
_LOADER = _Loader
_T = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_T + "str", _T + "int", _T + "float", _T + "bool", _T + "null", _T + "timestamp"}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_STR, _TIMESTAMP = _T + "str", _T + "timestamp"
_SCALAR, _MAPPING = yaml.ScalarNode, yaml.MappingNode


class _Reject(Exception):
    def __init__(self, line: int, column: int, message: str):
        super().__init__(message)
        self.line, self.column, self.message = line, column, message


def load_tree(root: Path, records_dir: str = "records",
              stored: tree_files.StoredTree | None = None) -> tuple[list[Record], list[Problem]]:
    """Load every record under root/records_dir (or under records_dir of a stored tree, such as a past commit's).
    Returns records (sorted by kind, id) and problems."""
    if stored is not None:
        return _load_stored(stored, records_dir)
    records: list[Record] = []
    if not (root / records_dir).is_dir() and not (root / records_dir).is_symlink():
        return [], [Problem(records_dir, 1, 1, RULE, f"no records folder at {records_dir!r}")]
    listing = tree_files.list_tree(root, records_dir)
    problems: list[Problem] = list(listing.problems)
    parsed, seen = parse_cache(), seen_cache()
    clashes = _collisions(listing.files)
    with tree_files.Reader(root) as reader:
        for rel in listing.files:
            if rel in clashes:
                problems.append(_collision(rel, clashes[rel]))
                continue
            record, file_problems = _load_file_cached(reader, rel, parsed, seen)
            problems.extend(file_problems)
            if record is not None:
                records.append(record)
    parsed.save_unless_small()  # after a small edit the next run reads and parses the edited files again
    seen.save_unless_small()
    records.sort(key=_KIND_AND_ID)
    return records, problems


_KIND_AND_ID = operator.attrgetter("kind", "id")  # records' order (a C call per record, not a lambda's frame)


def _collision(rel: str, other: str) -> Problem:
    return Problem(rel, 1, 1, RULE, f"file name collides with {other} on file systems that ignore "
                                    "case or Unicode normalisation (macOS, Windows); rename one")


_STORED: dict[tuple[str, str], tuple[Record | None, list[Problem]]] = {}  # (path, git object id) -> what it loads as
_STORED_KEEP = 100_000


def lend_records(stored: tree_files.StoredTree, records: list[Record]) -> None:
    """Let stored trees that hold a file as `stored` does share the record loaded from those bytes: each record (loaded
    without a problem from the same path and bytes as the stored file, which the caller vouches for) is what
    _load_stored gives for that path and git object, without reading it from git."""
    listed = set(stored.listing("records").files)
    if len(_STORED) > _STORED_KEEP:
        _STORED.clear()
    for record in records:
        if record.path in listed:
            _STORED.setdefault((record.path, stored.object_id(record.path)), (record, []))


def _load_stored(stored: tree_files.StoredTree, records_dir: str) -> tuple[list[Record], list[Problem]]:
    """load_tree over a stored tree: a file whose path and content were loaded before gives the same record object
    (the changelog loads several past commits that share most files), the others are read in one batch."""
    listing = stored.listing(records_dir)
    problems: list[Problem] = list(listing.problems)
    records: list[Record] = []
    clashes = _collisions(listing.files)
    keys = {rel: (rel, stored.object_id(rel)) for rel in listing.files if rel not in clashes}
    stored.fetch([rel for rel, key in keys.items() if key not in _STORED])
    if len(_STORED) > _STORED_KEEP:
        _STORED.clear()
    parsed = parse_cache()
    for rel in listing.files:
        if rel in clashes:
            problems.append(_collision(rel, clashes[rel]))
            continue
        if keys[rel] not in _STORED:
            _STORED[keys[rel]] = _load_rel(stored, rel, parsed, None)
        record, file_problems = _STORED[keys[rel]]
        problems.extend(file_problems)
        if record is not None:
            records.append(record)
    parsed.used = {**parsed.entries, **parsed.used}  # adds only: the working tree's entries stay (its load_tree prunes)
    parsed.save_unless_small()
    records.sort(key=_KIND_AND_ID)
    return records, problems


_CACHE: dict[str, tuple[tuple[int, int, int], Record | None, list[Problem], tuple[str, Any] | None, Any]] = {}


def _load_file_cached(reader: tree_files.Reader, rel: str, parsed: ContentCache,
                      seen: ContentCache) -> tuple[Record | None, list[Problem]]:
    """_load_rel, reusing the last result while the file is unchanged (mkdocs serve rebuilds reparse only edits),
    and, in a new process, the on-disk cache's text and data of a file whose status says it is unchanged."""
    try:
        stat = reader.lstat(rel)
    except tree_files.Refused:
        stat = None  # vanished since listing, or refused: reading says which
    key = (stat.st_mtime_ns, stat.st_size, stat.st_ino) if stat is not None else None
    where = f"{reader.absolute}/{rel}"
    cached = _CACHE.get(where)
    if key is not None and cached is not None and cached[0] == key:
        if cached[3] is not None:
            parsed.keep(*cached[3])
        if cached[4] is not None:
            seen.keep(where, cached[4])
        return cached[1], list(cached[2])
    entry: list[tuple[str, Any]] = []
    record, problems = _unchanged_file(rel, where, stat, parsed, seen, entry) if stat is not None else (None, None)
    if problems is None:
        record, problems = _load_rel(reader, rel, parsed, entry, stat)
        if record is not None and entry and stat is not None and _settled(stat):
            seen.put(where, [*_signature(stat), entry[0][0], record.text])
    known = seen.used.get(where)
    if key is not None:
        _CACHE[where] = (key, record, list(problems), entry[0] if entry else None, known)
    return record, problems


_PARSERS = (__file__, fast_yaml.__file__)  # the code that turns a file into data: a change to either empties the caches
_PARSER_VERSIONS = f"{yaml.__version__}|{getattr(getattr(fast_yaml, 'yaml_rs', None), '__version__', 'none')}"


SETTLED_NS = 3_000_000_000  # a file changed less than this long ago may change again within its timestamp's tick


def seen_cache() -> ContentCache:
    """The on-disk cache of files read cleanly: {absolute path: [status signature, content key, text]}."""
    return ContentCache.for_code("seen-records", *_PARSERS, extra=_PARSER_VERSIONS)


def _signature(stat: os.stat_result) -> list[int]:
    """What changes when a file's content can have changed: times to the nanosecond (the change time cannot be
    set back by a program), size and inode."""
    return [stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size, stat.st_ino, stat.st_mode]


def _settled(stat: os.stat_result) -> bool:
    return time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) > SETTLED_NS


def _unchanged_file(rel: str, where: str, stat: os.stat_result, parsed: ContentCache, seen: ContentCache,
                    entry: list[tuple[str, Any]]) -> tuple[Record | None, list[Problem] | None]:
    """The record of a file whose status matches the one it had when it was last read cleanly, from the on-disk
    cache (not read again); (None, None) when it must be read."""
    known = seen.get(where)
    if not isinstance(known, list) or len(known) != 7 or known[:5] != _signature(stat) or not _settled(stat):
        seen.used.pop(where, None)  # changed since: forget it unless it is read cleanly and settled now
        return None, None
    parsed_data, text = parsed.get(known[5]), known[6]
    located = _kind_and_id(rel, tuple(rel.split("/")))
    if not isinstance(parsed_data, dict) or not isinstance(text, str) or isinstance(located, Problem):
        return None, None
    data = dict(parsed_data)
    if data.pop("id", located[1]) != located[1]:
        return None, None
    entry.append((known[5], parsed_data))
    return TypedRecord(located[0], located[1], rel, data, text), []


def parse_cache() -> ContentCache:
    """The on-disk cache of parsed files, salted with the parsers' sources and versions (a parsing change empties it)."""
    return ContentCache.for_code("parsed-records", *_PARSERS, extra=_PARSER_VERSIONS)


def load_file(root: Path, path: Path, parsed: ContentCache | None = None,
              entry: list[tuple[str, Any]] | None = None) -> tuple[Record | None, list[Problem]]:
    """Load one record file; any problem makes the record unusable and returns None.

    With a cache of parsed files, a file whose bytes were parsed cleanly before is not parsed
    again; its (content key, data) is appended to `entry` when given.
    """
    with tree_files.Reader(root) as reader:
        return _load_rel(reader, path.relative_to(root).as_posix(), parsed, entry)


def _load_rel(reader: tree_files.Reader | tree_files.StoredTree, rel: str, parsed: ContentCache | None,
              entry: list[tuple[str, Any]] | None, stat: os.stat_result | None = None) -> tuple[Record | None, list[Problem]]:
    parts = tuple(rel.split("/"))
    located = _kind_and_id(rel, parts)
    if isinstance(located, Problem):
        return None, [located]
    kind, record_id = located
    try:
        raw = reader.read_bytes(rel, before=stat)
    except tree_files.Vanished:
        return None, []  # deleted since the tree was listed: the tree as it is now does not hold it
    except tree_files.Refused as refused:
        return None, [refused.problem()]
    key = content_key(raw) if parsed is not None and parsed.enabled else ""
    if key and parsed is not None:
        known = _known_record(rel, key, parsed, entry)
        if known is not None:
            return known, []
    try:
        text, data = parse(raw, parsed, entry, key)
    except _Reject as reject:
        return None, [Problem(rel, reject.line, reject.column, RULE, reject.message)]
    invisible = _invisible(rel, text)
    if invisible:
        return None, invisible
    declared = data.pop("id", record_id)
    if declared != record_id:
        line, column = _key_position(_compose(text), "id")  # type: ignore[arg-type]
        return None, [Problem(rel, line, column, RULE,
                              f"id {declared!r} differs from the file stem {record_id!r}; rename the file or fix the id")]
    record = TypedRecord(kind, record_id, rel, data, text)  # (the alias Record costs a typing call per record)
    if key:
        if len(_LOADED) > _STORED_KEEP:
            _LOADED.clear()
        _LOADED[(rel, key)] = record
    return record, []


# (path, content key of the bytes) -> the record those bytes loaded as, without a problem: loading is a function of the
# path and the bytes, so the working tree and the changelog's past trees (load_tree, _load_stored) share one record
# per file they hold alike, and what is kept on it (its links' references, its text's digest) is computed once.
_LOADED: dict[tuple[str, str], Record] = {}


def _known_record(rel: str, key: str, parsed: ContentCache, entry: list[tuple[str, Any]] | None) -> Record | None:
    """The record these bytes loaded as before (with the parse cache's entry marked as used, and noted in `entry`),
    or None."""
    known = _LOADED.get((rel, key))
    data = parsed.get(key) if known is not None else None
    if known is None or not isinstance(data, dict):
        return None
    if entry is not None:
        entry.append((key, data))
    return known


def parse(raw: bytes, parsed: ContentCache | None = None,
          entry: list[tuple[str, Any]] | None = None, key: str = "") -> tuple[str, dict[str, Any]]:
    """A record file's text and its data (a fresh top-level dict), or _Reject with the first problem's position.
    `key` is the bytes' content key when the caller has it."""
    text = _decode(raw)
    parsed = parsed if parsed is not None and parsed.enabled else None
    key = (key or content_key(raw)) if parsed is not None else ""
    data = parsed.get(key) if parsed is not None else None
    if not isinstance(data, dict):
        data = fast_yaml.parse(text) or _parse_with_positions(text)
        if parsed is not None:
            parsed.put(key, data)
    if entry is not None and parsed is not None:
        entry.append((key, data))
    return text, dict(data)


def _parse_with_positions(text: str) -> dict[str, Any]:
    """libyaml's node tree, checked node by node: the data, or _Reject with the first problem's line and column."""
    node = _compose(text)
    if "\\" in text:  # only an escape in a double-quoted scalar can put a control character in a value
        _reject_escaped_controls(node)
    if "#" in text and next(fast_yaml.trailing_comments(text), None) is not None:
        _reject_trailing_comments(node, text)
    return _to_mapping(node)


def _invisible(rel: str, text: str) -> list[Problem]:
    """Every invisible format character in a record's text (invisible_text.py), raw or made by an escape, each at
    its position: all of a file's at once, as a reviewer removes them in one go."""
    problems = [Problem(rel, line, column, RULE, message) for line, column, message in invisible_text.in_text(text)]
    if invisible_text.may_escape(text):
        for scalar in _scalars(_compose(text)):
            source = text[scalar.start_mark.index:scalar.end_mark.index]
            problems += [Problem(rel, scalar.start_mark.line + 1, scalar.start_mark.column + 1, RULE,
                                 f"an escape in this string makes {name}, {invisible_text.WHY}")
                         for name in invisible_text.in_escaped(scalar.value, source)]
    return problems


def _kind_and_id(rel: str, parts: tuple[str, ...]) -> tuple[str, str] | Problem:
    invisible = invisible_text.in_name(rel)
    if invisible:
        return Problem(rel, 1, 1, RULE, f"the file's path holds {', '.join(invisible)}: {invisible_text.WHY}")
    if len(parts) != 3:
        return Problem(rel, 1, 1, RULE, "records live at records/<kind folder>/<id>.yaml; move this file into a kind folder")
    folder, filename = parts[1], parts[2]
    if folder not in KIND_OF_FOLDER:
        close = difflib.get_close_matches(folder, KIND_OF_FOLDER, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else f"; expected one of: {', '.join(sorted(KIND_OF_FOLDER))}"
        return Problem(rel, 1, 1, RULE, f"unknown record folder {folder!r}{hint}")
    if not filename.endswith(".yaml"):
        return Problem(rel, 1, 1, RULE, f"{filename!r} is not a .yaml file; records are records/<kind>/<id>.yaml")
    stem = filename[: -len(".yaml")]
    why = id_problem(stem)
    if why:
        return Problem(rel, 1, 1, RULE, f"file name {why}")
    return KIND_OF_FOLDER[folder], stem


def id_problem(record_id: str) -> str | None:
    """Why `record_id` cannot be a record id (a sentence starting with the id), or None when it can."""
    if not ID_PATTERN.fullmatch(record_id):
        return f"{record_id!r} is not a valid id (lowercase letters and digits in groups joined by single hyphens)"
    if record_id in GENERATED_PAGE_NAMES:
        return (f"{record_id!r} is the name of the page the site generates for every kind ({record_id}.md); "
                "choose another id")
    if record_id in RESERVED_NAMES:
        return (f"{record_id!r} is a reserved file name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9); "
                "choose another id")
    return None


def _collisions(files: list[str]) -> dict[str, str]:
    """Files whose names collide with another's on file systems that ignore case or Unicode normalisation.

    Maps each colliding file to the one it collides with; the file whose name is a valid id is kept.
    """
    groups: dict[str, list[str]] = {}
    for rel in files:
        folded = rel.lower() if rel.isascii() else unicodedata.normalize(  # (ASCII: NFKC keeps it, casefold is lower)
            "NFKC", unicodedata.normalize("NFKC", rel).casefold())
        groups.setdefault(folded, []).append(rel)
    clashes: dict[str, str] = {}
    for members in groups.values():
        if len(members) > 1:
            members.sort(key=lambda rel: (not ID_PATTERN.fullmatch(rel.rsplit("/", 1)[-1].removesuffix(".yaml")), rel))
            clashes.update({rel: members[0] for rel in members[1:]})
    return clashes


def _decode(raw: bytes) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        raise _Reject(line, column, f"file is not valid UTF-8 (byte 0x{raw[error.start]:02x}); save it as UTF-8") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    bad = _CONTROL.search(text) if _may_hold_control(raw) else None
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise _Reject(line, column, f"control character U+{ord(bad.group()):04X} is not allowed in a record; remove it")
    if not text.strip():
        raise _Reject(1, 1, "file is empty; a record needs at least the fields its schema requires")
    return text


# CONTROL's characters as UTF-8 bytes: an ASCII one is its own byte, and in valid UTF-8 (as _decode has checked) these
# sequences encode U+0080-U+009F, U+2028, U+2029, U+FFFE and U+FFFF and nothing else (tests/test_load.py compares
# them with CONTROL over every code point)
_ASCII_CONTROLS = bytes(byte for byte in range(0x80) if fast_yaml.CONTROL.match(chr(byte)))
_WIDE_CONTROLS = re.compile(rb"\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]|\xef\xbf[\xbe\xbf]")


def _may_hold_control(raw: bytes) -> bool:
    """False when valid UTF-8 bytes hold no character of CONTROL: bytes.translate drops the ASCII ones about six times
    faster than the regex searches the text, and the other characters' lead bytes are rare (most records are ASCII)."""
    return len(raw.translate(None, _ASCII_CONTROLS)) != len(raw) or (
        not raw.isascii() and _WIDE_CONTROLS.search(raw) is not None)


def _compose(text: str) -> yaml.Node:
    try:
        if "&" in text or "*" in text or "!" in text:
            _reject_anchors_and_tags(text)
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        detail = " ".join(str(s) for s in (error.context, error.problem) if s)
        raise _Reject(mark.line + 1 if mark else 1, mark.column + 1 if mark else 1, f"YAML syntax error: {detail}") from None
    if node is None:
        raise _Reject(1, 1, "file is empty; a record needs at least the fields its schema requires")
    return node


def _reject_anchors_and_tags(text: str) -> None:
    for event in yaml.parse(text, Loader=_LOADER):
        mark: Any = event.start_mark
        if isinstance(event, yaml.AliasEvent):
            raise _Reject(mark.line + 1, mark.column + 1,
                          f"aliases are not allowed (found '*{event.anchor}'); write the value out in full")
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise _Reject(mark.line + 1, mark.column + 1,
                          f"anchors are not allowed (found '&{anchor}'); write the value out in full")
        tag = getattr(event, "tag", None)
        if tag is not None and not (isinstance(event, yaml.ScalarEvent) and event.implicit[0] and tag == "!"):
            raise _Reject(mark.line + 1, mark.column + 1,
                          f"YAML tags are not allowed (found {tag!r}); records hold plain data only")


def _scalars(node: yaml.Node) -> Iterator[yaml.ScalarNode]:
    """Every scalar node (keys and values) in document order."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.ScalarNode):
            yield current
        elif isinstance(current, yaml.MappingNode):
            stack.extend(part for pair in reversed(current.value) for part in reversed(pair))
        else:
            stack.extend(reversed(current.value))


def _reject_escaped_controls(node: yaml.Node) -> None:
    for scalar in _scalars(node):
        bad = _CONTROL.search(scalar.value)
        if bad:
            mark = scalar.start_mark
            raise _Reject(mark.line + 1, mark.column + 1,
                          f"text contains the control character U+{ord(bad.group()):04X}; remove it")


_COMMENT_AFTER = re.compile(r"[ \t]+#")


def _reject_trailing_comments(node: yaml.Node, text: str) -> None:
    """A comment on the line of a plain (unquoted) value: YAML ends the value at the blank before `#` and drops the
    rest, so `see PR #123` silently reads as `see PR`. A record's comments go on lines of their own."""
    for scalar in _scalars(node):
        comment = _COMMENT_AFTER.match(text, scalar.end_mark.index) if not scalar.style and scalar.value else None
        if comment is not None:
            at = comment.end() - 1
            line, column = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
            dropped = text[at:text.find("\n", at) if "\n" in text[at:] else len(text)]
            raise _Reject(line, column, f"comment after the value {_shorten(scalar.value)!r}: YAML ends an unquoted "
                          f"value at ' #' and drops {_shorten(dropped)!r}; quote the value if the '#' belongs to "
                          f"it, or put the comment on a line of its own")


def _to_mapping(node: yaml.Node) -> dict[str, Any]:
    if not isinstance(node, yaml.MappingNode):
        found = "list" if isinstance(node, yaml.SequenceNode) else "single value"
        raise _Reject(node.start_mark.line + 1, node.start_mark.column + 1,
                      f"a record must be a mapping of field names to values, found a {found}")
    data: dict[str, Any] = _convert(node)
    return data


def _convert(node: yaml.Node) -> Any:
    """Plain data from a node tree; one tight recursive pass (this is the hot loop of `check`)."""
    cls = node.__class__
    if cls is _SCALAR:
        tag = node.tag
        if tag in (_STR, _TIMESTAMP):
            return node.value
        return _scalar(node)  # type: ignore[arg-type]
    if cls is _MAPPING:
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.__class__ is not _SCALAR or key_node.tag != _STR:
                _reject_key(key_node)
            key = key_node.value
            if key in out:
                _reject_duplicate(node, key_node)  # type: ignore[arg-type]
            out[key] = _convert(value_node)
        return out
    return [_convert(child) for child in node.value]


def _reject_key(key_node: yaml.Node) -> None:
    mark = key_node.start_mark
    shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else "a " + type(key_node).__name__[:-4].lower()
    raise _Reject(mark.line + 1, mark.column + 1,
                  f"keys must be strings, found {shown!r} read as {_type_name(key_node)}; quote it or rename it")


def _reject_duplicate(node: yaml.MappingNode, key_node: yaml.ScalarNode) -> None:
    first = next(k for k, _ in node.value if k.__class__ is _SCALAR and k.value == key_node.value)
    mark = key_node.start_mark
    raise _Reject(mark.line + 1, mark.column + 1,
                  f"duplicate key {key_node.value!r} (first defined at line {first.start_mark.line + 1}); "
                  "a key may appear once per mapping")


def _type_name(node: yaml.Node) -> str:
    if not isinstance(node, yaml.ScalarNode):
        return "a " + type(node).__name__[:-4].lower()
    return {"int": "an integer", "float": "a number", "bool": "a boolean", "null": "null",
            "timestamp": "a date"}.get(node.tag.rsplit(":", 1)[-1], node.tag)


def _scalar(node: yaml.ScalarNode) -> Any:
    """A scalar other than text or a date (those stay text): its value, or a rejection."""
    tag = node.tag
    mark = node.start_mark
    if tag not in _SCALAR_TAGS:
        raise _Reject(mark.line + 1, mark.column + 1, f"YAML tags are not allowed (found {tag!r}); records hold plain data only")
    if tag in (_STR, _TIMESTAMP):
        return node.value
    if tag == _T + "bool" and node.value.lower() not in ("true", "false"):
        raise _Reject(mark.line + 1, mark.column + 1,
                      f"{node.value!r} is read as a boolean by YAML 1.1; write true or false, or quote it if you mean text")
    if tag in (_T + "int", _T + "float"):
        return _number(node)
    return _CONSTRUCTOR.construct_object(node)


_CONTROL = fast_yaml.CONTROL  # the characters a record may not hold, raw or escaped
_DECIMAL_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_DECIMAL_FLOAT = re.compile(r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?")
MAX_MAGNITUDE = 10**15


def _number(node: yaml.ScalarNode) -> int | float:
    """A YAML number written the way YAML 1.2 and JSON read it too: decimal, finite, at most MAX_MAGNITUDE.

    YAML 1.1 reads some plain scalars as numbers that nobody writing them means (010 is 8, 1:30 is
    90, 1_000 is 1000, 0x10 is 16, .nan and .inf are not numbers at all); each is rejected with how
    to write the value.
    """
    text, mark = node.value, node.start_mark
    where = (mark.line + 1, mark.column + 1)
    if node.tag == _T + "int" and _DECIMAL_INT.fullmatch(text):
        if len(text.lstrip("+-")) > 16:
            raise _Reject(*where, f"the number {_shorten(text)} is out of range; "
                                  f"numbers in a record are at most 10^15 in magnitude")
        value: int | float = int(text)
    elif node.tag == _T + "float" and _DECIMAL_FLOAT.fullmatch(text):
        value = float(text)
    else:
        raise _Reject(*where, _yaml11_number(text))
    if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise _Reject(*where, f"the number {_shorten(text)} is out of range; numbers in a record are at most 10^15 in magnitude")
    return value


def _yaml11_number(text: str) -> str:
    quoted = f"quote it ({json.dumps(text)}) if you mean text" if len(text) <= 24 else "quote it if you mean text"
    plain = text.lstrip("+-").lower()
    text = _shorten(text)
    if plain in (".nan", ".inf"):
        return (f"{text!r} is not a finite number; write a number, or leave the field out "
                "(and record the gap) if the value is unknown")
    if "_" in text:
        return f"{text!r} is read by YAML 1.1 with its underscores dropped; write the number without underscores, or {quoted}"
    if ":" in text:
        return f"{text!r} is read as a base-60 (sexagesimal) number by YAML 1.1; {quoted}, or write the number in decimal"
    if plain.startswith("0x"):
        return f"{text!r} is a hexadecimal number; write it in decimal, or {quoted}"
    if plain.startswith("0b"):
        return f"{text!r} is read as a binary number by YAML 1.1; write it in decimal, or {quoted}"
    if plain.startswith("0") and len(plain) > 1:
        return f"{text!r} is read as an octal number by YAML 1.1; write it in decimal without the leading zero, or {quoted}"
    return f"{text!r} is not a plain decimal number; write it in decimal, or {quoted}"


def _shorten(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:12]}…{text[-4:]} ({len(text)} characters)"


def _key_position(node: yaml.MappingNode, key: str) -> tuple[int, int]:
    for key_node, _ in node.value:
        if key_node.value == key:
            return key_node.start_mark.line + 1, key_node.start_mark.column + 1
    return 1, 1


_DANGLING = re.compile(r": '([^']*)' is not an? ([a-z-]+) id\b")


def without_cascade(problems: list[Problem]) -> list[Problem]:
    """The problems without "'x' is not a <kind> id" errors for records that failed to load.

    A record that does not load is reported once, by its load error; every reference to it would
    otherwise be reported as dangling too (one syntax error used to print a dozen errors).
    """
    failed: set[tuple[str, str]] = set()
    for problem in problems:
        parts = problem.file.split("/")
        if (problem.rule in (RULE, tree_files.RULE) and len(parts) == 3 and parts[1] in KIND_OF_FOLDER
                and parts[2].endswith(".yaml")):
            failed.add((KIND_OF_FOLDER[parts[1]], parts[2][: -len(".yaml")]))
    if not failed:
        return problems
    kept = []
    for problem in problems:
        match = _DANGLING.search(problem.message) if problem.rule == "refs" else None
        if match is None or (match.group(2), match.group(1)) not in failed:
            kept.append(problem)
    return kept
