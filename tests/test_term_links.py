"""Jargon on a page links to where the site defines it: the glossary's spellings (term records), first use only."""
from __future__ import annotations

from generators.derive.terms import TermLink, term_links
from generators.render.term_links import link_terms

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
    assert spellings["MMVQ"] == ("kernel", "llama-cpp-mmvq") and spellings["float8_e4m3fn"] == ("format", "fp8-e4m3")
    assert spellings["float4_e2m1f"] == ("term", "float4-e2m1f")
    assert [len(t.spelling) for t in links] == sorted((len(t.spelling) for t in links), reverse=True)
    for t in links:
        assert real_atlas.index.get(t.kind, t.record) is not None
