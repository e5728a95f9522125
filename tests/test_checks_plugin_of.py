"""An engine that has no platform of its own where its plugin adds one, an engine of its own, says so once (`plugin_of` on the
plugin's record, checks/plugin_of.py): the host's schemes then have no cell there, and explain and the data API send
a reader of them to the plugin (derive/plugins.py) rather than say only that nothing is derived."""
from __future__ import annotations


from generators.build import check_tree, render_tree
from generators.derive import wording
from generators.derive.wording import fill, words
from generators.explain import explain_text
from generators.render import pages as pages_module
from generators.render.api import index_document

from .test_checks import edit, problems_of

PLUGIN = """name: Example plugin
summary: Adds a CPU platform to the example engine.
category: serving-engine
plugin_of: {engine: eng, platforms: [cpu], source: src-code, locator: entry points, quote: 'cpu = plug:register'}
sources:
  - source: src-code
"""
KERNEL = """name: Plugin CPU kernel
summary: The plugin's CPU kernel.
engine: plug
registry: mixed-precision-linear
code: {source: src-code, locator: PlugKernel}
requirements:
  - {check: platform, values: [cpu], reason: "only CPU", reason_verbatim: false}
sources:
  - source: src-code
"""
SCHEME = """name: Plugin W4A16 scheme
summary: INT4 weights on the plugin's CPU platform.
engine: plug
formats: [fmt-int4]
config:
  weight_type: int4
  activation_types: [float16, bfloat16]
  group_sizes: [128]
  activation_quantized: false
candidates:
  - platform: cpu
    kernels: [k-plug]
code: {source: src-code, locator: PlugScheme}
sources:
  - source: src-code
"""
RULE = "plugin-of"
HOST_CPU = "  - platform: cpu\n    kernels: [k-cpu]\n"


def with_plugin(tree, host_keeps_cpu=False, scheme=SCHEME):
    (tree / "records/engines/plug.yaml").write_text(PLUGIN)
    (tree / "records/kernels/k-plug.yaml").write_text(KERNEL)
    (tree / "records/schemes/sch-plug.yaml").write_text(scheme)
    if not host_keeps_cpu:
        edit(tree, "records/schemes/sch-w4a16.yaml", HOST_CPU, "")
        # the finding explains the host's CPU cell, which the publisher's table disputes: with no such cell, nothing to explain
        (tree / "records/findings/cpu-cell-wrong.yaml").unlink()
    return tree


def test_the_plugin_answers_on_its_platform_and_the_host_scheme_points_to_it(tree):
    atlas, problems = check_tree(with_plugin(tree))
    assert [str(p) for p in problems if p.severity == "error"] == []
    assert ("sch-plug", "cpu-avx512") in atlas.views.cells and ("sch-w4a16", "cpu-avx512") not in atlas.views.cells
    text, ok = explain_text(atlas, "sch-w4a16", "cpu-avx512")
    assert ok and text == (
        "sch-w4a16 on cpu-avx512: NOT DERIVED for this scheme: Example Engine has no platform cpu of its own (none "
        "at a release not recorded, the release read): it runs there through its plugin Example plugin (engine plug), "
        "which the atlas records as an engine of its own, read at a release not recorded: that engine's schemes are "
        "the answers here\n  its schemes: sch-plug\n"
        f"  Example plugin's dense-layer schemes reading INT4 weight-only here: sch-plug "
        f"({atlas.views.cells[('sch-plug', 'cpu-avx512')].verdict.value})")
    engines = {e["id"]: e for e in index_document(atlas)["records"]["engine"]}
    assert engines["eng"]["through_plugin"] == {"cpu": "plug"} and "through_plugin" not in engines["plug"]


def test_a_host_scheme_listing_candidates_on_the_plugins_platform_fails(tree):
    with_plugin(tree, host_keeps_cpu=True)
    assert problems_of(tree, RULE) == [
        "records/schemes/sch-w4a16.yaml:15:15: error: [plugin-of] candidates[1].platform: 'eng' reaches platform 'cpu' "
        "only through its plugin 'plug' (plugin_of in 'plug'), whose schemes answer there; record this route as a "
        "scheme of 'plug', or remove 'cpu' from the plugin's platforms"]


def test_a_plugin_scheme_on_another_platform_and_a_plugin_of_itself_fail(tree):
    with_plugin(tree, scheme=SCHEME.replace("  - platform: cpu\n", "  - platform: cuda\n    kernels: [k-plug]\n"
                                                                      "  - platform: cpu\n"))
    assert problems_of(tree, RULE) == [
        "records/schemes/sch-plug.yaml:11:15: error: [plugin-of] candidates[0].platform: 'plug' is 'eng''s plugin for "
        "cpu only, so it has no candidates on platform 'cuda'; add the platform to its plugin_of or record this as a "
        "scheme of 'eng'"]
    edit(tree, "records/engines/plug.yaml", "{engine: eng,", "{engine: plug,")
    assert problems_of(tree, RULE) == [
        "records/engines/plug.yaml:4:21: error: [plugin-of] plugin_of.engine: an engine cannot be its own platform "
        "plugin; name the engine that loads it or remove plugin_of"]


def test_where_none_of_the_plugins_schemes_reads_the_format_the_pointer_says_it_is_a_gap(tree):
    """A host scheme's format that no scheme of the plugin reads (vLLM's NVFP4 scheme on Gaudi, where vLLM-Gaudi has
    no NVFP4 scheme): the pointer to the plugin also says its answers are a gap for that format, not a route."""
    atlas, problems = check_tree(with_plugin(tree, scheme=SCHEME.replace("formats: [fmt-int4]", "formats: [fmt-fp4]")))
    assert [str(p) for p in problems if p.severity == "error"] == []
    text, ok = explain_text(atlas, "sch-w4a16", "cpu-avx512")
    assert ok and "the answers here; none of Example plugin's schemes in the atlas reads INT4 weight-only, so for it " \
        "the atlas cannot say (a gap, not a refusal)\n  its schemes: sch-plug" in text


def test_every_format_a_scheme_reads_counts_not_its_first_only(tree):
    """A scheme may read several formats (vLLM's compressed-tensors NVFP4 reads NVFP4 and llm-compressor checkpoints):
    explain once asked only about the first, so a host scheme whose second format the plugin reads was told the plugin
    reads none of it. The plugin's pointer says the plugin reads none of exactly the formats it reads none of."""
    with_plugin(tree)
    edit(tree, "records/schemes/sch-w4a16.yaml", "formats: [fmt-int4]", "formats: [fmt-fp4, fmt-int4]")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    text, ok = explain_text(atlas, "sch-w4a16", "cpu-avx512")
    assert ok and "; none of Example plugin's schemes in the atlas reads FP4 block format, so for it" in text
    assert "reads INT4 weight-only" not in text and "reads FP4 block format or" not in text


def test_another_engines_scheme_answers_only_where_it_reads_every_format_the_scheme_reads(tree):
    """The other engine's schemes explain names for a scheme with no cell here (the plugin's on its platform, the
    host's off it) are those reading every format the scheme reads (derive/plugins.py answers_for). The plugin's
    INT4 scheme reads the host scheme's second format and not its first (vLLM-Gaudi's compressed-tensors W4A16 reads
    llm-compressor checkpoints and no NVFP4), so it is no answer for it: explain says the first format's gap and names
    nothing for the second, where it once named the INT4 scheme. Once the plugin's scheme reads both, it is the answer,
    named once for both formats, and the same rule names the host's scheme for the plugin's off its platform."""
    with_plugin(tree)
    edit(tree, "records/schemes/sch-w4a16.yaml", "formats: [fmt-int4]", "formats: [fmt-fp4, fmt-int4]")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    text, ok = explain_text(atlas, "sch-w4a16", "cpu-avx512")
    assert ok and text.endswith("\n  its schemes: sch-plug\n  Example plugin's dense-layer schemes reading FP4 block format here: "
                                "none in the atlas"), text
    assert "reading INT4 weight-only" not in text
    edit(tree, "records/schemes/sch-plug.yaml", "formats: [fmt-int4]", "formats: [fmt-int4, fmt-fp4]")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    plug, host = atlas.views.cells[("sch-plug", "cpu-avx512")], atlas.views.cells[("sch-w4a16", "gpu-sm80")]
    text, ok = explain_text(atlas, "sch-w4a16", "cpu-avx512")
    assert ok and "in the atlas reads" not in text and text.endswith(
        f"\n  Example plugin's dense-layer schemes reading FP4 block format and INT4 weight-only here: sch-plug ({plug.verdict.value})")
    text, ok = explain_text(atlas, "sch-plug", "gpu-sm80")
    assert ok and text.endswith(
        f"\n  Example Engine's dense-layer schemes reading INT4 weight-only and FP4 block format here: sch-w4a16 ({host.verdict.value})")


def test_another_engines_scheme_answers_only_for_the_layers_it_covers(tree):
    """A cell describes only its scheme's layers (`layers`): dense unless the record says experts. The rule once read
    the formats alone, so on Gaudi vLLM's dense compressed-tensors WNA16 scheme was answered by vLLM-Gaudi's
    compressed-tensors WNA16 MoE scheme, which describes a mixture-of-experts model's expert layers only. The plugin's
    expert-layer scheme reading the host scheme's format is no answer for it, and explain says which layers the schemes
    it names cover; the same scheme answers for a host scheme whose cells describe expert layers too, and the dense one
    then does not."""
    with_plugin(tree)
    (tree / "records/kernels/k-plug-moe.yaml").write_text(KERNEL.replace("Plugin CPU kernel", "Plugin CPU MoE kernel"))
    (tree / "records/schemes/sch-plug-moe.yaml").write_text(
        SCHEME.replace("name: Plugin W4A16 scheme", "name: Plugin W4A16 MoE scheme").replace(
            "engine: plug\n", "engine: plug\nlayers: experts\nother_layers: {no_scheme: the other layers stay in the model dtype, source: src-code, locator: PlugScheme}\n").replace("kernels: [k-plug]", "kernels: [k-plug-moe]"))
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    assert ("sch-plug-moe", "cpu-avx512") in atlas.views.cells
    dense, experts = atlas.views.cells[("sch-plug", "cpu-avx512")], atlas.views.cells[("sch-plug-moe", "cpu-avx512")]
    text, ok = explain_text(atlas, "sch-w4a16", "cpu-avx512")
    assert ok and text.endswith("\n  its schemes: sch-plug, sch-plug-moe\n  Example plugin's dense-layer schemes "
                                f"reading INT4 weight-only here: sch-plug ({dense.verdict.value})"), text
    edit(tree, "records/schemes/sch-w4a16.yaml", "engine: eng\n", "engine: eng\nlayers: experts\nother_layers: {no_scheme: the other layers stay in the model dtype, source: src-code, locator: PlugScheme}\n")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    text, ok = explain_text(atlas, "sch-w4a16", "cpu-avx512")
    assert ok and text.endswith("\n  Example plugin's expert-layer schemes reading INT4 weight-only here: sch-plug-moe "
                                f"({experts.verdict.value})"), text


ELSEWHERE = """  elsewhere:
  - {text: The hook imports a package only the CPU vendor's software installs., source: src-code, locator: 'hook, line 3'}
  - {text: The host skips a hook that raises., source: src-code, locator: 'detect, lines 9-12'}
"""


def test_a_plugin_scheme_off_the_plugins_platforms_is_not_a_gap_the_host_answers_there(tree):
    """The mirror of the pointer above: the plugin's scheme on a CUDA target (vLLM-Gaudi's AWQ scheme on an NVIDIA A10)
    has no cell, and that is not a gap in the atlas (no engine's dispatch unread) nor a verdict: the plugin adds cpu only,
    and on cuda the host engine answers with its own schemes, which explain names with their verdicts on the target,
    after the record's steps saying why (plugin_of.elsewhere)."""
    with_plugin(tree)
    (tree / "records/engines/plug.yaml").write_text(PLUGIN.replace(
        "plugin_of: {engine: eng, platforms: [cpu], source: src-code, locator: entry points, quote: 'cpu = plug:register'}\n",
        "plugin_of:\n  engine: eng\n  platforms: [cpu]\n  source: src-code\n  locator: entry points\n"
        "  quote: 'cpu = plug:register'\n" + ELSEWHERE))
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    assert ("sch-plug", "gpu-sm80") not in atlas.views.cells
    host_cell = atlas.views.cells[("sch-w4a16", "gpu-sm80")]
    text, ok = explain_text(atlas, "sch-plug", "gpu-sm80")
    assert ok and text == (
        "sch-plug on gpu-sm80: NOT ON THIS PLATFORM: Example plugin (engine plug) is Example Engine's platform plugin "
        "for cpu only (read at a release not recorded): it adds no platform cuda, so none of its schemes runs here; on "
        "platform cuda, Example Engine answers with its own schemes\n"
        "  why: The hook imports a package only the CPU vendor's software installs. (src-code, hook, line 3)\n"
        "  why: The host skips a hook that raises. (src-code, detect, lines 9-12)\n"
        f"  Example Engine's dense-layer schemes reading INT4 weight-only here: sch-w4a16 ({host_cell.verdict.value})")
    engines = {e["id"]: e for e in index_document(atlas)["records"]["engine"]}
    assert engines["plug"]["plugin_of"] == {
        "engine": "eng", "platforms": ["cpu"], "host_platforms": ["cuda"],
        "elsewhere": [{"text": "The hook imports a package only the CPU vendor's software installs.", "source": "src-code",
                       "locator": "hook, line 3"},
                      {"text": "The host skips a hook that raises.", "source": "src-code", "locator": "detect, lines 9-12"}]}
    assert "plugin_of" not in engines["eng"]


def test_where_the_host_has_no_dispatch_on_that_platform_either_the_host_is_the_gap(tree):
    """A plugin's scheme on a platform the host lists no candidates for either: still not the plugin's gap, but the atlas
    cannot say what the host does there, and says that instead of claiming the host answers."""
    with_plugin(tree)
    edit(tree, "records/schemes/sch-w4a16.yaml", "  - platform: cuda\n", "  - platform: rocm\n")
    atlas, problems = check_tree(tree)
    assert [str(p) for p in problems if p.severity == "error"] == []
    text, ok = explain_text(atlas, "sch-plug", "gpu-sm80")
    assert ok and text.startswith("sch-plug on gpu-sm80: NOT ON THIS PLATFORM: ") and text.endswith(
        "so none of its schemes runs here; nor does the atlas record any of Example Engine's own dispatch for platform "
        "cuda, so what Example Engine does here it cannot say (a gap, not a refusal)\n"
        "  Example Engine's dense-layer schemes reading INT4 weight-only here: none in the atlas")


def test_a_plugin_install_off_its_platforms_and_a_why_read_in_other_code_fail(tree):
    """What says the plugin runs elsewhere contradicts plugin_of: a default install on another platform; and the steps
    saying why it does not are read in the plugin's code or the host's, not a third repository's."""
    with_plugin(tree)
    (tree / "records/engines/plug.yaml").write_text(PLUGIN.replace(
        "plugin_of: {engine: eng, platforms: [cpu], source: src-code, locator: entry points, quote: 'cpu = plug:register'}\n",
        "repository: example/plug\nversion_read: '1.0'\n"
        "default_install:\n  - {platform: cuda, route: pip install plug, release: '1.0'}\n"
        "plugin_of:\n  engine: eng\n  platforms: [cpu]\n  source: src-code\n  locator: entry points\n"
        "  quote: 'cpu = plug:register'\n" + ELSEWHERE))
    edit(tree, "records/sources/src-code.yaml", "type: code\n", "type: code\nrepository: example/other\n")
    assert problems_of(tree, RULE) == [
        "records/engines/plug.yaml:7:16: error: [plugin-of] default_install[0].platform: 'plug' is 'eng''s plugin for "
        "cpu only, so it has no default install on platform 'cuda'; add the platform to its plugin_of or remove the entry",
        "records/engines/plug.yaml:15:89: error: [plugin-of] plugin_of.elsewhere[0].source: source 'src-code' is code "
        "of 'example/other', not of the plugin or 'eng' (example/plug); cite the code that decides where the plugin runs",
        "records/engines/plug.yaml:16:56: error: [plugin-of] plugin_of.elsewhere[1].source: source 'src-code' is code "
        "of 'example/other', not of the plugin or 'eng' (example/plug); cite the code that decides where the plugin runs"]


def test_both_engine_pages_say_near_the_top_that_one_is_the_others_platform_plugin(tree):
    """The relation is stated once, on the plugin's record, and each engine page says it under its summary, linked, in
    words derived from the field: the plugin's page names the host, the platforms and the declaration's source; the
    host's page names the plugin for those platforms. The plugin's page once showed it only as a raw fields row
    ("engine: ...; platforms: ...; elsewhere: text: ...") and the host's page not at all."""
    relation = ("plugin_of: {engine: eng, platforms: [cpu], source: src-code, locator: entry points, quote: 'cpu = plug:register'}\n")
    steps = (relation.rstrip("}\n") + ", elsewhere: [{text: The hook imports a CPU-only package., source: src-code, "
             "locator: 'register, line 3', quote: import cpuonly}]}\n")
    with_plugin(tree).joinpath("records/engines/plug.yaml").write_text(PLUGIN.replace(relation, steps))
    (tree / "docs/chapters/demo.md.j2").unlink()  # it reads the host's CPU cell, which the plugin takes away
    pages, problems = render_tree(tree)
    assert [str(p) for p in problems if "records/" in str(p)] == []
    plugin, host = pages["engines/plug.md"], pages["engines/eng.md"]
    lead = plugin.index('!!! info "Platform plugin"')
    assert lead < plugin.index("| field | value |") and "| Plugin of |" not in plugin
    assert f"Example plugin is {fill(words('plugin_of'), host='[Example Engine](eng.md)', platforms='cpu')} ([" in plugin
    assert "On platform cpu its schemes are Example Engine\u2019s answers" in plugin
    assert "the steps under \u201cWhy only on its platforms\u201d say why" in plugin
    assert "## Why only on its platforms" in plugin and "| The hook imports a CPU-only package. |" in plugin
    assert "<code>import cpuonly</code>" in plugin
    assert host.index('!!! info "Platform plugin"') < host.index("| field | value |")
    assert ("Example Engine has no platform cpu of its own: it runs there through its platform plugin "
            "[Example plugin](plug.md), which the atlas records as an engine of its own") in host


def test_a_plugins_page_names_where_its_host_answers_instead_and_claims_no_platform_the_host_has_no_dispatch_for(tree, monkeypatch):
    """The plugin's note once said that on every other platform the host answers with its own schemes; the atlas
    records the host's dispatch only where some scheme of the host lists candidates (derive/plugins.py host_platforms),
    and where it records none the card says it cannot say (wording plugin_elsewhere_host_none). The note names the
    host's platforms from its schemes, and where the host has no scheme at all it says the atlas records none."""
    with_plugin(tree)
    (tree / "docs/chapters/demo.md.j2").unlink()
    pages, _ = render_tree(tree)
    own = sorted({c.split("platform: ")[1].split()[0].strip(",}") for p in (tree / "records/schemes").glob("*.yaml")
                  if "engine: eng\n" in p.read_text() for c in p.read_text().splitlines() if "platform: " in c})
    assert own and "cpu" not in own
    plugin = pages["engines/plug.md"]
    assert "every other platform" not in plugin
    assert (f"Example Engine answers with its own schemes on platform {', '.join(own)}, the platforms its schemes in "
            "the atlas have candidate lists for.") in plugin
    # a host with no candidate list of its own anywhere (the tree's checks need the host's scheme, so its platforms go)
    monkeypatch.setattr(pages_module, "host_platforms", lambda index, engine: ())
    pages, _ = render_tree(tree)
    assert "the atlas records none of Example Engine\u2019s own dispatch for any platform." in pages["engines/plug.md"]


def test_the_plugins_page_says_the_relation_in_the_words_the_card_and_explain_say_it(tree, monkeypatch):
    """The page's note once typed its own paraphrase ("a platform plugin of X: installed beside X and loaded by it, it
    adds platform ..."), while the card's Release line and explain read wording plugin_of: one relation, two wordings.
    The note now fills the shared sentence, so a change to it shows on the page too, with the host linked and record
    text escaped."""
    with_plugin(tree)
    (tree / "docs/chapters/demo.md.j2").unlink()
    monkeypatch.setitem(wording.WORDS, "plugin_of", "the *plugin* of {host} on {platforms|its platforms}: {platforms}")
    pages, _ = render_tree(tree)
    assert "Example plugin is the \\*plugin\\* of [Example Engine](eng.md) on its platforms: cpu ([" in pages["engines/plug.md"]
    assert "installed beside" not in pages["engines/plug.md"]


def test_the_contributor_guide_says_the_host_answers_off_the_plugins_platforms_only_where_it_has_dispatch():
    """docs/contributing/verdicts.md.j2 once said that off a plugin's platforms "there the host answers with its own
    schemes", the claim the plugin's page and card no longer make where no scheme of the host lists the platform
    (wording plugin_elsewhere_host_none). The guide names both cases, as the card does."""
    from .conftest import ROOT
    text = " ".join((ROOT / "docs/contributing/verdicts.md.j2").read_text(encoding="utf-8").split())
    said = text[text.index("An engine that is another engine's platform plugin"):text.index("A `runs-if` cell")]
    assert "there the host answers with its own schemes" not in said
    assert "Where some scheme of the host lists candidates for the platform" in said
    assert "Where no scheme of the host lists that platform, the atlas records none of the host's dispatch there" in said
