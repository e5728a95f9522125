"""Every scheme, and every kernel a scheme lists as a candidate, cites the code it was read from at a release or commit."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.candidate_lists import resolved_schemes
from ..model.atlas import Atlas
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "dispatch-provenance"


def run(atlas: Atlas) -> Iterator[Problem]:
    candidates = {k for s in resolved_schemes(atlas.index).values() for c in s["candidates"] for k in c.get("kernels", [])}
    records = atlas.index.all("scheme") + [k for k in atlas.index.all("kernel") if k.id in candidates]
    for record in records:
        code = record.data.get("code")
        if code is None:
            yield at(record, (), NAME, f"{record.kind} {record.id!r} is used in dispatch but has no code citation; "
                                       f"add code: {{source: <source id>, locator: <class or function>}}")
            continue
        source = atlas.index.get("source", code["source"])
        if source is not None and not (source.data.get("revision") or source.data.get("package")):
            yield at(record, ("code", "source"), NAME,
                     f"source {source.id!r} ({source.path}) names no revision or package version; "
                     f"dispatch rules change between releases, so pin the one that was read")


CHECK = Check(NAME, __doc__.strip(), "tree", run, stage=SHAPE)
