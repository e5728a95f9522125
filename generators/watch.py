"""`build --out DIR --watch`: keep a written Markdown tree up to date, rewriting only files whose content changed.

Any site engine's own live server (Zensical's, MkDocs' without our plugin, ...) watches DIR and
reloads what changed, so this route needs no engine plugin. A change under the sources (records/,
schema/, the docs folder) is noticed by the platform's file events where they work (native_watch.py;
else, or as a safety net every second, by polling modification times and sizes with os.scandir),
and confirmed by that snapshot; it re-runs the
pipeline (loading re-parses only the files that changed) and each output file is compared with
what was last written, so an edit to one record rewrites only the pages whose text it changes.
Each file is replaced atomically (temporary file, then rename), and a round renames all its files in one burst after
writing them, so an engine's server sees one change per round. When the pipeline reports an
error the tree is left as it was and the problems are reported.
"""
from __future__ import annotations

import contextlib

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable

from .native_watch import SETTLE, ChangeSignal
from .problems import Problem, has_errors
from .render import hand_written_files
from .render.memo import PageMemo
from .site_cache import generate
from .tree_files import DOCS_MAX_BYTES, Refused, Vanished, read_bytes

WATCHED = ("records", "schema")
MARKER = ".atlas-output"  # in every written tree: `build --out` replaces only a folder that holds it (or an empty one)
MARKER_TEXT = b"Written by `python -m generators build --out`; the whole folder is replaced on the next build.\n"


@dataclass
class Synced:
    """What one round wrote: changed and removed paths (relative to the output folder), and any problems."""

    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def site_files(root: Path, docs_dir: str = "docs", memo: PageMemo | None = None,
               progress: Callable[[int, int], None] | None = None,
               encoded: dict[str, tuple[str, bytes]] | None = None) -> tuple[dict[str, bytes], list[Problem]]:
    """Every file of the Markdown tree, {docs-relative path: bytes}: hand-written files, generated pages, the data API.

    With a memo (kept across rounds by `watch`), pages whose reads did not change are not rendered again; without
    one, a build whose inputs and code are those of an earlier one reads its files from disk (site_cache.py).
    `encoded` ({path: (text, its bytes)}, kept across rounds by `watch`) spares encoding a page whose text is the very
    string of the round before (a page the memo reused).
    """
    generated = generate(root, docs_dir, memo, progress)
    if generated.failed:
        return {}, generated.problems
    problems, pages = list(generated.problems), generated.files
    source = root / docs_dir
    files: dict[str, bytes] = {}
    for path in hand_written_files(source):
        rel = path.relative_to(source).as_posix()
        try:
            files[rel] = read_bytes(source, rel, limit=DOCS_MAX_BYTES)
        except Vanished:
            continue
        except Refused as refused:
            problems.append(refused.problem())
    if encoded is None:
        files.update((page, content.encode("utf-8")) for page, content in pages.items())
    else:
        for page, content in pages.items():
            kept = encoded.get(page)
            if kept is None or kept[0] is not content:
                kept = encoded[page] = (content, content.encode("utf-8"))
            files[page] = kept[1]
        for gone in encoded.keys() - pages.keys():
            del encoded[gone]
    files[MARKER] = MARKER_TEXT
    return files, problems


class TreeWriter:
    """Writes a tree into `out`, remembering each file's bytes, so the next sync touches only what changed (comparing
    bytes is several times cheaper than hashing them, and the tree is a few megabytes)."""

    def __init__(self, out: Path):
        self.out = out
        self.written: dict[str, bytes] = {}
        self.encoded: dict[str, tuple[str, bytes]] = {}  # site_files' encoded pages, for the next round

    def sync(self, files: dict[str, bytes]) -> Synced:
        """Write what changed: every changed file to a temporary name first, then all renamed into place and the
        removed files deleted, in one burst. An engine's server watching the folder (Zensical's debounces its events
        by 20 ms) then sees one change and rebuilds once per round, however many files the round writes and however
        long writing them takes; a round interrupted before its renames leaves the tree as it was."""
        result = Synced()
        changed = [(rel, content) for rel, content in sorted(files.items()) if self.written.get(rel) != content]
        staged: list[str] = []  # temporary names, in the order of `changed`
        try:
            for rel, content in changed:
                staged.append(_staged(self.out / rel, content))
            for temporary, (rel, content) in zip(staged, changed):
                os.replace(temporary, self.out / rel)
                self.written[rel] = content
                result.written.append(rel)
        finally:
            for temporary in staged[len(result.written):]:  # not renamed: an error or an interrupt came first
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary)
        for rel in sorted(set(self.written) - set(files)):
            with contextlib.suppress(FileNotFoundError):
                (self.out / rel).unlink()
            del self.written[rel]
            result.removed.append(rel)
        return result


def _staged(path: Path, content: bytes) -> str:
    """Write `content` to a new hidden temporary file beside `path`; its name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
    except BaseException:
        os.unlink(temporary)
        raise
    return temporary


def snapshot(root: Path, folders: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    """{path: (mtime_ns, size)} of every file under the folders (hidden entries skipped), without following links."""
    seen: dict[str, tuple[int, int]] = {}
    pending = [str(root / folder) for folder in folders]
    while pending:
        try:
            entries = list(os.scandir(pending.pop()))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                    continue
                stat = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            seen[entry.path] = (stat.st_mtime_ns, stat.st_size)
    return seen


SAFETY_POLL = 1.0  # with native events, a snapshot still every second: an event the platform dropped is not lost


def watch(root: Path, out: Path, report: Callable[[Synced], None], docs_dir: str = "docs", interval: float = 0.1,
          rounds: int | None = None, announce: Callable[[str], None] | None = None) -> None:
    """Build into `out`, then sync after every change of the sources (for `rounds` changes, or forever)."""
    writer = TreeWriter(out)
    memo = PageMemo()
    folders = WATCHED + (docs_dir,)
    signal = ChangeSignal([str(root / folder) for folder in folders])  # before the snapshot: no change slips between
    try:
        state = snapshot(root, folders)
        report(sync_once(root, writer, docs_dir, memo))
        if announce is not None:
            announce("watching with native file events" if signal.native else f"polling every {interval} s ({signal.why_not})")
        done = 0
        while rounds is None or done < rounds:
            if signal.wait(SAFETY_POLL if signal.native else interval) and signal.native:
                while signal.wait(SETTLE):
                    pass
            now = snapshot(root, folders)
            if now == state:
                continue
            state = now
            report(sync_once(root, writer, docs_dir, memo))
            done += 1
    finally:
        signal.close()


def sync_once(root: Path, writer: TreeWriter, docs_dir: str = "docs", memo: PageMemo | None = None) -> Synced:
    files, problems = site_files(root, docs_dir, memo, encoded=writer.encoded)
    if has_errors(problems):
        return Synced(problems=problems)
    result = writer.sync(files)
    result.problems = problems
    return result
