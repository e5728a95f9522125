"""Jargon on a page links to where the site defines it: the glossary's spellings (term records), first use only."""
from __future__ import annotations

from generators.derive.terms import TermLink, term_links
from generators.render.term_links import link_terms

from .conftest import write
from .test_checks import edit

TERMS = (TermLink("compute capability", "term", "compute-capability", "compute-capability", "compute capability (NVIDIA)"),
         TermLink("float4_e2m1f", "term", "float4-e2m1f", "float4-e2m1f", "float4_e2m1f"),
         TermLink("MMQ", "kernel", "llama-cpp-mmq", "mmq", "MMQ"))

PAGE = """---
description: compute capability
---
# MMQ on compute capability

A `compute capability` span, [compute capability](../x.md), <span title="compute capability">a</span>, MMQs,
<a href="../y/">MMQ in a link</a>, <code>MMQ</code>,
then compute capability 8.0 and float4\\_e2m1f weights; again compute capability and MMQ, MMQ.
"""


def test_a_page_links_the_first_plain_use_of_each_spelling_once():
    linked = link_terms(PAGE, TERMS, "kernels/vllm-marlin.md")
    body = linked.split("\n# ", 1)[1]
    assert linked.count('class="atlas-term"') == 3
    assert ('<a class="atlas-term" href="../../terms/compute-capability/" title="compute capability (NVIDIA)">'
            'compute capability</a> 8.0') in body
    assert '<a class="atlas-term" href="../../terms/float4-e2m1f/" title="float4_e2m1f">float4\\_e2m1f</a>' in body
    assert 'again compute capability and <a class="atlas-term" href="../llama-cpp-mmq/" title="MMQ">MMQ</a>, MMQ.' in body
    # untouched: front matter, the heading, a code span, a link (Markdown or HTML), code, a tag's attribute, a longer word
    assert linked.startswith(PAGE[:PAGE.index("A `compute")]) and "MMQs," in body


def test_the_page_a_term_leads_to_does_not_link_it_to_itself():
    linked = link_terms(PAGE, TERMS, "kernels/llama-cpp-mmq.md")
    assert "llama-cpp-mmq/" not in linked and linked.count('class="atlas-term"') == 2


def test_the_real_glossary_links_its_jargon_from_the_records(real_atlas):
    """Every spelling of a term record is linked, to the record `defined_by` names or to the term; the longest first."""
    links = term_links(real_atlas.index)
    spellings = {t.spelling: (t.kind, t.record) for t in links}
    assert spellings["float8_e4m3fn"] == ("format", "fp8-e4m3")
    assert spellings["float4_e2m1f"] == ("term", "float4-e2m1f")
    assert [len(t.spelling) for t in links] == sorted((len(t.spelling) for t in links), reverse=True)
    for t in links:
        assert real_atlas.index.get(t.kind, t.record) is not None


def test_a_name_several_kernels_carry_links_to_the_glossary_which_lists_them(real_atlas):
    """"Marlin" on a vLLM page is vLLM's Marlin, not IST-DASLab's kernel, and "MMQ" on a vllm-gguf-plugin page the
    plugin's port: a link never leads to one kernel where other kernel records carry the same name; it leads to the
    term's page, which names each of them."""
    from generators.derive.terms import named_kernels
    from generators.render.pages import named_lead, record_page, names_of

    index = real_atlas.index
    names = names_of(real_atlas)
    for link in term_links(index):
        named = named_kernels(index, [link.spelling])
        if link.kind == "kernel":
            assert named in ((), (link.record,)), (link.spelling, named)
        if len(named) > 1:
            assert (link.kind, link.record) == ("term", link.term)
            page = record_page(real_atlas, index.get("term", link.term), names)
            listed = str(dict(page.lead)["Kernels of this name"])
            assert all(f"kernels/{k}." in listed for k in named), listed
    assert len(named_kernels(index, ["Marlin"])) > 2 and named_lead  # vLLM's Marlin kernels beside the original


def test_an_engine_message_or_a_quote_is_never_linked_inside():
    """A verbatim engine message says what the engine prints, a quote what its source says: a link inside would put
    the site's words in theirs (vLLM's "MacheteLinearKernel requires capability 90, current compute capability is"
    linked "compute capability" on 13 kernel pages). The first use outside them is linked instead; hostile text
    around a spelling stays escaped."""
    from generators.derive.terms import verbatim_texts
    from generators.render.markdown import escape_text

    data = {"requirements": [{"reason": "MMQ needs compute capability 8.0", "reason_verbatim": True},
                             {"reason": "the atlas's own MMQ words", "reason_verbatim": False}],
            "sources": [{"source": "s", "quote": "float4_e2m1f = ScalarType.float_(2, 1)"}]}
    assert list(verbatim_texts(data)) == ["MMQ needs compute capability 8.0", "float4_e2m1f = ScalarType.float_(2, 1)"]
    quote = escape_text("float4_e2m1f = ScalarType.float_(2, 1)")  # as a page writes record text
    page = (f"# Kernel\n\n| reason | MMQ needs compute capability 8.0 |\n\nquote: {quote}"
            "\n\n&lt;script&gt;then MMQ and compute capability and float4\\_e2m1f&lt;/script&gt;\n")
    linked = link_terms(page, TERMS, "kernels/x.md", tuple(verbatim_texts(data)))
    assert "| reason | MMQ needs compute capability 8.0 |" in linked
    assert "quote: float4\\_e2m1f = " in linked
    assert linked.count('class="atlas-term"') == 3 and "<script" not in linked
    assert linked.endswith('and <a class="atlas-term" href="../../terms/float4-e2m1f/" title="float4_e2m1f">'
                           'float4\\_e2m1f</a>&lt;/script&gt;\n')


def test_quoted_texts_that_overlap_or_nest_each_keep_their_spelling_unlinked() -> None:
    """A message can be quoted inside a longer one (a failure message that lists each kernel's refusal): a use inside
    either is left, and the first use outside both is linked."""
    page = "# K\n\nraised: Failed: MMQ needs compute capability 8.0 (MMQ off); MMQ again, compute capability\n"
    quoted = ("MMQ needs compute capability 8.0", "Failed: MMQ needs compute capability 8.0 (MMQ off)")
    linked = link_terms(page, TERMS, "kernels/x.md", quoted)
    assert "raised: Failed: MMQ needs compute capability 8.0 (MMQ off); " in linked
    assert linked.count('class="atlas-term"') == 2 and linked.endswith(
        '<a class="atlas-term" href="../llama-cpp-mmq/" title="MMQ">MMQ</a> again, <a class="atlas-term" '
        'href="../../terms/compute-capability/" title="compute capability (NVIDIA)">compute capability</a>\n')


def test_every_kind_of_verbatim_text_is_found() -> None:
    """A trap's messages, an observation's message and refusals are the engine's words as much as a requirement's
    reason: each is verbatim text (they were linked inside on a trap's page)."""
    from generators.derive.terms import verbatim_texts

    trap = {"summary": "MMQ fails", "messages": ["CUDA error: MMQ kernel failed"], "workaround": "update"}
    observation = {"cells": [{"runs": [{"message": "Marlin FP4 not available", "candidates": ["K.check refused: x"]}],
                              "reasons": ["MMQ: no"]}]}
    assert list(verbatim_texts(trap)) == ["CUDA error: MMQ kernel failed"]
    assert list(verbatim_texts(observation)) == ["Marlin FP4 not available", "K.check refused: x", "MMQ: no"]


def test_a_quoted_stretch_is_a_verbatim_text_holding_a_spelling_cut_at_its_placeholders(tree) -> None:
    """A kernel's refusal is a template the engine fills per cell ("... current compute capability is {cc}"): what a
    page shows of it as recorded is the text between the placeholders, and only a stretch that holds a spelling could
    hold a link. A stretch that is a spelling alone is left out, or no page could link that spelling."""
    from generators.build import check_tree
    from generators.derive.terms import quoted_holding, quoted_stretches

    _with_term(tree, "compute capability")
    edit(tree, "records/kernels/k-generic.yaml", '"Generic kernel requires capability >= 80"',
         '"Generic kernel requires {min}, current compute capability is {cc}"')
    edit(tree, "records/kernels/k-cpu.yaml", 'reason: "unsupported weight type"', 'reason: "compute capability"')
    atlas, _ = check_tree(tree)
    assert atlas is not None
    stretches = quoted_stretches(atlas.index, atlas.views.term_links)
    assert stretches == ("Hopper kernel requires compute capability of 90", "current compute capability is")
    assert quoted_holding(stretches, ["compute capability"]) == list(stretches)
    assert quoted_holding(stretches, ["capability of"]) == ["Hopper kernel requires compute capability of 90"]


def test_quoted_stretches_follow_an_edit_in_one_process(tree) -> None:
    """Each record's stretches are kept by its text (an edit under `serve` finds them again for that record alone):
    a second run in the same process sees the edited message, and a removed record's stretch goes."""
    from generators.build import check_tree
    from generators.derive.terms import quoted_stretches

    _with_term(tree, "compute capability")
    first, _ = check_tree(tree)
    assert first is not None
    assert quoted_stretches(first.index, first.views.term_links) == ("Hopper kernel requires compute capability of 90",)
    edit(tree, "records/kernels/k-generic.yaml", '"Generic kernel requires capability >= 80"',
         '"Generic kernel requires compute capability 80 or more"')
    edit(tree, "records/kernels/k-hopper.yaml", "Hopper kernel requires compute capability of 90",
         "Hopper kernel requires sm_90")
    second, _ = check_tree(tree)
    assert second is not None
    assert quoted_stretches(second.index, second.views.term_links) == (
        "Generic kernel requires compute capability 80 or more",)


def test_no_page_links_a_term_inside_another_record_s_engine_message(tree) -> None:
    """A page shows other records' verbatim text too: a hardware target's table of cells every kernel's refusal as the
    engine prints it, a finding or a chapter the message it quotes. vLLM's "Marlin FP4 not available" had "Marlin"
    linked on nine target pages, and "... current compute capability is" on a scheme's page, although the kernel's own
    page left them alone. Every page skips every record's verbatim text, and links the site's own use after it."""
    from generators.build import render_tree

    _with_term(tree, "compute capability")
    message = "Hopper kernel requires compute capability of 90"  # k-hopper's verbatim reason
    edit(tree, "records/findings/cpu-cell-wrong.yaml", "conclusion: The CPU kernel",
         f"conclusion: The engine prints '{message}'; compute capability is not tested on a CPU. The CPU kernel")
    write(tree, "docs/chapters/demo.md.j2", "{# allow-literal: 90 -- the engine's message #}# Demo\n\nThe engine "
                                             f"prints: {message}. In our words, compute capability is a version.\n")
    pages, problems = render_tree(tree)
    assert not [p for p in problems if p.severity == "error"], problems
    link = '<a class="atlas-term" href="../../terms/compute-capability/" title="compute capability">compute capability</a>'
    assert pages["chapters/demo.md"].endswith(f"prints: {message}. In our words, {link} is a version.\n")
    assert f"The engine prints '{message}'; {link} is not tested" in pages["findings/cpu-cell-wrong.md"]


def _with_term(tree, spelling: str) -> None:
    write(tree, f"records/terms/{spelling.replace(' ', '-')}.yaml",
          f"name: {spelling}\nsummary: What NVIDIA calls a GPU's version.\nspellings: [{spelling}]\n"
          "sources:\n  - source: src-doc\n")


def test_a_use_is_a_whole_word_found_past_a_part_word() -> None:
    from generators.render.term_links import _uses
    text = "MMQx MMQ_y xMMQ MMQ."
    assert list(_uses(text, "MMQ")) == [(16, 19)]
