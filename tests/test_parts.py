"""A part can need more than its target: a build for its fixed host CPU, or for its own compute capability."""
from __future__ import annotations

from generators.derive.cells import Assumed, Build, Cell, Install, _runs_on
from generators.derive.host_fit import host_needs
from generators.derive.members import members
from generators.derive.part_builds import build_needs, capabilities
from generators.derive.parts import part_answers
from generators.model.atlas import Atlas
from generators.model.verdicts import Verdict

EXT = "the extension is built"
LIMITS = {"k": {EXT: ("ext", {"arch": ["x86_64"], "reason": "an x86 header", "source": "s", "locator": "l"})}}
HOSTS = {"arm-box": {"arch": "aarch64", "source": "s", "locator": "l"},
         "x86-box": {"arch": "x86_64", "source": "s", "locator": "l"}}


def _cell(verdict: Verdict, conditions: tuple[str, ...] = (), assumes: tuple[Assumed, ...] = ()) -> Cell:
    return Cell("e", "scheme", "target", verdict, "k" if verdict.loads else None, conditions, (), assumes=assumes)


def _hosted(cell: Cell, parts: list[str]):
    return part_answers(cell, host_needs(cell, parts, HOSTS, LIMITS))


def test_a_cell_that_runs_on_a_default_install_needs_a_build_on_an_arm_host_part():
    cell = _cell(Verdict.RUNS, assumes=(Assumed(EXT, "pip install e", ("ext",)),))
    (answer,) = _hosted(cell, ["arm-box", "x86-box", "a-card"])
    assert (answer.part, answer.verdict) == ("arm-box", Verdict.RUNS_IF)
    assert answer.conditions[0].startswith("ext built for this part's aarch64 host CPU")
    assert "x86_64 hosts only, since an x86 header" in answer.conditions[0] and answer.needs[0].source == "s"


def test_a_conditional_answer_keeps_its_verdict_and_a_cell_that_does_not_load_gains_nothing():
    assert _hosted(_cell(Verdict.RUNS_IF, (EXT,)), ["arm-box"])[0].verdict is Verdict.RUNS_IF
    assert _hosted(_cell(Verdict.FALLBACK, (EXT,)), ["arm-box"])[0].verdict is Verdict.FALLBACK
    assert _hosted(_cell(Verdict.REFUSED), ["arm-box"]) == ()
    assert _hosted(_cell(Verdict.RUNS_IF, ("another condition",)), ["arm-box"]) == ()


def test_an_arch_specific_cubin_runs_on_its_own_capability_alone():
    assert _runs_on([100], [], 103) and not _runs_on([100], [], 103, exact=[100])
    assert _runs_on([100], [], 100, exact=[100]) and _runs_on([100], [90], 103, exact=[100])  # PTX carries forward
    assert not _runs_on([80], [], 90)  # never across a major


def test_a_part_of_a_later_minor_needs_a_build_where_the_targets_cubin_is_arch_specific():
    exact = Install(builds=(Build("lib.so", cubins=(90, 100), source="w", exact=(100,)),))
    family = Install(builds=(Build("lib.so", cubins=(90, 100), source="w"),))
    caps = {"b200": 100, "b300": 103}
    (answer,) = part_answers(_cell(Verdict.RUNS), build_needs(_cell(Verdict.RUNS), 100, ["b200", "b300"], caps, exact))
    assert (answer.part, answer.verdict, answer.needs[0].source) == ("b300", Verdict.RUNS_IF, "w")
    assert answer.conditions[0].startswith("a build compiled for compute capability 10.3 in place of lib.so")
    assert "9.0, 10.0a" in answer.conditions[0] and "'a' cubin runs on its own capability alone" in answer.conditions[0]
    assert build_needs(_cell(Verdict.RUNS), 100, ["b200", "b300"], caps, family) == {}
    assert build_needs(_cell(Verdict.REFUSED), 100, ["b300"], caps, exact) == {}


def test_every_part_answer_on_the_real_records_restates_its_records(real_atlas: Atlas):
    """Restated from the records: a loading cell gets a part answer on exactly the target's members that either have
    a fixed `host_cpu` another architecture than a condition's `hosts`, or a compute capability other than the
    target's that some `built_for` entry of the engine's default install on the platform does not cover, or a fixed
    host that some `built_for` entry is not published for while none published for it has a cubin for the part."""
    index = real_atlas.index
    hosts = {a.id: a.data["host_cpu"]["arch"] for a in index.all("accelerator") if "host_cpu" in a.data}
    caps = capabilities(index)
    limited = {}
    for engine in index.all("engine"):
        for check in engine.data.get("runtime_checks", []):
            if "hosts" in check:
                limited[check.get("condition", "")] = set(check["hosts"]["arch"])
    for kernel in index.all("kernel"):
        for requirement in kernel.data.get("requirements", []):
            if "hosts" in requirement:
                limited[requirement.get("condition", "")] = set(requirement["hosts"]["arch"])
    built = {(e.id, i["platform"]): i.get("built_for", []) for e in index.all("engine") for i in e.data.get("default_install", [])}
    assert limited and hosts and any(b.get("arch_specific") for v in built.values() for b in v), "nothing is tested"

    def covers(entry, capability):
        exact = entry.get("arch_specific", [])
        return any(c == capability if c in exact else c // 10 == capability // 10 and c <= capability
                   for c in entry.get("compute_capability", [])) or any(p <= capability for p in entry.get("ptx", []))

    def cubin(entry, capability):
        exact = entry.get("arch_specific", [])
        return any(c == capability if c in exact else c // 10 == capability // 10 and c <= capability
                   for c in entry.get("compute_capability", []))

    seen = {"host": 0, "build": 0, "download": 0}
    for (scheme_id, target_id), answer in real_atlas.views.answers.items():
        cell = answer.cell
        target = index.must("hardware-target", target_id)
        stated = {*cell.conditions, *(a.condition for a in cell.assumes), *(a.condition for a in cell.opt_in)}
        arches = [limited[c] for c in stated if c in limited]
        entries = [b for b in built.get((cell.engine, target.data["platform"]), []) if "compute_capability" in b]
        expected = []
        for part in sorted(members(index, target)):
            by_host = part in hosts and any(hosts[part] not in a for a in arches)
            on_host = [b for b in entries if part in hosts and hosts[part] in b.get("hosts", [hosts[part]])]
            # a part sold with its host takes only the downloads published for it (trt48: the GB10 gets the
            # aarch64 onnxruntime-gpu wheel, which has sm_121a code the x86_64 one lacks)
            usable = on_host or entries
            by_build = (part in caps and caps[part] != target.data.get("compute_capability")
                        and any(not covers(b, caps[part]) for b in usable))
            by_download = (part in hosts and len(on_host) < len(entries)
                           and not any(cubin(b, caps[part]) for b in on_host))
            if cell.verdict.loads and (by_host or by_build or by_download):
                expected.append(part)
                seen["host"] += by_host
                seen["build"] += by_build
                seen["download"] += by_download
        assert [p.part for p in answer.on_parts] == expected, (scheme_id, target_id)
        assert all(p.verdict.value == ("runs-if" if cell.verdict is Verdict.RUNS else cell.verdict.value)
                   for p in answer.on_parts)
    # ExLlamaV2 on the GB200 and the GB10; MLX-LM on the B300; llama.cpp on the GB200, whose aarch64 host has only the
    # CUDA 13.4 asset (release.yml at b11312, ubuntu-cuda matrix lines 322-340)
    assert seen["host"] >= 6 and seen["build"] >= 5 and seen["download"] >= 11


def test_a_build_names_the_published_build_that_covers_what_it_lacks():
    build = Build("the 13.4 asset", cubins=(86,), ptx=(75,), source="w", alternative="the 12.8 asset")
    said = build.condition(build.missing_capability(70))
    assert said.startswith("a build compiled for compute capability 7.0 in place of the 13.4 asset")
    assert said.endswith("; the 12.8 asset is such a build)") and build.missing_capability(75) == ""


def test_a_part_that_only_some_alternative_downloads_serve_needs_the_choice_its_target_does_not():
    # Two downloads of one release: the new one has an arch-specific 12.0 cubin only, the old one a plain 12.0 cubin.
    # A 12.1 part beside the 12.0 target runs only the old one; a 12.0 part needs nothing the target does not.
    new = Build("new", cubins=(120,), exact=(120,), source="w", one_of="assets", toolkit="13.4")
    old = Build("old", cubins=(120,), source="w", one_of="assets", toolkit="12.8")
    caps = {"box": 120, "spark": 121}
    needs = build_needs(_cell(Verdict.RUNS), 120, ["box", "spark"], caps, Install(builds=(new, old)))
    assert list(needs) == ["spark"] and [n.said for n in needs["spark"]] == ["old; new carries no code for 12.1"]
    # the same choice on the target and the part (both run only the same PTX) is the target's, not the part's
    ptx_only = (Build("a", ptx=(90,), source="w", one_of="x", toolkit="13.4"), Build("b", ptx=(90,), source="w", one_of="x"))
    assert build_needs(_cell(Verdict.RUNS), 100, ["b300"], {"b300": 103}, Install(builds=ptx_only)) == {}


def test_a_part_sold_with_its_host_chooses_among_the_downloads_published_for_that_host():
    # Two downloads of one release running a 10.0 part from PTX: the x86_64-only one is not for an aarch64 host, so an
    # aarch64 part takes the other, with a driver of its toolkit; an x86_64 part or one of no fixed host needs no more
    # than the target (llama.cpp b11312: the CUDA 12.8 asset is x64 only, release.yml lines 326-340).
    both = Build("new", ptx=(90,), source="w", one_of="assets", toolkit="13.4", hosts=("x86_64", "aarch64"))
    x86 = Build("old", ptx=(90,), source="w", one_of="assets", toolkit="12.8", hosts=("x86_64",))
    install = Install(builds=(both, x86))
    caps = {"arm-box": 100, "x86-box": 100, "card": 100}
    needs = build_needs(_cell(Verdict.RUNS), 100, ["arm-box", "x86-box", "card"], caps, install,
                        {"arm-box": "aarch64", "x86-box": "x86_64"})
    assert list(needs) == ["arm-box"] and [n.said for n in needs["arm-box"]] == [
        "new with a driver that supports CUDA 13.4 or later (its code here is PTX for 9.0, which the driver compiles when it "
        "first loads it; a driver older than the toolkit refuses it with CUDA error 222, 'the provided PTX was compiled "
        "with an unsupported toolchain'); old is published for x86_64 hosts only"]
    # a cubin in the download the host has: nothing to choose
    own = Build("new", cubins=(100,), source="w", one_of="assets", toolkit="13.4", hosts=("x86_64", "aarch64"))
    assert build_needs(_cell(Verdict.RUNS), 100, ["arm-box"], caps, Install(builds=(own, x86)),
                       {"arm-box": "aarch64"}) == {}


def test_a_part_sold_with_its_host_needs_a_build_only_in_place_of_the_downloads_published_for_that_host():
    # trt48: onnxruntime-gpu 1.31.1's Linux wheels, one per host, neither with code for 10.0. A Grace-based part at the
    # target's capability gets the aarch64 wheel from pip, so it needs a build in place of that one alone, not of both.
    x86 = Build("x86 wheel", cubins=(75, 80, 90, 120), exact=(90, 120), source="x", one_of="wheels", hosts=("x86_64",))
    arm = Build("arm wheel", cubins=(89, 90, 120, 121), exact=(90, 120, 121), source="a", one_of="wheels",
                hosts=("aarch64",))
    needs = build_needs(_cell(Verdict.RUNS), 100, ["grace-part", "b300"], {"grace-part": 100, "b300": 103},
                        Install(builds=(x86, arm)), {"grace-part": "aarch64"})
    assert [n.source for n in needs["grace-part"]] == ["a"]
    assert needs["grace-part"][0].said.startswith("a build compiled for compute capability 10.0 in place of arm wheel")
    # a part of no fixed host needs a build in place of each, as the target does
    assert [n.source for n in needs["b300"]] == ["x", "a"]
