"""Every name a template can use, in one table: what it is and what it does (the contributor page lists this table).

Template functions that state facts (ref, quote, field, claim, ...) are methods of `TemplateFunctions`;
the rest are views and formatted tables. A name missing here does not exist in templates.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from markupsafe import Markup, escape

from ..changelog_depth import commit_limit
from ..model.atlas import Atlas
from ..model.verdicts import FALLBACK_IF_LABEL, FALLBACK_IF_MEANING, KNOWN_BY_MEANINGS, VERDICT_MEANINGS, KnownBy, Verdict
from .charts import ridge_chart
from .functions import TemplateFunctions
from .markdown import escape_text, heading_ids, marked_unverified
from ..derive.ridge_rows import ridge_table
from ..derive.source_freshness import stale_sources
from .changelog import entries_of, item_markup
from .format_map import format_map_html, format_runs_html
from .history import flip_why, outcome_markup, release_rows, span_sentence
from .matrix import folded, kernel_lead, otherwise_markup, published_grid_html, support_matrices_html
from .pages import published_table, reasons_of, support_grid, whole_markup, why_markup
from .reference_docs import check_docs, claim_docs, kind_docs, shared_docs
from .finding_index import finding_table_html, findings_week
from .trap_index import trap_table_html
from .values import ValueRenderer


@dataclass(frozen=True)
class PageScope:
    """What one page render binds the globals to."""

    atlas: Atlas
    page: str
    names: dict[str, str]
    functions: TemplateFunctions
    values: ValueRenderer


@dataclass(frozen=True)
class TemplateGlobal:
    name: str
    signature: str
    doc: str
    bind: Callable[[PageScope], Any]


def _method(name: str) -> Callable[[PageScope], Any]:
    return lambda scope: getattr(scope.functions, name)


def _doc_of(name: str) -> str:
    return (getattr(TemplateFunctions, name).__doc__ or "").strip().splitlines()[0]


_FACT_FUNCTIONS = (("ref", "ref(kind, id, text=None, nested=False)"),
                   ("refs", "refs(kind, ids, separator=', ', nested=False)"),
                   ("figures", "figures(values)"),
                   ("quote", "quote(kind, id, field, text)"), ("field", "field(kind, id, path, unit='')"),
                   ("difference", "difference(kind, id, unit='')"),
                   ("name", "name(kind, id)"), ("tally", "tally(accelerator)"), ("cell", "cell(scheme, target)"),
                   ("kernel_formats", "kernel_formats(kernel, *others)"), ("records", "records(kind)"), ("count", "count(items)"), ("number", "number(value, digits=2)"),
                   ("claim", "claim(name, *args)"))

TEMPLATE_GLOBALS: tuple[TemplateGlobal, ...] = (
    *(TemplateGlobal(name, signature, _doc_of(name), _method(name)) for name, signature in _FACT_FUNCTIONS),
    TemplateGlobal("listing", "listing(items, empty='none', separator=', ')",
                   "Plain values (not records) written as one escaped, comma-separated phrase; `empty` when there are none.",
                   lambda scope: listing),
    TemplateGlobal("views", "views", "Every computed view of the atlas (see the views recipe); templates loop over them.",
                   lambda scope: scope.atlas.views),
    TemplateGlobal("link_to", "link_to(ref)", "A link to the record written `kind/id`, showing its name.",
                   lambda scope: scope.values.ref),
    TemplateGlobal("why", "why(cell)", "Why a derived support cell has its verdict: the kernel and conditions, or every reason.",
                   lambda scope: lambda cell: why_markup(cell, scope.values)),
    TemplateGlobal("kernel_lead", "kernel_lead(cell)",
                   "A derived cell's kernel, linked; where a default install selects another (the cell's needs an opt-in), "
                   "that one first and the cell's named with the opt-in (`Y on a default install; X with Z`).",
                   lambda scope: lambda cell: kernel_lead(cell, lambda k: scope.values.ref(f"kernel/{k}"), escape_text)),
    TemplateGlobal("reasons", "reasons(cell)",
                   "Why a derived cell that does not run is refused or fails: `.reason` (the gate's message, the kernel that "
                   "fails at run time) or, when candidates were tried, `.per_kernel` (each kernel with its own message, in "
                   "the engine's order). For a list item or after a colon, never inside a parenthesis.",
                   lambda scope: lambda cell: reasons_of(cell, scope.values)),
    TemplateGlobal("otherwise", "otherwise(cell)",
                   "What runs when a cell's conditions do not hold, in the engine's order (`If not, in the engine's order: "
                   "unless A: <verdict> via K; ...`); empty for a cell whose kernel is selected without conditions.",
                   lambda scope: lambda cell: otherwise_markup(cell, scope.values.ref, escape_text)),
    TemplateGlobal("if_not", "if_not(cell)",
                   "The same as otherwise(cell), folded under an 'if not' disclosure that opens on a click: for a table "
                   "row, whose reader asks about one cell of many; empty for a cell with no such step.",
                   lambda scope: lambda cell: folded("if not", [otherwise_markup(cell, scope.values.ref, escape_text)])
                   if cell.otherwise else Markup("")),
    TemplateGlobal("whole_checkpoint", "whole_checkpoint(cell)",
                   "For a cell of an expert-layer scheme whose checkpoint's other linear layers have a scheme of their "
                   "own: the whole checkpoint's verdict (the worse of the two cells on the target), which sets it, and "
                   "what the other layers' scheme (linked) does there; empty for any other cell.",
                   lambda scope: lambda cell: whole_markup(scope.atlas, cell, scope.values)),
    TemplateGlobal("heading_ids", "heading_ids(kind, rows, field)",
                   "For a page with a heading per row naming the record of `kind` whose id is the row's `field` "
                   "(`### {{ name(kind, id) }} { #{{ anchors[id] }} }`), each record id's heading id: MkDocs's own slug of "
                   "the name, `_1`, `_2` added where names slug alike or to nothing; written on the heading and in the "
                   "links to it (a chapter's list of its own sections).",
                   lambda scope: lambda kind, rows, field: _anchors(scope, kind, [getattr(row, field) for row in rows])),
    TemplateGlobal("support_grid", "support_grid()", "The derived support table: every scheme on every hardware target.",
                   lambda scope: lambda: support_grid(scope.atlas, scope.page, scope.names)),
    TemplateGlobal("support_matrices", "support_matrices(notes=True, heading=2)",
                   "The derived support matrices as coloured HTML grids, one per engine under a heading of that level "
                   "(after a line of links to them), with a legend and note markers; without notes, cells link to the "
                   "notes on the support tables page.",
                   lambda scope: lambda notes=True, heading=2: support_matrices_html(scope.atlas, scope.page, scope.names,
                                                                                     notes, heading)),
    TemplateGlobal("published_grid", "published_grid(matrix_id)",
                   "A published support matrix as a coloured grid, with the derived cell beside the published one where they differ.",
                   lambda scope: lambda matrix_id: published_grid_html(scope.atlas, matrix_id, scope.page, scope.names)),
    TemplateGlobal("format_map", "format_map()",
                   "The format × hardware map: accelerators by vendor and generation × hardware formats, native or emulated.",
                   lambda scope: lambda: format_map_html(scope.atlas, scope.page, scope.names)),
    TemplateGlobal("format_runs", "format_runs()",
                   "Checkpoint formats × hardware targets: the kernel that serves each format, coloured by verdict.",
                   lambda scope: lambda: format_runs_html(scope.atlas, scope.page, scope.names)),
    TemplateGlobal("trap_table", "trap_table()",
                   "Every trap as a sortable, filterable table: severity, silent, regime, formats, engines.",
                   lambda scope: lambda: trap_table_html(scope.atlas, scope.page, scope.names)),
    TemplateGlobal("finding_table", "finding_table()",
                   "Every finding as a sortable table, newest first: date checked, verdict, name, the records it concerns.",
                   lambda scope: lambda: finding_table_html(scope.atlas, scope.page, scope.names)),
    TemplateGlobal("findings_week", "findings_week()",
                   "The findings dated in the seven days up to the newest one: since, until, count, and (verdict, count) pairs.",
                   lambda scope: lambda: findings_week(scope.atlas)),
    TemplateGlobal("stale_sources", "stale_sources()",
                   "Sources with no check date, not checked for a long time, or pinned to a package release or repository "
                   "tag older than the newest one cited for it.",
                   lambda scope: lambda: stale_sources(scope.atlas.index)),
    TemplateGlobal("unverified_value", "unverified_value(value, reason)",
                   "A value no primary source states, marked where it stands as the format map and the part pages mark "
                   "one (a dotted outline and a superscript u), `reason` on hover; the value as it is where `reason` is "
                   "empty.",
                   lambda scope: marked_unverified),
    TemplateGlobal("ridge_table", "ridge_table()",
                   "The ridge points folded to one row per part: per precision the value, or its range when sources disagree.",
                   lambda scope: lambda: ridge_table(scope.atlas.views.ridges)),
    TemplateGlobal("ridge_chart", "ridge_chart(precision)", "An inline SVG chart of the dense ridge points for one precision.",
                   lambda scope: lambda precision: ridge_chart(scope.atlas.views.ridges, scope.names, precision)),
    TemplateGlobal("matrix_table", "matrix_table(matrix_id)",
                   "A published support matrix as its publisher shows it, with the derived cell where they differ.",
                   lambda scope: lambda matrix_id: published_table(
                       scope.atlas, scope.atlas.index.must("support-matrix", matrix_id), scope.values)),
    TemplateGlobal("history_releases", "history_releases()",
                   "Every observed engine release, oldest first: its current observation, harness, date and counts.",
                   lambda scope: lambda: release_rows(scope.atlas)),
    TemplateGlobal("outcome", "outcome(outcome)", "One observed outcome as a compact badge with its kernel or refusing stage.",
                   lambda scope: outcome_markup),
    TemplateGlobal("flip_why", "flip_why(flip)", "Why an observed cell flipped between two releases, one reason a line.",
                   lambda scope: flip_why),
    TemplateGlobal("published_span", "published_span(scheme, target)",
                   "How long the published cell claiming (scheme, target) disagreed with the engine; none if it never did.",
                   lambda scope: lambda scheme, target: published_span(scope.atlas, scheme, target)),
    TemplateGlobal("span_text", "span_text(span)",
                   "A disagreement span in words: releases published, checked, disagreeing, first and last.",
                   lambda scope: lambda span: span_sentence(span, _engine_name(scope.atlas, span.publisher))),
    TemplateGlobal("changelog", "changelog()",
                   "Every changelog entry, newest first: engine releases (flips, count moves) and recent commits to the records.",
                   lambda scope: lambda: entries_of(scope.atlas)),
    TemplateGlobal("changelog_commits", "changelog_commits()",
                   "How many of the latest commits to the records the changelog walks (a reader asking about a week "
                   "must learn it lists no more).", lambda scope: commit_limit),
    TemplateGlobal("changelog_cut", "changelog_cut()",
                   "Why recent commits to the records may be missing: a shallow clone's last commit, '' outside git; none when whole.",
                   lambda scope: lambda: scope.atlas.history_cut),
    TemplateGlobal("change_item", "change_item(item)", "One changelog item: its text, escaped, and links to its records.",
                   lambda scope: lambda item: item_markup(item, scope.values)),
    TemplateGlobal("kind_docs", "kind_docs()", "Every record kind's fields, from the schemas (contributor pages).",
                   lambda scope: lambda: kind_docs(scope.atlas.schemas)),
    TemplateGlobal("shared_docs", "shared_docs()", "The shared field blocks, from the schemas (contributor pages).",
                   lambda scope: lambda: shared_docs(scope.atlas.schemas)),
    TemplateGlobal("check_docs", "check_docs()", "Every registered check: name, scope, stage and rule (contributor pages).",
                   lambda scope: check_docs),
    TemplateGlobal("claim_docs", "claim_docs()", "Every registered claim with what it asserts (contributor pages).",
                   lambda scope: claim_docs),
    TemplateGlobal("verdict_docs", "verdict_docs()", "The verdict vocabulary and how a verdict is known, with meanings.",
                   lambda scope: verdict_docs),
    TemplateGlobal("global_docs", "global_docs()", "This table: every template global with its signature and purpose.",
                   lambda scope: global_docs),
)


def _engine_name(atlas: Atlas, engine: str) -> str:
    record = atlas.index.get("engine", engine)
    return record.name if record is not None else engine


def published_span(atlas: Atlas, scheme: str, target: str) -> Any:
    """The disagreement span whose published cell maps to (scheme, target), or None."""
    return next((s for s in atlas.views.disagreement_spans if s.covers(scheme, target)), None)


def verdict_docs() -> dict[str, list[tuple[str, str, str]]]:
    """(value, label, meaning) of every verdict and of every way a verdict is known."""
    shown = [(v.value, v.label, VERDICT_MEANINGS[v]) for v in Verdict]
    at = [v for v in Verdict].index(Verdict.FALLBACK) + 1  # the label a fallback takes when it needs an opt-in
    shown.insert(at, (Verdict.FALLBACK.value, FALLBACK_IF_LABEL, FALLBACK_IF_MEANING))
    return {"verdicts": shown,
            "known_by": [(k.value, k.value, KNOWN_BY_MEANINGS[k]) for k in KnownBy]}


def listing(items: Any, empty: str = "none", separator: str = ", ") -> Markup:
    """Plain values joined for prose, each escaped; `empty` when there are none."""
    shown = [escape_text(item) for item in items]
    return escape(separator).join(shown) if shown else escape_text(empty)  # the separator keeps its spaces


def global_docs() -> list[tuple[str, str, str]]:
    """(name, signature, doc) of every template global, in table order."""
    return [(g.name, g.signature, g.doc) for g in TEMPLATE_GLOBALS]


GLOBAL_NAMES = frozenset(g.name for g in TEMPLATE_GLOBALS)


def bind_globals(scope: PageScope, names: frozenset[str] | None = None) -> dict[str, Any]:
    """The variables one page render sees: every global, or those of `names` (the names a layout can read)."""
    return {g.name: g.bind(scope) for g in TEMPLATE_GLOBALS if names is None or g.name in names}


def _anchors(scope: PageScope, kind: str, ids: list[str]) -> dict[str, str]:
    """heading_ids of the named records' names, by record id."""
    return dict(zip(ids, heading_ids(scope.functions.name(kind, record_id) for record_id in ids)))


