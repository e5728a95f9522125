"""Site configuration for readers: every kind in the nav under its title, a light/dark toggle, a site URL, a quiet build."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from generators.kinds import FOLDER_OF_KIND, TITLE_OF_KIND

ROOT = Path(__file__).resolve().parent.parent


def _config() -> dict:
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)


def _entries(nav: list) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for item in nav:
        if isinstance(item, dict):
            for title, value in item.items():
                out += _entries(value) if isinstance(value, list) else [(title, value)]
        else:
            out.append(("", item))
    return out


def test_every_kind_is_in_the_nav_under_its_title() -> None:
    entries = dict((page, title) for title, page in _entries(_config()["nav"]))
    for kind, folder in FOLDER_OF_KIND.items():
        assert entries.get(f"{folder}/index.md") == TITLE_OF_KIND[kind], kind
    assert "navigation.indexes" not in _config()["theme"]["features"], "a section index would swallow the first kind"


def test_record_pages_are_declared_outside_the_nav() -> None:
    patterns = set(_config()["not_in_nav"].split())
    assert patterns == {f"/{folder}/*.md" for folder in FOLDER_OF_KIND.values()}


def test_light_and_dark_palettes_with_a_toggle_and_no_made_up_address() -> None:
    config = _config()
    palettes = config["theme"]["palette"]
    assert {p["scheme"] for p in palettes if "scheme" in p} == {"default", "slate"} and all(p["toggle"]["name"] for p in palettes)
    # the first is Material's automatic option, which follows the system's preference on every load (a light and a dark
    # option alone keep the first visit's scheme: the theme stores it)
    assert palettes[0]["media"] == "(prefers-color-scheme)" and "scheme" not in palettes[0]
    # Material restores a stored palette by its position; the site's first palette (light, dark) stored dark at 1, so
    # dark stays second, or a reader who had the dark scheme comes back to the light one (tests/browser/test_pages.py)
    assert palettes[1]["scheme"] == "slate"
    assert "site_url" not in config, "the address comes from ATLAS_SITE_URL at deploy time"
    for asset in config["extra_css"] + config["extra_javascript"]:
        assert (ROOT / "docs" / asset).is_file(), asset


def test_the_projects_build_is_quiet(built_site: Path) -> None:
    log = (built_site.parent / "build.log").read_text(encoding="utf-8")
    assert "end of life" not in log and "NO_MKDOCS_2_WARNING" not in log
    assert "not included in the" not in log
    assert "Documentation built" in log and len(log.splitlines()) <= 6, log


def test_every_page_has_its_own_description(built_site: Path) -> None:
    descriptions = {}
    for page in ("index.html", "can-i-run-it/index.html", "chapters/support-tables/index.html", "data-api/index.html",
                 "chapters/02-flop-map/index.html", "chapters/04-quantization-regimes/index.html", "chapters/gaps/index.html",
                 "formats/nvfp4/index.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        start = html.index('<meta name="description" content="') + len('<meta name="description" content="')
        descriptions[page] = html[start:html.index('"', start)]
    assert len(set(descriptions.values())) == len(descriptions), descriptions


def test_the_format_map_lists_every_part_with_a_format(built_site: Path) -> None:
    import json
    page = (built_site / "chapters/format-map/index.html").read_text(encoding="utf-8")
    document = json.loads((built_site / "api/format-map.json").read_text(encoding="utf-8"))
    listed = [a for a in document["accelerators"] if a["native"] or a["emulated"]]
    assert listed and all(f'href="../../accelerators/{a["id"]}/"' in page for a in listed)
    natives = sum(len(a["native"]) for a in listed)
    unrated = sum(len(a["native_unrated"]) for a in listed)
    unstated = sum(len(a["native_encoding_unstated"]) for a in listed)
    classes = re.findall(r'<td class="(atlas-map__cell atlas-map__cell--native[^"]*)"', page)
    assert unrated and sum(c.startswith("atlas-map__cell atlas-map__cell--native atlas-map__cell--unrated") for c in classes) == unrated
    assert sum(c.endswith(" atlas-map__cell--unstated") for c in classes) == unstated
    assert len(classes) == natives


def test_chapters_have_their_own_descriptions() -> None:
    seen = {}
    for template in sorted((ROOT / "docs").rglob("*.md.j2")):
        if "_templates" in template.parts or "contributing" in template.parts or template.name == "index.md.j2":
            continue
        text = template.read_text(encoding="utf-8")
        assert text.startswith("---\ndescription: "), f"{template.name} has no description front matter"
        front = yaml.safe_load(text.split("---\n")[1])
        assert isinstance(front, dict) and isinstance(front["description"], str), template.name
        seen[template.name] = front["description"]
    assert len(set(seen.values())) == len(seen)


def test_every_source_with_an_address_is_a_link_on_its_page(built_site: Path) -> None:
    import html
    import json
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    with_link = [s for s in index["records"]["source"] if s["link"]]
    assert len(with_link) > len(index["records"]["source"]) // 2
    missing = [s["id"] for s in with_link
               if f'href="{html.escape(s["link"])}"' not in (built_site / s["page"] / "index.html").read_text(encoding="utf-8")]
    assert missing == []


def test_the_site_address_comes_from_the_environment_and_is_checked() -> None:
    from generators.site_address import site_address
    assert site_address(None, {}) == (None, "")
    assert site_address(None, {"ATLAS_SITE_URL": " https://a.example.net/atlas "}) == ("https://a.example.net/atlas/", "")
    assert site_address("https://b.example.net/", {}) == ("https://b.example.net/", "")
    assert site_address("https://b.example.net/", {"ATLAS_SITE_URL": "https://a.example.net/"})[0] == "https://a.example.net/"
    address, error = site_address(None, {"ATLAS_SITE_URL": "atlas.example.net"})
    assert address is None and error.startswith("ATLAS_SITE_URL='atlas.example.net': The URL isn't valid")


def test_without_an_address_no_page_claims_one(built_site: Path) -> None:
    import os
    if os.environ.get("ATLAS_SITE_URL"):
        pytest.skip("ATLAS_SITE_URL is set for this run")
    assert not (built_site / "sitemap.xml").exists() and not (built_site / "sitemap.xml.gz").exists()
    for page in ("index.html", "formats/nvfp4/index.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        assert 'rel="canonical"' not in html and "example.org" not in html
