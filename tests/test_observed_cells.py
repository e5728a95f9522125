"""The observed-cells check on crafted records: agreement passes, a disagreement fails until a finding explains it,
and an explanation of a cell that agrees (or does not exist) is itself an error."""
from __future__ import annotations

from tests.test_checks import edit, problems_of

OBSERVATION = """name: eng 1.0 observed
summary: A crafted observation.
engine: eng
release: "1.0"
harness_version: 1
observed_on: 2026-11-30
simulated: [platform]
not_reached: [compiled kernels]
cells:
  - scheme: sch-w4a16
    target: gpu-sm90
    verdict: runs
    kernel: k-hopper
    runs:
      - {worlds: [bare], variants: [g128], outcome: selected, kernel: k-hopper, candidates: []}
sources:
  - source: src-code
"""
FINDING = """name: Observed refusal explained
summary: Crafted.
claim: The engine refuses on SM90.
verdict: confirmed
conclusion: Crafted.
verified_on: 2026-11-30
evidence:
  - {source: src-code}
explains_observations:
  - {observation: eng-1-0-h1, scheme: sch-w4a16, target: gpu-sm90}
sources:
  - source: src-code
"""
RULE = "observed-cells"


def _observe(tree, release: str = "1.0") -> None:
    (tree / "records/observations").mkdir()
    (tree / "records/observations/eng-1-0-h1.yaml").write_text(OBSERVATION)
    edit(tree, "records/engines/eng.yaml", "category: serving-engine", f"category: serving-engine\nversion_read: '{release}'")


def test_agreeing_observation_passes(tree):
    _observe(tree)
    assert problems_of(tree, RULE) == []


def test_disagreement_fails_with_both_sides(tree):
    _observe(tree)
    edit(tree, "records/observations/eng-1-0-h1.yaml", "outcome: selected, kernel: k-hopper",
         "outcome: refused, error_type: ValueError, message: no kernel")
    assert problems_of(tree, RULE) == [
        "records/observations/eng-1-0-h1.yaml:10:5: error: [observed-cells] cells[0]: sch-w4a16 on gpu-sm90: the engine "
        "refuses (ValueError: no kernel) but the records derive k-hopper; fix the kernel or scheme records, or add a "
        "finding whose explains_observations names (eng-1-0-h1, sch-w4a16, gpu-sm90)"]


def test_observation_of_another_release_is_not_enforced(tree):
    _observe(tree, release="0.9")
    edit(tree, "records/observations/eng-1-0-h1.yaml", "outcome: selected, kernel: k-hopper",
         "outcome: refused, error_type: ValueError, message: no kernel")
    assert problems_of(tree, RULE) == []


def test_finding_explains_a_disagreement_and_goes_stale_when_it_agrees(tree):
    _observe(tree)
    (tree / "records/findings/observed-refusal.yaml").write_text(FINDING)
    edit(tree, "records/observations/eng-1-0-h1.yaml", "outcome: selected, kernel: k-hopper",
         "outcome: refused, error_type: ValueError, message: no kernel")
    assert problems_of(tree, RULE) == []
    edit(tree, "records/observations/eng-1-0-h1.yaml", "outcome: refused, error_type: ValueError, message: no kernel",
         "outcome: selected, kernel: k-hopper")
    assert problems_of(tree, RULE) == [
        "records/findings/observed-refusal.yaml:10:5: error: [observed-cells] explains_observations[0]: stale "
        "explanation: eng-1-0-h1 observes sch-w4a16 on gpu-sm90 as the records derive it; remove this entry"]
