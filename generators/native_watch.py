"""Native file-change events for the live routes (`mkdocs serve`, `build --watch`), with polling as the fallback.

MkDocs 1.6 watches with a polling observer that walks every watched folder each 0.5 s, so an edit waits 0.25 s on
average before its rebuild begins; the platform's own events (inotify, FSEvents, ReadDirectoryChangesW, through
watchdog) arrive within milliseconds. The rules:
- only changes wake a rebuild: a file created, written, closed after writing, touched, deleted or moved, and a folder
  created, deleted or moved (the files in it came or went). Opening or reading a file is not a change: a build reads
  the records, so waking on reads would rebuild forever.
- native events are used only when an observer of the platform starts on every watched path (tried once, then
  stopped); otherwise, or with ATLAS_WATCH=poll (folders on network or container mounts, whose changes the kernel
  never reports), polling stays.
- with native events a rebuild starts once no event came for SETTLE seconds (MkDocs waits 0.1 s, sized for polling).
"""
from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterable
from typing import Any

from watchdog.events import (DirCreatedEvent, DirDeletedEvent, DirMovedEvent, FileAttribEvent, FileClosedEvent,
                             FileCreatedEvent, FileDeletedEvent, FileModifiedEvent, FileMovedEvent,
                             FileSystemEvent, FileSystemEventHandler)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch

CHANGES: list[type[FileSystemEvent]] = [FileCreatedEvent, FileModifiedEvent, FileClosedEvent, FileAttribEvent,
                                        FileDeletedEvent, FileMovedEvent, DirCreatedEvent, DirDeletedEvent,
                                        DirMovedEvent]
POLL = "poll"  # ATLAS_WATCH's value that keeps polling
SETTLE = 0.05  # after a native event, wait until none came for this long (an editor's save is several events, ms apart)


class _FolderAsFile(FileSystemEventHandler):
    """Hands a folder's creation, deletion or move on as a file event: MkDocs drops folder events, but the files
    inside such a folder joined or left the site (a polling observer would report each of them)."""

    def __init__(self, handler: FileSystemEventHandler):
        self.handler = handler

    def dispatch(self, event: FileSystemEvent) -> None:
        if event.is_directory:
            event = FileModifiedEvent(event.src_path)
        self.handler.dispatch(event)


class _ChangesOnly(Observer):  # type: ignore[misc,valid-type]  # Observer is the platform's class, chosen at import
    """The platform's observer, with every `schedule` (ours, and MkDocs' own `server.watch`) narrowed to changes."""

    def schedule(self, event_handler: FileSystemEventHandler, path: str, *, recursive: bool = False,
                 event_filter: Any = None, follow_symlink: bool = False) -> ObservedWatch:
        watch: ObservedWatch = super().schedule(_FolderAsFile(event_handler), path, recursive=recursive,
                                                event_filter=CHANGES, follow_symlink=follow_symlink)
        return watch


def _observer(paths: Iterable[str], handler: FileSystemEventHandler) -> BaseObserver:
    observer = _ChangesOnly()
    for path in paths:
        observer.schedule(handler, path, recursive=True)
    return observer


def native_available(paths: list[str]) -> str | None:
    """None when a native observer starts on every path; else why not (ATLAS_WATCH=poll, or the platform's error)."""
    if os.environ.get("ATLAS_WATCH", "").strip().lower() == POLL:
        return "ATLAS_WATCH=poll"
    probe = _observer(paths, FileSystemEventHandler())
    try:
        probe.start()
    except OSError as error:  # no inotify, too many watches, a path gone: polling still works
        with contextlib.suppress(Exception):
            probe.stop()  # the emitters that did start
        return f"native events unavailable ({error.strerror or error})"
    probe.stop()
    probe.join()
    return None


def use_native_events(server: Any) -> str:
    """Move the paths a MkDocs LiveReloadServer watches (before it starts) to a native observer; says which is used.

    MkDocs 1.6 keeps its watches in `_watched_paths` (path -> count) and `_watch_refs`; a server without them keeps
    its own observer."""
    watched, refs = getattr(server, "_watched_paths", None), getattr(server, "_watch_refs", None)
    if not isinstance(watched, dict) or not isinstance(refs, dict) or getattr(server, "observer", None) is None:
        return "polling (this MkDocs keeps its watches elsewhere)"
    why_not = native_available(list(watched))
    if why_not:
        return f"polling ({why_not})"
    counts = dict(watched)
    watched.clear()
    refs.clear()
    server.observer = _ChangesOnly()
    for path, count in counts.items():
        server.watch(path)
        watched[path] = count
    server.build_delay = min(getattr(server, "build_delay", SETTLE), SETTLE)
    return "native file events"


class ChangeSignal:
    """Set when anything changes under the folders (native events, or nothing when they are unavailable: the caller
    then polls); `wait` returns at the first change or after the timeout."""

    def __init__(self, folders: list[str]):
        self.event = threading.Event()
        present = [folder for folder in folders if os.path.isdir(folder)]
        self.why_not = native_available(present)
        self.observer: BaseObserver | None = None
        if self.why_not is None:
            handler = FileSystemEventHandler()
            handler.on_any_event = lambda event: self.event.set()  # type: ignore[method-assign]
            self.observer = _observer(present, handler)
            self.observer.start()

    @property
    def native(self) -> bool:
        return self.observer is not None

    def wait(self, timeout: float) -> bool:
        woken = self.event.wait(timeout)
        self.event.clear()
        return woken

    def close(self) -> None:
        if self.observer is not None:
            self.observer.stop()
            self.observer.join()
