"""The semantic changelog: what moved, newest first, across engine releases and across commits to the records.

Two kinds of entry, both computed:
- an engine release (from its observation, the newest harness): the cells that flipped since the previous
  observed release, the observed counts that moved (cells that run, run only if, are refused) and the published
  cells that disagree with the engine; dated by the release's publication date in a source record whose
  `package` is that release (else the day it was observed);
- a commit that touched records/ (from record_history.py, built on the diff): derived cells that flipped or whose
  conditions or otherwise steps changed, counts that moved, traps and findings added; dated by the commit.
Every item names the records it links to as `kind/id`; texts are plain (record text is escaped by the page and
the feed, never here).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from ..diff_model import CellChange, CommitChange
from ..diff_report import ABSENT
from ..model.index import Index
from .history import Flip, current_observations, release_key
from .published_history import ReleaseClaim


@dataclass(frozen=True)
class ChangeItem:
    """One change: what moved, in words, and the records it concerns."""

    kind: str  # flip, conditions, otherwise, count, trap, finding, record
    text: str
    refs: tuple[str, ...] = ()
    detail: tuple[str, ...] = ()  # what stands behind the item, a line each: why, or before and after (folded)
    lead: str = ""  # when set, the text is this and its record's name: a page shows the lead and links the name once
    verdicts: tuple[str, ...] = ()  # a flip's verdicts before and after, the first word on each side of its arrow
    labels: tuple[str, ...] = ()  # each side's label where a reader reads another than its verdict's ("Fallback if")


SEARCHED_WORDS = 4000  # an entry's list of changes up to this many words is searched (ChangelogEntry.searched_whole)


@dataclass(frozen=True)
class ChangelogEntry:
    """One release or one commit, with everything that moved in it."""

    key: str  # stable anchor and feed id: release-<engine>-<release> or commit-<sha>
    title: str
    date: str  # ISO 8601 date or date-time, from the data
    origin: str  # "engine release" or "records"
    items: tuple[ChangeItem, ...]
    link: str = ""  # the commit or the observation it came from, as `kind/id` or a short sha
    description: str = ""  # a commit's whole subject when the title had to be cut short

    @property
    def searched_whole(self) -> bool:
        """Whether the site's search may index what moved in it: an entry of thousands of changed cells outgrows
        Zensical's search index (65,536 token positions a section at 10,000 items, half that past 16,384), so its
        list is kept out of search (its title and subject stay in)."""
        words = sum(len(item.text.split()) + sum(len(line.split()) for line in item.detail) for item in self.items)
        return words <= SEARCHED_WORDS

    @property
    def moment(self) -> dt.datetime:
        """The date as an aware datetime (a bare date is midnight UTC)."""
        value = dt.datetime.fromisoformat(self.date.replace("Z", "+00:00"))
        return value if value.tzinfo else value.replace(tzinfo=dt.timezone.utc)

    @property
    def atom_date(self) -> str:
        """RFC 3339 in UTC, as Atom wants it."""
        return self.moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def release_dates(index: Index) -> dict[str, str]:
    """`engine==release` -> the earliest `published` date of a source record for that package."""
    dates: dict[str, str] = {}
    for source in index.all("source"):
        package, published = source.data.get("package"), source.data.get("published")
        if package and published and (package not in dates or str(published) < dates[package]):
            dates[package] = str(published)
    return dates


def _counts(cells: list[dict[str, Any]]) -> dict[str, int]:
    return {verdict: sum(1 for c in cells if c["verdict"] == verdict) for verdict in ("runs", "runs-if", "refused")}


GLANCE = 100  # characters of a flip's one reason that stay on its line; a longer one, or several, fold behind it


def _flip_item(flip: Flip) -> ChangeItem:
    """`scheme on target: before → after (why)`, or with why folded behind it when it is long (an engine message can
    run to several lines) or holds several reasons."""
    text, refs = f"{flip.scheme} on {flip.target}: {flip.before.summary} → {flip.after.summary}", (
        f"scheme/{flip.scheme}", f"hardware-target/{flip.target}")
    verdicts = (flip.before.verdict, flip.after.verdict)
    if len(flip.why) == 1 and len(flip.why[0]) <= GLANCE:
        return ChangeItem("flip", f"{text} ({flip.why[0]})", refs, verdicts=verdicts)
    return ChangeItem("flip", text, refs, tuple(flip.why), verdicts=verdicts)


def release_entries(index: Index, flips: list[Flip], claims: list[ReleaseClaim]) -> list[ChangelogEntry]:
    """One entry per observed engine release."""
    dates = release_dates(index)
    entries = []
    previous: dict[str, dict[str, int]] = {}
    disagreeing_before: dict[str, int] = {}
    for (engine, release), observation in current_observations(index).items():
        counts = _counts(observation.data.get("cells", []))
        items = [_flip_item(f) for f in flips if f.engine == engine and f.after.release == release]
        before = previous.get(engine)
        if before is None:
            items.insert(0, ChangeItem("count", f"first observed release: {counts['runs']} cells run, "
                                                 f"{counts['runs-if']} run only if, {counts['refused']} refused",
                                       (f"observation/{observation.id}",)))
        else:
            items += [ChangeItem("count", f"cells observed {verdict}: {before[verdict]} → {counts[verdict]}",
                                 (f"observation/{observation.id}",))
                      for verdict in counts if counts[verdict] != before[verdict]]
        disagreeing = [c for c in claims if c.release == release and c.lineage[0] == engine and not c.agrees]
        if len(disagreeing) != disagreeing_before.get(engine, 0) or (before is None and disagreeing):
            matrices = tuple(dict.fromkeys(f"support-matrix/{c.matrix}" for c in disagreeing))
            items.append(ChangeItem("count", f"published cells disagreeing with the engine: "
                                             f"{disagreeing_before.get(engine, 0)} → {len(disagreeing)}", matrices))
        disagreeing_before[engine] = len(disagreeing)
        previous[engine] = counts
        date = dates.get(f"{engine}=={release}") or str(observation.data.get("observed_on", ""))
        entries.append(ChangelogEntry(f"release-{engine}-{release}", f"{engine} {release}", date, "engine release",
                                      tuple(items), f"observation/{observation.id}"))
    return entries


def commit_entry(index: Index, change: CommitChange) -> ChangelogEntry:
    """One entry for a commit that touched records/."""
    arrivals = [c for c in change.cells if ABSENT in (c.old, c.new)]
    items = [item for c in change.cells if c not in arrivals for item in _cell_items(index, c)]
    items += _arrival_items(index, arrivals)
    items += [ChangeItem("count", f"{c.subject}, {c.what}: {_moved(c.old, c.new)}") for c in change.counts]
    for record in change.records:
        if record.status in ("added", "renamed") and record.kind in ("gotcha", "finding"):
            label = "new trap" if record.kind == "gotcha" else "new finding"
            ref = f"{record.kind}/{record.id}"
            refs = _existing(index, ref)
            items.append(ChangeItem("trap" if record.kind == "gotcha" else "finding", f"{label}: {_name(index, ref)}",
                                    refs, lead=f"{label}: " if refs else ""))
    changed = len(change.records)
    if changed:
        kinds = sorted({r.kind for r in change.records})
        linked = sorted(_existing(index, *dict.fromkeys(f"{r.kind}/{r.id}" for r in change.records)))
        more = f"; the first {LINKED_RECORDS} that still exist are linked" if len(linked) > LINKED_RECORDS else ""
        items.append(ChangeItem("record", f"{changed} record(s) added, removed or edited ({', '.join(kinds)}){more}",
                                tuple(linked[:LINKED_RECORDS])))
    if change.note:
        items.append(ChangeItem("record", change.note))
    title = headline(change.subject) or change.sha[:12]
    return ChangelogEntry(f"commit-{change.sha[:12]}", title, change.date, "records", tuple(items), change.sha[:12],
                          change.subject if title != change.subject else "")


LINKED_RECORDS = 12  # records of a commit linked from its entry (an audit commit may touch dozens)
HEADLINE = 90  # characters of a commit subject shown as its entry's title


def headline(subject: str) -> str:
    """A commit subject short enough for a heading: cut at the last space before HEADLINE characters, with '…'."""
    if len(subject) <= HEADLINE:
        return subject
    cut = subject[:HEADLINE].rsplit(" ", 1)[0] if " " in subject[:HEADLINE] else subject[:HEADLINE]
    return cut.rstrip(" ,;:") + "…"


def _moved(old: Any, new: Any) -> str:
    """A count's move in words: a count that did not exist before is new, one that no longer exists is removed."""
    if old is None:
        return f"{new} (new)"
    return f"{old} → (removed)" if new is None else f"{old} → {new}"


def _arrival_items(index: Index, cells: list[CellChange]) -> list[ChangeItem]:
    """Cells that appear or disappear, one item per scheme and direction (a new row lists every target once, in its
    folded detail, instead of a line per cell): `s: 18 new cells (runs 13, runs-if 5)`."""
    groups: dict[tuple[str, bool], list[CellChange]] = {}
    for c in cells:
        groups.setdefault((c.scheme, c.old == ABSENT), []).append(c)
    items = []
    for (scheme, new), group in sorted(groups.items(), key=lambda g: (g[0][0], not g[0][1])):
        # each cell as a reader reads it on the side that has it: "fallback if" apart from "fallback" (Cell.label)
        words = [_read_as(c.new, c.new_label) if new else _read_as(c.old, c.old_label) for c in group]
        tally = ", ".join(f"{word} {words.count(word)}" for word in dict.fromkeys(sorted(words)))
        refs = _existing(index, f"scheme/{scheme}")  # (each target is named in the folded detail)
        what = "new" if new else "removed"
        detail = tuple(f"{c.target}: {word}" + (f" ({c.new_detail if new else c.old_detail})"
                                                if (c.new_detail if new else c.old_detail) else "")
                       for c, word in zip(group, words))
        items.append(ChangeItem("flip", f"{scheme}: {len(group)} {what} cell{'s' if len(group) != 1 else ''} "
                                        f"({tally})", refs, detail))
    return items


def _cell_items(index: Index, c: CellChange) -> list[ChangeItem]:
    """A flip (`s on t: old → new (detail)`), then each term that changes: what must hold, what runs otherwise."""
    refs = _existing(index, f"scheme/{c.scheme}", f"hardware-target/{c.target}")
    items = []
    was, now = _read_as(c.old, c.old_label), _read_as(c.new, c.new_label)
    if c.flips:
        items.append(ChangeItem("flip", f"{c.scheme} on {c.target}: {was} → {now}"
                                + (f" ({c.new_detail})" if c.new_detail else ""), refs, verdicts=(c.old, c.new),
                                labels=(c.old_label, c.new_label)))
    still = "" if c.flips else f" (still {now}" + (f" {c.new_detail}" if c.new_detail else "") + ")"
    if c.conditions_change:
        items.append(ChangeItem("conditions", f"{c.scheme} on {c.target}{still}: what must hold changed", refs,
                                (f"before: {_words(c.old_conditions, 'nothing')}",
                                 f"after: {_words(c.new_conditions, 'nothing')}")))
    if c.otherwise_change and c.same_steps:
        items.append(ChangeItem("otherwise", f"{c.scheme} on {c.target}{still}: what runs otherwise changed", refs,
                                tuple(f"unless {a.unless} (for {a.kernel}): {a.outcome} → {b.outcome}"
                                      for a, b in zip(c.old_otherwise, c.new_otherwise) if a != b)))
    elif c.otherwise_change:
        old, new = (tuple(step.words for step in steps) for steps in (c.old_otherwise, c.new_otherwise))
        items.append(ChangeItem("otherwise", f"{c.scheme} on {c.target}{still}: what runs otherwise changed", refs,
                                (f"before: {_words(old, 'no step')}", f"after: {_words(new, 'no step')}")))
    return items


def _read_as(verdict: str, label: str) -> str:
    """A side of a cell change as its reader reads it: its label where that is not its verdict's ("fallback if"),
    lower-cased as the changelog writes verdicts, else the verdict."""
    return label.lower() if label else verdict


def _words(terms: tuple[str, ...], none: str) -> str:
    return "; ".join(terms) if terms else none


def _existing(index: Index, *refs: str) -> tuple[str, ...]:
    """The refs whose records still exist (a commit may name a record renamed or removed since): only those link."""
    return tuple(ref for ref in refs if index.by_ref(ref) is not None)


def _name(index: Index, ref: str) -> str:
    kind, _, record_id = ref.partition("/")
    record = index.get(kind, record_id)
    return record.name if record is not None else record_id


def changelog(index: Index, flips: list[Flip], claims: list[ReleaseClaim],
              commits: tuple[CommitChange, ...]) -> list[ChangelogEntry]:
    """Every entry, newest first; entries of the same moment keep their own order (newer release first, then the
    commits as git lists them), so the order never depends on anything but the data."""
    entries = [commit_entry(index, c) for c in commits] + release_entries(index, flips, claims)[::-1]
    return sorted(entries, key=lambda e: e.moment, reverse=True)


__all__ = ["ChangeItem", "ChangelogEntry", "changelog", "commit_entry", "release_entries", "release_dates",
           "release_key"]
