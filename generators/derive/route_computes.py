"""What each kernel on a cell's route computes in, in the engine's order.

An engine can pick among several kernels for one cell by a runtime condition (llama.cpp by the number of tokens in a
matmul: MMVQ, then MMQ, then the dequantize + cuBLAS path), and they need not compute alike: MMVQ and MMQ take integer
dot products against 8-bit activations, the cuBLAS path multiplies dequantized weights in FP16. A step says what one
run of consecutive kernels computes in: the hardware formats of a kernel that computes in its scheme's formats, or the
precision a kernel that dequantizes and multiplies in floating point states (`computes_in` on its record). Pure
functions; no I/O.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from .cells import Cell

_PARENTHETICAL = re.compile(r"\s*\([^)]*\)")


@dataclass(frozen=True)
class ComputeStep:
    """Consecutive kernels of a route that compute alike: in `formats` (hardware format ids), or in `precision` on
    weights they dequantize first."""

    kernels: tuple[str, ...]
    labels: tuple[str, ...]  # each kernel's name without its engine's name or a parenthetical ('MMVQ')
    formats: tuple[str, ...] = ()
    precision: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"kernels": list(self.kernels), "labels": list(self.labels), "formats": list(self.formats),
                "precision": self.precision}


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


def compute_steps(index: Index, cell: Cell,
                  formats_of: Callable[[str], tuple[str, ...]]) -> tuple[ComputeStep, ...]:
    """The route's steps: each kernel's formats (`formats_of`, the answer's derivation for that kernel) or, where a
    kernel states the precision it multiplies dequantized weights in, that precision; consecutive kernels that compute
    alike are one step. Empty when no kernel on the route computes in anything the records name."""
    steps: list[ComputeStep] = []
    for kernel in computing_kernels(cell):
        precision = dequantized_precision(index, kernel)
        formats = () if precision else formats_of(kernel)
        if not precision and not formats:
            continue
        last = steps[-1] if steps else None
        if last is not None and (last.formats, last.precision) == (formats, precision):
            steps[-1] = ComputeStep((*last.kernels, kernel), (*last.labels, kernel_label(index, kernel)), formats, precision)
        else:
            steps.append(ComputeStep((kernel,), (kernel_label(index, kernel),), formats, precision))
    return tuple(steps)
