"""Engine messages as the engine printed them: a derived message whose placeholders the records cannot fill
(‹supported_types›) takes the text the observation of the modelled release recorded for the same cell.

A derived message is the engine's f-string with what the records know filled in; a placeholder left over is
shown as ‹expression›. Where the observation of the engine release the records model (the engine's
`version_read`) printed a line that the message matches, with each placeholder standing for any text, the
printed line is what the engine says for that cell, so it replaces the derived one. A message no observation
printed (a condition or a shape limit the run never hit) keeps its placeholders. Pure functions; no I/O.
"""
from __future__ import annotations

import dataclasses
import re

from ..model.index import Index
from .cells import Attempt, Cell
from .history import modelled_observations

_PLACEHOLDER = re.compile(r"‹[^›]*›")
_CANDIDATE = re.compile(r"^\S+\.(?:can_implement|is_supported) refused: ")


def printed_lines(index: Index) -> dict[tuple[str, str], tuple[str, ...]]:
    """Per (scheme, target), every line the observation of the modelled release printed (reasons, messages, candidates)."""
    lines: dict[tuple[str, str], tuple[str, ...]] = {}
    for record in modelled_observations(index).values():
        for cell in record.data.get("cells", []):
            texts = list(cell.get("reasons", []))
            for run in cell.get("runs", []):
                texts.append(run.get("message", ""))
                texts.extend(_CANDIDATE.sub("", c) for c in run.get("candidates", []))
            found = [_normal(line) for text in texts for line in str(text).splitlines() if line.strip()]
            lines[(cell["scheme"], cell["target"])] = tuple(dict.fromkeys(found))
    return lines


def as_printed(cell: Cell, lines: tuple[str, ...]) -> Cell:
    """The cell with each message that still has a placeholder replaced by the observed line it matches, if any."""
    if not lines or "‹" not in repr((cell.gate, cell.reasons, [a.reason for a in cell.attempts])):
        return cell
    attempts = tuple(_attempt(a, lines) for a in cell.attempts)
    otherwise = tuple(dataclasses.replace(o, reasons=tuple(_reason(r, lines) for r in o.reasons)) for o in cell.otherwise)
    return dataclasses.replace(cell, gate=resolve(cell.gate, lines), attempts=attempts, otherwise=otherwise,
                               reasons=tuple(_reason(r, lines) for r in cell.reasons))


def resolve(text: str, lines: tuple[str, ...]) -> str:
    """The observed line `text` matches when each ‹placeholder› stands for any text; else `text` unchanged."""
    if "‹" not in text:
        return text
    pieces = _PLACEHOLDER.split(_normal(text))
    pattern = re.compile("(.+?)".join(map(re.escape, pieces)))
    return next((line for line in lines if pattern.fullmatch(line)), text)


def _attempt(attempt: Attempt, lines: tuple[str, ...]) -> Attempt:
    return dataclasses.replace(attempt, reason=resolve(attempt.reason, lines)) if "‹" in attempt.reason else attempt


def _reason(reason: str, lines: tuple[str, ...]) -> str:
    kernel, separator, text = reason.partition(": ")
    if separator and "‹" in text and resolve(text, lines) != text:
        return f"{kernel}: {resolve(text, lines)}"
    return resolve(reason, lines)


def _normal(text: str) -> str:
    return " ".join(text.split())
