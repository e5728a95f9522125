"""Where an engine runs on a platform only through its platform plugin (`plugin_of` on the plugin's engine record):
the host engine's schemes have no cell on that platform's targets (check plugin-of keeps their candidates off it), and
the answers there are the plugin's own schemes, so a reader who picks the host engine is sent to the plugin rather
than told that nothing is known.

The mirror: the plugin's own schemes have no cell on any other platform's targets either (the same check keeps their
candidates off them), and that is not a gap in the atlas: the plugin adds those platforms only, and elsewhere the host
engine answers with its own schemes (`plugin_elsewhere`), for the reasons the record gives under `plugin_of.elsewhere`."""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ..model.index import Index


def through_plugins(index: Index) -> dict[str, dict[str, str]]:
    """Host engine id -> platform -> the id of the engine that is its plugin for that platform."""
    found: dict[str, dict[str, str]] = {}
    for engine in index.all("engine"):
        relation = engine.data.get("plugin_of")
        if relation:
            for platform in relation["platforms"]:
                found.setdefault(relation["engine"], {})[platform] = engine.id
    return found


@dataclass(frozen=True)
class ElsewhereStep:
    """One step of why the plugin runs on no other platform, as the record states it."""

    text: str
    source: str
    locator: str


@dataclass(frozen=True)
class PluginElsewhere:
    """A plugin engine asked about on a platform it does not add: the host engine that answers there instead."""

    plugin: str
    host: str
    platforms: tuple[str, ...]  # the platforms the plugin adds, in the record's order
    platform: str  # the platform asked about
    host_reads: bool  # whether any scheme of the host has a candidate list (read or unread) for that platform
    steps: tuple[ElsewhereStep, ...]


def host_platforms(index: Index, engine_id: str) -> tuple[str, ...]:
    """The platforms some scheme of the engine lists candidates for (read or `unread`), sorted."""
    return tuple(sorted({c["platform"] for s in index.all("scheme") if s.data.get("engine") == engine_id
                         for c in s.data.get("candidates", [])}))


def plugin_elsewhere(index: Index, engine_id: str, platform: str) -> PluginElsewhere | None:
    """Where the engine is another engine's platform plugin and the platform is not one it adds: the host that answers
    there (None for any other engine or platform)."""
    engine = index.get("engine", engine_id)
    relation = engine.data.get("plugin_of") if engine else None
    if not relation or platform in relation["platforms"] or relation["engine"] == engine_id:
        return None
    return PluginElsewhere(engine_id, relation["engine"], tuple(relation["platforms"]), platform,
                           platform in host_platforms(index, relation["engine"]),
                           tuple(ElsewhereStep(s["text"], s["source"], s["locator"]) for s in relation.get("elsewhere", [])))


def layers_of(scheme: Mapping[str, object]) -> str:
    """The layers a scheme's cells describe (schema: scheme.layers, dense unless the record says experts)."""
    return str(scheme.get("layers") or "dense")


@dataclass(frozen=True)
class Answers:
    """Another engine's schemes that answer for a scheme on a target, about the formats named (answers_for)."""

    formats: tuple[str, ...]  # a format none of the engine's schemes with a cell here reads, or every format read
    schemes: tuple[str, ...]  # the engine's schemes reading all of `formats` with a cell on the target, sorted


def answers_for(index: Index, cells: Collection[tuple[str, str]], engine_id: str, formats: Sequence[str],
                target_id: str, layers: str) -> tuple[Answers, ...]:
    """Which of another engine's schemes answer for a scheme on a target where the scheme has no cell (the plugin
    answering for its host's scheme, the host for the plugin's elsewhere): the Can I run it? card
    (docs/javascripts/can-i-run-it.js answersFor) and explain say the same.

    The rule: another engine's scheme answers only when it covers the layers the scheme covers (`layers`, dense unless
    the record says experts), reads every format the scheme reads and has a cell on the target. A cell describes only
    the layers of its scheme, so an expert-layer scheme (vLLM-Gaudi's compressed-tensors WNA16 MoE) is no answer for a
    dense one reading the same formats (vLLM's compressed-tensors WNA16), nor a dense one for an expert-layer one. A
    scheme may read several (vLLM's compressed-tensors NVFP4 reads NVFP4 and llm-compressor checkpoints),
    and one reading some of them loads none of its checkpoints as far as the records say: vLLM-Gaudi's
    compressed-tensors W4A16 reads llm-compressor checkpoints and no NVFP4. The records do not tell a container format
    from an element one, so every format counts alike. A format none of the engine's schemes with a cell here reads is
    the gap, one Answers each with no schemes, and nothing is named for the other formats (a list for them would be
    read as a route); where there is none, one Answers for every format, its schemes possibly none. "The engine's
    schemes" here are always those covering `layers`."""
    theirs = [s for s in index.all("scheme") if s.data.get("engine") == engine_id
              and layers_of(s.data) == layers and (s.id, target_id) in cells]

    def reading(wanted: Sequence[str]) -> tuple[str, ...]:
        return tuple(sorted(s.id for s in theirs if set(wanted) <= set(s.data.get("formats", []))))

    gaps = [f for f in formats if not reading([f])]
    if gaps:
        return tuple(Answers((f,), ()) for f in gaps)
    return (Answers(tuple(formats), reading(formats)),) if formats else ()
