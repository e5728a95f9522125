"""inferred-read-in: each source a requirement marked inferred was read in is cited by its kernel with a locator."""
from __future__ import annotations

from generators.checks.inferred_read_in import check

from .test_inferred_steps import GATE, _atlas


def test_a_source_an_inferred_step_was_read_in_must_be_cited_by_the_kernel_with_a_locator():
    atlas = _atlas(GATE)
    assert list(check(atlas, atlas.index.must("kernel", "k"))) == []
    uncited = _atlas({**GATE, "read_in": ["other", "s"]})  # `s` is cited without a locator
    (problem,) = check(uncited, uncited.index.must("kernel", "k"))
    assert problem.rule == "inferred-read-in" and "'s' is not cited with a locator" in problem.message
