"""A target stating its parts have no matrix instruction lists none and no precision without one, and none of its parts states a peak figure, a matrix encoding or another target's matrix instruction.

`no_matrix_instructions` says the target's parts have no matrix instruction in any precision, and makes every hardware
format emulated on them. A `matrix_formats` entry of the same target contradicts it; a `no_matrix_formats` entry
repeats it for one precision (the statement already covers it, so it is not typed twice). A part's matrix-engine peak
(dense or sparse), its `matrix_encodings`, or a matrix instruction listed by another target it belongs to says the part
has a matrix instruction after all: either that record or the statement is wrong.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.members import members
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "no-matrix-instructions"


def check(atlas: Atlas, target: Record) -> Iterator[Problem]:
    if "no_matrix_instructions" not in target.data:
        return
    for n, entry in enumerate(target.data.get("matrix_formats", [])):
        yield at(target, ("matrix_formats", n), NAME,
                 f"lists a matrix instruction in {entry['precision']!r}, but no_matrix_instructions says the target has "
                 "none in any precision; correct one of them")
    for n, entry in enumerate(target.data.get("no_matrix_formats", [])):
        yield at(target, ("no_matrix_formats", n), NAME,
                 f"states no matrix instruction in {entry['precision']!r}, which no_matrix_instructions already says for "
                 "every precision; remove the entry (move its evidence to no_matrix_instructions if it adds any)")
    others = [t for t in atlas.index.all("hardware-target") if t.id != target.id and t.data.get("matrix_formats")]
    for part_id in members(atlas.index, target):
        part = atlas.index.get("accelerator", part_id)
        if part is None:
            continue
        said = [f"states a {p.get('sparsity', '')} {p.get('precision', '')} matrix peak" for p in part.data.get("peak_compute", [])]
        said += [f"states matrix_encodings in {e['precision']!r}" for e in part.data.get("matrix_encodings", [])]
        said += [f"belongs to target {t.id!r}, which lists matrix instructions" for t in others
                 if part_id in members(atlas.index, t)]
        for what in said:
            yield at(target, ("no_matrix_instructions",), NAME,
                     f"says its parts have no matrix instruction, but its part {part_id!r} {what}; correct the part's "
                     "record or this statement")


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record:hardware-target", check_record=check, stage=SHAPE)
