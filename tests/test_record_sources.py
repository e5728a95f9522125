"""A kernel's and a scheme's page say what each source backs: the fields that cite one, each a group, before the rest."""
from __future__ import annotations

from generators.render.pages import names_of, record_page


def test_a_kernel_page_groups_its_sources_by_the_field_that_cites_each(real_atlas):
    """FlashInfer's CUTLASS NVFP4 kernel listed its sources flat: its code, and the runtime checks its requirements use
    (the engine's, not on the page at all before), each stand as a group saying what they back."""
    record = real_atlas.index.must("kernel", "vllm-flashinfer-cutlass-nvfp4")
    page = record_page(real_atlas, record, names_of(real_atlas))
    groups = [(what, str(which), len(cited)) for what, which, cited in page.source_groups]
    assert groups[0] == ("code", "", 1)
    checks = {c["id"]: c for c in real_atlas.index.must("engine", "vllm").data["runtime_checks"]}
    uses = [r["uses"] for r in record.data["requirements"] if "uses" in r]
    assert [w for w, _, _ in groups[1:]] == ["check"] * len(uses) and len(uses) == 2
    for (_, _, cited), check in zip(page.source_groups[1:], uses):
        assert f"sources/{checks[check]['source']}.md" in str(cited[0])
    assert len(page.sources) == len(record.data["sources"])


def test_a_scheme_page_groups_each_platform_s_candidate_list_sources(real_atlas):
    """A scheme's candidate list for one platform (vLLM's ROCm backend file) backs that platform's answers alone: its
    page says so, under that platform, rather than listing the file among the scheme's own citations."""
    record = real_atlas.index.must("scheme", "vllm-ct-w4a4-nvfp4")
    page = record_page(real_atlas, record, names_of(real_atlas))
    listed = [(what, str(which)) for what, which, _ in page.source_groups if what == "candidates"]
    assert listed == [("candidates", c["platform"]) for c in record.data["candidates"] if c.get("sources")] and listed
