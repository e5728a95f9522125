"""Git revisions as project trees: resolve a revision, and unpack the site's inputs at it into a folder."""
from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .tree_files import DOCS_MAX_BYTES

SITE_PATHS = ("records", "schema", "docs", "mkdocs.yml")
MAX_BLOB_BYTES = DOCS_MAX_BYTES  # the largest file any reader accepts; a larger blob is never read


class DiffError(Exception):
    """A user error: not a git repository, or a revision git does not know."""


def _git(root: Path, *args: str, binary: bool = False) -> subprocess.CompletedProcess[Any]:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=not binary, check=False)
    except FileNotFoundError:
        raise DiffError("git is not installed or not on PATH") from None


def project_prefix(root: Path) -> str:
    """Where the project root sits inside its git work tree ('' at the top)."""
    result = _git(root, "rev-parse", "--show-prefix")
    if result.returncode != 0:
        raise DiffError(f"{root} is not a git repository (or git cannot read it); diff compares git revisions")
    return str(result.stdout).strip()


def verify_revision(root: Path, rev: str) -> str:
    """The commit a revision names, or DiffError saying how to get it."""
    result = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if result.returncode != 0 or not result.stdout.strip():
        raise DiffError(f"unknown revision {rev!r}; give a commit, branch or tag git knows "
                        f"(for a remote branch, fetch it first: git fetch origin)")
    return str(result.stdout).strip()


def materialise(root: Path, sha: str, prefix: str, dest: Path, paths: tuple[str, ...] = SITE_PATHS) -> Path:
    """Write the site paths of commit `sha` (or only `paths` of them) into dest from git's object database; return
    the project root in it.

    Only blobs are written as files. A symbolic link (mode 120000) is recreated as a link to a name
    that does not exist, never to its recorded target, so the pipeline refuses it by name exactly
    as it refuses a link in the working tree, and nothing it pointed at is ever read. Submodules
    (mode 160000) are skipped.
    """
    return Checkout(root, prefix, dest, paths).move_to(sha)


Entry = tuple[str, str, str, str]  # mode, kind, object id, size


class Checkout:
    """A folder that holds the site paths of one commit at a time (written as `materialise` describes).

    Moving it to another commit writes only the entries that differ. A changed file is written under a temporary
    name and renamed over the old one, so it never keeps the old file's inode: a reader that knows a file by its
    inode, size and modification time (load's in-memory cache) sees every change, and reuses what did not change.
    """

    def __init__(self, root: Path, prefix: str, dest: Path, paths: tuple[str, ...] = SITE_PATHS):
        self.root, self.prefix, self.dest, self.paths = root, prefix, dest, paths
        self.entries: dict[str, Entry] | None = None

    def move_to(self, sha: str) -> Path:
        """Make the folder hold commit `sha`; return the project root in it."""
        new = _listing(self.root, sha, self.prefix, self.paths)
        old = self.entries
        if old is None:
            self.dest.mkdir(parents=True)
            _write_entries(self.root, self.dest, new, replace=False)
        else:
            for path in sorted(set(old) - set(new), reverse=True):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.dest / path)
                for folder in (self.dest / path).parents:  # a folder left empty goes too, as in a fresh checkout
                    if folder == self.dest:
                        break
                    try:
                        folder.rmdir()
                    except OSError:
                        break
            _write_entries(self.root, self.dest, {p: e for p, e in new.items() if old.get(p) != e}, replace=True)
        self.entries = new
        project = self.dest / self.prefix if self.prefix else self.dest
        project.mkdir(parents=True, exist_ok=True)
        return project


def _listing(root: Path, sha: str, prefix: str, paths: tuple[str, ...]) -> dict[str, Entry]:
    """{path: entry} of the commit's files under the wanted paths (no `.`, `..` or `.git` parts), submodules left out."""
    listed = _git(root, "ls-tree", "-r", "-z", "-l", "--full-tree", sha, binary=True)
    if listed.returncode != 0:
        raise DiffError(f"git ls-tree failed for {sha[:12]}: {listed.stderr.decode(errors='replace').strip()}")
    wanted = tuple(prefix + p for p in paths)
    entries: dict[str, Entry] = {}
    for entry in listed.stdout.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, kind, obj, size = meta.decode("ascii").split()
        path = raw_path.decode("utf-8", errors="surrogateescape")
        if not any(path == w or path.startswith(w + "/") for w in wanted) or any(
                part in ("", ".", "..", ".git") for part in path.split("/")):
            continue
        if mode == "120000" or kind == "blob":
            entries[path] = (mode, kind, obj, size)
    return entries


def _write_entries(root: Path, dest: Path, entries: dict[str, Entry], replace: bool) -> None:
    links = [p for p, e in entries.items() if e[0] == "120000"]
    oversized = [(p, int(e[3])) for p, e in entries.items() if e[0] != "120000" and int(e[3]) > MAX_BLOB_BYTES]
    blobs = [(p, e[2]) for p, e in entries.items() if e[0] != "120000" and int(e[3]) <= MAX_BLOB_BYTES]
    for path, length in oversized:  # never read into memory: a sparse file of its size, refused by the pipeline
        with _new_file(dest / path, replace) as handle:
            handle.truncate(length)
    for path, content in zip((p for p, _ in blobs), _blob_contents(root, [o for _, o in blobs])):
        with _new_file(dest / path, replace) as handle:
            handle.write(content)
    for path in links:
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if replace:
            temporary = target.with_name(f".{target.name}.atlas-new")
            os.symlink(".refused-symbolic-link", temporary)
            os.replace(temporary, target)
        elif not target.exists() and not target.is_symlink():
            os.symlink(".refused-symbolic-link", target)


@contextlib.contextmanager
def _new_file(target: Path, replace: bool) -> Iterator[BinaryIO]:
    """A file to write at target: directly, or (replace) under a temporary name renamed over target when done."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if not replace:
        with open(target, "wb") as handle:
            yield handle
        return
    temporary = target.with_name(f".{target.name}.atlas-new")
    with open(temporary, "wb") as handle:
        yield handle
    os.replace(temporary, target)


def _blob_contents(root: Path, objects: list[str]) -> list[bytes]:
    """The contents of blobs, read in one `git cat-file --batch`."""
    if not objects:
        return []
    try:
        result = subprocess.run(["git", "-C", str(root), "cat-file", "--batch"], input="\n".join(objects).encode() + b"\n",
                                capture_output=True, check=False)
    except FileNotFoundError:
        raise DiffError("git is not installed or not on PATH") from None
    if result.returncode != 0:
        raise DiffError(f"git cat-file failed: {result.stderr.decode(errors='replace').strip()}")
    out, at, contents = result.stdout, 0, []
    for _ in objects:
        header_end = out.index(b"\n", at)
        header = out[at:header_end].split(b" ")
        if len(header) != 3:
            raise DiffError(f"git cat-file could not read object {header[0].decode(errors='replace')}")
        size = int(header[2])
        contents.append(out[header_end + 1: header_end + 1 + size])
        at = header_end + 1 + size + 1
    return contents
