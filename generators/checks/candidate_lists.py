"""A candidate list that several schemes of one engine walk alike is stated once, in the engine's `candidate_lists`, and each scheme's list for its platform names it (`list: ID`): a named list is one the engine states, for the scheme list's platform; an engine states each id once and each list once, and some two of its schemes name each list; and no scheme types a list (the same kernels in the same order, with the same selector, locator, failure message, sources, promotions and filter) that its engine states or that another scheme of the engine types too."""
from __future__ import annotations

import difflib
import json
from collections import defaultdict
from collections.abc import Iterator

from ..derive.candidate_lists import FROM_ENGINE, named_lists
from ..model.atlas import Atlas
from ..model.fields import EngineCandidateLists
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "candidate-lists"

Place = tuple[Record, int]  # a scheme and the index of one of its candidate lists


def run(atlas: Atlas) -> Iterator[Problem]:
    naming: dict[tuple[str, str], set[str]] = defaultdict(set)  # (engine, list id) -> the schemes naming it
    typed: dict[tuple[str, str, str], list[Place]] = defaultdict(list)  # (engine, platform, list text) -> lists
    by_engine: dict[str, tuple[dict[str, EngineCandidateLists], dict[tuple[str, str], str]]] = {}
    for scheme in atlas.index.all("scheme"):
        engine_id = scheme.data.get("engine", "")
        if engine_id not in by_engine:  # an engine's lists and their texts once, not once per scheme of the engine
            lists = _lists(atlas, engine_id)
            by_engine[engine_id] = lists, {(entry["platform"], _text(entry)): list_id for list_id, entry in lists.items()}
        lists, stated = by_engine[engine_id]
        for n, candidates in enumerate(scheme.data.get("candidates", [])):
            if "list" in candidates:
                naming[(engine_id, candidates["list"])].add(scheme.id)
                yield from _named(scheme, n, engine_id, lists)
            elif candidates.get("kernels"):
                text = _text(candidates)
                same = stated.get((candidates["platform"], text))
                if same is not None:
                    yield at(scheme, ("candidates", n), NAME,
                             f"this {candidates['platform']!r} list is engine {engine_id!r}'s candidate list {same!r} "
                             f"typed again: write `list: {same}` in place of its kernels, selector, locator and sources")
                else:
                    typed[(engine_id, candidates["platform"], text)].append((scheme, n))
    for engine in atlas.index.all("engine"):
        yield from _engine_problems(engine, naming)
    for (engine_id, platform, _), places in sorted(typed.items(), key=lambda item: item[0]):
        yield from _copies(engine_id, platform, places)


def _lists(atlas: Atlas, engine_id: str) -> dict[str, EngineCandidateLists]:
    engine = atlas.index.get("engine", engine_id)
    return named_lists(engine.data if engine else None)


def _text(candidates: object) -> str:
    """What makes two lists the same list: the fields a named list states, in one canonical text."""
    fields = candidates if isinstance(candidates, dict) else {}
    return json.dumps({k: fields[k] for k in FROM_ENGINE if k in fields}, sort_keys=True)


def _named(scheme: Record, n: int, engine_id: str, lists: dict[str, EngineCandidateLists]) -> Iterator[Problem]:
    candidates = scheme.data["candidates"][n]
    named = lists.get(candidates["list"])
    if named is None:
        close = difflib.get_close_matches(candidates["list"], list(lists), n=1, cutoff=0.6)
        yield at(scheme, ("candidates", n, "list"), NAME,
                 f"engine {engine_id!r} states no candidate list {candidates['list']!r}"
                 + (f" (did you mean {close[0]!r}?)" if close else "")
                 + (f"; it states: {', '.join(sorted(lists))}" if lists else "; its record states no candidate_lists"))
    elif named["platform"] != candidates["platform"]:
        yield at(scheme, ("candidates", n, "list"), NAME,
                 f"candidate list {candidates['list']!r} of engine {engine_id!r} is for {named['platform']!r}, not "
                 f"{candidates['platform']!r}: name it in the scheme's {named['platform']!r} list")


def _engine_problems(engine: Record, naming: dict[tuple[str, str], set[str]]) -> Iterator[Problem]:
    seen: dict[str, int] = {}
    texts: dict[tuple[str, str], str] = {}  # (platform, list text) -> the id that states it first
    for n, entry in enumerate(engine.data.get("candidate_lists", [])):
        if entry["id"] in seen:
            yield at(engine, ("candidate_lists", n, "id"), NAME,
                     f"candidate list {entry['id']!r} is stated twice (first at candidate_lists[{seen[entry['id']]}])")
            continue
        seen[entry["id"]] = n
        same = texts.setdefault((entry["platform"], _text(entry)), entry["id"])
        if same != entry["id"]:  # one list under two ids: its schemes walk alike, yet the atlas would say it twice
            yield at(engine, ("candidate_lists", n), NAME,
                     f"candidate list {entry['id']!r} is list {same!r} again (the same kernels, selector, locator and "
                     f"sources on {entry['platform']!r}): keep {same!r} and name it in the schemes naming {entry['id']!r}")
        schemes = sorted(naming.get((engine.id, entry["id"]), ()))
        if len(schemes) < 2:
            who = f"only scheme {schemes[0]!r} names it" if schemes else "no scheme names it"
            yield at(engine, ("candidate_lists", n), NAME,
                     f"candidate list {entry['id']!r}: {who}; a list one scheme walks belongs in that scheme's "
                     "candidates")


def _copies(engine_id: str, platform: str, places: list[Place]) -> Iterator[Problem]:
    """Two schemes of one engine typing the same list state one fact twice: it belongs in the engine's
    candidate_lists."""
    if len({scheme.id for scheme, _ in places}) < 2:
        return
    for scheme, n in places:
        others = ", ".join(sorted({s.id for s, _ in places if s is not scheme}))
        yield at(scheme, ("candidates", n), NAME,
                 f"the same {platform!r} list is typed in {others}: state it once in engine {engine_id!r}'s "
                 "candidate_lists and write `list: ID` in each scheme's list")


CHECK = Check(NAME, __doc__.strip(), "tree", run=run, stage=SHAPE)
