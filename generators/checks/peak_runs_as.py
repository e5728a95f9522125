"""A peak figure that `runs_as` a wider precision names one the part has a dense figure in, and no matrix instruction contradicts it.

`runs_as` says the part's matrix engines convert the figure's operands to another precision and run at its rate; the
derivation then counts the figure's formats emulated through that precision. A `runs_as` precision with no dense
figure of the part is a rate nobody stated, and a hardware target of the part (or the part's own record) that lists the
figure's precision among its `matrix_formats` says the engines do have the path: the records contradict each other either way.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.tallies import matrix_instructions
from ..model.atlas import Atlas
from ..problems import Problem
from .base import Check, at

NAME = "peak-runs-as"


def run(atlas: Atlas) -> Iterator[Problem]:
    instructions = matrix_instructions(atlas.index)
    for record in atlas.index.all("accelerator"):
        peaks = record.data.get("peak_compute", [])
        rated = {p["precision"] for p in peaks if p.get("sparsity") == "dense" and "runs_as" not in p}
        for n, figure in enumerate(peaks):
            if "runs_as" not in figure:
                continue
            wider = figure["runs_as"]["precision"]
            if wider == figure["precision"]:
                yield at(record, ("peak_compute", n, "runs_as", "precision"), NAME,
                         f"a {figure['precision']} figure cannot run as its own precision")
            elif wider not in rated:
                yield at(record, ("peak_compute", n, "runs_as", "precision"), NAME,
                         f"runs as {wider}, but the part states no dense {wider} figure of its own to be that rate")
            listed = ["its own matrix_formats" if i.on_part else i.target
                      for i in instructions.get(record.id, ()) if i.precision == figure["precision"]]
            if listed:
                yield at(record, ("peak_compute", n, "runs_as"), NAME,
                         f"says the engines convert {figure['precision']}, but {', '.join(sorted(set(listed)))} "
                         f"list(s) a {figure['precision']} matrix instruction for the part")


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "tree", run)
