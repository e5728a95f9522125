"""Stage 5, check: cross-record rules, one module each, listed explicitly in REGISTRY.

The runner (`runner.py`) owns iteration and crash isolation: it walks a record-scoped check over the
records of its kinds, and a check that raises becomes a problem located at the record (or naming the check),
while the other checks still run. `shape` checks run before derive, `views` checks after.
"""
from __future__ import annotations



from . import (accelerator_summary_figures, auto_dtypes, benchmark_baseline, built_with, candidate_lists, computes_in_setting, elsewhere_placement, gate_after_installs, gate_needs, cuda_arch_names, die_architecture, format_encoding, gfx_capability, gotcha_figures, inferred_read_in, install_facts, kernel_formats, kernel_operands, kernels_from, memory_bandwidth, no_matrix_instructions, no_matrix_way, other_layers, part_matrix_formats, plugin_of, ridge_bounds, runtime_checks, contested_resolution, contested_upheld, dispatch_provenance, matrix_shape, no_path, published_explained,
               observed_cells, peak_runs_as, published_observed, quality_note_figures, quoted_difference, quoted_value, scheme_candidates, scheme_fallback, scheme_substitution, search_ranking, shared_die, stated_support, stated_tallies, summary_figures, target_members, trap_layers, trap_native, trap_scope, trap_severity, trap_silent,
               unverified_declared, unverified_record)
from .base import PAGES, SHAPE, VIEWS, Check
from .runner import run_checks


REGISTRY: tuple[Check, ...] = (
    stated_support.CHECK,
    stated_tallies.CHECK,
    shared_die.CHECK,
    die_architecture.CHECK,
    format_encoding.CHECK,
    memory_bandwidth.CHECK,
    ridge_bounds.CHECK,
    peak_runs_as.CHECK,
    kernel_operands.CHECK,
    kernel_formats.CHECK,
    no_matrix_way.CHECK,
    no_matrix_instructions.CHECK,
    part_matrix_formats.CHECK,
    computes_in_setting.CHECK,
    gate_needs.CHECK,
    elsewhere_placement.CHECK,
    built_with.CHECK,
    install_facts.CHECK,
    runtime_checks.CHECK,
    no_path.CHECK,
    candidate_lists.CHECK,
    matrix_shape.CHECK,
    published_explained.CHECK,
    target_members.CHECK,
    gfx_capability.CHECK,
    cuda_arch_names.CHECK,
    auto_dtypes.CHECK,
    benchmark_baseline.CHECK,
    kernels_from.CHECK,
    inferred_read_in.CHECK,
    plugin_of.CHECK,
    scheme_candidates.CHECK,
    scheme_fallback.CHECK,
    other_layers.CHECK,
    gate_after_installs.CHECK,
    scheme_substitution.CHECK,
    contested_resolution.CHECK,
    contested_upheld.CHECK,
    dispatch_provenance.CHECK,
    unverified_declared.CHECK,
    unverified_record.CHECK,
    quoted_value.CHECK,
    quoted_difference.CHECK,
    summary_figures.CHECK,
    accelerator_summary_figures.CHECK,
    quality_note_figures.CHECK,
    gotcha_figures.CHECK,
    trap_scope.CHECK,
    trap_layers.CHECK,
    trap_native.CHECK,
    trap_severity.CHECK,
    trap_silent.CHECK,
    observed_cells.CHECK,
    published_observed.CHECK,
    search_ranking.CHECK,
)

__all__ = ["PAGES", "REGISTRY", "SHAPE", "VIEWS", "Check", "run_checks"]
