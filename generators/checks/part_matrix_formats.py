"""A part's own `matrix_formats` and `no_matrix_formats` state only precisions in which its hardware targets' parts differ, and agree with the part's own record.

A target's lists hold for every part of it; a part states a precision itself only where the target's parts differ
(Granite Rapids has the AMX-FP16 tile multiply, Sapphire Rapids of the same target has not). One fact, one place: a
part's entry in a precision a target of the part already states the same way (`matrix_formats`, `no_matrix_formats`,
or every precision by `no_matrix_instructions`) is typed twice, and one that states the opposite contradicts the target;
when every part of a target with two or more parts states the precision the same way on its own record, the parts do
not differ and the fact belongs once on that target. A precision in both of the part's own lists contradicts itself,
and so does a `no_matrix_formats` precision in which the part states a matrix peak (dense or sparse) with no `runs_as`
or names `matrix_encodings`: the derivation would read the figure as native and drop the statement unseen.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.members import members
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "part-matrix-formats"


def check(atlas: Atlas, part: Record) -> Iterator[Problem]:
    has = [str(e["precision"]) for e in part.data.get("matrix_formats", [])]
    lacks = [str(e["precision"]) for e in part.data.get("no_matrix_formats", [])]
    if not has and not lacks:
        return
    # per target: the precisions its matrix_formats and its no_matrix_formats state
    targets = [(t, {"matrix_formats": {str(e["precision"]) for e in t.data.get("matrix_formats", [])},
                    "no_matrix_formats": {str(e["precision"]) for e in t.data.get("no_matrix_formats", [])}})
               for t in atlas.index.all("hardware-target") if part.id in members(atlas.index, t)]
    for field, own, same, opposite in (("matrix_formats", has, "matrix_formats", "no_matrix_formats"),
                                       ("no_matrix_formats", lacks, "no_matrix_formats", "matrix_formats")):
        for n, precision in enumerate(own):
            for target, stated in targets:
                if field == "no_matrix_formats" and "no_matrix_instructions" in target.data:
                    yield at(part, (field, n), NAME,
                             f"states no matrix instruction in {precision!r}, which its target {target.id!r} already "
                             "says for every part and precision (no_matrix_instructions); remove the entry")
                elif field == "matrix_formats" and "no_matrix_instructions" in target.data:
                    yield at(part, (field, n), NAME,
                             f"lists a matrix instruction in {precision!r}, but its target {target.id!r} says its parts "
                             "have none in any precision (no_matrix_instructions); correct one of them")
                elif precision in stated[same]:
                    yield at(part, (field, n), NAME,
                             f"restates {precision!r}, which its target {target.id!r} already states in its {same} for "
                             "every part; remove the entry (a part states only what its targets leave unstated)")
                elif precision in stated[opposite]:
                    yield at(part, (field, n), NAME,
                             f"contradicts its target {target.id!r}, whose {opposite} states {precision!r} the other "
                             "way for every part; correct one of them (if the parts differ, move the target's entry "
                             "to each part)")
            for target, _ in targets:
                siblings = members(atlas.index, target)
                if len(siblings) > 1 and all(_states(atlas, sibling, field, precision) for sibling in siblings):
                    yield at(part, (field, n), NAME,
                             f"states {precision!r} as every part of its target {target.id!r} does in its own {field} "
                             f"({', '.join(sorted(siblings))}); the parts do not differ, so state it once in the "
                             f"target's {field}")
            if field == "no_matrix_formats":
                said = [f"a {p.get('sparsity', '')} {precision} matrix peak (peak_compute[{k}])" for k, p in
                        enumerate(part.data.get("peak_compute", [])) if p.get("precision") == precision and "runs_as" not in p]
                said += [f"matrix_encodings in it (matrix_encodings[{k}])" for k, e in
                         enumerate(part.data.get("matrix_encodings", [])) if e.get("precision") == precision]
                for what in said:
                    yield at(part, (field, n), NAME,
                             f"states no matrix instruction in {precision!r}, but the part's own record states {what}; "
                             "correct one of them (a figure the engines reach by converting takes runs_as)")
            if field == "no_matrix_formats" and precision in has:
                yield at(part, (field, n), NAME,
                         f"states no matrix instruction in {precision!r}, but the part's own matrix_formats lists one "
                         f"(matrix_formats[{has.index(precision)}]); correct one of them")


def _states(atlas: Atlas, accelerator: str, field: str, precision: str) -> bool:
    """Whether the accelerator's own record lists the precision in that field."""
    record = atlas.index.get("accelerator", accelerator)
    if record is None:
        return False
    entries = record.data.get("matrix_formats", []) if field == "matrix_formats" else record.data.get("no_matrix_formats", [])
    return any(str(e["precision"]) == precision for e in entries)


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record:accelerator", check_record=check, stage=SHAPE)
