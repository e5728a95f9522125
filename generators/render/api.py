"""The data API: the atlas as JSON documents under api/, each with a version field and a JSON Schema.

Written beside the pages by the MkDocs plugin and by `python -m generators build --out`:

- `api/index.json` — every record by kind, with the file holding its document and its page;
- `api/records/<folder>/<id>.json` — one record: validated data, derived views, backlinks;
- `api/cells.json` — every derived support cell with the publisher's claims, findings, traps,
  sources and its observed history per engine release (byte for byte what `python -m generators cells --format json` prints, plus a newline);
- `api/format-map.json` — hardware formats per accelerator, and where each format runs;
- `api/schema/` — the JSON Schema of each document, and the record schemas under `records/`.

Serialised with sorted keys and without NaN, so the same records give the same bytes.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import orjson

from ..derive.candidate_lists import through_lists
from ..derive.answers import Answer
from ..derive.cells import unread_platforms
from ..derive.terms import leads_to, quoted_holding
from ..derive.plugins import host_platforms, through_plugins
from ..derive.format_map import vendor_rank
from ..derive.history import CellHistory
from ..derive.matrix import part_targets, target_label
from ..derive.members import members, targets_of
from ..derive.order import targets_in_order
from ..derive.route_computes import format_precision
from ..derive.source_links import source_link
from ..derive.trap_scope import applies_when
from ..derive.whole_checkpoint import WholeCheckpoint, counted, loads
from ..kinds import FOLDER_OF_KIND, KINDS
from ..model.records import Record
from .api_schemas import SCHEMAS
from .contests import open_contests
from .labels import inline_name

if TYPE_CHECKING:
    from .memo import PageMemo

API_VERSION = 1
ROOT = "api"


def dump(document: Any) -> str:
    """The canonical JSON text of a document: sorted keys, no NaN, two-space indent, UTF-8 as is.

    orjson writes it (ten times as fast as Python's encoder with an indent, and as json.dumps(indent=2) would but for
    the spelling of some floats, 0.00001 for 1e-05: the same value, the same bytes on every run); what it writes
    where the standard encoder refuses (NaN and infinities, objects JSON has no form for) is refused (_refuse_non_json).
    """
    text = orjson.dumps(document, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode("utf-8")
    _refuse_non_json(document)  # after orjson, which refuses a cycle and nesting deeper than 254: the walk ends
    return text


_JSON_LEAVES = (str, int, float, type(None))  # bool is an int


def _refuse_non_json(document: Any) -> None:
    """Raise where json.dumps(document, allow_nan=False) raises and orjson does not: ValueError on a NaN or an
    infinity, TypeError on a value that is none of dict, list, tuple, str, int, float and None (or their subclasses:
    the standard encoder's own tests, while orjson also writes dataclasses, dates, enums and UUIDs)."""
    stack = [document]
    while stack:
        value = stack.pop()
        kind = value.__class__
        if kind is dict:
            stack.extend(value.values())
        elif kind is list or kind is tuple:
            stack.extend(value)
        elif kind is str or kind is int or kind is bool or value is None:
            continue
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
        elif not isinstance(value, _JSON_LEAVES):
            raise TypeError(f"Object of type {kind.__name__} is not JSON serializable")


def api_files(atlas: Any, memo: PageMemo | None = None) -> dict[str, str]:
    """Every API file as {site-relative path: text}, sorted by path.

    With a memo, a document whose reads of the atlas answer as they did when it was last written is not built again
    (render/memo.py, the part "api")."""
    documents: dict[str, Callable[[Any], dict[str, Any]]] = {
        f"{ROOT}/index.json": index_document,
        f"{ROOT}/cells.json": lambda seen: cells_document(seen, answers_of(seen)),
        f"{ROOT}/format-map.json": lambda seen: format_map_document(seen, answers_of(seen))}
    for kind in KINDS:
        for record in atlas.index.all(kind):
            documents[f"{ROOT}/{record_file(record)}"] = functools.partial(_record_document_of, kind, record.id)
    round_ = memo.begin(atlas, {}, {}, part="api") if memo is not None else None
    texts = {}
    for path, build in documents.items():
        write = functools.partial(_written, path, build)
        texts[path] = write(atlas, {}, []) if round_ is None else round_.page(path, write, [])
    if round_ is not None:
        round_.finish()
    for name, schema in SCHEMAS.items():
        texts[f"{ROOT}/schema/{name}"] = dump(schema) + "\n"
    for name, schema in atlas.schemas.documents.items():
        texts[f"{ROOT}/schema/records/{name}"] = dump(schema) + "\n"
    return dict(sorted(texts.items()))


def _written(path: str, build: Callable[[Any], dict[str, Any]], atlas: Any, names: Any, problems: list[Any]) -> str:
    return dump(build(atlas)) + "\n"


def _record_document_of(kind: str, record_id: str, atlas: Any) -> dict[str, Any]:
    """A record's document, the record read through the atlas (so a memo notes the read)."""
    return record_document(atlas, atlas.index.must(kind, record_id))


def answers_of(atlas: Any) -> dict[tuple[str, str], Answer]:
    answers: dict[tuple[str, str], Answer] = atlas.views.answers
    return answers


def cells_json(atlas: Any) -> str:
    """The cells document as text, for the command line (`cells --format json`)."""
    return dump(cells_document(atlas, answers_of(atlas)))


def record_file(record: Record) -> str:
    return f"records/{FOLDER_OF_KIND[record.kind]}/{record.id}.json"


def record_page_url(kind: str, record_id: str) -> str:
    return f"{FOLDER_OF_KIND[kind]}/{record_id}/"


def index_document(atlas: Any) -> dict[str, Any]:
    answered_by = part_targets(atlas.index)
    position = {target.id: n for n, target in enumerate(targets_in_order(atlas.index))}
    plugins = through_plugins(atlas.index)
    unverified = atlas.views.unverified
    records = {kind: [{"id": r.id, "name": r.name, "file": record_file(r), "page": record_page_url(kind, r.id),
                       **_brief(atlas, r, answered_by, position, plugins),
                       **({"unverified": unverified[r.ref]} if r.ref in unverified else {})}
                      for r in atlas.index.all(kind)] for kind in KINDS}
    documents = {"cells": "cells.json", "format_map": "format-map.json", "schema": "schema/"}
    return {"version": API_VERSION, "documents": documents, "records": records}


def _brief(atlas: Any, record: Record, answered_by: dict[str, str], position: dict[str, int],
           plugins: dict[str, dict[str, str]]) -> dict[str, Any]:
    """The few fields a client needs to list and label records without fetching each one (`position`: each hardware
    target's place in the column order, and each engine's platform plugins, computed once per document)."""
    data = record.data
    if record.kind == "source":
        at_commit = {"branch": data["branch"]} if data.get("branch") else {}
        revision = {"revision": data["revision"]} if data.get("revision") or data.get("branch") else {}
        return {"link": source_link(data), "accessed": data.get("accessed"), "type": data.get("type"), **at_commit,
                **revision}
    if record.kind == "gotcha":
        return {"severity": data["severity"], "effect": data["effect"], "silent": data["silent"],
                "summary": data.get("summary", ""), "applies_when": applies_when(data),
                "accelerators": data.get("accelerators", []), **_open_contests(data)}
    if record.kind == "accelerator":
        target = atlas.index.get("hardware-target", answered_by.get(record.id, ""))
        answered = {"target": target.id, "target_label": target_label(atlas.index, target, record)} if target else {}
        return {"vendor": data.get("vendor", ""), "category": data.get("category", ""),
                "inline_name": inline_name(record.name), **answered}
    if record.kind == "hardware-target":
        return {"platform": data["platform"], "label": target_label(atlas.index, record),
                "accelerators": list(members(atlas.index, record)), "order": position[record.id]}
    if record.kind == "scheme":
        unread = unread_platforms(data)
        return {"engine": data.get("engine", ""), "formats": data.get("formats", []), "layers": data.get("layers", "dense"),
                **({"unread": unread} if unread else {})}
    if record.kind == "finding":
        return {"verdict": data.get("verdict", ""), "conclusion": data.get("conclusion", "")}
    if record.kind == "engine":
        found = atlas.views.traps_by_engine.get(record.id)
        return {"category": data.get("category", ""), "version_read": data.get("version_read"),
                "later_releases": [{"release": later["release"], "finding": later["finding"]}
                                   for later in data.get("later_releases", [])],
                "engine_wide_traps": list(found.engine_wide) if found else [],
                **({"through_plugin": plugins[record.id]} if record.id in plugins else {}),
                **({"plugin_of": _plugin_of(atlas, data["plugin_of"])} if data.get("plugin_of") else {}),
                **({"kernels_from": {"engine": data["kernels_from"]["engine"],
                                     "requirement": data["kernels_from"]["requirement"]}}
                   if data.get("kernels_from") else {})}
    if record.kind == "format":
        return {"aliases": data.get("aliases", []), "related": data.get("related", []),
                "precision_label": format_precision(atlas.index, record.id)}
    if record.kind == "term":
        kind, defined = leads_to(atlas.index, record.id, data)
        return {"spellings": data["spellings"], "defined_by": {"kind": kind, "id": defined},
                "quoted": quoted_holding(atlas.views.quoted_stretches, data["spellings"])}
    if record.kind == "kernel" and data.get("without_matrix_instruction"):
        return {"without_matrix_instruction": data["without_matrix_instruction"]}
    return {}


def _open_contests(data: dict[str, Any]) -> dict[str, Any]:
    """A trap's open contests, so an answer listing it can say its claim is contested; nothing when every contest is
    settled or there is none."""
    found = open_contests(data)
    return {"contested": found} if found else {}


def _plugin_of(atlas: Any, relation: Any) -> dict[str, Any]:
    """A plugin engine's relation to its host as the brief serves it: where it runs, where the host answers instead,
    and why (derive/plugins.py)."""
    return {"engine": relation["engine"], "platforms": list(relation["platforms"]),
            "host_platforms": list(host_platforms(atlas.index, relation["engine"])),
            "elsewhere": [{"text": s["text"], "source": s["source"], "locator": s["locator"]}
                          for s in relation.get("elsewhere", [])]}


def cell_entry(answer: Answer, history: CellHistory | None = None, whole: WholeCheckpoint | None = None) -> dict[str, Any]:
    return {**answer.cell.as_dict(), "published": [p.as_dict() for p in answer.published],
            "findings": list(answer.findings), "traps": list(answer.traps),
            "trap_parts": [{"trap": trap, "parts": list(parts)} for trap, parts in answer.trap_parts],
            "sources": list(answer.sources),
            "sources_passed_over": [{"kernel": k, "sources": list(ids)} for k, ids in answer.passed_over],
            "source_groups": [g.as_dict() for g in answer.source_groups],
            "computes_in": list(answer.computes_in), "computes_steps": [s.as_dict() for s in answer.steps],
            "computes_short": answer.computes_short.as_dict() if answer.computes_short else None,
            "needs": [n.as_dict() for n in answer.needs],
            "on_parts": [p.as_dict() for p in answer.on_parts],
            "whole_checkpoint": whole.as_dict() if whole is not None else None,
            "history": history_entry(history)}


def history_entry(history: CellHistory | None) -> dict[str, Any]:
    """A cell's observed outcome per engine release (oldest first) and its flips between consecutive releases."""
    if history is None:
        return {"outcomes": [], "flips": []}
    outcomes = [{"release": o.release, "observation": o.observation, "verdict": o.verdict, "kernel": o.kernel,
                 "kernels": list(o.kernels), "conditions": list(o.conditions), "refusal": o.refusal}
                for o in history.outcomes]
    flips = [{"from_release": f.before.release, "to_release": f.after.release, "from": f.before.summary,
              "to": f.after.summary, "why": list(f.why)} for f in history.flips]
    return {"outcomes": outcomes, "flips": flips}


def cells_document(atlas: Any, answers: dict[tuple[str, str], Answer]) -> dict[str, Any]:
    history = atlas.views.history
    whole = atlas.views.whole_checkpoints
    return {"version": API_VERSION, "cells": [cell_entry(answers[key], history.get(key), whole.get(key))
                                              for key in sorted(answers)]}


def record_document(atlas: Any, record: Record) -> dict[str, Any]:
    links = atlas.index.backlinks.get(record.ref, [])
    backlinks = [{"record": link.source, "field": link.path} for link in links]
    backlinks += [{"record": r.source, "field": r.path, "through": {"record": r.stated.source, "field": r.stated.path}}
                  for r in through_lists(links, atlas.views.list_references, record.ref)]
    backlinks.sort(key=lambda entry: (entry["record"], entry["field"]))
    return {"version": API_VERSION, "kind": record.kind, "id": record.id, "name": record.name,
            "page": record_page_url(record.kind, record.id), "data": record.data,
            "derived": _derived(atlas, record), "backlinks": backlinks}


def _run(answer: Answer, wholes: Mapping[tuple[str, str], WholeCheckpoint]) -> dict[str, Any]:
    cell = answer.cell
    whole = counted(cell, wholes).whole
    return {"scheme": cell.scheme, "target": cell.target, "engine": cell.engine, "verdict": cell.verdict,
            "kernel": cell.kernel, "whole_checkpoint": whole.verdict if whole else None}


def _derived(atlas: Any, record: Record) -> dict[str, Any]:
    """The views of one record; only the kinds whose views come from the cells read them."""
    if record.kind == "source":
        return {"link": source_link(record.data)}
    if record.kind not in ("accelerator", "scheme", "hardware-target", "format"):
        return {}
    answers = answers_of(atlas)
    wholes = atlas.views.whole_checkpoints
    if record.kind == "accelerator":
        tally = atlas.views.tallies[record.id]
        targets = targets_of(atlas.index, record.id, targets_in_order(atlas.index))
        cells = [_run(a, wholes) for t in targets for (s, tt), a in answers.items() if tt == t]
        return {"native_formats": list(tally.native), "emulated_formats": list(tally.emulated),
                "hardware_targets": targets, "cells": cells}
    if record.kind == "scheme":
        return {"cells": [_run(a, wholes) for (s, _), a in answers.items() if s == record.id]}
    if record.kind == "hardware-target":
        return {"cells": [_run(a, wholes) for (_, t), a in answers.items() if t == record.id]}
    return {"runs_on": _runs_of_format(atlas, record.id, answers)}


def _runs_of_format(atlas: Any, format_id: str, answers: dict[tuple[str, str], Answer]) -> list[dict[str, Any]]:
    """The cells that load a model in the format: an expert-layer scheme's where its whole checkpoint loads."""
    schemes = {s.id for s in atlas.index.all("scheme") if format_id in s.data.get("formats", [])}
    wholes = atlas.views.whole_checkpoints
    return [_run(a, wholes) for (s, _), a in answers.items() if s in schemes and loads(a.cell, wholes)]


def format_map_document(atlas: Any, answers: dict[tuple[str, str], Answer]) -> dict[str, Any]:
    accelerators = sorted(atlas.index.all("accelerator"), key=_vendor_key)
    unverified = atlas.views.unverified_formats
    rows = [{"id": a.id, "name": a.name, "vendor": a.data.get("vendor", ""), "category": a.data.get("category", ""),
             "architecture": str(a.data.get("architecture", "")),
             "native": list(atlas.views.tallies[a.id].native), "emulated": list(atlas.views.tallies[a.id].emulated),
             "native_unrated": list(atlas.views.tallies[a.id].unrated),
             "native_encoding_unstated": list(atlas.views.tallies[a.id].encoding_unstated),
             "unverified": list(unverified.get(a.id, ()))}
            for a in accelerators]
    native_on: dict[str, list[str]] = {}
    emulated_on: dict[str, list[str]] = {}
    for row in rows:
        for f in row["native"]:
            native_on.setdefault(f, []).append(row["id"])
        for f in row["emulated"]:
            emulated_on.setdefault(f, []).append(row["id"])
    formats = [{"id": f.id, "name": f.name, "native_on": native_on.get(f.id, []), "emulated_on": emulated_on.get(f.id, []),
                "runs_on": _runs_of_format(atlas, f.id, answers)} for f in atlas.index.all("format")]
    return {"version": API_VERSION, "accelerators": rows, "formats": formats}


def _vendor_key(record: Record) -> tuple[int, str, str]:
    return (*vendor_rank(str(record.data.get("vendor", ""))), record.id)
