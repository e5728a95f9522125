"""A platform on which none of an engine's schemes has a kernel is stated once, in the engine's `no_path`, and each scheme's list for it says `no_path: true`: a marked list names no kernel and its engine states the platform, an engine states each platform once and some scheme marks it, every list of the engine's schemes for such a platform is marked, and no two schemes of one engine give an empty list for one platform the same locator of their own."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "no-path"

Place = tuple[Record, int]  # a scheme and the index of one of its candidate lists


def run(atlas: Atlas) -> Iterator[Problem]:
    marked: dict[str, set[str]] = defaultdict(set)  # engine id -> the platforms some scheme marks
    texts: dict[tuple[str, str, str], list[Place]] = defaultdict(list)  # (engine, platform, locator) -> empty lists
    for scheme in atlas.index.all("scheme"):
        engine_id = scheme.data.get("engine", "")
        stated = _platforms(atlas, engine_id)
        for n, candidates in enumerate(scheme.data.get("candidates", [])):
            platform = candidates["platform"]
            if candidates.get("no_path"):
                marked[engine_id].add(platform)
                yield from _marked(scheme, n, engine_id, platform in stated)
            elif platform in stated:
                yield at(scheme, ("candidates", n), NAME,
                         f"engine {engine_id!r} states that it has no path on {platform!r} (no_path[{stated[platform]}]); "
                         "write this list as `kernels: []` with `no_path: true`, or correct the engine's no_path")
            elif "kernels" in candidates and not candidates["kernels"] and "unread" not in candidates and candidates.get("locator"):
                texts[(engine_id, platform, candidates["locator"])].append((scheme, n))
    for engine in atlas.index.all("engine"):
        yield from _engine_problems(engine, marked[engine.id])
    for (engine_id, on, _), places in sorted(texts.items(), key=lambda item: item[0]):
        yield from _copies(engine_id, on, places)


def _platforms(atlas: Atlas, engine_id: str) -> dict[str, int]:
    """The platforms the engine states no path on, with the index of the first entry for each."""
    engine = atlas.index.get("engine", engine_id)
    found: dict[str, int] = {}
    for n, entry in enumerate(engine.data.get("no_path", []) if engine else []):
        found.setdefault(entry["platform"], n)
    return found


def _marked(scheme: Record, n: int, engine_id: str, stated: bool) -> Iterator[Problem]:
    platform = scheme.data["candidates"][n]["platform"]
    if scheme.data["candidates"][n].get("kernels"):
        yield at(scheme, ("candidates", n, "kernels"), NAME,
                 f"a list marked no_path names no kernel, but this one names {len(scheme.data['candidates'][n].get('kernels', []))}; "
                 "empty it, or drop no_path")
    if not stated:
        yield at(scheme, ("candidates", n, "no_path"), NAME,
                 f"engine {engine_id!r} states no no_path entry for {platform!r}; add one (platform, selector, locator, "
                 "sources) to the engine record, or give this list its own kernels")


def _engine_problems(engine: Record, marked: set[str]) -> Iterator[Problem]:
    seen: dict[str, int] = {}
    for n, entry in enumerate(engine.data.get("no_path", [])):
        platform = entry["platform"]
        if platform in seen:
            yield at(engine, ("no_path", n, "platform"), NAME,
                     f"platform {platform!r} is stated twice (first at no_path[{seen[platform]}])")
        seen.setdefault(platform, n)
        if platform not in marked:
            yield at(engine, ("no_path", n), NAME,
                     f"no scheme of engine {engine.id!r} marks its {platform!r} list `no_path: true`: remove the entry "
                     "or mark the schemes' lists")


def _copies(engine_id: str, platform: str, places: list[Place]) -> Iterator[Problem]:
    """Two schemes of one engine saying in the same words why a platform has no kernel state one engine-wide fact
    twice: it belongs in the engine's no_path."""
    if len({scheme.id for scheme, _ in places}) < 2:
        return
    for scheme, n in places:
        others = ", ".join(sorted({s.id for s, _ in places if s is not scheme}))
        yield at(scheme, ("candidates", n, "locator"), NAME,
                 f"the empty {platform!r} list's locator is also {others}'s: state it once in engine {engine_id!r}'s "
                 "no_path and write each list as `kernels: []` with `no_path: true`")


CHECK = Check(NAME, __doc__.strip(), "tree", run=run, stage=SHAPE)
