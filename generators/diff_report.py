"""The diff's output: the PR comment (GitHub-flavoured Markdown) and the JSON report.

Every piece of contributor text goes through `gfm` (see its docstring), so a value, key, id, file
name or problem message shows as text and never as markup, an image, a link or an @-mention.
JSON is strict: no NaN or Infinity.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from . import gfm
from .field_changes import content_fields
from .model.verdicts import Verdict

if TYPE_CHECKING:
    from .diff_model import CellChange, CellContentChange, DiffReport, FieldChange, OtherwiseStep

ABSENT = "(absent)"


def to_markdown(report: DiffReport) -> str:
    """A PR comment: the summary line first, then one section per kind of change; one line when empty, with the
    notes under it when there are any (a side read by another code: pages are then rendered by the running code on
    both sides, so a change the code alone makes to pages does not show, and the comment must say so)."""
    if report.empty:
        return "\n\n".join([report.summary(), *(f"> {note}" for note in report.notes)])
    out = [f"**Atlas diff** {gfm.code(report.base)} → {gfm.code(report.head)}: {report.summary()}", ""]
    out += [f"> {note}" for note in report.notes]
    if report.notes:
        out.append("")
    if report.introduced or report.fixed:
        out.append("### Problems")
        out += [f"- introduced: {gfm.code(p)}" for p in report.introduced]
        out += [f"- fixed: {gfm.code(p)}" for p in report.fixed]
        out.append("")
    if report.records:
        out += _records(report)
    flips = [c for c in report.cells if c.flips and c.on_both_sides]
    if flips:
        out.append("### Support cells")
        out.append("| scheme | target | before | after |")
        out.append("| --- | --- | --- | --- |")
        for c in flips:
            row = (gfm.code(c.scheme), gfm.code(c.target), _cell_text(c.old, c.old_detail), _cell_text(c.new, c.new_detail))
            out.append("| " + " | ".join(gfm.cell(part) for part in row) + " |")
        out.append("")
    moved = report.moved_cells()
    paired = {id(c) for pair in moved for c in pair}
    arrivals = [c for c in report.cells if not c.on_both_sides and id(c) not in paired]
    if arrivals or moved:
        out += _arrivals(arrivals, moved)
    terms = [c for c in report.cells if c.conditions_change or c.otherwise_change]
    if terms:
        out += _terms(terms)
    if report.counts:
        out.append("### Counts")
        for count in report.counts:
            out.append(f"- {gfm.code(count.subject)}, {count.what}: {show(count.old)} → {show(count.new)}")
        out.append("")
    if report.pages:
        out += _pages(report)
    if report.contents:  # last: a code change can touch every cell, and the comment is cut at its end
        out += _contents(report)
    return "\n".join(out).rstrip("\n") + "\n"


def _records(report: DiffReport) -> list[str]:
    out = ["### Records"]
    for r in report.records:
        if r.status == "renamed":
            out.append(f"- {r.kind} {gfm.code(r.renamed_from)} renamed to {gfm.code(r.id)}")
            continue
        out.append(f"- {r.kind} {gfm.code(r.id)} {r.status}")
        for f in r.fields:
            out.append(_field_line(f))
    out.append("")
    return out


def _terms(cells: list[CellChange]) -> list[str]:
    """Per cell, the before and after of what must hold and of what runs otherwise (only the parts that change)."""
    out = ["### What cells need, and what runs otherwise"]
    for c in cells:
        verdict = _cell_text(c.new, c.new_detail)
        if c.flips:
            verdict = f"{_cell_text(c.old, c.old_detail)} → {verdict}"
        out.append(f"- {gfm.code(c.scheme)} on {gfm.code(c.target)}: {verdict}")
        if c.conditions_change:
            out.append(f"  - must hold, before: {_listed(c.old_conditions)}")
            out.append(f"  - must hold, after: {_listed(c.new_conditions)}")
        if c.otherwise_change:
            out += _otherwise(c)
    out.append("")
    return out


SHARED = 3  # a field change in this many cells or more is said once, under the cells it is in


def _contents(report: DiffReport) -> list[str]:
    """Per cell, every field of its content that changes, old -> new (JSON in a code span: `(absent)` for none). A
    change a code change makes to many cells alike (a reworded message, a label) is said once, under every cell it is
    in, and first: else the PR comment, cut at its end, would show the same line for the first hundred cells only."""
    said = [[_field_line(f) for f in c.fields] for c in report.contents]
    cells_of: dict[str, list[int]] = {}
    for n, lines in enumerate(said):
        for line in lines:
            cells_of.setdefault(line, []).append(n)
    groups: dict[tuple[int, ...], list[str]] = {}  # the cells alike -> the changes they share, in first-seen order
    for line, cells in cells_of.items():
        if len(cells) >= SHARED:
            groups.setdefault(tuple(cells), []).append(line)
    out = ["### What cells say (reasons, engine messages, gates, sources, ...)"]
    for alike, lines in groups.items():
        out.append(f"- the same in {len(alike)} cells: {_cells_named([report.contents[n] for n in alike])}")
        out += lines
    shared = {line for lines in groups.values() for line in lines}
    for c, lines in zip(report.contents, said):
        rest = [line for line in lines if line not in shared]
        if rest:
            out.append(f"- {gfm.code(c.scheme)} on {gfm.code(c.target)}")
            out += rest
    out.append("")
    return out


def _field_line(f: FieldChange) -> str:
    return f"  - {gfm.code(f.field)}: {show(f.old, f.old_absent)} → {show(f.new, f.new_absent)}"


def _arrivals(cells: list[CellChange], moved: list[tuple[CellChange, CellChange]]) -> list[str]:
    """Each cell that appears (a scheme or target added, a platform newly read) or disappears, with what it says in
    full on the side that has it: its verdict, kernel, what must hold, what it computes in, every reason, the engine's
    message, what runs otherwise. One block per cell, its lines indented under its name (the PR comment is cut between blocks)."""
    out = ["### New and removed cells"]
    out += [line for old, new in moved for line in _moved(old, new)]
    for c in cells:
        new = c.status == "added"
        verdict, detail, conditions, steps = ((c.new, c.new_detail, c.new_conditions, c.new_otherwise) if new
                                              else (c.old, c.old_detail, c.old_conditions, c.old_otherwise))
        name = f"{'new cell' if new else 'cell removed'}: {gfm.code(c.scheme)} on {gfm.code(c.target)}"
        content = c.content
        if content is None:
            out.append(f"- {name}: {_cell_text(verdict, detail)}")
            out.append(f"  - its reasons and engine message are not known: the {'head' if new else 'base'} side's "
                       "cell contents are not derived")
        else:
            out.append(f"- {name}: {_verdict(verdict)}")
            kernel = content.get("kernel")
            out.append(f"  - kernel: {gfm.code(kernel) if kernel else 'none'}")
        if conditions:
            out.append(f"  - must hold: {_listed(conditions)}")
        if content is not None:
            out += _said(content)
        if steps:
            out.append("  - otherwise:")
            out += [f"    - {gfm.code(step.words)}" for step in steps]
    out.append("")
    return out


def _moved(old: CellChange, new: CellChange) -> list[str]:
    """A cell whose scheme or target is renamed: one block, old name -> new name, and what else changes in it (its
    content field by field, or nothing), not the same cell said twice in full as removed and new."""
    verdict = _cell_text(new.new, new.new_detail)
    if (old.old, old.old_detail) != (new.new, new.new_detail):
        verdict = f"{_cell_text(old.old, old.old_detail)} → {verdict}"
    out = [f"- renamed: {gfm.code(old.scheme)} on {gfm.code(old.target)} is now {gfm.code(new.scheme)} on "
           f"{gfm.code(new.target)}: {verdict}"]
    if old.content is None or new.content is None:
        return out + ["  - what else changes in it is not known: a side's cell contents are not derived"]
    drop = ("scheme", "target")
    fields = [_field_line(f) for f in content_fields({k: v for k, v in old.content.items() if k not in drop},
                                                     {k: v for k, v in new.content.items() if k not in drop})]
    return out + (fields or ["  - it says the same as before"])


_SAID = (("computes_steps_said", "computes in"), ("computes_as", "computes as"), ("gate", "gate"), ("reasons", "reason"),
         ("failure_message", "engine message"))  # content key, its words (computes in: each step as the card says it)


def _said(content: dict[str, Any]) -> list[str]:
    """What a cell's content says beside its verdict and kernel, a line per text (each reason on its own)."""
    out = []
    for key, words in _SAID:
        value = content.get(key)
        for text in value if isinstance(value, list) else [value] if value else []:
            out.append(f"  - {words}: {gfm.code(text if isinstance(text, str) else dumps(text))}")
    return out


def _cells_named(cells: list[CellContentChange]) -> str:
    """`scheme` on `target`, `target`; `scheme` on `target` (the cells in report order, sorted by scheme)."""
    targets: dict[str, list[str]] = {}
    for c in cells:
        targets.setdefault(c.scheme, []).append(gfm.code(c.target))
    return "; ".join(f"{gfm.code(scheme)} on {', '.join(on)}" for scheme, on in targets.items())


def _otherwise(c: CellChange) -> list[str]:
    """Steps for the same conditions: each outcome that changes; else both lists of steps, before and after."""
    if c.same_steps:
        return [f"  - otherwise, unless {gfm.code(a.unless)} (for {gfm.code(a.kernel)}): "
                f"{gfm.code(a.outcome)} → {gfm.code(b.outcome)}" for a, b in zip(c.old_otherwise, c.new_otherwise) if a != b]
    out = []
    steps: tuple[OtherwiseStep, ...]
    for side, steps in (("before", c.old_otherwise), ("after", c.new_otherwise)):
        out.append(f"  - otherwise, {side}:" + ("" if steps else " nothing (no condition to fail)"))
        out += [f"    - {gfm.code(step.words)}" for step in steps]
    return out


def _listed(conditions: tuple[str, ...]) -> str:
    return "; ".join(gfm.code(c) for c in conditions) if conditions else "nothing (no condition)"


def _pages(report: DiffReport) -> list[str]:
    out = ["### Pages"]
    for p in report.pages:
        out.append(f"<details><summary><code>{gfm.html(p.path)}</code> {p.status}</summary>")
        out.append("")
        fence = gfm.fence_for(p.diff)
        out.append(fence + "diff")
        out += [gfm.one_line(line) for line in p.diff]
        if p.cut:
            out.append(f"... {p.cut} more line(s) cut")
        out.append(fence)
        out.append("</details>")
        out.append("")
    return out


def show(value: Any, absent: bool | None = None) -> str:
    """A value as a code span of its JSON form (`false`, `null`); `(absent)` for a field that is not there (`absent`,
    or, left unsaid, a None value)."""
    if absent or (absent is None and value is None):
        return ABSENT
    return gfm.code(dumps(value))


VERDICTS = frozenset(v.value for v in Verdict) | {ABSENT}


def _verdict(verdict: str) -> str:
    """A verdict as it reads; a word this code does not know (a side's own code says it) as text in a code span."""
    return verdict if verdict in VERDICTS else gfm.code(verdict)


def _cell_text(verdict: str, detail: str) -> str:
    return f"{_verdict(verdict)} ({gfm.code(detail)})" if detail else _verdict(verdict)


def dumps(value: Any, **options: Any) -> str:
    """Strict JSON: NaN and Infinity are refused (load rejects them; this keeps every JSON output valid)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False, default=str, **options)


def to_json(report: DiffReport) -> str:
    """Machine-readable report: sorted keys, deterministic order, invisible characters as `\\u` escapes."""
    data = {
        "base": report.base, "head": report.head, "summary": report.summary(), "empty": report.empty,
        "notes": list(report.notes),
        "records": [r.as_dict() for r in report.records],
        "cells": [{**c.as_dict(), "flips": c.flips, "conditions_change": c.conditions_change,
                   "otherwise_change": c.otherwise_change, "status": c.status, "content": c.content}
                  for c in report.cells],
        "cell_contents": [c.as_dict() for c in report.contents],
        "counts": [c.as_dict() for c in report.counts],
        "pages": [p.as_dict() for p in report.pages],
        "problems": {"introduced": list(report.introduced), "fixed": list(report.fixed)},
    }
    return gfm.visible_json(dumps(data, indent=2))
