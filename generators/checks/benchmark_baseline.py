"""A benchmark whose baseline is another benchmark record shares its unit and metric and is not itself."""
from __future__ import annotations

from typing import Iterator

from ..model.atlas import Atlas
from ..problems import Problem
from .base import Check, at

NAME = "benchmark-baseline"


def run(atlas: Atlas) -> Iterator[Problem]:
    for benchmark in atlas.index.all("benchmark"):
        baseline_id = (benchmark.data.get("baseline") or {}).get("benchmark")
        if baseline_id is None:
            continue
        path = ("baseline", "benchmark")
        if baseline_id == benchmark.id:
            yield at(benchmark, path, NAME, "a benchmark cannot be its own baseline")
            continue
        baseline = atlas.index.get("benchmark", baseline_id)
        if baseline is None:
            continue
        for key in ("unit", "metric"):
            if baseline.data[key] != benchmark.data[key]:
                yield at(benchmark, path, NAME,
                         f"baseline {baseline_id!r} has {key} {baseline.data[key]!r} ({baseline.path}), "
                         f"this benchmark {benchmark.data[key]!r}; compare like with like")


CHECK = Check(NAME, __doc__.strip(), "record:benchmark", run)
