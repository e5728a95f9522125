"""Every entity the seed documents name has its record (tests/fixtures/seed_entities.yaml lists them)."""
from __future__ import annotations

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
