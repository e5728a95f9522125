"""Results kept between the trees one process builds: per key, the last few results with the inputs they came from.

The changelog builds the working tree and several past trees whose records are mostly the same objects (load gives
a file loaded alike the same record, and record data are never changed once loaded), so a result computed from the
very same input objects can be taken again. The caller says when an entry's inputs are the same (by identity); a
hit moves to the front, so the trees a process goes back and forth between keep their entries.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Entry = TypeVar("Entry")


class LastFew(Generic[Entry]):
    """Per key, the last `per_key` entries, the most recently kept or taken first."""

    def __init__(self, per_key: int = 4) -> None:  # the working tree and the changelog's past trees
        self._entries: dict[Hashable, list[Entry]] = {}
        self._per_key = per_key

    def find(self, key: Hashable, same: Callable[[Entry], bool]) -> Entry | None:
        """The first entry of `key` for which `same` holds (moved to the front), or None."""
        entries = self._entries.get(key, [])
        for at, entry in enumerate(entries):
            if same(entry):
                entries.insert(0, entries.pop(at))
                return entry
        return None

    def keep(self, key: Hashable, entry: Entry) -> None:
        """Keep `entry` first under `key`, dropping the oldest beyond `per_key`."""
        entries = self._entries.setdefault(key, [])
        entries.insert(0, entry)
        del entries[self._per_key:]
