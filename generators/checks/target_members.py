"""An accelerator listed under an NVIDIA hardware target has that compute capability, and one under a CPU target is a CPU."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.members import cuda_capability
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "target-members"


def check(atlas: Atlas, target: Record) -> Iterator[Problem]:
    capability = target.data.get("compute_capability")
    for n, accelerator_id in enumerate(target.data.get("accelerators", [])):
        accelerator = atlas.index.get("accelerator", accelerator_id)
        if accelerator is None:
            continue
        stated = accelerator.data.get("compute_capability")
        part = cuda_capability(stated)
        if capability is not None and part is not None and part // 10 != capability // 10:
            yield at(target, ("accelerators", n), NAME,
                     f"{accelerator_id!r} has compute capability {stated} ({accelerator.path}) "
                     f"but this target is {capability}")
        if target.data["platform"] == "cpu" and accelerator.data.get("category") != "cpu":
            yield at(target, ("accelerators", n), NAME,
                     f"{accelerator_id!r} is a {accelerator.data.get('category')}, not a cpu, but this is a CPU target")


CHECK = Check(NAME, __doc__.strip(), "record:hardware-target", check_record=check, stage=SHAPE)
