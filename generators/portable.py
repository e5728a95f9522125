"""A site config for other engines (Zensical) that build the Markdown tree `build --out` writes.

It is the project's mkdocs.yml with what only our MkDocs run needs taken out: the atlas plugin
(the tree already holds every generated page) and `strict` (Zensical has its own `--strict`).
Everything else (site name, theme, nav, Markdown extensions) is kept, so the config is stated
once, in mkdocs.yml; the theme gets our template overrides (theme_overrides/main.html) as its
custom_dir, as the plugin adds them to the theme's folders, and the site's address is the one the plugin gives MkDocs
(`ATLAS_SITE_URL` over mkdocs.yml's `site_url`: site_address.py), so canonical links match. Zensical wants `docs_dir` inside the folder that holds the config, so the
config must be written in an ancestor of the output folder.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from .site_address import site_address

PLUGINS_ONLY_OURS = ("atlas",)
THEME_OVERRIDES = str(Path(__file__).resolve().with_name("theme_overrides"))  # templates the theme is built with


class ConfigError(Exception):
    """The config cannot be written where asked."""


def portable_config(mkdocs_yml: str, docs_dir: str, site_dir: str = "site", overrides: str | None = None,
                    site_url: str | None = None) -> str:
    """The YAML text of the config: mkdocs.yml's settings, our plugin dropped, docs_dir and site_dir replaced, and
    `overrides` (the path of THEME_OVERRIDES from the config's folder) as the theme's custom_dir unless mkdocs.yml
    names one of its own (an engine takes one; the site's then wins, as under the plugin); `site_url`, when given,
    replaces mkdocs.yml's."""
    config: dict[str, Any] = yaml.safe_load(mkdocs_yml) or {}
    if site_url is not None:
        config["site_url"] = site_url
    theme = config.get("theme")
    if overrides is not None and isinstance(theme, dict) and "custom_dir" not in theme:
        config["theme"] = {**theme, "custom_dir": overrides}
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
    try:
        overrides = Path(os.path.relpath(THEME_OVERRIDES, config_path.parent)).as_posix()
    except ValueError:  # another drive (Windows): no relative path
        overrides = Path(THEME_OVERRIDES).as_posix()
    mkdocs_yml = (root / "mkdocs.yml").read_text(encoding="utf-8")
    configured = (yaml.safe_load(mkdocs_yml) or {}).get("site_url")
    address, error = site_address(configured if isinstance(configured, str) else None, os.environ)
    if error:
        raise ConfigError(error)
    text = portable_config(mkdocs_yml, Path(docs_dir).as_posix(), overrides=overrides, site_url=address)
    config_path.parent.mkdir(parents=True, exist_ok=True)
    config_path.write_text(text, encoding="utf-8")
    return config_path
