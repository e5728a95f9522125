"""What each kernel on a cell's route computes in, in the engine's order.

An engine can pick among several kernels for one cell by a runtime condition (llama.cpp by the number of tokens in a
matmul: MMVQ, then MMQ, then the dequantize + cuBLAS path), and they need not compute alike: MMVQ and MMQ take integer
dot products against 8-bit activations, the cuBLAS path multiplies dequantized weights in FP16. A step says what one
run of consecutive kernels computes in: the hardware formats of a kernel that computes in its scheme's formats, or the
precision a kernel that dequantizes and multiplies in floating point states (`computes_in` on its record), or, where a
setting chooses that precision (bitsandbytes' bnb_4bit_compute_dtype; ONNX Runtime MatMulNBits' accuracy_level, an
integer node attribute whose level 4 quantizes the activations to int8), the precision of its default and the other
values it takes, and what the tools that write checkpoints store. Pure functions; no I/O.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..model.fields import KernelFields
from ..model.index import Index
from .cells import Cell, applies

_PARENTHETICAL = re.compile(r"\s*\([^)]*\)")
PRECISION_OF = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16"}  # a float dtype and the precision it multiplies in



def precision_label(precision: str, encoding: str = "") -> str:
    """A precision as "Computes in" names it: in capitals ('FP16', 'INT8', 'MXFP8'), an FP8 one with its element
    encoding ('FP8 E4M3', 'FP8 E4M3 FNUZ'). It says what the multiply runs in and
    nothing about how the operands are scaled, which is the scheme's and the kernel's: a format's name may describe
    a scaling (as fp8-e4m3's once said 'per-tensor / per-block scaled') that a per-channel kernel does not do.
    Every word comes from the precision or the encoding, so two formats are said alike only where both fields agree
    (check format-encoding keeps those apart): an encoding never replaces the precision ('MXFP8 E5M2', not 'FP8
    E5M2'), and FNUZ, from either field, is said once, last."""
    base, fnuz = re.subn(r"-fnuz$", "", precision)
    element, fnuz_element = re.subn(r"fnuz$", "", encoding)
    return " ".join(w for w in (base.upper(), element.upper(), "FNUZ" if fnuz or fnuz_element else "") if w)


def format_precision(index: Index, format_id: str) -> str:
    """What a cell computing in this hardware format says it computes in: the precision label of its `peak_precision`
    and `encoding`; a format without a peak precision (no hardware format) by its name."""
    record = index.get("format", format_id)
    if record is None:
        return format_id
    if not record.data.get("peak_precision"):
        return str(record.name)
    return precision_label(str(record.data["peak_precision"]), str(record.data.get("encoding", "")))


def precision_said(precision: str) -> str:
    """A step's precision as the card and explain say it: a float one is multiplied after dequantizing the weights; an
    integer one (ONNX Runtime MLAS at accuracy_level 4, int8) dequantizes nothing first: it quantizes the activations
    to it, widens the weights' integer codes to it and applies both scales to the integer sums."""
    if re.fullmatch(r"u?int\d+", precision):
        return f"{precision_label(precision)} (activations quantized to it, the weights' integers widened to it; scales applied to the sums)"
    return f"{precision_label(precision)} after dequantizing the weights"

@dataclass(frozen=True)
class SettingChoice:
    """The setting that chooses a step's precision: its name, the value the step's precision is for, the setting's
    default value, the other values it runs as specified with there with the precision of each, where the engine
    reads it, and where a pre-quantized checkpoint stores the value the engine takes over the user's ('' where none
    does: then the default holds for every load), when the default holds ('' for the answer's own phrase), what
    the tools that write checkpoints store there (writer, value, the builds it applies to, source id), and a note
    beside a value whose precision depends on more than the value (value, note); `carried` where `value` is the one
    the scheme's models carry (its config's `setting_values`) rather than the default. Values are strings: a dtype
    name, or an integer level written in digits."""

    name: str
    value: str
    default: str
    others: tuple[tuple[str, str], ...]
    read_from: str
    stored_in: str = ""
    default_when: str = ""
    written_by: tuple[tuple[str, str, str, str], ...] = ()
    notes: tuple[tuple[str, str], ...] = ()
    carried: bool = False  # `value` is the one the scheme's models carry (config.setting_values), not the default

    def as_dict(self) -> dict[str, Any]:
        noted = dict(self.notes)
        return {"name": self.name, "value": self.value, "default": self.default,
                "others": [{"value": v, "precision": p, **({"note": noted[v]} if v in noted else {})}
                           for v, p in self.others],
                "read_from": self.read_from, "stored_in": self.stored_in or None,
                "default_when": self.default_when or None,
                "written_by": [{"writer": w, "value": v, "when": n or None, "source": s}
                               for w, v, n, s in self.written_by],
                **({"carried": True} if self.carried else {}),
                **({"value_note": noted[self.value]} if self.carried and self.value in noted else {})}


@dataclass(frozen=True)
class ComputeStep:
    """Consecutive kernels of a route that compute alike: in `formats` (hardware format ids), or in `precision` on
    weights they dequantize first."""

    kernels: tuple[str, ...]
    labels: tuple[str, ...]  # each kernel's name without its engine's name or a parenthetical ('MMVQ')
    formats: tuple[str, ...] = ()
    precision: str = ""
    setting: SettingChoice | None = None  # where a setting chooses `precision`

    def as_dict(self) -> dict[str, Any]:
        return {"kernels": list(self.kernels), "labels": list(self.labels), "formats": list(self.formats),
                "precision": self.precision, "setting": self.setting.as_dict() if self.setting else None}


def computing_kernels(cell: Cell) -> tuple[str, ...]:
    """The kernels a cell that runs as specified computes with on a default install, in the engine's order: its own,
    then each the engine selects when a condition of the one before fails and that also runs as specified (a step
    that fails, falls back or refuses computes nothing the scheme specifies; one reached only off the defaults is left
    out; answer_sources.route_kernels is every kernel the answer rests on, declined ones included)."""
    found = [cell.kernel, *(o.selected for o in cell.otherwise
                            if o.selected and o.verdict.runs_as_specified and not o.off_default)]
    return tuple(dict.fromkeys(k for k in found if k))


def kernel_label(index: Index, kernel_id: str) -> str:
    """A kernel's name as a step names it: without its engine's name in front or a parenthetical."""
    kernel = index.get("kernel", kernel_id)
    if kernel is None:
        return kernel_id
    engine = index.get("engine", str(kernel.data.get("engine", "")))
    short = _PARENTHETICAL.sub("", str(kernel.data.get("name", kernel_id))).strip()
    prefix = f"{engine.data.get('name', '')} " if engine else ""
    if prefix.strip() and short.startswith(prefix):
        short = short[len(prefix):]
    return short or kernel_id


def dequantized_precision(index: Index, kernel_id: str) -> str:
    """The precision a kernel states it multiplies dequantized weights in (`computes_in`), or ''."""
    kernel = index.get("kernel", kernel_id)
    stated = kernel.data.get("computes_in") if kernel is not None else None
    return str(stated["precision"]) if stated else ""


def setting_precision(setting: Mapping[str, Any], value: object) -> str:
    """The precision a value of a `computes_in.setting` gives: a float dtype the one it names, an integer level the
    one its `precisions` entry states; '' where neither says (the check computes-in-setting flags that)."""
    if isinstance(value, str):
        return PRECISION_OF.get(value, "")
    for entry in setting.get("precisions", []):
        if entry.get("value") == value and not isinstance(value, bool):
            return str(entry["precision"])
    return ""


def setting_choice(kernel: KernelFields, target: Mapping[str, Any], config: Mapping[str, Any]) -> SettingChoice | None:
    """Where a setting chooses what the kernel multiplies in (`computes_in.setting`): the value it runs as specified
    with on this target, its default unless a requirement of the kernel that does not decline (`declines: false`)
    accepts only some activation dtypes there (bitsandbytes on a CPU with AVX512-BF16 computes in bfloat16 whatever
    the setting, so only bfloat16 runs as specified), and the other values it runs with; where the scheme's `config`
    says which value its models carry (`setting_values`: ONNX Runtime GenAI's CPU builds store accuracy_level 4), that
    value first, if it runs as specified. A default the engine chooses by the hardware (`default_by_target`: vLLM's
    --dtype auto) that the target does not accept gives way to the first value it does, the default there. None
    without a setting, or where no value runs as specified."""
    stated = kernel.get("computes_in")
    setting = stated.get("setting") if stated else None
    if not setting:
        return None
    accepted: set[str] | None = None
    for requirement in kernel.get("requirements", []):
        if (requirement.get("check") == "activation-type" and requirement.get("declines") is False
                and applies(requirement.get("when"), target, config)):  # type: ignore[arg-type]
            values = {str(v) for v in requirement.get("values", [])}
            accepted = values if accepted is None else accepted & values
    kept = [v for v in (setting["default"], *setting["values"])
            if setting_precision(setting, v) and (accepted is None or not isinstance(v, str) or v in accepted)]
    if not kept:
        return None
    default, default_when = setting["default"], setting.get("default_when", "")
    if setting.get("default_by_target") and default not in kept:  # the engine's own choice here (--dtype auto on 7.x)
        default, default_when = kept[0], ""
    carried = next((str(v["value"]) for v in config.get("setting_values", []) if v["setting"] == setting["name"]), None)
    moved = [v for v in kept if str(v) == carried]
    kept = [*moved, *(v for v in kept if str(v) != carried)]
    notes = tuple((str(e["value"]), " ".join(str(e["note"]).split())) for e in setting.get("precisions", [])
                  if e.get("note") and e["value"] in kept)
    written = tuple((str(w["writer"]), str(w["value"]), str(w.get("when", "")), str(w["source"]))
                    for w in setting.get("written_by", []))
    return SettingChoice(setting["name"], str(kept[0]), str(default),
                         tuple((str(v), setting_precision(setting, v)) for v in kept[1:]), setting["read_from"],
                         setting.get("stored_in", ""), default_when, written, notes, bool(moved))


def _as_written(value: str) -> object:
    """A SettingChoice value back as the record writes it: an integer level for digits, else the dtype name."""
    return int(value) if value.isdigit() else value


def compute_steps(index: Index, cell: Cell, formats_of: Callable[[str], tuple[str, ...]],
                  config: Mapping[str, Any] | None = None) -> tuple[ComputeStep, ...]:
    """The route's steps: each kernel's formats (`formats_of`, the answer's derivation for that kernel) or, where a
    kernel states the precision it multiplies dequantized weights in, that precision (where a setting chooses it, the
    precision of the value it runs as specified with on the cell's target, given the scheme's `config`); consecutive
    kernels that compute alike are one step. Empty when no kernel on the route computes in anything the records
    name."""
    target = index.get("hardware-target", cell.target)
    steps: list[ComputeStep] = []
    for kernel in computing_kernels(cell):
        record = index.get("kernel", kernel)
        precision = dequantized_precision(index, kernel)
        setting = setting_choice(record.data, target.data if target else {}, config or {}) if record and precision else None
        precision = setting_precision(record.data["computes_in"]["setting"], _as_written(setting.value)) \
            if setting and record else precision
        formats = () if precision else formats_of(kernel)
        if not precision and not formats:
            continue
        last = steps[-1] if steps else None
        if last is not None and (last.formats, last.precision, last.setting) == (formats, precision, setting):
            steps[-1] = ComputeStep((*last.kernels, kernel), (*last.labels, kernel_label(index, kernel)), formats, precision,
                                    setting)
        else:
            steps.append(ComputeStep((kernel,), (kernel_label(index, kernel),), formats, precision, setting))
    return tuple(steps)
