"""The diff's model: what changed between two built sides, as plain frozen values (no comparison, no output)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import diff_report
from .diff_report import ABSENT
from .field_changes import FieldChange
from .model.atlas import Atlas
from .problems import Problem

__all__ = ["ABSENT", "CellChange", "CellContentChange", "CountChange", "DiffReport", "FieldChange", "OtherwiseStep",
           "PageChange", "RecordChange", "Side"]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class RecordChange:
    """A record added, removed, changed (with its field changes), renamed (same content, new id), broken or repaired."""

    kind: str
    id: str
    status: str
    fields: tuple[FieldChange, ...] = ()
    renamed_from: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "status": self.status, "renamed_from": self.renamed_from,
                "fields": [f.as_dict() for f in self.fields]}


@dataclass(frozen=True)
class OtherwiseStep:
    """One otherwise step of a cell in words: unless these conditions hold (for this kernel), this outcome runs."""

    unless: str  # the conditions, any one of which failing leads here, joined with "and"
    kernel: str  # the kernel they are conditions of
    outcome: str  # as explain words it: `RUNS IF via k (conditions: ...)`, `FALLBACK via k: computes as: ...`

    @property
    def words(self) -> str:
        """`unless A and B (for k): FALLBACK via k: computes as: ...`, as explain prints it."""
        return f"unless {self.unless} (for {self.kernel}): {self.outcome}"

    @property
    def when(self) -> tuple[str, str]:
        """What the step is the outcome of: the conditions and their kernel."""
        return self.unless, self.kernel

    def as_dict(self) -> dict[str, Any]:
        return {"unless": self.unless, "kernel": self.kernel, "outcome": self.outcome}


CellTerms = tuple[str, str, tuple[str, ...], tuple[OtherwiseStep, ...]]  # verdict, detail, conditions, otherwise


@dataclass(frozen=True)
class ChangeSummary:
    """All the comparison reads of one side, in words: each derived cell's verdict, detail (kernel or first reason),
    conditions and otherwise steps; each accelerator's native and emulated counts; each published cell's agreement
    with the derivation. A side evaluated by another version of this package (own_code.py) arrives in this form."""

    cells: dict[tuple[str, str], CellTerms]
    counts: dict[tuple[str, str], int]  # (accelerator, "native formats" | "emulated formats") -> count
    published: dict[tuple[str, str, str], str]  # (matrix, row, column) -> agreement in words
    agreeing: int  # published cells that are comparable and agree
    # the cells whose verdict a reader reads as another label (Cell.label: "Fallback if", a fallback a default install
    # does not reach); optional in the JSON, so a summary kept before it was added still reads (as labelled by verdict)
    labels: dict[tuple[str, str], str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"cells": [[*key, verdict, detail, list(conditions), [[o.unless, o.kernel, o.outcome] for o in steps]]
                          for key, (verdict, detail, conditions, steps) in sorted(self.cells.items())],
                "counts": [[*key, count] for key, count in sorted(self.counts.items())],
                "published": [[*key, words] for key, words in sorted(self.published.items())],
                "agreeing": self.agreeing,
                "labels": [[*key, label] for key, label in sorted(self.labels.items())]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChangeSummary:
        """The summary as_json wrote; raises (KeyError, TypeError, ValueError) on anything else."""
        cells = {(str(scheme), str(target)): (str(verdict), str(detail), tuple(map(str, conditions)),
                                              tuple(OtherwiseStep(str(u), str(k), str(o)) for u, k, o in steps))
                 for scheme, target, verdict, detail, conditions, steps in data["cells"]}
        counts = {(str(acc), str(what)): int(count) for acc, what, count in data["counts"]}
        published = {(str(m), str(r), str(c)): str(words) for m, r, c, words in data["published"]}
        labels = {(str(scheme), str(target)): str(label) for scheme, target, label in data.get("labels", [])}
        return cls(cells, counts, published, int(data["agreeing"]), labels)


@dataclass(frozen=True)
class CellChange:
    """A derived support cell whose verdict or deciding kernel changes (it flips), or whose terms change: what must
    hold for its verdict (conditions) or what runs when that does not hold (otherwise steps, in words).

    Detail is the kernel or the first reason; conditions and otherwise steps are empty on a side without the cell, and
    its verdict is ABSENT there: a cell that appears or disappears counts as a flip (`flips`, as the JSON has always
    said), and `status` tells it from a flip of a cell on both sides.
    """

    scheme: str
    target: str
    old: str
    new: str
    old_detail: str
    new_detail: str
    old_conditions: tuple[str, ...] = ()
    new_conditions: tuple[str, ...] = ()
    old_otherwise: tuple[OtherwiseStep, ...] = ()
    new_otherwise: tuple[OtherwiseStep, ...] = ()
    # a cell on one side only: its content on that side (cell_content.py), what the report says of a new or removed
    # cell (its verdict, kernel, reasons, engine message); None where that side's contents are not derived. Not part
    # of the change's identity (nor of as_dict: the changelog keeps no contents)
    content: dict[str, Any] | None = field(default=None, compare=False)
    # each side's verdict as a reader reads it where that is not its verdict's label ("Fallback if"), else ""; not
    # part of the change's identity (a fallback's label moves with what a default install reaches, not its verdict)
    old_label: str = field(default="", compare=False)
    new_label: str = field(default="", compare=False)

    @property
    def status(self) -> str:
        """`added` (a new cell: a scheme or target added, or a platform newly read), `removed`, or `changed`."""
        return "added" if self.old == ABSENT else "removed" if self.new == ABSENT else "changed"

    @property
    def flips(self) -> bool:
        """The verdict or what decides it (the kernel, or a refusal's first reason) differs."""
        return (self.old, self.old_detail) != (self.new, self.new_detail)

    @property
    def conditions_change(self) -> bool:
        """What must hold differs on a cell present on both sides (a cell that appears is a flip, not a new term)."""
        return self.on_both_sides and self.old_conditions != self.new_conditions

    @property
    def otherwise_change(self) -> bool:
        """What runs when the conditions do not hold differs on a cell present on both sides."""
        return self.on_both_sides and self.old_otherwise != self.new_otherwise

    @property
    def same_steps(self) -> bool:
        """Both sides have the same otherwise steps (the same conditions failing, in order), whatever their outcomes."""
        return [s.when for s in self.old_otherwise] == [s.when for s in self.new_otherwise]

    @property
    def on_both_sides(self) -> bool:
        return ABSENT not in (self.old, self.new)

    def as_dict(self) -> dict[str, Any]:
        return {"scheme": self.scheme, "target": self.target, "old": self.old, "new": self.new,
                "old_detail": self.old_detail, "new_detail": self.new_detail,
                "old_conditions": list(self.old_conditions), "new_conditions": list(self.new_conditions),
                "old_otherwise": [o.as_dict() for o in self.old_otherwise],
                "new_otherwise": [o.as_dict() for o in self.new_otherwise]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CellChange:
        """The change as_dict wrote (lists back to tuples, so it compares equal to the original), with its labels where
        the data carries them (commit_cache.as_value adds them)."""
        return cls(data["scheme"], data["target"], data["old"], data["new"], data["old_detail"], data["new_detail"],
                   old_conditions=tuple(data["old_conditions"]), new_conditions=tuple(data["new_conditions"]),
                   old_otherwise=tuple(OtherwiseStep(**o) for o in data["old_otherwise"]),
                   new_otherwise=tuple(OtherwiseStep(**o) for o in data["new_otherwise"]),
                   old_label=str(data.get("old_label", "")), new_label=str(data.get("new_label", "")))


@dataclass(frozen=True)
class CellContentChange:
    """A derived cell on both sides whose content differs (cell_content.py): each field that does, old -> new, with
    None on the side without it (a reason, an engine message, a gate, a source, what it computes in, ...)."""

    scheme: str
    target: str
    fields: tuple[FieldChange, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"scheme": self.scheme, "target": self.target, "fields": [f.as_dict() for f in self.fields]}


@dataclass(frozen=True)
class CountChange:
    """A computed count or agreement that moves: subject (accelerator or matrix cell), what, old -> new."""

    subject: str
    what: str
    old: Any
    new: Any

    def as_dict(self) -> dict[str, Any]:
        return {"subject": self.subject, "what": self.what, "old": self.old, "new": self.new}


@dataclass(frozen=True)
class PageChange:
    """A generated or hand-written page whose Markdown changes, with a (possibly cut) unified diff."""

    path: str
    status: str
    diff: tuple[str, ...]
    cut: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "status": self.status, "diff": list(self.diff), "cut": self.cut}


@dataclass(frozen=True)
class DiffReport:
    """Everything that differs between base and head; empty when the change does nothing to the site."""

    base: str
    head: str
    records: tuple[RecordChange, ...] = ()
    cells: tuple[CellChange, ...] = ()
    counts: tuple[CountChange, ...] = ()
    pages: tuple[PageChange, ...] = ()
    contents: tuple[CellContentChange, ...] = ()
    introduced: tuple[str, ...] = ()
    fixed: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def empty(self) -> bool:
        return not (self.records or self.cells or self.contents or self.counts or self.pages or self.introduced
                    or self.fixed)

    def moved_cells(self) -> list[tuple[CellChange, CellChange]]:
        """Each cell of a renamed scheme or hardware target, as (removed under the old id, added under the new one):
        the same cell, which cell_changes sees as one cell gone and one new (the pair is said as one)."""
        renamed = {(r.kind, r.renamed_from): r.id for r in self.records if r.status == "renamed"}
        added = {(c.scheme, c.target): c for c in self.cells if c.status == "added"}
        pairs = []
        for c in self.cells:
            if c.status == "removed":
                key = (renamed.get(("scheme", c.scheme), c.scheme), renamed.get(("hardware-target", c.target), c.target))
                if key != (c.scheme, c.target) and key in added:
                    pairs.append((c, added[key]))
        return pairs

    def summary(self) -> str:
        """One line: what moves, e.g. '1 record changed, 1 cell flips, 2 pages change'; or 'No changes to the site.'"""
        if self.empty:
            return "No changes to the site."
        parts: list[str] = []
        for status in ("added", "removed", "renamed", "changed", "broken", "repaired"):
            n = sum(1 for r in self.records if r.status == status)
            if n:
                parts.append(f"{plural(n, 'record')} {status}")
        moved = self.moved_cells()
        paired = {id(c) for pair in moved for c in pair}
        for status, one, many in (("added", "new cell", "new cells"), ("removed", "cell removed", "cells removed")):
            n = sum(1 for c in self.cells if c.status == status and id(c) not in paired)
            if n:
                parts.append(f"{n} {one if n == 1 else many}")
        if moved:
            parts.append(f"{plural(len(moved), 'cell')} renamed with {'its' if len(moved) == 1 else 'their'} scheme "
                         "or target")
        flips = sum(1 for c in self.cells if c.flips and c.on_both_sides)
        if flips:
            parts.append(f"{plural(flips, 'cell')} {'flips' if flips == 1 else 'flip'}")
        terms = sum(1 for c in self.cells if c.on_both_sides and not c.flips)
        if terms:
            parts.append(f"{plural(terms, 'cell')} {'changes' if terms == 1 else 'change'} "
                         "what must hold or what runs otherwise")
        if self.contents:
            parts.append(f"{plural(len(self.contents), 'cell')} {'changes' if len(self.contents) == 1 else 'change'} "
                         "in content")
        if self.counts:
            parts.append(f"{plural(len(self.counts), 'count')} {'moves' if len(self.counts) == 1 else 'move'}")
        if self.pages:
            parts.append(f"{plural(len(self.pages), 'page')} {'changes' if len(self.pages) == 1 else 'change'}")
        if self.introduced:
            parts.append(f"{plural(len(self.introduced), 'problem')} introduced")
        if self.fixed:
            parts.append(f"{plural(len(self.fixed), 'problem')} fixed")
        return ", ".join(parts)

    def to_markdown(self) -> str:
        """A PR comment (see diff_report.to_markdown)."""
        return diff_report.to_markdown(self)

    def to_json(self) -> str:
        """Machine-readable report (see diff_report.to_json)."""
        return diff_report.to_json(self)


@dataclass(frozen=True)
class Side:
    """One side of the diff, built: its records, atlas (None if it did not build), pages and problems."""

    records: dict[tuple[str, str], dict[str, Any]]
    unreadable: frozenset[tuple[str, str]]
    atlas: Atlas | None
    pages: dict[str, str] | None
    problems: tuple[Problem, ...]
    summary: ChangeSummary | None = None  # its cells and counts from its own code, when own_code is set
    own_code: str = ""  # the commit whose own generators/ summarised it, or "": the running code built it
    own_pages: bool = False  # its pages were rendered by that commit's own code too (else by the running code)
    # each cell's content as that commit's own code derives it (cell_content.py), when own_code is set and that code
    # has cell_content; else None: the running code derives it from `atlas`
    contents: dict[tuple[str, str], dict[str, Any]] | None = None


@dataclass(frozen=True)
class CommitChange:
    """What one commit did to the site's data: derived cells, counts, and records added, removed or changed."""

    sha: str
    date: str  # the committer date, ISO 8601
    subject: str
    cells: tuple[CellChange, ...]
    counts: tuple[CountChange, ...]
    records: tuple[RecordChange, ...]
    note: str = ""  # why the comparison is incomplete (a side that does not build)
