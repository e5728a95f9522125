"""A benchmark whose baseline is another benchmark record shares its unit and metric and is not itself."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "benchmark-baseline"


def check(atlas: Atlas, benchmark: Record) -> Iterator[Problem]:
    baseline_id = (benchmark.data.get("baseline") or {}).get("benchmark")
    if baseline_id is None:
        return
    path = ("baseline", "benchmark")
    if baseline_id == benchmark.id:
        yield at(benchmark, path, NAME, "a benchmark cannot be its own baseline")
        return
    baseline = atlas.index.get("benchmark", baseline_id)
    if baseline is None:
        return
    for key in ("unit", "metric"):
        if baseline.data[key] != benchmark.data[key]:
            yield at(benchmark, path, NAME,
                     f"baseline {baseline_id!r} has {key} {baseline.data[key]!r} ({baseline.path}), "
                     f"this benchmark {benchmark.data[key]!r}; compare like with like")


CHECK = Check(NAME, __doc__.strip(), "record:benchmark", check_record=check, stage=SHAPE)
