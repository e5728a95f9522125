"""A site config for other engines (Zensical) that build the Markdown tree `build --out` writes.

It is the project's mkdocs.yml with what only our MkDocs run needs taken out: the atlas plugin
(the tree already holds every generated page) and `strict` (Zensical has its own `--strict`).
Everything else (site name, theme, nav, Markdown extensions) is kept, so the config is stated
once, in mkdocs.yml. Zensical wants `docs_dir` inside the folder that holds the config, so the
config must be written in an ancestor of the output folder.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

PLUGINS_ONLY_OURS = ("atlas",)


class ConfigError(Exception):
    """The config cannot be written where asked."""


def portable_config(mkdocs_yml: str, docs_dir: str, site_dir: str = "site") -> str:
    """The YAML text of the config: mkdocs.yml's settings, our plugin dropped, docs_dir and site_dir replaced."""
    config: dict[str, Any] = yaml.safe_load(mkdocs_yml) or {}
    plugins = config.get("plugins") or []
    kept = [p for p in plugins if (next(iter(p)) if isinstance(p, dict) else p) not in PLUGINS_ONLY_OURS]
    config["plugins"] = kept
    config.pop("strict", None)
    config["docs_dir"] = docs_dir
    config["site_dir"] = site_dir
    return yaml.safe_dump(config, allow_unicode=True, sort_keys=False)


def write_portable_config(root: Path, out: Path, config_path: Path) -> Path:
    """Write the config for the tree at `out` to config_path (in an ancestor folder of out)."""
    out, config_path = out.resolve(), config_path.resolve()
    if config_path.parent not in out.parents:
        raise ConfigError(f"{config_path} must be in a folder that contains {out} (engines want docs_dir inside the project)")
    docs_dir = os.path.relpath(out, config_path.parent)
    text = portable_config((root / "mkdocs.yml").read_text(encoding="utf-8"), Path(docs_dir).as_posix())
    config_path.parent.mkdir(parents=True, exist_ok=True)
    config_path.write_text(text, encoding="utf-8")
    return config_path
