"""The generated files of a site (pages, data API, feed), kept on disk for the next process that builds the same inputs.

A one-off build (`mkdocs build`, `build --out`) that finds the files of an earlier run with exactly the same inputs
reads them instead of running the pipeline. The key is a hash of every byte the pipeline reads: each file under
records/, schema/ and the docs folder (path and content), the changelog's commits, the options, and the code
(every source of this package, the Python version and the versions of the libraries that shape the output).
A tree holding anything but folders and regular files (a link, a pipe) is never served from the cache: the pipeline
reports it. Only runs without errors are kept.

Entries live in the user's cache folder (generators/cache.py: outside the repository, `ATLAS_CACHE=off` turns it
off), one file per key, written to a temporary file and renamed, checked against its CRC-32 when read (it guards
against damage; whoever can write the cache folder could write a matching hash of any kind); the newest few are
kept and older ones removed. Long-lived processes (`mkdocs serve`, `build --watch`) use their in-memory page memo
instead (render/memo.py). A one-off build that misses keeps its page memo on disk (one table of
generators/cache.py, salted like the key), so the next build after a small edit renders only the pages that read
it. The memo keeps each page's reads and the key of the entry holding its text (the run's own entry, written
first): the texts are written once, and a memo whose entry is gone or damaged is left out whole.
The first one-off build of a docs folder under this code (the table holds no entry for it: a fresh machine, CI, the
first build after a code change) records no reads: noting every read and fingerprinting it is about a tenth of the
generator's work, and only a later build could use it. It keeps an entry without pages instead, so the next one-off
build (or `mkdocs serve`'s first) records them: it renders every page, as it would have to with no memo at all.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import sys
import tempfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import commit_cache
from .cache import ContentCache, cache_dir
from .diff_model import CommitChange
from .problems import Problem, has_errors

if TYPE_CHECKING:
    from .render.memo import PageMemo

FORMAT = b"atlas-site-files 2\n"
KEEP = 4  # entries kept in the folder (several worktrees or branches built in turn)
_KEY = re.compile(r"[0-9a-f]{40}")  # site_key's hex digest: the only names read
LIBRARIES = ("jinja2", "markupsafe", "pyyaml", "jsonschema", "orjson")
SOURCES = ("records", "schema")


@dataclass
class Generated:
    """The generated files of one build ({docs-relative path: text}, empty when it failed) and every problem."""

    files: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    atlas: Any = None  # the run's atlas, None when the files came from the cache or the run failed
    cached: bool = False
    rendered: int | None = None  # with a page memo: files (pages, API) rendered, and reused from an earlier run
    reused: int = 0

    @property
    def failed(self) -> bool:
        return has_errors(self.problems)


def generate(root: Path, docs_dir: str = "docs", memo: PageMemo | None = None,
             progress: Callable[[int, int], None] | None = None) -> Generated:
    """Every generated file of the site and every problem: from the on-disk copy when an earlier run had the same
    inputs and code (and no memo is given), else by running the pipeline (and keeping its files when it is clean).

    The pipeline renders only the files whose reads changed: with the memo given (a long-lived process; its first
    build starts from the copy one-off builds kept), or with the memo one-off builds keep on disk."""
    from .build import cycle_collection_paused
    with cycle_collection_paused(freeze=memo is None):  # no memo: a one-off build (long-lived processes keep one)
        return _generate(root, docs_dir, memo, progress)


def _generate(root: Path, docs_dir: str, memo: PageMemo | None,
              progress: Callable[[int, int], None] | None) -> Generated:
    from .build import run_pipeline
    from .record_history import Current, history_cut, record_history
    if memo is not None and memo.reuse is None:  # a long-lived process: views and checks are reused between its runs
        from .reuse import ReuseMemo
        memo.reuse = ReuseMemo()
    # the changelog's newest side is usually the working tree: check it once for both
    current = Current(root, reuse=memo.reuse if memo is not None else None)
    commits = record_history(root, current=current)
    cut = history_cut(root, len(commits))
    key = site_key(root, docs_dir, commits, cut) if memo is None else None
    memo_table = None
    if key is not None:
        found = read(key)
        if found is not None:
            return found
        memo, memo_table = _kept_memo(docs_dir)
    elif memo is not None and not memo.pages:  # a long-lived process's first build starts from what one-off builds kept
        kept, _ = _kept_memo(docs_dir)
        memo.pages = kept.pages if kept is not None else {}
    run = run_pipeline(root, docs_dir, commits=commits, memo=memo, progress=progress, checked=current.checked,
                       history_cut=cut)
    if run.failed or run.atlas is None:
        return Generated({}, list(run.problems))
    from .render.api import api_files
    from .render.changelog import changelog_files
    from .render.selector_data import selector_files
    api = api_files(run.atlas, memo)
    selector = selector_files(api, memo.selector if memo is not None else None)
    generated = Generated({**run.pages, **api, **selector, **changelog_files(run.atlas)}, list(run.problems), run.atlas)
    if memo is not None:
        generated.rendered, generated.reused = memo.rendered, memo.reused
    if key is not None and write(key, generated) and memo_table is not None:
        _keep_memo(memo_table, docs_dir, memo, key)
    return generated


def _kept_memo(docs_dir: str) -> tuple[PageMemo | None, ContentCache | None]:
    """The page memo the last one-off build of this docs folder kept on disk (with the table it came from); no memo
    when the table holds no entry for the folder (the build records no reads: see the module docstring)."""
    from .render.memo import PageMemo
    table = ContentCache("page-memo", code_salt().hex())
    if not table.enabled:
        return None, None
    value = table.get(docs_dir)
    if value is None:
        return None, table
    memo = PageMemo()
    if isinstance(value, dict) and isinstance(value.get("pages"), dict):
        texts = read(value.get("texts"))
        if texts is not None:
            memo.add_values(value["pages"], texts.files)
    return memo, table


def _keep_memo(table: ContentCache, docs_dir: str, memo: PageMemo | None, key: str) -> None:
    """Keep this run's pages and their reads for the next one-off build (one entry per docs folder), with the key of
    the entry that holds their texts (this run's, already written); without a memo (the run recorded no reads) an
    entry without pages, so the next build records them."""
    table.replace(docs_dir, {"texts": key, "pages": memo.as_values() if memo is not None else {}})
    table.save()


@functools.lru_cache(maxsize=1)
def code_salt() -> bytes:
    """The code that shapes the output: this package's sources, Python, and the libraries' versions."""
    digest = hashlib.blake2b(FORMAT + sys.version.encode(), digest_size=20)
    for name in LIBRARIES:
        with contextlib.suppress(metadata.PackageNotFoundError):
            digest.update(f"{name}=={metadata.version(name)}\n".encode())
    for source in commit_cache.code_files():
        digest.update(Path(source).read_bytes())
    return digest.digest()


def site_key(root: Path, docs_dir: str, commits: tuple[CommitChange, ...], cut: str | None = None) -> str | None:
    """The hash of everything a build reads, or None (caching off, or a tree the cache does not take)."""
    if cache_dir() is None:
        return None
    digest = hashlib.blake2b(code_salt(), digest_size=20)
    try:
        digest.update(json.dumps([docs_dir, cut, [[c.sha, c.date, c.subject, commit_cache.as_value(c)] for c in commits]],
                                 ensure_ascii=False, sort_keys=True).encode())
    except (TypeError, ValueError):
        return None
    for folder in (*SOURCES, docs_dir):
        if not _hash_tree(root / folder, f"{folder}/", digest):
            return None
    return digest.hexdigest()


def _hash_tree(folder: Path, prefix: str, digest: Any) -> bool:
    """Add every file's path and bytes under folder to digest; False on anything but folders and regular files."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return False
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                if not _hash_tree(Path(entry.path), f"{prefix}{entry.name}/", digest):
                    return False
                continue
            if not entry.is_file(follow_symlinks=False):
                return False
            with open(entry.path, "rb") as handle:
                content = handle.read()
        except OSError:
            return False
        digest.update(f"{prefix}{entry.name}\0{len(content)}\0".encode("utf-8", "surrogateescape"))
        digest.update(content)
    return True


def _folder() -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / "site-files"


def read(key: object) -> Generated | None:
    """The files kept under key, or None (not a key, not there, unreadable, or not what was written)."""
    folder = _folder()
    if folder is None or not isinstance(key, str) or not _KEY.fullmatch(key):
        return None
    path = folder / f"{key}.files"
    try:
        if path.is_symlink():
            return None
        data = path.read_bytes()
        header_end = data.index(b"\n", len(FORMAT))
        if not data.startswith(FORMAT):
            return None
        header = json.loads(data[len(FORMAT):header_end])
        blob = memoryview(data)[header_end + 1:]
        if zlib.crc32(blob) != header["crc32"]:
            return None
        files, at = {}, 0
        for name, size in zip(header["paths"], header["sizes"]):
            files[name] = str(blob[at:at + size], "utf-8")
            at += size
        problems = [Problem(**p) for p in header["problems"]]
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: kept when older entries are removed
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return Generated(files, problems, None, True) if at == len(blob) else None


def write(key: str, generated: Generated) -> bool:
    """Keep the files under key (atomically), then remove all but the newest KEEP entries; False (and nothing else)
    when they could not be kept."""
    folder = _folder()
    if folder is None:
        return False
    names = sorted(generated.files)
    contents = [generated.files[n].encode("utf-8") for n in names]
    crc = 0
    for content in contents:
        crc = zlib.crc32(content, crc)
    header = {"paths": names, "sizes": [len(c) for c in contents], "problems": [p.as_dict() for p in generated.problems],
              "crc32": crc}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".site-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(FORMAT + json.dumps(header, ensure_ascii=True).encode() + b"\n")
                out.writelines(contents)
            os.replace(temporary, folder / f"{key}.files")
        except BaseException:
            os.unlink(temporary)
            raise
        _prune(folder, keep=folder / f"{key}.files")
    except OSError:
        return False
    return True


def _prune(folder: Path, keep: Path) -> None:
    """Remove all but the newest KEEP entries, never `keep` (just written: another process may have given an older
    entry a newer time)."""
    entries = []
    for path in folder.glob("*.files"):
        with contextlib.suppress(OSError):
            entries.append((path.stat().st_mtime_ns, path))
    for _, path in sorted(entries, reverse=True)[KEEP:]:
        if path != keep:
            with contextlib.suppress(OSError):
                path.unlink()
