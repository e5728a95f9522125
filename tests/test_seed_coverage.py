"""Every entity the seed documents name has its record (tests/fixtures/seed_entities.yaml lists them)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from generators.kinds import FOLDER_OF_KIND

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
LIST = ROOT / "tests" / "fixtures" / "seed_entities.yaml"
NAMED_BY_SENTENCE = {"gotcha", "finding", "benchmark"}


def _load(path: Path) -> Any:
    with path.open(encoding="utf-8") as stream:
        return yaml.load(stream, Loader=yaml.CSafeLoader)


def _entries() -> list[tuple[str, dict[str, Any]]]:
    return [(seed, entry) for seed, entries in _load(LIST).items() for entry in entries]


ENTRIES = _entries()


def _record(kind: str, record_id: str) -> dict[str, Any] | None:
    path = RECORDS / FOLDER_OF_KIND[kind] / f"{record_id}.yaml"
    return _load(path) if path.is_file() else None


def _format_names() -> dict[str, set[str]]:
    """Every format's id, name and aliases, casefolded, mapped to the ids that answer to it."""
    names: dict[str, set[str]] = {}
    for path in sorted((RECORDS / "formats").glob("*.yaml")):
        data = _load(path)
        for name in [path.stem, data["name"], *data.get("aliases", [])]:
            names.setdefault(name.casefold(), set()).add(path.stem)
    return names


FORMAT_NAMES = _format_names()


def _label(seed: str, entry: dict[str, Any]) -> str:
    return f"{seed} {entry['section']}: {entry['kind']} {entry['name']!r}"


def test_the_list_is_well_formed():
    problems = []
    for seed, entry in ENTRIES:
        source = _record("source", seed)
        if source is None or source.get("type") != "seed":
            problems.append(f"{seed}: not a seed source record")
        if entry["kind"] not in FOLDER_OF_KIND:
            problems.append(f"{_label(seed, entry)}: unknown kind")
        if entry.get("record") is None and not str(entry.get("absent", "")).strip():
            problems.append(f"{_label(seed, entry)}: no record and no `absent` reason")
    assert not problems, "\n".join(problems)
    assert len(ENTRIES) > 200


def test_every_named_entity_has_its_record():
    missing = [f"{_label(seed, entry)} -> {entry['record']!r} does not exist"
               for seed, entry in ENTRIES
               if entry.get("record") and _record(entry["kind"], entry["record"]) is None]
    assert not missing, "\n".join(missing)


def test_a_format_name_the_seed_uses_is_the_format_id_name_or_alias():
    wrong = []
    for seed, entry in ENTRIES:
        if entry["kind"] == "format" and entry.get("record"):
            found = FORMAT_NAMES.get(entry["name"].casefold(), set())
            if found != {entry["record"]}:
                wrong.append(f"{_label(seed, entry)} resolves to {sorted(found)}, expected [{entry['record']!r}]")
    assert not wrong, "\n".join(wrong)


def test_other_names_occur_in_the_record_they_map_to():
    wrong = []
    for seed, entry in ENTRIES:
        if entry["kind"] in NAMED_BY_SENTENCE | {"format"} or not entry.get("record"):
            continue
        data = _record(entry["kind"], entry["record"]) or {}
        ops = [route.get("op", "") for route in data.get("routes", [])]
        haystack = " ".join([entry["record"], data.get("name", ""), data.get("class_name", ""), *ops]).casefold()
        if entry["name"].casefold() not in haystack:
            wrong.append(f"{_label(seed, entry)} is not in {entry['record']!r}'s id, name, class_name or route ops")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("seed,entry", [(s, e) for s, e in ENTRIES if e.get("record") is None],
                         ids=lambda value: value if isinstance(value, str) else value["name"])
def test_a_declared_absence_is_not_stale(seed, entry):
    if entry["kind"] == "format":
        assert entry["name"].casefold() not in FORMAT_NAMES, (
            f"{_label(seed, entry)} now resolves to {sorted(FORMAT_NAMES[entry['name'].casefold()])}; "
            f"name that record instead of the absence")
    else:
        folder = RECORDS / FOLDER_OF_KIND[entry["kind"]]
        hits = [path.stem for path in sorted(folder.glob("*.yaml"))
                if entry["name"].casefold() in (path.stem + " " + _load(path).get("name", "")).casefold()]
        assert hits == [], f"{_label(seed, entry)} now matches {hits}; name that record instead of the absence"


# ---- figures: every number the seeds give, and where its record states it (tests/fixtures/seed_figures.yaml)

FIGURES_LIST = ROOT / "tests" / "fixtures" / "seed_figures.yaml"
FIGURES = [(seed, entry) for seed, entries in _load(FIGURES_LIST).items() for entry in entries]
NUMBER_IN_TEXT = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\d])")


def _figure_label(seed: str, entry: dict[str, Any]) -> str:
    return f"{seed} {entry['section']}: {entry['figure']} ({entry['words']!r}) in {entry['kind']} {entry['record']!r}"


def _numbers(node: Any, with_text: bool) -> set[float]:
    """Every number under a node; with_text also reads the numbers written inside its strings."""
    if isinstance(node, bool):
        return set()
    if isinstance(node, (int, float)):
        return {float(node)}
    if isinstance(node, str):
        return {float(token) for token in NUMBER_IN_TEXT.findall(node)} if with_text else set()
    items = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
    return set().union(*(_numbers(item, with_text) for item in items))


def _narrowed(node: Any, match: dict[str, Any]) -> Any:
    """A list field's items that carry every key/value of match (a peak's precision, a requirement's check)."""
    if not match:
        return node
    items = node if isinstance(node, list) else []
    return [item for item in items if isinstance(item, dict) and all(item.get(k) == v for k, v in match.items())]


def _stated(data: dict[str, Any], text: str, entry: dict[str, Any]) -> bool:
    if "says" in entry:
        return " ".join(entry["says"].split()).casefold() in " ".join(text.split()).casefold()
    node = _narrowed(data.get(entry["at"]), entry.get("match", {}))
    if entry["at"] == "contested":
        # the claims' values, strings included: a claim may be worded ("128, described as the default")
        return float(entry["figure"]) in _numbers([claim.get("value") for contest in node
                                                    for claim in contest.get("claims", [])], with_text=True)
    return float(entry["figure"]) in _numbers(node, with_text=False)


def test_the_figure_list_is_well_formed():
    problems = []
    for seed, entry in FIGURES:
        source = _record("source", seed)
        if source is None or source.get("type") != "seed":
            problems.append(f"{seed}: not a seed source record")
        if entry["figure"] is None:
            if not str(entry.get("no_figure", "")).strip():
                problems.append(f"{_figure_label(seed, entry)}: no figure and no `no_figure` reason")
            continue
        if ("says" in entry) == ("at" in entry):
            problems.append(f"{_figure_label(seed, entry)}: give exactly one of `at` and `says`")
        if "says" in entry and float(entry["figure"]) not in _numbers(entry["says"], with_text=True):
            problems.append(f"{_figure_label(seed, entry)}: `says` does not carry the figure")
    assert not problems, "\n".join(problems)
    assert len(FIGURES) > 80


def test_every_seed_figure_is_stated_or_contested_by_its_record():
    wrong = []
    for seed, entry in FIGURES:
        path = RECORDS / FOLDER_OF_KIND[entry["kind"]] / f"{entry['record']}.yaml"
        if not path.is_file():
            wrong.append(f"{_figure_label(seed, entry)}: no such record")
        elif entry["figure"] is not None and not _stated(_load(path), path.read_text(encoding="utf-8"), entry):
            where = f"says {entry['says']!r}" if "says" in entry else f"at {entry['at']} {entry.get('match', '')}"
            wrong.append(f"{_figure_label(seed, entry)}: the record no longer {where}")
    assert not wrong, "\n".join(wrong)


def test_every_seed_benchmark_has_its_figures():
    listed = {(seed, entry["record"]) for seed, entry in FIGURES if entry["kind"] == "benchmark"}
    missing = [_label(seed, entry) for seed, entry in ENTRIES
               if entry["kind"] == "benchmark" and (seed, entry["record"]) not in listed]
    assert not missing, "\n".join(["benchmarks without their figures in seed_figures.yaml:", *missing])
