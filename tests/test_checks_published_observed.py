"""The published-observed check on crafted records: a release-scoped table agreeing with that release's observation
passes; a disagreement fails until a finding explains it; a release listed by two tables fails."""
from __future__ import annotations

from tests.test_checks import edit, problems_of
from tests.test_observed_cells import OBSERVATION

RULE = "published-observed"


def _scoped(tree, releases: str = '["1.0"]') -> None:
    (tree / "records/observations").mkdir()
    (tree / "records/observations/eng-1-0-h1.yaml").write_text(OBSERVATION)
    edit(tree, "records/support-matrices/pub-table.yaml", "read_on: 2026-11-29", f"read_on: 2026-11-29\nreleases: {releases}")
    edit(tree, "records/engines/eng.yaml", "category: serving-engine", "category: serving-engine\nversion_read: '1.0'")


def test_a_table_agreeing_with_its_releases_observation_passes(tree):
    _scoped(tree)
    assert problems_of(tree, RULE) == []


def test_a_published_cell_the_release_contradicts_fails_with_both_sides(tree):
    _scoped(tree)
    edit(tree, "records/observations/eng-1-0-h1.yaml", "outcome: selected, kernel: k-hopper",
         "outcome: refused, error_type: ValueError, message: no kernel")
    assert problems_of(tree, RULE) == [
        "records/support-matrices/pub-table.yaml:14:6: error: [published-observed] cells[0][0]: published '✅' (yes) at "
        "['INT4 (W4A16)', 'Hopper'] but eng-1-0-h1 observes 'no' in release 1.0; fix the mapping or add a finding "
        "whose explains names this cell"]


def test_a_release_listed_by_two_tables_fails(tree):
    _scoped(tree)
    text = (tree / "records/support-matrices/pub-table.yaml").read_text()
    (tree / "records/support-matrices/pub-copy.yaml").write_text(text)
    assert problems_of(tree, RULE) == [
        "records/support-matrices/pub-table.yaml:6:12: error: [published-observed] releases[0]: release 1.0 of eng is "
        "also listed by pub-copy; a release has one table"]


def test_an_explanation_of_an_older_table_whose_cell_agrees_is_stale(tree):
    _scoped(tree, '["0.9"]')
    assert problems_of(tree, RULE) == [
        "records/findings/cpu-cell-wrong.yaml:10:5: error: [published-observed] explains[0]: stale explanation: no "
        "release listed by pub-table observes ['INT4 (W4A16)', 'x86 CPU'] differently from the published cell; remove "
        "this entry"]


def test_an_explanation_the_modelled_release_agrees_with_but_an_older_release_contradicts_is_not_stale(tree):
    _scoped(tree, '["0.9", "1.0"]')
    older = OBSERVATION.replace('release: "1.0"', 'release: "0.9"').replace(
        "outcome: selected, kernel: k-hopper", "outcome: refused, error_type: ValueError, message: no kernel")
    (tree / "records/observations/eng-0-9-h1.yaml").write_text(older)
    edit(tree, "records/findings/cpu-cell-wrong.yaml", "concerns:",
         '  - {matrix: pub-table, row: "INT4 (W4A16)", column: Hopper}\nconcerns:')
    assert problems_of(tree, RULE) == []
    assert problems_of(tree, "published-explained") == []
