"""The whole checkpoint behind an expert-layer scheme's answer.

A cell describes only its scheme's layers: an expert-layer scheme's (`layers: experts`) says what the engine does with
a mixture-of-experts checkpoint's expert layers and nothing of its other linear layers, which the engine gives another
scheme's method (the record's `other_layers.scheme`). The model loads only where both do, so for each cell of such a
scheme the whole checkpoint's verdict is the worse of the two cells on the same target, in the vocabulary's own order
(model/verdicts.worse). Neither cell's own verdict changes; every surface that shows the expert answer adds this one
beside it (explain, the Can I run it? card and its comparison, the quantization-selection chapter, the scheme,
hardware-target and part pages).
A scheme whose record says no scheme applies (`no_scheme`: the other layers stay in the model dtype) has none.

A surface that counts or lists cells by whether they load (a target's schemes served and refused, a format's "Where it
runs", the format map's runs table, the data API's `runs_on`) counts such a cell by its whole checkpoint, what a reader
can load (`counted`, `loads`): an expert cell that runs beside other layers that are refused is refused there. A
surface about the expert layers' own kernels (a kernel page) keeps the cell's verdict and says so.

The worse verdict is the one a reader meets whose install meets every condition either cell names; three cases say
more. Where both cells are runs-if, the whole checkpoint needs both sets of conditions (`both_conditional`). Where the
worse verdict is a fallback and a cell on it (a fallback_if) or a runs-if cell reaches, on a default install without
its conditions, a step that does not load, the whole checkpoint is "Fallback if" (`fallback_if`). Where a cell's
kernel is one a default install does not select (derive/default_lead.py), a default install gets that step's outcome:
where the worse of the two cells' default outcomes is worse than the verdict, it is said beside it (`by_default`), so
a "Runs if" whose other layers fall back on a default install does not read as one that runs once its flag is set.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from ..model.verdicts import FALLBACK_IF_LABEL, Verdict, worse
from .cells import Cell
from .default_lead import default_lead, lead_said

OTHERS = "others"  # the other layers' cell is worse: it decides the whole checkpoint
EXPERTS = "experts"  # the expert layers' own cell is worse
BOTH = "both"  # the two cells have the same verdict


@dataclass(frozen=True)
class WholeCheckpoint:
    """One expert-layer cell's whole checkpoint: the other layers' scheme and verdict on the target, and the worse."""

    scheme: str  # the expert-layer scheme
    target: str
    other: str  # the scheme of the checkpoint's other linear layers
    experts: Verdict  # the expert cell's own verdict
    others: Verdict | None  # the other scheme's verdict on the target; None where it has no cell there
    verdict: Verdict | None  # the worse of the two; None where the other scheme has no cell there
    decided_by: str  # OTHERS, EXPERTS or BOTH; empty where the other scheme has no cell there
    why: str = ""  # what the other layers' cell says, where they do not run as specified: its reason or its precision
    # a fallback one of whose fallback cells needs what a default install lacks (Cell.fallback_if): "Fallback if"
    fallback_if: bool = False
    both_conditional: bool = False  # both cells are runs-if: the whole checkpoint needs the conditions of each
    by_default: Verdict | None = None  # a default install's outcome, where worse than `verdict`; else None
    default_layers: str = ""  # OTHERS or EXPERTS: the cell whose default kernel sets `by_default`
    default_kernel: str = ""  # the kernel a default install selects for those layers
    # the other layers' cell is runs-if on a kernel a default install does not select: `why` is its lead (both kernels)
    others_lead: bool = False
    experts_why: str = ""  # where both cells are runs-if: what the expert layers need to run at all (needs_to_run)

    @property
    def label(self) -> str:
        """The whole checkpoint's verdict as a reader reads it (Cell.label's words)."""
        return FALLBACK_IF_LABEL if self.fallback_if else self.verdict.label if self.verdict else ""

    def as_dict(self) -> dict[str, Any]:
        return {"scheme": self.other, "verdict": self.verdict.value if self.verdict else None,
                "others": self.others.value if self.others else None, "decided_by": self.decided_by, "why": self.why,
                "fallback_if": self.fallback_if, "both_conditional": self.both_conditional,
                "by_default": self.by_default.value if self.by_default else None,
                "default_layers": self.default_layers, "default_kernel": self.default_kernel,
                "others_lead": self.others_lead, "experts_why": self.experts_why}


def whole_checkpoints(index: Index, cells: Mapping[tuple[str, str], Cell]) -> dict[tuple[str, str], WholeCheckpoint]:
    """For every cell of a scheme whose `other_layers` names a scheme: its whole checkpoint, keyed like `cells`."""
    others = {s.id: named for s in index.all("scheme")
              if "other_layers" in s.data and (named := s.data["other_layers"].get("scheme", ""))}
    return {key: whole_of(cell, others[cell.scheme], cells.get((others[cell.scheme], cell.target)))
            for key, cell in sorted(cells.items()) if cell.scheme in others}


def whole_of(experts: Cell, other: str, others: Cell | None) -> WholeCheckpoint:
    """The whole checkpoint of one expert-layer cell, given the other layers' cell on its target (None: not derived)."""
    if others is None:
        return WholeCheckpoint(experts.scheme, experts.target, other, experts.verdict, None, None, "")
    verdict = worse(experts.verdict, others.verdict)
    decided = BOTH if experts.verdict is others.verdict else OTHERS if verdict is others.verdict else EXPERTS
    # the checkpoint falls back only where every cell's conditions hold: a fallback cell needing more (fallback_if), or
    # a runs-if cell that without its conditions fails or is refused, needs it of the whole
    fallback_if = verdict is Verdict.FALLBACK and any(c.fallback_if or (c.verdict is Verdict.RUNS_IF and fails_without(c))
                                                      for c in (experts, others))
    both = experts.verdict is others.verdict is Verdict.RUNS_IF
    lead = default_lead(others) if others.verdict is Verdict.RUNS_IF else None
    return WholeCheckpoint(experts.scheme, experts.target, other, experts.verdict, others.verdict, verdict, decided,
                           lead_said(lead) if lead else why_said(others), fallback_if, both,
                           *by_default(experts, others, verdict), others_lead=lead is not None,
                           experts_why="; ".join(needs_to_run(experts)) if both else "")


def fails_without(cell: Cell) -> bool:
    """Whether a default install that lacks a conditional cell's conditions reaches a step that does not load here."""
    return any(not s.off_default and (not s.verdict.loads or bool(s.elsewhere)) for s in cell.otherwise)


def by_default(experts: Cell, others: Cell, verdict: Verdict) -> tuple[Verdict | None, str, str]:
    """What a default install gets where a cell's kernel is not its default's and the worse of the two default
    outcomes is worse than `verdict`: that outcome, whose layers set it (the other layers' first) and their default
    kernel; else nothing."""
    leads = {OTHERS: default_lead(others), EXPERTS: default_lead(experts)}
    outcome = {side: lead.outcome if lead else cell.verdict
               for (side, lead), cell in zip(leads.items(), (others, experts))}
    worst = worse(outcome[OTHERS], outcome[EXPERTS])
    side = next((s for s in (OTHERS, EXPERTS) if outcome[s] is worst and leads[s] is not None), "")
    lead = leads.get(side)
    if worse(worst, verdict) is verdict or lead is None:
        return None, "", ""
    return worst, side, lead.default


def needs_to_run(cell: Cell) -> tuple[str, ...]:
    """Conditions under which a runs-if cell runs whichever kernel the engine takes (enough, if not each needed where
    two routes run), not those of its first kernel alone: a condition whose failure leads (`otherwise`,
    the first step for its kernel that names it unmet) to another kernel that runs needs only that kernel's own
    conditions, in turn; one that leads to a step that does not run here, or to none, is needed itself. vLLM GGUF's
    MMVQ needs a few tokens at most, MMQ runs above them and Triton without the CUDA extension: only the plugin is
    needed; the MMVQ expert kernel's grid bound leads to a failure, so it stays. A condition whose step is off the
    defaults (reached only where the install lacks what the default one has) stays too: it costs a default install
    nothing, and that step's kernel is a route its reader never takes (vLLM's FP8 block layers on SM 12.0 need the
    wheel's CUTLASS kernels, not the b12x package that runs only without them)."""
    needed: dict[str, None] = {}
    seen: set[tuple[str | None, tuple[str, ...]]] = set()

    def walk(kernel: str | None, conditions: tuple[str, ...]) -> None:
        if (kernel, conditions) in seen:
            return
        seen.add((kernel, conditions))
        for condition in conditions:
            step = next((o for o in cell.otherwise if o.kernel == kernel and condition in o.unmet), None)
            if step is None or step.verdict not in (Verdict.RUNS, Verdict.RUNS_IF) or step.elsewhere or step.off_default:
                needed[condition] = None
            else:
                walk(step.selected, step.conditions)

    walk(cell.kernel, cell.conditions)
    return tuple(needed)


def why_said(cell: Cell) -> str:
    """In a line, what a cell says where it does not simply run: the capability gate's or the engine's message (with
    the first reason where the message ends by listing them), else the first reason, for one that does not load; what
    it computes as, for a fallback; what it needs to run at all, for a runs-if."""
    if cell.verdict is Verdict.RUNS:
        return ""
    if cell.verdict is Verdict.RUNS_IF:
        return "; ".join(needs_to_run(cell))
    if cell.verdict is Verdict.FALLBACK:
        return cell.computes_as
    if cell.gate or not cell.reasons:
        return cell.gate or cell.failure_message
    more = f" (and {len(cell.reasons) - 1} more, in the engine's order)" if len(cell.reasons) > 1 else ""
    # an engine message that ends where it lists its reasons ("... Reasons:") is followed by the first of them
    lead = cell.failure_message if cell.failure_message.endswith(":") else ""
    return (f"{lead} {cell.reasons[0]}" if lead else cell.failure_message or cell.reasons[0]) + more


@dataclass(frozen=True)
class Counted:
    """The verdict a cell is counted and listed by where a surface counts what loads: an expert-layer cell's whole
    checkpoint's (`whole` set), else the cell's own (also where the other layers' scheme has no cell on the target,
    as the answer card's comparison ranks it)."""

    verdict: Verdict
    label: str  # Cell.label's words ("Fallback if" apart from a fallback a default install reaches)
    fallback_if: bool = False  # a fallback that needs what a default install lacks (the label's "Fallback if")
    whole: WholeCheckpoint | None = None

    @property
    def loads(self) -> bool:
        return self.verdict.loads


def counted(cell: Cell, wholes: Mapping[tuple[str, str], WholeCheckpoint]) -> Counted:
    """How a cell counts on a surface that counts or lists what loads (`wholes`: Views.whole_checkpoints)."""
    whole = wholes.get((cell.scheme, cell.target))
    if whole is None or whole.verdict is None:
        return Counted(cell.verdict, cell.label, cell.fallback_if)
    return Counted(whole.verdict, whole.label, whole.fallback_if, whole)


def loads(cell: Cell, wholes: Mapping[tuple[str, str], WholeCheckpoint]) -> bool:
    """Whether a reader can load what the cell answers for: its whole checkpoint, for an expert-layer cell."""
    return counted(cell, wholes).loads
