"""A CUDA target's architecture-specific and family names stand for its own parts: the number of an `a` name
(sm_103a) is the compute capability of the target or of one of its accelerators, the major of an `f` name (sm_120f)
is the major of one of them; a target on another platform has none."""
from __future__ import annotations

import re
from collections.abc import Iterator

from ..derive.members import part_capabilities
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "cuda-arch-names"
_ARCH_NAME = re.compile(r"sm_(\d+)([af])")


def check(atlas: Atlas, target: Record) -> Iterator[Problem]:
    names = target.data.get("cuda_arch_names", [])
    if names and target.data.get("platform") != "cuda":
        yield at(target, ("cuda_arch_names",), NAME, f"cuda_arch_names on a {target.data.get('platform')} target: "
                 "only CUDA targets have nvcc architecture names")
        return
    own = target.data.get("compute_capability")
    capabilities = set(part_capabilities(atlas.index, target)) | ({own} if type(own) is int else set())
    for n, name in enumerate(names):
        found = _ARCH_NAME.fullmatch(name)
        if found is None:
            continue  # the schema reports the form
        number, suffix = int(found.group(1)), found.group(2)
        if suffix == "a" and number not in capabilities:
            yield at(target, ("cuda_arch_names", n), NAME, f"{name} builds for capability {number} only, which neither "
                     f"this target nor its accelerators state (they state {_listed(capabilities)})")
        elif suffix == "f" and number // 10 not in {c // 10 for c in capabilities}:
            yield at(target, ("cuda_arch_names", n), NAME, f"{name} builds for the capability {number // 10}.x family, "
                     f"which none of this target's parts belongs to (they state {_listed(capabilities)})")


def _listed(capabilities: set[int]) -> str:
    return ", ".join(str(c) for c in sorted(capabilities)) or "no capability"


CHECK = Check(NAME, __doc__.strip(), "record:hardware-target", check_record=check, stage=SHAPE)
