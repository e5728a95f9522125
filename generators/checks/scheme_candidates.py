"""A scheme's candidate kernels belong to the scheme's engine, and no platform has two candidate lists."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "scheme-candidates"


def check(atlas: Atlas, scheme: Record) -> Iterator[Problem]:
    seen: dict[str, int] = {}
    for n, candidates in enumerate(scheme.data["candidates"]):
        platform = candidates["platform"]
        if platform in seen:
            yield at(scheme, ("candidates", n, "platform"), NAME,
                     f"platform {platform!r} already has a candidate list at candidates[{seen[platform]}]")
        seen.setdefault(platform, n)
        for k, kernel_id in enumerate(candidates["kernels"]):
            kernel = atlas.index.get("kernel", kernel_id)
            if kernel is not None and kernel.data.get("engine") not in (None, scheme.data["engine"]):
                yield at(scheme, ("candidates", n, "kernels", k), NAME,
                         f"kernel {kernel_id!r} belongs to engine {kernel.data.get('engine')!r}, "
                         f"not {scheme.data['engine']!r}")


CHECK = Check(NAME, __doc__.strip(), "record:scheme", check_record=check, stage=SHAPE)
