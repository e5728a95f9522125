"""Published tables per release against the engine's observed behaviour, and how long each published cell disagreed.

A support-matrix record that lists `releases` is the table exactly as those releases' documentation carries it.
For every release it lists that has an observation (the newest harness, history.current_observations), each
mapped cell (row schemes x column targets) is compared with the observed cells: an observed cell runs as
specified when the engine selected a kernel (in some world, as a runs-if) that keeps the scheme's arithmetic. A
run the engine handed to another scheme class than the scheme record's (a compressed-tensors W8A8 checkpoint
loaded by the weight-only W8A16 scheme) is a fallback, and so is a kernel that computes an activation-quantized
scheme with unquantized activations (its record's activation_handling is not `quantized`), exactly as the
derived cells judge both. A
kernel class no kernel record names cannot be judged, and that cell is not checked. Nor can a selection the code
shows failing after it: where the cell derived at the engine's read release fails at run time through the kernel
the observation saw selected (an op its build does not register, no code compiled for the target), the harness,
which replaces the platform and stops at selection, saw only the first half. In the read release that cell is
judged "no" (selected, then fails, read from the code); in the others, whose code was not read, it is not checked.

A published cell's lineage is its publisher, the schemes its row maps to and the targets its column maps to, so
a relabelled row keeps its history. Per lineage the span says when the table first carried the cell, the first
release whose published cell disagreed with the engine, the last release checked, and how many checked releases
disagreed: computed from the records, never typed.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from ..model.verdicts import Verdict
from .cells import Cell
from .history import current_observations, release_key


@dataclass(frozen=True)
class ReleaseClaim:
    """One published cell in one release, beside what that release's engine did."""

    matrix: str
    release: str
    row: str
    column: str
    symbol: str
    published: str  # yes, no, partial or unknown (from the legend)
    observed: str  # yes, no, partial; unknown (a kernel no record describes); none (no observation of the release)
    observation: str
    lineage: tuple[str, tuple[str, ...], tuple[str, ...]]

    @property
    def checked(self) -> bool:
        return self.observed not in ("none", "unknown") and self.published != "unknown"

    @property
    def agrees(self) -> bool:
        return not self.checked or self.published == self.observed


@dataclass(frozen=True)
class DisagreementSpan:
    """How long one published cell disagreed with the engine, across the releases whose tables carry it."""

    publisher: str
    row: str  # the label in the newest table carrying the cell
    column: str
    matrix: str  # the newest table carrying the cell
    first_published: str  # the first release whose table carries the cell
    last_published: str
    published_releases: int
    first_disagreeing: str
    last_checked: str
    checked: int
    disagreeing: int
    disagrees_now: bool  # the newest checked release disagrees
    symbols: tuple[str, ...]  # the published symbols, oldest first, each once
    claims: tuple[ReleaseClaim, ...]
    findings: tuple[str, ...]  # findings whose `explains` names one of the tables' cells

    def covers(self, scheme: str, target: str) -> bool:
        """True when the published cell's row maps to `scheme` and its column to `target`."""
        return scheme in self.claims[0].lineage[1] and target in self.claims[0].lineage[2]


def _selected_kernels(cell: Mapping[str, Any], scheme_class: str) -> list[str]:
    """Kernels selected by runs that stayed in the scheme's own class (a run the engine handed to another scheme
    class, such as a weight-only one, is a fallback whatever kernel it then chose)."""
    return [run["kernel"] for run in cell.get("runs", []) if run.get("outcome") == "selected" and run.get("kernel")
            and (not scheme_class or run.get("scheme_class", scheme_class) == scheme_class)]


def observed_verdict(cell: Mapping[str, Any] | None, scheme: Mapping[str, Any], handling: Mapping[str, str | None],
                     fails_after: str = "", read_here: bool = False) -> str:
    """yes, no or unknown for one observed cell: does a selected kernel keep the scheme's arithmetic. `fails_after`
    is the kernel class the cell derived at the engine's read release selects and then fails in (empty when it does
    not), `read_here` whether this observation is of that release."""
    if cell is None:
        return "none"
    kernels = _selected_kernels(cell, scheme.get("class_name", "") if scheme.get("class_name", "").startswith(
        "CompressedTensors") else "")
    if not kernels:
        return "no"
    if any(k not in handling for k in kernels):
        return "unknown"
    if fails_after and fails_after in kernels:
        return "no" if read_here else "unknown"
    if not scheme.get("config", {}).get("activation_quantized"):
        return "yes"
    return "yes" if any(handling[k] == "quantized" for k in kernels) else "no"


def _aggregate(verdicts: list[str]) -> str:
    if not verdicts or "none" in verdicts:
        return "none"
    if "unknown" in verdicts:
        return "unknown"
    kinds = set(verdicts)
    return kinds.pop() if len(kinds) == 1 else "partial"


def _failing_after_selection(index: Index, cells: Mapping[tuple[str, str], Cell]) -> dict[tuple[str, str], str]:
    """(scheme, target) -> the kernel class its derived cell selects and then fails at run time in."""
    classes = {k.id: k.data.get("class_name", k.id) for k in index.all("kernel")}
    return {key: classes.get(cell.kernel, cell.kernel) for key, cell in cells.items()
            if cell.verdict is Verdict.FAILS_AT_RUNTIME and cell.kernel}


def _engine_of(schemes: Mapping[str, Any], scheme: str) -> str:
    return str(schemes[scheme].get("engine", "")) if scheme in schemes else ""


def release_claims(index: Index, cells: Mapping[tuple[str, str], Cell] | None = None) -> list[ReleaseClaim]:
    """Every mapped cell of every release-scoped table, per listed release, oldest release first; `cells` are the
    derived cells (the engine's read release), whose failures after selection an observation cannot see."""
    observations = current_observations(index)
    handling = {k.data.get("class_name", k.id): k.data.get("activation_handling") for k in index.all("kernel")}
    schemes = {s.id: s.data for s in index.all("scheme")}
    failing = _failing_after_selection(index, cells or {})
    read = {e.id: e.data.get("version_read", "") for e in index.all("engine")}
    claims: list[ReleaseClaim] = []
    for matrix in index.all("support-matrix"):
        data = matrix.data
        legend = {entry["symbol"].strip(): entry["verdict"] for entry in data["legend"]}
        for release in data.get("releases", []):
            observation = observations.get((data["publisher"], release))
            seen = {(c["scheme"], c["target"]): c for c in observation.data["cells"]} if observation else {}
            for r, row in enumerate(data["rows"]):
                for c, column in enumerate(data["columns"]):
                    pairs = [(s, t) for s in row.get("schemes", []) for t in column.get("targets", [])]
                    if not pairs:
                        continue
                    symbol = data["cells"][r][c] if r < len(data["cells"]) and c < len(data["cells"][r]) else ""
                    observed = _aggregate([observed_verdict(
                        seen.get(p), schemes.get(p[0], {}), handling, failing.get(p, ""),
                        read.get(_engine_of(schemes, p[0])) == release) for p in pairs]) if observation else "none"
                    lineage = (data["publisher"], tuple(row.get("schemes", [])), tuple(column.get("targets", [])))
                    claims.append(ReleaseClaim(matrix.id, release, row["label"], column["label"], symbol,
                                               legend.get(symbol.strip(), "unknown"), observed,
                                               observation.id if observation else "", lineage))
    return sorted(claims, key=lambda c: (release_key(c.release), c.matrix, c.row, c.column))


def explaining_findings(index: Index) -> dict[tuple[str, str, str], tuple[str, ...]]:
    """(matrix, row, column) -> the findings whose `explains` names that published cell."""
    found: dict[tuple[str, str, str], tuple[str, ...]] = {}
    for finding in index.all("finding"):
        for cell in finding.data.get("explains", []):
            key = (cell["matrix"], cell["row"], cell["column"])
            found[key] = found.get(key, ()) + (finding.id,)
    return found


def disagreement_spans(claims: list[ReleaseClaim],
                       explained: dict[tuple[str, str, str], tuple[str, ...]]) -> list[DisagreementSpan]:
    """Per published cell lineage that disagreed with the engine in at least one checked release, its span."""
    by_lineage: dict[tuple[str, tuple[str, ...], tuple[str, ...]], list[ReleaseClaim]] = {}
    for claim in claims:
        by_lineage.setdefault(claim.lineage, []).append(claim)
    spans = []
    for lineage, seen in by_lineage.items():
        checked = [c for c in seen if c.checked]
        disagreeing = [c for c in checked if not c.agrees]
        if not disagreeing:
            continue
        newest = seen[-1]
        spans.append(DisagreementSpan(
            lineage[0], newest.row, newest.column, newest.matrix, seen[0].release, newest.release, len(seen),
            disagreeing[0].release, checked[-1].release, len(checked), len(disagreeing), not checked[-1].agrees,
            tuple(dict.fromkeys(c.symbol for c in seen)), tuple(seen),
            tuple(dict.fromkeys(f for c in seen for f in explained.get((c.matrix, c.row, c.column), ())))))
    return sorted(spans, key=lambda s: (s.publisher, release_key(s.first_disagreeing), s.row, s.column))
