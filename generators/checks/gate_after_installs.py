"""A capability gate's `after_installs` names install facts that a requirement of the first candidate kernel on one of
the gate's platforms is met by (`met_by_install`): the derivation reads the package tests before the gate there, so a
fact named nowhere would silently leave the gate's message first."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.candidate_lists import resolved_scheme
from ..derive.runtime_checks import resolved_kernel
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "gate-after-installs"


def check(atlas: Atlas, scheme: Record) -> Iterator[Problem]:
    gate = scheme.data.get("capability_gate") or {}
    platforms = gate.get("platforms")
    engine = atlas.index.get("engine", scheme.data.get("engine", ""))
    tested: set[str] = set()
    for candidates in resolved_scheme(scheme.id, scheme.data, engine.data if engine else None).get("candidates", []):
        kernel = atlas.index.get("kernel", candidates["kernels"][0]) if candidates.get("kernels") else None
        if kernel is None or (platforms and candidates["platform"] not in platforms):
            continue
        resolved = resolved_kernel(kernel.id, kernel.data, engine.data if engine else None)
        tested.update(fact for r in resolved.get("requirements", []) for fact in r.get("met_by_install") or ())
    for n, fact in enumerate(gate.get("after_installs") or ()):
        if fact not in tested:
            yield at(scheme, ("capability_gate", "after_installs", n), NAME,
                     f"no requirement of the first candidate kernel on the gate's platforms is met by install fact "
                     f"{fact!r}; name a fact one of them lists in met_by_install")


CHECK = Check(NAME, __doc__.strip(), "record:scheme", check_record=check, stage=SHAPE)
