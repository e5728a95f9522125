"""The dtypes `--dtype auto` gives on a target are dtypes the engine lets a model run in there: each of a target's
`auto_dtypes` is among its `model_dtypes`, where it states them."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "auto-dtypes"


def check(atlas: Atlas, target: Record) -> Iterator[Problem]:
    allowed = target.data.get("model_dtypes")
    if not allowed:
        return
    for n, dtype in enumerate(target.data.get("auto_dtypes", [])):
        if dtype not in allowed:
            yield at(target, ("auto_dtypes", n), NAME, f"--dtype auto cannot give {dtype} here: this target's "
                     f"model_dtypes ({', '.join(allowed)}) refuse it before loading")


CHECK = Check(NAME, __doc__.strip(), "record:hardware-target", check_record=check, stage=SHAPE)
