"""Under `mkdocs serve` the installed theme's files are listed once per process; a theme folder inside the project
is listed at every rebuild, as MkDocs does (generators/mkdocs_plugin.keep_theme_listing)."""
from __future__ import annotations

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

from generators import mkdocs_plugin
from generators.mkdocs_plugin import keep_theme_listing


def _theme_files(tmp_path, custom_dir=None):
    config = MkDocsConfig()
    theme = {"name": "material"} if custom_dir is None else {"name": "material", "custom_dir": str(custom_dir)}
    config.load_dict({"site_name": "x", "docs_dir": str(tmp_path / "docs"), "site_dir": str(tmp_path / "site"),
                      "theme": theme})
    (tmp_path / "docs").mkdir(exist_ok=True)
    errors, _ = config.validate()
    assert not errors
    return config


def _listed(config) -> list[str]:
    files = Files([])
    files.add_files_from_theme(config.theme.get_env(), config)
    return sorted(file.src_uri for file in files)


def test_installed_theme_is_listed_once_with_mkdocs_result(tmp_path, monkeypatch):
    monkeypatch.setattr(mkdocs_plugin, "_THEME_LISTINGS", {})
    config = _theme_files(tmp_path)
    expected = _listed(config)
    assert any(uri.startswith("assets/") for uri in expected)
    walks = []
    original = jinja2.FileSystemLoader.list_templates
    monkeypatch.setattr(jinja2.FileSystemLoader, "list_templates", lambda self: walks.append(1) or original(self))
    for _ in range(3):  # three rebuilds: a new config and theme each time, as `mkdocs serve` makes them
        config = _theme_files(tmp_path)
        keep_theme_listing(config.theme, tmp_path)
        assert _listed(config) == expected
    assert len(walks) == 1


def test_a_theme_folder_inside_the_project_is_listed_every_time(tmp_path, monkeypatch):
    monkeypatch.setattr(mkdocs_plugin, "_THEME_LISTINGS", {})
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    config = _theme_files(tmp_path, overrides)
    keep_theme_listing(config.theme, tmp_path)
    before = _listed(config)
    (overrides / "extra.css").write_text("body {}\n", encoding="utf-8")
    config = _theme_files(tmp_path, overrides)
    keep_theme_listing(config.theme, tmp_path)
    assert _listed(config) == sorted(before + ["extra.css"])


def test_the_theme_environments_made_under_serve_keep_compiled_templates_and_ours_configures_first(tmp_path):
    from mkdocs.config import load_config

    from generators.render import COMPILED_TEMPLATES
    config = _theme_files(tmp_path)
    keep_theme_listing(config.theme, tmp_path)
    assert config.theme.get_env().bytecode_cache is COMPILED_TEMPLATES  # Material's search makes one per rebuild
    (tmp_path / "mkdocs.yml").write_text("site_name: x\ntheme: {name: material}\nplugins: [search, atlas]\n",
                                         encoding="utf-8")
    plugins = load_config(str(tmp_path / "mkdocs.yml")).plugins
    first = plugins.events["config"][0]
    assert isinstance(getattr(first, "__self__", None), mkdocs_plugin.AtlasPlugin)  # before search's on_config


def test_our_overrides_sit_after_the_sites_own_and_do_not_count_as_a_folder_the_project_edits(tmp_path, monkeypatch):
    from generators.portable import THEME_OVERRIDES
    from pathlib import Path
    monkeypatch.setattr(mkdocs_plugin, "_THEME_LISTINGS", {})
    config = _theme_files(tmp_path)
    mkdocs_plugin.with_overrides(config.theme)
    mkdocs_plugin.with_overrides(config.theme)  # (once only)
    assert config.theme.dirs.count(THEME_OVERRIDES) == 1 and config.theme.dirs[0] == THEME_OVERRIDES
    project = Path(THEME_OVERRIDES).parent.parent  # the checkout (an editable install): ours is inside it
    keep_theme_listing(config.theme, project)
    assert config.theme.get_env.__name__ == "get_env" and config.theme.get_env.__qualname__.startswith("keep_theme_listing")
    own = tmp_path / "own"
    own.mkdir()
    config = _theme_files(tmp_path, own)
    mkdocs_plugin.with_overrides(config.theme)
    assert config.theme.dirs[:2] == [str(own), THEME_OVERRIDES]


def test_a_theme_installed_in_a_virtual_environment_inside_the_project_is_listed_once(tmp_path, monkeypatch):
    """The README installs into `.venv` inside the checkout: the theme then sits inside the project, under
    site-packages, and is still an installed package, not a folder the project edits."""
    import material
    from pathlib import Path
    monkeypatch.setattr(mkdocs_plugin, "_THEME_LISTINGS", {})
    config = _theme_files(tmp_path)
    holding = next(p for p in Path(material.__file__).resolve().parents if p.name == "site-packages").parent
    keep_theme_listing(config.theme, holding)  # a project folder that holds the environment's site-packages
    assert config.theme.get_env.__qualname__.startswith("keep_theme_listing")
    own = tmp_path / "own"
    own.mkdir()
    config = _theme_files(tmp_path, own)
    keep_theme_listing(config.theme, tmp_path)
    assert config.theme.get_env.__qualname__ == "Theme.get_env"  # a custom_dir inside the project: listed each time
