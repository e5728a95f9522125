"""The "Can I run it?" page's own data: a slim copy of the data API, cut to what the page reads, split by hardware target.

The page (docs/javascripts/can-i-run-it.js) once fetched the whole public API on every load (api/index.json,
api/cells.json and api/format-map.json: about 7.5 MB, half a second of a browser's CPU). Every answer it draws is
for one hardware target (a part stands for its target; a comparison is every scheme on one target), so it now reads:

- `can-i-run-it/data/index.json` — the records it lists and links (every kind but those it never names), each with
  the index's fields but its file; of the sources, findings and observations only those the page's data names (the
  cells' sources, a kernel's source for its instruction, an engine's later-release findings); and from the format
  map each accelerator's emulated and rated (native or emulated) formats (as the cells' notices); and the sentences
  the card says as `explain` does (`words`: derive/wording.WORDS, one table for every answer);
- `can-i-run-it/data/targets/<target>.json` — the cells of one hardware target, fetched when a pick first needs it,
  each as in api/cells.json without the fields the page never reads (`DROPPED`; an attempt keeps `ATTEMPT_FIELDS`).

Both are derived from the public documents' own text, so the page answers exactly what the API says; they are not
part of the public API (no version, no schema, may change with the page): clients read api/. Written compact, with
sorted keys, so the same records give the same bytes.
"""
from __future__ import annotations

import re
from typing import Any

import orjson

from ..derive.emulated_here import notices_of
from ..derive.route_computes import precision_said
from ..derive.wording import WORDS, setting_said
from .functions import strings_in

ROOT = "can-i-run-it/data"
# kinds whose records the page never lists or links
UNUSED_KINDS = ("benchmark", "technique")
# kinds listed only where the page's data names them (by id)
NAMED_ONLY = ("source", "finding", "observation")
# cell fields the page never reads: the observed history, the ids of the findings (it reads `published`), and how a
# verdict was reached past what the card says
DROPPED = ("history", "findings", "substitution", "gate_fallback")
ATTEMPT_FIELDS = ("kernel", "reason", "conditions")


def _compact(document: Any) -> str:
    return orjson.dumps(document, option=orjson.OPT_SORT_KEYS).decode("utf-8") + "\n"


# a string that could be a record's id (ids are lowercase slugs) in a JSON text: its opening quote follows `[`, `,` or
# `:`, never a slug's character, so no match can swallow it; a match inside another string only adds a candidate
_ID_STRING = re.compile(r'"([a-z0-9][a-z0-9._-]*)"')


def _named(texts: list[str]) -> set[str]:
    """Every string in these JSON texts that has the form of an id (and a few more); an id of another form is looked
    for as a whole string in the texts (selector_files)."""
    found: set[str] = set()
    for text in texts:
        found.update(_ID_STRING.findall(text))
    return found


def page_cell(cell: dict[str, Any]) -> dict[str, Any]:
    """A cell of api/cells.json as the page reads it."""
    slim = {key: value for key, value in cell.items() if key not in DROPPED}
    slim["attempts"] = [{key: a[key] for key in ATTEMPT_FIELDS if key in a} for a in cell.get("attempts", [])]
    # a step computing in a precision carries its wording (derive/route_computes.precision_said), which explain uses too
    # and where a setting chooses that precision, which value the step is for (wording.setting_said), as explain says it
    slim["computes_steps"] = [_step_said(step) for step in cell.get("computes_steps", [])]
    return slim


def _step_said(step: dict[str, Any]) -> dict[str, Any]:
    if not step.get("precision"):
        return step
    said = {**step, "said": precision_said(step["precision"])}
    setting = step.get("setting")
    if setting:
        said["setting_said"] = setting_said(setting["name"], setting["value"], setting["default"],
                                            setting.get("stored_in") or "", setting.get("default_when") or "")
    return said


# the API files the page's data is made from (selector_files reads nothing else)
READS = ("api/index.json", "api/cells.json", "api/format-map.json")


def selector_files(api: dict[str, str], kept: dict[str, Any] | None = None) -> dict[str, str]:
    """The page's data files ({site-relative path: text}) from the API files' texts (api_files). With `kept` (a
    long-lived process's, filled by the last call), the last call's files when the texts it read are the same."""
    read = tuple(api[path] for path in READS)
    if kept is not None and kept.get("read") == read:
        files: dict[str, str] = kept["files"]
        return files
    files = _selector_files(*(orjson.loads(text) for text in read))
    if kept is not None:
        kept.update(read=read, files=files)
    return files


def _selector_files(index: dict[str, Any], cells_document: dict[str, Any], format_map: dict[str, Any]) -> dict[str, str]:
    cells = cells_document["cells"]
    by_target: dict[str, list[dict[str, Any]]] = {t["id"]: [] for t in index["records"]["hardware-target"]}
    accelerators = format_map["accelerators"]
    emulated = {a["id"]: a["emulated"] for a in accelerators}
    rated = {a["id"]: a["native"] + a["emulated"] for a in accelerators}
    kernels = {k["id"]: k for k in index["records"]["kernel"]}
    parts = {t["id"]: t["accelerators"] for t in index["records"]["hardware-target"]}
    for cell in cells:
        slim = page_cell(cell)
        notices = notices_of(cell, parts.get(cell["target"], []), emulated, rated, kernels)
        if notices:
            slim["notices"] = notices
        by_target.setdefault(cell["target"], []).append(slim)
    records = {kind: [{key: value for key, value in entry.items() if key != "file"} for entry in entries]
               for kind, entries in index["records"].items() if kind not in UNUSED_KINDS}
    texts = {f"{ROOT}/targets/{target}.json": _compact({"target": target, "cells": entries})
             for target, entries in by_target.items()}
    records["term"] = _quoting_shown(records.get("term", []), by_target)
    searched = [*texts.values(), _compact({kind: entries for kind, entries in records.items() if kind not in NAMED_ONLY})]
    named = _named(searched)
    for kind in NAMED_ONLY:
        records[kind] = [entry for entry in records[kind] if entry["id"] in named or (
            not _ID_STRING.fullmatch(f'"{entry["id"]}"') and any(orjson.dumps(entry["id"]).decode() in text
                                                                 for text in searched))]
    page_index = {"records": records, "targets": sorted(by_target), "words": WORDS}
    return {f"{ROOT}/index.json": _compact(page_index), **texts}


def _quoting_shown(terms: list[dict[str, Any]], by_target: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The terms with only those quoted stretches (the card skips a use inside one) that some cell's text holds: the
    card links terms in cells' text alone, and the rest (findings' and chapters' quotes) made the page's data a
    third larger."""
    shown = "\n".join(sorted({" ".join(text.split()) for entries in by_target.values() for text in strings_in(entries)}))
    return [{**term, "quoted": [q for q in term["quoted"] if q in shown]} if term.get("quoted") else term
            for term in terms]

