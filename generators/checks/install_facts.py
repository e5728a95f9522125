"""A kernel requirement's or runtime check's `met_by_install` names facts its engine's `default_install` states (provides or lacks), each default install states at least one fact and none both ways, and it is stated for the release the engine record read."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "install-facts"


def check(atlas: Atlas, record: Record) -> Iterator[Problem]:
    if record.kind == "engine":
        yield from _stale_installs(record)
        return
    engine = atlas.index.get("engine", record.data.get("engine", ""))
    provided = _stated_facts(engine.data if engine else {})
    for n, requirement in enumerate(record.data.get("requirements", [])):
        for m, fact in enumerate(requirement.get("met_by_install", [])):
            if fact in provided:
                continue
            yield at(record, ("requirements", n, "met_by_install", m), NAME,
                     f"no default install of engine {record.data.get('engine', '')!r} states {fact!r}"
                     + (f" (they state: {', '.join(sorted(provided))})" if provided else
                        " (its record states no default_install)"))


def _stated_facts(engine: Mapping[str, Any]) -> set[str]:
    """Every fact the engine's default installs state, provided or lacking."""
    return {fact["fact"] for install in engine.get("default_install", [])
            for fact in [*install.get("provides", []), *install.get("lacks", [])]}


def _stale_installs(engine: Record) -> Iterator[Problem]:
    stated = _stated_facts(engine.data)
    for n, check in enumerate(engine.data.get("runtime_checks", [])):
        for m, fact in enumerate(check.get("met_by_install", [])):
            if fact not in stated:
                yield at(engine, ("runtime_checks", n, "met_by_install", m), NAME,
                         f"no default install of this engine states {fact!r}"
                         + (f" (they state: {', '.join(sorted(stated))})" if stated else " (it states no default_install)"))
    version = engine.data.get("version_read")
    for n, install in enumerate(engine.data.get("default_install", [])):
        provided = {fact["fact"] for fact in install.get("provides", [])}
        if not provided and not install.get("lacks"):
            yield at(engine, ("default_install", n), NAME, "a default install states no fact: give `provides` or `lacks`")
        for m, fact in enumerate(install.get("lacks", [])):
            if fact["fact"] in provided:
                yield at(engine, ("default_install", n, "lacks", m, "fact"), NAME,
                         f"{fact['fact']!r} is both provided and lacking in the same install")
        if install["release"] != version:
            yield at(engine, ("default_install", n, "release"), NAME,
                     f"the default install was read for {install['release']!r} but the record reads {version!r}; "
                     f"check its facts against {version!r} and update the release")


CHECK = Check(NAME, __doc__.strip(), "record:kernel,engine", check_record=check, stage=SHAPE)
