"""Observed cells against derived cells: where the engine's own selection and the records' reading disagree.

Pure functions. Both sides are reduced to what a selection run can see: whether the engine selects a kernel
(derived `runs`, `runs-if`, `fallback` and `fails-at-runtime` all mean it does) and which kernel classes it may
select. `selection_view` is the one place that maps a derived verdict onto that, so a change of the derived
vocabulary is absorbed there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..derive.cells import Cell
    from ..model.fields import ObservationCells

# Derived verdicts that mean "the engine selects a kernel" (current and forthcoming vocabulary).
SELECTS = {"yes", "conditional", "runs", "runs-if", "fallback", "fails-at-runtime"}


@dataclass(frozen=True)
class SelectionView:
    """What a derived cell says a selection run should show: does it select, and which kernel classes may it be."""

    selects: bool
    kernels: frozenset[str]
    first: str | None


def selection_view(cell: Cell, class_of: dict[str, str]) -> SelectionView:
    """The derived cell reduced to selection: the kernels the walk accepts (conditionally or not) up to the first
    unconditional one, plus kernels an external gate rejects only after the engine selected them, plus the kernel of
    the scheme the engine substitutes by default when a setting is needed to keep this one, plus the kernel a default
    install selects (where a setting filters the list, the whole list's choice and every kernel its walk accepts)."""
    verdict = getattr(cell.verdict, "value", cell.verdict)
    walked = (*cell.attempts, *getattr(cell, "default_attempts", ()))  # a filtered list's cell: the default's walk too
    accepted = [a.kernel for a in walked if a.outcome != "no" or getattr(a, "after_selection", False)]
    if getattr(cell, "substitute_kernel", ""):  # with default settings the engine runs a substitute scheme's kernel
        accepted.append(cell.substitute_kernel)
    if cell.default_kernel:  # what a default install selects (where a setting filters the list: the whole list's)
        accepted.append(cell.default_kernel)
    kernels = frozenset(class_of.get(k, k) for k in accepted)
    first = class_of.get(cell.kernel, cell.kernel) if cell.kernel else (next(iter(sorted(kernels)), None))
    return SelectionView(verdict in SELECTS or bool(kernels), kernels, first)


def disagreement(cell: Cell, observed: ObservationCells, class_of: dict[str, str]) -> str:
    """Empty when the observation and the derived cell agree; otherwise what differs, in one sentence."""
    view = selection_view(cell, class_of)
    selected = {r["kernel"] for r in observed["runs"] if r["outcome"] == "selected"}
    if not view.selects and selected:
        return (f"the engine selects {', '.join(sorted(selected))} ({_where(observed, selected)}) "
                f"but the records derive a refusal")
    if view.selects and not selected:
        first = observed["runs"][0]
        return (f"the engine refuses ({first.get('error_type', '')}: {_short(first.get('message', ''))}) "
                f"but the records derive {view.first}")
    unexpected = sorted(selected - view.kernels)
    if unexpected:
        return (f"the engine selects {', '.join(unexpected)} ({_where(observed, set(unexpected))}), which the records' "
                f"candidate walk does not accept (it accepts {', '.join(sorted(view.kernels)) or 'nothing'})")
    return ""


def _where(observed: ObservationCells, kernels: set[str]) -> str:
    places = sorted({"/".join(x for x in (world, variant) if x)
                     for r in observed["runs"] if r.get("kernel") in kernels
                     for world in r["worlds"] for variant in r["variants"]})
    return ", ".join(places[:4]) + (" ..." if len(places) > 4 else "")


def _short(message: str, limit: int = 160) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
