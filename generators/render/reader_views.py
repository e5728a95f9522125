"""Record-page sections written for readers: field labels for people, backlinks grouped by kind, and what a
format or an accelerator page answers first (where it runs, its traps, its benchmarks, its hardware targets' cells).
"""
from __future__ import annotations

import functools
import re
from typing import Any

from markupsafe import Markup

from ..derive.candidate_lists import through_lists
from ..derive.engine_traps import ScopedTrap
from ..derive.members import targets_of
from ..derive.part_traps import part_traps
from ..derive.trap_scope import applies_when
from ..derive.whole_checkpoint import Counted, counted
from ..derive.wording import fill as fill_slots
from ..derive.wording import words
from ..kinds import KINDS, TITLE_OF_KIND
from ..model.records import Record
from .markdown import escape_text, fill, joined, unverified_value
from .matrix import badge_of, cell_badge, folded, kernel_lead
from .values import ValueRenderer

UNITS = {"gb": "GB", "gbs": "GB/s", "w": "W", "tflops": "TFLOPS", "tops": "TOPS", "mb": "MB", "kb": "KB", "gbps": "Gb/s",
         "pct": "%", "ms": "ms", "us": "µs", "bits": "bits"}
WORDS = {"id": "ID", "isa": "ISA", "cpu": "CPU", "cuda": "CUDA", "gpu": "GPU", "gfx": "GFX", "url": "URL", "kv": "KV"}
_INDEX = re.compile(r"\[\d+\]")


@functools.lru_cache(maxsize=4096)
def field_label(key: str) -> str:
    """A schema field name as a person would write it: `memory_bandwidth_gbs` -> 'Memory bandwidth (GB/s)'."""
    words = key.split("_")
    unit = UNITS.get(words[-1]) if len(words) > 1 else None
    if unit:
        words = words[:-1]
    text = " ".join(WORDS.get(w, w) for w in words)
    text = text[:1].upper() + text[1:]
    return f"{text} ({unit})" if unit else text


def backlink_groups(atlas: Any, record: Record, values: ValueRenderer) -> list[tuple[str, list[Markup]]]:
    """Records referencing this one, grouped by kind (kind order), each once, with the fields that refer, in words; a
    scheme walking a named candidate list that cites this record is among them, at the field its list has as read
    (its candidates), beside the engine that states the list."""
    fields: dict[str, list[str]] = {}
    links = atlas.index.backlinks.get(record.ref, [])
    found = [(link.source, link.path) for link in links]
    found += [(r.source, r.as_read) for r in through_lists(links, atlas.views.list_references, record.ref)]
    for source, path in sorted(found):
        label = _referring_field(path)
        if label not in fields.setdefault(source, []):
            fields[source].append(label)
    by_kind: dict[str, list[str]] = {}
    for ref in fields:
        by_kind.setdefault(ref.partition("/")[0], []).append(ref)
    groups = []
    for kind in KINDS:
        refs = sorted(by_kind.get(kind, ()), key=lambda r: (values.names.get(r) or r).lower())
        if refs:
            groups.append((TITLE_OF_KIND[kind], [joined("", (values.ref(r), _small_aside(", ".join(fields[r])))) for r in refs]))
    return groups


@functools.lru_cache(maxsize=4096)
def _referring_field(path: str) -> str:
    """The field a reference sits in, in words: `native_support[2].source` -> 'native support'."""
    return field_label(_INDEX.sub("", path).split(".")[0]).lower()


@functools.lru_cache(maxsize=4096)
def _small_aside(text: str) -> Markup:
    return fill(" <small>({})</small>", text)


def format_sections(atlas: Any, record: Record,
                    values: ValueRenderer) -> list[tuple[str, list[str], list[list[Markup]], str, bool]]:
    """(title, columns, rows, note, whether it copies derived cells) for a format page: where it runs, its traps
    (silent first), its benchmarks."""
    schemes = [s.id for s in atlas.index.all("scheme") if record.id in s.data.get("formats", [])]
    answers = sorted(((a.cell.scheme, a.cell.target), a) for s in schemes for a in atlas.views.answers_by_scheme.get(s, []))
    wholes = atlas.views.whole_checkpoints  # an expert-layer scheme's row: where its whole checkpoint loads
    listed = [(a, shown) for _, a in answers if (shown := counted(a.cell, wholes)).loads]
    runs = [[values.ref(f"hardware-target/{a.cell.target}"), cell_badge(a.cell) + _whole_badge(shown),
             kernel_lead(a.cell, lambda k: values.ref(f"kernel/{k}"), escape_text) if a.cell.kernel else Markup(""), values.ref(f"scheme/{a.cell.scheme}")]
            for a, shown in listed]
    note = "Derived cells of every engine scheme that loads this format; refusals are on the scheme's page."
    if any(shown.whole for _, shown in listed):
        note += (" An expert-layer scheme's verdict is its expert layers' own: it is listed where the whole checkpoint "
                 "loads (the worse of it and the cell of the scheme of the checkpoint's other linear layers), whose "
                 "verdict follows it.")
    traps = [[_severity(atlas, t.id), values.ref(t.ref)] for t in atlas.views.traps_by_format.get(record.id, [])]
    benchmarks = [[values.ref(f"benchmark/{b}")] for b in atlas.views.benchmarks_by_format.get(record.id, [])]
    return [s for s in (
        ("Where it runs", ["hardware target", "verdict", "kernel", "engine scheme"], runs, note, True),
        ("Traps", ["severity", "trap"], traps, "Silent corruption first, then by severity.", False),
        ("Benchmarks", ["benchmark"], benchmarks, "", False)) if s[2]]


def _whole_badge(shown: Counted, said: str = "whole checkpoint:") -> Markup:
    """After an expert-layer cell's badge, its whole checkpoint's verdict (derive/whole_checkpoint.py); else nothing."""
    if shown.whole is None:
        return Markup("")
    return fill("<br><small>{}</small> ", said) + badge_of(shown.verdict, shown.fallback_if)


def engine_trap_sections(atlas: Any, record: Record, values: ValueRenderer) -> list[tuple[str, list[str], list[list[Markup]], str]]:
    """(title, columns, rows, note) for an engine page: its engine-wide traps, then the traps naming it more narrowly."""
    found = atlas.views.traps_by_engine.get(record.id)
    if found is None:
        return []
    wide = [[_severity(atlas, t), values.ref(f"gotcha/{t}")] for t in found.engine_wide]
    scoped = [[_severity(atlas, t.trap), values.ref(f"gotcha/{t.trap}"), _trap_scope(t, values)] for t in found.scoped]
    return [s for s in (
        ("Engine-wide traps", ["severity", "trap"], wide,
         f"Not specific to a format, kernel or hardware: they concern every use of {record.name}"
         + (", so Can I run it? shows them beside each of its answers, apart from the traps of the cell. " if found.answered
            else ". ") + "Silent corruption first, then by severity."),
        ("Traps in a narrower scope", ["severity", "trap", "where"], scoped,
         "Each applies only where it says; a support answer lists it when its whole scope matches. "
         "Silent corruption first, then by severity.")) if s[2]]


def _severity(atlas: Any, trap_id: str) -> Markup:
    data = atlas.index.must("gotcha", trap_id).data
    return (fill('<span class="atlas-severity atlas-severity--{0}">{0}</span>', data["severity"])
            + (Markup(' <span class="atlas-silent">silent</span>') if data["silent"] else Markup("")))


def _trap_scope(trap: ScopedTrap, values: ValueRenderer) -> Markup:
    parts = [(word, [values.ref(f"{kind}/{i}") for i in ids]) for word, kind, ids in (
        ("schemes", "scheme", trap.schemes), ("formats", "format", trap.formats), ("kernels", "kernel", trap.kernels),
        ("parts", "accelerator", trap.accelerators), ("on parts computing natively", "format", trap.native))]
    parts.append(("platforms", [escape_text(p) for p in trap.platforms]))
    parts.append(("layers", [escape_text(trap.layers)] if trap.layers else []))
    parts.append(("releases", [escape_text(trap.releases)] if trap.releases else []))
    return joined("; ", [fill("{}: {}", word, joined(", ", refs)) for word, refs in parts if refs])


def accelerator_cells(atlas: Any, record: Record, values: ValueRenderer) -> tuple[list[str], list[list[Markup]], str]:
    """Columns, rows and note: the derived support cells of the hardware targets this accelerator belongs to, each with
    the verdict on this part (its host or its own compute capability may add a need: derive/parts.py) and, for an
    expert-layer scheme, its whole checkpoint's under it, as the hardware target's page gives it."""
    targets = targets_of(atlas.index, record.id)
    cells = sorted((c.scheme, c.target, c) for t in targets for c in atlas.views.cells_by_target.get(t, []))
    wholes = atlas.views.whole_checkpoints
    rows = [[values.ref(f"hardware-target/{t}"), values.ref(f"scheme/{s}"),
             _verdict_here(atlas, c, record.id) + _whole_here(atlas, counted(c, wholes), record.id),
             kernel_lead(c, lambda k: values.ref(f"kernel/{k}"), escape_text) if c.kernel and c.verdict.loads
             else escape_text("")]
            for s, t, c in cells]
    experts = any(counted(c, wholes).whole for _, _, c in cells)
    note = ("An expert-layer scheme's verdict is its expert layers' own; under it, the whole checkpoint's: the worse of "
            "it and the verdict of the scheme of the checkpoint's other linear layers, as the hardware target's page "
            "gives it. The model loads only where the whole checkpoint does.") if experts else ""
    return ["hardware target", "scheme", "verdict", "kernel"], rows, note


def _whole_here(atlas: Any, shown: Counted, part_id: str) -> Markup:
    """An expert-layer cell's whole checkpoint on a part's page: the target's (whole_checkpoint.counted), said as the
    target's where either layers' cell has an answer of its own on this part (derive/parts.py), which it does not
    account for."""
    whole = shown.whole
    if whole is None:
        return Markup("")
    own = any(p.part == part_id for key in ((whole.scheme, whole.target), (whole.other, whole.target))
              if (answer := atlas.views.answers.get(key)) for p in answer.on_parts)
    return _whole_badge(shown, "whole checkpoint on the target:" if own else "whole checkpoint:")


def accelerator_traps(atlas: Any, record: Record, values: ValueRenderer) -> tuple[list[str], list[list[Markup]]]:
    """Columns and rows: every trap on an answer for this part (derive/part_traps.py), in reading order, with its
    severity, whether it is silent, and the schemes whose answers carry it (folded)."""
    found = part_traps(atlas.views.answers, targets_of(atlas.index, record.id), record.id,
                       [trap.id for trap in atlas.views.traps])
    rows = []
    for trap_id, schemes in found:
        trap = atlas.index.get("gotcha", trap_id).data
        rows.append([values.ref(f"gotcha/{trap_id}") + _when_said(trap),
                     fill('<span class="atlas-severity atlas-severity--{}">{}</span>', trap["severity"], trap["severity"]),
                     Markup('<span class="atlas-silent">silent</span>') if trap.get("silent") else escape_text("no"),
                     folded(f"{len(schemes)} scheme{'s' if len(schemes) != 1 else ''}",
                            [values.ref(f"scheme/{s}") for s in schemes])])
    return ["trap", "severity", "silent", "on the answers of"], rows


def _when_said(trap: Any) -> Markup:
    """' (only on an Arm (aarch64) host)' where the trap bites beyond the answers that carry it (its `applies_when`),
    as explain and the selector say it: no target models the host, so a T4 reader on x86_64 must see that the aarch64
    wheels' blocker is not theirs."""
    when = applies_when(trap)
    return Markup(" (") + escape_text(fill_slots(words("trap_when"), when=when)) + Markup(")") if when else Markup("")


def _verdict_here(atlas: Any, cell: Any, part_id: str) -> Markup:
    """The cell's verdict badge on this part: the target's, or the part's where it needs more (derive/parts.py)."""
    answer = atlas.views.answers.get((cell.scheme, cell.target))
    part = next((p for p in answer.on_parts if p.part == part_id), None) if answer else None
    if part is None:
        return cell_badge(cell)
    return badge_of(part.verdict, part.fallback_if) + fill(" on this part, which first needs {}", "; ".join(part.conditions))


CITATION_KEYS = ("source", "locator", "note", "quote")


def folded_rows(key: str, items: list[dict[str, Any]], values: ValueRenderer) -> tuple[list[str], list[list[Markup]]] | None:
    """Sourced figures with sources that agree folded into one row with several source links, or None when the
    items are not sourced figures. A row whose dimensions (the text fields) match another row's but whose numbers
    differ is flagged: the sources disagree (not where they differ only in a flag, such as one calling its equal
    figure an estimate)."""
    if not items or not all(isinstance(i, dict) and "source" in i for i in items):
        return None
    identity = [k for item in items for k in item if k not in CITATION_KEYS]
    identity = list(dict.fromkeys(identity))
    groups: dict[tuple[Any, ...], list[int]] = {}
    for n, item in enumerate(items):
        groups.setdefault(tuple(_hashable(item.get(k)) for k in identity), []).append(n)
    dimension = [n for n, k in enumerate(identity) if not all(isinstance(i.get(k), (int, float)) for i in items if k in i)]
    figures = [n for n, k in enumerate(identity) if n not in dimension and not any(isinstance(i.get(k), bool) for i in items)]
    seen: dict[tuple[Any, ...], set[tuple[Any, ...]]] = {}  # per dimensions, the distinct figures stated
    for ident in groups:  # (rows that differ only in a flag such as `estimate` state the same figure: no dispute)
        seen.setdefault(tuple(ident[n] for n in dimension), set()).add(tuple(ident[n] for n in figures))
    rows = []
    for ident, members in groups.items():
        first = items[members[0]]
        cells = [values.render(first[k], (key, members[0], k)) if k in first else Markup("") for k in identity]
        if first.get("unverified"):  # the figure reads as unverified where it stands; the reason links its finding
            cells = [unverified_value(cell, first["unverified"]) if n in figures and k in first
                     else values.naming_findings(first[k]) if k == "unverified" else cell
                     for n, (k, cell) in enumerate(zip(identity, cells))]
        links = joined(", ", [values.render(items[n]["source"], (key, n, "source")) for n in members])
        flag = len(seen[tuple(ident[n] for n in dimension)]) > 1
        # one line per source's note, in the order of the links: notes are sentences, and "; " after a full stop read ".;"
        notes = joined("<br>", [escape_text(items[n]["note"]) for n in members if items[n].get("note")])
        rows.append(cells + [links + (Markup(' <span class="atlas-disagree">⚠ sources disagree</span>') if flag else Markup("")),
                             notes])
    return [field_label(k).lower() for k in identity] + ["sources", "notes"], rows


def _hashable(value: Any) -> Any:
    return repr(value) if isinstance(value, (list, dict)) else value
