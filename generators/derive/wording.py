"""The sentences an answer says both on the Can I run it? card and in `python -m generators explain`, written once.

`WORDS` holds the shared sentences and phrases as templates; explain fills them with plain text (`fill`), and the page
reads the same table from its data (render/selector_data.py serves it as `words` in can-i-run-it/data/index.json) and
fills it with text and links (docs/javascripts/can-i-run-it.js: fill, fillText). A placeholder is `{name}`, filled
with a value, or `{name|text}`, which reads `text` and which the page links to the address it is given for `name`.
Values are inserted as text, never read as templates or markup. Wording that depends on a way or a setting is derived
here too and served where it belongs (`way_said` on a notice's ways, `setting_said` on a route step).
"""
from __future__ import annotations

import re

WORDS: dict[str, object] = {
    # what an answer covers, by the scheme's layers (schema: scheme.layers); the card's "Covers" line
    "covers": {
        "dense": "the scheme's dense linear layers; the expert layers of a mixture-of-experts model run through the "
                 "engine's expert-layer (MoE) kernels, which this answer does not cover",
        "experts": "the expert layers of the mixture-of-experts models the scheme matches, not the model's other layers "
                   "(which stay in the model dtype, or, where the checkpoint quantizes them too, are another scheme's "
                   "answer: the whole checkpoint's verdict names it)",
    },
    # an expert-layer answer's whole checkpoint (derive/whole_checkpoint.py), after the worse verdict: which of the two
    # cells decides it ("whole_checkpoint_decided"), then what the scheme of the checkpoint's other linear layers does on
    # the target ({scheme}: its id, linked on the card; {state} from "whole_checkpoint_state" by its verdict, filled
    # with {why}: its reason, precision or conditions)
    "whole_checkpoint": "the checkpoint's other linear layers, scheme {scheme}, {state}",
    "whole_checkpoint_state": {
        "runs": "run as specified on this target",
        "runs-if": "run on this target if {why}",
        # ... a runs-if whose kernel a default install does not select: its kernels as its answer leads with them
        # (derive/default_lead.py), the default install's first, so its conditions are not read as the default's
        "runs-if-lead": "run on this target by {why}",
        "fallback": "fall back on this target: {why}",
        "fails-at-runtime": "fail at run time on this target: {why}",
        "refused": "are refused on this target: {why}",
    },
    # ... after a runs-if state where the expert layers are runs-if too: the whole checkpoint needs both sets
    # ({why}: what the expert layers need to run at all, derive/whole_checkpoint.py needs_to_run)
    "whole_checkpoint_both": ", and the expert layers if {why}",
    # ... where a cell's kernel is not a default install's and what a default install gets is worse than the verdict
    # (derive/whole_checkpoint.py by_default): {layers} from "whole_checkpoint_layers", whose lead names the default
    # install's kernel first; {verdict} the default's label (a badge on the card and the pages)
    "whole_checkpoint_default": "; on a default install ({layers} kernel named first) the whole checkpoint: {verdict}",
    "whole_checkpoint_layers": {"others": "the other linear layers'", "experts": "the expert layers'"},
    "whole_checkpoint_decided": {
        "others": "set by the other linear layers, worse than the expert layers",
        "experts": "set by the expert layers",
        "both": "the expert and the other linear layers alike",
    },
    # ... where the other layers' scheme has no cell on the target
    "whole_checkpoint_none": "the checkpoint's other linear layers, scheme {scheme}, have no cell on this target, so "
                             "whether the whole checkpoint loads here the atlas cannot say",
    # the layers another engine's schemes answering for a scheme cover, the scheme's own (derive/plugins.py answers_for)
    "layer_schemes": {
        "dense": "dense-layer",
        "experts": "expert-layer",
    },
    # a format computed in that the format map rates emulated on the parts (derive/emulated_here.py), and how
    "emulated": "the {map|format map} rates {format} emulated on {parts}: it records no dense peak or matrix "
                "instruction in it there, so no matrix unit of the part multiplies it as it is; {how}",
    # ... where a kernel computing it records no way for the target
    "emulated_how": "the kernel converts it to a wider precision first, or multiplies it as it is with vector "
                    "instructions (DP4A's integer dot products among them)",
    # a format computed in that the format map rates on none of the parts
    "unknown": "the {map|format map} records no dense peak or matrix instruction in {format} on {parts}, and no source "
               "saying there is none: whether it runs natively there is unknown",
    # the engine release read, then each later release a finding compared with it
    "later_release": "a later release, {release}, was compared with it ({finding})",
    # a publisher's table that says otherwise ({by}: the multiplication sign, × on the card, x in explain's plain text)
    "disagrees": "{matrix} says {verdict} for \u201c{row}\u201d {by} \u201c{column}\u201d; the derivation disagrees",
    # a trap limited to some of the target's parts (Answer.trap_parts), and one that applies only in some use
    "trap_parts": "on this target's {parts} only",
    "trap_when": "only {when}",
    # a trap whose record holds an open contest (one no finding settled): its claim is not asserted, so it says so
    "trap_contested": "⚠ contested",
    # who brings in a need the engine does not check (route_needs): the engine itself, or through a tool
    "need_engine": "{engine}, on every start",
    "need_tool": "{by}, through {tool}",
    # a host engine's scheme on a platform the engine has none of its own for, which a plugin adds (derive/plugins.py):
    # "has none of its own" is read at the host's release; another plugin could add the platform too, so not "only"
    "through_plugin": "{host} has no platform {platform} of its own (none at {host_release}, the release read): it "
                      "runs there through its plugin {plugin}, which the atlas records as an engine of its own, read at "
                      "{plugin_release}: that engine's schemes are the answers here",
    # ... where none of the plugin's schemes reads the format asked about
    "through_plugin_none": "none of {plugin}'s schemes in the atlas reads {format}, so for it the atlas cannot say (a gap, "
                           "not a refusal)",
    # the release line of a platform plugin (plugin_of): it runs only inside its host engine, installed beside it; the
    # plugin's engine page says the relation in these words too (render/pages.py plugin_lead, through fill_words)
    "plugin_of": "a platform plugin of {host} for {platforms}, installed beside it and loaded by it",
    # the mirror: a plugin's scheme on a platform the plugin does not add (derive/plugins.py plugin_elsewhere); not a
    # gap (the plugin adds those platforms only) and not a verdict (no engine loads the scheme there): the host answers
    "plugin_elsewhere": "{plugin} is {host}'s platform plugin for {platforms} only (read at {plugin_release}): it adds "
                        "no platform {platform}, so none of its schemes runs here",
    # ... where the host has dispatch of its own on that platform, and where the atlas records none
    "plugin_elsewhere_host": "on platform {platform}, {host} answers with its own schemes",
    "plugin_elsewhere_host_none": "nor does the atlas record any of {host}'s own dispatch for platform {platform}, so "
                                  "what {host} does here it cannot say (a gap, not a refusal)",
    # the state such a scheme is shown in, where a cell would show its verdict, and its row in a comparison
    "plugin_elsewhere_label": "not on this platform",
    "plugin_elsewhere_row": "{plugin}: {platforms} only",
    # the kernel of a cell whose own kernel needs an opt-in a default install lacks (derive/default_lead.py): what a
    # default install selects first, then the cell's kernel named as the opt-in's ({opt_in}: what the reader adds);
    # the card's Kernel line, a compare row's kernel, explain's header and every table's kernel column
    "default_lead": "{default} on a default install{where}{outcome}; {opted} with {opt_in}",
    "default_lead_where": " (where {where})",
    # ... where what a default install gets from its kernel is not the scheme's arithmetic (a runs-if cell's)
    "default_lead_outcome": {
        "fallback": ", which falls back to another precision",
        "fails-at-runtime": ", which fails at run time",
        # (the default install's kernel has a condition of its own the defaults do not meet: {needs})
        "runs-if": ", which runs only if {needs}",
    },
    # what an unmet condition of the default install (Otherwise.of_install), not of a kernel, fails in
    "whichever": "whichever kernel the engine selects",
    # a step marked inferred that a kernel the verdict rests on meets (derive/inferred_steps.py): what it tests and where
    # it was read ({read_in}: each source as "read_in" says it, joined by "and"), not the account of its failure the
    # requirement's reason gives; {engine} at {read}: the engine whose code holds the step (the kernel's) and its own
    # release read, named, since it need not be the cell's (an ONNX Runtime GenAI cell, whose header names GenAI's
    # release, runs ONNX Runtime's kernels)
    "inferred_step": "{kernel} meets a step marked inferred: {checks}, read in {read_in}, not in {engine} at {read}",
    # ... or fails it and stays, computing otherwise (a requirement with `declines: false`; the verdict says how)
    "inferred_step_unmet": "{kernel} fails a step marked inferred and computes otherwise: {checks}, read in {read_in}, "
                           "not in {engine} at {read}",
    # how a cell that runs is known where it names the steps marked inferred it rests on, after the release or commit
    # read: in place of the pointer to the kernel or scheme record (verdicts.INFERRED_FROM_CODE), since they follow below
    # (explain lists them under the attempts, the card under the line; the card adds a colon before its list)
    "inferred_below": {
        "one": ", but for the step below",
        "many": ", but for the steps below",
    },
    # ... one source it was read in ({at}: ' at commit 0249976' from its revision, see revision_said; {where}: ', the
    # kernel's locator for it' or nothing: a source's name may carry its own parenthesis, 'fp4_gemm_template.h at
    # 0249976 (CUTLASS FP4 GEMM runner)', so the locator follows as the site's other citations give one, after a comma)
    "read_in": "{source}{at}{where}",
    # at which revision a source was read, after its name (revision_said): a git commit (cut to seven characters) or a
    # release tag; said nowhere when the name shown already says it ('platform.cpp at 0112bef (MLAS ...)')
    "read_at": {
        "commit": " at commit {revision}",
        "tag": " at {revision}",
    },
}

_HASH = re.compile(r"[0-9a-f]{7,40}\Z")
_TAG = re.compile(r"v?[0-9][0-9A-Za-z.+-]*\Z")
_HASH_WORD = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{7,40}(?![0-9A-Za-z])")
_SLOT = re.compile(r"\{([a-z_]+)(?:\|([^}]*))?\}")


def pieces(template: str) -> list[tuple[str, str, str | None]]:
    """The template as (text before a placeholder, its name, its text or None) and a last ("rest", "", None): for a
    filler that inserts values other than plain text (the record pages insert links, render/markdown.py fill_words)."""
    found, at = [], 0
    for slot in _SLOT.finditer(template):
        found.append((template[at:slot.start()], slot.group(1), slot.group(2)))
        at = slot.end()
    return found + [(template[at:], "", None)]


def fill(template: str, **values: str) -> str:
    """The template with each `{name}` replaced by its value and each `{name|text}` by its text, in one pass."""
    return _SLOT.sub(lambda m: m.group(2) if m.group(2) is not None else values[m.group(1)], template)


def words(key: str) -> str:
    """One of WORDS' sentences (not a table of them)."""
    found = WORDS[key]
    assert isinstance(found, str), key
    return found


def revision_said(revision: str, shown: str = "") -> str:
    """' at commit abc1234' for a source's git revision (a hash, cut to seven characters), ' at v1.2' for a release tag,
    nothing for none or for prose about it ('rendered page; commit not exposed'), and nothing where `shown`, the
    source's name or id as the sentence shows it, already names that commit or tag (as a word of its own): the page
    says it alike (can-i-run-it.js revisionSaid)."""
    table = WORDS["read_at"]
    assert isinstance(table, dict)
    if _HASH.match(revision):  # the name may give the commit at any length from seven characters
        named = any(revision.startswith(word) for word in _HASH_WORD.findall(shown))
        return "" if named else fill(str(table["commit"]), revision=revision[:7])
    if _TAG.match(revision):
        named = bool(re.search(rf"(?<![0-9A-Za-z.]){re.escape(revision)}(?![0-9A-Za-z])", shown))
        return "" if named else fill(str(table["tag"]), revision=revision)
    return ""


def inferred_below(steps: int) -> str:
    """What a cell known by inference that names the `steps` it rests on says after the release or commit read."""
    table = WORDS["inferred_below"]
    assert isinstance(table, dict)
    return str(table["many" if steps > 1 else "one"])


def covers(layers: str) -> str:
    """What an answer covers, by its scheme's layers (dense where unknown)."""
    table = WORDS["covers"]
    assert isinstance(table, dict)
    return str(table.get(layers, table["dense"]))


def whole_state(verdict: str, why: str, lead: bool = False) -> str:
    """What the other layers' cell does, by its verdict, in WORDS' "whole_checkpoint_state" (a fallback whose precision
    no record states says only that it falls back); `lead`: a runs-if said by its kernels' lead (`why`)."""
    table = WORDS["whole_checkpoint_state"]
    assert isinstance(table, dict)
    verdict = "runs-if-lead" if lead else verdict
    return fill(str(table[verdict]), why=why) if why or verdict == "runs" else fill(str(table[verdict]), why="").rstrip(": ")


def whole_both(both_conditional: bool, why: str) -> str:
    """What follows the other layers' conditions where the expert layers have conditions of their own too (`why`)."""
    return fill(words("whole_checkpoint_both"), why=why) if both_conditional else ""


def whole_default_layers(side: str) -> str:
    """Whose kernel a default install selects sets the whole checkpoint's default verdict, in WORDS' words."""
    table = WORDS["whole_checkpoint_layers"]
    assert isinstance(table, dict)
    return str(table[side])


def whole_decided(decided_by: str) -> str:
    """Which of the two cells decides the whole checkpoint, in WORDS' "whole_checkpoint_decided"."""
    table = WORDS["whole_checkpoint_decided"]
    assert isinstance(table, dict)
    return str(table[decided_by])


def layer_schemes(layers: str) -> str:
    """The schemes answering for a scheme, by the layers they cover: 'dense-layer' or 'expert-layer'."""
    table = WORDS["layer_schemes"]
    assert isinstance(table, dict)
    return str(table[layers])


def way_said(computes: str, many: bool, precision: str = "", unit: str = "") -> str:
    """How the kernels named before it compute a format with no matrix instruction for it on the target (a kernel's
    without_matrix_instruction: converted, vector or rescaled), after their names: ' converts it to FP16 first ...'."""
    if computes == "vector":
        return (" multiply" if many else " multiplies") + " it as it is with vector instructions"
    verb = "multiply" if many else "multiplies"
    if computes == "rescaled":
        return ((" rescale" if many else " rescales") + " it and its scales into the part's own "
                + (precision.upper() + " " if precision else "") + f"encoding first and {verb} it in that encoding"
                + (f" with {unit} instructions" if unit else ""))
    return ((" convert" if many else " converts") + " it to " + (precision.upper() if precision else "a wider precision")
            + " first" + (f" and {verb} it with {unit} instructions" if unit else ""))


def setting_said(name: str, value: str, default: str, stored_in: str = "", default_when: str = "") -> str:
    """Which value of the setting that chooses a step's precision the step is for, after the step: ' (NAME VALUE)', with
    ', its default' where it is the default, qualified where a pre-quantized checkpoint stores its own value."""
    said = ""
    if value == default:
        said = ", its default" + (f" {default_when or 'when quantizing on load'}" if stored_in else "")
    return f" ({name} {value}{said})"
