"""On-disk cache of work that depends only on a file's bytes: parsed records, schemas already checked.

Entries are keyed by a hash of the content (never by name or time), salted with the source of the
code that produced them, so an entry is either exactly right or never found. One table is keyed by
path instead (load.py's seen-records: a record file's text and content key, used only while the
file's status, its times to the nanosecond, size and inode, is what it was when the file was read
cleanly, and never for a file changed within the last seconds). The cache lives
outside the repository (`$ATLAS_CACHE_DIR`, else `$XDG_CACHE_HOME/quantization-atlas`, else
`~/.cache/quantization-atlas`): a pull request cannot ship a cache that changes what a record
says. `ATLAS_CACHE=off` turns it off. Each save writes the entries this run used to a temporary
file and renames it over the old one, so concurrent runs never see half a file; entries no run
used are dropped then (stale entries cannot pile up). Anything unreadable is treated as empty.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson

FORMAT = 1
_READ: dict[Path, tuple[tuple[int, int, int], str, dict[str, Any]]] = {}  # path -> (stat, salt, entries) last read or written


def content_key(raw: bytes) -> str:
    """The key of a file's bytes."""
    return hashlib.blake2b(raw, digest_size=20).hexdigest()


def cache_dir() -> Path | None:
    """Where the cache lives, or None when it is turned off."""
    if os.environ.get("ATLAS_CACHE", "").lower() in ("0", "off", "no", "false"):
        return None
    if os.environ.get("ATLAS_CACHE_DIR"):
        return Path(os.environ["ATLAS_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "quantization-atlas"


class ContentCache:
    """One named table of {content key: JSON value}, read whole at open and written whole at save."""

    def __init__(self, name: str, salt: str, folder: Path | None = None):
        self.folder = folder if folder is not None else cache_dir()
        self.name = name
        self.salt = salt
        self.entries: dict[str, Any] = {}
        self.used: dict[str, Any] = {}
        self.changed = False
        self.changes = 0  # entries put with a new value since the last save
        if self.folder is not None:
            self.entries = self._read()

    @classmethod
    def for_code(cls, name: str, *sources: str, extra: str = "", folder: Path | None = None) -> ContentCache:
        """A cache salted with the given source files' bytes (the code whose output it keeps) and versions (`extra`)."""
        digest = hashlib.blake2b(f"{FORMAT}|{sys.version}|{extra}".encode(), digest_size=20)
        for source in sources:
            try:
                digest.update(Path(source).read_bytes())
            except OSError:
                digest.update(b"?")
        return cls(name, digest.hexdigest(), folder)

    @property
    def enabled(self) -> bool:
        """False when caching is turned off (nothing is read or kept)."""
        return self.folder is not None

    @property
    def path(self) -> Path | None:
        return None if self.folder is None else self.folder / f"{self.name}.json"

    def get(self, key: str) -> Any:
        """The value stored under key, or None."""
        value = self.entries.get(key)
        if value is not None:
            self.used[key] = value
        return value

    def keep(self, key: str, value: Any) -> None:
        """Mark an entry as still in use (it was found by other means, e.g. an in-memory cache)."""
        self.used[key] = value

    def put(self, key: str, value: Any) -> None:
        if self.used.get(key) != value:
            self.changed = True
            self.changes += 1
        self.used[key] = value

    def replace(self, key: str, value: Any) -> None:
        """put() for a value the caller knows is new, without comparing a large value with the old one."""
        self.changed = True
        self.changes += 1
        self.used[key] = value

    def save(self) -> None:
        """Write the entries used by this run (atomically); silently skipped when the folder cannot be written."""
        path = self.path
        if path is None or (not self.changed and len(self.used) == len(self.entries)):
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=f".{self.name}-", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(_encoded({"salt": self.salt, "entries": self.used}))
                os.replace(temporary, path)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError:
            return
        self.entries, self.changed, self.changes = dict(self.used), False, 0
        with contextlib.suppress(OSError):
            _READ[path] = (_stat_key(path), self.salt, self.entries)

    def save_unless_small(self, share: int = 32) -> None:
        """save(), unless the entries put or dropped are under 1/share of the table: rewriting a large table for one
        edited file costs more than finding that file's entry missing next time (it is then read again)."""
        churn = self.changes + max(0, len(self.entries) - len(self.used))
        if not self.entries or churn * share > len(self.used):
            self.save()

    def _read(self) -> dict[str, Any]:
        """The table's entries; a long-lived process (`mkdocs serve`) parses the file again only when it changed
        since this process last read or wrote it (same size, modification time and inode: the same file)."""
        path = self.path
        try:
            if path is None or path.is_symlink():
                return {}
            stat = _stat_key(path)
            known = _READ.get(path)
            if known is not None and known[0] == stat and known[1] == self.salt:
                return known[2]  # never mutated: save() replaces self.entries with a new dict
            document = orjson.loads(path.read_bytes())
        except (OSError, ValueError):
            return {}
        if not isinstance(document, dict) or document.get("salt") != self.salt or not isinstance(document.get("entries"), dict):
            return {}
        entries: dict[str, Any] = document["entries"]
        _READ[path] = (stat, self.salt, entries)
        return entries


def _encoded(document: dict[str, Any]) -> bytes:
    """Compact JSON: orjson (several times faster on the large page and parse tables), or the standard encoder for
    what orjson does not take (integers beyond 64 bits, lone surrogates)."""
    try:
        return orjson.dumps(document)
    except TypeError:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


def _stat_key(path: Path) -> tuple[int, int, int]:
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size, stat.st_ino
