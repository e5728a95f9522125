"""The format × hardware map as HTML: accelerators (rows, by vendor and generation) × formats, and where each format runs.

The map is laid out in side-by-side panels (whole vendors per panel, rows balanced) so that it
fits one 1440 × 900 screen; at phone width the panels stack. Each non-empty cell links to the
part's peak figures and names, on hover, the dense peaks and sources its status is derived from; a
native cell with no peak recorded is marked N* and names the instruction and its source instead. A cell whose
status rests only on unverified figures (the view's `unverified`) gets a superscript u and a dotted outline, so the
gap shows without hovering.
The runs table follows each checkpoint format through the engines' dispatch: per hardware target,
the kernel that serves it, coloured by verdict; an expert-layer scheme's by its whole checkpoint's (listed only where
that loads), as every surface that counts what loads counts it (derive/whole_checkpoint.py counted).
"""
from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from ..derive.format_map import FormatMap, FormatRun, MapCell, MapColumn, VendorGroup, format_map
from ..derive.matrix import Column, by_vendor, column_of, group_columns
from ..derive.order import targets_in_order
from ..model.verdicts import Verdict
from .markdown import UNVERIFIED_MARK, fill, joined  # UNVERIFIED_MARK: every figure (and instruction) it rests on is unverified
from .matrix import _Html, href

MARK = {"native": "N", "emulated": "E", "none": ""}
UNRATED_MARK = "N*"  # native by an instruction of the part's hardware target, no peak rate recorded
UNSTATED_MARK = "?"  # after N or N*: the sources say FP8 without naming the encoding this format is
UNSTATED = "the sources name no FP8 encoding (E4M3, E5M2) for it, so this one is not confirmed"
PANELS = 2
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
SHORT_WORD = 12  # letters a chip's narrowest column always holds on one line: such a word needs no break inside it


def format_map_html(atlas: Any, page: str, names: dict[str, str]) -> Markup:
    """The legend, the map panels and the parts nothing is recorded for."""
    view = _view(atlas)
    html = _Html(names, page)
    return joined("\n", [_legend(), _panels(view, html), _unlisted(view, html)])


def format_runs_html(atlas: Any, page: str, names: dict[str, str]) -> Markup:
    """Checkpoint formats × hardware targets: the kernel that serves each, coloured by verdict."""
    columns = by_vendor([column_of(t, atlas.index) for t in targets_in_order(atlas.index)])
    return _runs(_view(atlas), columns, _Html(names, page))


def _view(atlas: Any) -> FormatMap:
    return format_map(atlas.index, atlas.views.tallies, atlas.views.answers, atlas.views.whole_checkpoints)


def _legend() -> Markup:
    return Markup('<p class="atlas-map__legend"><span class="atlas-map__cell--native">N</span> native: the matrix engines '
                  'compute in the format · <span class="atlas-map__cell--native atlas-map__cell--unrated">N*</span> native instruction, no rate '
                  'recorded · <span class="atlas-map__cell--native atlas-map__cell--unstated">N?</span> FP8 native, encodings (E4M3, E5M2) '
                  'not stated · <span class="atlas-map__cell--native atlas-map__cell--unverified">N<sup>u</sup></span> unverified: '
                  'every figure it rests on is unverified · <span class="atlas-map__cell--emulated">E</span> emulated: no matrix instruction takes it; where an '
                  'engine runs it (the support tables say which), it runs converted or on vector units · blank: nothing recorded '
                  'either way. Hover a cell for its figures and sources; click it for the part\'s peak table.</p>')


def split_panels(vendors: tuple[VendorGroup, ...], panels: int = PANELS) -> list[list[VendorGroup]]:
    """Whole vendors into at most `panels` consecutive panels, each about the same number of lines."""
    lines = [1 + len(v.rows) + sum(1 for g in v.generations if g.name) for v in vendors]
    target = sum(lines) / panels
    out: list[list[VendorGroup]] = [[]]
    filled = 0
    for vendor, count in zip(vendors, lines):
        if out[-1] and len(out) < panels and filled + count / 2 > target * len(out):
            out.append([])
        out[-1].append(vendor)
        filled += count
    return out


def _panels(view: FormatMap, html: _Html) -> Markup:
    heads = joined("", [fill('<th scope="col" class="atlas-map__format" title="{}">{}</th>',
        html.names.get(f"format/{c.format}", c.format), html.ref(f"format/{c.format}", c.short)) for c in view.columns])
    tables = []
    for panel in split_panels(view.vendors):
        body = joined("", [_vendor(v, view.columns, html) for v in panel])
        tables.append(fill('<table class="atlas-grid atlas-map"><thead><tr><th scope="col" class="atlas-grid__corner">'
                           'Accelerator</th>{}</tr></thead>{}</table>', heads, body))
    return fill('<div class="atlas-map__panels" role="region" aria-label="Format by hardware map" tabindex="0">{}</div>',
        joined("", tables))


def _vendor(vendor: VendorGroup, columns: tuple[MapColumn, ...], html: _Html) -> Markup:
    span = len(columns) + 1
    lines = [fill('<tr class="atlas-map__vendor"><th scope="rowgroup" colspan="{}">{}</th></tr>', span, vendor.vendor)]
    for generation in vendor.generations:
        if generation.name:
            lines.append(fill('<tr class="atlas-map__generation"><th scope="rowgroup" colspan="{}">{}</th></tr>',
                span, generation.name))
        for row in generation.rows:
            name = html.names.get(f"accelerator/{row.accelerator}", row.accelerator)
            peaks = href(f"accelerators/{row.accelerator}.md", html.page) + "#peak-compute"
            cells = joined("", [_cell(cell, html.names.get(f"format/{c.format}", c.format), name, peaks, html)
                                    for c, cell in zip(columns, row.cells)])
            lines.append(fill('<tr><th scope="row" title="{}">{}</th>{}</tr>',
                name, html.ref(f"accelerator/{row.accelerator}", row.short), cells))
    return fill('<tbody>{}</tbody>', joined("", lines))


def _cell(cell: MapCell, fmt: str, part: str, peaks_url: str, html: _Html) -> Markup:
    if cell.status == "none":
        return fill('<td class="atlas-map__cell atlas-map__cell--none" title="{} on {}: no peak recorded"></td>', fmt, part)
    unstated = (" atlas-map__cell--unstated", f"; {UNSTATED}", UNSTATED_MARK) if cell.encoding_unstated else ("", "", "")
    classes = unstated[0] + (" atlas-map__cell--unverified" if cell.unverified else "")
    sup = fill("<sup>{}</sup>", UNVERIFIED_MARK) if cell.unverified else Markup("")
    status = f"{cell.status}, unverified" if cell.unverified else cell.status
    if cell.unrated:
        return fill('<td class="atlas-map__cell atlas-map__cell--native atlas-map__cell--unrated{}"><a href="{}" title="{}">'
                    '{}{}</a></td>', classes, peaks_url, f"{fmt} on {part}: native instruction, no rate recorded"
                    f"{', unverified' if cell.unverified else ''} — {_instructions(cell, html)}{unstated[1]}",
                    UNRATED_MARK + unstated[2], sup)
    # an emulated cell may rest on instructions alone (no peak): the phrases are joined, none left empty
    why = "; ".join(phrase for phrase in (_evidence(cell, html), _instructions(cell, html), _encoding_sources(cell, html),
                                          _other_encodings(cell, html), _without(cell, html)) if phrase)
    return fill('<td class="atlas-map__cell atlas-map__cell--{}{}"><a href="{}" title="{}">{}{}</a></td>',
        cell.status, classes, peaks_url, f"{fmt} on {part}: {status} — {why}{unstated[1]}",
        MARK[cell.status] + unstated[2], sup)


def _stated_by(target: str, on_part: bool, html: _Html) -> str:
    """Who states an instruction or its absence: the hardware target's name, or 'this part' for the part's own entry."""
    return "this part" if on_part else html.names.get(f"hardware-target/{target}", target)


def _instructions(cell: MapCell, html: _Html) -> str:
    """'tcgen05.mma kind::mxf8f6f4 (NVIDIA SM 10.x: Source A)', one phrase per instruction ('this part: Source B' for
    one the part's own record states)."""
    return "; ".join(f"{i.instruction} ({_stated_by(i.target, i.on_part, html)}: "
                     f"{html.names.get(f'source/{i.source}', i.source)})" for i in cell.instructions)


def _encoding_sources(cell: MapCell, html: _Html) -> str:
    """'encodings named by Source A', for the part-level encoding statements behind a native cell."""
    names = dict.fromkeys(html.names.get(f"source/{s}", s) for s in cell.encoding_sources)
    return f"encodings named by {', '.join(names)}" if names else ""


def _without(cell: MapCell, html: _Html) -> str:
    """'no matrix instruction in this precision (AMD gfx1151: Source A)', or 'no matrix instruction in any precision
    (AMD gfx906: Source B)', for an emulated cell a target's statement makes."""
    phrases = []
    for scope, whole in (("any", True), ("this", False)):
        said = dict.fromkeys(f"{_stated_by(n.target, n.on_part, html)}: {html.names.get(f'source/{n.source}', n.source)}"
                             for n in cell.without if (n.precision is None) == whole)
        if said:
            phrases.append(f"no matrix instruction in {scope} precision ({'; '.join(said)})")
    return "; ".join(phrases)


def _other_encodings(cell: MapCell, html: _Html) -> str:
    """'its matrix engines take E5M2 only in this precision (Source A)', for an emulated cell whose own precision the
    part computes in another encoding."""
    if not cell.other_encodings:
        return ""
    encodings = sorted({e.upper() for named, _ in cell.other_encodings for e in named})
    sources = dict.fromkeys(html.names.get(f"source/{s}", s) for _, s in cell.other_encodings)
    return f"its matrix engines take {' and '.join(encodings)} only in this precision ({', '.join(sources)})"


def _evidence(cell: MapCell, html: _Html) -> str:
    """'dense BF16 peak 989 TFLOPS (Source A; Source B)', one phrase per distinct figure."""
    figures: dict[tuple[str, float], list[str]] = {}
    unverified: dict[tuple[str, float], bool] = {}
    for peak in cell.peaks:
        key = (peak.precision, peak.tflops)
        figures.setdefault(key, []).append(html.names.get(f"source/{peak.source}", peak.source))
        unverified[key] = unverified.get(key, True) and peak.unverified  # unverified only if no source of it is primary
    return "; ".join(f"dense {precision.upper()} peak {_number(tflops)} TFLOPS"
                     f"{' (unverified)' if unverified[(precision, tflops)] else ''} ({', '.join(dict.fromkeys(sources))})"
                     for (precision, tflops), sources in figures.items())


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() else str(value)


def _unlisted(view: FormatMap, html: _Html) -> Markup:
    if not view.unlisted:
        return Markup("")
    return fill('<details class="atlas-map__unlisted"><summary>{} parts have no dense peak recorded yet, so no format '
                'is derived for them</summary><p>{}.</p></details>',
        len(view.unlisted), joined(", ", [html.ref(f"accelerator/{a}") for a in view.unlisted]))


def kernel_label(name: str, engine: str) -> str:
    """A kernel's name short enough for a table cell: no engine in front, no 'LinearKernel' or parenthetical behind."""
    label = re.sub(r"\s*\([^)]*\)\s*$", "", name)
    if label.lower().startswith(engine.lower() + " "):
        label = label[len(engine) + 1:]
    return re.sub(r"(LinearKernel|LinearMethod|Kernel)$", "", label) or name


def _runs(view: FormatMap, columns: list[Column], html: _Html) -> Markup:
    """Hardware targets (rows, by vendor) × checkpoint formats (columns); a cell names the kernel(s), coloured by verdict."""
    by_cell: dict[tuple[str, str], dict[tuple[Verdict, str, str], list[FormatRun]]] = {}
    for run in view.runs:  # (a "Fallback if" apart from a fallback a default install reaches: Cell.label)
        by_cell.setdefault((run.format, run.target), {}).setdefault(
            (run.counted.verdict, _said(run), run.kernel), []).append(run)
    formats = list(dict.fromkeys(run.format for run in view.runs))
    heads = joined("", [fill('<th scope="col" title="{}">{}</th>',
        html.names.get(f"format/{f}", f), html.ref(f"format/{f}", _format_label(html.names.get(f"format/{f}", f))))
        for f in formats])
    rows = []
    for vendor, _ in group_columns(columns):
        rows.append(fill('<tr class="atlas-map__vendor"><th scope="rowgroup" colspan="{}">{}</th></tr>',
            len(formats) + 1, vendor))
        for column in [c for c in columns if c.vendor == vendor]:
            label = fill('<a href="{}">{} <small>{}</small></a>',
                href(f"hardware-targets/{column.target}.md", html.page), column.short, column.detail)
            cells = joined("", [_run_cell(by_cell.get((f, column.target), {}), column, html) for f in formats])
            rows.append(fill('<tr><th scope="row" title="{}">{}</th>{}</tr>', column.title, label, cells))
    return fill('<div class="atlas-grid__scroll atlas-runs" role="region" aria-label="Checkpoint formats by hardware target" '
                'tabindex="0"><table class="atlas-grid"><thead><tr><th scope="col" class="atlas-grid__corner">'
                'Hardware target</th>{}</tr></thead><tbody>{}</tbody></table></div>', heads, joined("", rows))


def _said(run: FormatRun) -> str:
    """The verdict a run is coloured and titled by: an expert-layer scheme's whole checkpoint's, said as such where it
    reads otherwise than the expert layers' own (whose kernel the chip names)."""
    said = run.counted.label
    if run.counted.whole is not None and said != run.answer.cell.label:
        return f"{said} (the whole checkpoint; the expert layers alone: {run.answer.cell.label})"
    return said


def _format_label(name: str) -> str:
    return re.sub(r"\s*\([^)]*\)", "", name).strip() or name


def _run_cell(kernels: dict[tuple[Verdict, str, str], list[FormatRun]], column: Column, html: _Html) -> Markup:
    if not kernels:
        return fill('<td class="atlas-grid__cell atlas-runs__none" title="no scheme loads it on {}">–</td>', column.title)
    lines = []
    for (verdict, said, kernel), runs in kernels.items():
        name = html.names.get(f"kernel/{kernel}", kernel)
        schemes = ", ".join(html.names.get(f"scheme/{r.scheme}", r.scheme) for r in runs)
        engine = html.names.get(f"engine/{runs[0].engine}", runs[0].engine)
        label = _breakable(kernel_label(name, engine)) if kernel else escape(said)
        title = f"{said} via {name} ({schemes})" if kernel else f"{said} ({schemes})"
        link = html.ref(f"kernel/{kernel}", label) if kernel else label
        lines.append(fill('<span class="atlas-runs__kernel verdict-{}" title="{}">{}</span>', verdict.value, title, link))
    return fill('<td class="atlas-grid__cell atlas-runs__cell">{}</td>', joined("", lines))


def _breakable(label: str) -> Markup:
    """A kernel's label with a line-break opportunity after each space and inside each long CamelCase word
    (MarlinFP8ScaledMM), so a narrow column wraps it: a chip's link does not wrap by itself (white-space: nowrap), and
    breaks inside every word alone let it end a line on 'cu' and start the next with 'BLAS Hgemm'."""
    return joined(" <wbr>", [joined("<wbr>", _CAMEL.split(word)) if len(word) > SHORT_WORD else word
                             for word in label.split(" ")])
