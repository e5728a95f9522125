"""Reads noted while something computes from the atlas: a record by id, a whole kind, a view by name, a record's links
and backlinks, a record's display name, the schemas, the commits; anything read another way notes "everything".

The page memo (render/memo.py) fingerprints a page's reads to render it again only when one changed; the reuse memo
(reuse.py) does the same for views and checks; the check runner (checks/runner.py) keeps a record check's findings
between the changelog's trees when the check read only records by id.
"""
from __future__ import annotations

from typing import Any

Read = tuple[str, ...]
EVERYTHING: Read = ("everything",)


class _Reads:
    def __init__(self) -> None:
        self.found: set[Read] = set()

    def add(self, *read: str) -> None:
        self.found.add(read)


class _RecordingLinks:
    """index.backlinks / index.outgoing as a page reads them: by record reference."""

    def __init__(self, links: dict[str, Any], reads: _Reads, which: str):
        self._links, self._reads, self._which = links, reads, which
        self._note = reads.found.add  # (a read per link a page shows: the set's own method, without a call of ours)

    def get(self, ref: str, default: Any = None) -> Any:
        self._note((self._which, ref))
        return self._links.get(ref, default)

    def __getitem__(self, ref: str) -> Any:
        self._note((self._which, ref))
        return self._links[ref]

    def __contains__(self, ref: object) -> bool:
        self._note((self._which, str(ref)))
        return ref in self._links

    def __getattr__(self, name: str) -> Any:  # iteration, items(), ...: the whole mapping
        self._reads.add(*EVERYTHING)
        return getattr(self._links, name)

    def __iter__(self) -> Any:
        self._reads.add(*EVERYTHING)
        return iter(self._links)

    def __len__(self) -> int:
        self._reads.add(*EVERYTHING)
        return len(self._links)


class _RecordingKinds:
    """index.by_kind as a reader sees it: which kinds there are (iterating it), and a kind's records (by kind)."""

    def __init__(self, by_kind: dict[str, Any], reads: _Reads):
        self._by_kind, self._reads = by_kind, reads

    def __iter__(self) -> Any:
        self._reads.add("kinds")
        return iter(self._by_kind)

    def __len__(self) -> int:
        self._reads.add("kinds")
        return len(self._by_kind)

    def __contains__(self, kind: object) -> bool:
        self._reads.add("kinds")
        return kind in self._by_kind

    def __getitem__(self, kind: str) -> Any:
        self._reads.add("kind", kind)
        return self._by_kind[kind]

    def get(self, kind: str, default: Any = None) -> Any:
        self._reads.add("kind", kind)
        return self._by_kind.get(kind, default)

    def __getattr__(self, name: str) -> Any:  # items(), values(), ...: everything
        self._reads.add(*EVERYTHING)
        return getattr(self._by_kind, name)


class _RecordingIndex:
    def __init__(self, index: Any, reads: _Reads):
        self._index, self._reads = index, reads
        self._note = reads.found.add
        self.backlinks = _RecordingLinks(index.backlinks, reads, "backlinks")
        self.outgoing = _RecordingLinks(index.outgoing, reads, "outgoing")
        self.by_kind = _RecordingKinds(index.by_kind, reads)

    @property
    def gaps(self) -> Any:
        self._reads.add("gaps")
        return self._index.gaps

    def get(self, kind: str, record_id: str) -> Any:
        self._note(("record", kind, record_id))
        return self._index.get(kind, record_id)

    def must(self, kind: str, record_id: str) -> Any:
        self._note(("record", kind, record_id))
        return self._index.must(kind, record_id)

    def by_ref(self, ref: str) -> Any:  # (get's body again: provenance asks it of every citation of every record)
        kind, _, record_id = ref.partition("/")
        self._note(("record", kind, record_id))
        return self._index.get(kind, record_id)

    def all(self, kind: str) -> Any:
        self._reads.add("kind", kind)
        return self._index.all(kind)

    def __getattr__(self, name: str) -> Any:  # by_kind, links, gaps, ...: everything
        self._reads.add(*EVERYTHING)
        return getattr(self._index, name)


class _RecordingViews:
    def __init__(self, views: Any, reads: _Reads):
        self._views, self._reads = views, reads

    def __getattr__(self, name: str) -> Any:
        """The view, noted as read once: it is then kept on this page's recorder, so the page's further reads of it (a
        loop over cells reads `views.cells` per cell) are plain attribute reads."""
        self._reads.add("view", name)
        value = getattr(self._views, name)
        setattr(self, name, value)
        return value


class _RecordingNames:
    def __init__(self, names: dict[str, str], reads: _Reads):
        self._names, self._reads = names, reads
        self._note = reads.found.add  # (every link on a page reads a name)

    def get(self, ref: str, default: Any = None) -> Any:
        self._note(("name", ref))
        return self._names.get(ref, default)

    def __getitem__(self, ref: str) -> str:
        self._note(("name", ref))
        return self._names[ref]

    def __contains__(self, ref: object) -> bool:
        self._note(("name", str(ref)))
        return ref in self._names

    def __getattr__(self, name: str) -> Any:
        self._reads.add(*EVERYTHING)
        return getattr(self._names, name)

    def __iter__(self) -> Any:
        self._reads.add(*EVERYTHING)
        return iter(self._names)


class RecordingAtlas:
    """The atlas as one page sees it: the same answers, each read noted."""

    def __init__(self, atlas: Any, reads: _Reads):
        self._atlas, self._reads = atlas, reads
        self.index = _RecordingIndex(atlas.index, reads)
        self.views = _RecordingViews(atlas.views, reads)
        self.root = atlas.root

    @property
    def schemas(self) -> Any:
        self._reads.add("schemas")
        return self._atlas.schemas

    @property
    def commits(self) -> Any:
        self._reads.add("commits")
        return self._atlas.commits

    @property
    def history_cut(self) -> Any:
        self._reads.add("commits")  # (one read: the commits and where the history stops)
        return self._atlas.history_cut

    def __getattr__(self, name: str) -> Any:
        self._reads.add(*EVERYTHING)
        return getattr(self._atlas, name)
