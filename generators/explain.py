"""Plain-text and JSON views of derived cells, for `explain` and `cells` on the command line."""
from __future__ import annotations

import difflib
from typing import Any

from .derive.cells import FAILS_FIRST_ON_DEFAULT_INSTALL, GATE_AFTER_PACKAGES, Cell, Otherwise, unread_platforms
from .derive.default_lead import default_lead, lead_said
from .derive.emulated_here import Emulated, Way, emulated_here, unknown_here
from .derive.members import members
from .derive.plugins import PluginElsewhere, answers_for, layers_of, plugin_elsewhere, through_plugins
from .derive.route_computes import format_precision, precision_said
from .derive.trap_scope import applies_when
from .derive.inferred_steps import InferredStep, words_key
from .derive.wording import (covers, fill, inferred_below, layer_schemes, revision_said, setting_said, whole_both,
                              whole_decided, whole_default_layers, whole_state, words)
from .model.verdicts import FALLBACK_IF_LABEL, Verdict, known_by_said


def explain_text(atlas: Any, scheme_id: str, target_id: str) -> tuple[str, bool]:
    """The derivation trace of one cell, or an error naming the close match."""
    for kind, wanted in (("scheme", scheme_id), ("hardware-target", target_id)):
        if atlas.index.get(kind, wanted) is None:
            known = sorted(atlas.index.by_kind[kind])
            close = difflib.get_close_matches(wanted, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f"; known: {', '.join(known)}"
            return f"error: {wanted!r} is not a {kind} id{hint}", False
    scheme = atlas.index.get("scheme", scheme_id).data
    cell = atlas.views.cells.get((scheme_id, target_id))
    if cell is None:
        platform = atlas.index.get("hardware-target", target_id).data["platform"]
        plugin = through_plugins(atlas.index).get(scheme.get("engine", ""), {}).get(platform)
        if plugin:
            host, added = atlas.index.get("engine", scheme["engine"]), atlas.index.get("engine", plugin)
            theirs = [s for s in atlas.index.all("scheme") if s.data.get("engine") == plugin]
            # every format the scheme reads, not its first only (vLLM's compressed-tensors NVFP4 reads llm-compressor
            # checkpoints too, which the plugin reads): the ones none of the plugin's schemes reads, in one sentence
            unread = [_format_name(atlas, f) for f in scheme.get("formats", [])
                      if not any(f in s.data.get("formats", []) for s in theirs)]
            return (f"{scheme_id} on {target_id}: NOT DERIVED for this scheme: "
                    + fill(words("through_plugin"), host=host.name if host else scheme["engine"], platform=platform,
                           host_release=str((host.data if host else {}).get("version_read") or "a release not recorded"),
                           plugin=f"{added.name} (engine {plugin})",
                           plugin_release=str(added.data.get("version_read") or "a release not recorded"))
                    + (f"; {fill(words('through_plugin_none'), plugin=added.name, format=' or '.join(unread))}" if unread else "")
                    + "\n  its schemes: " + ", ".join(sorted(s.id for s in theirs))
                    + "".join("\n" + line for line in _answers_lines(atlas, added.name, plugin, scheme, target_id))), True
        away = plugin_elsewhere(atlas.index, scheme.get("engine", ""), platform)
        if away:
            return _elsewhere_text(atlas, scheme_id, target_id, away), True
        if platform not in unread_platforms(scheme):
            return (f"{scheme_id} on {target_id}: NOT DERIVED (no scheme of engine {scheme.get('engine', '')!r} has a "
                    f"candidate list for platform {platform!r})"), True
        return (f"{scheme_id} on {target_id}: NOT DERIVED (the scheme has not read platform {platform!r}: "
                f"{unread_platforms(scheme)[platform]})"), True
    lead = default_lead(cell)  # a kernel a default install does not select is not the one the header leads with
    via = lead_said(lead) if lead else cell.kernel
    lines = [f"{scheme_id} on {target_id}: {cell.label.upper()}" + (f" via {via}" if via else "")
             + f" ({known_by_said(cell.known_by, _version_read(atlas, cell.engine), _below(cell))})"]
    lines.extend(whole_lines(atlas, scheme_id, target_id))
    if cell.computes_as:
        lines.append(f"  computes as: {cell.computes_as}")
    lines.extend(_computes_lines(atlas, scheme_id, target_id))
    stated = {c for attempt in cell.attempts for c in attempt.conditions}
    said = "only if" if cell.verdict is Verdict.RUNS_IF or cell.fallback_if else "when"  # (of the install or a substitution, not a kernel)
    lines.extend(f"  {said}: {c}" for c in cell.conditions if c not in stated)
    if cell.verdict.loads and cell.default_kernel and cell.default_kernel != cell.kernel:
        lacking = "; ".join(f"{a.condition}: {a.met_by}" for a in cell.opt_in)
        where = f" where {'; '.join(cell.default_where)}" if cell.default_where else ""
        lines.append(f"  a default install selects: {cell.default_kernel}{where}" + (f" (it lacks {lacking})" if lacking else ""))
    if cell.substitution:  # the platform substitutes another scheme unless a setting keeps this one
        lines.append(f"  on this platform the engine returns {cell.substitute_scheme} ({cell.substitution}) unless a "
                     "setting keeps this scheme")
    gate, failed = scheme.get("capability_gate"), cell.gate
    if gate and cell.gate_fallback:  # this scheme's gate failed; the rest is the cell of the scheme returned instead
        lines.append(f"  {_gate_said(gate)}: FAILS (a test, not an error: the engine prints nothing)")
        lines.append(f"  instead the engine returns {cell.substitute_scheme} ({cell.gate_fallback}); what follows is "
                     "that scheme's cell on this target")
        gate = atlas.index.get("scheme", cell.gate_fallback).data.get("capability_gate")
    if gate and failed and any(reason.startswith(GATE_AFTER_PACKAGES) for reason in cell.reasons):
        # the engine tests packages first: what a default install sees, then the gate with them installed
        lines.append(f"  {_gate_said(gate)}: FAILS, after package tests (in the engine's order):")
        lines.extend(f"    {reason}" for reason in cell.reasons if not reason.startswith(FAILS_FIRST_ON_DEFAULT_INSTALL))
    elif gate:
        lines.append(f"  {_gate_said(gate)}: " + (f"FAILS: {failed}" if failed else "passes or does not apply"))
    for n, attempt in enumerate(cell.attempts, start=1):
        stage = " (accepted by can_implement, fails after selection)" if attempt.after_selection else ""
        line = f"  {n}. {attempt.kernel}: {attempt.outcome.upper()}{stage}"
        if attempt.reason:
            line += f": {attempt.reason}"
        if attempt.conditions:
            line += f" (conditions: {'; '.join(attempt.conditions)})"
        if attempt.routes:
            line += f" (routes: {', '.join(attempt.routes)})"
        if attempt.limits:
            line += f" (shape limits: {'; '.join(attempt.limits)})"
        lines.append(line)
        lines.extend(f"     the defaults meet: {a.said}" for a in attempt.assumed)
        # what it meets without the engine's code for it read: the step its loading rests on, what it tests and where
        # it was read (its reason is the account of its failure, which does not hold here)
        lines.extend(f"     {_inferred_said(atlas, cell, attempt.kernel, step)}" for step in attempt.inferred_steps)
        lines.extend(f"     the default install lacks: {a.said}" for a in attempt.opt_in)
    if not cell.attempts and cell.reasons and not cell.gate:
        lines.append(f"  {cell.reasons[0]}")
    lines.extend(otherwise_lines(cell))
    for w in cell.worse:  # a refusal's every reason, each on its own line as under the otherwise steps
        said = w.computes_as or (w.reasons[0] if len(w.reasons) == 1 else "")
        lines.append(f"  a setting that makes it worse: {w.setting}: {w.verdict.value}"
                     + (f" on the default install, which lacks what {w.passed_over} needs (where that is met: "
                        f"{w.given_it.value if w.given_it else 'not known'})" if w.passed_over else "")
                     + (f" ({w.kernel})" if w.kernel else "") + (f": {said}" if said else ""))
        if not w.computes_as and len(w.reasons) > 1:
            lines.extend(f"         {reason}" for reason in w.reasons)
    if cell.verdict is Verdict.FAILS_AT_RUNTIME:
        chosen = next(a.kernel for a in cell.attempts if a.after_selection)
        where = f" where {'; '.join(cell.conditions)}" if cell.conditions else ""
        lines.append(f"  the engine selects {chosen} (its can_implement accepts){where} and then fails at run time, "
                     "as the gate says")
    elif cell.verdict is Verdict.REFUSED and cell.failure_message:
        lines.append(f"  engine raises: {cell.failure_message}")
    lines.extend(f"  {reason}" for reason in cell.reasons if reason.startswith(FAILS_FIRST_ON_DEFAULT_INSTALL))
    lines.extend(_part_lines(atlas, scheme_id, target_id))
    lines.extend(_need_lines(atlas, scheme_id, target_id))
    lines.extend(_fact_lines(atlas, scheme, cell))
    lines.extend(_published_lines(atlas, scheme_id, target_id))
    lines.extend(_trap_lines(atlas, scheme_id, target_id))
    lines.extend(_engine_trap_lines(atlas, cell.engine))
    return "\n".join(lines), True


def whole_lines(atlas: Any, scheme_id: str, target_id: str) -> list[str]:
    """An expert-layer cell's whole checkpoint (derive/whole_checkpoint.py): the worse of its own verdict and that of the
    scheme of the checkpoint's other linear layers on the target, what that scheme's cell says, and where to read it;
    the expert cell's own verdict, in the header, stays its own."""
    whole = atlas.views.whole_checkpoints.get((scheme_id, target_id))
    if whole is None:
        return []
    if whole.verdict is None or whole.others is None:
        return [f"  whole checkpoint: NOT DERIVED: {fill(words('whole_checkpoint_none'), scheme=whole.other)}"]
    said = fill(words("whole_checkpoint"), scheme=whole.other,
                state=whole_state(whole.others.value, whole.why, whole.others_lead) + whole_both(whole.both_conditional, whole.experts_why))
    if whole.by_default is not None:  # a default install gets worse than the verdict: said after the lead naming why
        said += fill(words("whole_checkpoint_default"), layers=whole_default_layers(whole.default_layers),
                     verdict=whole.by_default.label.upper())
    return [f"  whole checkpoint: {whole.label.upper()} ({whole_decided(whole.decided_by)}): {said} "
            f"(explain {whole.other} {target_id})"]


def _below(cell: Cell) -> str:
    """Where a cell lists the inferred steps its deciding kernels meet under its attempts: the words pointing to them
    (the card says the same before its list, can-i-run-it.js knownBy)."""
    return inferred_below(len(cell.inferred_met)) if cell.inferred_met else ""


def _elsewhere_text(atlas: Any, scheme_id: str, target_id: str, away: PluginElsewhere) -> str:
    """A plugin's scheme on a platform the plugin does not add: not a gap and not a verdict; the host answers there
    (with its own schemes reading the scheme's format on this target, each with its verdict), and why."""
    plugin, host = atlas.index.get("engine", away.plugin), atlas.index.get("engine", away.host)
    host_name = host.name if host else away.host
    said = fill(words("plugin_elsewhere"), plugin=f"{plugin.name} (engine {away.plugin})", host=host_name,
                platforms=", ".join(away.platforms), platform=away.platform,
                plugin_release=str(plugin.data.get("version_read") or "a release not recorded"))
    said += "; " + fill(words("plugin_elsewhere_host" if away.host_reads else "plugin_elsewhere_host_none"),
                        host=host_name, platform=away.platform)
    lines = [f"{scheme_id} on {target_id}: {words('plugin_elsewhere_label').upper()}: {said}"]
    lines.extend(f"  why: {step.text} ({step.source}, {step.locator})" for step in away.steps)
    lines.extend(_answers_lines(atlas, host_name, away.host, atlas.index.get("scheme", scheme_id).data, target_id))
    return "\n".join(lines)


def _answers_lines(atlas: Any, name: str, engine_id: str, scheme: dict[str, Any], target_id: str) -> list[str]:
    """The other engine's schemes that answer for the scheme here, with their verdicts (derive/plugins.py answers_for:
    those covering its layers and reading every format it reads; where none here reads one of them, that format alone,
    as the card)."""
    lines = []
    layers = layers_of(scheme)
    for found in answers_for(atlas.index, atlas.views.cells, engine_id, scheme.get("formats", []), target_id, layers):
        formats = [_format_name(atlas, f) for f in found.formats]
        lines.append(f"  {name}'s {layer_schemes(layers)} schemes reading {_joined(formats)} here: " + (", ".join(
            f"{sid} ({atlas.views.cells[(sid, target_id)].verdict.value})" for sid in found.schemes) or "none in the atlas"))
    return lines


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _format_name(atlas: Any, format_id: str) -> str:
    found = atlas.index.get("format", format_id)
    return str(found.name) if found else format_id


def _computes_lines(atlas: Any, scheme_id: str, target_id: str) -> list[str]:
    """What the answer computes in (Answer.computes_in, or Answer.steps by kernel), and the format map's notice where
    it rates those formats emulated on the target's parts, or on none of them (derive/emulated_here.py); a format by
    the precision it multiplies in (route_computes.format_precision, as the card says it), never by its name."""
    answer = atlas.views.answers.get((scheme_id, target_id))
    if answer is None:
        return []
    lines = []
    steps = answer.steps
    if not answer.cell.computes_as:
        if len(steps) > 1 or (len(steps) == 1 and steps[0].precision):
            lines.append("  computes in, by kernel, in the engine's order (the conditions say which runs when):")
            for step in steps:
                what = (precision_said(step.precision) if step.precision
                        else " or ".join(format_precision(atlas.index, f) for f in step.formats))
                lines.append(f"    {what} ({', '.join(step.kernels)}){_setting_short(step.setting)}")
        elif answer.computes_in:
            lines.append(f"  computes in: {' or '.join(format_precision(atlas.index, f) for f in answer.computes_in)}")
    parts = tuple(members(atlas.index, atlas.index.must("hardware-target", target_id)))
    tallies = atlas.views.tallies
    emulated = {p: tuple(tallies[p].emulated) for p in tallies}
    rated = {p: tuple(tallies[p].native) + tuple(tallies[p].emulated) for p in tallies}
    kernels = {r.id: r.data for r in atlas.index.all("kernel")}
    for found in emulated_here(answer, parts, emulated, kernels):
        lines.append("    " + fill(words("emulated"), format=format_precision(atlas.index, found.format),
                                         parts=_part_names(atlas, found.parts), how=_how(found)))
    for fmt, on in unknown_here(answer, parts, rated):
        lines.append("    " + fill(words("unknown"), format=format_precision(atlas.index, fmt), parts=_part_names(atlas, on)))
    return lines


def _setting_short(setting: Any) -> str:
    """Which value of the setting that chooses a step's precision the step is for (as the card's comparison row says)."""
    if setting is None:
        return ""
    return setting_said(setting.name, setting.value, setting.default, setting.stored_in, setting.default_when)


def _part_names(atlas: Any, parts: tuple[str, ...]) -> str:
    return ", ".join(atlas.index.must("accelerator", p).name for p in parts)


def _how(found: Emulated) -> str:
    """The way the kernels computing the format record for the target, or, where one records none, both ways."""
    if not found.ways:
        return words("emulated_how")
    return "; ".join(_way_said(w) for w in found.ways)


def _way_said(w: Way) -> str:
    many = len(w.kernels) > 1
    who = ", ".join(w.kernels[:-1]) + " and " + w.kernels[-1] if many else w.kernels[0]
    return who + w.said + (f" ({w.instruction}, source {w.source})" if w.instruction else "")


def _inferred_said(atlas: Any, cell: Cell, kernel: str, step: InferredStep) -> str:
    """A step marked inferred the kernel meets or fails and stays, in WORDS' sentence (the card says the same)."""
    read_in = " and ".join(fill(words("read_in"), source=r.source, at=_revision_of(atlas, r.source),
                                where=f", {r.where}" if r.where else "") for r in step.read_in)
    engine_id = step.engine or cell.engine  # the kernel's engine: ONNX Runtime under an ONNX Runtime GenAI cell
    engine = atlas.index.get("engine", engine_id)
    return fill(words(words_key(step)), kernel=kernel, checks=step.checks, read_in=read_in,
                engine=engine.name if engine is not None else engine_id,
                read=_version_read(atlas, engine_id) or "the release read")


def _revision_of(atlas: Any, source_id: str) -> str:
    source = atlas.index.get("source", source_id)
    return revision_said(str(source.data.get("revision") or ""), source_id) if source else ""


def _version_read(atlas: Any, engine_id: str) -> str | None:
    engine = atlas.index.get("engine", engine_id)
    return str(engine.data["version_read"]) if engine is not None and engine.data.get("version_read") else None


def _fact_lines(atlas: Any, scheme: Any, cell: Cell) -> list[str]:
    """The card's other facts: the observations a run-verified cell rests on, the engine release read (and later
    releases a finding compared with it), and which layers the answer covers."""
    lines = []
    if cell.evidence:
        lines.append(f"  known from the observations: {', '.join(cell.evidence)}")
    engine = atlas.index.get("engine", cell.engine)
    if engine is not None and engine.data.get("version_read"):
        later = "".join("; " + fill(words("later_release"), release=x["release"], finding=f"finding {x['finding']}")
                        for x in engine.data.get("later_releases", []))
        relation = engine.data.get("plugin_of")
        host = relation and atlas.index.get("engine", relation["engine"])
        plugin = ", " + fill(words("plugin_of"), host=host.name, platforms=", ".join(relation["platforms"])) if host else ""
        lines.append(f"  release read: {engine.name} {engine.data['version_read']}{plugin}{later}")
    lines.append(f"  covers: {covers(scheme.get('layers', 'dense'))}")
    return lines


def _published_lines(atlas: Any, scheme_id: str, target_id: str) -> list[str]:
    """What publishers' tables say about the cell: each disagreement with its finding, then the agreeing ones."""
    answer = atlas.views.answers.get((scheme_id, target_id))
    if answer is None:
        return []
    lines = []
    for p in answer.published:
        if p.agrees:
            continue
        lines.append("  the publisher disagrees: " + fill(words("disagrees"), matrix=p.matrix, verdict=f"{p.symbol} ({p.says})",
                                                              row=p.row, by="x", column=p.column))
        if p.finding:
            lines.append(f"    {p.finding}: {atlas.index.must('finding', p.finding).data.get('conclusion', '')}")
    agreeing = [f"{p.matrix} ({p.symbol} {p.says})" for p in answer.published if p.agrees]
    if agreeing:
        lines.append(f"  agrees with {'; '.join(agreeing)}")
    return lines


def _engine_trap_lines(atlas: Any, engine_id: str) -> list[str]:
    """The engine-wide traps, which concern every answer of the engine (the card lists them after the cell's)."""
    found = atlas.views.traps_by_engine.get(engine_id)
    if not found or not found.engine_wide:
        return []
    return ["  engine-wide traps (not specific to this format or hardware):",
            *(_trap_said(atlas, t) for t in found.engine_wide)]


def _trap_said(atlas: Any, trap_id: str) -> str:
    trap = atlas.index.must("gotcha", trap_id).data
    when = applies_when(trap)
    return (f"    {trap_id} ({trap['severity']}{', silent' if trap.get('silent') else ''}): {trap['name']}"
            + (f" ({fill(words('trap_when'), when=when)})" if when else "") + (" [unverified]" if trap.get("unverified") else ""))


def _need_lines(atlas: Any, scheme_id: str, target_id: str) -> list[str]:
    """What the kernels the answer runs on need that the engine does not check when it selects them (route_needs)."""
    answer = atlas.views.answers.get((scheme_id, target_id))
    if answer is None or not answer.needs:
        return []
    return ["  also needed at run time (the engine does not check it when it selects the kernel):",
            *(f"    {_needed_by(need)}: {need.said} (source {need.source})" for need in answer.needs)]


def _needed_by(need: Any) -> str:
    """Who brings a need in: the kernel, or the engine on every start; for a tool's need, with the tool."""
    by = need.kernel or fill(words("need_engine"), engine=need.engine)
    return fill(words("need_tool"), by=by, tool=need.tool) if need.tool else by


def _part_lines(atlas: Any, scheme_id: str, target_id: str) -> list[str]:
    """The answer on each member part that needs more than the target (derive/parts.py)."""
    answer = atlas.views.answers.get((scheme_id, target_id))
    if answer is None or not answer.on_parts:
        return []
    lines = ["  on parts that need more than the target (their host CPU, their own compute capability):"]
    for part in answer.on_parts:
        said = FALLBACK_IF_LABEL if part.fallback_if else part.verdict.value.replace("-", " ")
        lines.append(f"    {part.part}: {said.upper()}, first needs "
                     + "; ".join(part.conditions))
    return lines


def _trap_lines(atlas: Any, scheme_id: str, target_id: str) -> list[str]:
    """The traps the site lists on the cell's answer (its scope matches the scheme, the target, the kernels and the
    engine release the records read), each with its severity and name, and, for one limited to some of the target's
    parts (Answer.trap_parts), those parts, as the answer card names them; the engine-wide ones are on the engine's
    page."""
    answer = atlas.views.answers.get((scheme_id, target_id))
    if answer is None or not answer.traps:
        return []
    lines = ["  traps that apply (records/gotchas/):"]
    for trap_id in answer.traps:
        lines.append(_trap_said(atlas, trap_id))
        parts = answer.parts_of(trap_id)
        if parts:
            names = [atlas.index.must("accelerator", p).name for p in parts]
            said = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
            lines.append(f"      {fill(words('trap_parts'), parts=said)} ({'accelerators' if len(parts) > 1 else 'accelerator'} "
                         f"{', '.join(parts)}), not its other parts")
    return lines


def _gate_said(gate: Any) -> str:
    bound = f"exactly {gate['exact']}" if "exact" in gate else f">= {gate.get('min')}"
    where = f" on {', '.join(gate['platforms'])}" if gate.get("platforms") else ""
    return f"capability gate {bound}{where}"


def otherwise_lines(cell: Cell) -> list[str]:
    """For each way the cell's conditions can fail, the next outcome in the engine's order."""
    if not cell.otherwise:
        return []
    lines = ["  if the conditions do not hold (the next outcome in the engine's order):"]
    for step in cell.otherwise:
        off = ", off the defaults" if step.off_default else ""
        whose = "the install, " + words("whichever") if step.of_install else step.kernel
        lines.append(f"    unless {' and '.join(step.unmet)} (for {whose}{off}):")
        lines.append(f"      -> {otherwise_summary(step)}")
        lines.extend(f"         {reason}" for reason in step.reasons)
        if step.failure_message:
            lines.append(f"         engine raises: {step.failure_message}")
    return lines


def otherwise_summary(step: Otherwise) -> str:
    """One outcome as explain prints a verdict: `RUNS IF via k (conditions: ...)`, `FALLBACK via k: computes as ...`."""
    text = step.verdict.label.upper() + (f" via {step.selected}" if step.selected and not step.walks else "")
    if step.elsewhere:
        text += f" on {step.elsewhere} instead, not on this target"
    if step.computes_as:
        text += f": computes as: {step.computes_as}"
    if step.conditions:
        text += f" (conditions: {'; '.join(step.conditions)})"
    return text


def cells_json(atlas: Any) -> str:
    """The data API's cells document (api/cells.json without its final newline)."""
    from .render.api import cells_json as api_cells_json
    return api_cells_json(atlas)


def cells_text(atlas: Any) -> str:
    rows = [_row(cell) for _, cell in sorted(atlas.views.cells.items())]
    return "\n".join(rows)


def _row(cell: Cell) -> str:
    detail = cell.kernel or (cell.reasons[0] if cell.reasons else "")
    return f"{cell.scheme}\t{cell.target}\t{cell.verdict}\t{detail}"
