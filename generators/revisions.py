"""Git revisions as project trees: resolve a revision, and unpack the site's inputs at it into a folder."""
from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from .problems import Problem
from .tree_files import DOCS_MAX_BYTES, MAX_BYTES, RULE, Listing, Refused, decoded, describe_mode, too_large

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
    dest.mkdir(parents=True)
    _write_entries(root, dest, _listing(root, sha, prefix, paths))
    project = dest / prefix if prefix else dest
    project.mkdir(parents=True, exist_ok=True)
    return project


Entry = tuple[str, str, str, str]  # mode, kind, object id, size


_SKIPPED_PARTS = frozenset(("", ".", "..", ".git"))  # path parts never written nor read: an entry holding one is skipped


def _listing(root: Path, sha: str, prefix: str, paths: tuple[str, ...]) -> dict[str, Entry]:
    """{path: entry} of the commit's files under the wanted paths (no `.`, `..` or `.git` parts), submodules left out.

    Sizes come from _blob_sizes rather than `ls-tree -l`, which looks up every file of the repository each time:
    the changelog lists several commits that share most of their files."""
    listed = _git(root, "ls-tree", "-r", "-z", "--full-tree", sha, binary=True)
    if listed.returncode != 0:
        raise DiffError(f"git ls-tree failed for {sha[:12]}: {listed.stderr.decode(errors='replace').strip()}")
    wanted = tuple(prefix + p for p in paths)
    under = tuple(w + "/" for w in wanted)
    entries: dict[str, Entry] = {}
    for entry in listed.stdout.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        path = raw_path.decode("utf-8", errors="surrogateescape")
        if not (path.startswith(under) or path in wanted) or not _SKIPPED_PARTS.isdisjoint(path.split("/")):
            continue  # (the changelog lists a tree per past commit: the whole repository's files, a few wanted)
        mode, kind, obj = meta.decode("ascii").split()
        if mode == "120000" or kind == "blob":
            entries[path] = (mode, kind, obj, "")
    sizes = _blob_sizes(root, [entry[2] for entry in entries.values()])
    return {path: (mode, kind, obj, sizes[obj]) for path, (mode, kind, obj, _) in entries.items()}


_SIZES: dict[str, str] = {}  # blob id -> its size in bytes (an object's size never changes)
_SIZES_KEEP = 200_000


def _blob_sizes(root: Path, objects: list[str]) -> dict[str, str]:
    """The sizes of blobs, those this process has not learnt yet asked in one `git cat-file --batch-check`."""
    if len(_SIZES) > _SIZES_KEEP:
        _SIZES.clear()
    unknown = [obj for obj in dict.fromkeys(objects) if obj not in _SIZES]
    if unknown:
        try:
            result = subprocess.run(["git", "-C", str(root), "cat-file", "--batch-check"],
                                    input="\n".join(unknown).encode() + b"\n", capture_output=True, check=False)
        except FileNotFoundError:
            raise DiffError("git is not installed or not on PATH") from None
        lines = result.stdout.decode("ascii", errors="replace").splitlines()
        if result.returncode != 0 or len(lines) != len(unknown):
            raise DiffError(f"git cat-file failed: {result.stderr.decode(errors='replace').strip()}")
        for obj, line in zip(unknown, lines):
            parts = line.split(" ")
            if len(parts) != 3 or parts[0] != obj:
                raise DiffError(f"git cat-file could not read object {obj}")
            _SIZES[obj] = parts[2]
    return {obj: _SIZES[obj] for obj in objects}


def _write_entries(root: Path, dest: Path, entries: dict[str, Entry]) -> None:
    links = [p for p, e in entries.items() if e[0] == "120000"]
    oversized = [(p, int(e[3])) for p, e in entries.items() if e[0] != "120000" and int(e[3]) > MAX_BLOB_BYTES]
    blobs = [(p, e[2]) for p, e in entries.items() if e[0] != "120000" and int(e[3]) <= MAX_BLOB_BYTES]
    for path, length in oversized:  # never read into memory: a sparse file of its size, refused by the pipeline
        with _new_file(dest / path) as handle:
            handle.truncate(length)
    for path, content in zip((p for p, _ in blobs), _blob_contents(root, [o for _, o in blobs])):
        with _new_file(dest / path) as handle:
            handle.write(content)
    for path in links:
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() and not target.is_symlink():
            os.symlink(".refused-symbolic-link", target)


def _new_file(target: Path) -> BinaryIO:
    """A new file to write at target (its folders made)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    return open(target, "wb")


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


class GitTree:
    """The files of one commit under some folders, read from git's object database into memory: nothing is written.

    It lists and reads as tree_files does a folder of the same files, which is what `Checkout` would write (a test
    compares the two): hidden names are skipped, a symbolic link is refused by name and never resolved, a file over
    the reader's limit is refused by its size without being read. Project-relative paths, as under a root.
    """

    def __init__(self, root: Path, sha: str, prefix: str, paths: tuple[str, ...]):
        self.root = root
        listed = _listing(root, sha, prefix, paths)
        self.entries = {path[len(prefix):]: entry for path, entry in listed.items()}
        self._contents: dict[str, bytes] = {}

    def object_id(self, rel: str) -> str:
        """The git object id of a listed file (equal ids, equal contents)."""
        return self.entries[rel][2]

    def listing(self, folder: str, keep: Callable[[str], bool] = lambda rel: True, limit: int | None = None) -> Listing:
        """tree_files.list_tree's answer for these files: regular files kept, links and oversized files refused."""
        listing = Listing()
        for name in _folders_on_the_way(folder):
            if name in self.entries:  # a file or link where a folder was expected: nothing under it is read
                why = describe_mode(stat.S_IFLNK) if self.entries[name][0] == "120000" else None
                listing.problems.append(Problem(name, 1, 1, RULE, why or "is a file where a folder was expected"))
                return listing
        start = folder + "/"
        for rel, (mode, _, _, size) in self.entries.items():
            if not rel.startswith(start) or rel.startswith(".", len(start)) or "/." in rel[len(start):]:
                continue  # outside the folder, or a hidden name in it
            if not keep(rel):
                continue
            why = describe_mode(stat.S_IFLNK) if mode == "120000" else None
            if why is None and limit is not None and int(size) > limit:
                why = too_large(int(size), limit)
            if why:
                listing.problems.append(Problem(rel, 1, 1, RULE, why))
            else:
                listing.files.append(rel)
        listing.files.sort()
        listing.problems.sort()
        return listing

    def fetch(self, rels: list[str]) -> None:
        """Read these files' blobs in one `git cat-file --batch` (those a reader will ask for; others stay unread)."""
        wanted = [rel for rel in rels if rel not in self._contents and self.entries[rel][0] != "120000"
                  and int(self.entries[rel][3]) <= MAX_BLOB_BYTES]
        self._contents.update(zip(wanted, _blob_contents(self.root, [self.object_id(rel) for rel in wanted])))

    def read_bytes(self, rel: str, limit: int = MAX_BYTES, before: object = None) -> bytes:
        """A listed file's content, as tree_files.Reader.read_bytes gives it (Refused when over `limit`)."""
        mode, _, _, size = self.entries[rel]
        if mode == "120000":
            raise Refused(rel, describe_mode(stat.S_IFLNK) or "")
        if int(size) > limit:
            raise Refused(rel, too_large(int(size), limit))
        if rel not in self._contents:
            self.fetch([rel])
        return self._contents[rel]

    def read_text(self, rel: str, limit: int = MAX_BYTES) -> str:
        """read_bytes decoded as tree_files.read_text decodes a file."""
        return decoded(rel, self.read_bytes(rel, limit))


def _folders_on_the_way(folder: str) -> list[str]:
    parts = folder.split("/")
    return ["/".join(parts[: n + 1]) for n in range(len(parts))]
