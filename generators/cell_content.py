"""A derived cell's content, for the diff: every field of the cell and of its answer, and each change to it.

A reader sees a cell's refusal reasons, engine messages, gates and "computes in" on the card, in `explain` and in
`cells --format json`, and no page prints most of them: a generator that fills a message's placeholder differently
moves no page and no verdict, and a record's reason reworded moves its own page but says nothing of the cells that
print it, so `diff` showed neither. The content is
the derived cell (derive/cells.Cell) with its answer (derive/answers.Answer: sources, what it computes in, traps,
published claims) and its observed history, as plain JSON values, and the labels a reader reads for them (the
verdict's, each format's precision as "Computes in" says it), with the card's "Computes in" notices (emulated or
unrated on the target's parts, and how its kernels compute there: derive/emulated_here.notices_of, from the format map
and the kernels' records, which the card reads from the page's data and `explain` prints, and no page of the diff
holds). It is written by the side's own code where that code
differs from the running code (own_code.PAGES_SCRIPT calls `cell_contents`), so what it holds is what each side's
code derives; the comparison walks any shape.

An empty value (None, "", an empty list or mapping) is left out, so a field a newer code adds with an empty default
changes no cell. False is kept, so a field that turns false reads `true` -> `false`, not as a field that is gone
(`(absent)`); a false on one side and no field on the other is no change (an older code left false out, and a
newer code's flag defaults to it). A list of mappings that each name a distinct kernel (or part, or release) is keyed
by it, so a kernel added to the candidates does not renumber the others (a new order is a change of its own); other
lists are aligned (difflib), so one inserted reason is one change.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any

from .derive.emulated_here import notices_of
from .derive.members import members
from .derive.route_computes import format_precision, precision_said
from .diff_model import CellContentChange
from .field_changes import content_fields
from .model.atlas import Atlas

Content = dict[str, Any]  # one cell's content: JSON values only


def cell_contents(atlas: Atlas) -> dict[tuple[str, str], Content]:
    """Every derived cell's content, by (scheme id, target id)."""
    views = atlas.views
    history = views.history
    notices = _notices(atlas)
    contents: dict[tuple[str, str], Content] = {}
    for key, answer in views.answers.items():
        beside = {f.name: getattr(answer, f.name) for f in dataclasses.fields(answer) if f.name != "cell"}
        content = {**plain(answer.cell), **plain(beside)}
        content.update(plain({
            "verdict_label": answer.cell.label,  # "Fallback if" where the fallback needs what a default install lacks
            "computes_in_labels": [format_precision(atlas.index, f) for f in answer.computes_in],
            "computes_steps_said": [precision_said(s.precision) if s.precision
                                    else " or ".join(format_precision(atlas.index, f) for f in s.formats)
                                    for s in answer.steps],
            "history": history.get(key),
            # an expert-layer cell's whole checkpoint: the worse of its verdict and its other layers' scheme's here
            "whole_checkpoint": views.whole_checkpoints.get(key),
            "notices": notices(answer)}))
        contents[key] = content
    return contents


def _notices(atlas: Atlas) -> Callable[[Any], dict[str, Any]]:
    """An answer's "Computes in" notices, as the page's data serves them (render/selector_data.selector_files reads
    the same rule from the API's documents: the cell's API entry, the target's parts, the format map's ratings; a test
    holds the two equal on the real records)."""
    tallies = atlas.views.tallies
    emulated = {p: tuple(t.emulated) for p, t in tallies.items()}
    rated = {p: tuple(t.native) + tuple(t.emulated) for p, t in tallies.items()}
    kernels = {r.id: r.data for r in atlas.index.all("kernel")}
    parts = {t.id: tuple(members(atlas.index, t)) for t in atlas.index.all("hardware-target")}

    def of(answer: Any) -> dict[str, Any]:
        if not answer.computes_in:  # the rule reads what the answer computes in: nothing to say of nothing
            return {}
        entry = {"computes_in": list(answer.computes_in), "computes_steps": [s.as_dict() for s in answer.steps],
                 "kernel": answer.cell.kernel, "target": answer.cell.target}  # the fields of cell_entry it reads
        return notices_of(entry, parts.get(answer.cell.target, ()), emulated, rated, kernels)
    return of


def plain(value: Any) -> Any:
    """A derived value as JSON values: a dataclass as a mapping of its non-empty fields, an enum as its value, a
    tuple as a list. Anything else that is not JSON is a TypeError (a new kind of value must be said here)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items() if not _empty(v)}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"a cell's content holds a {type(value).__name__}")


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, (str, list, tuple, dict)) and not value)


def content_changes(old: dict[tuple[str, str], Content],
                    new: dict[tuple[str, str], Content]) -> Iterator[CellContentChange]:
    """Per cell on both sides, sorted by scheme and target, every field whose value differs (a cell on one side only
    is new or removed: diff.cell_changes reports it, with its content)."""
    for key in sorted(set(old) & set(new)):
        a, b = old[key], new[key]
        if a != b:
            fields = tuple(content_fields(a, b))
            if fields:  # (only a false on one side and nothing on the other: no change, see the module's docstring)
                yield CellContentChange(key[0], key[1], fields)
