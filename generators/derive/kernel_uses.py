"""Where the engine selects each kernel, read off the derived cells (never typed on the kernel).

A kernel is selected for a cell in one of three ways: it is the cell's kernel (the cell's verdict is its outcome,
failing at run time included); a default install selects it instead of the cell's kernel, which needs an opt-in (the
cell's verdict, unless the step a default install reaches does not run the scheme as specified: a weight-only kernel
it falls back to computes at another precision, whatever the opted-in kernel does); or the engine selects it when the conditions of the kernel it
would select first do not hold (that step's verdict).
A kernel tried and declined is selected for nothing, so it has no use there.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model.verdicts import Verdict
from .cells import Cell
from .default_lead import default_lead, default_verdict

SELECTED, BY_DEFAULT, OTHERWISE = "selected", "default install", "otherwise"
UseKey = tuple[str, str, Verdict, str, tuple[str, ...], bool]  # a KernelUse without its targets


@dataclass(frozen=True)
class KernelUse:
    """One way a kernel is selected for one scheme on a set of hardware targets."""

    scheme: str
    role: str  # SELECTED, BY_DEFAULT or OTHERWISE
    verdict: Verdict  # SELECTED: the cell's; BY_DEFAULT: what a default install gets; OTHERWISE: the step's
    instead_of: str  # SELECTED: the kernel a default install selects instead, or ""; BY_DEFAULT: the kernel that
    #                  needs an opt-in; OTHERWISE: the kernel whose conditions fail
    unmet: tuple[str, ...]  # OTHERWISE: those conditions (any one failing leads here); SELECTED with `instead_of`:
    #                         what the opt-in takes (DefaultLead.opt_in); else ()
    fallback_if: bool  # SELECTED: the cell's Cell.fallback_if (a fallback a default install does not reach); else False
    targets: tuple[str, ...]  # in the order the cells were given


def kernel_uses(cells: list[Cell]) -> dict[str, list[KernelUse]]:
    """Per kernel id, its uses grouped by scheme, role, verdict, the kernel it stands in for and the unmet conditions
    (first seen first)."""
    grouped: dict[str, dict[UseKey, list[str]]] = {}
    for cell in cells:
        for kernel, key in _uses_of(cell):
            targets = grouped.setdefault(kernel, {}).setdefault(key, [])
            if cell.target not in targets:
                targets.append(cell.target)
    return {kernel: [KernelUse(*key, tuple(targets)) for key, targets in uses.items()]
            for kernel, uses in grouped.items()}


def _uses_of(cell: Cell) -> list[tuple[str, UseKey]]:
    uses: list[tuple[str, UseKey]] = []
    by_default = cell.default_kernel if cell.default_kernel != cell.kernel else None
    if cell.kernel is not None:
        lead = default_lead(cell)  # what the opt-in takes, said where the kernel is selected only given it
        uses.append((cell.kernel, (cell.scheme, SELECTED, cell.verdict, by_default or "", lead.opt_in if lead else (),
                                   cell.fallback_if)))
        if by_default:
            uses.append((by_default, (cell.scheme, BY_DEFAULT, default_verdict(cell, by_default), cell.kernel, (), False)))
    for step in cell.otherwise:
        if step.selected is not None and not step.walks:  # (a walk on another device runs its own kernel there)
            uses.append((step.selected, (cell.scheme, OTHERWISE, step.verdict, step.kernel, step.unmet, False)))
    return uses

