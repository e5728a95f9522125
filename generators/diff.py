"""What a change does to the site: records, derived cells (their verdicts and terms, and every field of what they
say: cell_content.py), counts, pages and problems between two revisions.

`diff_revisions(root, base, head)` materialises each side (a git revision, or the working tree
when head is None) into a temporary directory, runs the pipeline on both, and compares the
results. A side that does not build still contributes its records and problems; views and pages
are compared only when both sides produced them. Temporary directories are always removed.
"""
from __future__ import annotations

import difflib
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any
from collections.abc import Iterator

from . import load, render, tree_files
from .build import run_pipeline
from .cell_content import Content, cell_contents, content_changes
from .derive.cells import Cell, Otherwise
from .diff_model import (
    ABSENT,
    CellChange,
    CellContentChange,
    CellTerms,
    ChangeSummary,
    CountChange,
    DiffReport,
    FieldChange,
    OtherwiseStep,
    PageChange,
    RecordChange,
    Side,
    plural,
)
from .explain import otherwise_summary
from .kinds import KIND_OF_FOLDER
from .own_code import OwnCode, rendered_by_own_code
from .model.atlas import Atlas
from .revisions import DiffError, materialise, project_prefix, verify_revision


__all__ = ["DiffError", "DiffReport", "diff_revisions", "CellChange", "CellContentChange", "CountChange", "FieldChange",
           "OtherwiseStep", "PageChange", "RecordChange", "Side"]

PAGE_DIFF_LINES = 40
CHANGE_VIEWS = ("cells", "tallies", "published")  # every view cell_changes and count_changes read (a test watches)


def diff_revisions(root: Path, base: str, head: str | None) -> DiffReport:
    """Compare the site built from revision `base` with `head` (None: the working tree). Raises DiffError.

    A revision whose generators/ is not the running code's has its cells and counts derived by its own code
    (own_code.py, as the changelog's sides are): a change to the code shows in the cells it moves, and a side the
    running code cannot read any more (a field made required since) still compares its cells. Its pages are rendered
    by its own code as well, so a change to how the code words a page shows in the pages it changes; its records and
    problems are read by the running code."""
    root = Path(root).resolve()
    prefix = project_prefix(root)
    base_sha = verify_revision(root, base)
    head_sha = verify_revision(root, head) if head is not None else None
    with tempfile.TemporaryDirectory(prefix="atlas-diff-") as tmp:
        base_side = build_side(materialise(root, base_sha, prefix, Path(tmp) / "base"))
        if head_sha is None:
            head_side = build_side(root)
        else:
            head_side = build_side(materialise(root, head_sha, prefix, Path(tmp) / "head"))
    own = OwnCode(root, prefix)
    sides = [_by_own_code(own, side, sha) for side, sha in ((base_side, base_sha), (head_side, head_sha))]
    own.save()
    return compare(sides[0], sides[1], base, head if head is not None else "working tree")


def _by_own_code(own: OwnCode, side: Side, sha: str | None) -> Side:
    """The side with its cells and counts from its own code's summary, and its pages and cell contents as its own
    code renders and derives them, when its code is not the running code (pages stay the running code's where its
    own code renders none; contents are the running code's where its own code derives none, see compare)."""
    code = own.code_of(sha) if sha is not None else None
    if sha is None or code is None:
        return side
    pages, contents = rendered_by_own_code(own.root, own.prefix, sha)
    return replace(side, summary=own.summarise(sha, code, own.inputs_id(sha)), own_code=sha,
                   pages=pages if pages is not None else side.pages, own_pages=pages is not None, contents=contents)


def build_side(root: Path) -> Side:
    """Run the pipeline on one tree; never raises for a tree that does not build."""
    run = run_pipeline(root, pages_despite_errors=True)
    records, atlas, problems = run.records, run.atlas, run.problems
    pages: dict[str, str] | None = None
    if run.pages:
        pages = {**_hand_written(root / "docs"), **run.pages}
    unreadable = frozenset(key for key in map(_record_key, {p.file for p in problems if p.rule == load.RULE}) if key)
    return Side({(r.kind, r.id): r.data for r in records}, unreadable, atlas, pages, tuple(problems))


def _record_key(path: str) -> tuple[str, str] | None:
    parts = path.split("/")
    if len(parts) == 3 and parts[0] == "records" and parts[1] in KIND_OF_FOLDER and parts[2].endswith(".yaml"):
        return KIND_OF_FOLDER[parts[1]], parts[2][: -len(".yaml")]
    return None


def compare(base: Side, head: Side, base_name: str, head_name: str) -> DiffReport:
    """The report between two built sides (pure)."""
    notes: list[str] = []
    for name, side in (("base", base), ("head", head)):
        errors = plural(sum(1 for p in side.problems if p.severity == "error"), "error")
        if side.own_code:
            built = "" if side.summary is not None else ", which does not build it: cells and counts are not compared"
            ours = ("cells, counts and pages", "records and problems") if side.own_pages else (
                "cells and counts", "records, pages and problems")
            notes.append(f"The {name} side's {ours[0]} come from its own code (generators/ at "
                         f"{side.own_code[:12]}){built}; its {ours[1]} are read by the code running this diff.")
        if side.atlas is None:
            notes.append(f"The {name} side does not build ({errors}) with the code running this diff: records and "
                         "problems are compared" + ("" if side.own_code else "; cells, counts and pages are not") + ".")
        elif side.pages is None:
            notes.append(f"The {name} side has {errors}, so it renders no pages: pages are not compared.")
    cells: tuple[CellChange, ...] = ()
    counts: tuple[CountChange, ...] = ()
    old, new = _derived(base), _derived(head)
    if old is not None and new is not None:
        cells = tuple(cell_changes(old, new))
        counts = tuple(count_changes(old, new))
    contents: tuple[CellContentChange, ...] = ()
    old_contents, new_contents = _contents(base), _contents(head)
    if old_contents is not None and new_contents is not None:
        contents = tuple(content_changes(old_contents, new_contents))
    cells = tuple(_with_content(c, old_contents, new_contents) for c in cells)
    notes += _content_notes(base, head)
    pages: tuple[PageChange, ...] = ()
    if base.pages is not None and head.pages is not None:
        pages = tuple(page_changes(base.pages, head.pages))
    old_problems = {str(p) for p in base.problems}
    new_problems = {str(p) for p in head.problems}
    return DiffReport(
        base=base_name, head=head_name,
        records=tuple(record_changes(base.records, head.records, base.unreadable, head.unreadable)),
        cells=cells, counts=counts, pages=pages, contents=contents,
        introduced=tuple(sorted(new_problems - old_problems)),
        fixed=tuple(sorted(old_problems - new_problems)),
        notes=tuple(notes),
    )


def _derived(side: Side) -> Atlas | ChangeSummary | None:
    """What a side's cells and counts are read from: its own code's summary, or the atlas built here."""
    return side.summary if side.own_code else side.atlas


def _contents(side: Side) -> dict[tuple[str, str], Content] | None:
    """What a side's cells say (cell_content.py): as its own code derives them, else as the running code derives them
    from the side's atlas; None when neither builds it."""
    if side.contents is not None:
        return side.contents
    return cell_contents(side.atlas) if side.atlas is not None else None


def _with_content(change: CellChange, old: dict[tuple[str, str], Content] | None,
                  new: dict[tuple[str, str], Content] | None) -> CellChange:
    """A cell on one side only, with its content on that side (what the report says of a new or removed cell: its
    verdict, kernel, reasons and engine message in full); a cell on both sides as it is (its content changes are
    content_changes')."""
    side = {"added": new, "removed": old}.get(change.status)
    if side is None:
        return change
    return replace(change, content=side.get((change.scheme, change.target)))


def _content_notes(base: Side, head: Side) -> list[str]:
    """Where the cells' contents are not each side's own code's: a side whose own code derives none (it predates
    cell_content.py, or does not build the side) is read by the running code, or not at all."""
    notes = []
    for name, side in (("base", base), ("head", head)):
        if not side.own_code or side.contents is not None:
            continue
        if side.atlas is not None:
            notes.append(f"The {name} side's cell contents (reasons, engine messages, gates, sources) are derived by "
                         f"the code running this diff: its own code (generators/ at {side.own_code[:12]}) derives "
                         "none, so a change its code alone makes to them does not show.")
        else:
            notes.append(f"The {name} side's cell contents (reasons, engine messages, gates, sources) are not "
                         "compared: neither its own code nor the code running this diff derives them.")
    return notes


def record_changes(old: dict[tuple[str, str], dict[str, Any]], new: dict[tuple[str, str], dict[str, Any]],
                   old_unreadable: frozenset[tuple[str, str]] = frozenset(),
                   new_unreadable: frozenset[tuple[str, str]] = frozenset()) -> Iterator[RecordChange]:
    """Added, removed, renamed (same kind and content under a new id) and changed records, sorted by kind and id.

    A record whose file could not be loaded on one side is `repaired` (unreadable in base) or `broken`
    (unreadable in head) rather than added or removed.
    """
    removed = sorted(set(old) - set(new))
    added = sorted(set(new) - set(old))
    changes: list[RecordChange] = []
    for key in added:
        twin = next((r for r in removed if r[0] == key[0] and old[r] == new[key]), None)
        if twin is not None:
            removed.remove(twin)
            changes.append(RecordChange(key[0], key[1], "renamed", renamed_from=twin[1]))
        else:
            changes.append(RecordChange(key[0], key[1], "repaired" if key in old_unreadable else "added"))
    changes += [RecordChange(kind, rid, "broken" if (kind, rid) in new_unreadable else "removed") for kind, rid in removed]
    for key in sorted(set(old) & set(new)):
        if old[key] is new[key]:  # one record shared by both sides (load reuses an unchanged file's): no change
            continue
        fields = tuple(field_changes(old[key], new[key]))
        if fields:
            changes.append(RecordChange(key[0], key[1], "changed", fields))
    yield from sorted(changes, key=lambda c: (c.kind, c.id))


def field_changes(old: Any, new: Any, path: str = "") -> Iterator[FieldChange]:
    """Field-by-field differences; mappings are walked as `a.b`, equal-length lists as `a[0]`, others compared whole.
    A field on one side only is absent on the other (a field whose value is null is not)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            sub = f"{path}.{key}" if path else key
            if key not in old:
                yield FieldChange(sub, None, new[key], old_absent=True, new_absent=False)
            elif key not in new:
                yield FieldChange(sub, old[key], None, old_absent=False, new_absent=True)
            elif old[key] != new[key]:
                yield from field_changes(old[key], new[key], sub)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            if a != b:
                yield from field_changes(a, b, f"{path}[{i}]")
    elif old != new:
        yield FieldChange(path, old, new, old_absent=False, new_absent=False)  # a null value is there: `null`


def summary_of(atlas: Atlas) -> ChangeSummary:
    """What the comparison reads of an atlas (its CHANGE_VIEWS), in words."""
    cells = cell_terms(atlas)
    counts = {(acc, f"{what} formats"): getattr(tally, f"{what}_count")
              for acc, tally in atlas.views.tallies.items() for what in ("native", "emulated")}
    published = {(p.matrix, p.row, p.column): _agreement(p) for p in atlas.views.published}
    agreeing = sum(1 for p in atlas.views.published if p.comparable and p.agrees)
    return ChangeSummary(cells, counts, published, agreeing, _labels(atlas))


def cell_terms(atlas: Atlas) -> dict[tuple[str, str], CellTerms]:
    """Each derived cell in words: verdict, detail, conditions, otherwise steps."""
    return {key: _cell_terms(cell) for key, cell in atlas.views.cells.items()}


_TERMS: dict[int, tuple[Cell, CellTerms]] = {}  # id of a cell -> the cell and its terms


def _cell_terms(cell: Cell) -> CellTerms:
    """One cell in words, kept per cell object: cells are frozen, and the changelog's sides share most of theirs (a
    cell derived from the same records is taken again: derive/cells.py _kept_cell)."""
    kept = _TERMS.get(id(cell))
    if kept is not None and kept[0] is cell:  # (the entry holds the cell, so its id is not another's)
        return kept[1]
    terms: CellTerms = (str(cell.verdict), _cell_detail(cell), *_terms(cell))
    if len(_TERMS) > 100_000:
        _TERMS.clear()
    _TERMS[id(cell)] = (cell, terms)
    return terms


def _summary(side: Atlas | ChangeSummary) -> ChangeSummary:
    return side if isinstance(side, ChangeSummary) else summary_of(side)


def cell_changes(old: Atlas | ChangeSummary, new: Atlas | ChangeSummary) -> Iterator[CellChange]:
    """Derived cells whose verdict or deciding kernel changes, that appear or disappear, or whose terms change: the
    conditions their verdict needs, or what runs when those do not hold (each otherwise step, in words)."""
    before, after = (side.cells if isinstance(side, ChangeSummary) else cell_terms(side) for side in (old, new))
    old_labels, new_labels = (_labels(side) for side in (old, new))
    nothing: CellTerms = (ABSENT, "", (), ())
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key, nothing), after.get(key, nothing)
        if a == b:
            continue
        yield CellChange(key[0], key[1], a[0], b[0], a[1], b[1], old_conditions=a[2], new_conditions=b[2],
                         old_otherwise=a[3], new_otherwise=b[3], old_label=old_labels.get(key, ""),
                         new_label=new_labels.get(key, ""))


def _labels(side: Atlas | ChangeSummary) -> dict[tuple[str, str], str]:
    """The cells read as another label than their verdict's ("Fallback if"), by (scheme, target)."""
    if isinstance(side, ChangeSummary):
        return side.labels
    return {key: cell.label for key, cell in side.views.cells.items() if cell.label != cell.verdict.label}


def _terms(cell: Cell | None) -> tuple[tuple[str, ...], tuple[OtherwiseStep, ...]]:
    """A cell's conditions and its otherwise steps in words; nothing for a cell that is not there."""
    if cell is None:
        return (), ()
    return tuple(cell.conditions), tuple(otherwise_step(step) for step in cell.otherwise)


def otherwise_step(step: Otherwise) -> OtherwiseStep:
    """One otherwise step in explain's words (`unless A and B (for k): FALLBACK via k: computes as: ...`).

    A refusal's reasons are left out, as a flip leaves out a refused cell's reasons: what runs is what is compared."""
    return OtherwiseStep(" and ".join(step.unmet), step.kernel, otherwise_summary(step))


def count_changes(old: Atlas | ChangeSummary, new: Atlas | ChangeSummary) -> Iterator[CountChange]:
    """Per-accelerator native/emulated tallies, and published-vs-derived agreement of support-matrix cells."""
    before, after = _summary(old), _summary(new)
    for key in sorted(set(before.counts) | set(after.counts), key=lambda k: (k[0], k[1] != "native formats", k[1])):
        a, b = before.counts.get(key), after.counts.get(key)
        if a != b:
            yield CountChange(key[0], key[1], a, b)
    for cell in sorted(set(before.published) | set(after.published)):
        was, now = before.published.get(cell), after.published.get(cell)
        if was != now:
            yield CountChange(f"{cell[0]} [{cell[1]} × {cell[2]}]", "published vs derived", was, now)
    if before.agreeing != after.agreeing:
        yield CountChange("support matrices", "published cells agreeing with derivation", before.agreeing,
                          after.agreeing)


def page_changes(old: dict[str, str], new: dict[str, str], limit: int = PAGE_DIFF_LINES) -> Iterator[PageChange]:
    """Pages added, removed or changed, each with a unified diff cut to `limit` lines."""
    for path in sorted(set(old) | set(new)):
        a, b = old.get(path), new.get(path)
        if a == b:
            continue
        status = "added" if a is None else "removed" if b is None else "changed"
        lines = list(difflib.unified_diff((a or "").splitlines(), (b or "").splitlines(),
                                          fromfile=f"a/{path}", tofile=f"b/{path}", lineterm=""))
        yield PageChange(path, status, tuple(lines[:limit]), max(0, len(lines) - limit))


def _agreement(p: Any) -> str:
    if not p.comparable:
        return f"not comparable (published {p.published})"
    return f"{'agrees' if p.agrees else 'disagrees'} (published {p.published}, derived {p.derived})"


def _cell_detail(cell: Any) -> str:
    if cell is None:
        return ""
    if cell.kernel:
        return f"via {cell.kernel}"
    return str(cell.reasons[0] if cell.reasons else cell.failure_message)


def _hand_written(docs: Path) -> dict[str, str]:
    pages: dict[str, str] = {}
    for path in render.hand_written_files(docs):  # regular files only: links are refused, never followed
        if path.suffix != ".md":
            continue
        rel = path.relative_to(docs).as_posix()
        try:
            raw = tree_files.read_bytes(docs, rel, limit=tree_files.DOCS_MAX_BYTES)
        except tree_files.Refused:
            continue  # reported by the pipeline as a problem of the side
        pages[rel] = raw.decode("utf-8", errors="replace")
    return pages
