"""An engine that is another engine's platform plugin (`plugin_of`) answers for the platforms it adds, and only it
does: it names another engine, the host engine's schemes list no candidates for those platforms (two records would
answer one question), and the plugin's own schemes list candidates for no other platform (the plugin runs nowhere
else), nor does its record state a default install on one; the code that says why (`elsewhere`) is the plugin's or
the host's."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "plugin-of"


def check(atlas: Atlas, engine: Record) -> Iterator[Problem]:
    relation = engine.data.get("plugin_of")
    if not relation:
        return
    host_id, added = relation["engine"], set(relation["platforms"])
    if host_id == engine.id:
        yield at(engine, ("plugin_of", "engine"), NAME,
                 "an engine cannot be its own platform plugin; name the engine that loads it or remove plugin_of")
        return
    for n, install in enumerate(engine.data.get("default_install", [])):
        if install["platform"] not in added:
            yield at(engine, ("default_install", n, "platform"), NAME,
                     f"{engine.id!r} is {host_id!r}'s plugin for {', '.join(sorted(added))} only, so it has no default "
                     f"install on platform {install['platform']!r}; add the platform to its plugin_of or remove the entry")
    yield from _elsewhere_sources(atlas, engine, host_id)
    for scheme in atlas.index.all("scheme"):
        owner = scheme.data.get("engine")
        for n, candidates in enumerate(scheme.data.get("candidates", [])):
            platform = candidates["platform"]
            if owner == host_id and platform in added:
                yield at(scheme, ("candidates", n, "platform"), NAME,
                         f"{host_id!r} reaches platform {platform!r} only through its plugin {engine.id!r} "
                         f"(plugin_of in {engine.id!r}), whose schemes answer there; record this route as a scheme "
                         f"of {engine.id!r}, or remove {platform!r} from the plugin's platforms")
            elif owner == engine.id and platform not in added:
                yield at(scheme, ("candidates", n, "platform"), NAME,
                         f"{engine.id!r} is {host_id!r}'s plugin for {', '.join(sorted(added))} only, so it has no "
                         f"candidates on platform {platform!r}; add the platform to its plugin_of or record this as "
                         f"a scheme of {host_id!r}")


def _elsewhere_sources(atlas: Atlas, engine: Record, host_id: str) -> Iterator[Problem]:
    """Each step of why the plugin runs nowhere else is read in the plugin's code or the host's (where the engines and
    the source state their repositories)."""
    host = atlas.index.get("engine", host_id)
    repositories = {r for r in (engine.data.get("repository"), host.data.get("repository") if host else None) if r}
    for n, step in enumerate(engine.data["plugin_of"].get("elsewhere", [])):
        source = atlas.index.get("source", step["source"])
        found = source.data.get("repository") if source else None
        if repositories and found and found not in repositories:
            yield at(engine, ("plugin_of", "elsewhere", n, "source"), NAME,
                     f"source {step['source']!r} is code of {found!r}, not of the plugin or {host_id!r} "
                     f"({', '.join(sorted(repositories))}); cite the code that decides where the plugin runs")


CHECK = Check(NAME, __doc__.strip(), "record:engine", check_record=check, stage=SHAPE)
