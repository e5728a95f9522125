"""Stage 3, link: resolve every reference field, report dangling ones, build the reverse index.

A reference to an id with no record is an error with a close-match suggestion, unless the
referring record declares it in `known_gaps` (the source names an id that does not exist). A
declared gap that no longer dangles, or that nothing references, is itself an error.
"""
from __future__ import annotations

import difflib
from collections import defaultdict
from typing import Any
from collections.abc import Iterable

from .kinds import KINDS
from .paths import dotted
from .problems import Problem
from .model.index import DeclaredGap, Index, Link
from .model.records import Record
from .model.schemas import Schemas
from .schemas import values_at

RULE = "refs"


def link_records(records: Iterable[Record], schemas: Schemas) -> tuple[Index, list[Problem]]:
    records = list(records)
    by_kind: dict[str, dict[str, Record]] = {kind: {} for kind in KINDS}
    for record in records:
        by_kind[record.kind][record.id] = record
    index = Index(by_kind)
    problems: list[Problem] = []
    backlinks: dict[str, list[Link]] = defaultdict(list)
    for record in records:
        data = record.data
        known_gaps = data.get("known_gaps") or []
        declared = {(g.get("kind"), g.get("id")): n for n, g in enumerate(known_gaps)} if known_gaps else {}
        used: set[tuple[str, str]] = set()
        outgoing: list[Link] = []
        for ref_field in schemas.ref_fields[record.kind]:
            if ref_field.pattern and ref_field.pattern[0] not in data:
                continue
            for path, value in values_at(data, ref_field.pattern):
                if not isinstance(value, str):
                    continue
                kind, target_id = _split(ref_field.target, value)
                if target_id in by_kind.get(kind, ()):
                    link = Link(record.ref, dotted(path), f"{kind}/{target_id}")
                    outgoing.append(link)
                    backlinks[link.target].append(link)
                elif (kind, target_id) in declared:
                    used.add((kind, target_id))
                    gap = known_gaps[declared[(kind, target_id)]]
                    index.gaps.append(DeclaredGap(record.ref, kind, target_id, str(gap.get("reason", "")), dotted(path)))
                else:
                    problems.append(_dangling(record, path, kind, target_id, by_kind))
        if outgoing:
            index.links.extend(outgoing)
            index.outgoing[record.ref] = outgoing
        if declared:
            problems.extend(_stale_gaps(record, declared, used, by_kind))
    index.backlinks = {target: sorted(links, key=lambda link: (link.source, link.path)) for target, links in sorted(backlinks.items())}
    return index, problems


def _split(target: str, value: str) -> tuple[str, str]:
    if target == "*":
        kind, _, record_id = value.partition("/")
        return kind, record_id
    return target, value


def _dangling(record: Record, path: tuple[Any, ...], kind: str, target_id: str,
              by_kind: dict[str, dict[str, Record]]) -> Problem:
    line, column = record.position(path)
    if kind not in by_kind:
        message = f"{dotted(path)}: {kind!r} is not a record kind (write kind/id, e.g. 'format/nvfp4')"
    else:
        close = difflib.get_close_matches(target_id, list(by_kind[kind]), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        message = f"{dotted(path)}: {target_id!r} is not {_article(kind)} {kind} id{hint}"
    return Problem(record.path, line, column, RULE, message)


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
