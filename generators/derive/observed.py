"""Cells known by a run: a derived cell that the observation of the modelled release saw the engine select alike.

The observation (newest harness) of the engine release the records model (the engine's `version_read`) ran that
release's own selection code for each (scheme, target). Where it agrees with the derived cell (`verify.compare`:
the engine selects, or refuses, as derived, and only kernels the walk accepts), the cell's kernel selection is
known by that run and the observation is its evidence; a disagreement (which a finding must explain) leaves the
cell known by reading code. What a selected kernel then computes is still read from the code. Pure; no I/O.
"""
from __future__ import annotations

import dataclasses

from ..model.index import Index
from ..model.verdicts import KnownBy
from ..model.fields import ObservationCells
from ..verify.compare import disagreement, selection_view
from .cells import Cell
from .history import kernel_classes, modelled_observations


def known_by_run(index: Index, cells: dict[tuple[str, str], Cell]) -> dict[tuple[str, str], Cell]:
    """The cells, each one the modelled release's observation agrees with marked known by that run."""
    class_of = kernel_classes(index)
    marked = dict(cells)
    for engine, observation in modelled_observations(index).items():
        for observed in observation.data.get("cells", []):
            key = (observed["scheme"], observed["target"])
            cell = marked.get(key)
            # a run that saw the selection does not show a deciding step the records inferred (how a selected kernel
            # then fails): such a cell stays known by inference
            if (cell is not None and cell.engine == engine and cell.known_by is not KnownBy.INFERRED
                    and not disagreement(cell, observed, class_of)
                    and saw_its_kernel(cell, observed, class_of)):
                marked[key] = dataclasses.replace(cell, known_by=KnownBy.RUN, evidence=(observation.id,))
    return marked


def saw_its_kernel(cell: Cell, observed: ObservationCells, class_of: dict[str, str]) -> bool:
    """Whether the run saw what the cell names: the cell's own kernel selected in some world the harness ran, or a
    refusal for a cell that refuses. A run that only selected another kernel the walk accepts (a later candidate, when
    a stand-in extension lacked what the cell's kernel needs) agrees with the records but is no evidence for the
    kernel the cell names."""
    first = selection_view(cell, class_of).first
    if not cell.verdict.loads or first is None:
        return True
    return any(r["outcome"] == "selected" and class_of.get(r["kernel"], r["kernel"]) == first for r in observed["runs"])
