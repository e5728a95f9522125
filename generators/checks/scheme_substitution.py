"""A substitution's `kernel` is one the substituted scheme itself lists for that platform, when that scheme is recorded.

A candidate list's `substitution` says which class the engine returns instead (`scheme_class`) and which kernel then
serves the checkpoint. When a scheme of the same engine with that `class_name` is recorded, its own candidate list for
the platform is where that kernel is stated; the substitution's `kernel` is a claim checked against it.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "scheme-substitution"


def check(atlas: Atlas, scheme: Record) -> Iterator[Problem]:
    for n, candidates in enumerate(scheme.data.get("candidates", [])):
        substitution = candidates.get("substitution")
        if not substitution:
            continue
        substitute = next((s for s in atlas.index.all("scheme") if s.id != scheme.id
                           and s.data.get("engine") == scheme.data.get("engine")
                           and s.data.get("class_name") == substitution["scheme_class"]), None)
        if substitute is None:
            continue
        listed = next((c["kernels"] for c in substitute.data.get("candidates", [])
                       if c["platform"] == candidates["platform"]), [])
        if substitution["kernel"] not in listed:
            yield at(scheme, ("candidates", n, "substitution", "kernel"), NAME,
                     f"{substitution['scheme_class']} is recorded as scheme {substitute.id!r} ({substitute.path}), "
                     f"whose {candidates['platform']} candidates are {', '.join(listed) or 'none'}; name one of them")


CHECK = Check(NAME, __doc__.strip(), "record:scheme", check_record=check, stage=SHAPE)
