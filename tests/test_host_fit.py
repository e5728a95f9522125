"""A part sold with its host CPU takes a package its install route gives on other hosts only as one more condition."""
from __future__ import annotations

from generators.derive.cells import Assumed, Cell
from generators.derive.host_fit import part_answers
from generators.derive.members import members
from generators.model.atlas import Atlas
from generators.model.verdicts import Verdict

EXT = "the extension is built"
LIMITS = {"k": {EXT: ("ext", {"arch": ["x86_64"], "reason": "an x86 header", "source": "s", "locator": "l"})}}
HOSTS = {"arm-box": {"arch": "aarch64", "source": "s", "locator": "l"},
         "x86-box": {"arch": "x86_64", "source": "s", "locator": "l"}}


def _cell(verdict: Verdict, conditions: tuple[str, ...] = (), assumes: tuple[Assumed, ...] = ()) -> Cell:
    return Cell("e", "scheme", "target", verdict, "k" if verdict.loads else None, conditions, (), assumes=assumes)


def test_a_cell_that_runs_on_a_default_install_needs_a_build_on_an_arm_host_part():
    cell = _cell(Verdict.RUNS, assumes=(Assumed(EXT, "pip install e", ("ext",)),))
    (answer,) = part_answers(cell, ["arm-box", "x86-box", "a-card"], HOSTS, LIMITS)
    assert (answer.part, answer.arch, answer.verdict) == ("arm-box", "aarch64", Verdict.RUNS_IF)
    assert answer.needs[0].condition == EXT and "x86_64 hosts only, since an x86 header" in answer.conditions[0]


def test_a_conditional_answer_keeps_its_verdict_and_a_cell_that_does_not_load_gains_nothing():
    (answer,) = part_answers(_cell(Verdict.RUNS_IF, (EXT,)), ["arm-box"], HOSTS, LIMITS)
    assert answer.verdict is Verdict.RUNS_IF
    assert part_answers(_cell(Verdict.FALLBACK, (EXT,)), ["arm-box"], HOSTS, LIMITS)[0].verdict is Verdict.FALLBACK
    assert part_answers(_cell(Verdict.REFUSED), ["arm-box"], HOSTS, LIMITS) == ()
    assert part_answers(_cell(Verdict.RUNS_IF, ("another condition",)), ["arm-box"], HOSTS, LIMITS) == ()


def test_every_part_answer_on_the_real_records_restates_its_records(real_atlas: Atlas):
    """Restated from the records: a loading cell whose conditions include one whose runtime check or requirement
    states `hosts` gets a part answer on exactly the target's members whose `host_cpu` is another architecture."""
    index = real_atlas.index
    hosts = {a.id: a.data["host_cpu"]["arch"] for a in index.all("accelerator") if "host_cpu" in a.data}
    limited = {}
    for engine in index.all("engine"):
        for check in engine.data.get("runtime_checks", []):
            if "hosts" in check:
                limited[check.get("condition", "")] = set(check["hosts"]["arch"])
    for kernel in index.all("kernel"):
        for requirement in kernel.data.get("requirements", []):
            if "hosts" in requirement:
                limited[requirement.get("condition", "")] = set(requirement["hosts"]["arch"])
    assert limited and hosts, "the records state no host limit or no fixed host: nothing is tested"
    seen = 0
    for (scheme_id, target_id), answer in real_atlas.views.answers.items():
        cell = answer.cell
        stated = {*cell.conditions, *(a.condition for a in cell.assumes), *(a.condition for a in cell.opt_in)}
        arches = [limited[c] for c in stated if c in limited]
        target = index.must("hardware-target", target_id)
        expected = sorted(p for p in members(index, target) if p in hosts and cell.verdict.loads
                          and any(hosts[p] not in a for a in arches))
        assert [p.part for p in answer.on_parts] == expected, (scheme_id, target_id)
        seen += len(expected)
        assert all(p.verdict.value == ("runs-if" if cell.verdict is Verdict.RUNS else cell.verdict.value)
                   for p in answer.on_parts)
    assert seen >= 6  # ExLlamaV2's loading cells on SM 10.x and 12.x, on the GB200 and the GB10
