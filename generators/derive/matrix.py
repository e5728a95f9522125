"""The support matrix as a reader sees it: one grid per engine, columns grouped by vendor, short labels, notes.

Pure functions from the index and the answers (derived cells with published claims, traps and
sources) to plain rows; the render stage only writes them out. Column order is the target order;
groups are consecutive columns of one vendor. Labels are shortened from the records' own fields
(compute capability, gfx id and the parts it stands for, CPU architecture and ISA), never typed by hand. AMD
columns, one per gfx id, are compact (a narrow column with a verdict symbol), so the grid keeps the width it
had when AMD was one column.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.index import Index
from ..model.records import Record
from .answers import Answer
from .members import members
from .order import targets_in_order

VENDOR_OF_PLATFORM = {"cuda": "NVIDIA", "rocm": "AMD", "xpu": "Intel", "cpu": "CPU", "tpu": "Google", "hpu": "Intel Gaudi"}
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
    traps: int


@dataclass(frozen=True)
class MatrixRow:
    scheme: str
    label: str
    title: str
    cells: tuple[MatrixCell, ...]


@dataclass(frozen=True)
class Matrix:
    engine: str
    engine_name: str
    release: str
    groups: tuple[Group, ...]
    columns: tuple[Column, ...]
    rows: tuple[MatrixRow, ...]


def column_of(target: Record, parts: tuple[str, ...] = ()) -> Column:
    """Short two-line header for a hardware target, from its platform, capability, gfx id, CPU architecture and ISA.

    `parts` are the names of the accelerators the target stands for; an AMD column is labelled by its gfx id over
    the short product names (gfx942 over MI300X/MI325X), because the gfx id is what vLLM's ROCm gates test.
    """
    data = target.data
    platform = data["platform"]
    vendor = VENDOR_OF_PLATFORM.get(platform, platform)
    found = _PARENTHETICAL.search(target.name)
    detail = found.group(1).replace(",", " ").split()[0] if found else ""  # the full name is the header's title
    capability = data.get("compute_capability")
    title = f"{target.name}: {', '.join(parts)}" if parts and platform == "rocm" else target.name
    if platform == "cuda" and isinstance(capability, int):
        short = f"SM {capability // 10}.{capability % 10}"
    elif platform == "rocm" and data.get("gfx"):
        short = str(data["gfx"])
        detail = "/".join(product_name(p, vendor) for p in parts) or detail
    elif platform == "cpu":
        isa = set(data.get("isa_features", []))
        arch = "x86" if data.get("cpu_arch") == "x86_64" else "Arm" if data.get("cpu_arch") == "aarch64" else str(data.get("cpu_arch", "CPU"))
        short = arch
        detail = ("AMX" if any(f.startswith("amx") for f in isa) else "AVX512" if any(f.startswith("avx512") for f in isa)
                  else "AVX2" if "avx2" in isa else detail or "")
    else:
        short = _PARENTHETICAL.sub("", target.name).replace(vendor, "").strip(" ,") or target.name
        detail = detail or platform.upper()
    return Column(target.id, vendor, short, detail, title, compact=platform == "rocm" and bool(data.get("gfx")))


def target_column(index: Index, target: Record) -> Column:
    """The column header of a target, with the names of the accelerators it stands for."""
    parts = tuple(index.must("accelerator", a).name for a in members(index, target) if index.get("accelerator", a))
    return column_of(target, parts)


def target_label(index: Index, target: Record) -> str:
    """A one-line label for pickers: an AMD target reads 'AMD gfx942 · MI300X/MI325X'; others keep their name."""
    column = target_column(index, target)
    if target.data["platform"] == "rocm" and target.data.get("gfx"):
        return f"{column.vendor} {column.short} · {column.detail}"
    return target.name


def product_name(name: str, vendor: str) -> str:
    """An accelerator's name without its vendor, product line or parenthetical: 'AMD Instinct MI300X' -> 'MI300X'."""
    words = _PARENTHETICAL.sub("", name).split()
    while words and words[0] in (vendor, "Instinct"):
        words = words[1:]
    return " ".join(words) or name


def row_label(scheme: Record, engine_name: str) -> str:
    """The scheme's name without the engine's name in front and without the class name in parentheses."""
    label = _PARENTHETICAL.sub("", scheme.name)
    if label.lower().startswith(engine_name.lower() + " "):
        label = label[len(engine_name) + 1:]
    return label or scheme.name


def note_id(scheme: str, target: str) -> str:
    return f"cell-{scheme}--{target}"


def matrices(index: Index, answers: dict[tuple[str, str], Answer]) -> list[Matrix]:
    """One matrix per engine that has schemes, engines by id; rows are the engine's schemes by id."""
    targets = targets_in_order(index)
    columns = tuple(target_column(index, t) for t in targets)
    groups: list[Group] = []
    for column in columns:
        if groups and groups[-1].vendor == column.vendor:
            groups[-1] = Group(column.vendor, groups[-1].span + 1)
        else:
            groups.append(Group(column.vendor, 1))
    by_engine: dict[str, list[Record]] = {}
    for scheme in index.all("scheme"):
        by_engine.setdefault(scheme.data.get("engine", ""), []).append(scheme)
    out = []
    for engine_id in sorted(by_engine):
        engine = index.get("engine", engine_id)
        name = engine.name if engine else engine_id
        release = str(engine.data.get("version_read", "")) if engine else ""
        rows = tuple(MatrixRow(s.id, row_label(s, name), s.name,
                               tuple(_cell(answers[(s.id, c.target)]) for c in columns)) for s in by_engine[engine_id])
        out.append(Matrix(engine_id, name, release, tuple(groups), columns, rows))
    return out


def _cell(answer: Answer) -> MatrixCell:
    cell = answer.cell
    return MatrixCell(answer, note_id(cell.scheme, cell.target), any(not p.agrees for p in answer.published),
                      len(answer.traps))
