"""Writing the complete Markdown tree (hand-written and generated pages) for any MkDocs-compatible engine.

Everything is rendered first; nothing is written when there is an error. The tree is written into a
staging folder next to the target and renamed into place, so the target holds either the old
output or the new one, never half of each:

- the target may be absent (missing parents are created), empty, or an earlier output of this
  command (it holds the marker file watch.MARKER); anything else is refused, as are a file or a symbolic
  link given as the target;
- a replaced target keeps its permissions;
- the staging folder (and a previous output being swapped out) is removed or restored however
  the build ends: an error, Ctrl-C, SIGTERM or SIGHUP (the command line turns those into
  KeyboardInterrupt); concurrent builds into one folder each leave a complete output.
"""
from __future__ import annotations

import os
import shutil
import signal
import stat
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

from .problems import Problem
from .tree_files import Refused
from .watch import MARKER, site_files

RULE = "output"
_SWAP_ATTEMPTS = 20
_HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def write_markdown_tree(root: Path, out: Path, docs_dir: str = "docs",
                        progress: Callable[[int, int], None] | None = None) -> list[Problem]:
    """Render everything, then write it all at once into `out`; on any error nothing is written."""
    out = Path(os.path.abspath(out))
    refusal = target_problem(out)
    if refusal:
        return [Problem(str(out), 1, 1, RULE, refusal)]
    files, problems = site_files(root, docs_dir, progress=progress)  # hand-written files, generated pages, the API, the marker
    if not files or any(p.severity == "error" for p in problems):
        return problems
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return [Problem(str(out), 1, 1, RULE, f"cannot create the parent folder ({error.strerror}); create it or choose another place")]
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.atlas-staging-", dir=out.parent))
    except OSError as error:
        return [Problem(str(out), 1, 1, RULE, f"cannot write next to the output folder ({error.strerror})")]
    try:
        _fill(staging, files)
        _set_mode(staging, out)
        with signals_deferred():
            _swap_into_place(staging, out)
    except Refused as refused:
        return problems + [refused.problem()]
    except OSError as error:
        return problems + [Problem(str(out), 1, 1, RULE, f"cannot write the output ({error.strerror or error})")]
    finally:
        with signals_deferred():
            shutil.rmtree(staging, ignore_errors=True)
    return problems


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP until the block ends, so a swap or a clean-up is never cut in half.

    Python runs signal handlers in the main thread whichever thread the signal reaches, so the
    handlers are swapped for a recorder (a thread mask would not stop them) and the first signal
    held is handed to the original handler afterwards. Outside the main thread nothing can be held.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    previous: dict[int, Any] = {signum: signal.signal(signum, lambda signum, frame: pending.append(signum)) for signum in _HELD}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if pending:
            handler = previous[pending[0]]
            if callable(handler):
                handler(pending[0], None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(pending[0])


def target_problem(out: Path) -> str | None:
    """Why `out` cannot receive the tree, or None."""
    try:
        mode = os.lstat(out).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot inspect the output folder ({error.strerror})"
    if stat.S_ISLNK(mode):
        return "the output path is a symbolic link; give the real folder"
    if not stat.S_ISDIR(mode):
        return "the output path is a file, not a folder; choose a new or empty folder"
    entries = os.listdir(out)
    if entries and MARKER not in entries:
        return "output folder is not empty and was not written by this command; choose an empty or new folder"
    return None


def _fill(staging: Path, files: dict[str, bytes]) -> None:
    for rel, content in files.items():
        (staging / rel).parent.mkdir(parents=True, exist_ok=True)
        (staging / rel).write_bytes(content)


def _set_mode(staging: Path, out: Path) -> None:
    """The replaced folder's permissions, or a fresh folder's (0o777 less the umask)."""
    try:
        mode = stat.S_IMODE(os.stat(out).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o777 & ~umask
    os.chmod(staging, mode)


def _swap_into_place(staging: Path, out: Path) -> None:
    """Rename staging to out; an earlier output is moved aside first and removed after, or restored on failure."""
    for _ in range(_SWAP_ATTEMPTS):
        try:
            os.rename(staging, out)  # succeeds when out is absent or an empty folder
            return
        except OSError as error:
            if not out.is_dir() or out.is_symlink():
                raise
            if target_problem(out):  # someone put something else there meanwhile
                raise OSError(error.errno, "the output folder changed during the build") from None
        aside = Path(tempfile.mkdtemp(prefix=f".{out.name}.atlas-old-", dir=out.parent))
        try:
            try:
                os.rename(out, aside / "old")
            except FileNotFoundError:
                continue  # a concurrent build is swapping: try again
            try:
                os.rename(staging, out)
                return
            except OSError:
                if not os.path.lexists(out):
                    os.rename(aside / "old", out)  # put the earlier output back
        finally:
            shutil.rmtree(aside, ignore_errors=True)
    raise OSError(0, "the output folder kept changing during the build (another build writing to it?)")
