"""Randomised second reading of the two link shortcuts, on the repository's own records.

link_records takes an unchanged record's links, gaps and problems from the last tree it linked, and relink splices a
replaced record's links into the backlinks by bisection. Both must equal a fresh link_records over the same records,
whatever the other records did: records gone (a reference dangles), come back (it resolves again), renamed (a known gap
elsewhere goes stale, a dangling reference resolves), added, and records replaced by versions that move, drop, break or
declare references. A difference here is a stale link or a missed error on the site.
"""
from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from generators import link as link_module
from generators.link import _references, link_records, relink


_CLOSE: dict[tuple[str, tuple[str, ...], float], str | None] = {}
_closest = link_module.closest


@pytest.fixture(autouse=True)
def _closest_once(monkeypatch):
    """link.closest (the 'did you mean' of every dangling reference, link._dangling), each answer computed once per
    module: the walks word the same dangles again and again, in the fresh link and in the one taking the last tree's
    parts, over the same ids (about 1,050 calls, 330 distinct). A pure function of its arguments (its ties go by the
    candidate's text, not by the order given), so every message is the one link gives."""
    def close(word, candidates, cutoff=0.6):
        key = (word, tuple(candidates), cutoff)
        if key not in _CLOSE:
            _CLOSE[key] = _closest(word, key[1], cutoff)
        return _CLOSE[key]
    monkeypatch.setattr(link_module, "closest", close)


def _fresh(records, schemas, monkeypatch):
    monkeypatch.setattr(link_module, "_LAST", [])
    return link_records(records, schemas)


def _same(got, expected, replaced=None):
    """Equal indexes (backlinks and outgoing in the same order) and problems; relink reports only the replaced
    records' problems (`replaced`: their files), in their order rather than the tree's."""
    (index, problems), (want, want_problems) = got, expected
    assert index == want
    assert list(index.backlinks) == list(want.backlinks) and list(index.outgoing) == list(want.outgoing)
    assert index.backlinks == want.backlinks and index.gaps == want.gaps
    assert [list(links) for links in index.backlinks.values()] == [list(links) for links in want.backlinks.values()]
    if replaced is None:
        assert problems == want_problems
    else:
        assert sorted(problems) == sorted(p for p in want_problems if p.file in replaced)


def _at(data, path):
    for part in path[:-1]:
        data = data[part]
    return data, path[-1]


def _edited(record, schemas, ids, rng):
    """A new version of the record: one reference moved to another id, dropped, made to dangle or declared as a gap, or
    a known gap declared for an id nothing references (stale), or one naming an id that exists (stale)."""
    data = copy.deepcopy(record.data)
    references = _references(record, schemas.ref_fields[record.kind])
    choice = rng.randrange(6) if references else rng.choice((4, 5))
    if choice < 4:
        path, _, kind, target_id = rng.choice(references)
        holder, key = _at(data, path)
        written = (lambda k, i: f"{k}/{i}") if holder[key] != target_id else (lambda k, i: i)
        if choice == 0 and ids.get(kind):
            holder[key] = written(kind, rng.choice(ids[kind]))  # moved to another existing id
        elif choice == 1:
            del holder[key]  # dropped (a list shifts, a mapping loses the field)
        else:
            missing = target_id + "-gone"
            holder[key] = written(kind, missing)  # dangles ('did you mean' the old id)
            if choice == 3:
                data["known_gaps"] = [*(data.get("known_gaps") or []), {"kind": kind, "id": missing, "reason": "R."}]
    elif choice == 4:
        data["known_gaps"] = [*(data.get("known_gaps") or []), {"kind": "format", "id": "nowhere", "reason": "R."}]
    else:
        kind = rng.choice(sorted(k for k in ids if ids[k]))
        data["known_gaps"] = [*(data.get("known_gaps") or []), {"kind": kind, "id": rng.choice(ids[kind]), "reason": "R."}]
    return dataclasses.replace(record, data=data)


def _ids(records):
    ids: dict[str, list[str]] = {}
    for record in records:
        ids.setdefault(record.kind, []).append(record.id)
    return ids


@pytest.mark.parametrize("seed", range(1))
def test_a_random_walk_of_trees_links_as_afresh(real_atlas, seed, monkeypatch):
    """Trees the changelog's way: most records the very same objects as the tree before, some gone, some back, some
    renamed (another record's gap for the new id goes stale), some replaced by edited versions."""
    rng = random.Random(seed)
    schemas = real_atlas.schemas
    everything = [r for kind in real_atlas.index.by_kind for r in real_atlas.index.all(kind)]
    ids = _ids(everything)
    monkeypatch.setattr(link_module, "_LAST", [])
    current = list(everything)
    for step in range(5):  # each kind of change once, then a second removal (cost: one fresh link per step)
        action = step % 4
        if action == 0:  # some records go (their targets' backlinks shrink, references to them dangle)
            gone = set(rng.sample(range(len(current)), rng.randint(1, 40)))
            current = [r for n, r in enumerate(current) if n not in gone]
        elif action == 1:  # the originals come back, some edited
            present = {r.ref for r in current}
            current = [*current, *(r for r in everything if r.ref not in present)]
            for n in rng.sample(range(len(current)), rng.randint(1, 30)):
                current[n] = _edited(current[n], schemas, ids, rng)
        elif action == 2:  # a renamed record: a gap declared for its new id elsewhere goes stale, a dangle resolves
            n = rng.randrange(len(current))
            renamed = dataclasses.replace(current[n], id=current[n].id + "-renamed")
            m = rng.randrange(len(current))
            declaring = current[m]
            data = copy.deepcopy(declaring.data)
            data["known_gaps"] = [*(data.get("known_gaps") or []),
                                  {"kind": renamed.kind, "id": renamed.id, "reason": "R."}]
            current[m] = dataclasses.replace(declaring, data=data)
            linked_before = link_records(current, schemas)  # the gap is live here (nothing references it: stale)
            _same(linked_before, _fresh(current, schemas, monkeypatch))
            current = [*current, renamed]
        else:  # back to every original object, the last tree's parts taken where they may be
            current = list(everything)
        rng.shuffle(current) if rng.random() < 0.3 else None
        got = link_records(current, schemas)
        _same(got, _fresh(current, schemas, monkeypatch))
        _same(link_records(current, schemas), got)  # the same tree again (the same ids object)


@pytest.mark.parametrize("seed", [1])
def test_relink_of_random_replacements_is_link_records(real_atlas, seed):
    """relink against link_records over the index's records with random replacements (1 to 1500 records) whose
    references move, are dropped, dangle, or are declared as gaps, and replacements of their own replacements."""
    rng = random.Random(100 + seed)
    schemas = real_atlas.schemas
    index = real_atlas.index
    records = [r for kind in index.by_kind for r in index.all(kind)]
    ids = _ids(records)
    for count in (1, rng.randint(2, 40), rng.randint(200, 1500)):
        chosen = rng.sample(records, min(count, len(records)))
        replaced = [_edited(r, schemas, ids, rng) for r in chosen]
        changed = {r.ref: r for r in replaced}
        after = [changed.get(r.ref, r) for kind in index.by_kind for r in index.all(kind)]
        expected = link_records(after, schemas)
        got = relink(index, replaced, schemas)
        assert expected[1] or len(chosen) < 100, "some replacement dangles"
        _same(got, expected, {r.path for r in replaced})
        # and from there, back to some of the originals (links come back, gaps go)
        back = rng.sample(chosen, max(1, len(chosen) // 2))
        again = {**changed, **{r.ref: r for r in back}}
        after_back = [again.get(r.ref, r) for kind in index.by_kind for r in index.all(kind)]
        _same(relink(got[0], back, schemas), link_records(after_back, schemas), {r.path for r in back})


def _leaves(data, path=()):
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(data, list):
        for n, value in enumerate(data):
            yield from _leaves(value, (*path, n))
    elif isinstance(data, (int, float, str)) and not isinstance(data, bool):
        yield path


def _closed_words(schemas) -> set[str]:
    """Every word a schema allows from a closed list (an enum or a const: a kernel requirement's `check`, a verdict)."""
    words: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "enum" and isinstance(value, list):
                    words.update(v for v in value if isinstance(v, str))
                elif key == "const" and isinstance(value, str):
                    words.add(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(schemas.documents)
    return words


def _perturbed(record, rng, closed=frozenset()):
    """A new version of the record with one number or text changed (a figure, a quote, a reference), or one reference
    field's list emptied: what the record checks read of it, or of the records it links to and from, moves. A word from
    a closed list (`closed`) is left alone: validation refuses any other word before anything is derived from it, and
    the derivation reads such words as given ('capability-exact 7' as a kernel's check stopped every derivation of the
    tree, so each kernel's check derived every cell again only to crash, and checked nothing)."""
    data = copy.deepcopy(record.data)
    leaves = [path for path in _leaves(data) if _at(data, path)[0][path[-1]] not in closed]
    if not leaves:
        return dataclasses.replace(record, data=data)
    holder, key = _at(data, rng.choice(leaves))
    value = holder[key]
    holder[key] = value * 2 + 1 if isinstance(value, (int, float)) else (value + " 7" if rng.random() < 0.5 else "")
    return dataclasses.replace(record, data=data)


def _next_tree(step, current, rng, closed):
    """The walk's next records: as they are (step 0), 60 of any kind and every benchmark perturbed, or 20 gone."""
    if step % 3 == 2:
        gone = set(rng.sample(range(len(current)), 20))
        return [r for n, r in enumerate(current) if n not in gone]
    current = list(current)
    if step:
        for n in rng.sample(range(len(current)), 60):
            current[n] = _perturbed(current[n], rng, closed)
        benchmarks = [n for n, r in enumerate(current) if r.kind == "benchmark"]  # quality-note-figures reads them
        for n in benchmarks:
            current[n] = _perturbed(current[n], rng, closed)
    return current


@pytest.mark.parametrize("seed", range(1))
def test_kept_record_check_findings_are_a_fresh_runs_along_a_walk_of_trees(real_atlas, seed, monkeypatch):
    """The check runner keeps a record check's findings by the very record objects and the backlinks it read: along
    trees whose records are mostly the same objects (some perturbed, some gone), every run that takes kept findings
    (a full run with keep, an errors-only run) gives a fresh run's problems, for every record check of the registry."""
    from generators.checks import REGISTRY, runner
    from generators.derive import derive_views
    from generators.last_few import LastFew

    rng = random.Random(7 + seed)
    schemas = real_atlas.schemas
    closed = _closed_words(schemas)
    everything = [r for kind in real_atlas.index.by_kind for r in real_atlas.index.all(kind)]
    record_checks = [check for check in REGISTRY if check.check_record is not None]
    assert record_checks
    current = list(everything)
    found = set()
    for step in range(3):  # the tree as is, one perturbed, one with records gone (each step: four check runs)
        # A tree whose cells cannot be derived (a perturbation validation would refuse, e.g. a scheme's candidate list
        # left without kernels) is drawn again: there every check reading a view would crash, each deriving every cell
        # again first (cached_property keeps no failure), checking nothing at ten times the cost.
        for _ in range(10):
            tree = _next_tree(step, current, rng, closed)
            index, _ = link_records(tree, schemas)
            atlas = dataclasses.replace(real_atlas, index=index, views=derive_views(index))
            try:
                atlas.views.kernel_uses  # noqa: B018 - the cells, and the view record checks read of them
            except Exception:
                continue
            break
        else:
            pytest.fail("ten trees in a row whose cells could not be derived")
        current = tree
        kept_full = runner.run_checks(atlas, record_checks, keep=True)
        kept_errors = runner.run_checks(atlas, record_checks, errors_only=True)
        monkeypatch.setattr(runner, "_KEPT", LastFew())
        fresh_full = runner.run_checks(atlas, record_checks)
        fresh_errors = runner.run_checks(atlas, record_checks, errors_only=True)
        monkeypatch.undo()
        assert kept_full == fresh_full
        assert kept_errors == fresh_errors
        found.update(p.rule for p in fresh_full)
    assert found  # the perturbations reach what the checks read (some finding in some tree)


def test_a_kept_finding_goes_when_a_record_check_s_backlinks_gain_a_record(real_atlas, monkeypatch):
    """quality-note-figures on a format reads the benchmarks linking to it. A benchmark the note restates moves to
    another format (the note's figure is now untied: an error); in the next tree the format and every record it looked
    up are the very same objects, but a new benchmark with that figure links to it: the error must go."""
    from generators.checks import REGISTRY, runner
    from generators.derive import derive_views

    [check] = [c for c in REGISTRY if c.name == "quality-note-figures"]
    schemas = real_atlas.schemas
    everything = [r for kind in real_atlas.index.by_kind for r in real_atlas.index.all(kind)]
    other_format = real_atlas.index.all("format")[0].id

    def atlas_of(records):
        index, _ = link_records(records, schemas)
        return dataclasses.replace(real_atlas, index=index, views=derive_views(index))

    tried = 0
    for fmt in real_atlas.index.all("format"):
        if not fmt.data.get("quality_note") or fmt.id == other_format:
            continue
        for link in real_atlas.index.backlinks.get(fmt.ref, []):
            if not link.source.startswith("benchmark/") or link.path != "format" or tried > 40:
                continue
            tried += 1
            benchmark = real_atlas.index.by_ref(link.source)
            moved = dataclasses.replace(benchmark, data={**benchmark.data, "format": other_format})
            without = [moved if r is benchmark else r for r in everything]
            errors = runner.run_checks(atlas_of(without), [check], errors_only=True)
            if not any(p.file == fmt.path for p in errors):
                continue
            back = dataclasses.replace(benchmark, id=benchmark.id + "-again")  # the figure, linked from a new record
            again = atlas_of([*without, back])
            kept = runner.run_checks(again, [check], errors_only=True)
            monkeypatch.setattr(runner, "_KEPT", runner.LastFew())
            assert kept == runner.run_checks(again, [check], errors_only=True)
            assert not any(p.file == fmt.path for p in kept)
            return
    pytest.fail("no benchmark alone ties a figure of a format's quality note")
