"""Page memo for long-lived processes (`mkdocs serve`, `build --watch`): a page is rendered again only when
something it read changed.

While a page renders, the atlas it sees records every read: a record by id, a whole kind, a view by
name, a record's links and backlinks, a record's display name, the schemas. The next run reuses the
page's Markdown (and its problems) when every read gives the same answer as before: same record
text, same records of the kind, an equal view, equal links, the same name, equal schemas, and the
same template sources. Anything read some other way (an attribute the recorder does not know)
marks the page as reading everything, so it always renders. A run without a memo (`check`, a
one-off build) renders every page, as before.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..problems import Problem

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

    def get(self, ref: str, default: Any = None) -> Any:
        self._reads.add(self._which, ref)
        return self._links.get(ref, default)

    def __getitem__(self, ref: str) -> Any:
        self._reads.add(self._which, ref)
        return self._links[ref]

    def __contains__(self, ref: object) -> bool:
        self._reads.add(self._which, str(ref))
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


class _RecordingIndex:
    def __init__(self, index: Any, reads: _Reads):
        self._index, self._reads = index, reads
        self.backlinks = _RecordingLinks(index.backlinks, reads, "backlinks")
        self.outgoing = _RecordingLinks(index.outgoing, reads, "outgoing")

    def get(self, kind: str, record_id: str) -> Any:
        self._reads.add("record", kind, record_id)
        return self._index.get(kind, record_id)

    def must(self, kind: str, record_id: str) -> Any:
        self._reads.add("record", kind, record_id)
        return self._index.must(kind, record_id)

    def by_ref(self, ref: str) -> Any:
        kind, _, record_id = ref.partition("/")
        return self.get(kind, record_id)

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
        self._reads.add("view", name)
        return getattr(self._views, name)


class _RecordingNames:
    def __init__(self, names: dict[str, str], reads: _Reads):
        self._names, self._reads = names, reads

    def get(self, ref: str, default: Any = None) -> Any:
        self._reads.add("name", ref)
        return self._names.get(ref, default)

    def __getitem__(self, ref: str) -> str:
        self._reads.add("name", ref)
        return self._names[ref]

    def __contains__(self, ref: object) -> bool:
        self._reads.add("name", str(ref))
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

    def __getattr__(self, name: str) -> Any:
        self._reads.add(*EVERYTHING)
        return getattr(self._atlas, name)


@dataclass
class _Page:
    reads: frozenset[Read]
    text: str
    problems: list[Problem]


@dataclass
class PageMemo:
    """The pages of the last run of one site (docs folder), with what each read, and that run's atlas."""

    atlas: Any = None
    names: dict[str, str] = field(default_factory=dict)
    templates: str = ""
    pages: dict[str, _Page] = field(default_factory=dict)
    rendered: int = 0  # pages rendered (not reused) in the last run
    reused: int = 0

    def begin(self, atlas: Any, names: dict[str, str], templates: dict[str, str]) -> Round:
        """Start a run on a new atlas; pages of the last run stay usable until `finish`."""
        digest = hashlib.blake2b(repr(sorted(templates.items())).encode("utf-8"), digest_size=16).hexdigest()
        usable = self.atlas is not None and digest == self.templates
        round_ = Round(self, atlas, names, self.atlas if usable else None, self.names, self.pages if usable else {})
        self.templates = digest
        self.rendered = self.reused = 0
        return round_


class Round:
    """One run: decides, read by read, whether what a page read last time still reads the same."""

    def __init__(self, memo: PageMemo, atlas: Any, names: dict[str, str], old: Any, old_names: dict[str, str],
                 old_pages: dict[str, _Page]):
        self.memo, self.atlas, self.names = memo, atlas, names
        self.old, self.old_names, self.old_pages = old, old_names, old_pages
        self.pages: dict[str, _Page] = {}
        self.same: dict[Read, bool] = {}

    def page(self, page: str, render: Callable[[Any, dict[str, str] | Any, list[Problem]], str],
             problems: list[Problem]) -> str:
        """The page's Markdown: the last run's when nothing it read changed, else `render(atlas, names, problems)`."""
        previous = self.old_pages.get(page)
        if previous is not None and all(self._unchanged(read) for read in previous.reads):
            self.pages[page] = previous
            problems += previous.problems
            self.memo.reused += 1
            return previous.text
        reads = _Reads()
        own: list[Problem] = []
        text = render(RecordingAtlas(self.atlas, reads), _RecordingNames(self.names, reads), own)
        problems += own
        self.pages[page] = _Page(frozenset(reads.found), text, own)
        self.memo.rendered += 1
        return text

    def finish(self) -> None:
        """This run's pages and atlas become the ones the next run compares with."""
        self.memo.atlas, self.memo.names, self.memo.pages = self.atlas, self.names, self.pages

    def _unchanged(self, read: Read) -> bool:
        known = self.same.get(read)
        if known is None:
            known = self.same[read] = self._compare(read)
        return known

    def _compare(self, read: Read) -> bool:
        old, new = self.old, self.atlas
        what = read[0]
        if what == "record":
            return _same_record(old.index.get(read[1], read[2]), new.index.get(read[1], read[2]))
        if what == "kind":
            before, after = old.index.by_kind.get(read[1], {}), new.index.by_kind.get(read[1], {})
            return before.keys() == after.keys() and all(_same_record(before[k], after[k]) for k in before)
        if what == "view":
            return bool(getattr(old.views, read[1]) == getattr(new.views, read[1]))
        if what in ("backlinks", "outgoing"):
            return bool(getattr(old.index, what).get(read[1]) == getattr(new.index, what).get(read[1]))
        if what == "name":
            return self.old_names.get(read[1]) == self.names.get(read[1])
        if what == "schemas":
            return bool(old.schemas.documents == new.schemas.documents)
        return False  # everything, or a read this memo does not know how to compare


def _same_record(before: Any, after: Any) -> bool:
    if before is after:  # an unchanged file loads to the same record object in a long-lived process
        return True
    if before is None or after is None:
        return False
    return bool(before.path == after.path and before.text == after.text)  # same text, same data: parsing is pure
