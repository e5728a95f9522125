"""What a reader reads first about a cell whose own kernel a default install does not select.

A cell's `kernel` is the engine's first choice where an opt-in is met (a package a default install leaves out, a
setting it leaves unset); a default install selects `default_kernel` instead (derive/cells.py _by_default). A `runs`
verdict on such a cell is the default install's: the opt-in kernel is passed over and every outcome a default install
reaches runs as specified. A `runs-if` verdict is the opt-in kernel's: it runs as specified only given the opt-in,
and what a default install gets from its own kernel is that step's verdict (it may fall back or fail). Every surface
that names the cell's kernel leads with the default install's kernel and names the other as the opt-in's.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model.verdicts import Verdict
from .cells import Cell, Otherwise
from .wording import WORDS, fill, words


@dataclass(frozen=True)
class DefaultLead:
    """The kernel line of a cell whose kernel needs an opt-in: the default install's first, then the opt-in's."""

    default: str  # the kernel a default install selects (Cell.default_kernel)
    where: tuple[str, ...]  # what else must hold for a default install to select it (Cell.default_where)
    outcome: Verdict  # what a default install gets from it
    opted: str  # the cell's kernel, selected only given the opt-in
    opt_in: tuple[str, ...]  # what the reader adds to get it: what the install lacks, else the conditions it leaves open
    needs: tuple[str, ...] = ()  # what the default install's kernel itself needs that the defaults do not meet, besides
    #                              `where` (a condition whose failure leaves it selected and failing: DeepGEMM's nvcc)


def default_lead(cell: Cell) -> DefaultLead | None:
    """The lead of a cell that loads and whose kernel a default install does not select; None for every other cell."""
    if not (cell.verdict.loads and cell.kernel and cell.default_kernel and cell.default_kernel != cell.kernel):
        return None
    met = {a.condition for a in cell.assumes}
    opt_in = tuple(a.condition for a in cell.opt_in) or tuple(c for c in cell.conditions if c not in met)
    outcome = default_verdict(cell, cell.default_kernel)
    step = _default_step(cell, cell.default_kernel)
    # a runs-if outcome is the default kernel's own condition: said, or "on a default install" reads as "runs"
    needs = tuple(c for c in step.conditions if c not in met and c not in cell.default_where) \
        if step is not None and outcome is Verdict.RUNS_IF else ()
    return DefaultLead(cell.default_kernel, cell.default_where, outcome, cell.kernel, opt_in, needs)


def default_verdict(cell: Cell, by_default: str) -> Verdict:
    """What a default install gets from its kernel: the cell's verdict (whose conditions already say what the defaults
    meet), unless the step a default install reaches to select that kernel does not run the scheme as specified (a
    fallback to a weight-only kernel, a failure), whose verdict it then is."""
    step = _default_step(cell, by_default)
    return cell.verdict if step is None or step.verdict.runs_as_specified else step.verdict


def _default_step(cell: Cell, by_default: str) -> Otherwise | None:
    """The step a default install reaches that selects its kernel, if any."""
    return next((s for s in cell.otherwise if not s.off_default and s.selected == by_default), None)


def lead_texts(lead: DefaultLead) -> dict[str, str]:
    """The plain-text values of WORDS' "default_lead" but the two kernels: where, the outcome, the opt-in."""
    outcomes = WORDS["default_lead_outcome"]
    assert isinstance(outcomes, dict)
    outcome = str(outcomes.get(lead.outcome.value, "")) if lead.outcome is not Verdict.RUNS_IF or lead.needs else ""
    return {"where": fill(words("default_lead_where"), where="; ".join(lead.where)) if lead.where else "",
            "outcome": fill(outcome, needs="; ".join(lead.needs)), "opt_in": "; ".join(lead.opt_in)}


def lead_said(lead: DefaultLead) -> str:
    """The lead as plain text (explain), the kernels by id."""
    return fill(words("default_lead"), default=lead.default, opted=lead.opted, **lead_texts(lead))
