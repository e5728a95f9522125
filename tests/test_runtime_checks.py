"""A requirement that uses an engine's runtime check derives exactly as the same requirement stated in the kernel."""
from __future__ import annotations

import json

from generators.build import check_tree
from generators.derive.runtime_checks import resolved_kernel
from generators.render import render_site

from .test_checks import edit

INLINE = "  - {check: package, value: fast, condition: the fast package installed, reason: needs fast}\n"
USES = "  - {uses: fast, reason: needs fast}\n"
CHECK = ("runtime_checks:\n  - {id: fast, check: package, value: fast, condition: the fast package installed, "
         "source: src-doc, locator: has_fast}\n")


def _cells(tree):
    atlas, problems = check_tree(tree)
    assert problems == []
    return atlas, {key: cell.as_dict() for key, cell in atlas.views.cells.items()}


def test_a_requirement_using_a_runtime_check_derives_as_if_stated_in_the_kernel(tree):
    edit(tree, "records/kernels/k-generic.yaml", "  - {check: activation-type", INLINE + "  - {check: activation-type")
    _, inline = _cells(tree)
    assert inline[("sch-w4a16", "gpu-sm80")]["conditions"][0] == "the fast package installed"
    edit(tree, "records/kernels/k-generic.yaml", INLINE, USES)
    edit(tree, "records/engines/eng.yaml", "sources:\n", CHECK + "sources:\n")
    atlas, used = _cells(tree)
    assert used == inline
    # the engine page says the check once, with the kernel that uses it; the kernel page shows it and links to it
    pages, _ = render_site(atlas, tree / "docs")
    engine_row = next(line for line in pages["engines/eng.md"].splitlines() if "<strong>fast</strong>" in line)
    assert "package: fast</small> | the fast package installed | [Generic kernel](../kernels/k-generic.md) |" in engine_row
    kernel_row = next(line for line in pages["kernels/k-generic.md"].splitlines() if "needs fast" in line)
    assert "| package |" in kernel_row and "the fast package installed" in kernel_row
    assert ('<span class="atlas-field-label">stated in</span>: [Example Engine: fast](../engines/eng.md#runtime-checks)'
            in kernel_row)  # the requirement's details cell links where the engine states the check
    kernel = atlas.index.get("kernel", "k-generic")
    resolved = resolved_kernel("k-generic", kernel.data, atlas.index.get("engine", "eng").data)
    assert resolved["requirements"][1] == {"reason": "needs fast", "check": "package", "value": "fast",
                                           "condition": "the fast package installed"}
    assert resolved is resolved_kernel("k-generic", kernel.data, atlas.index.get("engine", "eng").data)
    assert kernel.data["requirements"][1] == {"uses": "fast", "reason": "needs fast"}  # the record is never changed

def test_an_answer_cites_the_runtime_checks_its_kernel_uses(tree):
    probe = (tree / "records/sources/src-doc.yaml").read_text().replace("name:", "name: probe of", 1)
    (tree / "records/sources/src-probe.yaml").write_text(probe)
    edit(tree, "records/kernels/k-generic.yaml", "  - {check: activation-type", USES + "  - {check: activation-type")
    edit(tree, "records/engines/eng.yaml", "sources:\n", CHECK.replace("source: src-doc", "source: src-probe") + "sources:\n")
    atlas, problems = check_tree(tree)
    assert problems == []
    assert "src-probe" in atlas.views.answers[("sch-w4a16", "gpu-sm80")].sources  # the kernel does not cite it
    assert "src-probe" not in atlas.views.answers[("sch-w4a16", "cpu-avx512")].sources  # nor uses it there


def test_a_hostile_runtime_check_stays_text_in_one_table_row(tree):
    hostile = "x | y <script>alert(1)</script> [l](https://e.example) `z`"
    edit(tree, "records/kernels/k-generic.yaml", "  - {check: activation-type", USES + "  - {check: activation-type")
    edit(tree, "records/engines/eng.yaml", "sources:\n",
         CHECK.replace("locator: has_fast}", f"locator: {json.dumps(hostile)}, quote: {json.dumps(hostile)}}}")
         .replace("value: fast,", f"value: {json.dumps(hostile)},") + "sources:\n")
    atlas, problems = check_tree(tree)
    assert problems == []
    pages, _ = render_site(atlas, tree / "docs")
    row = next(line for line in pages["engines/eng.md"].splitlines() if "<strong>fast</strong>" in line)
    assert "<script>" not in row and "](https://e.example)" not in row
    assert row.count("|") == 5  # four cells and their five bars: the hostile text's `|` is escaped (&#124;)


def test_a_candidate_lists_citations_back_the_answers_on_its_platform_only(tree):
    """A scheme's citation of one backend's files (`candidates[].sources`) is listed behind the answers on targets of
    that platform, and behind no answer on another: those files decide nothing there."""
    walk = (tree / "records/sources/src-doc.yaml").read_text().replace("name:", "name: the CPU walk of", 1)
    (tree / "records/sources/src-cpu-walk.yaml").write_text(walk)
    edit(tree, "records/schemes/sch-w4a16.yaml", "    kernels: [k-cpu]\n",
         "    kernels: [k-cpu]\n    sources:\n      - {source: src-cpu-walk, locator: the CPU walk}\n")
    atlas, problems = check_tree(tree)
    assert problems == []
    answers = atlas.views.answers
    assert "src-cpu-walk" in answers[("sch-w4a16", "cpu-avx512")].sources
    assert "src-cpu-walk" not in answers[("sch-w4a16", "gpu-sm80")].sources
    assert "src-code" in answers[("sch-w4a16", "gpu-sm80")].sources  # the record's own citations back every answer


PLACED = ("runtime_checks:\n  - {id: placed, check: other, value: device_map, condition: 'the model is on the device: "
          "device_map=\"{device}\" or model.to(\"{device}\")', devices: {cuda: cuda, cpu: cpu}, source: src-doc, "
          "locator: check_and_set_device_map}\n")


def test_a_condition_naming_the_device_says_each_platforms_own(tree):
    """A placement stated once for two platforms whose engine names the device differently: the GPU answer names only
    "cuda" and the CPU one only "cpu"; the engine page shows the placeholder with each platform's name."""
    edit(tree, "records/engines/eng.yaml", "sources:\n", PLACED + "sources:\n")
    edit(tree, "records/kernels/k-generic.yaml", "  - {check: activation-type",
         "  - {uses: placed, when: {platform: [cuda]}, reason: runs on the CPU tensors}\n  - {check: activation-type")
    edit(tree, "records/kernels/k-cpu.yaml", "routes:",
         "  - {uses: placed, when: {platform: [cpu]}, reason: runs elsewhere}\nroutes:")
    atlas, cells = _cells(tree)
    assert 'the model is on the device: device_map="cuda" or model.to("cuda")' in cells[("sch-w4a16", "gpu-sm80")]["conditions"]
    assert 'the model is on the device: device_map="cpu" or model.to("cpu")' in cells[("sch-w4a16", "cpu-avx512")]["conditions"]
    assert "{device}" not in json.dumps(list(cells.values())) and "‹device›" not in json.dumps(list(cells.values()))
    pages, _ = render_site(atlas, tree / "docs")
    row = next(line for line in pages["engines/eng.md"].splitlines() if "<strong>placed</strong>" in line)
    assert 'device_map="‹device›" or model.to("‹device›") (‹device›: cuda on cuda, cpu on cpu) |' in row.replace("\\", "")
