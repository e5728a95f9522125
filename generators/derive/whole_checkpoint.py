"""The whole checkpoint behind an expert-layer scheme's answer.

A cell describes only its scheme's layers: an expert-layer scheme's (`layers: experts`) says what the engine does with
a mixture-of-experts checkpoint's expert layers and nothing of its other linear layers, which the engine gives another
scheme's method (the record's `other_layers.scheme`). The model loads only where both do, so for each cell of such a
scheme the whole checkpoint's verdict is the worse of the two cells on the same target, in the vocabulary's own order
(model/verdicts.worse). Neither cell's own verdict changes; every surface that shows the expert answer adds this one
beside it (explain, the Can I run it? card and its comparison, the quantization-selection chapter, the scheme page).
A scheme whose record says no scheme applies (`no_scheme`: the other layers stay in the model dtype) has none.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from ..model.verdicts import FALLBACK_IF_LABEL, Verdict, worse
from .cells import Cell

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

    @property
    def label(self) -> str:
        """The whole checkpoint's verdict as a reader reads it (Cell.label's words)."""
        return FALLBACK_IF_LABEL if self.fallback_if else self.verdict.label if self.verdict else ""

    def as_dict(self) -> dict[str, Any]:
        return {"scheme": self.other, "verdict": self.verdict.value if self.verdict else None,
                "others": self.others.value if self.others else None, "decided_by": self.decided_by, "why": self.why,
                "fallback_if": self.fallback_if}


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
    # the checkpoint falls back only where every fallback cell's conditions hold: one needing more needs it of the whole
    fallback_if = any(c.fallback_if for c in (experts, others) if c.verdict is verdict)
    return WholeCheckpoint(experts.scheme, experts.target, other, experts.verdict, others.verdict, verdict, decided,
                           why_said(others), fallback_if)


def why_said(cell: Cell) -> str:
    """In a line, what a cell says where it does not simply run: the capability gate's or the engine's message (with
    the first reason where the message ends by listing them), else the first reason, for one that does not load; what
    it computes as, for a fallback; its conditions, for a runs-if."""
    if cell.verdict is Verdict.RUNS:
        return ""
    if cell.verdict is Verdict.RUNS_IF:
        return "; ".join(cell.conditions)
    if cell.verdict is Verdict.FALLBACK:
        return cell.computes_as
    if cell.gate or not cell.reasons:
        return cell.gate or cell.failure_message
    more = f" (and {len(cell.reasons) - 1} more, in the engine's order)" if len(cell.reasons) > 1 else ""
    # an engine message that ends where it lists its reasons ("... Reasons:") is followed by the first of them
    lead = cell.failure_message if cell.failure_message.endswith(":") else ""
    return (f"{lead} {cell.reasons[0]}" if lead else cell.failure_message or cell.reasons[0]) + more
