"""Stage 3, link: resolve every reference field, report dangling ones, build the reverse index.

A reference to an id with no record is an error with a close-match suggestion, unless the
referring record declares it in `known_gaps` (the source names an id that does not exist). A
declared gap that no longer dangles, or that nothing references, is itself an error.
"""
from __future__ import annotations

import bisect
import difflib
import operator
from collections import defaultdict
from dataclasses import dataclass
from typing import Any
from collections.abc import Iterable

from .kinds import KINDS
from .paths import dotted
from .problems import Problem
from .model.index import DeclaredGap, Index, Link
from .model.records import Record
from .model.schemas import RefField, Schemas
from .schemas import values_at

RULE = "refs"


def link_records(records: Iterable[Record], schemas: Schemas) -> tuple[Index, list[Problem]]:
    """Every record's links, the backlinks, the declared gaps, and every dangling reference or stale gap.

    A record's links, gaps and problems depend on its own data, its kind's reference fields and which ids exist. The
    changelog links several past trees whose records are mostly the same objects, so a record's part of the last tree
    linked (with equal reference fields) is taken again for the very same record object when it cannot differ: the
    ids are the same, or it has no gap and no problem and links to no id that is gone (its references all resolve
    again). Only the backlinks of the targets that the other records link to, or linked to there, are gathered again.
    """
    records = list(records)
    by_kind: dict[str, dict[str, Record]] = {kind: {} for kind in KINDS}
    for record in records:
        by_kind[record.kind][record.id] = record
    universe = _universe(by_kind)
    earlier = _LAST[0] if _LAST and len(records) == len(universe) else None  # (no id twice: a part per record)
    if earlier is not None and earlier.ref_fields != schemas.ref_fields:
        earlier = None
    unsure = _unsure_sources(earlier, universe) if earlier is not None else set()
    parts: list[_Part] = []
    relinked: set[str] = set()  # the records linked afresh while an earlier tree's parts are taken
    for record in records:
        known = earlier.parts.get(record.ref) if earlier is not None else None
        if (known is not None and known[0] is record and record.ref not in unsure
                and (earlier is not None and earlier.universe is universe or not (known[2] or known[3]))):
            parts.append(known)
            continue
        found: list[Problem] = []
        outgoing, gaps = _link_record(record, schemas, by_kind, found, universe)
        parts.append((record, tuple(outgoing), tuple(gaps), tuple(found)))
        relinked.add(record.ref)
    index = Index(by_kind)
    problems: list[Problem] = []
    for record, its_links, its_gaps, its_problems in parts:
        problems += its_problems
        index.gaps.extend(its_gaps)
        if its_links:
            index.links.extend(its_links)
            index.outgoing[record.ref] = list(its_links)
    backlinks = _backlinks(parts, earlier, relinked)
    index.backlinks = {target: list(links) for target, links in backlinks.items()}
    _LAST[:] = [_Linked(universe, schemas.ref_fields, {part[0].ref: part for part in parts}, backlinks)] \
        if len(records) == len(universe) else []
    return index, problems


_Part = tuple[Record, tuple[Link, ...], tuple[DeclaredGap, ...], tuple[Problem, ...]]  # a record's links, gaps, problems


@dataclass(frozen=True)
class _Linked:
    """The last tree linked: its ids, reference fields, each record's part, and its backlinks."""

    universe: Universe
    ref_fields: dict[str, list[RefField]]
    parts: dict[str, _Part]
    backlinks: dict[str, tuple[Link, ...]]


_LAST: list[_Linked] = []  # the last tree linked without an id twice (link_records)


def _unsure_sources(earlier: _Linked, universe: Universe) -> set[str]:
    """The records of the earlier tree that linked to an id that is gone (their references no longer all resolve)."""
    if earlier.universe is universe or _covers(universe, earlier.universe):
        return set()
    return {link.source for kind, record_id in earlier.universe - universe
            for link in earlier.backlinks.get(f"{kind}/{record_id}", ())}


def _backlinks(parts: list[_Part], earlier: _Linked | None, relinked: set[str]) -> dict[str, tuple[Link, ...]]:
    """The links to each target, sorted by source and path, targets in order. With an earlier tree's parts taken,
    only the targets that the relinked records, or records of that tree that are gone, link to (or linked to there)
    are gathered again: every other target's links come from records whose part was taken. A link's (source, path)
    is unique, so the order is the one sorting all of them gives."""
    if earlier is None:
        gathered: dict[str, list[Link]] = defaultdict(list)
        for _, outgoing, _, _ in parts:
            for link in outgoing:
                gathered[link.target].append(link)
        return {target: tuple(sorted(links, key=_link_order)) for target, links in sorted(gathered.items())}
    present = {part[0].ref for part in parts}
    redone = relinked | {ref for ref in earlier.parts if ref not in present}
    touched = {link.target for ref in redone if ref in earlier.parts for link in earlier.parts[ref][1]}
    fresh: dict[str, list[Link]] = defaultdict(list)
    for record, outgoing, _, _ in parts:
        if record.ref in relinked:
            for link in outgoing:
                fresh[link.target].append(link)
    touched.update(fresh)
    backlinks = dict(earlier.backlinks)
    for target in touched:
        links = [link for link in earlier.backlinks.get(target, ()) if link.source not in redone] + fresh.get(target, [])
        if links:
            backlinks[target] = tuple(sorted(links, key=_link_order))
        else:
            backlinks.pop(target, None)
    return dict(sorted(backlinks.items())) if touched else backlinks


def relink(index: Index, replaced: Iterable[Record], schemas: Schemas) -> tuple[Index, list[Problem]]:
    """The index with some records replaced by new versions of the same kind and id, and the replaced records' problems.

    Equal to `link_records` over the index's records in their order (kind, then insertion) with the replacements,
    at the cost of linking the replaced records only: a record's links depend on its own data and on which ids
    exist, and replacing a record keeps every id. The mutation sweeps in the tests re-link the atlas this way.
    """
    new_versions = {record.ref: record for record in replaced}
    by_kind = {kind: dict(records) for kind, records in index.by_kind.items()}
    for record in new_versions.values():
        if record.id not in by_kind.get(record.kind, {}):
            raise ValueError(f"relink replaces records; {record.ref} is not in the index")
        by_kind[record.kind][record.id] = record
    problems: list[Problem] = []
    outgoing = dict(index.outgoing)
    gaps_of: dict[str, list[DeclaredGap]] = {}
    for gap in index.gaps:
        gaps_of.setdefault(gap.record, []).append(gap)
    touched: dict[str, set[str]] = {}  # target -> the replaced records that link to it, before or after
    for ref, record in new_versions.items():
        for link in outgoing.pop(ref, []):
            touched.setdefault(link.target, set()).add(ref)
        links, gaps = _link_record(record, schemas, by_kind, problems)
        if links:
            outgoing[ref] = links
            for link in links:
                touched.setdefault(link.target, set()).add(ref)
        gaps_of[ref] = gaps
    backlinks = dict(index.backlinks)
    # A target's backlinks are in (source, path) order and a record's links all have it as source: a replaced record's
    # old links to a target are one run of that list, found by bisection, and its new links to it (in that order,
    # stable) take the run's place. The list is the one sorting the kept and the new links gives, without reading every
    # backlink of a much-linked target, nor every new link once per target (a sweep replaces hundreds of records).
    new_links: dict[str, dict[str, list[Link]]] = {}  # target -> source -> its new links to the target
    for ref in new_versions:
        for link in outgoing.get(ref, []):
            new_links.setdefault(link.target, {}).setdefault(link.source, []).append(link)
    for target, sources in touched.items():
        links = backlinks.get(target, [])
        coming = new_links.get(target, {})
        for source in sorted(sources):
            start = bisect.bisect_left(links, source, key=_link_source)
            end = bisect.bisect_right(links, source, lo=start, key=_link_source)
            run = sorted(coming.get(source, ()), key=_link_order)
            if start < end or run:
                links = [*links[:start], *run, *links[end:]]
        if links:
            backlinks[target] = links
        else:
            backlinks.pop(target, None)
    # (the index's backlinks are in target order: they stay so unless a target is new or gone)
    keys_kept = len(backlinks) == len(index.backlinks) and all(target in index.backlinks for target in new_links)
    order = [record.ref for records in by_kind.values() for record in records.values()]
    new = Index(by_kind)
    new.links = [link for ref in order for link in outgoing.get(ref, [])]
    new.outgoing = {ref: outgoing[ref] for ref in order if ref in outgoing}
    new.gaps = [gap for ref in order for gap in gaps_of.get(ref, [])]
    new.backlinks = backlinks if keys_kept else dict(sorted(backlinks.items()))
    return new, problems


_link_order = operator.attrgetter("source", "path")  # (source, path): a link's place among a target's backlinks
_link_source = operator.attrgetter("source")
Universe = frozenset[tuple[str, str]]
_UNIVERSES: dict[Universe, Universe] = {}  # each set of (kind, id) once, so trees with the same ids share one object


def _universe(by_kind: dict[str, dict[str, Record]]) -> Universe:
    """Every (kind, id) of a tree, as the one object of that value: the changelog links several past trees, most with
    the same ids, and a record whose references resolved among these ids resolves again."""
    ids = frozenset((kind, record_id) for kind, records in by_kind.items() for record_id in records)
    if len(_UNIVERSES) > 16:
        _UNIVERSES.clear()
        _COVERS.clear()
    return _UNIVERSES.setdefault(ids, ids)


_COVERS: dict[tuple[Universe, Universe], bool] = {}


def _covers(universe: Universe, earlier: Universe | None) -> bool:
    """Whether every (kind, id) of an earlier tree is in this one (asked once per pair of trees): a record whose
    references all resolved there resolves here too."""
    if earlier is None:
        return False
    if earlier is universe:
        return True
    pair = (earlier, universe)
    if pair not in _COVERS:
        _COVERS[pair] = earlier <= universe
    return _COVERS[pair]


def _link_record(record: Record, schemas: Schemas, by_kind: dict[str, dict[str, Record]],
                 problems: list[Problem], universe: Universe | None = None) -> tuple[list[Link], list[DeclaredGap]]:
    """One record's outgoing links and declared gaps; its dangling references and stale gaps go to `problems`.
    `universe` is _universe(by_kind) when the caller has it."""
    data, ref = record.data, record.ref
    known_gaps = data.get("known_gaps") or []
    references = _references(record, schemas.ref_fields[record.kind])
    if not known_gaps:
        kept = record.__dict__.get("_links")
        if kept is not None and kept[0] is references:  # every reference resolves: the links the loop below makes
            if universe is not None and _covers(universe, kept[2]):
                return list(kept[1]), []
            if all(target_id in by_kind.get(kind, ()) for _, _, kind, target_id in references):
                if universe is not None:
                    record.__dict__["_links"] = (references, kept[1], universe)
                return list(kept[1]), []
    declared = {(g.get("kind"), g.get("id")): n for n, g in enumerate(known_gaps)} if known_gaps else {}
    used: set[tuple[str, str]] = set()
    outgoing: list[Link] = []
    gaps: list[DeclaredGap] = []
    for path, where, kind, target_id in references:
        if target_id in by_kind.get(kind, ()):
            outgoing.append(Link(ref, where, f"{kind}/{target_id}"))
        elif (kind, target_id) in declared:
            used.add((kind, target_id))
            gap = known_gaps[declared[(kind, target_id)]]
            gaps.append(DeclaredGap(ref, kind, target_id, str(gap.get("reason", "")), where))
        else:
            problems.append(_dangling(record, path, kind, target_id, by_kind))
    if declared:
        problems.extend(_stale_gaps(record, declared, used, by_kind))
    elif len(outgoing) == len(references):  # all resolved, no gaps: another tree where they resolve gets these links
        record.__dict__["_links"] = (references, tuple(outgoing), universe)
    return outgoing, gaps


Reference = tuple[tuple[Any, ...], str, str, str]  # path in the record, the path dotted, target kind, target id


def _references(record: Record, ref_fields: list[RefField]) -> list[Reference]:
    """Every reference a record's data makes through the schema's reference fields, in the fields' order.

    Kept on the record for these fields: the changelog links several past trees whose records are mostly the same
    objects (load reuses an unchanged file's record), and only which ids exist differs from tree to tree."""
    kept = record.__dict__.get("_references")
    if kept is not None and (kept[0] is ref_fields or kept[0] == ref_fields):  # equal: another tree's same schema
        return kept[1]  # type: ignore[no-any-return]
    data = record.data
    found: list[Reference] = []
    for ref_field in ref_fields:
        pattern = ref_field.pattern
        if pattern and pattern[0] not in data:
            continue  # (most fields: the record has no such key)
        target = ref_field.target
        for path, value in _values_at(data, pattern):
            if value.__class__ is str:  # (kind, id and dotted path inline: a reference per citation of every record)
                kind, target_id = value.partition("/")[::2] if target == "*" else (target, value)
                found.append((path, _DOTTED.get(path) or _dotted(path), kind, target_id))
    record.__dict__["_references"] = (ref_fields, found)  # a frozen record's cache, as its node
    return found


def _values_at(data: dict[str, Any], pattern: tuple[str, ...]) -> list[tuple[tuple[Any, ...], Any]]:
    """values_at(data, pattern), with the shapes most reference fields have (`engine`, `formats.*`,
    `sources.*.source`) walked directly: every record makes a dozen of these walks."""
    size = len(pattern)
    if size > 3 or "*" in (pattern[0], pattern[-1] if size == 3 else "") or size == 3 and pattern[1] != "*":
        return values_at(data, pattern)
    head = pattern[0]
    if head not in data:
        return []
    value = data[head]
    if size == 1:
        return [((head,), value)]
    second = pattern[1]
    if size == 2:
        if second == "*":
            return [((head, n), item) for n, item in enumerate(value)] if value.__class__ is list else []
        return [((head, second), value[second])] if value.__class__ is dict and second in value else []
    last = pattern[2]  # (head, "*", last)
    if value.__class__ is not list:
        return []
    return [((head, n, last), item[last]) for n, item in enumerate(value) if item.__class__ is dict and last in item]


_DOTTED: dict[tuple[Any, ...], str] = {}


def _dotted(path: tuple[Any, ...]) -> str:
    """dotted(path), kept: every record of a kind repeats the same paths (`sources[0].source`). A path's parts are
    text keys and list positions, so equal paths are the same path."""
    text = _DOTTED.get(path)
    if text is None:
        text = dotted(path)
        if len(_DOTTED) < 100_000:
            _DOTTED[path] = text
    return text


def _dangling(record: Record, path: tuple[Any, ...], kind: str, target_id: str,
              by_kind: dict[str, dict[str, Record]]) -> Problem:
    line, column = record.position(path)
    if kind not in by_kind:
        message = f"{dotted(path)}: {kind!r} is not a record kind (write kind/id, e.g. 'format/nvfp4')"
    else:
        close = closest(target_id, by_kind[kind])
        hint = f" (did you mean {close!r}?)" if close is not None else ""
        message = f"{dotted(path)}: {target_id!r} is not {_article(kind)} {kind} id{hint}"
    return Problem(record.path, line, column, RULE, message)


def closest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """What `difflib.get_close_matches(word, candidates, n=1, cutoff=cutoff)` gives first, or None: the candidate of the
    highest similarity ratio at least `cutoff`, the greater text on a tie. difflib computes the full ratio of every
    candidate whose cheap bounds reach the cutoff (a tenth of a second per dangling id over a kind of a thousand ids);
    here the candidates are tried from the highest length bound down and a candidate is skipped once a bound falls
    below the best ratio found, which no candidate under that bound can reach (ratio <= quick_ratio <= real_quick_ratio,
    each twice an integer over the same total length). The ratios compared are difflib's own."""
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    bounded = sorted(((2.0 * min(len(word), len(x)) / (len(word) + len(x)) if word or x else 1.0, x)
                      for x in candidates), reverse=True)
    best: tuple[float, str] | None = None
    for bound, candidate in bounded:
        floor = cutoff if best is None else max(cutoff, best[0])
        if bound < floor:
            break  # sorted: no later candidate's bound reaches it either
        matcher.set_seq1(candidate)
        if matcher.quick_ratio() < floor:
            continue
        found = (matcher.ratio(), candidate)
        if found[0] >= cutoff and (best is None or found > best):
            best = found
    return None if best is None else best[1]


def _stale_gaps(record: Record, declared: dict[tuple[Any, Any], int], used: set[tuple[str, str]],
                by_kind: dict[str, dict[str, Record]]) -> list[Problem]:
    problems = []
    for (kind, target_id), n in sorted(declared.items(), key=lambda item: item[1]):
        if (kind, target_id) in used:
            continue
        line, column = record.position(("known_gaps", n))
        if kind in by_kind and target_id in by_kind[kind]:
            why = f"{kind} {target_id!r} now exists; remove the known gap"
        else:
            why = f"nothing in this record references {kind} {target_id!r}; remove the known gap"
        problems.append(Problem(record.path, line, column, RULE, f"known_gaps[{n}]: stale known gap: {why}"))
    return problems


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"
