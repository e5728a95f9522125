"""A kernel requirement's `met_by_install` names facts its engine's `default_install` provides, and each default install is stated for the release the engine record read."""
from __future__ import annotations

from collections.abc import Iterator

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
    provided = {fact["fact"] for install in (engine.data.get("default_install", []) if engine else [])
                for fact in install["provides"]}
    for n, requirement in enumerate(record.data.get("requirements", [])):
        for m, fact in enumerate(requirement.get("met_by_install", [])):
            if fact in provided:
                continue
            yield at(record, ("requirements", n, "met_by_install", m), NAME,
                     f"no default install of engine {record.data.get('engine', '')!r} provides {fact!r}"
                     + (f" (it provides: {', '.join(sorted(provided))})" if provided else
                        " (its record states no default_install)"))


def _stale_installs(engine: Record) -> Iterator[Problem]:
    version = engine.data.get("version_read")
    for n, install in enumerate(engine.data.get("default_install", [])):
        if install["release"] != version:
            yield at(engine, ("default_install", n, "release"), NAME,
                     f"the default install was read for {install['release']!r} but the record reads {version!r}; "
                     f"check its facts against {version!r} and update the release")


CHECK = Check(NAME, __doc__.strip(), "record:kernel,engine", check_record=check, stage=SHAPE)
