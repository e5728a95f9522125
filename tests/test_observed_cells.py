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


def test_a_run_is_evidence_only_for_a_kernel_it_selected(real_atlas):
    """The harness ran vLLM 0.33.0's FP8 W8A8 selection on CPU targets with a per-channel checkpoint and a stand-in
    extension: it selected the channel-wise torch kernel, which the records' walk accepts (no disagreement), but never
    the per-tensor kernel the cell names, so that cell stays known from the code; a cell whose kernel the run
    selected is known by the run."""
    from generators.derive.history import kernel_classes, modelled_observations
    from generators.derive.observed import saw_its_kernel
    from generators.model.verdicts import KnownBy
    cells, index = real_atlas.views.cells, real_atlas.index
    newest = modelled_observations(index)["vllm"]  # the newest harness run of the release the records model
    observation = newest.data
    observed = {(c["scheme"], c["target"]): c for c in observation["cells"]}
    cpu = cells[("vllm-ct-w8a8-fp8", "arm-cpu")]
    assert not saw_its_kernel(cpu, observed[("vllm-ct-w8a8-fp8", "arm-cpu")], kernel_classes(index))
    assert (cpu.known_by, cpu.evidence) == (KnownBy.CODE, ())
    int8 = cells[("vllm-ct-w8a8-int8", "nvidia-sm89")]
    assert saw_its_kernel(int8, observed[("vllm-ct-w8a8-int8", "nvidia-sm89")], kernel_classes(index))
    assert (int8.known_by, int8.evidence) == (KnownBy.RUN, (newest.id,))


def test_a_run_that_agrees_does_not_make_a_cell_known_by_inference_read(real_atlas):
    """A run shows what the engine selects, not a step the records marked inferred (how the selected kernel then
    fails): a cell known by inference stays so when the modelled release's run agrees with it."""
    import dataclasses
    from generators.derive.observed import known_by_run
    from generators.model.verdicts import KnownBy
    cells, index = real_atlas.views.cells, real_atlas.index
    key = ("vllm-ct-w8a8-int8", "nvidia-sm89")
    assert cells[key].known_by is KnownBy.RUN  # the run agrees with this cell
    inferred = dataclasses.replace(cells[key], known_by=KnownBy.INFERRED, evidence=())
    assert known_by_run(index, {key: inferred})[key].known_by is KnownBy.INFERRED
    assert known_by_run(index, {key: dataclasses.replace(inferred, known_by=KnownBy.CODE)})[key].known_by is KnownBy.RUN
