"""What a fallback computes in, short: the precision a kept kernel multiplies in when the scheme's own precision does
not hold, read from typed fields rather than from the requirement's prose (a cell's `computes_as`), so a table cell can
say "FP16 or BF16, weight-only" where the answer card says the whole sentence.

The way comes from the `check` of the requirement the kernel keeps going without (`declines: false`) or, where the
kernel is kept because it cannot take quantized activations, from its `activation_handling`:
- weight-only (a `weight-only` check, or a kernel that takes activations as given): the multiply runs in the
  precision the kernel states (`computes_in`), else in the activation dtypes it runs with;
- emulated (a kernel whose handling is `emulated`): the same dtypes, in software;
- dequantized (a `weight-type` check: quantized weights where it takes float ones): the weights dequantized to that
  precision or those dtypes, as weight-only;
- activations-quantized (an `activation-quantized` check on a kernel that quantizes them): its hardware formats.
A requirement whose check alone does not say how the kept kernel computes (a capability bound below which vLLM swaps
Humming's activation type, a scale kind a plugin requantizes to, a weight-only check whose kernel also makes the weights
BF16 at load) states it typed, with the requirement's locator: `computes` with its `way`, and its `precision` where the
kernel's own fields do not give it (the kernel's `computes_in`, or its hardware formats for activations it quantizes,
or else the activation dtypes it runs with). That is read first. Any other requirement states its precision only in
prose: no short form. Pure functions; no I/O.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from ..model.verdicts import Verdict
from .cells import Cell, on_target
from .engine_dtypes import as_seen_by
from .messages import MODEL_DTYPES
from .route_computes import PRECISION_OF, dequantized_precision, format_precision, precision_label


@dataclass(frozen=True)
class FallbackPrecision:
    """How a fallback computes (`way`) and in what (precision labels, as "Computes in" says them)."""

    way: str
    precisions: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"way": self.way, "precisions": list(self.precisions)}


def fallback_precision(index: Index, cell: Cell, config: Mapping[str, Any]) -> FallbackPrecision | None:
    """The short form of a fallback cell's `computes_as` (see the module), or None where the records type none."""
    kernel = index.get("kernel", cell.kernel) if cell.kernel else None
    if cell.verdict is not Verdict.FALLBACK or kernel is None:
        return None
    attempt = next((a for a in cell.attempts if a.kernel == cell.kernel), None)
    # the dtypes the model loads in on this target (vLLM refuses bfloat16 below SM 8.0), as `computes_as` says them
    target = index.get("hardware-target", cell.target)
    config = on_target(config, as_seen_by(target.data, cell.engine)) if target is not None else config
    check = attempt.computes_check if attempt is not None and attempt.computes_as else ""
    handling = kernel.data.get("activation_handling")
    dtypes = (attempt.dtypes if attempt is not None and attempt.dtypes else
              tuple(t for t in config.get("activation_types", []) if t in MODEL_DTYPES))
    if attempt is not None and attempt.computes_as and attempt.computes_stated:
        return _stated(index, kernel.id, kernel.data.get("formats", []), attempt.computes_stated, dtypes)
    if check in ("weight-only", "weight-type", "") and handling in ("as-given", "emulated"):
        stated = dequantized_precision(index, kernel.id)
        way = "dequantized" if check == "weight-type" else "emulated" if handling == "emulated" else "weight-only"
        return _said(way, (precision_label(stated),) if stated else _labels(dtypes))
    if check == "activation-quantized" and handling == "quantized":
        return _said("activations-quantized", _hardware(index, kernel.data.get("formats", [])))
    return None


def _stated(index: Index, kernel: str, formats: Iterable[str], stated: tuple[str, ...],
            dtypes: Iterable[str]) -> FallbackPrecision | None:
    """A requirement's typed `computes`: its precision, else the one the kernel's fields give for the way."""
    way, precision, encoding = stated
    if precision:
        return _said(way, (precision_label(precision, encoding),))
    if way == "activations-quantized":
        return _said(way, _hardware(index, formats))
    dequantized = dequantized_precision(index, kernel)
    return _said(way, (precision_label(dequantized),) if dequantized else _labels(dtypes))


def _hardware(index: Index, formats: Iterable[str]) -> tuple[str, ...]:
    """The precisions of the kernel's hardware formats (those it quantizes activations to)."""
    return tuple(format_precision(index, f) for f in formats
                 if (r := index.get("format", f)) is not None and r.data.get("format_class") == "hardware")


def _labels(dtypes: Iterable[str]) -> tuple[str, ...]:
    return tuple(precision_label(PRECISION_OF[d]) for d in dtypes if d in PRECISION_OF)


def _said(way: str, precisions: tuple[str, ...]) -> FallbackPrecision | None:
    return FallbackPrecision(way, precisions) if precisions else None
