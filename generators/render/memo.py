"""Page memo: a page is rendered again only when something it read changed.

While a page renders, the atlas it sees records every read (recording.py): a record by id, a whole kind, a view by
name, a record's links and backlinks, a record's display name, the schemas. Each read is kept with its
fingerprint, a hash of what it answered (a record's path and text; a view, links, a name or the schemas
serialised whole; a view that only regroups another, derive.REGROUPED, by that one's fingerprint). The next run reuses the page's Markdown (and its problems) when every read answers
with the same fingerprint and the template sources are the same. Anything read some other way (an
attribute the recorder does not know) marks the page as reading everything, so it always renders.

Long-lived processes (`mkdocs serve`, `build --watch`) keep a memo in memory; one-off builds keep theirs
on disk (site_cache.py), salted with the code, so the build after a one-record edit renders only the pages
that read the edit. A run without a memo (`check`) renders every page.
"""
from __future__ import annotations

import hashlib
import io
import pickle
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..derive import REGROUPED
from ..model.index import Link
from ..problems import Problem
from ..recording import Read, RecordingAtlas, _RecordingNames, _Reads


Print = str | None  # a read's fingerprint; None when it cannot be compared (the page then always renders)


@dataclass
class _Page:
    reads: dict[Read, Print]  # each read with what it answered when the page rendered
    text: str
    problems: list[Problem]
    templates: str  # the digest of the templates it rendered with
    part: str = "pages"  # which round made it: the Markdown pages, or the API's files
    value: dict[str, Any] | None = None  # the JSON value it was read from (written back as is)
    checked: object = None  # the token of the round of this process that last rendered or reused it (Round.page)


@dataclass
class PageMemo:
    """The pages of earlier runs of one site (docs folder), each with the fingerprint of every read it made.

    Fingerprints (hashes of what each read answered) make a memo independent of the run that filled it, so a
    one-off build can keep its memo on disk (site_cache.py) and the next process reuses what it can."""

    pages: dict[str, _Page] = field(default_factory=dict)  # Markdown pages and API files (paths never collide)
    rendered: int = 0  # files rendered (not reused) since the last run began
    reused: int = 0
    reuse: Any = None  # a long-lived process's views and check results (reuse.ReuseMemo), which begin starts from
    selector: dict[str, Any] = field(default_factory=dict)  # the selector's data files with the API texts they read
    # per part, its last finished round and the fingerprints it knew (Round.changed)
    finished: dict[str, tuple[object, dict[Read, Print]]] = field(default_factory=dict, repr=False, compare=False)
    _last_prints: tuple[Any, dict[Read, Print]] | None = field(default=None, repr=False, compare=False)

    def begin(self, atlas: Any, names: dict[str, str], templates: dict[str, str], part: str = "pages") -> Round:
        """Start a run on a new atlas: the Markdown pages (which starts the count), or another part of the site's files
        such as the API's; files of earlier runs stay usable until the round's `finish`.

        A round on the atlas of the round before (the API's after the pages') starts from the fingerprints that round
        computed, but for names: what a read answers depends on the atlas alone, a name read on the names given."""
        digest = hashlib.blake2b(repr(sorted(templates.items())).encode("utf-8"), digest_size=16).hexdigest()
        if part == "pages":
            self.rendered = self.reused = 0
        prints = _Prints(atlas, names)
        derived = self.reuse.prints_of(atlas.views) if self.reuse is not None else None
        if self._last_prints is not None and self._last_prints[0]() is atlas:
            prints.known = {read: found for read, found in self._last_prints[1].items() if read[0] != "name"}
        elif derived is not None:  # the fingerprints the views and checks of this atlas were reused by (but commits,
            prints.known = {read: found for read, found in derived.known.items() if read[0] != "commits"}  # given later)
        if derived is not None:
            prints.carried = derived.carried
        self._last_prints = (weakref.ref(atlas), prints.known)  # (the atlas is not kept alive for it)
        return Round(self, prints, digest, part)

    def as_values(self) -> dict[str, dict[str, Any]]:
        """The pages as JSON values ({page: value}) without their texts, for a memo kept on disk: the texts are the
        generated files of the same run, which site_cache.py keeps once for both."""
        return {page: kept.value if kept.value is not None else
                {"reads": [[*read, found] for read, found in kept.reads.items()],
                 "problems": [p.as_dict() for p in kept.problems], "templates": kept.templates, "part": kept.part}
                for page, kept in self.pages.items()}

    def add_values(self, values: dict[str, Any], texts: dict[str, str]) -> None:
        """Take pages as_values wrote, each with its text from `texts` (the files of the run that wrote them); a value
        of another shape, or without a text, is left out (it would only render again)."""
        for page, value in values.items():  # a read or fingerprint of another type only never matches (renders again)
            text = texts.get(page)
            if text is None:
                continue
            try:
                reads = {tuple(read[:-1]): read[-1] for read in value["reads"]}
                problems = [Problem(**p) for p in value["problems"]] if value["problems"] else []
                self.pages[page] = _Page(reads, text, problems, str(value["templates"]), str(value["part"]), value)
            except (KeyError, TypeError, IndexError):
                continue


class Round:
    """One run: a page is reused when every read it made answers with the same fingerprint now."""

    def __init__(self, memo: PageMemo, prints: _Prints, templates: str, part: str):
        self.memo, self.prints, self.templates, self.part = memo, prints, templates, part
        self.pages: dict[str, _Page] = {}
        self.token = object()  # what its pages are marked with (not the round: it holds the whole atlas)
        self.before = memo.finished.get(part, (None, {}))
        self._changed: set[Read] | None = None

    def changed(self) -> set[Read]:
        """The reads of the last finished round of this part whose fingerprint is not the same now. Every page that
        round rendered or reused answered each of its reads with that round's fingerprint, so such a page is reused
        exactly when none of its reads is here: one set operation rather than a loop over its reads."""
        if self._changed is None:
            of = self.prints.of
            self._changed = {read for read, found in self.before[1].items() if found is None or of(read) != found}
        return self._changed

    def page(self, page: str, render: Callable[[Any, dict[str, str] | Any, list[Problem]], str],
             problems: list[Problem]) -> str:
        """The page's Markdown: an earlier run's when nothing it read changed, else `render(atlas, names, problems)`."""
        previous = self.memo.pages.get(page)
        if (previous is not None and previous.part == self.part and previous.templates == self.templates
                and (self.changed().isdisjoint(previous.reads) if previous.checked is not None
                     and previous.checked is self.before[0] else self.prints.all_same(previous.reads))):
            previous.checked = self.token
            self.pages[page] = previous
            problems += previous.problems
            self.memo.reused += 1
            return previous.text
        reads = _Reads()
        own: list[Problem] = []
        text = render(RecordingAtlas(self.prints.atlas, reads), _RecordingNames(self.prints.names, reads), own)
        problems += own
        known, of = self.prints.known, self.prints.of
        self.pages[page] = _Page({read: known[read] if read in known else of(read) for read in sorted(reads.found)}, text,
                                 own, self.templates, self.part, checked=self.token)
        self.memo.rendered += 1
        return text

    def finish(self) -> None:
        """This run's files of its part become the ones the next run compares with (those it did not make are dropped)."""
        others = {path: kept for path, kept in self.memo.pages.items() if kept.part != self.part}
        self.memo.pages = {**others, **self.pages}
        self.memo.finished[self.part] = (self.token, self.prints.known)


@dataclass
class Carried:
    """What the fingerprints of a long-lived process's run take from the run before and keep for the next (reuse.py):
    its views as kept (a reused view keeps its fingerprint), and each record's links with their fingerprint (a list
    equal to the last run's has its fingerprint: comparing is several times cheaper than hashing)."""

    views: dict[str, Any] = field(default_factory=dict)  # reuse.Kept of this run's views
    links_before: dict[Read, tuple[list[Link], str]] = field(default_factory=dict)
    links: dict[Read, tuple[list[Link], str]] = field(default_factory=dict)

    def last_print(self, read: Read, links: list[Any]) -> str | None:
        """The last run's fingerprint of a record's links when they equal the last run's (which were all links: only
        those are kept), else None. Linking takes an unchanged record's very Link objects again (link.py), so the
        comparison is mostly one of identities."""
        before = self.links_before.get(read)
        if before is None or before[0] != links:
            return None
        self.links[read] = (links, before[1])
        return before[1]

    def links_print(self, read: Read, links: list[Link]) -> str:
        found = _links_print(links)
        self.links[read] = (links, found)
        return found


class _Prints:
    """The fingerprint of each read against one atlas, each computed once per run."""

    def __init__(self, atlas: Any, names: dict[str, str]):
        self.atlas, self.names = atlas, names
        self.known: dict[Read, Print] = {}
        self.carried: Carried | None = None  # a long-lived process's (reuse.py)
        self.buffer = io.BytesIO()
        self.pickler = _pickler(self.buffer)  # one for the run: most values are small lists of links

    def of(self, read: Read) -> Print:
        if read not in self.known:
            self.known[read] = self._compute(read)
        return self.known[read]

    def all_same(self, reads: dict[Read, Print]) -> bool:
        """Whether every read answers now with the fingerprint it had (None never matches). A plain loop over the
        known fingerprints: every page of every rebuild asks this, some 19,000 reads on the real records."""
        known = self.known
        for read, found in reads.items():
            if found is None or (known[read] if read in known else self.of(read)) != found:
                return False
        return True

    def _compute(self, read: Read) -> Print:
        what, atlas = read[0], self.atlas
        if what == "record" and len(read) == 3:
            return _record_print(atlas.index.get(read[1], read[2]))
        if what == "kind" and len(read) == 2:
            records = atlas.index.by_kind.get(read[1])
            if records is None:
                return "no kind"
            return _digest("\0".join(f"{key}\0{self.of(('record', read[1], key))}" for key in records).encode())
        if what == "kinds" and len(read) == 1:
            return "kinds: " + "\0".join(atlas.index.by_kind)  # (in their order: a reader may iterate them)
        if what in ("gaps", "commits") and len(read) == 1:
            return self._pickled(atlas.index.gaps if what == "gaps" else (atlas.commits, atlas.history_cut))
        if what == "view" and len(read) == 2 and read[1] in REGROUPED:  # a function of that view's value alone
            regrouped = self.of(("view", REGROUPED[read[1]]))
            return None if regrouped is None else f"{read[1]} of {regrouped}"
        if what == "view" and len(read) == 2:
            value = getattr(atlas.views, read[1], None)
            kept = self.carried.views.get(read[1]) if self.carried is not None else None
            if kept is not None and kept.print is not None:
                return str(kept.print)  # the very value an earlier run fingerprinted
            found = self._pickled(value)
            if kept is not None:
                kept.print = found
            return found
        if what in ("backlinks", "outgoing") and len(read) == 2:
            links = getattr(atlas.index, what).get(read[1])
            if links is None:
                return "no links"
            last = self.carried.last_print(read, links) if self.carried is not None else None
            if last is not None:
                return last
            if not _all_links(links):
                return self._pickled(links)
            return _links_print(links) if self.carried is None else self.carried.links_print(read, links)
        if what == "name" and len(read) == 2:
            name = self.names.get(read[1])
            return "no name" if name is None else f"name: {name}"  # the short text itself: cheaper than its hash
        if what == "schemas" and len(read) == 1:
            return self._pickled(atlas.schemas.documents)
        return None  # everything, or a read this memo does not know how to compare

    def _pickled(self, value: Any) -> Print:
        """The hash of a full serialisation of the value: values that differ never share it. Equal values may differ
        in it (a set's order), which only renders a page again. None when it cannot be serialised."""
        self.buffer.seek(0)
        self.buffer.truncate()
        try:
            self.pickler.dump(value)
        except Exception:  # noqa: BLE001 - an unpicklable value cannot be compared: the page renders every time
            self.pickler = _pickler(self.buffer)  # never reuse one that stopped half-way
            return None
        return _digest(self.buffer.getvalue())


def _pickler(buffer: io.BytesIO) -> pickle.Pickler:
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True  # no memo: how objects happen to be shared (a cold run parses, a warm run reads a cache) is left out
    return pickler


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _all_links(value: Any) -> bool:
    return type(value) is list and all(type(link) is Link for link in value)


def _links_print(links: list[Link]) -> str:
    """A list of links by each one's fields, each after its length (so no two lists read alike): several times cheaper
    than a pickle, and every page reads its record's links. Link's fields are these three (a test says so)."""
    return _digest("".join([f"{len(link.source)},{len(link.path)},{len(link.target)}:{link.source}{link.path}{link.target}"
                            for link in links]).encode("utf-8", "surrogatepass"))


def _record_print(record: Any) -> str:
    """A record is its path and a hash of its text (parsing is pure, and the code that parses is part of the memo's key)."""
    return "absent" if record is None else f"{record.path}\0{record.text_digest}"


