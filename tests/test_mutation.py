"""Mutation test over the real chapters: every datum a chapter reads is changed in the records,
and the chapter must render differently or fail. A value that can change without the page
noticing would be prose that drifts from the data.

Records are mutated in memory (only the changed records are re-linked, views are derived again lazily;
load and validate are not re-run), so the whole sweep takes seconds.
"""
from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import jinja2
import pytest

from generators.build import Atlas
from generators.derive import Views, answers as answers_module, derive_views
from generators.kinds import KIND_OF_FOLDER
from generators.link import relink
from generators.render import chapter_templates, environment, matrix as matrix_html, render_page
from generators.render.context import Read
from generators.render.markdown import escape_text
from generators.render.pages import names_of

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = [t for t in chapter_templates(ROOT / "docs") if t.startswith("chapters/")]
_PATH = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


@pytest.fixture(scope="module")
def atlas(real_check) -> Atlas:
    atlas, problems = real_check
    assert [p for p in problems if p.severity == "error"] == []
    return atlas


class _StopsAtTheFirstDifference(jinja2.Template):
    """Jinja's template, but a render told the text it will be compared with (`compared_with` below) stops at the
    first piece of output that departs from it. What it returns, the pieces up to and including that one, then
    differs from that text exactly when the whole page would; the rest of the page is not rendered."""

    compared_with: str | None = None

    def render(self, *args: Any, **kwargs: Any) -> str:
        expected = _StopsAtTheFirstDifference.compared_with
        if expected is None:
            return super().render(*args, **kwargs)
        context = self.new_context(dict(*args, **kwargs))
        pieces: list[str] = []
        at = 0
        try:
            for piece in self.root_render_func(context):
                pieces.append(piece)
                if not expected.startswith(piece, at):
                    break
                at += len(piece)
        except Exception:
            self.environment.handle_exception()
        return "".join(pieces)


ENVIRONMENT = environment(ROOT / "docs")  # compiled templates are cached across the sweep
ENVIRONMENT.template_class = _StopsAtTheFirstDifference


# Each engine's support matrix as the unmutated records render it, with what it was rendered from: (engine, page,
# where its cells link to, heading level) -> [(the engine's Matrix, the record names, its HTML)]. The matrices are
# rendered whole (one piece of a page, past the reach of the first-difference stop), every engine's on every render of
# the support tables and chapter 03; a mutation changes one engine's matrix or none, so a render of mutated records
# takes an engine's matrix from here when it equals (by value: frozen dataclasses down to each cell) the unmutated one.
# The matrix HTML is a function of those arguments alone, so the page is the one a render without this gives
# (test_a_kept_matrix_is_what_rendering_it_gives checks that on a flip).
_KEPT_MATRICES: dict[tuple[str, str, str, int], list[tuple[Any, dict[str, str], Any]]] = {}
_REUSED = [0]  # matrices taken from _KEPT_MATRICES (for the test of it)
_render_matrix = matrix_html._matrix


@contextlib.contextmanager
def _matrices(mode: str) -> Iterator[None]:
    """Render support matrices as usual ("render"), keeping each in _KEPT_MATRICES ("keep"), or taking a kept one
    where the same engine's matrix is the same ("reuse")."""
    if mode == "render":
        yield
        return

    def render_matrix(matrix: Any, html: Any, notes_at: str = "", heading: int = 2) -> Any:
        kept = _KEPT_MATRICES.setdefault((matrix.engine, html.page, notes_at, heading), [])
        if mode == "reuse":
            for seen, names, markup in kept:
                if names == html.names and seen == matrix:
                    _REUSED[0] += 1
                    return markup
        markup = _render_matrix(matrix, html, notes_at, heading)
        if mode == "keep":
            kept.append((matrix, dict(html.names), markup))
        return markup

    matrix_html._matrix = render_matrix
    try:
        yield
    finally:
        matrix_html._matrix = _render_matrix


# Each cell's answer as the unmutated records derive it: (what `_answer` was given beside the index, the records it
# read from the index, the Answer), by (scheme, target). A mutation changes one or a few records, and most answers read
# none of them; a derivation of mutated records takes a cell's answer from here when `_answer` is given equal arguments
# (by value) and every record the unmutated derivation read is the very record the mutated index holds (relink shares
# every record it does not replace). An answer is a function of those alone, so the answers are the ones a derivation
# without this gives (test_a_kept_answer_is_what_deriving_it_gives checks that on flips and renames).
_KEPT_ANSWERS: dict[tuple[str, str], tuple[tuple[Any, ...], tuple[tuple[tuple[str, str | None, Any], ...], tuple[tuple[str, Any], ...]], Any]] = {}
_REUSED_ANSWERS = [0]  # answers taken from _KEPT_ANSWERS (for the test of it)
_derive_answer = answers_module._answer


class _ReadIndex:
    """An index that notes every record read through it: (kind, id, record) for `get`, (kind, None, the list) for
    `all`. Anything else read from it (links, backlinks, by_kind) marks the reader as reading the whole index."""

    def __init__(self, index: Any):
        self._index = index
        self.reads: list[tuple[str, str | None, Any]] = []
        self.whole = False

    def get(self, kind: str, record_id: str) -> Any:
        record = self._index.get(kind, record_id)
        self.reads.append((kind, record_id, record))
        return record

    def all(self, kind: str) -> Any:
        records = self._index.all(kind)
        self.reads.append((kind, None, list(records)))
        return records

    def by_ref(self, ref: str) -> Any:
        kind, _, record_id = ref.partition("/")
        return self.get(kind, record_id)

    def __getattr__(self, name: str) -> Any:
        self.whole = True
        return getattr(self._index, name)


_MISSING = object()


class _ReadLimits(Mapping):
    """A fit's host limits (answers._PartFit.limits, every kernel's) that note what is read of them: each kernel's
    entry looked up, with what was found, and whether there are any. Anything else (iterating, counting) marks the
    reader as reading them whole."""

    def __init__(self, limits: Mapping[str, Any]):
        self._limits = limits
        self.reads: list[tuple[str, Any]] = []
        self.whole = False

    def __getitem__(self, key: str) -> Any:
        found = self._limits.get(key, _MISSING)
        self.reads.append((key, found))
        if found is _MISSING:
            raise KeyError(key)
        return found

    def __bool__(self) -> bool:
        self.reads.append(("", bool(self._limits)))  # no kernel id is empty
        return bool(self._limits)

    def __iter__(self) -> Iterator[str]:
        self.whole = True
        return iter(self._limits)

    def __len__(self) -> int:
        self.whole = True
        return len(self._limits)


def _same_limits(limits: Mapping[str, Any], reads: tuple[tuple[str, Any], ...]) -> bool:
    """Whether the host limits give what these reads found."""
    return all((bool(limits) if key == "" else limits.get(key, _MISSING)) == found for key, found in reads)


def _same_reads(index: Any, reads: tuple[tuple[str, str | None, Any], ...]) -> bool:
    """Whether the index holds the very records (the same objects) these reads found."""
    for kind, record_id, found in reads:
        if record_id is not None:
            if index.get(kind, record_id) is not found:
                return False
        else:
            now = index.all(kind)
            if len(now) != len(found) or any(a is not b for a, b in zip(now, found)):
                return False
    return True


@contextlib.contextmanager
def _answers(mode: str) -> Iterator[None]:
    """Derive answers as usual ("derive"), keeping each with what it read in _KEPT_ANSWERS ("keep"), or taking a kept
    one where `_answer` is given the same arguments and the index the same records it read ("reuse")."""
    if mode == "derive":
        yield
        return

    compared: dict[tuple[int, int], tuple[Any, Any, bool]] = {}  # the arguments every answer of a derivation shares

    def equal(a: Any, b: Any) -> bool:
        """Equal by value; a fit's host limits are left to each answer's reads of them."""
        if a is b:
            return True
        if (id(a), id(b)) not in compared:  # both kept alive with the result, so the ids stay theirs
            if isinstance(a, answers_module._TrapIndex):
                same = vars(a) == vars(b)
            elif isinstance(a, answers_module._PartFit):
                same = dataclasses.replace(a, limits={}) == dataclasses.replace(b, limits={})
            else:
                same = a == b
            compared[(id(a), id(b))] = (a, b, same)
        return compared[(id(a), id(b))][2]

    def answer(index: Any, cell: Any, claims: Any, *shared: Any) -> Any:
        key = (cell.scheme, cell.target)
        if mode == "reuse" and key in _KEPT_ANSWERS:
            (kept_cell, kept_claims, *kept_shared), (reads, limits_read), kept = _KEPT_ANSWERS[key]
            fit = next((a for a in shared if isinstance(a, answers_module._PartFit)), None)
            if cell == kept_cell and claims == kept_claims and len(shared) == len(kept_shared) \
                    and all(equal(a, b) for a, b in zip(shared, kept_shared)) and _same_reads(index, reads) \
                    and (fit is None or _same_limits(fit.limits, limits_read)):
                _REUSED_ANSWERS[0] += 1
                return kept
        if mode != "keep":
            return _derive_answer(index, cell, claims, *shared)
        reading, limits = _ReadIndex(index), _ReadLimits({})
        made = _derive_answer(reading, cell, claims, *(dataclasses.replace(a, limits=(limits := _ReadLimits(a.limits)))
                                                       if isinstance(a, answers_module._PartFit) else a for a in shared))
        if not reading.whole and not limits.whole:
            _KEPT_ANSWERS[key] = ((cell, claims, *shared), (tuple(reading.reads), tuple(limits.reads)), made)
        return made

    answers_module._answer = answer
    try:
        yield
    finally:
        answers_module._answer = _derive_answer


# The support cells of the unmutated records, with the records their derivation read: Views.cells reads the index
# through `get` and `all` alone (kernels, schemes, hardware targets, engines, observations), and most mutations of the
# datum sweep change none of those records. A mutated atlas whose index holds every record that derivation read (the
# very objects: relink shares every record it does not replace) has the unmutated cells, the same dict, instead of a
# derivation of ~29,000 cells again; a function of those records alone, so the cells are the ones a derivation without
# this gives (test_kept_cells_are_what_deriving_them_gives checks that on the sweep's mutations and on a cell flip).
_REUSED_CELLS = [0]  # atlases given the kept cells (for the test of it)
_derive_cells = Views.cells


@pytest.fixture(scope="module")
def kept_cells(atlas: Atlas) -> tuple[tuple[tuple[str, str | None, Any], ...], Any]:
    """The records the derivation of the unmutated cells read (see _cells), with those cells, once per module."""
    reading = _ReadIndex(atlas.index)
    assert _derive_cells.func(Views(reading)) == atlas.views.cells and not reading.whole
    return tuple(reading.reads), atlas.views.cells


@contextlib.contextmanager
def _cells(kept_cells: tuple[tuple[tuple[str, str | None, Any], ...], Any]) -> Iterator[None]:
    """Views.cells taken from the kept cells for any atlas whose index holds the records their derivation read."""
    reads, kept = kept_cells

    def cells(views: Views) -> Any:
        if _same_reads(views.index, reads):
            _REUSED_CELLS[0] += 1
            return kept
        return _derive_cells.func(views)

    reusing = functools.cached_property(cells)
    reusing.__set_name__(Views, "cells")
    Views.cells = reusing
    try:
        yield
    finally:
        Views.cells = _derive_cells


def render(atlas: Atlas, template: str, reads: list[Read] | None = None, against: str | None = None,
           matrices: str = "render") -> tuple[str, list]:
    """The page and its problems; given `against` (the text it will be compared with), a page that differs from it
    stops rendering at the first difference, so its text is only good for that comparison (and its problems are
    those found so far: a page that differs is no survivor whatever it reports). `matrices`: see _matrices."""
    problems: list = []
    _StopsAtTheFirstDifference.compared_with = against
    try:
        with _matrices(matrices):
            text = render_page(ENVIRONMENT, atlas, template, template[: -len(".j2")], names_of(atlas), {}, problems, reads)
    finally:
        _StopsAtTheFirstDifference.compared_with = None
    return text, problems


@pytest.fixture(scope="module")
def unmutated(atlas: Atlas) -> Callable[[str], tuple[str, list, list[Read]]]:
    """A chapter rendered from the real records, with its problems and the distinct reads it made, once per module:
    every test compares its mutated renders with the same text and reads it, never changes it."""
    found: dict[str, tuple[str, list, list[Read]]] = {}

    def of(template: str) -> tuple[str, list, list[Read]]:
        if template not in found:
            reads: list[Read] = []
            text, problems = render(atlas, template, reads, matrices="keep")
            found[template] = (text, problems, sorted(set(reads), key=lambda r: (r.function, r.kind, r.id, r.detail)))
        return found[template]
    return of


@pytest.fixture(scope="module")
def kept_answers(atlas: Atlas) -> dict[tuple[str, str], Any]:
    """Every cell's answer as the unmutated records derive it, with what it read (see _KEPT_ANSWERS), once per module."""
    if not _KEPT_ANSWERS:
        with _answers("keep"):
            assert derive_views(atlas.index).answers == atlas.views.answers
    return _KEPT_ANSWERS


def with_changes(atlas: Atlas, changes: dict[str, dict[str, Any]]) -> Atlas:
    """A new atlas whose records at the given kind/id refs carry new data; the rest is shared."""
    replaced = [dataclasses.replace(atlas.index.by_ref(ref), data=data) for ref, data in changes.items()]
    index, _ = relink(atlas.index, replaced, atlas.schemas)
    return Atlas(atlas.root, atlas.schemas, index, derive_views(index))


def mutated(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value * 2 + 1
    if isinstance(value, str):
        return value + " (mutated)"
    if isinstance(value, list):
        return value[:-1] if value else ["mutated"]
    return {"mutated": True}


REFERENCE_KEYS = {"source", "benchmark", "format", "accelerator", "kernel", "engine", "resolution", "matrix"}


def blanked(value: Any) -> Any:
    """Every string inside the value replaced, so no quotation from it survives; the shape is kept."""
    if isinstance(value, str):
        return "mutated"
    if isinstance(value, list):
        return [blanked(item) for item in value]
    if isinstance(value, dict):
        return {key: item if key in REFERENCE_KEYS else blanked(item) for key, item in value.items()}
    return value


def set_path(data: dict[str, Any], path: str, change) -> None:
    parts = [name or int(index) for name, index in _PATH.findall(path)]
    target: Any = data
    for part in parts[:-1]:
        target = target[part]
    target[parts[-1]] = change(target[parts[-1]])


def mutations(atlas: Atlas, read: Read) -> dict[str, dict[str, Any]] | None:
    """The record changes that must alter what this read returned; None when no mutation applies."""
    index = atlas.index
    if read.function in ("field", "quote"):
        data = copy.deepcopy(index.get(read.kind, read.id).data)
        set_path(data, read.detail, mutated if read.function == "field" else blanked)
        return {f"{read.kind}/{read.id}": data}
    if read.function == "ref" and read.detail:  # the chapter chose the link text; only the target is data
        return None
    if read.function in ("ref", "name"):
        data = copy.deepcopy(index.get(read.kind, read.id).data)
        data["name"] = str(data.get("name", read.id)) + " (mutated)"
        return {f"{read.kind}/{read.id}": data}
    if read.function == "tally":  # give the part a dense peak in a hardware precision it lacks: its native list grows
        data = copy.deepcopy(index.get("accelerator", read.id).data)
        have = {p["precision"] for p in data.get("peak_compute", []) if p["sparsity"] == "dense"}
        native = set(atlas.views.tallies[read.id].native)  # a matrix instruction can make a format native with no peak
        fmt = next(f for f in index.all("format") if f.data.get("format_class") == "hardware"
                   and f.data["peak_precision"] not in have and f.id not in native)
        source = data["sources"][0]["source"]
        data["peak_compute"] = data.get("peak_compute", []) + [
            {"precision": fmt.data["peak_precision"], "sparsity": "dense", "tflops": 1.0, "source": source}]
        return {f"accelerator/{read.id}": data}
    if read.function == "cell":
        cell = atlas.views.cells[(read.id, read.detail)]
        if cell.kernel:  # make the accepting kernel decline
            kernel = index.get("kernel", cell.kernel)
            data = copy.deepcopy(kernel.data)
            data["requirements"] = [{"check": "platform", "values": ["other"], "reason": "mutated"}]
            return {kernel.ref: data}
        if cell.attempts:  # make the first declining kernel accept
            kernel = index.get("kernel", cell.attempts[0].kernel)
            data = copy.deepcopy(kernel.data)
            data["requirements"] = []
            return {kernel.ref: data}
        return None
    return None


NAMED = ("ref", "name")  # reads that show a record's name: renamed all at once, each with its own marker


@pytest.mark.parametrize("template", CHAPTERS)
def test_every_datum_a_chapter_reads_changes_the_chapter(atlas, unmutated, kept_cells, template):
    original, problems, reads = unmutated(template)
    assert problems == []
    survivors = []
    with _cells(kept_cells):
        for read in reads:
            if read.function in NAMED:
                continue  # covered, in one render, by test_every_record_a_chapter_names_shows_its_current_name
            changes = mutations(atlas, read)
            if changes is None:
                continue
            text, problems = render(with_changes(atlas, changes), template, against=original, matrices="reuse")
            if text == original and not problems:
                survivors.append(read)
    assert survivors == [], f"{len(survivors)} of {len(reads)} reads can change without {template} noticing"


def test_the_sweep_covers_the_chapters(unmutated):
    functions = {r.function for t in CHAPTERS for r in unmutated(t)[2]}
    assert {"ref", "field", "tally", "quote"} <= functions


_LINK = re.compile(r"\[([^\]]*(?:\\\][^\]]*)*)\]\(\.\./([a-z-]+)/([a-z0-9-]+)\.md\)")


def linked_records(atlas: Atlas, text: str) -> list[str]:
    """Records the page links to by their name (links with a chosen text, like 'source', are the author's)."""
    refs = set()
    for shown, folder, record_id in _LINK.findall(text):
        record = atlas.index.get(KIND_OF_FOLDER.get(folder, ""), record_id)
        if record is not None and shown == escape_text(record.name):
            refs.add(record.ref)
    return sorted(refs)


@pytest.mark.parametrize("template", CHAPTERS)
def test_every_record_a_chapter_names_shows_its_current_name(atlas, unmutated, template):
    """Every record the chapter names (through ref/name, or in a table built from views) follows a rename.

    All of them are renamed at once, each to a name carrying its own marker, so one render checks them all.
    """
    original, _, reads = unmutated(template)
    named = {f"{r.kind}/{r.id}" for r in reads
             if r.function == "name" or (r.function == "ref" and not r.detail)}
    refs = sorted(named | set(linked_records(atlas, original)))
    markers = {ref: f"zqmut{n}zq" for n, ref in enumerate(refs)}
    changes = {}
    for ref, marker in markers.items():
        data = copy.deepcopy(atlas.index.by_ref(ref).data)
        data["name"] = f"{data.get('name', ref)} {marker}"
        changes[ref] = data
    text, _ = render(with_changes(atlas, changes), template)
    assert [ref for ref, marker in markers.items() if marker not in text] == []


CELL_PAGES = ["chapters/support-tables.md.j2", "chapters/23-quantization-selection.md.j2", "chapters/03-engine-selection.md.j2"]


def cell_flips(atlas: Atlas) -> list[tuple[dict[str, dict[str, Any]], list[tuple[str, str]]]]:
    """The record changes that flip a cell, each with every cell it flips (cells whose flip is the same record change
    share the kernel that is made to decline or accept), in a fixed order."""
    flips: dict[str, tuple[dict[str, dict[str, Any]], list[tuple[str, str]]]] = {}
    for scheme, target in sorted(atlas.views.cells):
        changes = mutations(atlas, Read("cell", "scheme", scheme, target))
        if changes is not None:
            flips.setdefault(repr(sorted(changes.items())), (changes, []))[1].append((scheme, target))
    return [flips[key] for key in sorted(flips)]


def covering_flips(atlas: Atlas) -> tuple[list[tuple[Atlas, list[tuple[str, str]]]], int]:
    """Every flip's mutated atlas, each of its cells checked to flip there, then the fewest flips (greedily, first in
    the fixed order on a tie) that between them flip a cell of every engine, of every hardware target, from and to every
    pair of verdicts some flip gives, and that change every set of a cell's fields some flip changes (the fields that
    differ in any of its cells: a flip that swaps the kernel and nothing a page shows beside it, one that also changes
    the conditions, ...). A page misses a flip only if it leaves unsaid every field the flip changes, or the engine's
    matrix, the target's column or the verdict's badge; a chosen flip changes those same fields, or that engine,
    target or verdict. With the number of flips there were."""
    flips = cell_flips(atlas)
    assert sum(len(cells) for _, cells in flips) > len(flips)  # shared mutations exist, so sharing saves work
    kinds: list[set[tuple[Any, ...]]] = []
    atlases: list[Atlas] = []  # kept for the chosen flips' renders: their cells are derived here once, not again there
    for changes, cells in flips:
        changed = with_changes(atlas, changes)
        atlases.append(changed)
        found: set[tuple[Any, ...]] = set()
        fields: set[str] = set()
        for cell in cells:
            before, after = atlas.views.cells[cell], changed.views.cells[cell]
            assert after.verdict != before.verdict or after.kernel != before.kernel, cell
            found |= {("engine", before.engine), ("target", before.target), ("verdicts", before.verdict, after.verdict)}
            fields |= {f.name for f in dataclasses.fields(before) if getattr(before, f.name) != getattr(after, f.name)}
        kinds.append(found | {("fields", frozenset(fields))})
    left, chosen = set().union(*kinds), []
    while left:
        best = max(range(len(flips)), key=lambda n: (len(kinds[n] & left), -n))
        chosen.append(best)
        left -= kinds[best]
    return [(atlases[n], flips[n][1]) for n in sorted(chosen)], len(flips)


def test_every_derived_cell_flip_changes_the_pages_that_show_cells(atlas, unmutated, kept_answers):
    """A support cell that flips (its kernel declines, or a declining kernel accepts) changes every cell page.

    Every flip is derived (each of its cells must flip); the pages are rendered for the flips that cover every engine,
    every target, every verdict change and every set of cell fields a flip changes (covering_flips: 50 of 109 flips on
    2026-12-05, where rendering all 109 took 14 s of the suite's CPU). Cells whose flip is the same record change are checked against one
    mutated atlas: its pages render once for all of them.
    """
    originals = {page: unmutated(page)[0] for page in CELL_PAGES}
    chosen, flips = covering_flips(atlas)
    assert len(chosen) < flips
    survivors = []
    for changed, cells in chosen:
        with _answers("reuse"):
            unchanged = [page for page in CELL_PAGES
                         if render(changed, page, against=originals[page], matrices="reuse")[0] == originals[page]]
        survivors += [(scheme, target, page) for scheme, target in cells for page in unchanged]
    assert survivors == []


def _first_schemes_renamed(atlas: Atlas) -> dict[str, Any]:
    """A change renaming every engine's first scheme (each page that names a scheme then differs)."""
    renamed = {}
    for scheme in {s.data["engine"]: s for s in reversed(atlas.index.all("scheme"))}.values():
        data = copy.deepcopy(scheme.data)
        data["name"] = f"{data['name']} (mutated)"
        renamed[scheme.ref] = data
    return renamed


def test_a_kept_matrix_is_what_rendering_it_gives(atlas, unmutated):
    """The sweeps above take an engine's matrix HTML from the unmutated render when its Matrix is unchanged: on the
    first and the last cell flip, and on a rename of every engine's first scheme, the pages rendered that way are the
    pages rendered afresh, and that way did take most matrices from the unmutated render."""
    for page in CELL_PAGES:
        unmutated(page)
    flips = cell_flips(atlas)
    renamed = _first_schemes_renamed(atlas)
    kept = sum(len(k) for k in _KEPT_MATRICES.values())
    assert kept > len(CELL_PAGES)
    for changes in (flips[0][0], flips[-1][0], renamed):
        changed = with_changes(atlas, changes)
        for page in CELL_PAGES:
            _REUSED[0] = 0
            assert render(changed, page, matrices="reuse") == render(changed, page), page
            if "support_matrices" in (ROOT / "docs" / page).read_text(encoding="utf-8") and changes is not renamed:
                assert _REUSED[0] > 0, page


def test_a_kept_answer_is_what_deriving_it_gives(atlas, kept_answers):
    """The cell flip sweep takes a cell's answer from the unmutated derivation when `_answer` is given the same arguments
    and reads the same records: on the first, a middle and the last cell flip, and on a rename of every engine's first
    scheme, the answers derived that way are the answers derived afresh, and that way did take most of them from the
    unmutated derivation and derived again those of the flipped cells."""
    assert len(kept_answers) > len(atlas.views.answers) // 2  # most answers read no more than records
    flips = cell_flips(atlas)
    renamed = _first_schemes_renamed(atlas)
    for changes, cells in (*(flips[n] for n in (0, len(flips) // 2, -1)), (renamed, [])):
        _REUSED_ANSWERS[0] = 0
        with _answers("reuse"):
            reused = with_changes(atlas, changes).views.answers
        assert reused == with_changes(atlas, changes).views.answers
        assert len(reused) // 2 < _REUSED_ANSWERS[0] <= len(reused) - len(cells)
        assert all(reused[cell] is not kept_answers[cell][2] for cell in cells if cell in kept_answers)


def test_kept_cells_are_what_deriving_them_gives(atlas, unmutated, kept_cells):
    """The datum sweep takes the cells of a mutated atlas from the unmutated records when the index holds every record
    their derivation read: most of chapter 04's mutations take them; on the first, a middle and the last of those, on
    the first and the last that do not, and on a cell flip (a kernel made to decline, derived again: its cells differ),
    the cells are the cells derived afresh."""
    changes = [mutations(atlas, read) for read in unmutated("chapters/04-quantization-regimes.md.j2")[2]
               if read.function not in NAMED]
    changes = [change for change in changes if change is not None]
    flip = cell_flips(atlas)[0][0]
    taken, derived = [], []
    for change in [*changes, flip]:
        before = _REUSED_CELLS[0]
        with _cells(kept_cells):
            cells = with_changes(atlas, change).views.cells
        (taken if _REUSED_CELLS[0] > before else derived).append((change, cells))
        assert (cells is atlas.views.cells) == (_REUSED_CELLS[0] > before), sorted(change)
    assert len(taken) > len(changes) // 2 and derived[-1][0] is flip, (len(taken), len(changes))
    for change, cells in (taken[0], taken[len(taken) // 2], taken[-1], derived[0], *derived[-2:]):
        assert cells == with_changes(atlas, change).views.cells, sorted(change)
    assert derived[-1][1] != atlas.views.cells
