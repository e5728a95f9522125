"""Reading the project tree: regular files inside the root only, each within a size limit.

Every reader of the tree (load, the schema loader, the template loader in render.tree_loader, diff, `build --out`, the
MkDocs plugin) lists and reads through this module, so nothing outside the repository is opened:

- a path is opened one component at a time from the root with O_NOFOLLOW, so a symbolic link
  anywhere on the way is refused, never followed (dangling links, loops and links to devices
  included);
- each entry is checked with lstat before it is opened, and the open descriptor with fstat, so a
  FIFO, device or socket is refused and never hangs a read (the leaf is opened O_NONBLOCK too);
- a file over MAX_BYTES is refused with its size; an unreadable one is a located error; a file
  that vanished between listing and reading (editor temp files, branch switches) is skipped.
"""
from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from collections.abc import Callable, Iterator
from typing import Protocol

from .problems import Problem

RULE = "files"
MAX_BYTES = 512 * 1024  # the largest record: a harness observation of every modelled vLLM cell is about 260 KB
DOCS_MAX_BYTES = 1024 * 1024
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)


class Refused(Exception):
    """A path the atlas will not read; `message` says why and what to do, without any of the file's content."""

    def __init__(self, rel: str, message: str):
        super().__init__(f"{rel}: {message}")
        self.rel, self.message = rel, message

    def problem(self) -> Problem:
        return Problem(self.rel, 1, 1, RULE, self.message)


class Vanished(Refused):
    """The file existed when the tree was listed and is gone now."""


@dataclass
class Listing:
    """The regular files under a folder (root-relative POSIX paths, sorted) and every entry refused."""

    files: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


class StoredTree(Protocol):
    """Files kept somewhere other than a folder (revisions.GitTree: a commit), listed and read by this module's rules."""

    def object_id(self, rel: str) -> str: ...  # equal ids, equal contents

    def listing(self, folder: str, keep: Callable[[str], bool] = ..., limit: int | None = None) -> Listing: ...

    def fetch(self, rels: list[str]) -> None: ...  # the contents of these files will be read: read them together

    def read_bytes(self, rel: str, limit: int = MAX_BYTES, before: object = None) -> bytes: ...

    def read_text(self, rel: str, limit: int = MAX_BYTES) -> str: ...


def describe_mode(mode: int) -> str | None:
    """Why an entry of this mode is refused, or None for a regular file or a folder."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISLNK(mode):
        return ("is a symbolic link; the atlas reads only regular files inside the repository, "
                "so replace the link with the file itself")
    what = ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a character device" if stat.S_ISCHR(mode)
            else "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    return f"is {what}, not a regular file; the atlas reads only regular files, so remove it"


def too_large(size: int, limit: int = MAX_BYTES) -> str:
    return (f"file is {size} bytes, over the limit of {limit} bytes per file; "
            "split it into smaller records or shorten it")


def _parts(rel: str) -> tuple[str, ...]:
    parts = tuple(rel.split("/"))
    if "" not in parts and "." not in parts and ".." not in parts:
        return parts  # the common case (a relative path has no empty part), without building path objects
    parts = PurePosixPath(rel).parts
    if not parts or PurePosixPath(rel).is_absolute() or any(p in ("", ".", "..") for p in parts):
        raise Refused(rel, "is not a path inside the repository")
    return parts


def _os_refusal(rel: str, error: OSError) -> Refused:
    if error.errno in (errno.ELOOP, errno.EMLINK):
        return Refused(rel, describe_mode(stat.S_IFLNK) or "")
    if isinstance(error, FileNotFoundError):
        return Vanished(rel, "file vanished while the tree was read; run again")
    if isinstance(error, PermissionError):
        return Refused(rel, "cannot be read (permission denied); make it readable")
    if error.errno == errno.ENOTDIR:
        return Refused(rel, "a folder on its path is not a folder (or is a symbolic link)")
    return Refused(rel, f"cannot be read ({error.strerror or type(error).__name__})")


def _open_dir(root: Path, parts: tuple[str, ...], rel: str) -> int:
    """A descriptor of root/parts, opened without following any symbolic link below the root."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:
        for index, part in enumerate(parts):
            try:
                mode = os.stat(part, dir_fd=fd, follow_symlinks=False).st_mode
            except OSError as error:
                raise _os_refusal("/".join(parts[: index + 1]), error) from None
            if not stat.S_ISDIR(mode):
                why = describe_mode(mode) or "is a file where a folder was expected"
                raise Refused("/".join(parts[: index + 1]), why)
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as error:
                raise _os_refusal("/".join(parts[: index + 1]), error) from None
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(root: Path, rel: str, limit: int = MAX_BYTES) -> bytes:
    """The content of the regular file root/rel; raises Refused (or Vanished) otherwise."""
    parts = _parts(rel)
    dir_fd = _open_dir(Path(root), parts[:-1], rel)
    try:
        return _read_in(dir_fd, parts[-1], rel, limit)
    finally:
        os.close(dir_fd)


class Reader:
    """Reads many files under one root like read_bytes, opening each folder on the way once, not once per file.

    Use as a context manager (the folders' descriptors are closed at exit). A folder is opened
    component by component without following links, as read_bytes does; a folder swapped for a
    link after it was opened is not followed either, since its descriptor is kept.
    """

    def __init__(self, root: Path):
        self.root = Path(root)
        self.absolute = os.path.abspath(root)
        self.folders: dict[tuple[str, ...], int] = {}

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        for fd in self.folders.values():
            os.close(fd)
        self.folders.clear()

    def _folder(self, parts: tuple[str, ...], rel: str) -> int:
        fd = self.folders.get(parts)
        if fd is None:
            fd = self.folders[parts] = _open_dir(self.root, parts, rel)
        return fd

    def lstat(self, rel: str) -> os.stat_result:
        """The entry's own status (a link is not followed); raises Refused or Vanished."""
        parts = _parts(rel)
        try:
            return os.stat(parts[-1], dir_fd=self._folder(parts[:-1], rel), follow_symlinks=False)
        except OSError as error:
            raise _os_refusal(rel, error) from None

    def read_bytes(self, rel: str, limit: int = MAX_BYTES, before: os.stat_result | None = None) -> bytes:
        """The file's content, as read_bytes; `before` is its lstat from this reader a moment ago, if the caller has it."""
        parts = _parts(rel)
        return _read_in(self._folder(parts[:-1], rel), parts[-1], rel, limit, before)


def _read_in(dir_fd: int, name: str, rel: str, limit: int, before: os.stat_result | None = None) -> bytes:
    if before is None:
        try:
            before = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except OSError as error:
            raise _os_refusal(rel, error) from None
    why = describe_mode(before.st_mode) if not stat.S_ISDIR(before.st_mode) else "is a folder, not a file"
    if why:
        raise Refused(rel, why)
    if before.st_size > limit:
        raise Refused(rel, too_large(before.st_size, limit))
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError as error:
        raise _os_refusal(rel, error) from None
    try:
        after = os.fstat(fd)
        if not stat.S_ISREG(after.st_mode):  # swapped between lstat and open
            raise Refused(rel, describe_mode(after.st_mode) or "is not a regular file")
        chunks: list[bytes] = []
        size, want = 0, min(after.st_size, limit) + 1  # one read for a file that keeps its size; more if it grows
        while True:
            try:
                chunk = os.read(fd, want)
            except OSError as error:
                raise _os_refusal(rel, error) from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise Refused(rel, too_large(size, limit))
            if len(chunk) < want:
                break  # a short read of a regular file is its end
            want = 65536
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(root: Path, rel: str, limit: int = MAX_BYTES) -> str:
    """read_bytes decoded as UTF-8; a file that is not UTF-8 is Refused with the offending byte's line."""
    return decoded(rel, read_bytes(root, rel, limit))


def decoded(rel: str, raw: bytes) -> str:
    """A file's bytes as UTF-8 text; Refused with the offending byte's line when they are not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise Refused(rel, f"line {line}: file is not valid UTF-8 (byte 0x{raw[error.start]:02x}); save it as UTF-8") from None


def write_new_file(root: Path, rel: str, content: bytes) -> None:
    """Create root/rel (missing folders too) without following any link; Refused if it exists or a link is in the way."""
    parts = _parts(rel)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:
        for index, part in enumerate(parts[:-1]):
            try:
                os.mkdir(part, dir_fd=fd)
            except FileExistsError:
                pass
            except OSError as error:
                raise _os_refusal("/".join(parts[: index + 1]), error) from None
            mode = os.stat(part, dir_fd=fd, follow_symlinks=False).st_mode
            if not stat.S_ISDIR(mode):
                raise Refused("/".join(parts[: index + 1]), describe_mode(mode) or "is a file where a folder was expected")
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as error:
                raise _os_refusal("/".join(parts[: index + 1]), error) from None
            os.close(fd)
            fd = child
        try:
            out = os.open(parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
                          0o666, dir_fd=fd)
        except FileExistsError:
            raise Refused(rel, "already exists; edit it or choose another id") from None
        except OSError as error:
            raise _os_refusal(rel, error) from None
        with os.fdopen(out, "wb") as handle:
            handle.write(content)
    finally:
        os.close(fd)


def regular_file(root: Path, rel: str) -> bool:
    """True when root/rel is a regular file reached through folders only (no symbolic link on the way)."""
    try:
        parts = _parts(rel)
        dir_fd = _open_dir(Path(root), parts[:-1], rel)
    except Refused:
        return False
    try:
        return stat.S_ISREG(os.stat(parts[-1], dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False
    finally:
        os.close(dir_fd)


def list_tree(root: Path, folder: str, keep: Callable[[str], bool] = lambda rel: True,
              skip_hidden: bool = True, limit: int | None = None) -> Listing:
    """Every regular file under root/folder that `keep` accepts; every other entry kept by `keep` is a problem.

    Hidden entries (a name starting with '.') are skipped when `skip_hidden`. A folder that is
    absent gives an empty listing; a folder that is a symbolic link is refused. With `limit`, a
    file larger than it is refused too (it is not listed).
    """
    listing = Listing()
    try:
        fd = _open_dir(Path(root), _parts(folder), folder)
    except Vanished:
        return listing
    except Refused as refused:
        listing.problems.append(refused.problem())
        return listing
    try:
        for rel, entry in _walk(fd, folder, skip_hidden, listing):
            if not keep(rel):
                continue
            if limit is None and entry.is_file(follow_symlinks=False):
                listing.files.append(rel)  # a regular file, known from the folder listing without a stat
                continue
            try:
                status = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue  # vanished since listing: the tree as it is now does not hold it
            except OSError as error:
                listing.problems.append(_os_refusal(rel, error).problem())
                continue
            why = describe_mode(status.st_mode)
            if why is None and limit is not None and status.st_size > limit:
                why = too_large(status.st_size, limit)
            if why:
                listing.problems.append(Problem(rel, 1, 1, RULE, why))
            else:
                listing.files.append(rel)
    finally:
        os.close(fd)
    listing.files.sort()
    listing.problems.sort()
    return listing


def _walk(fd: int, prefix: str, skip_hidden: bool, listing: Listing) -> Iterator[tuple[str, os.DirEntry[str]]]:
    try:
        with os.scandir(fd) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError as error:
        listing.problems.append(_os_refusal(prefix, error).problem())
        return
    for entry in entries:
        name = entry.name
        if skip_hidden and name.startswith("."):
            continue
        rel = f"{prefix}/{name}"
        try:
            folder = entry.is_dir(follow_symlinks=False)  # the folder listing's type, or lstat where it gives none
        except OSError as error:
            listing.problems.append(_os_refusal(rel, error).problem())
            continue
        if not folder:
            yield rel, entry
            continue
        try:
            child = os.open(name, _DIR_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            continue
        except OSError as error:
            listing.problems.append(_os_refusal(rel, error).problem())
            continue
        try:
            yield from _walk(child, rel, skip_hidden, listing)
        finally:
            os.close(child)
