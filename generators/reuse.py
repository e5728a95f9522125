"""Views and check results of a long-lived process's last run, reused when nothing they read changed.

`mkdocs serve` and `build --watch` run the pipeline again after every edit. A view (derive/) is computed with an
index that notes every read (render/memo.py's recorder: a record by id, a whole kind, a record's links) and every
other view it reads; a check's problems likewise, per check (tree scope) or per check and record (record scope),
with an atlas that notes its reads. The next run reuses the very value (or problems) when every read answers with
the same fingerprint; anything read some other way marks it as reading everything, so it is computed every run.
A reused view keeps the fingerprint of its value, so pages that read it do not serialise it again.
A view computed entry by entry (derive/entries.py: the answers, one per support cell) that must be computed again
reuses each entry whose own reads, inputs and shared context did not change (after a one-record edit, the few answers
that read the record), and is the last run's value, fingerprint and all, when every entry is.

One-off runs (`check`, `mkdocs build`, `build --out`) compute everything: they get no memo.
"""
from __future__ import annotations

import hashlib
import pickle
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .derive import VIEW_NAMES, Views
from .model.index import Index
from .model.records import Record
from .model.schemas import Schemas
from .problems import Problem
from .recording import Read, RecordingAtlas, _Reads, _RecordingIndex
from .render.memo import Carried, Print, _Prints

if TYPE_CHECKING:
    from .checks.base import Check
    from .model.atlas import Atlas


@dataclass
class Kept:
    """One value (a view, or a check's problems) with the fingerprint of every read it made; a view's own fingerprint
    once a page or check asked for it (carried while the value is reused)."""

    reads: dict[Read, Print]
    value: Any
    print: Print = None
    entries: dict[Any, _Entry] | None = None  # a view computed entry by entry (derive/entries.py): each entry
    context: Print = None  # and the fingerprint of what its entries share


@dataclass
class ReuseMemo:
    """The views and check results of the last run, for the next run of the same process."""

    views: dict[str, Kept] = field(default_factory=dict)
    checks: dict[tuple[str, str], Kept] = field(default_factory=dict)
    computed: list[str] = field(default_factory=list)  # what the last run computed rather than reused (tests read it)
    _round: _Round | None = field(default=None, repr=False)
    _run: Any = field(default=None, repr=False)  # a weak reference to the last run's views

    def views_of(self, index: Index, schemas: Schemas) -> Views:
        """The views of a new index: each one the last run's value when its reads answer the same.

        What the last run computed or reused replaces what the memo held; an entry it did not reach (a stage failed
        first) stays, as any entry is reused only when its reads answer the same."""
        if self._round is not None:
            self.views = {**self.views, **self._round.views}
            self.checks = {**self.checks, **self._round.checks}
        links = self._round.prints.carried.links if self._round is not None and self._round.prints.carried else {}
        self.computed = []
        views = ReusingViews(index)
        prints = _Prints(_Source(index, views, schemas), {})
        self._round = views.reuse = _Round(self, prints)
        prints.carried = Carried(self._round.views, links_before=links)
        self._run = weakref.ref(views)
        return views

    def prints_of(self, views: Any) -> _Prints | None:
        """This run's fingerprints when `views` are this run's (a page round on its atlas starts from them)."""
        return self._round.prints if self._round is not None and self._run is not None and self._run() is views else None

    def checks_of(self, registry: Iterable[Check], views: Views, atlas: Atlas | None = None) -> list[Check]:
        """The checks, each reusing its last problems when nothing it read changed (views: this run's, from views_of).
        `atlas`: the pages stage's, which has its commits by then: a check reading them is compared with those."""
        round_ = views.reuse if isinstance(views, ReusingViews) else None
        if round_ is None:
            return list(registry)
        if atlas is not None:
            round_.given_commits(atlas.commits, atlas.history_cut)
        return [replace(check, run=round_.tree_check(check.name, check.run) if check.run is not None else None,
                        check_record=(round_.record_check(check.name, check.check_record)
                                      if check.check_record is not None else None))
                for check in registry]


@dataclass
class _Source:
    """What fingerprints are read from before the atlas exists: its index, views and schemas."""

    index: Index
    views: Views
    schemas: Schemas
    commits: tuple[Any, ...] = ()  # as the views' checks see them: the atlas is given its commits after they ran
    history_cut: str | None = None  # (the pages checks see both: _Round.given_commits)


class _Round:
    def __init__(self, memo: ReuseMemo, prints: _Prints):
        self.memo, self.prints = memo, prints
        self.views: dict[str, Kept] = {}
        self.checks: dict[tuple[str, str], Kept] = {}

    def view(self, name: str, compute: Callable[[Any], Any], views: Views) -> Any:
        previous = self.memo.views.get(name)
        if previous is not None and self.prints.all_same(previous.reads):
            self.views[name] = previous
            return previous.value
        reads = _Reads()
        entries = _Entries(f"entry {name}", views.index, reads, previous, self)
        value = compute(_ViewScope(views, reads, entries))
        kept = Kept(self._prints(reads), value, entries=entries.kept, context=entries.context)
        if entries.context is not None and previous is not None and _same_entries(previous.value, value):
            kept.value, kept.print = previous.value, previous.print  # every entry is the last run's: so is the view
        self.views[name] = kept
        self.memo.computed.append(f"view {name}")
        return kept.value

    def given_commits(self, commits: tuple[Any, ...], history_cut: str | None) -> None:
        """The commits the atlas was given after the views' checks ran (the pages checks, which run after, read them)."""
        source = self.prints.atlas
        source.commits, source.history_cut = commits, history_cut
        self.prints.known.pop(("commits",), None)

    def tree_check(self, name: str, run: Callable[[Atlas], Iterable[Problem]]) -> Callable[[Atlas], Iterable[Problem]]:
        def reusing(atlas: Atlas) -> list[Problem]:
            return self._problems((name, ""), lambda seen: run(seen), atlas, ())
        return reusing

    def record_check(self, name: str, check: Callable[[Atlas, Record], Iterable[Problem]]
                     ) -> Callable[[Atlas, Record], Iterable[Problem]]:
        def reusing(atlas: Atlas, record: Record) -> list[Problem]:
            return self._problems((name, record.ref), lambda seen: check(seen, record), atlas,
                                  (("record", record.kind, record.id),))
        return reusing

    def _problems(self, key: tuple[str, str], run: Callable[[Any], Iterable[Problem]], atlas: Atlas,
                  given: tuple[Read, ...]) -> list[Problem]:
        """The check's problems: the last run's when every read (and the record it was given) answers the same."""
        previous = self.memo.checks.get(key)
        if previous is not None and self.prints.all_same(previous.reads):
            self.checks[key] = previous
            return list(previous.value)
        reads = _Reads()
        reads.found.update(given)
        problems = list(run(RecordingAtlas(atlas, reads)))
        self.checks[key] = Kept(self._prints(reads), problems)
        self.memo.computed.append(f"check {key[0]} {key[1]}".rstrip())
        return list(problems)

    def _prints(self, reads: _Reads) -> dict[Read, Print]:
        of = self.prints.of
        return {read: of(read) for read in sorted(reads.found)}


@dataclass
class _Entry:
    """One entry of a view computed entry by entry: its inputs, what it read (with fingerprints) and its value."""

    inputs: Any
    reads: dict[Read, Print]
    value: Any


class _Entries:
    """`each` (derive/entries.py) of a view that a long-lived process computes again: an entry is the last run's when
    the context serialises as it did (a fingerprint, as the page memo's), its inputs are the very objects or serialise
    the same, and every record it read answers the same; else it is computed with an index that notes its own reads.
    An entry computed again whose value serialises as the last one's is the last one (so a view whose entries are all
    the last run's objects is the last run's value, and its fingerprint is kept: _Round.view).

    Serialised comparisons (rather than ==) because 1 == 1.0 == True while the page would print them apart."""

    def __init__(self, name: str, index: Index, reads: _Reads, before: Kept | None, round_: _Round):
        self.name, self.index, self.reads, self.before = name, index, reads, before
        self.prints, self.computed = round_.prints, round_.memo.computed
        self.kept: dict[Any, _Entry] | None = None
        self.context: Print = None

    def __call__(self, index: Any, context: Any, entries: Iterable[tuple[Any, Any]],
                 compute: Callable[[Any, Any], Any]) -> dict[Any, Any]:
        self.context = _serialised(context)
        before = self.before
        last_entries = (before.entries if before is not None and before.entries is not None and self.context is not None
                        and before.context == self.context else {})
        kept: dict[Any, _Entry] = {}
        found, of, all_same = self.reads.found, self.prints.of, self.prints.all_same
        for key, inputs in entries:
            last = last_entries.get(key)
            if last is not None and self._same(last.inputs, inputs) and all_same(last.reads):
                found.update(last.reads)
                kept[key] = last
                continue
            reads = _Reads()
            value = compute(_RecordingIndex(self.index, reads), inputs)
            self.computed.append(f"{self.name} {key}")
            found.update(reads.found)
            if last is not None and self._same(last.value, value):
                value = last.value
            kept[key] = _Entry(inputs, {read: of(read) for read in sorted(reads.found)}, value)
        self.kept = kept
        return {key: entry.value for key, entry in kept.items()}

    def _same(self, last: Any, now: Any) -> bool:
        """The very object, or a tuple of the very objects; else equal and serialised alike."""
        if last is now or (type(last) is tuple and type(now) is tuple and len(last) == len(now)
                           and all(a is b for a, b in zip(last, now))):
            return True
        if last != now:
            return False
        serialised = _serialised(last)
        return serialised is not None and serialised == _serialised(now)


def _serialised(value: Any) -> Print:
    """A hash of a full serialisation (pickle's, with its memo: the fast mode the page memo uses fails on some nestings
    of frozensets); None when the value cannot be serialised. Values that serialise alike are equal, of the same types;
    equal values may serialise apart (a set's order, objects shared otherwise), which only computes again."""
    try:
        data = pickle.dumps(value, protocol=5)
    except Exception:  # noqa: BLE001 - a value that cannot be serialised is never taken for the last one
        return None
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _same_entries(last: Any, now: Any) -> bool:
    """Whether a view's new value is a dict holding the very entries of the last value, under the same keys in the
    same order."""
    return (type(last) is dict and type(now) is dict and len(last) == len(now)
            and all(k1 == k2 and v1 is v2 for (k1, v1), (k2, v2) in zip(last.items(), now.items())))


class _ViewScope:
    """`self` of a view while it computes: the index notes what it reads, and so do the views it reads; a view computed
    entry by entry reuses the last run's entries through `each`."""

    def __init__(self, views: Views, reads: _Reads, each: _Entries):
        self._views, self._reads = views, reads
        self.index = _RecordingIndex(views.index, reads)
        self.each = each
        self.keep = views.keep  # (how cells are derived, not something read)

    def __getattr__(self, name: str) -> Any:
        if name in VIEW_NAMES:
            self._reads.add("view", name)
            return getattr(self._views, name)
        self._reads.add("everything")  # a helper of Views this scope does not know: never reused
        return getattr(self._views, name)


class _ReusedView:
    """A view of ReusingViews: the round's reused value, or computed by Views' own function and kept."""

    def __init__(self, name: str, compute: Callable[[Any], Any]):
        self.name, self.compute = name, compute

    def __get__(self, views: ReusingViews | None, owner: type) -> Any:
        if views is None:
            return self
        value = views.reuse.view(self.name, self.compute, views)
        views.__dict__[self.name] = value
        return value


class ReusingViews(Views):
    """Views whose values come through a round of a ReuseMemo (computed once per run, like Views')."""

    reuse: _Round


for _name in VIEW_NAMES:
    setattr(ReusingViews, _name, _ReusedView(_name, vars(Views)[_name].func))
