"""Stage 5, check: cross-record rules, one module each, listed explicitly in REGISTRY.

The runner owns iteration and crash isolation: a check that raises becomes a problem naming
the check, and the other checks still run.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..problems import Problem
from . import (benchmark_baseline, kernel_operands, memory_bandwidth, ridge_bounds, contested_resolution, dispatch_provenance, matrix_shape, published_explained,
               quoted_value, scheme_candidates, shared_die, stated_support, stated_tallies, target_members, trap_scope,
               unverified_declared)
from .base import Check

if TYPE_CHECKING:
    from ..model.atlas import Atlas

REGISTRY: tuple[Check, ...] = (
    stated_support.CHECK,
    stated_tallies.CHECK,
    shared_die.CHECK,
    memory_bandwidth.CHECK,
    ridge_bounds.CHECK,
    kernel_operands.CHECK,
    matrix_shape.CHECK,
    published_explained.CHECK,
    target_members.CHECK,
    benchmark_baseline.CHECK,
    scheme_candidates.CHECK,
    contested_resolution.CHECK,
    dispatch_provenance.CHECK,
    unverified_declared.CHECK,
    quoted_value.CHECK,
    trap_scope.CHECK,
)


def run_checks(atlas: "Atlas", registry: tuple[Check, ...] = REGISTRY) -> list[Problem]:
    problems: list[Problem] = []
    for check in registry:
        try:
            problems.extend(check.run(atlas))
        except Exception as error:  # a broken check must not hide the others' findings
            problems.append(Problem("generators/checks", 1, 1, check.name,
                                    f"check crashed: {type(error).__name__}: {error}"))
    return problems
