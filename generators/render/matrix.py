"""The support matrix as HTML: coloured verdict cells, grouped sticky headers, a legend, a note per cell.

A raw HTML block inside the Markdown page, so links are written as site URLs (directory URLs,
relative to the page), not as .md paths. Every record text is HTML-escaped with markupsafe.
At phone width a stylesheet swaps the grid for one short list per hardware target.
"""
from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape

from ..derive.answers import Answer
from ..derive.cells import Cell, Otherwise
from ..derive.default_lead import default_lead, lead_said, lead_texts
from ..derive.inferred_steps import InferredStep, words_key
from ..derive.matrix import Column, Matrix, MatrixCell, group_columns, matrices
from ..derive.published_grid import GridCell, PublishedGrid
from ..derive.wording import pieces, revision_said, words
from ..kinds import FOLDER_OF_KIND
from ..model.verdicts import FALLBACK_IF_LABEL, FALLBACK_IF_MEANING, INFERRED_NOTE, VERDICT_MEANINGS, KnownBy, Verdict
from .contests import contest_mark, open_contests
from .labels import inline_name
from .markdown import fill, joined

SHORT_LABEL = {Verdict.FAILS_AT_RUNTIME: "Fails"}
# verdict symbols of the compact (narrow) columns; the legend lists them and each cell's title spells the verdict out
COMPACT_LABEL = {Verdict.RUNS: "✓", Verdict.RUNS_IF: "✓?", Verdict.FALLBACK: "≈", Verdict.FAILS_AT_RUNTIME: "✗!",
                 Verdict.REFUSED: "✗"}
COMPACT_FALLBACK_IF = "≈?"  # a fallback_if, as runs-if is "✓?"
MARK_DISAGREES, MARK_TRAPS, MARK_PARTS = "‡", "!", "†"


def page_url(page: str) -> str:
    """The directory URL MkDocs gives a docs-relative Markdown page ('a/b.md' -> 'a/b/', 'a/index.md' -> 'a/')."""
    stem = page[: -len(".md")]
    if stem == "index" or stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


@functools.lru_cache(maxsize=1 << 14)
def href(target_page: str, current_page: str) -> str:
    rel = posixpath.relpath(page_url(target_page) or ".", page_url(current_page) or ".")
    return "./" if rel == "." else rel + "/"


class _Html:
    """Links and labels for one page."""

    def __init__(self, names: dict[str, str], page: str, revisions: dict[str, str] | None = None,
                 contested: dict[str, str] | None = None, releases: dict[str, str] | None = None):
        self.names, self.page = names, page
        self.revisions = revisions or {}  # source id: its revision, where a note says at which commit it was read
        self.contested = contested or {}  # trap id: its first open contest's anchor, where a note marks it contested
        self.releases = releases or {}  # engine id: its release read, where a note names the release a step was not read at

    def ref(self, ref: str, text: str | None = None, cls: str = "", nested: bool = False) -> Markup:
        """A link showing the record's name (or `text`); `nested` inside a parenthesis, its own aside made a clause."""
        kind, _, record_id = ref.partition("/")
        url = href(f"{FOLDER_OF_KIND[kind]}/{record_id}.md", self.page)
        name = self.names.get(ref, record_id)
        return _anchor(url, text if text is not None else inline_name(name) if nested else name, cls)


@functools.lru_cache(maxsize=1 << 14, typed=True)
def _anchor(url: str, text: str, cls: str) -> Markup:
    """A link written into a grid, kept: the same links recur on every row of a grid and on every grid of a page."""
    attrs = fill(' class="{}"', cls) if cls else Markup("")
    return fill('<a href="{}"{}>{}</a>', url, attrs, text)


@functools.lru_cache(maxsize=64)
def verdict_badge(verdict: Verdict, short: bool = False) -> Markup:
    label = SHORT_LABEL.get(verdict, verdict.label) if short else verdict.label
    return fill('<span class="verdict verdict-{}" title="{}">{}</span>', verdict.value, VERDICT_MEANINGS[verdict], label)


def cell_badge(cell: Cell, short: bool = False) -> Markup:
    """A derived cell's verdict badge: its verdict's, or "Fallback if" where the fallback needs what a default install
    lacks (Cell.fallback_if), with that meaning on hover."""
    return badge_of(cell.verdict, cell.fallback_if, short)


def badge_of(verdict: Verdict, fallback_if: bool, short: bool = False) -> Markup:
    """A verdict's badge, or the "Fallback if" badge for a fallback that needs what a default install lacks."""
    return _fallback_if_badge() if fallback_if and verdict is Verdict.FALLBACK else verdict_badge(verdict, short)


@functools.lru_cache(maxsize=1)
def _fallback_if_badge() -> Markup:
    return fill('<span class="verdict verdict-fallback" title="{}">{}</span>', FALLBACK_IF_MEANING, FALLBACK_IF_LABEL)


def kernel_lead(cell: Cell, ref: Callable[[str], Markup], text: Callable[[str], Markup]) -> Markup:
    """The cell's kernel as a reader reads it first (`ref` links a kernel id, `text` escapes words): its own, or, where a
    default install selects another, that one first and its own as the opt-in's (derive/default_lead.py)."""
    lead = default_lead(cell)
    if lead is None:
        return ref(cell.kernel or "")
    values = {"default": ref(lead.default), "opted": ref(lead.opted),
              **{name: _spaced(text, said) for name, said in lead_texts(lead).items()}}
    return joined("", [part for words_of, name, _ in pieces(words("default_lead"))
                       for part in (_spaced(text, words_of), values[name] if name else Markup(""))])


def _spaced(text: Callable[[str], Markup], said: str) -> Markup:
    """Words escaped by `text`, which may trim them, with the space they begin or end with kept."""
    if not said.strip():
        return Markup(escape(said))
    return Markup(" " if said[:1] == " " else "") + text(said.strip()) + Markup(" " if said[-1:] == " " else "")


def otherwise_markup(cell: Cell, ref: Callable[[str], Markup], text: Callable[[str], Markup]) -> Markup:
    """`If not, in the engine's order: unless A: <badge> via K; unless B: ...`, or nothing for a cell with no step."""
    if not cell.otherwise:
        return Markup("")
    whole = len(cell.otherwise) == 1 and cell.otherwise[0].unmet == cell.conditions  # no need to repeat them
    steps = [_step(step, ref, text, whole) for step in cell.otherwise]
    return text("If not, in the engine's order:") + Markup(" ") + joined("; ", steps)


def folded(summary: str, parts: list[Markup]) -> Markup:
    """Parts folded under a short summary that opens them on a click, on one line (it may sit in a Markdown table
    cell), or nothing when there are none: what a row of a long table holds beyond its answer."""
    if not parts:
        return Markup("")
    return fill('<details class="atlas-why-more"><summary>{}</summary>{}</details>', summary, joined("<br>", parts))


def _step(step: Otherwise, ref: Callable[[str], Markup], text: Callable[[str], Markup], whole: bool) -> Markup:
    unless = f"unless {' and '.join(step.unmet)}" + (" (off the defaults)" if step.off_default else "")
    line = (Markup("") if whole and not step.off_default else text(unless + ":") + Markup(" ")) + verdict_badge(step.verdict)
    if step.selected and not step.walks:  # a walk on another device: its own kernel runs there, not this one
        line += Markup(" via ") + ref(f"kernel/{step.selected}")
    if step.elsewhere:  # a placement step: the outcome is that device's, and this target runs nothing
        line += text(f" on {step.elsewhere} instead, not on this hardware")
    if step.of_install and step.conditions:  # the install's code fails only where these hold (the placement on it)
        line += text(f", given {' and '.join(step.conditions)}")
    if step.computes_as:
        line += text(f", computing as {step.computes_as}")
    if step.verdict is Verdict.REFUSED:
        line += text(", no candidate left (every reason on the scheme's page)")
    return line


NOTES_PAGE = "chapters/support-tables.md"


def support_matrices_html(atlas: Any, page: str, names: dict[str, str], notes: bool = True, heading: int = 2) -> Markup:
    """Every engine's matrix under a heading of that level naming the engine (a phone hides the grid and its caption,
    and reads the per-target lists under it), after a line of links to those headings; with its legend and notes, or
    without notes, its cells linking to the notes on the support tables page."""
    answers = atlas.views.answers
    html = _Html(names, page, {s.id: str(s.data.get("revision") or "") for s in atlas.index.all("source")},
                 {g.id: said[0]["anchor"] for g in atlas.index.all("gotcha") if (said := open_contests(g.data))},
                 {e.id: str(e.data.get("version_read") or "") for e in atlas.index.all("engine")})
    notes_at = "" if notes else href(NOTES_PAGE, page)
    found = matrices(atlas.index, answers)
    jump = fill('<p class="atlas-matrix__jump">Engines: {}</p>', joined(" · ", [
        fill('<a href="#derived-{}">{}</a>', m.engine, _title(m)) for m in found]))
    return joined("\n", [jump, *(_matrix(m, html, notes_at, heading) for m in found)])


def _title(matrix: Matrix) -> str:
    return f"{matrix.engine_name} {matrix.release}".strip()


def legend(compact: bool = False) -> Markup:
    items = [fill("<li>{} {}</li>", verdict_badge(v), VERDICT_MEANINGS[v]) for v in Verdict]
    items.insert(list(Verdict).index(Verdict.FALLBACK) + 1, fill("<li>{} {}</li>", _fallback_if_badge(), FALLBACK_IF_MEANING))
    if compact:
        items.append(fill("<li>narrow columns (one per AMD gfx id) write the verdict as a symbol: {}</li>",
            joined(", ", [fill('<span class="verdict verdict-{}">{}</span> {}', v.value, COMPACT_LABEL[v], v.label.lower())
                              for v in Verdict]
                   + [fill('<span class="verdict verdict-fallback">{}</span> {}', COMPACT_FALLBACK_IF,
                           FALLBACK_IF_LABEL.lower())])))
    items.append(fill('<li><span class="atlas-mark">{}</span> a published table says otherwise (see the note)</li>', MARK_DISAGREES))
    items.append(fill('<li><span class="atlas-mark atlas-mark--trap">{}</span> traps apply (see the note)</li>', MARK_TRAPS))
    items.append(fill('<li><span class="atlas-mark">{}</span> on some part of the target the answer first needs more: a '
                      'build for its host CPU or its own compute capability (see the note)</li>', MARK_PARTS))
    return fill('<ul class="atlas-legend">{}</ul>', joined("", items))


def _matrix(matrix: Matrix, html: _Html, notes_at: str = "", heading: int = 2) -> Markup:
    title = _title(matrix)
    caption = Markup("Derived support, scheme × hardware target")  # the engine is the heading's, just above
    body = joined("", [
        fill('<tr><th scope="row" title="{}">{}</th>{}</tr>',
            row.title, html.ref(f"scheme/{row.scheme}", row.label),
            joined("", [_cell(c, column.compact, notes_at) for c, column in zip(row.cells, matrix.columns)]))
        for row in matrix.rows])
    grid = fill('<div class="atlas-grid__scroll" role="region" aria-label="{}" tabindex="0">{}'
                '<caption>{}</caption>{}<tbody>{}</tbody></table></div>',
        title, grid_table(matrix.columns), caption, grid_head(matrix.columns, html.page), body)
    notes = fill('<h{} id="notes-{}" data-search-exclude>Notes on every cell ({})</h{}>\n{}',
        heading + 1, matrix.engine, title, heading + 1, _notes(matrix, html)) if not notes_at else Markup("")
    head = fill('<h{} id="derived-{}" class="atlas-matrix__engine">{}</h{}>', heading, matrix.engine,
                html.ref(f"engine/{matrix.engine}", title), heading)
    return fill('<div class="atlas-matrix">\n{}{}\n{}\n{}{}\n{}\n{}\n</div>', head, _later(matrix, html),
        legend(any(c.compact for c in matrix.columns)), grid, _unread(matrix, html), _per_target(matrix, html, notes_at), notes)


def _later(matrix: Matrix, html: _Html) -> Markup:
    """One line per newer release of the engine that a finding compared with the one the grid describes."""
    return joined("", [
        fill('\n<p class="atlas-matrix__later">This grid describes {}. A later release was compared with it and is not '
             'modelled: <strong>{}</strong> (published {}). {} What differs: {}</p>', _title(matrix), later.release, later.published,
             later.summary, html.ref(f"finding/{later.finding}"))
        for later in matrix.later])


def _unread(matrix: Matrix, html: _Html) -> Markup:
    """One line per platform the engine's schemes have not read: its targets, left out of the grid, and why."""
    if not matrix.unread:
        return Markup("")
    items = joined("", [
        fill("<li>{} ({}): {}</li>", joined(", ", [html.ref(f"hardware-target/{t}") for t in u.targets]),
             u.platform, u.reason)
        for u in matrix.unread])
    return fill('\n<p class="atlas-unread">Not derived (the dispatch is not read, so no verdict is shown):</p>'
                '<ul class="atlas-unread">{}</ul>', items)


def grid_table(columns: tuple[Column, ...] | list[Column]) -> Markup:
    """A scheme × target grid's opening tag, its columns counted for atlas.css: the table stays at least as wide as its
    widest verdict ('Fallback', 'Refused') needs each column to be, and scrolls sideways inside its box instead (at 800 px
    the vLLM grid's 30 px columns drew 'Refused' over the next cell)."""
    narrow = sum(1 for c in columns if c.compact)
    return fill('<table class="atlas-grid" style="--atlas-wide: {}; --atlas-narrow: {}">', len(columns) - narrow, narrow)


def grid_head(columns: tuple[Column, ...] | list[Column], page: str, corner: str = "Scheme") -> Markup:
    """The column group and the two header rows of a scheme × target grid: vendors over targets, AMD gfx columns narrow."""
    groups = joined("", [fill('<th scope="colgroup" colspan="{}" class="atlas-grid__group">{}</th>', span, vendor)
                             for vendor, span in group_columns(columns)])
    heads = joined("", [
        fill('<th scope="col" title="{}"{}><a href="{}">{}{}<small>{}</small></a></th>',
            c.title, _compact_class(c.compact), href(f"hardware-targets/{c.target}.md", page), _breakable(c.short),
            Markup(" ") if c.compact else Markup("<br>"), c.detail if c.compact else _breakable(c.detail))
        for c in columns])
    cols = fill('<colgroup><col class="atlas-grid__col-scheme">{}</colgroup>', joined("", [
        fill('<col{}>', _compact_class(c.compact)) for c in columns]))
    return fill('{}<thead><tr><th rowspan="2" scope="col" class="atlas-grid__corner">{}</th>{}</tr><tr>{}</tr></thead>',
        cols, corner, groups, heads)


def _breakable(detail: str) -> Markup:
    """A header label that may wrap after each slash (MI300X/MI325X, SM 12.0/12.1), so a narrow column stays narrow."""
    return joined("/<wbr>", detail.split("/"))


def _compact_class(compact: bool) -> Markup:
    return Markup(' class="atlas-grid__compact"') if compact else Markup("")


def _cell(cell: MatrixCell | None, compact: bool = False, notes_at: str = "") -> Markup:
    if cell is None:  # this scheme has not read the column's platform: no verdict to show
        return fill('<td class="atlas-grid__cell atlas-grid__unread{}" title="not derived: dispatch not read">–</td>',
                    " atlas-grid__compact" if compact else "")
    c = cell.answer.cell
    lead = default_lead(c)  # the kernel a default install selects first, then the cell's as the opt-in's
    hover = f"{c.label}" + (f" via {lead_said(lead) if lead else c.kernel}" if c.kernel and c.verdict.loads else "")
    if c.conditions:
        hover += (" — the opt-in kernel" if lead else "") + (" when " if c.verdict is Verdict.RUNS else " — if "
                                                             if not lead else " only if ") + "; ".join(c.conditions)
    if c.otherwise:
        step = c.otherwise[0]
        hover += f" — if not: {step.verdict.label}" + (f" via {step.selected}" if step.selected and not step.walks else "")
    if c.fallback_if:
        label = COMPACT_FALLBACK_IF if compact else FALLBACK_IF_LABEL
    else:
        label = COMPACT_LABEL[c.verdict] if compact else SHORT_LABEL.get(c.verdict, c.verdict.label)
    # "Fallback if" is wider than a column of the widest grid (vLLM's, at 1440 px): it may wrap at its space
    wraps = ' class="atlas-grid__wraps"' if c.fallback_if and not compact else ""
    return fill('<td class="atlas-grid__cell verdict-{}{}"><a href="{}" title="{}"{}>{}</a>{}</td>',
        c.verdict.value, " atlas-grid__compact" if compact else "", notes_at + "#" + cell.note, hover, Markup(wraps),
        label, _marks(cell))


def _marks(cell: MatrixCell) -> Markup:
    """The marks after a cell's verdict, in the grid and in the phone's per-target lists alike: a published table says
    otherwise, traps apply, some part of the target needs more first (the legend's, each explained in the note)."""
    marks = Markup("")
    if cell.disagrees:
        marks += fill('<span class="atlas-mark" title="a published table says otherwise">{}</span>', MARK_DISAGREES)
    if cell.traps or cell.part_traps:
        marks += fill('<span class="atlas-mark atlas-mark--trap" title="{}">{}</span>', _traps_said(cell), MARK_TRAPS)
    return marks + _part_mark(cell)


def _traps_said(cell: MatrixCell) -> str:
    """How many traps apply, those on some of the target's parts only counted apart (a blocker on the GB10 alone does
    not hit every SM 12.x part)."""
    said = [f"{cell.traps} trap(s) apply"] if cell.traps else []
    said += [f"{cell.part_traps} trap(s) apply on some of its parts only (see the note)"] if cell.part_traps else []
    return "; ".join(said)


def _part_mark(cell: MatrixCell) -> Markup:
    """The mark of a cell whose answer needs more on some part of its target, with the parts and their needs."""
    if not cell.answer.on_parts:
        return Markup("")
    return fill('<span class="atlas-mark" title="{}">{}</span>', "; ".join(
        f"on {part.part}: {FALLBACK_IF_LABEL if part.fallback_if else part.verdict.label}, first "
        f"{'; '.join(part.conditions)}" for part in cell.answer.on_parts),
        MARK_PARTS)


def _per_target(matrix: Matrix, html: _Html, notes_at: str = "") -> Markup:
    """A phone's lists, one per target, in place of the grid: each verdict links to its cell's note and carries the
    grid cell's marks (the legend above names them; without them a phone showed no trap and no published disagreement,
    and no way to the note)."""
    blocks = []
    for n, column in enumerate(matrix.columns):
        items = joined("", [fill('<li><a class="atlas-target__note" href="{}">{}</a>{} {}</li>', notes_at + "#" + cell.note,
                                     cell_badge(cell.answer.cell), _marks(cell),
                                     html.ref(f"scheme/{row.scheme}", row.label))
                                for row in matrix.rows if (cell := row.cells[n]) is not None])
        blocks.append(fill('<details class="atlas-target"><summary>{} {} <small>({})</small></summary><ul>{}</ul></details>',
            column.short, column.detail, column.vendor, items))
    return fill('<div class="atlas-matrix__per-target">{}</div>', joined("", blocks))


def _notes(matrix: Matrix, html: _Html) -> Markup:
    items = []
    for row in matrix.rows:
        for column, cell in zip(matrix.columns, row.cells):
            if cell is not None:
                items.append(_note(row.label, column.title, cell, html))
    # folded: six engines' notes (thousands of cells) ran to 90,000 px at 1440 and 240,000 on a phone between one grid
    # and the next; a cell's link opens its note (the browser on fragment navigation, stacked-tables.js elsewhere)
    return fill('<details class="atlas-notes__fold"><summary>Show the note on each of its {} cells</summary>'
                '<ol class="atlas-notes">{}</ol></details>', len(items), joined("", items))


def _note(row: str, column: str, cell: MatrixCell, html: _Html) -> Markup:
    answer, c = cell.answer, cell.answer.cell
    parts = [fill("<b>{}</b> on <b>{}</b>: {}", row, column, cell_badge(c))]
    if c.gate_fallback and c.verdict.loads:  # the gate handed the checkpoint on: say so before that scheme's cell
        parts.append(fill("; the scheme's capability gate fails here, so the engine loads the checkpoint as {}",
                          html.ref(f"scheme/{c.gate_fallback}")))
    elif c.loaded_as and c.verdict.loads:  # substituted, and no value of the setting keeps this scheme
        parts.append(fill("; on this platform the engine loads the checkpoint as {}", html.ref(f"scheme/{c.loaded_as}")))
    if c.kernel and c.verdict.loads:  # (where a default install selects another kernel, that one first)
        parts.append(fill(" via {}", kernel_lead(c, lambda k: html.ref(f"kernel/{k}", nested=True), escape)))
    if c.verdict.loads and default_lead(c) and c.substitution:
        parts.append(fill("; a default install loads the checkpoint as {}",  # (a name with parentheses)
                          html.ref(f"scheme/{c.substitution}")))
    elif c.verdict.loads and default_lead(c) and c.opt_in:
        parts.append(fill(" (a default install lacks it: {})", "; ".join(a.met_by for a in c.opt_in)))
    if c.computes_as:
        parts.append(fill("; computes as {}", c.computes_as))
    own = [a for a in c.assumes if a.condition in c.conditions]
    later = [a for a in c.assumes if a.condition not in c.conditions]
    open_conditions = [x for x in c.conditions if x not in {a.condition for a in own}]
    if open_conditions:
        whose = "the opt-in kernel " if default_lead(c) else ""  # (the lead names the default install's first)
        parts.append(fill("; {}only if {}" if c.verdict is Verdict.RUNS_IF else "; {}when {}", whose,
                          "; ".join(open_conditions)))
    if own:
        parts.append(fill("; when {}, which the defaults meet", "; ".join(a.said for a in own)))
    if later:
        parts.append(fill("; further down the engine's order, the defaults meet {}",
                          "; ".join(a.said for a in later)))
    if c.otherwise:
        parts.append(Markup(". ") + otherwise_markup(c, html.ref, escape))
    if not c.verdict.loads and c.reasons:
        more = len(c.reasons) - 1
        parts.append(fill(". {}{}", c.reasons[0], f" (and {more} more {'reason' if more == 1 else 'reasons'} on the scheme's page)" if more else ""))
    for claim in answer.published:
        if not claim.agrees:
            finding = fill(", explained by {}", html.ref(f"finding/{claim.finding}")) if claim.finding else Markup("")
            parts.append(fill(". {} says {} for “{}” × “{}”{}",
                html.ref(f"support-matrix/{claim.matrix}"), claim.symbol, claim.row, claim.column, finding))
    for part in answer.on_parts:
        parts.append(fill(". On {}: {}, first {}", html.ref(f"accelerator/{part.part}"), badge_of(part.verdict, part.fallback_if),
                          "; ".join(part.conditions)))
    if answer.traps:
        parts.append(fill(". Traps: {}", joined(", ", [html.ref(f"gotcha/{t}") + _on_parts(answer, t, html)
                                                         + _contested(t, html)
                                                         for t in answer.traps])))
    if c.evidence:
        parts.append(fill(". Selection observed by running the engine: {}",
                          joined(", ", [html.ref(f"observation/{o}") for o in c.evidence])))
    if c.known_by is KnownBy.INFERRED and c.inferred_met:  # a cell that runs: the steps it rests on, not the records
        parts.append(fill(". Inferred, not all read: {}", joined("; ", [_inferred_step(c, kernel, step, html)
                                                                       for kernel, step in c.inferred_met])))
    elif c.known_by is KnownBy.INFERRED:
        parts.append(fill(". {}", INFERRED_NOTE))
    parts.append(fill(". {}", html.ref(f"scheme/{c.scheme}", "Every reason")))
    return fill('<li id="{}">{}</li>', cell.note, _sentences(parts))


def _inferred_step(cell: Cell, kernel: str, step: InferredStep, html: _Html) -> Markup:
    """A step marked inferred that a kernel the cell runs on meets (or fails and stays), in WORDS' sentence as explain
    and the card say it."""
    read_in = joined(" and ", [_html_words("read_in", source=html.ref(f"source/{r.source}"),
                                           at=revision_said(html.revisions.get(r.source, ""),
                                                            html.names.get(f"source/{r.source}", r.source)),
                                           where=f", {r.where}" if r.where else "") for r in step.read_in])
    engine = step.engine or cell.engine  # the kernel's engine, named with its own release (not the grid's, if another)
    return _html_words(words_key(step), kernel=html.ref(f"kernel/{kernel}"), checks=step.checks, read_in=read_in,
                       engine=html.names.get(f"engine/{engine}", engine), read=html.releases.get(engine) or "the release read")


def _html_words(key: str, **values: str | Markup) -> Markup:
    """One of WORDS' sentences filled as HTML, as the grid's notes are (markdown.fill_words escapes for Markdown, which
    a raw HTML block would show as it is): text escaped, links as they are."""
    return joined("", [part for text, name, shown in pieces(words(key))
                       for part in (text, shown if shown is not None else values[name] if name else "")])


def _on_parts(answer: Answer, trap: str, html: _Html) -> Markup:
    """' (on <part> only)' after a trap limited to some of the target's parts (Answer.trap_parts), else nothing."""
    parts = answer.parts_of(trap)
    if not parts:
        return Markup("")
    names = [html.ref(f"accelerator/{p}", nested=True) for p in parts]
    return fill(" (on {} only)", joined(", ", names))  # (a name's own parenthesis as a comma clause inside this one)


def _contested(trap: str, html: _Html) -> Markup:
    """' contested', linking to the trap's first open contest on its page, after a trap whose claim a finding has not
    settled (as the answer card marks it), else nothing."""
    anchor = html.contested.get(trap)
    if not anchor:
        return Markup("")
    return contest_mark(href(f"{FOLDER_OF_KIND['gotcha']}/{trap}.md", html.page), anchor)


def _sentences(parts: list[Markup]) -> Markup:
    """The parts joined, without a second full stop where a part ending in one (an engine message) meets the next
    sentence."""
    kept: list[Markup] = []
    for part in parts:
        if kept and kept[-1].endswith(".") and part.startswith(". "):
            part = Markup(part[1:])
        kept.append(part)
    return joined("", kept)


PUBLISHED_CLASS = {"yes": "runs", "no": "refused", "partial": "fallback"}


def breakable(label: str) -> Markup:
    """The label escaped, with a line-break opportunity before '(' and after '/', so a narrow column wraps a
    verbatim header such as 'FP8(rowwise)' between its parts instead of inside a word."""
    return joined("<wbr>", [escape(part) for part in re.split(r"(?=\()|(?<=/)", label)])


def published_grid_html(atlas: Any, matrix_id: str, page: str, names: dict[str, str]) -> Markup:
    """A published table as its publisher prints it, coloured by its own legend, with the derived verdict beside
    every cell that disagrees (and the finding that explains it): the `published_grids` view, formatted."""
    record = atlas.index.get("support-matrix", matrix_id)
    grid = atlas.views.published_grids[matrix_id]
    html = _Html(names, page)
    heads = joined("", [fill('<th scope="col">{}</th>', breakable(c["label"])) for c in record.data["columns"]])
    rows = []
    for row, cells in zip(record.data["rows"], grid.rows):
        tds = joined("", [_published_cell(cell, html) if cell.compared else Markup("<td></td>") for cell in cells])
        rows.append(fill('<tr><th scope="row">{}</th>{}</tr>', breakable(row["label"]), tds))
    table = fill('<div class="atlas-grid__scroll atlas-grid__scroll--published" role="region" aria-label="{}" tabindex="0">'
                 '<table class="atlas-grid atlas-grid--published" style="--atlas-wide: {}"><caption>{} as published; where '
                 'the derivation differs, the derived verdict stands beside the cell</caption><thead><tr><th scope="col" '
                 'class="atlas-grid__corner">Row</th>{}</tr></thead><tbody>{}</tbody></table></div>',
        record.name, len(record.data["columns"]), html.ref(f"support-matrix/{matrix_id}"), heads, joined("", rows))
    return fill('<div class="atlas-published">{}{}</div>', table, _published_per_column(record.data, grid, html))


def _published_per_column(data: Any, grid: PublishedGrid, html: _Html) -> Markup:
    """The phone layout: one short list per published column, the derived verdict beside each cell that differs."""
    blocks = []
    for c, column in enumerate(data["columns"]):
        items = joined("", [
            fill("<li>{} {}</li>", _published_badge(cells[c], html), row["label"])
            for row, cells in zip(data["rows"], grid.rows) if cells[c].compared])
        blocks.append(fill('<details class="atlas-target"{}><summary>{}</summary><ul>{}</ul></details>',
            Markup(" open") if grid.differs[c] else Markup(""), column["label"], items))
    return fill('<div class="atlas-published__per-column">{}</div>', joined("", blocks))


def _published_badge(cell: GridCell, html: _Html) -> Markup:
    css = PUBLISHED_CLASS.get(cell.published, "unknown")
    badge = fill('<span class="verdict verdict-{}" title="published: {}">{}</span>', css, cell.published, cell.symbol)
    if cell.disagrees:
        badge += fill(' <span class="atlas-derived-inline">derived {}</span>',
            joined(" ", [verdict_badge(v, short=True) for v in cell.verdicts]))
        if cell.finding:
            badge += Markup(" ") + html.ref(f"finding/{cell.finding}", MARK_DISAGREES, "atlas-mark")
    return badge


def _published_cell(cell: GridCell, html: _Html) -> Markup:
    css = PUBLISHED_CLASS.get(cell.published, "unknown")
    title = f"published: {cell.published}"
    extra = Markup("")
    if not cell.comparable:
        title += "; the records cannot derive this cell"
    elif cell.disagrees:
        title += "; derived: " + ", ".join(v.label for v in cell.verdicts)
        extra = fill('<span class="atlas-derived">derived {}</span>',
            joined(" ", [verdict_badge(v, short=True) for v in cell.verdicts]))
        if cell.finding:
            extra += Markup(" ") + html.ref(f"finding/{cell.finding}", MARK_DISAGREES, "atlas-mark")
    return fill('<td class="atlas-grid__cell verdict-{}" title="{}">{}{}</td>', css, title, cell.symbol, extra)
