"""Engine independence and incremental output: the written tree builds with Zensical, `--watch` rewrites
only what changed, and the MkDocs plugin marks unchanged generated pages as not modified."""
from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import time
from html import unescape
from pathlib import Path

import pytest
import yaml

from generators.cli import main
from generators.portable import portable_config
from generators.watch import TreeWriter, site_files, sync_once

from .conftest import make_tree, write
from .site_build import SiteBuild

ROOT = Path(__file__).resolve().parent.parent


def small_project(tmp_path: Path) -> Path:
    """The mini tree with the project's mkdocs.yml, its nav dropped (the nav names the real chapters)."""
    tree = make_tree(tmp_path / "tree")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config.pop("nav", None)
    (tree / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return tree


def test_portable_config_keeps_the_site_settings_and_drops_our_plugin():
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = yaml.safe_load(portable_config(text, "docs", overrides="../generators/theme_overrides"))
    original = yaml.safe_load(text)
    assert "atlas" not in config["plugins"] and "search" in config["plugins"]
    assert config["nav"] == original["nav"] and config["docs_dir"] == "docs" and "strict" not in config
    assert config["theme"] == {**original["theme"], "custom_dir": "../generators/theme_overrides"}
    own = text.replace("  name: material\n", "  name: material\n  custom_dir: mine\n", 1)
    assert yaml.safe_load(portable_config(own, "docs", overrides="x"))["theme"]["custom_dir"] == "mine"  # the site's wins


def _search_worker(page: Path) -> str:
    """The search worker a built page's theme configuration names."""
    found = re.search(r'<script id="__config" type="application/json">(.*?)</script>', page.read_text(encoding="utf-8"),
                      re.DOTALL)
    assert found, page
    return str(json.loads(found.group(1))["search"])


def test_mkdocs_without_our_plugin_searches_through_the_repaired_worker(tmp_path):
    """The written tree built by MkDocs from the written config, without our plugin: every page's search runs the
    theme's worker through javascripts/search-worker.js (lunr repaired), as under the plugin."""
    tree = small_project(tmp_path)
    write(tree, "docs/javascripts/search-worker.js", "/* the wrapper */\n")
    out = tmp_path / "site-source"
    assert main(["--root", str(tree), "build", "--out", str(out / "docs"), "--engine-config", str(out / "mkdocs.yml")]) == 0
    assert "atlas" not in yaml.safe_load((out / "mkdocs.yml").read_text(encoding="utf-8"))["plugins"]
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    build(load_config(str(out / "mkdocs.yml"), strict=False))
    site = out / "site"
    assert (site / "javascripts" / "search-worker.js").is_file()
    for page, up in ((site / "index.html", ""), (site / "formats" / "fmt-fp4" / "index.html", "../../")):
        worker = _search_worker(page)
        assert re.fullmatch(re.escape(up) + r"javascripts/search-worker\.js#assets/javascripts/workers/search\.[0-9a-f]+\.min\.js",
                            worker), worker


# MkDocs run with our package unimportable: a config that still names the atlas plugin fails to load it.
PLAIN_MKDOCS = "import sys; sys.modules['generators'] = None; from mkdocs.__main__ import cli; cli()"
HOSTILE_NAME = "</title><script>alert(1)</script> & a -> b"


def _pages(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in site.rglob("*.html")}


def test_the_watch_route_builds_with_plain_mkdocs_as_the_plugin_does(tmp_path, monkeypatch):
    """The README's second route end to end: `build --out --watch --engine-config` rewrites a page after an edit, and
    plain MkDocs, which cannot import our package, builds that tree from the written config (strict) into the same
    HTML, page for page, as `mkdocs build` with our plugin gives for the same records (a hostile name included: the
    <title> escaping lives in the shared theme override, not in the plugin; the address, so the canonical links)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    monkeypatch.setenv("ATLAS_SITE_URL", "https://atlas.example.org/docs/")
    tree = small_project(tmp_path)
    record = tree / "records" / "formats" / "fmt-fp4.yaml"
    out = tmp_path / "site-source"
    page = out / "docs" / "formats" / "fmt-fp4.md"
    watching = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "generators", "--root", str(tree), "build", "--out",
                                 str(out / "docs"), "--engine-config", str(out / "mkdocs.yml"), "--watch"],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert _until(page.is_file), "build --watch wrote no tree"
        record.write_text(record.read_text(encoding="utf-8").replace("name: FP4 block format",
                                                                     f"name: {json.dumps(HOSTILE_NAME)}"), encoding="utf-8")
        assert _until(lambda: "alert" in page.read_text(encoding="utf-8")), "the edit never reached the written page"
    finally:
        watching.send_signal(signal.SIGINT)
        _stopped_or_stacks(watching)
    plain = subprocess.run([sys.executable, "-c", PLAIN_MKDOCS, "build", "--strict", "-q", "-d", str(tmp_path / "plain")],
                           cwd=out, capture_output=True, text=True, timeout=120)
    assert plain.returncode == 0, plain.stderr
    build(load_config(str(tree / "mkdocs.yml"), site_dir=str(tmp_path / "plugin")))
    pages = _pages(tmp_path / "plain")
    assert "<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; a -&gt; b - " in pages["formats/fmt-fp4/index.html"]
    assert "&amp;gt;" not in pages["formats/fmt-fp4/index.html"]  # the header's title: entities once, not twice
    assert '<link rel="canonical" href="https://atlas.example.org/docs/formats/fmt-fp4/">' in pages["formats/fmt-fp4/index.html"]
    assert pages == _pages(tmp_path / "plugin")


def _stopped_or_stacks(process: subprocess.Popen) -> None:
    """Wait for a Ctrl-C'd child; if it hangs, fail with every thread's stack (faulthandler prints them on SIGABRT)."""
    try:
        process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        _, stacks = process.communicate(timeout=30)
        raise AssertionError(f"build --watch did not stop within 30 s of Ctrl-C; its threads then:\n{stacks}") from None


def _until(test, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.05)
    return False


def test_engine_config_must_sit_above_the_tree(tmp_path, capsys):
    tree = small_project(tmp_path)
    code = main(["--root", str(tree), "build", "--out", str(tmp_path / "out" / "docs"),
                 "--engine-config", str(tmp_path / "elsewhere" / "mkdocs.yml")])
    assert code == 2
    assert "must be in a folder that contains" in capsys.readouterr().err


def _zensical_site(tree, tmp_path):
    """`build --out` with an engine config, then `zensical build` on the written tree; the folder it built in."""
    out = tmp_path / "site-source"
    assert main(["--root", str(tree), "build", "--out", str(out / "docs"), "--engine-config", str(out / "mkdocs.yml")]) == 0
    zensical = shutil.which("zensical")
    assert zensical, "zensical is a test dependency (pyproject [test])"
    done = subprocess.run([zensical, "build", "-f", "mkdocs.yml"], cwd=out, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_zensical_builds_the_written_tree(tmp_path):
    tree = small_project(tmp_path)
    out = _zensical_site(tree, tmp_path)
    page = out / "site" / "formats" / "fmt-fp4" / "index.html"
    assert page.is_file()
    name = yaml.safe_load((tree / "records" / "formats" / "fmt-fp4.yaml").read_text(encoding="utf-8"))["name"]
    assert name.split(" ")[0] in page.read_text(encoding="utf-8")
    assert "search-worker" not in _search_worker(page)  # Zensical's search is its own, not lunr: left as it is


def test_zensical_prints_a_hostile_record_name_as_text_in_the_title(tmp_path):
    """Zensical prints `page.title | striptags` into <title> as MkDocs's theme does, and its striptags decodes the
    heading's entities too: the shared theme override must escape the title under Zensical as well, or a record named
    `</title><script>` runs on the Zensical route."""
    tree = small_project(tmp_path)
    record = tree / "records" / "formats" / "fmt-fp4.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("name: FP4 block format",
                                                                 f"name: {json.dumps(HOSTILE_NAME)}"), encoding="utf-8")
    out = _zensical_site(tree, tmp_path)
    html = (out / "site" / "formats" / "fmt-fp4" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html
    titles = re.findall(r"<title>(.*?)</title>", html, re.DOTALL)  # Zensical escapes '/' too, as &#x2f;
    assert [unescape(t) for t in titles] == [f"{HOSTILE_NAME} - {yaml.safe_load(ROOT.joinpath('mkdocs.yml').read_text(encoding='utf-8'))['site_name']}"]


def test_sync_rewrites_only_changed_files_and_removes_gone_ones(tmp_path):
    tree = small_project(tmp_path)
    out = tmp_path / "out"
    writer = TreeWriter(out)
    first = sync_once(tree, writer)
    assert first.problems == [] and "formats/fmt-fp4.md" in first.written and "index.md" in first.written
    assert sync_once(tree, writer).written == []  # nothing changed, nothing written
    record = tree / "records" / "formats" / "fmt-fp4.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("summary: ", "summary: Edited. ", 1), encoding="utf-8")
    second = sync_once(tree, writer)
    assert "formats/fmt-fp4.md" in second.written and "index.md" not in second.written
    assert len(second.written) < len(first.written) / 2
    assert "Edited." in (out / "formats" / "fmt-fp4.md").read_text(encoding="utf-8")
    write(tree, "docs/extra.md", "# Extra\n")
    assert sync_once(tree, writer).written == ["extra.md"]
    (tree / "docs" / "extra.md").unlink()
    gone = sync_once(tree, writer)
    assert gone.removed == ["extra.md"] and not (out / "extra.md").exists()


def test_sync_writes_every_changed_file_before_renaming_any(tmp_path, monkeypatch):
    """A round's files appear in one burst of renames after all were written: an engine's server that debounces its
    events (Zensical's 20 ms) rebuilds once per round, not once per file written more than 20 ms after the one before."""
    import os
    out = tmp_path / "out"
    writer = TreeWriter(out)
    writer.sync({"a.md": b"a", "b/c.md": b"c", "d.json": b"d"})
    files = {"a.md": b"a2", "b/c.md": b"c2", "d.json": b"d", "e.md": b"e"}
    seen: list[tuple[str, list[str]]] = []
    real = os.replace

    def replace(source, target):
        staged = sorted(path.name for path in out.rglob(".*.tmp"))
        seen.append((Path(target).relative_to(out).as_posix(), staged))
        real(source, target)
    monkeypatch.setattr(os, "replace", replace)
    synced = writer.sync(files)
    assert synced.written == ["a.md", "b/c.md", "e.md"]
    assert [target for target, _ in seen] == synced.written
    assert len(seen[0][1]) == 3  # the first rename found all three files of the round written
    assert {rel: (out / rel).read_bytes() for rel in files} == files and not list(out.rglob(".*.tmp"))


def test_sync_cut_short_leaves_no_temporary_files(tmp_path, monkeypatch):
    import os
    out = tmp_path / "out"
    writer = TreeWriter(out)
    writer.sync({"a.md": b"a", "b.md": b"b"})
    real, calls = os.replace, []

    def replace(source, target):
        calls.append(target)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real(source, target)
    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        writer.sync({"a.md": b"a2", "b.md": b"b2"})
    assert not list(out.rglob(".*.tmp"))
    assert (out / "a.md").read_bytes() == b"a2" and (out / "b.md").read_bytes() == b"b"
    assert writer.written == {"a.md": b"a2", "b.md": b"b"}  # the next round writes b.md again


def test_sync_with_a_memo_leaves_the_tree_a_full_build_writes(tmp_path, monkeypatch):
    from generators.render.memo import PageMemo
    monkeypatch.setenv("ATLAS_CACHE", "off")
    tree = small_project(tmp_path)
    out = tmp_path / "out"
    writer, memo = TreeWriter(out), PageMemo()  # as `build --watch` keeps them
    sync_once(tree, writer, memo=memo)
    record = tree / "records" / "formats" / "fmt-fp4.yaml"
    for n in range(2):
        record.write_text(record.read_text(encoding="utf-8").replace("summary: ", f"summary: Edit {n}. ", 1),
                          encoding="utf-8")
        synced = sync_once(tree, writer, memo=memo)
        assert "formats/fmt-fp4.md" in synced.written and "index.md" not in synced.written
        full, _ = site_files(tree)
        assert {rel: (out / rel).read_bytes() for rel in writer.written} == full


def test_sync_keeps_the_old_tree_when_the_records_break(tmp_path):
    tree = small_project(tmp_path)
    out = tmp_path / "out"
    writer = TreeWriter(out)
    sync_once(tree, writer)
    before = (out / "formats" / "fmt-fp4.md").read_text(encoding="utf-8")
    write(tree, "records/formats/fmt-fp4.yaml", "name: [unclosed\n")
    broken = sync_once(tree, writer)
    assert broken.written == [] and any(p.file == "records/formats/fmt-fp4.yaml" for p in broken.problems)
    assert (out / "formats" / "fmt-fp4.md").read_text(encoding="utf-8") == before


def test_site_files_are_the_build_output(tmp_path):
    tree = small_project(tmp_path)
    files, problems = site_files(tree)
    assert problems == []
    out = tmp_path / "built"
    assert main(["--root", str(tree), "build", "--out", str(out)]) == 0
    written = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert written == files


def test_plugin_marks_unchanged_generated_pages_as_not_modified(tmp_path, monkeypatch):
    from mkdocs.config import load_config
    from mkdocs.structure.files import Files

    from generators import mkdocs_plugin

    tree = small_project(tmp_path)
    config = load_config(str(tree / "mkdocs.yml"), site_dir=str(tmp_path / "site"))

    def generated() -> dict[str, bool]:
        files = config.plugins.on_files(Files([]), config=config)
        config.plugins["atlas"].on_post_build(config=config)
        return {f.src_uri: f.is_modified() for f in files if isinstance(f, mkdocs_plugin.GeneratedPage)}

    mkdocs_plugin._BUILT.clear()
    assert all(generated().values()) and all(generated().values())  # one-off builds: every page is written
    monkeypatch.setattr(mkdocs_plugin, "_SERVING", [True])  # `mkdocs serve`: rebuilds in one process compare
    assert all(generated().values())  # first build: everything is new
    assert not any(generated().values())  # same inputs: nothing to rebuild
    record = tree / "records" / "formats" / "fmt-fp4.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("summary: ", "summary: Edited. ", 1), encoding="utf-8")
    changed = {uri for uri, modified in generated().items() if modified}
    assert "formats/fmt-fp4.md" in changed and "index.md" not in changed


@pytest.fixture(scope="module")
def real_site_files(built_site: Path, site_build: SiteBuild) -> dict[str, bytes]:
    """The real Markdown tree, read from what the run's site build kept in its cache (same inputs, same code)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ATLAS_CACHE_DIR", str(site_build.cache))
        files, problems = site_files(ROOT)
    assert [p for p in problems if p.severity == "error"] == []
    return files


def test_no_page_shows_a_link_as_escaped_text(real_site_files):
    """A link a template builds must reach the reader as a link, never as literal `[name](path)` text."""
    escaped_link = re.compile(r"\\\[[^\]\n]{1,200}\\\]\\\(\.\./")
    shown = [f"{rel}: {match.group(0)[:80]}" for rel, content in sorted(real_site_files.items()) if rel.endswith(".md")
             for match in [escaped_link.search(content.decode("utf-8", "replace"))] if match]
    assert shown == []


def test_every_page_front_matter_is_valid_yaml_for_strict_engines(real_site_files):
    """MkDocs ignores front matter it cannot parse; Zensical refuses the page. Every page's must parse."""
    files = real_site_files
    broken = []
    for rel, content in files.items():
        text = content.decode("utf-8", "replace") if rel.endswith(".md") else ""
        if text.startswith("---\n"):
            try:
                meta = yaml.safe_load(text.split("---\n", 2)[1])
            except yaml.YAMLError as error:
                broken.append(f"{rel}: {str(error).splitlines()[0]}")
                continue
            if not isinstance(meta, dict):
                broken.append(f"{rel}: front matter is not a mapping")
    assert broken == []
