"""JSON Schemas of the data API documents, published under api/schema/ beside the documents they describe."""
from __future__ import annotations

from typing import Any

from ..derive.cells import CONDITIONAL, NO, YES
from ..derive.format_map import VENDOR_ORDER
from ..kinds import KINDS
from ..model.verdicts import KNOWN_BY_MEANINGS, Verdict

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_VERSION = {"type": "integer", "minimum": 1, "description": "Version of the API document format; bumped on incompatible change."}
_IDS = {"type": "array", "items": {"type": "string"}}
_REF = {"type": "string", "pattern": "^[a-z-]+/[A-Za-z0-9_.-]+$", "description": "A record as kind/id."}


def _document(title: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"$schema": DIALECT, "title": title, "description": description, "type": "object",
            "properties": {"version": _VERSION, **properties}, "required": ["version", *required]}


_ENTRY_PROPERTIES: dict[str, Any] = {
    "id": {"type": "string", "description": "The record's id: its file name under records/ without `.yaml`."},
    "name": {"type": "string", "description": "The record's `name`."},
    "file": {"type": "string", "description": "This record's API document, relative to api/."},
    "page": {"type": "string", "description": "This record's page, relative to the site root."},
    "unverified": {"type": "string", "description": "Present when no primary source backs the record (it cites only "
                                                    "seed drafts, or nothing): why, as the record declares."}}


def _record_field(kind: str, name: str) -> dict[str, Any]:
    """A brief field that copies a record field: described by the record schema published beside this one (`name`
    may go deeper, as a JSON pointer below the record's properties: `plugin_of/properties/engine`)."""
    return {"$ref": f"records/{kind}.schema.json#/properties/{name}"}


_STRING_OR_NULL = {"type": ["string", "null"]}
# The fields api.index_document adds per kind (api._brief), so a client can list and label records without fetching
# each one. A field copied from the record points at the record schema, which states it once.
_BRIEF: dict[str, tuple[dict[str, Any], list[str]]] = {
    "source": ({"link": {**_STRING_OR_NULL, "description": "The address a reader follows (a permalink where the "
                                                             "source names a revision); null when it has none."},
                "accessed": {**_STRING_OR_NULL, "description": "When the source was read (ISO 8601 date)."},
                "type": _record_field("source", "type"),
                "branch": _record_field("source", "branch"),
                "revision": {"type": "string", "description": "The revision read (a commit, a release tag, or what "
                                                              "the record says of it), as the record states it; absent "
                                                              "when it states none. With `branch`, the development "
                                                              "commit read rather than a release."}},
               ["link", "accessed", "type"]),
    "gotcha": ({"severity": _record_field("gotcha", "severity"), "effect": _record_field("gotcha", "effect"),
                "silent": _record_field("gotcha", "silent"),
                "summary": {"type": "string", "description": "The trap in a sentence; empty when the record has none."},
                "applies_when": {"type": "string", "description": "When the trap bites on an answer that lists it, in "
                                 "words from the record's `applies_when` (for example 'with a MoE model'); empty when "
                                 "the record narrows it no further."},
                "accelerators": {**_IDS, "description": "The accelerators the trap is limited to; empty when it is "
                                                         "not limited to some."},
                "contested": {"type": "array", "minItems": 1, "description": "The record's open contests (none a "
                              "finding settled): the trap's claim there is not asserted; absent when there are none.",
                              "items": {"type": "object", "additionalProperties": False, "required": ["field", "anchor"],
                                        "properties": {"field": {"type": "string", "description": "What is contested, "
                                                                 "as the record's contest words it."},
                                                       "anchor": {"type": "string", "description": "The contest's "
                                                                  "heading id on the record's page (page#anchor)."}}}}},
               ["severity", "effect", "silent", "summary", "applies_when", "accelerators"]),
    "accelerator": ({"vendor": _record_field("accelerator", "vendor"),
                     "category": _record_field("accelerator", "category"),
                     "inline_name": {"type": "string", "description": "The name as it reads inside a parenthesis: "
                                     "its own asides made comma clauses ('NVIDIA GB10, DGX Spark')."},
                     "target": {"type": "string", "description": "The hardware target whose cells answer for this "
                                                                  "part; absent when none does."},
                     "target_label": {"type": "string", "description": "That target's column label for this part."}},
                    ["vendor", "category", "inline_name"]),
    "hardware-target": ({"platform": _record_field("hardware-target", "platform"),
                         "label": {"type": "string", "description": "The column label of the support tables."},
                         "accelerators": {**_IDS, "description": "The accelerators the target stands for."},
                         "order": {"type": "integer", "minimum": 0,
                                   "description": "The target's place in the support tables' column order."}},
                        ["platform", "label", "accelerators", "order"]),
    "scheme": ({"engine": _record_field("scheme", "engine"),
                "formats": {**_IDS, "description": "The record's `formats`: the format ids the scheme serves; empty "
                                                   "when it lists none."},
                "layers": _record_field("scheme", "layers"),
                "unread": {"type": "object", "additionalProperties": {"type": "string"},
                           "description": "Platforms whose dispatch the scheme has not read (no cell there), each with "
                                          "why, from its candidates' `unread`; absent when there are none."}},
               ["engine", "formats", "layers"]),
    "finding": ({"verdict": _record_field("finding", "verdict"), "conclusion": _record_field("finding", "conclusion")},
                ["verdict", "conclusion"]),
    "term": ({"spellings": _record_field("term", "spellings"),
              "defined_by": {"type": "object", "additionalProperties": False, "required": ["kind", "id"],
                             "description": "The record a link on the term leads to: the record's `defined_by`, or "
                                            "the term itself where it names none or where several kernel records "
                                            "carry the term's spelling in their names (Marlin, MMQ), which its page "
                                            "lists.",
                             "properties": {"kind": {"type": "string", "description": "That record's kind."},
                                            "id": {"type": "string", "description": "That record's id."}}},
              "quoted": {**_IDS, "description": "Every stretch of the records' verbatim text (an engine's message, a "
                                                "quote from a source) that holds one of the spellings as a word, as "
                                                "recorded, a message with placeholders cut at each: a link on the "
                                                "term never goes inside one, wherever it is shown (a condition that "
                                                "quotes an engine's message)."}},
             ["spellings", "defined_by", "quoted"]),
    "engine": ({"category": _record_field("engine", "category"),
                "version_read": {**_STRING_OR_NULL, "description": "The record's `version_read`: the release or "
                                 "commit the records read (the one its cells describe); null when it states none."},
                "later_releases": {"type": "array", "description": "Releases after version_read that a finding "
                                   "compared with it (the cells still describe version_read), newest first.",
                                   "items": {"type": "object", "additionalProperties": False,
                                             "required": ["release", "finding"],
                                             "properties": {
                                                 "release": _record_field("engine", "later_releases/items/properties/release"),
                                                 "finding": _record_field("engine", "later_releases/items/properties/finding")}}},
                "engine_wide_traps": {**_IDS, "description": "Traps that concern every cell of the engine."},
                "through_plugin": {"type": "object", "additionalProperties": {"type": "string"},
                                   "description": "Present where the engine runs on some platforms only through its "
                                                  "platform plugin, an engine of its own: platform -> that engine's id "
                                                  "(its schemes are the answers there; this engine has no cells on "
                                                  "those platforms)."},
                "plugin_of": {"type": "object", "additionalProperties": False,
                              "required": ["engine", "platforms", "host_platforms", "elsewhere"],
                              "description": "Present where the engine is another engine's platform plugin: that "
                                             "engine, the platforms the plugin adds (its schemes have no cells on "
                                             "any other platform, where the host engine's own schemes answer), the "
                                             "platforms some scheme of the host lists candidates for, and why the "
                                             "plugin runs nowhere else (the record's steps, each with its source).",
                              "properties": {
                                  "engine": _record_field("engine", "plugin_of/properties/engine"),
                                  "platforms": _record_field("engine", "plugin_of/properties/platforms"),
                                  "host_platforms": {**_IDS, "description": "The platforms for which some scheme of "
                                                     "the host engine lists candidates (read or `unread`), sorted."},
                                  "elsewhere": {"type": "array", "description": "The record's `plugin_of.elsewhere` "
                                                "steps, in its order, without their quotes; empty when it states none.",
                                                "items": {
                                      "type": "object", "additionalProperties": False,
                                      "required": ["text", "source", "locator"],
                                      "properties": {
                                          "text": _record_field("engine", "plugin_of/properties/elsewhere/items/properties/text"),
                                          "source": _record_field("engine", "plugin_of/properties/elsewhere/items/properties/source"),
                                          "locator": _record_field("engine",
                                                                   "plugin_of/properties/elsewhere/items/properties/locator")}}}}},
                "kernels_from": {"type": "object", "additionalProperties": False, "required": ["engine", "requirement"],
                                 "description": "Present where the engine runs another engine's kernels: that "
                                                "engine's id and the releases of it required (its record's "
                                                "version_read is the release its kernel records describe).",
                                 "properties": {"engine": _record_field("engine", "kernels_from/properties/engine"),
                                                "requirement": _record_field("engine",
                                                                             "kernels_from/properties/requirement")}}},
               ["category", "version_read", "later_releases", "engine_wide_traps"]),
    "format": ({"aliases": {**_IDS, "description": "The record's `aliases`: other names the format goes by; empty "
                                                    "when it lists none."},
                "related": _record_field("format", "related"),
                "precision_label": {"type": "string", "description": "What a cell computing in this format says it "
                                    "computes in (a cell's `computes_in`, a step's `formats`): a hardware format's "
                                    "`peak_precision` in capitals, with its FP8 `encoding` (\"FP8 E4M3\", \"INT8\", "
                                    "\"MXFP8\"), never the scaling its name may describe; another format's name."}},
               ["aliases", "related", "precision_label"]),
    "kernel": ({"without_matrix_instruction": _record_field("kernel", "without_matrix_instruction")}, []),
}


def _entry(kind: str) -> dict[str, Any]:
    """The index entry of one kind's records: the common fields and that kind's brief."""
    properties, required = _BRIEF.get(kind, ({}, []))
    return {"type": "object", "required": ["id", "name", "file", "page", *required],
            "properties": {**_ENTRY_PROPERTIES, **properties}, "additionalProperties": False}


_PUBLISHED = {"type": "object", "required": ["matrix", "row", "column", "symbol", "says", "agrees", "finding"],
              "properties": {"matrix": {"type": "string", "description": "Support-matrix record id of the table."},
                             "row": {"type": "string", "description": "The row's label, as the table prints it."},
                             "column": {"type": "string", "description": "The column's label, as the table prints it."},
                             "symbol": {"type": "string", "description": "The cell as the publisher prints it."},
                             "says": {"type": "string", "description": "The publisher's verdict read through its legend."},
                             "agrees": {"type": "boolean", "description": "For a yes or no: whether it matches "
                                        "this cell (yes where the verdict is `runs` or `runs-if`; no where it is "
                                        "`fallback`, `fails-at-runtime` or `refused`). For a partial: whether, of "
                                        "every derived cell the table cell covers, some run as specified and some do "
                                        "not. True where `says` is unknown."},
                             "finding": {"type": ["string", "null"],
                                         "description": "Finding id explaining a disagreement; null when the cell agrees."}}}

_OUTCOME = {"type": "object", "required": ["release", "observation", "verdict", "kernel", "kernels", "conditions", "refusal"],
            "properties": {"release": {"type": "string", "description": "The engine release observed (the "
                                                                        "observation's `release`)."},
                           "observation": {"type": "string", "description": "Observation record id."},
                           "verdict": {"type": "string", "description": "Observed verdict: runs, runs-if or refused."},
                           "kernel": {"type": ["string", "null"], "description": "The observation's `kernel`: the "
                                      "kernel class selected, by the class name the engine's selector returned (for "
                                      "runs-if, the one chosen in the bare world); null when none was. Not a kernel "
                                      "record id, unlike the cell's own `kernel`: the kernel record whose "
                                      "`class_name` it is, if any, names the same kernel."},
                           "kernels": {**_IDS, "description": "The observation's `kernels` (every kernel class "
                                       "selected across the runs, for runs-if), else `kernel` alone; class names, as "
                                       "`kernel`; empty when none was selected."},
                           "conditions": {**_IDS, "description": "The observation's `conditions`: what a runs-if "
                                          "outcome depends on, with the kernel chosen under each; empty otherwise."},
                           "refusal": {"type": "string", "description": "`stage: ErrorType: message` of the first refusal; empty when none."}}}
_FLIP = {"type": "object", "required": ["from_release", "to_release", "from", "to", "why"],
         "properties": {"from_release": {"type": "string", "description": "The older release of the two."},
                        "to_release": {"type": "string", "description": "The newer release of the two."},
                        "from": {"type": "string", "description": "The older outcome in short: `runs via K`, "
                                 "`runs-if via K1, K2` (kernel class names) or `refused (stage)`."},
                        "to": {"type": "string", "description": "The newer outcome, in the same form as `from`."},
                        "why": {**_IDS, "description": "What changed: verdict, kernel, the selector's answer, the refusing gate."}}}
_HISTORY = {"type": "object", "required": ["outcomes", "flips"],
            "description": "The cell as each observed engine release's own selection code did it (newest harness per release).",
            "properties": {"outcomes": {"type": "array", "items": _OUTCOME, "description": "Oldest release first."},
                           "flips": {"type": "array", "items": _FLIP, "description": "Changes between consecutive observed releases."}}}

_OTHERWISE = {"type": "object", "required": ["kernel", "unmet", "verdict", "selected", "conditions", "computes_as", "reasons",
                                             "failure_message", "off_default", "of_install", "elsewhere",
                                             "walks"],
              "description": "One way the conditions can fail, and the next outcome in the engine's order: derived from "
                             "`attempts`, never recorded.",
              "properties": {"kernel": {"type": "string", "description": "The kernel whose conditions do not hold (for a "
                                                                         "scheme substitution: the kernel the setting keeps)."},
                             "unmet": {**_IDS, "description": "Those conditions; any one of them failing leads here."},
                             "verdict": {"type": "string", "description": "The outcome then (see the verdict vocabulary): "
                                                                          "the next candidate's verdict, `fallback` when the "
                                                                          "same or another kernel computes at another precision, "
                                                                          "`refused` when no candidate is left."},
                             "selected": {"type": ["string", "null"], "description": "The kernel the engine then selects; "
                                                                                       "null when it refuses."},
                             "conditions": {**_IDS, "description": "What that outcome itself needs (a `runs-if` is "
                                                                    "followed by its own step)."},
                             "computes_as": {"type": "string", "description": "For a fallback: what really computes."},
                             "reasons": {**_IDS, "description": "For a refusal or a failure at run time: every reason in "
                                                                 "the engine's order."},
                             "failure_message": {"type": "string", "description": "For a refusal: what the engine raises."},
                             "off_default": {"type": "boolean", "description": "True when only an install without what "
                                                                                "the engine's default install provides, "
                                                                                "or a setting other than its default "
                                                                                "(`--dtype float32`), reaches this step."},
                             "of_install": {"type": "boolean", "description": "True when the unmet conditions are the "
                                                                               "default install's (a build for the "
                                                                               "target, a download and its driver), not "
                                                                               "the kernel's own: the step holds "
                                                                               "whichever kernel the engine selects."},
                             "elsewhere": {"type": "string", "description": "When the unmet condition is where the "
                                                                            "engine places the model: the device that "
                                                                            "then runs it instead (the verdict is the "
                                                                            "kernel's there; this target runs nothing). "
                                                                            "Empty otherwise."},
                             "walks": {"type": "boolean", "description": "True when that device walks "
                                                                         "its own candidates (GPTQModel selects for "
                                                                         "the map's device): `selected` is the kernel "
                                                                         "this target's walk had reached, not the one "
                                                                         "running there."}}}
_WORSE = {"type": "object", "required": ["setting", "verdict", "kernel", "computes_as", "reasons", "passed_over", "given_it"],
          "description": "A value of a setting that filters the candidate list (vLLM's `--linear-backend`) with which a "
                         "cell that runs as specified by default does not: derived from the same walk of the filtered "
                         "list, never recorded.",
          "properties": {"setting": {"type": "string", "description": "The setting and its value, as typed."},
                         "verdict": {"type": "string", "description": "The outcome with it: `fallback`, "
                                                                      "`fails-at-runtime` or `refused`."},
                         "kernel": {"type": ["string", "null"], "description": "The kernel the engine then selects; "
                                                                                "null when it refuses."},
                         "computes_as": {"type": "string", "description": "For a fallback: what really computes."},
                         "reasons": {**_IDS, "description": "For a refusal or a failure at run time: every reason in "
                                                             "the engine's order."},
                         "passed_over": {"type": ["string", "null"],
                                         "description": "The kernel the value leaves that needs what the default "
                                                        "install lacks (a package, a switch), which that install "
                                                        "passes over to reach `verdict`; null otherwise."},
                         "given_it": {"type": ["string", "null"],
                                      "description": "With `passed_over`: the value's outcome where that need is met "
                                                     "(`runs-if` names it as the condition; `fails-at-runtime` or "
                                                     "`fallback` when it does not help); null otherwise."}}}
_ASSUMES = {"type": "object", "required": ["condition", "install", "route", "facts"],
            "properties": {"condition": {"type": "string", "description": "A condition of the cell's kernels."},
                           "install": {"type": "string", "description": "What the engine release's default install "
                                                                         "provides that meets it (for `opt_in`: what it "
                                                                         "lacks); or the default setting that meets it "
                                                                         "(`--dtype auto`)."},
                           "route": {"type": "string", "description": "How that default install is installed (the "
                                                                       "engine record's route); empty for a setting."},
                           "facts": {**_IDS, "description": "The facts of the engine record's `default_install` that meet it (none for a setting)."}}}

_SELECTED_KERNEL = ("Kernel record id of the kernel the engine selects: the one that computes (for `fallback`, at "
                    "another precision; for `fails-at-runtime`, the one that then fails); null when it selects none "
                    "(`refused`).")
_VERDICT = {"type": "string", "enum": [verdict.value for verdict in Verdict],
            "description": "A verdict of the vocabulary (contributing/verdicts on the site)."}
_INFERRED_STEP_FIELDS: dict[str, Any] = {
    "checks": {"type": "string", "description": "What the step tests, in words, as it holds where it passes."},
    "read_in": {"type": "array", "minItems": 1, "description": "The sources it was read in.", "items": {
        "type": "object", "required": ["source", "where"], "additionalProperties": False,
        "properties": {"source": {"type": "string", "description": "Source id (its `revision` in the index says "
                                                                    "at which commit)."},
                       "where": {"type": "string", "description": "Where in that source, as the kernel cites it; "
                                                                   "may be empty."}}}},
    "met": {"type": "boolean", "description": "Whether the target meets it; false for a step the kernel fails and "
                                              "stays, computing otherwise (the verdict says how)."},
    "engine": {"type": "string", "description": "Engine record id of the engine whose code holds the step (the "
                                                "kernel's): the step was not read in it at its `version_read`. Not "
                                                "always the cell's engine (ONNX Runtime GenAI runs ONNX Runtime's "
                                                "kernels)."}}
_INFERRED_STEP = {"type": "object", "required": list(_INFERRED_STEP_FIELDS), "additionalProperties": False,
                  "description": "A step a kernel meets that was not read in its engine (the kernel's) at that engine's release read but "
                                 "inferred: read at another commit, or in another project's report.",
                  "properties": _INFERRED_STEP_FIELDS}
_ATTEMPT = {"type": "object", "required": ["kernel", "outcome", "reason", "after_selection", "conditions", "routes", "limits",
                                           "inferred_steps"],
            "description": "One candidate kernel of the target's platform as the engine tries it, in the engine's order.",
            "properties": {"kernel": {"type": "string", "description": "Kernel record id."},
                           "outcome": {"type": "string", "enum": [YES, CONDITIONAL, NO],
                                       "description": "Accepted, accepted under `conditions`, or rejected for `reason`."},
                           "reason": {"type": "string", "description": "Why it is rejected (the first requirement it "
                                                                       "fails); empty when it is not."},
                           "after_selection": {"type": "boolean", "description": "True when the rejecting requirement is "
                                                                                 "checked after the engine selected the "
                                                                                 "kernel: it fails at run time."},
                           "conditions": {**_IDS, "description": "What its acceptance depends on."},
                           "routes": {**_IDS, "description": "Named code paths inside the kernel that the target takes."},
                           "limits": {**_IDS, "description": "Shape limits (dimensions divisible by a tile or group "
                                                             "size): the model's, not the scheme's or the part's."},
                           "inferred_steps": {"type": "array", "items": _INFERRED_STEP,
                                              "description": "For a kernel that loads: the requirements marked "
                                                             "`inferred` it meets (or takes as a condition), in its "
                                                             "order; empty otherwise."}}}

_PART_NEED = {"type": "object", "required": ["said", "source", "locator"],
              "properties": {"said": {"type": "string", "description": "What the part needs first, in words."},
                             "source": {"type": "string", "description": "Source id that shows why."},
                             "locator": {"type": "string", "description": "Where in the source; may be empty."}}}
_PART_ANSWER = {"type": "object", "required": ["part", "verdict", "conditions", "needs"],
                "properties": {"part": {"type": "string", "description": "Accelerator record id."},
                               "verdict": {**_VERDICT, "description": "The verdict on the part: `runs` becomes "
                                                                       "`runs-if`, others stay."},
                               "conditions": {**_IDS, "description": "What the part needs before the cell's own "
                                                                      "conditions, in words (each need's `said`)."},
                               "needs": {"type": "array", "items": _PART_NEED,
                                         "description": "What the part needs before the cell's own conditions, each "
                                                        "with the source that shows why, in the order of `conditions`."}}}

_PASSED_OVER = {"type": "object", "required": ["kernel", "sources"],
                "properties": {"kernel": {"type": "string", "description": "Kernel record id."},
                               "sources": {**_IDS, "description": "Source ids that back this kernel and nothing "
                                                                  "else the answer rests on."}}}

_SETTING_CHOICE = {"type": "object", "required": ["name", "value", "default", "others", "read_from", "stored_in",
                                                 "default_when", "written_by"], "additionalProperties": False,
                   "properties": {
                       "name": {"type": "string", "description": "The setting, as users write it."},
                       "value": {"type": "string", "description": "The value `precision` is for."},
                       "default": {"type": "string", "description": "The value the setting has when nobody sets it "
                                                                    "(`value` where that runs as specified here)."},
                       "others": {"type": "array", "description": "The other values it runs as specified with on this "
                                                                  "target, each with the precision it gives.",
                                  "items": {"type": "object", "required": ["value", "precision"],
                                            "properties": {"value": {"type": "string", "description": "The "
                                                                     "value: a float dtype name, or an integer level "
                                                                     "in digits."},
                                                           "precision": {"type": "string", "description": "The "
                                                                         "precision the multiply runs in with it (fp32, "
                                                                         "bf16, fp16, or what the kernel record's "
                                                                         "`precisions` states for a level)."},
                                                           "note": {"type": "string", "description": "Where the "
                                                                    "value gives another precision."}}}},
                       "read_from": {"type": "string", "description": "Where the engine reads the setting."},
                       "stored_in": {"type": ["string", "null"],
                                     "description": "Where a pre-quantized checkpoint stores the value the engine "
                                                    "takes over the user's (`default` is then what quantizing on "
                                                    "load gives), or null."},
                       "default_when": {"type": ["string", "null"],
                                        "description": "When `default` holds, as the answer says it after the value "
                                                       "(null: 'when quantizing on load' where `stored_in` is given)."},
                       "written_by": {"type": "array", "description": "What the tools that write checkpoints store "
                                                                      "when their user leaves the setting unset.",
                                      "items": {"type": "object", "required": ["writer", "value", "when", "source"],
                                                "additionalProperties": False,
                                                "properties": {"writer": {"type": "string", "description": "The "
                                                                          "tool and its version, as the kernel "
                                                                          "record names it."},
                                                               "value": {"type": "string", "description": "The "
                                                                         "value it stores, as a string (a dtype name, "
                                                                         "or an integer level in digits)."},
                                                               "when": {"type": ["string", "null"],
                                                                        "description": "The builds it applies to."},
                                                               "source": {"type": "string",
                                                                          "description": "Source record id."}}}},
                       "carried": {"type": "boolean", "description": "Present (true) where `value` is the one the "
                                   "scheme's models carry (its config's setting_values), not the default."},
                       "value_note": {"type": "string", "description": "Where `carried`: the note beside `value`, "
                                      "whose precision depends on more than the value."}}}

_ROUTE_NEED = {"type": "object", "required": ["kernel", "engine", "tool", "said", "source", "locator", "used_in"],
               "additionalProperties": False,
               "properties": {"kernel": {"type": "string", "description": "Kernel record id that brings the need in "
                                                                          "(its gate, or a tool it is built with); "
                                                                          "empty when the engine itself does."},
                              "engine": {"type": "string", "description": "Engine record id whose own code brings a "
                                                                          "tool's need in on every start; empty when "
                                                                          "a kernel does."},
                              "tool": {"type": "string", "description": "Engine record id of the compiler or runtime "
                                                                        "whose `first_use_needs` this is; empty for a "
                                                                        "kernel's own gate."},
                              "said": {"type": "string", "description": "What a reader needs, in words (the gate's "
                                                                        "or the tool's `needs`)."},
                              "source": {"type": "string", "description": "Source record id of the gate or the "
                                                                          "tool's need."},
                              "locator": {"type": "string", "description": "Where in the source; may be empty."},
                              "used_in": {"type": "string", "description": "For a tool's need: source record id of "
                                                                           "the code that launches the tool's "
                                                                           "kernels; empty otherwise."}}}

_COMPUTE_STEP = {"type": "object", "required": ["kernels", "labels", "formats", "precision", "setting"], "additionalProperties": False,
                 "properties": {
                     "kernels": {**_IDS, "description": "Kernel ids, in the engine's order."},
                     "labels": {"type": "array", "items": {"type": "string"},
                                "description": "Each kernel's name without its engine's name or a parenthetical."},
                     "formats": {**_IDS, "description": "Hardware formats these kernels compute in; empty when they "
                                                         "state a `precision` instead."},
                     "precision": {"type": "string", "description": "The precision these kernels multiply weights "
                                                                    "they dequantize first in (the kernel record's "
                                                                    "`computes_in`); empty when `formats` says it."},
                     "setting": {"oneOf": [{"type": "null"}, _SETTING_CHOICE],
                                 "description": "Where a setting the user gives chooses `precision` (the kernel "
                                                "record's `computes_in.setting`); null otherwise."}}}

_COMPUTES_SHORT = {"type": "object", "required": ["way", "precisions"], "additionalProperties": False,
                   "properties": {"way": {"type": "string", "enum": ["weight-only", "emulated", "dequantized",
                                                                    "activations-quantized"],
                                          "description": "How: the weights multiplied with activations as given, "
                                                         "the same in software emulation, the weights dequantized to "
                                                         "a float dtype, or the activations quantized by the kernel."},
                                  "precisions": {**_IDS, "description": "The precisions the multiply runs in, as "
                                                                        "\"Computes in\" says them (FP16, BF16)."}}}

_SOURCE_GROUP = {"type": "object", "required": ["backs", "subject", "sources"], "additionalProperties": False,
                 "properties": {"backs": {"type": "string", "enum": ["selection", "kernel", "passed-over", "computes", "condition",
                                                                    "install", "published", "finding", "need", "part",
                                                                    "other", "trap"],
                                          "description": "What the sources back: the engine's selection of a kernel "
                                                         "for the scheme (the scheme's and its candidate list's "
                                                         "citations), a kernel on the route (its citations; "
                                                         "`passed-over` for one the answer passes over, as in "
                                                         "`sources_passed_over`), what the "
                                                         "kernel computes in (its `computes_in`), a condition (the "
                                                         "default-install facts and runtime checks behind it), the "
                                                         "default install's binaries, a published table, a finding, a "
                                                         "need at run time, a member part's need, a trap (its own "
                                                         "sources), or none of these (`other`)."},
                                "subject": {"type": "string", "description": "Which one: a kernel, support-matrix, "
                                                                             "finding or trap id, or the condition's "
                                                                             "or need's text; empty for `selection`, "
                                                                             "`install` and `other`."},
                                "sources": {**_IDS, "description": "Source ids, in reading order."}}}

_TRAP_PARTS = {"type": "object", "required": ["trap", "parts"], "additionalProperties": False,
               "properties": {"trap": {"type": "string", "description": "A trap id of the cell's `traps`."},
                              "parts": {**_IDS, "description": "The accelerator ids of the target it applies to, "
                                                               "in the target's order."}}}

_WHOLE_CHECKPOINT = {
    "type": ["object", "null"], "required": ["scheme", "verdict", "others", "decided_by", "why", "fallback_if", "both_conditional", "by_default", "default_layers", "default_kernel", "others_lead", "experts_why"], "additionalProperties": False,
    "description": "For a cell of an expert-layer scheme (`layers: experts`) whose record names the scheme of its "
                   "checkpoint's other linear layers (`other_layers.scheme`): the whole checkpoint on this target, the "
                   "worse of this cell's verdict and that scheme's cell here (in the order of the verdict vocabulary). "
                   "This cell's own `verdict` stays its expert layers'; the Can I run it? comparison ranks and counts "
                   "the cell's row by this one. Null for every other cell.",
    "properties": {"scheme": {"type": "string", "description": "The scheme of the checkpoint's other linear layers."},
                   "verdict": {"oneOf": [_VERDICT, {"type": "null"}],
                               "description": "The whole checkpoint's verdict: the worse of the two; null where that "
                                              "scheme has no cell on the target."},
                   "others": {"oneOf": [_VERDICT, {"type": "null"}],
                              "description": "That scheme's own verdict on the target; null where it has no cell."},
                   "decided_by": {"type": "string", "enum": ["others", "experts", "both", ""],
                                  "description": "Which cell is worse: `others` (the other layers'), `experts` (this "
                                                 "one), `both` (the same verdict); empty where there is no other cell."},
                   "why": {"type": "string", "description": "What the other layers' cell says where it does not "
                                                           "simply run: its gate's or the engine's message (or first "
                                                           "reason), what it computes as, or what it needs to run "
                                                           "at all (for `runs-if`: conditions enough for it to run "
                                                           "whichever kernel the engine takes: each of its conditions, "
                                                           "but one whose failure leads, on a default install, to "
                                                           "another kernel that runs here is replaced by that "
                                                           "kernel's, in turn)."},
                   "fallback_if": {"type": "boolean", "description": "A `fallback` whole checkpoint one of whose "
                                                                    "fallback cells is `fallback_if`: shown \"Fallback "
                                                                    "if\", as that cell is; also where a runs-if "
                                                                    "cell fails or is refused without its conditions."},
                   "both_conditional": {"type": "boolean", "description": "Both cells are `runs-if`: the whole "
                                                                         "checkpoint needs the conditions of each."},
                   "by_default": {"oneOf": [_VERDICT, {"type": "null"}],
                                  "description": "Where a cell's kernel is not the one a default install selects "
                                                 "(its `default_kernel`) and what a default install gets from that is "
                                                 "worse than `verdict`: the whole checkpoint on a default install; "
                                                 "else null."},
                   "default_layers": {"type": "string", "enum": ["others", "experts", ""],
                                      "description": "Whose default kernel sets `by_default`: `others` or `experts`."},
                   "default_kernel": {"type": "string", "description": "That kernel's record id; empty with no "
                                                                       "`by_default`."},
                   "others_lead": {"type": "boolean", "description": "The other layers' cell is `runs-if` on a kernel "
                                                                    "a default install does not select: `why` is its "
                                                                    "kernel lead (the default install's kernel and "
                                                                    "what it gives, then the opt-in's), not its "
                                                                    "conditions alone."},
                   "experts_why": {"type": "string", "description": "Where both cells are `runs-if`: what the expert "
                                                                    "layers need to run at all (as `why` says it of "
                                                                    "the other layers); else empty."}}}

_CELL = {"type": "object",  # every field is required (below): cell_entry writes each one, null or empty when it has none
         "properties": {"engine": {"type": "string", "description": "Engine record id: the scheme's `engine`."},
                        "scheme": {"type": "string", "description": "Scheme record id."},
                        "target": {"type": "string", "description": "Hardware-target record id."},
                        "verdict": {**_VERDICT, "description": "The derived verdict."},
                        "kernel": {"type": ["string", "null"], "description": _SELECTED_KERNEL + (
                                   " Where `default_kernel` differs, this one needs an opt-in (`opt_in`, else the "
                                   "`conditions` the defaults do not meet) and a default install selects "
                                   "`default_kernel`: a `runs` verdict is then the default install's (every outcome it "
                                   "reaches runs as specified), a `runs-if` verdict this kernel's, given the opt-in. The "
                                   "site names `default_kernel` first.")},
                        "conditions": {**_IDS, "description": "What the verdict depends on (for `runs-if`: what the "
                                                               "reader must provide)."},
                        "computes_as": {"type": "string", "description": "For a fallback: what really computes; empty "
                                                                         "otherwise."},
                        "computes_short": {"oneOf": [{"type": "null"}, _COMPUTES_SHORT],
                                           "description": "For a fallback: `computes_as` short, read from typed fields "
                                                          "(the requirement's `check`, the kernel's "
                                                          "`activation_handling` and `computes_in`); null otherwise, "
                                                          "or where only the prose says it."},
                        "gate": {"type": "string", "description": "The capability-gate message the engine raises when "
                                                                  "a gate refuses (the cell's own, or, where the gate "
                                                                  "hands on to another scheme, that scheme's); empty "
                                                                  "otherwise (a gate that hands on is a test, not an "
                                                                  "error). Where the engine tests packages before the "
                                                                  "gate (the scheme's `capability_gate.after_installs`), "
                                                                  "it raises this only once they are installed: a "
                                                                  "default install without one stops earlier, with the "
                                                                  "message `reasons` lists before this one."},
                        "gate_fallback": {"type": "string", "description": "The scheme id the engine returns instead "
                                                                           "when the gate fails; empty when none."},
                        "substitution": {"type": "string", "description": "The scheme id the engine returns on this "
                                                                          "platform unless a setting keeps this one; "
                                                                          "empty when none."},
                        "reasons": {**_IDS, "description": "For a refusal or a failure at run time: every reason, in "
                                                           "the engine's order."},
                        "failure_message": {"type": "string", "description": "For a refusal: what the engine raises."},
                        "known_by": {"type": "string", "enum": [known.value for known in KNOWN_BY_MEANINGS],
                                     "description": "; ".join(f"{known.value}: {meaning}"
                                                              for known, meaning in KNOWN_BY_MEANINGS.items())},
                        "evidence": {**_IDS, "description": "Observation record ids when `known_by` is run."},
                        "attempts": {"type": "array", "items": _ATTEMPT,
                                     "description": "The candidates the engine tries for the cell, in its order, up "
                                                    "to the first it takes outright; a kernel it takes only where a "
                                                    "condition holds (outcome `conditional`) is followed by those it "
                                                    "tries when the condition fails, so `kernel` need not be the last; "
                                                    "every candidate when it takes none. Where the gate hands the "
                                                    "checkpoint on, or the engine substitutes another scheme, that "
                                                    "scheme's walk; where the cell is `runs-if` a setting's value, the "
                                                    "walk of the list that value leaves. Empty when it tries none (a "
                                                    "capability gate refuses, or the platform has no candidate list "
                                                    "or an empty one)."},
                        "inferred_steps": {"type": "array", "description": "The steps marked inferred that the kernels "
                                           "deciding a cell that loads meet (the `inferred_steps` of the attempts up to "
                                           "the kernel it selects, and of each kernel a default install selects where "
                                           "its conditions fail), each with its kernel, in the engine's order: why "
                                           "`known_by` is inferred for a cell that runs. Empty otherwise.",
                                           "items": {**_INFERRED_STEP, "required": ["kernel", *_INFERRED_STEP_FIELDS],
                                                     "properties": {"kernel": {"type": "string",
                                                                               "description": "Kernel record id."},
                                                                    **_INFERRED_STEP_FIELDS}}},
                        "otherwise": {"type": "array", "items": _OTHERWISE,
                                      "description": "For a cell whose kernel is selected under conditions (`runs-if`, or "
                                                     "a conditional fallback): what happens if they do not hold, one item "
                                                     "per way they can fail, in the engine's order. Empty otherwise."},
                        "assumes": {"type": "array", "items": _ASSUMES,
                                    "description": "Conditions the verdict takes as met because the engine release's "
                                                   "default install or its default settings (`--dtype auto`) meet "
                                                   "them (the `otherwise` steps marked "
                                                   "`off_default` say what runs without them)."},
                        "default_kernel": {"type": ["string", "null"],
                                           "description": "The kernel a default install of the engine release selects "
                                                          "when the open conditions hold; differs from `kernel` when "
                                                          "that one needs an opt-in (`opt_in`); null when none."},
                        "default_where": {"type": "array", "items": {"type": "string"},
                                          "description": "What else must hold for a default install to select "
                                                         "`default_kernel`, besides what the defaults meet (a checkpoint "
                                                         "layout the cell's own kernel does not need); empty when "
                                                         "nothing does."},
                        "opt_in": {"type": "array", "items": _ASSUMES,
                                   "description": "Conditions of `kernel` the default install does not meet: a reader "
                                                  "gets that kernel only by opting in (a setting, an extra package)."},
                        "fallback_if": {"type": "boolean", "description": "True for a `fallback` that a default "
                                        "install does not reach: an `otherwise` step not marked `off_default` fails at "
                                        "run time, is refused or runs on another device, so the fallback needs its "
                                        "`conditions` as a `runs-if` does (the site labels it \"Fallback if\"); false "
                                        "for every other cell."},
                        "worse": {"type": "array", "items": _WORSE,
                                  "description": "Where a setting filters the candidate list and the cell runs as "
                                                 "specified: each value of it that makes the cell fall back, fail at "
                                                 "run time or be refused, in the setting's order; empty otherwise."},
                        "published": {"type": "array", "items": _PUBLISHED,
                                      "description": "Every published cell that claims this (scheme, target)."},
                        "findings": {**_IDS, "description": "Findings that explain a published disagreement."},
                        "traps": {**_IDS, "description": "Traps whose whole declared scope (engine, formats, serving kernel, "
                                                          "platform, target members, engine release) matches the cell, "
                                                          "silent first, then by severity. A trap naming accelerators "
                                                          "concerns only those members of the target."},
                        "trap_parts": {"type": "array", "items": _TRAP_PARTS,
                                       "description": "Of `traps`, those that name some of the target's parts but not "
                                                      "all, each with those parts (in the target's order): they apply "
                                                      "there only (a blocker on the GB10 alone among the SM 12.x "
                                                      "parts). A trap not listed here concerns every part."},
                        "computes_in": {**_IDS, "description": "Hardware formats the cell computes in when it runs as "
                                                                "specified: those every format of the scheme allows "
                                                                "(the site says each by the index's `precision_label`)."},
                        "computes_steps": {"type": "array", "items": _COMPUTE_STEP,
                                           "description": "What each kernel on the cell's route computes in, in the "
                                                          "engine's order, where it runs as specified: its own kernel "
                                                          "first, then each the engine selects when a condition of the "
                                                          "one before fails (llama.cpp by the tokens in a matmul); "
                                                          "consecutive kernels that compute alike are one step. Empty "
                                                          "when it does not run as specified."},
                        "needs": {"type": "array", "items": _ROUTE_NEED,
                                  "description": "What the kernels the answer runs on need that the engine does not "
                                                 "check when it selects them (a kernel's informational gates that say "
                                                 "so), in the engine's order: its own kernel, the one a default "
                                                 "install selects, and each an `otherwise` step selects."},
                        "sources": {**_IDS, "description": "Source ids behind the verdict, in reading order."},
                        "source_groups": {"type": "array", "items": _SOURCE_GROUP,
                                          "description": "`sources`, and each trap's own, grouped by the statement "
                                                         "of the answer each backs, as the record fields that cite "
                                                         "them say (a source that backs several is in each group), "
                                                         "in the card's reading order."},
                        "sources_passed_over": {"type": "array", "items": _PASSED_OVER,
                                                "description": "Of `sources`, those that back only the kernels the "
                                                               "answer passes over, by kernel in the engine's order: "
                                                               "kernels reached only when a condition fails, and, "
                                                               "where the cell runs as specified, candidates declined "
                                                               "before `kernel` (never `kernel` or `default_kernel`); "
                                                               "the rest back the verdict."},
                        "on_parts": {"type": "array", "items": _PART_ANSWER,
                                     "description": "The answer on each member part that needs more than "
                                                    "the target: a fixed host CPU (an accelerator's `host_cpu`) that "
                                                    "a condition's install route leaves out, or a compute capability "
                                                    "of its own that the default install's binaries carry no code "
                                                    "for; empty when every part's answer is the target's."},
                        "whole_checkpoint": _WHOLE_CHECKPOINT,
                        "history": _HISTORY}}
_CELL["required"] = list(_CELL["properties"])

# the name is older than this description; renaming the field or dropping its fallbacks is an incompatible change
_RUNS_ON = ("Every cell that loads a model in this format, despite the name: the cells of every scheme whose `formats` "
            "name it, sorted by scheme then target, whose verdict is `runs`, `runs-if` or `fallback`. A `fallback` "
            "entry loads but computes at another precision (activations left unquantized, say), not in this format: "
            "keep the `runs` and `runs-if` entries (the latter under its named conditions) for where the format "
            "itself runs. An expert-layer scheme's cell is listed where its `whole_checkpoint` verdict is one of "
            "those three (a model loads only where its expert and its other layers both do), and read by it.")
_RUN = {"type": "object", "required": ["scheme", "target", "engine", "verdict", "kernel", "whole_checkpoint"],
        "description": "A derived cell in short: the full one is the cells document's entry for (scheme, target).",
        "properties": {"scheme": {"type": "string", "description": "Scheme record id."},
                       "target": {"type": "string", "description": "Hardware-target record id."},
                       "engine": {"type": "string", "description": "Engine record id: the scheme's `engine`."},
                       "verdict": {"type": "string", "description": "The cell's derived verdict (see the verdict "
                                                                    "vocabulary); an expert-layer scheme's is its "
                                                                    "expert layers' alone."},
                       "kernel": {"type": ["string", "null"], "description": _SELECTED_KERNEL},
                       "whole_checkpoint": {"type": ["string", "null"], "description":
                                            "For a cell of an expert-layer scheme whose checkpoint's other linear "
                                            "layers have a scheme with a cell on the target: the whole checkpoint's "
                                            "verdict, the worse of the two (the cells document's "
                                            "`whole_checkpoint.verdict`), which is what loads; null for any other "
                                            "cell."}}}

_DERIVED = {"type": "object", "additionalProperties": False,
            "description": "Views computed from the records, by kind: a source's `link`; an accelerator's "
                           "`native_formats`, `emulated_formats`, `hardware_targets` and `cells`; a scheme's or a "
                           "hardware target's `cells`; a format's `runs_on`. Empty for other kinds.",
            "properties": {
                "link": {**_STRING_OR_NULL, "description": "A source's address, as its index entry's `link` (a "
                         "permalink where the source names a revision); null when it has none."},
                "native_formats": {**_IDS, "description": "An accelerator's native hardware formats, as its format "
                                   "map row's `native`."},
                "emulated_formats": {**_IDS, "description": "An accelerator's emulated hardware formats, as its format "
                                     "map row's `emulated`."},
                "hardware_targets": {**_IDS, "description": "An accelerator's hardware targets: the ids of those that "
                                     "stand for it, in the support tables' column order."},
                "cells": {"type": "array", "items": _RUN, "description": "An accelerator's cells (every cell on its "
                          "`hardware_targets`, target by target in that order, then by scheme), or a scheme's or a "
                          "hardware target's (every cell of it, sorted by scheme then target), whatever the verdict."},
                "runs_on": {"type": "array", "items": _RUN, "description": "A format's, as its format map entry's "
                            "`runs_on`. " + _RUNS_ON}}}

SCHEMAS: dict[str, dict[str, Any]] = {
    "index.schema.json": _document(
        "Atlas API index", "Every record by kind, with the file holding its API document, and the other documents.",
        {"documents": {"type": "object", "additionalProperties": {"type": "string"},
                       "description": "The other documents by name (`cells`, `format_map`, `schema`), each as a path "
                                      "relative to api/; `schema/` is the folder of the JSON Schemas."},
         "records": {"type": "object", "required": list(KINDS), "additionalProperties": False,
                     "description": "Every record, by kind (as `kind` in a record document).",
                     "properties": {kind: {"type": "array", "items": _entry(kind),
                                           "description": f"Every {kind} record, sorted by id."} for kind in KINDS}}},
        ["documents", "records"]),
    "record.schema.json": _document(
        "Atlas API record", "One record: its validated data (see records/<kind>.schema.json), derived views and backlinks.",
        {"kind": {"type": "string", "description": "The record's kind (its schema's name)."},
         "id": {"type": "string", "description": "The record's id: its file name under records/ without `.yaml`."},
         "name": {"type": "string", "description": "The record's `name`."},
         "page": {"type": "string", "description": "The record's page, relative to the site root."},
         "data": {"type": "object", "description": "The record as validated against api/schema/records/<kind>.schema.json."},
         "derived": _DERIVED,
         "backlinks": {"type": "array", "description": "Every reference to this record from a record, sorted by "
                       "record then field, as strings (`accelerators[10]` before `accelerators[1]`); empty when none "
                       "refers to it.",
                       "items": {"type": "object", "required": ["record", "field"], "additionalProperties": False,
                                 "properties": {"record": _REF,
                                                "field": {"type": "string", "description": "Where in that record "
                                                          "the reference is, as a path of its fields "
                                                          "(`candidates[0].kernels[1]`)."},
                                                                  "through": {
                                                                      "type": "object", "required": ["record", "field"],
                                                                      "additionalProperties": False,
                                                                      "properties": {"record": _REF, "field": {
                                                                          "type": "string", "description": "Where in "
                                                                          "that record the list cites this one, as a "
                                                                          "path of its fields."}},
                                                                      "description": "Where the reference is stated when "
                                                                      "the record reaches this one through a named list: a "
                                                                      "scheme's `list` (field candidates[n].list) names its "
                                                                      "engine's candidate list, whose field cites this record."}}}}},
        ["kind", "id", "name", "page", "data", "derived", "backlinks"]),
    "cells.schema.json": _document(
        "Atlas API derived support cells", "Every derived (scheme, hardware target) cell with its published claims.",
        {"cells": {"type": "array", "items": _CELL, "description": "Every derived cell, sorted by scheme id "
                                                                    "then target id."}}, ["cells"]),
    "format-map.schema.json": _document(
        "Atlas API format map", "Hardware formats per accelerator, and where each format runs through which kernel.",
        {"accelerators": {"type": "array", "description": "Every accelerator record, grouped by vendor (in the "
                          f"site's vendor order: {', '.join(VENDOR_ORDER)}, then any other by name) and sorted by id "
                          "within a vendor.", "items": {
            "type": "object", "required": ["id", "name", "vendor", "category", "architecture", "native", "emulated",
                                           "native_unrated", "native_encoding_unstated", "unverified"],
            "properties": {"id": {"type": "string", "description": "Accelerator record id."},
                           "name": {"type": "string", "description": "The record's `name`."},
                           "vendor": _record_field("accelerator", "vendor"),
                           "category": _record_field("accelerator", "category"),
                           "architecture": {"type": "string", "description": "The record's `architecture`; empty "
                                                                             "when it states none."},
                           "native": {**_IDS, "description": "The hardware formats (format ids, sorted) the part "
                                      "computes natively: a dense matrix-engine peak the part states in the format's "
                                      "`peak_precision` (not one a source says `runs_as` a wider precision), or a "
                                      "matrix instruction in it of a hardware target the part belongs to (or of the "
                                      "part's own `matrix_formats`); an FP8 format only in an encoding these name, "
                                      "where any names one."},
                           "emulated": {**_IDS, "description": "The hardware formats (format ids, sorted) not native "
                                        "on the part that it computes by conversion: it has a dense peak (one a source "
                                        "says `runs_as` a wider precision counts as that one) or a matrix instruction "
                                        "in one of the format's `emulated_via` precisions, or a source shows its "
                                        "architecture has no matrix instruction in the format's precision "
                                        "(`no_matrix_formats`, `no_matrix_instructions`). A hardware format in "
                                        "neither list is one the records do not settle for the part."},
                           "native_unrated": {**_IDS, "description": "The native formats no peak rate is recorded for: "
                                              "native by a matrix instruction of the part's hardware target."},
                           "native_encoding_unstated": {**_IDS, "description": "The native FP8 formats whose encoding "
                                                        "(E4M3, E5M2) no figure or instruction of the part names."},
                           "unverified": {**_IDS, "description": "The native or emulated formats every figure and "
                                          "instruction of which is unverified: each peak figure the status rests on is "
                                          "marked unverified in the record and each instruction cites only a seed draft "
                                          "(an emulated format counts only when it rests on a figure). The map marks "
                                          "them as gaps."}}}},
         "formats": {"type": "array", "description": "Every format record, sorted by id (checkpoint formats and "
                                                     "categories, never native or emulated, run only through kernels: "
                                                     "`runs_on`).", "items": {
             "type": "object", "required": ["id", "name", "native_on", "emulated_on", "runs_on"],
             "properties": {"id": {"type": "string", "description": "Format record id."},
                            "name": {"type": "string", "description": "The record's `name`."},
                            "native_on": {**_IDS, "description": "The accelerators whose `native` lists the format, "
                                                                 "in `accelerators` order."},
                            "emulated_on": {**_IDS, "description": "The accelerators whose `emulated` lists the "
                                                                   "format, in `accelerators` order."},
                            "runs_on": {"type": "array", "items": _RUN, "description": _RUNS_ON}}}}},
        ["accelerators", "formats"]),
}
