"""Where an engine runs on a platform only through its platform plugin (`plugin_of` on the plugin's engine record):
the host engine's schemes have no cell on that platform's targets (check plugin-of keeps their candidates off it), and
the answers there are the plugin's own schemes, so a reader who picks the host engine is sent to the plugin rather
than told that nothing is known."""
from __future__ import annotations

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
