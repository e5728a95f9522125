"""Views of record pages and kind indexes: plain rows of escaped Markdown, built from records and derived views."""
from __future__ import annotations

import dataclasses
import html
import json
from dataclasses import dataclass, field
from typing import Any, cast

from markupsafe import Markup

from ..derive.baseline import baseline_values, difference
from ..derive.cells import GATE_AFTER_PACKAGES, Cell, accepted_group_sizes, build_of, condition_text
from ..derive.kernel_uses import BY_DEFAULT, SELECTED, KernelUse
from ..derive.members import members
from ..derive.default_lead import default_lead
from ..derive.terms import named_kernels
from ..derive.candidate_lists import list_references_of, named_lists, resolve_named
from ..derive.no_path import no_paths, resolve_candidates
from ..derive.order import targets_in_order
from ..derive.plugins import host_platforms, through_plugins
from ..derive.runtime_checks import resolve_requirement, resolved_kernels, runtime_checks
from ..derive.wording import whole_both, whole_decided, whole_default_layers, whole_state, words
from ..model.verdicts import Verdict
from ..kinds import FOLDER_OF_KIND, TITLE_OF_KIND
from ..model.records import Record, settled
from .contests import contest_anchor
from .history import history_table
from .markdown import code_span, escape_text, fill, fill_words, joined, link, page_of, unverified_badge
from .labels import label
from .observation_grid import observation_grid_html
from .matrix import badge_of, cell_badge, folded, kernel_lead, otherwise_markup
from .reader_views import (accelerator_cells, accelerator_traps, backlink_groups, engine_trap_sections, field_label, folded_rows,
                           format_sections)
from .source_links import outbound, where_to_read
from .values import ValueRenderer

NO_REQUIREMENTS = "none: on every platform where a scheme lists it as a candidate, the engine accepts it"
# Kinds whose page answers "where does it run?": the derived cells come before the record's own fields (on a phone
# a long fields table would push the answer far down); other kinds show their fields first.
ANSWER_FIRST = frozenset({"scheme", "hardware-target", "kernel"})
PROSE_FIELDS = ("name", "summary", "notes", "sources", "contested", "known_gaps")
SHOWN_BY_KIND_TABLES = {"support-matrix": ("cells",), "observation": ("cells",),  # the computed table or grid presents these
                        "engine": ("default_install", "runtime_checks", "plugin_of")}


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[Markup]]
    note: str = ""
    # A copy of derived support cells (each cell's facts are stated once, in the scheme, kernel and engine records it
    # is derived from): the site's search skips it (data-search-exclude), so a query finds the records that state a
    # fact and the page named for it, not every page that repeats a cell.
    copies_cells: bool = False
    anchor: str = ""  # the heading's id, for a link from elsewhere on the page (a contest, from its field's value)


@dataclass
class RecordPage:
    """What a record page's layout (docs/_templates/record.md.j2) shows: computed for every page, so nothing it does not
    show (the backlinks reach it grouped by kind, in `backlink_groups`)."""

    record: Record
    kind_title: str
    summary: Markup
    facts: list[tuple[str, Markup]]
    tables: list[Table]
    notes: Markup
    sources: list[Markup]
    contested: list[Table] = field(default_factory=list)
    gaps: list[Markup] = field(default_factory=list)
    unverified: Markup = Markup("")  # the reason no primary source backs the record; empty when one does
    description: Markup = Markup('""')  # the summary as a YAML string for the page's meta description
    backlink_groups: list[tuple[str, list[Markup]]] = field(default_factory=list)  # by kind, each record once
    grid: Markup = Markup("")  # a kind's verdict grid (observations), shown before the tables
    search_tags: Markup = Markup("")  # the names that find this page first, and their markers, as a YAML list; or empty
    answer: list[Table] = field(default_factory=list)  # computed tables shown before the fields (ANSWER_FIRST kinds)
    lead: list[tuple[str, Markup]] = field(default_factory=list)  # (title, sentence) notes shown under the summary
    settled: list[Table] = field(default_factory=list)  # contests a finding settled; `contested` holds the open ones
    # a kernel's or scheme's sources by what each backs (cited_by_field): (what, which, citations); `sources` the rest
    source_groups: list[tuple[str, Markup, list[Markup]]] = field(default_factory=list)


def names_of(atlas: Any) -> dict[str, str]:
    return {record.ref: record.name for kind in atlas.index.by_kind for record in atlas.index.all(kind)}


def record_page(atlas: Any, record: Record, names: dict[str, str]) -> RecordPage:
    page = page_of(record.kind, record.id)
    links = {link.path: link.target for link in atlas.index.outgoing.get(record.ref, [])}
    if record.kind == "scheme":
        links.update(_named_list_links(atlas, record))
    unverified = atlas.views.unverified  # each record no primary source backs, with its reason
    values = ValueRenderer(links, names, page, unverified)
    properties = list(atlas.schemas.schema_of(record.kind)["properties"])
    marks = _contest_marks(record)
    facts, tables = [], []
    for key in properties:
        if key in PROSE_FIELDS or key in SHOWN_BY_KIND_TABLES.get(record.kind, ()) or key not in record.data:
            continue
        value = record.data[key]
        if record.kind == "kernel" and key == "requirements":
            value = _requirements_as_read(atlas, record, page)
            if not value:  # an empty list would show as an empty cell
                facts.append((field_label(key), escape_text(NO_REQUIREMENTS)))
                continue
        if record.kind == "scheme" and key == "candidates":
            value = _candidates_as_read(atlas, record, page)
        if record.kind == "engine" and key == "candidate_lists":
            tables.append(_candidate_lists_table(atlas, record, page, values))
            continue
        if record.kind == "engine" and key == "later_releases":  # beside the release read, not under the traps
            facts.append((field_label(key), values.render(value, (key,))))
        elif record.kind == "kernel" and key == "requirements":
            tables.append(_requirements_table(key, value, values))
        elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            folded = folded_rows(key, value, values)
            tables.append(Table(field_label(key), *folded) if folded else _object_table(key, value, values))
        elif record.kind == "gotcha" and key in ("severity", "silent"):  # coloured as on the trap index and the answers
            facts.append((field_label(key), _trap_mark(key, value)))
        elif record.kind == "benchmark" and key in BENCHMARK_RESULT:
            facts += benchmark_result(atlas, record, key, values)
        elif key == "category" and isinstance(value, str):
            facts.append((field_label(key), label(value)))  # the reader's word, not the schema's slug
        elif value == []:
            facts.append((field_label(key), escape_text("none")))  # (an empty cell would read as not stated)
        else:
            facts.append((field_label(key), values.render(value, (key,))))
    facts = [(label, joined(" ", [value, *marks.get(label, [])])) for label, value in facts]
    tables = [_with_marks(t, marks.get(t.title, [])) for t in tables]
    computed = kind_tables(atlas, record, values)
    answer = [t for t in computed if t.rows] if record.kind in ANSWER_FIRST else []
    if record.kind == "accelerator":  # its memory and peaks before the long list of its targets' cells
        tables = [t for t in computed if not t.copies_cells] + tables + [t for t in computed if t.copies_cells]
    elif record.kind not in ANSWER_FIRST:
        tables = computed + tables
    sources = [joined("", (values.render(citation, ("sources", n)), outbound(atlas, citation["source"])))
               for n, citation in enumerate(record.data.get("sources", []))]
    groups = backlink_groups(atlas, record, values)
    entries = list(enumerate(record.data.get("contested", [])))
    contested = [_contest_table(n, entry, values) for n, entry in entries if not settled(entry)]
    done = [_settled_table(n, entry, values) for n, entry in entries if settled(entry)]
    gaps = [escape_text(f"{g['kind']} {g['id']!r} has no record: {g['reason']}") for g in record.data.get("known_gaps", [])]
    return RecordPage(record, TITLE_OF_KIND[record.kind], escape_text(record.data.get("summary", "")), facts, tables,
                      escape_text(record.data.get("notes", "")), sources, contested, gaps,
                      escape_text(unverified.get(record.ref, "")),  # derive.provenance.unverified_reason
                      yaml_string(record.data.get("summary", "")), groups,
                      observation_grid_html(atlas, record, page, names) if record.kind == "observation" else Markup(""),
                      _search_tags(atlas, record), answer,
                      plugin_lead(atlas, record, values) + named_lead(atlas, record, values), done,
                      cited_by_field(atlas, record, page, names, unverified))


def cited_by_field(atlas: Any, record: Record, page: str, names: dict[str, str],
                   unverified: dict[str, str]) -> list[tuple[str, Markup, list[Markup]]]:
    """What a kernel's or a scheme's fields cite, by what each citation backs, read from the fields that hold one: a
    kernel's code, what it computes in, each gate and each runtime check a requirement uses (the engine's, which the
    kernel's own list leaves out); a scheme's code and each platform's candidate list (an engine's named list's
    sources included). Each group is (what, which, rendered citations); other kinds have none."""
    def cited(citation: dict[str, Any]) -> Markup:
        shown = {k: citation[k] for k in ("source", "locator", "quote") if citation.get(k)}
        renderer = ValueRenderer({"source": f"source/{citation['source']}"}, names, page, unverified)
        return joined("", (renderer.render(shown, ()), outbound(atlas, citation["source"])))
    data = record.data
    groups: list[tuple[str, Markup, list[Markup]]] = []
    if data.get("code"):
        groups.append(("code", Markup(""), [cited(data["code"])]))
    if record.kind == "kernel":
        if data.get("computes_in"):
            groups.append(("computes_in", Markup(""), [cited(data["computes_in"])]))
        groups += [("gate", escape_text(gate["description"]), [cited(dict(gate))])
                   for gate in data.get("external_gates", []) if gate.get("source")]
        engine = atlas.index.get("engine", str(data.get("engine", "")))
        checks = runtime_checks(engine.data if engine else None)
        used = dict.fromkeys(r["uses"] for r in data.get("requirements", []) if r.get("uses") in checks)
        groups += [("check", escape_text(checks[u].get("condition") or checks[u]["value"]), [cited(dict(checks[u]))])
                   for u in used]
    if record.kind == "scheme":
        engine = atlas.index.get("engine", str(data.get("engine", "")))
        lists = named_lists(engine.data if engine else None)
        for candidates in data.get("candidates", []):
            listed = resolve_named(candidates, lists) if "list" in candidates else candidates
            if listed.get("sources"):
                groups.append(("candidates", escape_text(candidates["platform"]), [cited(dict(c)) for c in listed["sources"]]))
    return groups


BENCHMARK_RESULT = ("value", "unit", "baseline")  # one fact of a benchmark page: the value, in its unit, against its baseline


def benchmark_result(atlas: Any, record: Record, key: str, values: ValueRenderer) -> list[tuple[str, Markup]]:
    """A benchmark's value with its unit, and its baseline (value, unit, what it is), as facts: the value's row carries
    the unit, the baseline's row says what it is compared with, the unit has no row of its own. The difference gets a
    row only when the baseline is another benchmark record (the benchmark-baseline check holds the two to one metric
    and unit): a baseline typed as a bare value need not be the same quantity."""
    data, unit = record.data, escape_text(record.data.get("unit", ""))  # contributor text, in a Markdown table
    if key == "value":
        return [(field_label("value"), fill("{} {}", values.render(data["value"], ("value",)), unit))]
    if key != "baseline":
        return []
    baseline = data["baseline"]
    base = next(iter(baseline_values(atlas.index, data)), None)
    shown = [values.render(baseline["description"], ("baseline", "description"))] if "description" in baseline else []
    if "benchmark" in baseline:
        shown.append(values.render(baseline["benchmark"], ("baseline", "benchmark")))
    about = joined(", ", shown)
    if base is None:
        return [(field_label("baseline"), about)]
    rows = [(field_label("baseline"), fill("{} {}{}", values.render(base, ("baseline", "value")), unit,
                                           fill(": {}", about) if about else Markup("")))]
    apart = difference(atlas.index, data) if "benchmark" in baseline else None
    if apart is not None:
        side = "below" if apart < 0 else "above"
        rows.append(("Difference", fill("{} {} {} the baseline", values.render(float(abs(apart)), ("difference",)), unit, side) if apart else
                     Markup("equal to the baseline")))
    return rows


def yaml_string(text: Any, limit: int = 300) -> Markup:
    """Plain text as one double-quoted YAML scalar (JSON string syntax), whitespace folded, cut at `limit` characters.

    HTML-escaped as well: the theme writes the description into an attribute without escaping it.
    """
    folded = " ".join(str(text).split())
    if len(folded) > limit:
        folded = folded[: limit - 1].rstrip() + "…"
    return Markup(json.dumps(html.escape(folded, quote=True), ensure_ascii=False))


def _search_tags(atlas: Any, record: Record) -> Markup:
    found = atlas.views.search_terms.get(record.ref)
    return yaml_list(found.tags) if found else Markup("")


def yaml_list(terms: tuple[str, ...]) -> Markup:
    """Terms as one YAML flow sequence (JSON array syntax); empty when there are none."""
    return Markup(json.dumps(list(terms), ensure_ascii=False)) if terms else Markup("")


def _object_table(key: str, items: list[dict[str, Any]], values: ValueRenderer) -> Table:
    columns: list[str] = []
    for item in items:
        columns += [k for k in item if k not in columns]
    rows = [[values.render(item[c], (key, n, c)) if c in item else Markup("") for c in columns]
            for n, item in enumerate(items)]
    return Table(field_label(key), [field_label(c).lower() for c in columns], rows)


# What a requirement tests, in its second column: a list of accepted `values` (platforms, dtypes, group sizes) or the
# one `value` (a capability, a package, a switch); the schema lets a requirement state one of them, never both
TESTED = ("values", "value")


def _requirements_table(key: str, items: list[dict[str, Any]], values: ValueRenderer) -> Table:
    """A kernel's requirements: the check and what it tests as columns, every other field (a reason of a few hundred
    words, a locator, a condition, a scope) a labelled line of a third column. One column per field made up to
    fourteen, most of them empty in most rows, and the table ran past the content column at 1280 px with its prose
    wrapped a few words a line; here the prose has the width of the page. A single `value` shares the column of the
    `values` lists: in a cell of its own beside the check ("capability-min | 75"), not a line among the details with
    the column beside the check left blank."""
    checks = any("check" in item for item in items)
    tested = [next((f for f in TESTED if f in item), None) for item in items]
    rest = list(dict.fromkeys(k for item in items for k in item if k != "check" and k not in TESTED))
    rows = [([values.render(item["check"], (key, n, "check")) if "check" in item else Markup("")] if checks else [])
            + ([values.render(item[field], (key, n, field)) if field else Markup("")] if any(tested) else [])
            + [joined("<br>", [fill('<span class="atlas-field-label">{}</span>: {}', field_label(c).lower(),
                                    values.render(item[c], (key, n, c))) for c in rest if c in item])]
            for n, (item, field) in enumerate(zip(items, tested))]
    return Table(field_label(key), [*(["check"] if checks else []), *(["value"] if any(tested) else []), "details"], rows)


def _contest_field(entry: dict[str, Any]) -> str:
    """The record field a contest is about: its `field`'s first word ("peak_compute int8 dense" is about
    peak_compute); a field named in prose matches no key and gets no mark."""
    return str(entry["field"]).split(" ")[0].split("(")[0]


def _contest_marks(record: Record) -> dict[str, list[Markup]]:
    """By field label, a mark for each contest about that field, linking to its table below: "⚠ contested" for an
    open one, "settled" for one a finding settled (words, not colour alone)."""
    marks: dict[str, list[Markup]] = {}
    for n, entry in enumerate(record.data.get("contested", [])):
        said = "settled contest, see below" if settled(entry) else "⚠ contested, see below"
        kind = "settled" if settled(entry) else "contested"
        marks.setdefault(field_label(_contest_field(entry)), []).append(
            fill('<a class="atlas-contest-mark atlas-contest-mark--{}" href="#{}">{}</a>', kind, contest_anchor(n), said))
    return marks


def _with_marks(table: Table, marks: list[Markup]) -> Table:
    """A field's table with its contests' marks in its note."""
    return dataclasses.replace(table, note=joined(" ", [*([escape_text(table.note)] if table.note else []), *marks])) if marks else table


def _contest_table(n: int, entry: dict[str, Any], values: ValueRenderer) -> Table:
    """An open contest: every claim with its sources, none preferred."""
    rows = [[values.render(claim["value"], ("contested", n, "claims", k, "value")),
             values.render(claim["sources"], ("contested", n, "claims", k, "sources"))]
            for k, claim in enumerate(entry["claims"])]
    return Table(f"Contested: {entry['field']}", ["claimed value", "sources"], rows,
                 "unresolved: the site shows every claim", anchor=contest_anchor(n))


def _settled_table(n: int, entry: dict[str, Any], values: ValueRenderer) -> Table:
    """A contest a finding settled: the upheld claim first, as the value, then each claim the finding set aside. The
    upheld row stands out in words and weight, not colour alone: its value bold, its status "✓ stands"."""
    upheld = entry["upheld"]
    finding = values.render(entry["resolution"], ("contested", n, "resolution"))
    order = [upheld] + [k for k in range(len(entry["claims"])) if k != upheld]
    rows = [[_claim_value(values.render(entry["claims"][k]["value"], ("contested", n, "claims", k, "value")), k == upheld),
             values.render(entry["claims"][k]["sources"], ("contested", n, "claims", k, "sources")),
             fill('<span class="atlas-upheld">✓ stands</span>: the value, upheld by {}', finding) if k == upheld
             else fill('<span class="atlas-set-aside">set aside</span> by {}', finding)]
            for k in order]
    return Table(f"Settled: {entry['field']}", ["value", "sources", "status"], rows, anchor=contest_anchor(n))


def _claim_value(value: Markup, upheld: bool) -> Markup:
    return fill("<strong>{}</strong>", value) if upheld else value


def named_lead(atlas: Any, record: Record, values: ValueRenderer) -> list[tuple[str, Markup]]:
    """A term page's note of the kernel records that carry its name (derive/terms.py named_kernels), where several do:
    its links lead here rather than to one of them, so the page says which kernel each engine runs under that name."""
    named = named_kernels(atlas.index, record.data["spellings"]) if record.kind == "term" else ()
    if len(named) < 2:
        return []
    kernels = Markup("; ").join(fill("{} ({})", values.ref(f"kernel/{k}"), values.ref(
        f"engine/{atlas.index.get('kernel', k).data['engine']}")) for k in named)
    return [("Kernels of this name", fill(
        "The atlas records {} kernels whose names carry it; each page says what that kernel takes and computes, and an "
        "answer names the one its engine runs: {}.", str(len(named)), kernels))]


def plugin_lead(atlas: Any, record: Record, values: ValueRenderer) -> list[tuple[str, Markup]]:
    """An engine page's note, under its summary, that the engine is another's platform plugin or runs on a platform
    through one (`plugin_of`, read both ways): a reader of the host's page otherwise never learns where its answers
    are the plugin's, and the plugin's page showed the relation only as a row deep in its fields."""
    if record.kind != "engine":
        return []
    relation = record.data.get("plugin_of")
    lead = []
    if relation:
        host, name = values.ref(f"engine/{relation['engine']}"), atlas.index.get("engine", relation["engine"])
        said = escape_text(name.name if name else relation["engine"])
        # where the host answers instead is where its own schemes list candidates, not every other platform: the atlas
        # may record none of the host's dispatch on some (derive/wording.py plugin_elsewhere_host_none)
        own = host_platforms(atlas.index, relation["engine"])
        adds = escape_text(", ".join(relation["platforms"]))
        # what the relation is, in the words the answer card's Release line and explain say it in (wording plugin_of)
        lead.append(("Platform plugin", fill(
            "{} is {} ({}, {}: {}). On platform {} its schemes are {}\u2019s answers, and it runs on no other platform{}; {}.",
            escape_text(record.name), fill_words(words("plugin_of"), host=host, platforms=adds),
            values.ref(f"source/{relation['source']}"), escape_text(relation["locator"]), code_span(relation["quote"]),
            adds, said,
            Markup(" (the steps under \u201cWhy only on its platforms\u201d say why)") if relation.get("elsewhere") else "",
            fill("{} answers with its own schemes on platform {}, the platforms its schemes in the atlas have "
                 "candidate lists for", said, escape_text(", ".join(own))) if own else
            fill("the atlas records none of {}\u2019s own dispatch for any platform", said))))
    by_plugin: dict[str, list[str]] = {}
    for platform, plugin in sorted(through_plugins(atlas.index).get(record.id, {}).items()):
        by_plugin.setdefault(plugin, []).append(platform)
    for plugin, platforms in sorted(by_plugin.items()):
        lead.append(("Platform plugin", fill(
            "{} has no platform {} of its own: it runs there through its platform plugin {}, which the atlas records as "
            "an engine of its own, so there the answers are that engine\u2019s schemes.",
            escape_text(record.name), escape_text(", ".join(platforms)), values.ref(f"engine/{plugin}"))))
    return lead


def plugin_steps_table(record: Record, values: ValueRenderer) -> list[Table]:
    """Why a platform plugin runs on its platforms only (`plugin_of.elsewhere`), a step a row with its source."""
    steps = (record.data.get("plugin_of") or {}).get("elsewhere", [])
    rows = [[escape_text(step["text"]), values.ref(f"source/{step['source']}"),
             escape_text(step["locator"]), code_span(step["quote"]) if "quote" in step else Markup("")] for step in steps]
    return [Table("Why only on its platforms", ["step", "source", "locator", "quote"], rows)] if rows else []


def kind_tables(atlas: Any, record: Record, values: ValueRenderer) -> list[Table]:
    """Computed sections a kind's page carries beyond its own fields."""
    if record.kind == "accelerator":
        columns, rows, note = accelerator_cells(atlas, record, values)
        trap_columns, trap_rows = accelerator_traps(atlas, record, values)
        traps = [Table("Traps on its answers", trap_columns, trap_rows,
                       "Every trap on an answer of its hardware targets that reaches this part, silent first, then by "
                       "severity; each answer says when it bites.", copies_cells=True)] if trap_rows else []
        return [_tally_table(atlas, record, values), *traps,  # (the traps before the long list of cells)
                Table("Support cells of its hardware targets", columns, rows, note, copies_cells=True)]
    if record.kind == "format":
        return [_format_parts_table(atlas, record, values)] + [
            Table(title, columns, rows, note, copies) for title, columns, rows, note, copies in format_sections(atlas, record, values)]
    if record.kind == "engine":
        installs = [_install_table(atlas, record, values)] if record.data.get("default_install") else []
        checks = [_runtime_checks_table(atlas, record, values)] if record.data.get("runtime_checks") else []
        return plugin_steps_table(record, values) + installs + checks + [Table(title, columns, rows, note)
                           for title, columns, rows, note in engine_trap_sections(atlas, record, values)]
    if record.kind == "source":
        return [Table("Where to read it", ["link", "last checked"], where_to_read(atlas, record.id))]
    if record.kind == "scheme":
        scheme_cells = [atlas.views.cells[(record.id, t.id)] for t in targets_in_order(atlas.index)
                        if (record.id, t.id) in atlas.views.cells]  # none on a platform the scheme has not read
        title, columns, rows, note = history_table(atlas, record.id, values)
        return [cells_table(atlas, scheme_cells, values, "target")] + (
            [Table(title, columns, rows, note, copies_cells=True)] if rows else [])
    if record.kind == "hardware-target":
        by_scheme = cells_table(atlas, atlas.views.cells_by_target.get(record.id, []), values, "scheme")
        members_table = (_gfx_members_table(atlas, record, values) if record.data.get("gfx")
                         else _cuda_members_table(atlas, record, values) if record.data["platform"] == "cuda"
                         else _listed_members_table(atlas, record, values))
        return ([members_table] if members_table else []) + [by_scheme]
    if record.kind == "support-matrix":
        return [published_table(atlas, record, values)]
    if record.kind == "kernel":
        return [kernel_uses_table(atlas.views.kernel_uses.get(record.id, []), record.id, values,
                                  atlas.views.expert_layer_schemes)]
    return []


def kernel_uses_table(uses: list[KernelUse], kernel_id: str, values: ValueRenderer,
                      experts: tuple[str, ...] = ()) -> Table:
    """The derived cells the engine selects this kernel for: by scheme, how it comes to be selected, the verdict. A
    kernel page is about the kernel: an expert-layer scheme's (`experts`) verdict is its expert layers' own, and the
    note says so rather than giving the whole checkpoint's (derive/whole_checkpoint.py)."""
    rows = []
    for use in uses:
        targets = joined(", ", [values.ref(f"hardware-target/{t}") for t in use.targets])
        rows.append([badge_of(use.verdict, use.fallback_if), values.ref(f"scheme/{use.scheme}"), targets,
                     _use_when(use, kernel_id, values)])
    # (the verdict first: on a phone the table scrolls sideways, and the answer should not be off screen)
    note = ("Derived from the support cells. Where the engine tries this kernel and declines it, the scheme's page "
            "gives the reason.")
    if any(use.scheme in experts for use in uses):
        note += (" An expert-layer scheme's verdict here is its expert layers' own, which this kernel serves; whether "
                 "the whole checkpoint loads (its other linear layers too) is on the scheme's page.")
    return Table("Where the engine selects it", ["verdict", "scheme", "hardware targets", "how"], rows, note,
                 copies_cells=True)


def _use_when(use: KernelUse, kernel_id: str, values: ValueRenderer) -> Markup:
    if use.role == SELECTED:
        # a default install selects another: that one first, then what the opt-in takes to select this one
        return (fill("a default install selects {} instead; this kernel is selected only with {}",
                     values.ref(f"kernel/{use.instead_of}"), escape_text("; ".join(use.unmet)))
                if use.instead_of else escape_text("selected"))
    if use.role == BY_DEFAULT:
        return fill("a default install selects it; {} needs an opt-in", values.ref(f"kernel/{use.instead_of}"))
    unmet = escape_text("; ".join(use.unmet))
    several = len(use.unmet) > 1
    if use.instead_of == kernel_id:  # kept although its own condition fails: it computes otherwise, or fails
        return fill("selected although {}: {}", "one of its conditions fails" if several else "its condition fails", unmet)
    return fill("when {} {} fails: {}", "one of the conditions of" if several else "the condition of",
                values.ref(f"kernel/{use.instead_of}"), unmet)


def _requirements_as_read(atlas: Any, record: Record, page: str) -> list[dict[str, Any]]:
    """A kernel's requirements as the derivation reads them: one that uses a runtime check shows the check's fields,
    and where its engine states it."""
    engine_id = record.data.get("engine", "")
    engine = atlas.index.get("engine", engine_id)
    checks = runtime_checks(engine.data if engine else None)
    shown: list[dict[str, Any]] = []
    for requirement in record.data.get("requirements", []):
        row: dict[str, Any] = _sizes_in_one_phrase(dict(resolve_requirement(requirement, checks)))
        if "uses" in requirement:
            row["stated in"] = link(f"{engine.name if engine else engine_id}: {requirement['uses']}",
                                    page_of("engine", engine_id) + "#runtime-checks", page)
        shown.append(row)
    return shown


def _sizes_in_one_phrase(row: dict[str, Any]) -> dict[str, Any]:
    """A divisibility group-size requirement with its accepted sizes in the values column as one phrase ("-1, or any
    multiple of 2"): a "values" column beside a "multiple of" column reads as both, where a size passes by either."""
    if "multiple_of" not in row:
        return row
    phrase, shown = accepted_group_sizes(row), {}
    for key, value in row.items():  # the phrase where the first of the two stood, so the columns keep their order
        if key == "multiple_of" and "values" in row:
            continue
        shown["values" if key == "multiple_of" else key] = phrase if key in ("values", "multiple_of") else value
    return shown


def _candidates_as_read(atlas: Any, record: Record, page: str) -> list[dict[str, Any]]:
    """A scheme's candidate lists as the derivation reads them: one marked `no_path` shows its engine's selector,
    failure message and locator, one naming an engine's candidate list shows that list; each says where the engine
    states it (a `no_path` entry's sources are on the engine's page, a named list's stay here, as a typed list's)."""
    engine_id = record.data.get("engine", "")
    engine = atlas.index.get("engine", engine_id)
    stated, lists = no_paths(engine.data if engine else None), named_lists(engine.data if engine else None)
    engine_name = engine.name if engine else engine_id
    shown: list[dict[str, Any]] = []
    for candidates in record.data.get("candidates", []):
        entry = stated.get(candidates["platform"]) if candidates.get("no_path") else None
        named = lists.get(candidates["list"]) if "list" in candidates else None
        if named is not None:
            row: dict[str, Any] = dict(resolve_named(candidates, lists))
            row["stated in"] = link(f"{engine_name}: candidate list {candidates['list']}",
                                    page_of("engine", engine_id) + "#candidate-lists", page)
        elif entry is not None:
            row = {k: v for k, v in resolve_candidates(candidates, stated).items() if k != "sources"}
            row["stated in"] = link(f"{engine_name}: no path on {candidates['platform']}",
                                    page_of("engine", engine_id) + "#no-path", page)
        else:
            row = dict(candidates)
        shown.append(row)
    return shown


def _named_list_links(atlas: Any, record: Record) -> dict[str, str]:
    """The references of the engine's candidate lists a scheme names, at the paths its lists have them as read (its
    kernels link to their pages as a typed list's do)."""
    return {reference.as_read: reference.target for reference in list_references_of(atlas.index, record)}


# How an engine walks a named list, in one column: a table of every field (ten on vLLM's) outgrew the page's width.
WALK_FIELDS = ("selector", "locator", "failure_message", "filter", "promotions")


def _candidate_lists_table(atlas: Any, record: Record, page: str, values: ValueRenderer) -> Table:
    """An engine's named candidate lists, each with the schemes that name it (derived), so a reader reaches the
    schemes from the kernels and sources the lists cite."""
    naming: dict[str, list[Record]] = {}
    for scheme in atlas.index.all("scheme"):
        if scheme.data.get("engine") == record.id:
            for candidates in scheme.data.get("candidates", []):
                if "list" in candidates:
                    naming.setdefault(candidates["list"], []).append(scheme)
    rows = []
    for n, entry in enumerate(record.data["candidate_lists"]):
        path = ("candidate_lists", n)
        walk = joined("; ", [fill("{}: {}", field_label(k).lower(), values.render(entry[k], (*path, k)))
                             for k in WALK_FIELDS if k in entry])
        named_by = joined(", ", [link(s.name, page_of("scheme", s.id), page)
                                 for s in sorted(naming.get(entry["id"], []), key=lambda s: s.name.lower())])
        rows.append([escape_text(entry["id"]), values.render(entry["platform"], (*path, "platform")),
                     values.render(entry["kernels"], (*path, "kernels")), walk,
                     values.render(entry["sources"], (*path, "sources")) if "sources" in entry else Markup(""),
                     named_by])
    return Table(field_label("candidate_lists"), ["id", "platform", "kernels", "how the engine walks it", "sources",
                                                  "named by"], rows)


def _runtime_checks_table(atlas: Any, record: Record, values: ValueRenderer) -> Table:
    """One row per runtime check the engine states, with the text cells show and the kernels that use it (derived)."""
    users: dict[str, list[str]] = {}
    for kernel in atlas.index.all("kernel"):
        if kernel.data.get("engine") == record.id:
            for requirement in kernel.data.get("requirements", []):
                if "uses" in requirement:
                    users.setdefault(requirement["uses"], []).append(kernel.id)
    rows = []
    for n, check in enumerate(record.data["runtime_checks"]):
        path = ("runtime_checks", n)
        source = values.render(check["source"], (*path, "source")) + Markup(", ") + escape_text(check["locator"])
        if "quote" in check:
            source += fill(": “{}”", escape_text(check["quote"]))  # (escaped for the table too: a quote may hold `|`)
        kernels = joined(", ", [values.ref(f"kernel/{k}") for k in sorted(set(users.get(check["id"], [])))])
        condition = escape_text(condition_text(cast(Any, check)))
        if check.get("met_by_install"):
            condition += fill("<br><small>met by the default install facts: {}</small>",
                              escape_text(", ".join(check["met_by_install"])))
        rows.append([fill("<strong>{}</strong><br><small>{}</small>", escape_text(check["id"]),
                          escape_text(f"{check['check']}: {check['value']}")),
                     condition, kernels or Markup("none"), source])
    return Table("Runtime checks", ["check", "condition shown in cells", "used by", "source"], rows,
                 "The packages, compiled ops and switches several kernels test, each stated once here: a kernel's "
                 "requirement names one (`uses`) and states only where it tests it and the message it gives.")


def _trap_mark(key: str, value: Any) -> Markup:
    """A trap's severity as the coloured badge the trap index and the Can I run it? answers show, and its silence as
    theirs ('silent', else 'no')."""
    if key == "severity":
        return fill('<span class="atlas-severity atlas-severity--{}">{}</span>', value, value)
    return Markup('<span class="atlas-silent">silent</span>') if value else escape_text("no")


def _install_table(atlas: Any, record: Record, values: ValueRenderer) -> Table:
    """One row per fact of each default install, with the kernels whose requirements it meets (derived)."""
    meets: dict[str, list[str]] = {}
    for kernel_id, kernel in resolved_kernels(atlas.index).items():
        if kernel.get("engine") == record.id:
            for requirement in kernel.get("requirements", []):
                for fact in requirement.get("met_by_install", []):
                    meets.setdefault(fact, []).append(kernel_id)
    rows = []
    for n, install in enumerate(record.data["default_install"]):
        for field_name in ("provides", "lacks"):
            for m, fact in enumerate(install.get(field_name, [])):
                path = ("default_install", n, field_name, m)
                source = values.render(fact["source"], (*path, "source"))
                if "locator" in fact:
                    source += Markup(", ") + escape_text(fact["locator"])
                kernels = joined(", ", [values.ref(f"kernel/{k}") for k in sorted(set(meets.get(fact["fact"], [])))])
                rows.append([escape_text(install["platform"]), escape_text(install["route"]), Markup(field_name),
                             escape_text(fact["text"]), source, kernels or Markup("none")])
        for m, build in enumerate(install.get("built_for", [])):
            rows.append(_built_for_row(atlas, install, build, ("default_install", n, "built_for", m), values))
    return Table("Default install", ["platform", "how", "provides or lacks", "fact", "source", "requirements it decides"], rows,
                 "What the release read gives when installed as the second column says, fact by fact. A support cell "
                 "counts a kernel requirement a provided fact meets as met, and one a lacking fact would meet as unmet "
                 "unless the reader opts in; it names which, and still says what runs the other way.")


def _built_for_row(atlas: Any, install: Any, built: Any, path: tuple[Any, ...], values: ValueRenderer) -> list[Markup]:
    """One set of binaries an install runs with the architectures it carries code for, and the hardware targets of its
    platform it leaves out."""
    build = build_of(built)
    left_out = [t.id for t in atlas.index.all("hardware-target")
                if t.data["platform"] == install["platform"] and build.missing(t.data)]
    decides = (Markup("every cell that loads on ") + joined(", ", [values.ref(f"hardware-target/{t}") for t in left_out])
               + Markup(" needs a build for it first")) if left_out else Markup("none: it covers every target")
    source = values.render(built["source"], (*path, "source")) + Markup(", ") + escape_text(built["locator"])
    kind = "compute capabilities " if build.cubins or build.ptx else ""
    what = (f"{build.binaries}: " if build.binaries else "") + kind + build.listed()
    return [escape_text(install["platform"]), escape_text(install["route"]), Markup("built for"),
            escape_text(what), source, decides]


def _gfx_members_table(atlas: Any, record: Record, values: ValueRenderer) -> Table:
    rows = [[values.ref(f"accelerator/{a}")] for a in members(atlas.index, record)]
    return Table("Accelerators", ["accelerator"], rows or [[Markup("none recorded")]],
                 f"Every accelerator record whose gfx_target is {record.data['gfx']} (derived, not listed).")


def _cuda_members_table(atlas: Any, record: Record, values: ValueRenderer) -> Table | None:
    parts = [atlas.index.get("accelerator", a) for a in members(atlas.index, record)]
    rows = [[values.ref(f"accelerator/{p.id}"), Markup(escape_text(str(p.data.get("compute_capability", "not recorded"))))]
            for p in parts if p is not None]
    if not rows:
        return None
    capability = record.data.get("compute_capability")
    note = (f"Each part's compute capability as its record states it. The derivation tests the engine's gates with "
            f"{capability}, the value this target records for all of them." if capability is not None else "")
    return Table("Accelerators", ["accelerator", "compute capability"], rows, note)


def _listed_members_table(atlas: Any, record: Record, values: ValueRenderer) -> Table | None:
    """The accelerators a target lists, each with the architecture its own record states (not restated here)."""
    parts = [atlas.index.get("accelerator", a) for a in record.data.get("accelerators", [])]
    rows = [[values.ref(f"accelerator/{p.id}"), escape_text(p.data.get("architecture", "not recorded"))]
            for p in parts if p is not None]
    return Table("Accelerators", ["accelerator", "architecture"], rows) if rows else None


def _format_parts_table(atlas: Any, record: Record, values: ValueRenderer) -> Table:
    parts = atlas.views.parts_by_format[record.id]
    if record.data.get("format_class") != "hardware":
        note = ("A checkpoint format or category is native nowhere: it runs on a part through a kernel that computes in "
                "a hardware format (see the support tables).")
        return Table("Where it computes natively", ["status", "accelerators"],
                     [[Markup("native"), Markup("none: this is not a hardware number format")]], note)
    rows = [[Markup(label), joined(", ", [values.ref(f"accelerator/{a}") for a in ids]) or Markup("none recorded")]
            for label, ids in (("native", parts.native), ("emulated (no matrix instruction takes this format)", parts.emulated))]
    unstated = [a for a in parts.native if record.id in atlas.views.tallies[a].encoding_unstated]
    if unstated:
        rows.insert(1, [Markup("of which the sources say FP8 without naming this encoding"),
                        joined(", ", [values.ref(f"accelerator/{a}") for a in unstated])])
    native, emulated = ([a for a in ids if record.id in atlas.views.unverified_formats.get(a, ())]
                        for ids in (parts.native, parts.emulated))
    for at, status, gaps in ((1, "native", native), (len(rows) + bool(native), "emulated", emulated)):
        if gaps:
            rows.insert(at, [_unverified_label(status), joined(", ", [values.ref(f"accelerator/{a}") for a in gaps])])
    encoding = (" A peak or instruction in this precision counts only where its sources name this format's encoding "
                "or name none: a part whose engines take only another variant of it is not native in it."
                if "encoding" in record.data else "")
    return Table("Where it computes natively", ["status", "accelerators"], rows,
                 "Derived from each accelerator's dense peak figures and the matrix instructions stated for it (by its hardware "
                 "targets, or by the part itself where its targets' parts differ): "
                 "native where the part states a peak in this format's precision or its architecture has an instruction "
                 "in it, emulated where it has neither but states a peak, or its architecture has an instruction, in a wider "
                 "precision the format converts to, or where its hardware target states it has no matrix instruction in "
                 "this precision." + encoding)


def _unverified_label(status: str) -> Markup:
    """The row of a native or emulated list that the format map marks as gaps: a status that rests only on figures
    (and instructions) marked unverified is not stated as plainly as one a primary source backs."""
    return Markup(f"of which {status}, unverified (every figure it rests on is unverified)")


def _tally_table(atlas: Any, record: Record, values: ValueRenderer) -> Table:
    tally = atlas.views.tallies[record.id]
    unknown = Markup("no dense peak recorded")  # a part without peak figures has no count, not a count of zero
    rows = [[Markup("native (derived from its peaks and instructions)"),
             escape_text(tally.native_count) if tally.listed else unknown,
             joined(", ", [values.ref(f"format/{f}") for f in tally.native])],
            [Markup("emulated (derived from its peaks and instructions)"), escape_text(tally.emulated_count) if tally.listed else unknown,
             joined(", ", [values.ref(f"format/{f}") for f in tally.emulated])]]
    if tally.unrated:
        rows.insert(1, [Markup("of which native instruction, no rate recorded"), escape_text(len(tally.unrated)),
                        joined(", ", [values.ref(f"format/{f}") for f in tally.unrated])])
    if tally.encoding_unstated:
        rows.insert(1, [Markup("of which FP8 with the encoding unstated (the sources say FP8 without naming E4M3 or E5M2)"),
                        escape_text(len(tally.encoding_unstated)),
                        joined(", ", [values.ref(f"format/{f}") for f in tally.encoding_unstated])])
    unverified = atlas.views.unverified_formats.get(record.id, ())
    native, emulated = ([f for f in ids if f in unverified] for ids in (tally.native, tally.emulated))
    for at, status, gaps in ((1, "native", native), (len(rows) + bool(native), "emulated", emulated)):
        if gaps:
            rows.insert(at, [_unverified_label(status), escape_text(len(gaps)), joined(", ", [values.ref(f"format/{f}") for f in gaps])])
    for stated in tally.stated:
        rows.append([escape_text(f"{stated.which} (stated by source)"), escape_text(stated.count),
                     values.ref(f"source/{stated.source}")])
    return Table("Native and emulated formats", ["list", "count", "formats or source"], rows,
                 "Counts are derived from the part's dense peaks and the matrix instructions its hardware targets (or, where "
                 "their parts differ, its own record) state; a stated "
                 "count that differs is listed on the gaps page.")


def cells_table(atlas: Any, cells: list[Cell], values: ValueRenderer, axis: str) -> Table:
    """A scheme's cells by target, or a target's by scheme; where one is an expert-layer scheme's whose checkpoint's other
    layers have a scheme of their own, a column with its whole checkpoint (derive/whole_checkpoint.py)."""
    wholes = [whole_markup(atlas, cell, values) for cell in cells]
    shown = any(wholes)
    rows = []
    for cell, whole in zip(cells, wholes):
        other = f"hardware-target/{cell.target}" if axis == "target" else f"scheme/{cell.scheme}"
        rows.append([values.ref(other), verdict_markup(cell)] + ([whole or Markup("—")] if shown else [])
                    + [why_markup(cell, values)])
    note = "Derived from the scheme's candidate kernels and each kernel's requirements, in the engine's order."
    if shown:
        note += (" The verdict of an expert-layer scheme is its expert layers' own; the whole checkpoint is the worse of "
                 "it and the verdict of the scheme of the checkpoint's other linear layers on the same target.")
    return Table("Derived support", [axis, "verdict"] + (["whole checkpoint"] if shown else []) + ["why"], rows,
                 note, copies_cells=True)


def whole_markup(atlas: Any, cell: Cell, values: ValueRenderer) -> Markup:
    """An expert-layer cell's whole checkpoint (derive/whole_checkpoint.py), as explain says it: the worse verdict, which
    of the two cells sets it, and what the other layers' scheme (linked) does on the target; empty for any other cell."""
    whole = atlas.views.whole_checkpoints.get((cell.scheme, cell.target))
    if whole is None:
        return Markup("")
    scheme = values.ref(f"scheme/{whole.other}")
    if whole.verdict is None or whole.others is None:
        return fill_words(words("whole_checkpoint_none"), scheme=scheme)
    if whole.others_lead:  # the other layers' kernels as their answer leads with them, each linked
        lead = kernel_lead(atlas.views.cells[(whole.other, cell.target)], lambda k: values.ref(f"kernel/{k}"), escape_text)
        state = fill_words(whole_state(whole.others.value, "{lead}", True), lead=lead) + escape_text(
            whole_both(whole.both_conditional, whole.experts_why))
    else:
        state = escape_text(whole_state(whole.others.value, whole.why) + whole_both(whole.both_conditional, whole.experts_why))
    said = (badge_of(whole.verdict, whole.fallback_if) + Markup(" (") + escape_text(whole_decided(whole.decided_by))
            + Markup("): ") + fill_words(words("whole_checkpoint"), scheme=scheme, state=state))
    if whole.by_default is None:
        return said
    # a default install gets worse than the verdict (a kernel a default install does not select): said, as a badge
    return said + fill_words(words("whole_checkpoint_default"), layers=whole_default_layers(whole.default_layers),
                             verdict=badge_of(whole.by_default, False))


def verdict_markup(cell: Cell) -> Markup:
    """The verdict as a coloured badge; its class names the verdict so a stylesheet can colour it."""
    return cell_badge(cell)


def why_markup(cell: Cell, values: ValueRenderer) -> Markup:
    """The kernel, what it computes as, the conditions and the default install's choice (or every reason), then, folded
    under "if not" or "more", what the defaults meet and what happens when the conditions fail: a page lists dozens of cells, and
    those parts repeat the conditions at length; the reader opens them for the one cell they ask about."""
    instead = _handed_on(cell, values)
    more: list[Markup] = []
    if not cell.verdict.loads:
        found = reasons_of(cell, values)
        why = joined("<br>", found.per_kernel) if found.per_kernel else found.reason
        failing = next((a for a in cell.attempts if a.after_selection), None)
        if cell.verdict is Verdict.FAILS_AT_RUNTIME and not cell.gate and failing and len(failing.reason) > LONG_REASON:
            why = (Markup("selects ") + values.ref(f"kernel/{failing.kernel}") + Markup(", then fails at run time")
                   + folded("why it fails", [escape_text(failing.reason)]))
        if cell.conditions and not cell.gate:  # the failing kernel is selected only where its conditions hold
            why = escape_text("where " + "; ".join(cell.conditions) + ":") + Markup(" ") + why  # (escape_text trims)
        if cell.otherwise and not cell.gate:
            more.append(otherwise_markup(cell, values.ref, escape_text))
        return instead + why + _more(more, bool(more))
    # where a default install selects another kernel than the cell's, that one first and the cell's as the opt-in's
    parts = [Markup("via ") + kernel_lead(cell, lambda k: values.ref(f"kernel/{k}"), escape_text)]
    if default_lead(cell) and cell.substitution:
        parts.append(Markup("a default install loads the checkpoint as ") + values.ref(f"scheme/{cell.substitution}"))
    if cell.verdict is Verdict.FALLBACK:
        parts.insert(0, instead + escape_text(f"computes as: {cell.computes_as}"))
    accepted = next(a for a in cell.attempts if a.kernel == cell.kernel)
    if cell.conditions:
        parts.append(escape_text("when " + "; ".join(cell.conditions)))
    if cell.assumes:
        more.append(escape_text("the defaults meet " + "; ".join(a.said for a in cell.assumes)))
    if accepted.routes:
        more.append(escape_text("routes: " + ", ".join(accepted.routes)))
    if accepted.limits:
        more.append(escape_text(f"{len(accepted.limits)} shape limit(s), see the kernel's requirements"))
    declined = [a for a in cell.attempts if a.outcome == "no"]
    if declined:
        more.append(escape_text(f"after {len(declined)} candidate(s) declined"))
    if cell.otherwise:
        more.append(otherwise_markup(cell, values.ref, escape_text))
    return joined("; ", parts) + _more(more, bool(cell.otherwise))


# A run-time failure's explanation longer than this is folded under "why it fails" in a table row: the same
# paragraph (up to a thousand characters) otherwise repeats on every target where the scheme selects that kernel.
LONG_REASON = 200


def _more(parts: list[Markup], otherwise: bool) -> Markup:
    return folded("if not, and more" if otherwise and len(parts) > 1 else "if not" if otherwise else "more", parts)


@dataclass(frozen=True)
class Reasons:
    """Why a cell that does not run is refused or fails: one reason (the gate's message, the kernel that fails at run
    time), or each candidate kernel with its own message, in the engine's order. The messages are the records' text,
    escaped; they are fragments written after a colon or as list items, never inside a parenthesis (the engine's
    messages carry their own)."""

    reason: Markup
    per_kernel: tuple[Markup, ...] = ()


def _handed_on(cell: Cell, values: ValueRenderer) -> Markup:
    """For a cell that is another scheme's (the capability gate hands the checkpoint on, or the platform substitutes a
    scheme no setting keeps): that the engine returns that scheme, before its cell. Such a gate is a test, not an
    error: the engine prints no message for it."""
    if not cell.loaded_as:
        return Markup("")
    if not cell.gate_fallback:  # substituted on this platform, and no value of the setting keeps this scheme
        failed = Markup("on this platform")
    else:
        failed = Markup("capability gate fails (a test, not an error: nothing is printed)")
    return (failed + Markup("; ") + escape_text(f"the engine returns {cell.substitute_scheme}") + Markup(" (")
            + values.ref(f"scheme/{cell.loaded_as}") + Markup(") instead: "))


def reasons_of(cell: Cell, values: ValueRenderer) -> Reasons:
    if cell.gate and len(cell.reasons) > 1 and any(r.startswith(GATE_AFTER_PACKAGES) for r in cell.reasons):
        # the engine tests packages first: the default install's message, then the gate's (in the engine's order)
        return Reasons(escape_text("; ".join(cell.reasons)))
    if cell.gate:
        return Reasons(escape_text(f"capability gate: {cell.gate}"))
    if cell.verdict is Verdict.FAILS_AT_RUNTIME:
        chosen = next(a for a in cell.attempts if a.after_selection)
        return Reasons(Markup("selects ") + values.ref(f"kernel/{chosen.kernel}")
                       + escape_text(f", then fails at run time: {chosen.reason}"))
    if not cell.attempts:
        return Reasons(escape_text("; ".join(cell.reasons)))
    return Reasons(Markup(""), tuple(values.ref(f"kernel/{a.kernel}") + Markup(": ")
                                     + escape_text(("selected, then fails at run time: " if a.after_selection else "")
                                                   + a.reason)
                                     for a in cell.attempts))


def published_table(atlas: Any, record: Record, values: ValueRenderer) -> Table:
    """The table as published; beside a cell, the derived verdict where it differs (tables of the modelled release)
    and every release whose own selection code disagreed (tables that list their releases)."""
    grid = atlas.views.published_grids[record.id]
    data = record.data
    rows = []
    for row, cells in zip(data["rows"], grid.rows):
        line = [escape_text(row["label"])]
        for cell in cells:
            shown = escape_text(cell.symbol)
            notes: list[Markup] = []
            if cell.compared and not cell.comparable and not data.get("releases"):
                notes.append(Markup("(no derivation)"))
            elif cell.compared and not cell.agrees:
                notes.append(Markup("derived: ") + escape_text(cell.derived.upper()))
            if cell.observed_otherwise:
                notes.append(escape_text("observed: " + ", ".join(f"{o.observed.upper()} in {o.release}"
                                                                  for o in cell.observed_otherwise)))
            if notes and cell.finding:
                notes.append(values.ref(f"finding/{cell.finding}"))
            if notes:
                shown += Markup(" <small>") + joined(", ", notes) + Markup("</small>")
            line.append(shown)
        rows.append(line)
    note = ("Each listed release's cells are checked against that release's observation (observed: what its own "
            "selection code did, where it differs)." if data.get("releases") else "")
    return Table("As published, with derived cells where they differ", ["row"] + [c["label"] for c in data["columns"]],
                 rows, note)


def kind_index(atlas: Any, kind: str) -> tuple[str, list[tuple[Markup, Markup]]]:
    page = f"{FOLDER_OF_KIND[kind]}/index.md"
    unverified = atlas.views.unverified
    return TITLE_OF_KIND[kind], [(link(r.name, page_of(kind, r.id), page) + unverified_badge(unverified.get(r.ref)),
                                  escape_text(r.data.get("summary", ""))) for r in atlas.index.all(kind)]


def support_grid(atlas: Any, page: str, names: dict[str, str]) -> Table:
    """Every scheme (rows) on every hardware target (columns, in target order): verdict and serving kernel."""
    values = ValueRenderer({}, names, page)
    targets = targets_in_order(atlas.index)
    rows = []
    for scheme in atlas.index.all("scheme"):
        row = [values.ref(scheme.ref)]
        for target in targets:
            cell = atlas.views.cells.get((scheme.id, target.id))
            if cell is None:  # a platform the scheme has not read: no verdict
                row.append(Markup("not derived"))
                continue
            shown = verdict_markup(cell)
            if cell.kernel:
                shown += (Markup("<br><small>") + kernel_lead(cell, lambda k: values.ref(f"kernel/{k}"), escape_text)
                          + Markup("</small>"))
            row.append(shown)
        rows.append(row)
    return Table("Derived support: scheme × hardware target", ["scheme"] + [t.name for t in targets], rows,
                 "Runs if: runs as specified only under the conditions listed on the scheme's page. Fallback: loads, but "
                 "computes at another precision. Follow a scheme for every reason.", copies_cells=True)
