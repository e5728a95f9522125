"""Template functions: everything a chapter states about data goes through one of these.

Bound into templates through the one table in `template_globals.py`. Each is documented for chapter authors on the
contributor page `contributing/template-functions.md`, whose examples the test suite renders.
"""
from __future__ import annotations

import html
import posixpath
import re
from typing import Any

from markupsafe import Markup

from ..derive.baseline import difference
from ..derive.cells import Cell
from ..derive.tallies import Tally
from ..kinds import FOLDER_OF_KIND
from ..model.index import Index
from ..model.records import Record
from .context import RenderContext
from .markdown import escape_text, fill, joined, link, marked_unverified, page_of, record_link
from .claims import CLAIMS
from .contests import contest_mark, open_contests
from .labels import inline_name
from .matrix import href

_SPACE = re.compile(r"\s+")


class TemplateFunctions:
    """Bound to one atlas and one page; the methods are what templates call."""

    def __init__(self, atlas: Any, context: RenderContext, names: Any):
        self.atlas = atlas
        self.names = names  # {ref: name} (pages.names_of): a link reads a record's name, not the whole record
        self.index: Index = atlas.index
        self.views = atlas.views
        self.context = context
        self.folder = posixpath.dirname(context.page)  # links from this page are relative to it

    def _record(self, kind: str, record_id: str, rule: str, detail: str = "") -> Record | None:
        record = self.index.get(kind, record_id)
        if record is None:
            folder = FOLDER_OF_KIND.get(kind, kind)
            self.context.report(rule, f"{kind} {record_id!r} has no record (records/{folder}/{record_id}.yaml)")
        else:
            self.context.read(rule, kind, record_id, detail)
        return record

    def ref(self, kind: str, record_id: str, text: str | None = None, nested: bool = False) -> Markup:
        """A link to a record's page, showing its name (or `text`); `nested` inside a parenthesis. Fails on an unknown id."""
        ref = f"{kind}/{record_id}"
        name = self.names.get(ref)  # (a page memo then renders the page again when the name changes, not any field)
        if name is None:
            self._record(kind, record_id, "ref")  # reports the missing record
            return Markup("")
        self.context.read("ref", kind, record_id, "" if text is None else "fixed text")
        shown = text if text is not None else inline_name(name) if nested else name
        # a badge after a record no primary source backs, so a figure from it is never read as verified (sources are
        # never in the view: a seed draft is evidence's absence, not a claim)
        shown_link = record_link(escape_text(shown), page_of(kind, record_id), self.folder, self.views.unverified.get(ref))
        return shown_link + self._contested(kind, record_id) if kind == "gotcha" else shown_link

    def _contested(self, kind: str, record_id: str) -> Markup:
        """The contest mark after a trap with an open contest: its name is a claim no finding has settled, and a
        chapter listing it says so as the answer card and the support tables' notes do (render/contests.py)."""
        found = open_contests(self.index.must(kind, record_id).data)
        return contest_mark(href(page_of(kind, record_id), self.context.page), found[0]["anchor"]) if found else Markup("")

    def figures(self, values: Any) -> Markup:
        """Sourced figures, sources that agree folded: '80 (1, 2, 3)', each number a link to a source, named on hover."""
        groups: dict[tuple[Any, bool, str], list[str]] = {}
        for figure in values:  # (a figure no primary source states carries the mark and its record's reason)
            groups.setdefault((figure.value, bool(figure.estimate), str(getattr(figure, "unverified", "") or "")),
                              []).append(figure.source)
        parts, numbered = [], 0
        for (value, estimate, unverified), sources in groups.items():
            links = joined(", ", [self._source_link(source, numbered + n) for n, source in enumerate(sources, 1)])
            numbered += len(sources)
            parts.append(marked_unverified(escape_text(_number(value)), unverified)
                         + (Markup(" *estimate*") if estimate else Markup("")) + Markup(" (") + links + Markup(")"))
        return joined("; ", parts) if parts else escape_text("not recorded")

    def _source_link(self, source: str, n: int) -> Markup:
        record = self._record("source", source, "figures")
        if record is None:
            return Markup("")
        target = link(n, page_of("source", source), self.context.page)
        title = html.escape(record.name.replace("\\", "/"), quote=True).replace("|", "&#124;")
        return fill("{} \"{}\")", Markup(target[:-1]), Markup(title))

    def refs(self, kind: str, record_ids: Any, separator: str = ", ", nested: bool = False) -> Markup:
        """Links to several records, in the order given, joined by `separator`; `nested` as for `ref`."""
        return Markup(separator).join(self.ref(kind, record_id, nested=nested) for record_id in record_ids)

    def quote(self, kind: str, record_id: str, field: str, text: str) -> Markup:
        """`text` in quotation marks, only if it appears verbatim (whitespace-normalised) in the record's field."""
        record = self._record(kind, record_id, "quote", field)
        if record is None:
            return Markup("")
        haystack = _SPACE.sub(" ", " ".join(strings_in(record.data.get(field))))
        needle = _SPACE.sub(" ", text).strip()
        if not needle or needle not in haystack:
            self.context.report("quote", f"quotation {needle[:60]!r} is not in {field!r} of {record.path}; "
                                         f"quote the record verbatim or change the record")
            return Markup("")
        return Markup("“") + escape_text(needle) + Markup("”")

    def field(self, kind: str, record_id: str, path: str, unit: str = "") -> Markup:
        """A record's field value (dotted path, `a.b[0].c`), with an optional unit. Fails if absent."""
        record = self._record(kind, record_id, "field", path)
        if record is None:
            return Markup("")
        value, ok = _lookup(record.data, path)
        if not ok:
            self.context.report("field", f"{record.path} has no field {path!r}")
            return Markup("")
        return _with_unit(_number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value, unit)

    def difference(self, kind: str, record_id: str, unit: str = "") -> Markup:
        """How far a benchmark's value lies from its baseline (its size, computed at the decimals the two are written
        with and shown as `field` shows numbers), with an optional unit. Fails unless the record is a benchmark with a
        value and exactly one baseline value."""
        record = self._record(kind, record_id, "difference")
        if record is None:
            return Markup("")
        found = difference(self.index, record.data) if kind == "benchmark" else None
        if found is None:
            self.context.report("difference", f"{record.path} is not a benchmark with a value and one baseline value")
            return Markup("")
        return _with_unit(_number(float(abs(found))), unit)

    def name(self, kind: str, record_id: str) -> Markup:
        """A record's display name, without a link."""
        record = self._record(kind, record_id, "name")
        return escape_text(record.name) if record else Markup("")

    def tally(self, accelerator_id: str) -> Tally | None:
        """The computed native/emulated tally of an accelerator (.native, .emulated, .native_count, .emulated_count)."""
        tally: Tally | None = self.views.tallies.get(accelerator_id)
        self.context.read("tally", "accelerator", accelerator_id)
        if tally is None:
            self.context.report("tally", f"accelerator {accelerator_id!r} has no record")
        return tally

    def cell(self, scheme_id: str, target_id: str) -> Cell | None:
        """The derived support cell of a scheme on a hardware target (.verdict, .kernel, .conditions, .reasons)."""
        cell: Cell | None = self.views.cells.get((scheme_id, target_id))
        self.context.read("cell", "scheme", scheme_id, target_id)
        if cell is None:
            self.context.report("cell", f"no derived cell for scheme {scheme_id!r} on target {target_id!r}")
        return cell

    def kernel_formats(self, kernel_id: str, *others: str) -> list[str]:
        """The formats a kernel record lists, in its order; given more kernel ids, only those every one of them lists too
        (the formats two instruction families share). Fails on an unknown id."""
        kernels = [self._record("kernel", k, "kernel_formats", "formats") for k in (kernel_id, *others)]
        if any(k is None for k in kernels):
            return []
        first, *rest = [k.data.get("formats", []) for k in kernels if k is not None]
        return [f for f in first if all(f in listed for listed in rest)]

    def records(self, kind: str) -> list[Record]:
        """Every record of a kind, sorted by id."""
        return self.index.all(kind)

    def count(self, items: Any) -> int:
        """How many items a computed view holds (so templates never call len themselves)."""
        return len(list(items))

    def number(self, value: float, digits: int = 2) -> str:
        """A computed number for prose: integers without decimals, others rounded to `digits`."""
        return _number(round(value, digits))

    def claim(self, name: str, *args: Any) -> Markup:
        """Assert a registered claim about the data next to the sentence it backs; false fails the build here."""
        predicate = CLAIMS.get(name)
        if predicate is None:
            self.context.report("claim", f"unknown claim {name!r}; known claims: {', '.join(sorted(CLAIMS))}")
            return Markup("")
        holds, explanation = predicate(self.atlas, *args)
        if not holds:
            shown = ", ".join(repr(a) for a in args)
            self.context.report("claim", f"claim {name}({shown}) no longer holds: {explanation}")
        return Markup("")



def strings_in(value: Any) -> list[str]:
    """Every string in a value of nested lists and mappings, in order (mapping values, not keys)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings_in(item)]
    return []


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _lookup(data: Any, path: str) -> tuple[Any, bool]:
    for name, index in _PATH_PART.findall(path):
        if name:
            if not isinstance(data, dict) or name not in data:
                return None, False
            data = data[name]
        else:
            position = int(index)
            if not isinstance(data, list) or position >= len(data):
                return None, False
            data = data[position]
    return data, True


def _with_unit(value: Any, unit: str) -> Markup:
    """A value as escaped text, then its unit (if any) after a space."""
    return escape_text(value) + (Markup(" ") + escape_text(unit) if unit else Markup(""))


def _number(value: float) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:,}" if isinstance(value, int) and abs(value) >= 10000 else str(value)
