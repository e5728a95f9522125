"""History views formatted for pages: per-cell outcomes across engine releases, flips, and published-cell spans.

Formatting only: the rows come from derive/history.py and derive/published_history.py; record text and engine
messages are escaped here, links go through the value renderer.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..derive.history import CellHistory, Flip, Outcome, current_observations
from ..derive.order import targets_in_order
from ..derive.published_history import DisagreementSpan
from .markdown import escape_text, fill, joined
from .values import ValueRenderer

MESSAGE_LIMIT = 220


@dataclass(frozen=True)
class ReleaseRow:
    """One observed engine release as the history page lists it."""

    engine: str
    release: str
    observation: str
    harness: int
    observed_on: str
    superseded: tuple[str, ...]  # older harness observations of the same release
    cells: int
    refused: int
    flips: int


def short(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """One line, cut at `limit` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def release_rows(atlas: Any) -> list[ReleaseRow]:
    """Every (engine, release) with its current observation, oldest first."""
    current = current_observations(atlas.index)
    flips: dict[str, int] = {}
    for flip in atlas.views.flips:
        flips[flip.after.release] = flips.get(flip.after.release, 0) + 1
    by_release: dict[tuple[str, str], list[str]] = {}
    for observation in atlas.index.all("observation"):
        by_release.setdefault((observation.data["engine"], str(observation.data["release"])), []).append(observation.id)
    rows = []
    for (engine, release), record in current.items():
        older = tuple(sorted(o for o in by_release[(engine, release)] if o != record.id))
        cells = record.data.get("cells", [])
        rows.append(ReleaseRow(engine, release, record.id, record.data["harness_version"],
                               str(record.data.get("observed_on", "")), older, len(cells),
                               sum(1 for c in cells if c["verdict"] == "refused"), flips.get(release, 0)))
    return rows


def outcome_markup(outcome: Outcome) -> Markup:
    """A compact outcome: the verdict and the kernel(s), or where it was refused."""
    if outcome.verdict == "refused":
        return _refused_markup(outcome.refusal)
    return _selected_markup(outcome.verdict, ", ".join(outcome.kernels or ((outcome.kernel,) if outcome.kernel else ())))


@functools.lru_cache(maxsize=4096)
def _refused_markup(refusal: str) -> Markup:
    """Kept, as is _selected_markup: a scheme's page and the history page show the same few outcomes many times."""
    stage = refusal.split(":", 1)[0]
    return fill('<span class="verdict verdict-refused" title="{}">refused</span> <small>at {}</small>',
        short(refusal), stage)


@functools.lru_cache(maxsize=4096)
def _selected_markup(verdict: str, kernels: str) -> Markup:
    return fill('<span class="verdict verdict-{}">{}</span> <small>{}</small>', verdict, verdict, kernels)


def flip_why(flip: Flip) -> Markup:
    return joined("<br>", [escape_text(short(reason)) for reason in flip.why])


def history_table(atlas: Any, scheme_id: str, values: ValueRenderer) -> tuple[str, list[str], list[list[Markup]], str]:
    """(title, columns, rows, note) of a scheme's observed history: one row per target, one column per release."""
    releases = [r.release for r in release_rows(atlas)]
    histories = atlas.views.history
    rows = []
    for target in targets_in_order(atlas.index):
        history: CellHistory | None = histories.get((scheme_id, target.id))
        if history is None:
            continue
        by_release = {o.release: o for o in history.outcomes}
        row = [values.ref(target.ref)]
        row += [outcome_markup(by_release[r]) if r in by_release else Markup("not observed") for r in releases]
        row.append(joined("<br>", [
            escape_text(f"{f.before.release} → {f.after.release}:") + Markup(" ") + escape_text(short("; ".join(f.why), 160))
            for f in history.flips]) or Markup("none"))
        rows.append(row)
    note = ("What each release's own selection code did, observed by running it without the hardware, with what lies "
            "outside its Python code simulated (platform facts, compiled extensions, optional packages; the newest "
            "harness per release); a flip is a change between consecutive observed releases. "
            "The full history is on the history page.")
    return "Observed across releases", ["target", *releases, "flips"], rows, note


def span_sentence(span: DisagreementSpan, publisher: str) -> str:
    """The span in words, every figure computed."""
    return (f"{publisher}'s table marked [{span.row} × {span.column}] "
            f"{' then '.join(span.symbols)} in {span.published_releases} release(s) ({span.first_published} to "
            f"{span.last_published}); checked against the engine's own selection code in {span.checked} of them, "
            f"it disagreed in {span.disagreeing}, first in {span.first_disagreeing}, last checked {span.last_checked}"
            + (" (still disagrees)." if span.disagrees_now else " (agrees since)."))
