"""The support matrix as a reader sees it: one grid per engine, columns grouped by vendor, short labels, notes.

Pure functions from the index and the answers (derived cells with published claims, traps and
sources) to plain rows; the render stage only writes them out. Column order is the target order;
groups are columns of one vendor. A target's vendor is the `vendor` of the accelerator records it
lists (an x86 AVX512 profile listing an AMD EPYC sits under AMD, next to AMD's GPUs), else its
platform's vendor, else its CPU architecture; vendors keep the order of their first target.
Labels are shortened from the records' own fields (compute capability, gfx id and the parts it stands for,
CPU architecture and ISA, the members' architecture as the generation), never typed by hand. AMD columns, one
per gfx id, are compact (a narrow column with a verdict symbol), so the grid keeps the width it had when AMD
was one column.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.index import Index
from ..model.records import Record
from .answers import Answer
from .cells import unread_platforms
from .members import members as target_members
from .order import targets_in_order

VENDOR_OF_PLATFORM = {"cuda": "NVIDIA", "rocm": "AMD", "xpu": "Intel", "tpu": "Google", "hpu": "Intel Gaudi"}
ARCH_NAME = {"x86_64": "x86", "aarch64": "Arm"}
CPU_VENDOR_NAME = {"AuthenticAMD": "AMD", "GenuineIntel": "Intel"}  # the CPUID vendor strings a target's cpu_vendors hold
_PARENTHETICAL = re.compile(r"\s*\(([^)]*)\)\s*$")


@dataclass(frozen=True)
class Column:
    target: str
    vendor: str
    short: str
    detail: str
    title: str
    compact: bool = False  # a narrow column: one per AMD gfx id, so the grid keeps its width


@dataclass(frozen=True)
class Group:
    vendor: str
    span: int


@dataclass(frozen=True)
class MatrixCell:
    answer: Answer
    note: str  # the anchor of this cell's note
    disagrees: bool  # a published table says otherwise
    traps: int  # traps on every part of the target
    part_traps: int = 0  # traps limited to some of its parts (Answer.trap_parts), counted apart


@dataclass(frozen=True)
class MatrixRow:
    scheme: str
    label: str
    title: str
    cells: tuple[MatrixCell | None, ...]  # None: the scheme has not read the column's platform (no cell derived)


@dataclass(frozen=True)
class Unread:
    """Targets an engine's grid leaves out: their platform's dispatch is not read, for the reason its schemes give."""

    platform: str
    reason: str
    targets: tuple[str, ...]


@dataclass(frozen=True)
class LaterRelease:
    """A release newer than the one the grid describes, compared with it by a finding (the engine's `later_releases`)."""

    release: str
    published: str
    finding: str
    summary: str


@dataclass(frozen=True)
class Matrix:
    engine: str
    engine_name: str
    release: str
    groups: tuple[Group, ...]
    columns: tuple[Column, ...]
    rows: tuple[MatrixRow, ...]
    unread: tuple[Unread, ...] = ()
    later: tuple[LaterRelease, ...] = ()  # newer releases compared but not modelled, as the engine record lists them


def column_of(target: Record, index: Index | None = None) -> Column:
    """Short two-line header for a hardware target, from its platform, capability, gfx id, CPU architecture, ISA and members.

    A CUDA column is labelled by the compute capabilities its members state (SM 12.0/12.1 when GB10 sits beside the
    RTX 50 parts), the target's own only when no member states one. An AMD column is labelled by its gfx id over the
    members' short product names (gfx942 over MI300X/MI325X),
    because the gfx id is what vLLM's ROCm gates test.
    """
    data = target.data
    platform = data["platform"]
    members = _members(target, index)
    vendor = target_vendor(target, members)
    found = _PARENTHETICAL.search(target.name)
    detail = found.group(1).replace(",", " ").split()[0] if found else ""  # the full name is the header's title
    capability = data.get("compute_capability")
    gfx = data.get("gfx")
    title = f"{target.name}: {', '.join(m.name for m in members)}" if gfx and members else target.name
    if platform == "cuda" and isinstance(capability, int):
        short = "SM " + "/".join(member_capabilities(members) or (f"{capability // 10}.{capability % 10}",))
    elif platform == "rocm" and gfx:
        short = str(gfx)
        detail = "/".join(product_name(m.name, vendor) for m in members) or detail
    elif platform == "cpu":
        isa = set(data.get("isa_features", []))
        level = ("AMX" if any(f.startswith("amx") for f in isa) else "AVX512" if any(f.startswith("avx512") for f in isa)
                 else "AVX2" if "avx2" in isa else str(data.get("cpu_arch", "")))
        generations = list(dict.fromkeys(g for g in (_generation(m) for m in members) if g))
        short = "CPU"
        detail = " · ".join([level, *generations]) if level else " · ".join(generations)
    else:
        short = _PARENTHETICAL.sub("", target.name).replace(vendor, "").strip(" ,") or target.name
        detail = detail or platform.upper()
    return Column(target.id, vendor, short, detail, title, compact=platform == "rocm" and bool(gfx))


def target_label(index: Index, target: Record, part: Record | None = None) -> str:
    """A one-line label for pickers and answer titles, with no parenthesis inside another when it is set beside a part.

    An AMD target reads 'AMD gfx942 · MI300X/MI325X'; another its name with the trailing parenthetical after a middle
    dot ('NVIDIA SM 8.6 · Ampere'). Beside a part whose name starts with the target's vendor, a GPU target named by
    its compute capability or gfx id says the vendor once: 'NVIDIA A10 — SM 8.6 · Ampere' (see `part_label`); a
    target named by a word keeps it ('Intel Arc B580 — Intel GPU · XPU').
    """
    column = column_of(target, index)
    found = _PARENTHETICAL.search(target.name)
    label = (f"{column.vendor} {column.short} · {column.detail}" if column.compact
             else f"{target.name[:found.start()]} · {found.group(1)}" if found else target.name)
    vendor = column.vendor + " "
    if (part is not None and target.data["platform"] in ("cuda", "rocm") and part.name.startswith(vendor)
            and label.startswith(vendor)):
        return label[len(vendor):]
    return label


def part_label(index: Index, part: Record, target: Record) -> str:
    """A part with the target its answers come from: 'NVIDIA A10 — SM 8.6 · Ampere'."""
    return f"{part.name} — {target_label(index, target, part)}"


def part_targets(index: Index) -> dict[str, str]:
    """Each accelerator's target for answers: the first target, in target order, that stands for it."""
    found: dict[str, str] = {}
    for target in targets_in_order(index):
        for accelerator in target_members(index, target):
            found.setdefault(accelerator, target.id)
    return found


def product_name(name: str, vendor: str) -> str:
    """An accelerator's name without its vendor, product line or parenthetical: 'AMD Instinct MI300X' -> 'MI300X'."""
    words = _PARENTHETICAL.sub("", name).split()
    while words and words[0] in (vendor, "Instinct"):
        words = words[1:]
    return " ".join(words) or name


def target_vendor(target: Record, members: list[Record]) -> str:
    """The vendors of the target's accelerators ('AMD', or 'AMD / Intel'); else the platform's; else the CPU architecture.

    A CPU target whose own `cpu_vendors` name several vendors is the CPU architecture's ('x86'), whichever parts are
    recorded: an AVX2 column holding only AMD EPYC parts still answers for Intel CPUs with AVX2."""
    stated = target.data.get("cpu_vendors") or []
    if len(stated) > 1:
        arch = str(target.data.get("cpu_arch", ""))
        return ARCH_NAME.get(arch, arch) or str(target.data["platform"]).upper()
    if len(stated) == 1 and stated[0] in CPU_VENDOR_NAME:
        return CPU_VENDOR_NAME[stated[0]]
    vendors = list(dict.fromkeys(str(m.data["vendor"]) for m in members if m.data.get("vendor")))
    if vendors:
        return " / ".join(vendors)
    platform = str(target.data["platform"])
    if platform in VENDOR_OF_PLATFORM:
        return VENDOR_OF_PLATFORM[platform]
    arch = str(target.data.get("cpu_arch", ""))
    return ARCH_NAME.get(arch, arch) or platform.upper()


def member_capabilities(members: list[Record]) -> tuple[str, ...]:
    """The compute capabilities the members state ('12.0', '12.1'), each once, in numeric order."""
    stated = {str(m.data["compute_capability"]) for m in members if m.data.get("compute_capability")}
    return tuple(sorted(stated, key=lambda c: tuple(int(p) for p in c.split("."))))


def _members(target: Record, index: Index | None) -> list[Record]:
    if index is None:
        return []
    found = (index.get("accelerator", a) for a in target_members(index, target))
    return [m for m in found if m is not None]


def _generation(accelerator: Record) -> str:
    return _PARENTHETICAL.sub("", str(accelerator.data.get("architecture", "") or "")).strip()


def by_vendor(columns: list[Column]) -> list[Column]:
    """Columns regrouped so each vendor's are adjacent: vendors in the order of their first column, then column order."""
    first: dict[str, int] = {}
    for n, column in enumerate(columns):
        first.setdefault(column.vendor, n)
    return sorted(columns, key=lambda c: first[c.vendor])


def group_columns(columns: list[Column] | tuple[Column, ...]) -> list[tuple[str, int]]:
    """(vendor, span) for each run of consecutive columns of one vendor."""
    groups: list[tuple[str, int]] = []
    for column in columns:
        if groups and groups[-1][0] == column.vendor:
            groups[-1] = (column.vendor, groups[-1][1] + 1)
        else:
            groups.append((column.vendor, 1))
    return groups


def row_label(scheme: Record, engine_name: str) -> str:
    """The scheme's name without the engine's name in front and without the class name in parentheses."""
    label = _PARENTHETICAL.sub("", scheme.name)
    if label.lower().startswith(engine_name.lower() + " "):
        label = label[len(engine_name) + 1:]
    return label or scheme.name


def note_id(scheme: str, target: str) -> str:
    return f"cell-{scheme}--{target}"


def matrices(index: Index, answers: dict[tuple[str, str], Answer]) -> list[Matrix]:
    """One matrix per engine that has schemes, engines by id; rows are the engine's schemes by id. A target is a
    column when one of the engine's schemes has a cell there; the targets none has read are listed as unread, by
    platform and reason, so the grid says why they are missing rather than showing a verdict nobody derived."""
    targets = targets_in_order(index)
    every_column = by_vendor([column_of(t, index) for t in targets])
    by_engine: dict[str, list[Record]] = {}
    for scheme in index.all("scheme"):
        by_engine.setdefault(scheme.data.get("engine", ""), []).append(scheme)
    out = []
    for engine_id in sorted(by_engine):
        engine = index.get("engine", engine_id)
        name = engine.name if engine else engine_id
        release = str(engine.data.get("version_read", "")) if engine else ""
        schemes = by_engine[engine_id]
        columns = tuple(c for c in every_column if any((s.id, c.target) in answers for s in schemes))
        groups = tuple(Group(vendor, span) for vendor, span in group_columns(columns))
        rows = tuple(MatrixRow(s.id, row_label(s, name), s.name,
                               tuple(_cell(answers[(s.id, c.target)]) if (s.id, c.target) in answers else None
                                     for c in columns)) for s in schemes)
        shown = {c.target for c in columns}
        out.append(Matrix(engine_id, name, release, groups, columns, rows,
                          _unread(schemes, [t for t in targets if t.id not in shown]), later_releases(engine)))
    return out


def later_releases(engine: Record | None) -> tuple[LaterRelease, ...]:
    """The engine record's later releases, in its order (newest first); none without a record."""
    if engine is None:
        return ()
    return tuple(LaterRelease(str(later["release"]), str(later["published"]), later["finding"], later["summary"])
                 for later in engine.data.get("later_releases", []))


def _unread(schemes: list[Record], left_out: list[Record]) -> tuple[Unread, ...]:
    """The left-out targets by (platform, the reason the schemes give for not reading it), in target order."""
    found: dict[tuple[str, str], list[str]] = {}
    for target in left_out:
        platform = str(target.data["platform"])
        for scheme in schemes:
            reason = unread_platforms(scheme.data).get(platform)
            if reason is not None:
                found.setdefault((platform, reason), [])
                if target.id not in found[(platform, reason)]:
                    found[(platform, reason)].append(target.id)
    return tuple(Unread(platform, reason, tuple(ids)) for (platform, reason), ids in found.items())


def _cell(answer: Answer) -> MatrixCell:
    cell = answer.cell
    return MatrixCell(answer, note_id(cell.scheme, cell.target), any(not p.agrees for p in answer.published),
                      len(answer.whole_traps), len(answer.trap_parts))
