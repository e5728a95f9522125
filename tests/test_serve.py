"""`python -m generators serve`, the README's command: fast reloads (MkDocs's --dirty) with strict mode kept."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from generators.site_commands import serve_arguments

ROOT = Path(__file__).resolve().parent.parent
TINY = "site_name: tiny\nstrict: true\ntheme: {name: mkdocs}\nnav: [index.md]\n"


def _tiny(tmp_path: Path) -> Path:
    for folder in ("docs", "records", "schema"):  # (the command line looks for the project's folders)
        (tmp_path / folder).mkdir()
    (tmp_path / "mkdocs.yml").write_text(TINY)
    (tmp_path / "docs" / "index.md").write_text("# Tiny\n\nfirst\n")
    return tmp_path


def test_serve_asks_for_dirty_reloads_unless_a_build_mode_is_given():
    assert serve_arguments([]) == ["--dirty"]
    assert serve_arguments(["-a", "127.0.0.1:8001"]) == ["--dirty", "-a", "127.0.0.1:8001"]
    for given in (["--clean"], ["-c"], ["--dirty", "-a", "x"]):
        assert serve_arguments(given) == given


def _build_dirty(project: Path, quiet: bool) -> subprocess.CompletedProcess[str]:
    code = ("from generators.site_commands import dirty_warning_as_information as d\n"
            + ("d()\n" if quiet else "")
            + "from mkdocs.__main__ import cli\n"
            + f"cli.main(args=['build', '--dirty', '-f', {str(project / 'mkdocs.yml')!r}], prog_name='mkdocs')\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)


def test_the_dirty_warning_is_information_and_strict_mode_still_counts_every_other_warning(tmp_path):
    project = _tiny(tmp_path)
    assert _build_dirty(project, quiet=False).returncode == 1  # MkDocs alone: strict mode aborts on its own warning
    assert _build_dirty(project, quiet=True).returncode == 0
    (project / "docs" / "index.md").write_text("# Tiny\n\n[gone](missing.md)\n")
    broken = _build_dirty(project, quiet=True)
    assert broken.returncode == 1 and "missing.md" in broken.stdout + broken.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _page(port: int) -> str:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
            return str(response.read().decode())
    except OSError:
        return ""


def _until(test, seconds: float = 60.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(0.1)
    return False


def test_the_readme_serve_command_reloads_an_edit_without_aborting(tmp_path):
    project, port = _tiny(tmp_path), _free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen([sys.executable, "-m", "generators", "--root", str(project), "serve",
                                   "-a", f"127.0.0.1:{port}"], stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        assert _until(lambda: "first" in _page(port)), log.read_text()
        (project / "docs" / "index.md").write_text("# Tiny\n\nsecond\n")
        assert _until(lambda: "second" in _page(port)), log.read_text()
    finally:
        server.terminate()
        server.wait(timeout=30)
    text = log.read_text()
    assert "INFO    -  A 'dirty' build is being performed" in text and "Aborted" not in text


def test_a_generated_page_keeps_the_path_mkdocs_would_give_it():
    """The plugin's pages skip pathlib's parse of a path that is already plain POSIX (mkdocs_plugin.GeneratedPage); any
    other path still goes through it, so every file's path is the one MkDocs's own File gives."""
    from mkdocs.structure.files import File

    from generators.mkdocs_plugin import GeneratedPage
    paths = ["formats/nvfp4.md", "api/records/formats/nvfp4.json", "index.md", "a//b.md", "./a.md", "a/./b.md",
             "a/../b.md", "/a/b.md", "a/", "a\\b.md", "a/.b.md", "..md", "."]
    for path in paths:
        assert GeneratedPage(path, None, "/site", True).src_uri == File(path, None, "/site", True).src_uri, path
    assert GeneratedPage("a//b.md", None, "/site", True).src_uri == "a/b.md"  # (normalised, as MkDocs does)


def test_under_serve_a_generated_path_gets_the_inclusion_mkdocs_rules_give_it_matched_once(tmp_path, monkeypatch):
    """Under `mkdocs serve` the plugin hands MkDocs each generated file with its inclusion (excluded, draft, not in the
    nav, included) as MkDocs's own rules gave it in an earlier build, so each path is matched against the patterns
    once per process, not at every rebuild (mkdocs_plugin._known_inclusions)."""
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files, set_exclusions

    from generators import mkdocs_plugin
    from generators.site_cache import Generated
    for name, value in (("_SERVING", [True]), ("_INCLUSIONS", {}), ("_BUILT", {}), ("_MEMOS", {})):
        monkeypatch.setattr(mkdocs_plugin, name, value)
    (tmp_path / "docs").mkdir()

    def config_of(not_in_nav: str) -> MkDocsConfig:
        config = MkDocsConfig(config_file_path=str(tmp_path / "mkdocs.yml"))
        config.load_dict({"site_name": "x", "docs_dir": str(tmp_path / "docs"), "site_dir": str(tmp_path / "site"),
                          "exclude_docs": "drafts/\n", "draft_docs": "wip-*.md\n", "not_in_nav": not_in_nav})
        assert not config.validate()[0]
        config.plugins._current_plugin = "atlas"  # (as MkDocs sets it while it runs the plugin's event)
        return config

    paths = ["index.md", "formats/a.md", "formats/sub/b.md", "drafts/x.md", "wip-a.md", ".hidden.md", "api/index.json"]
    monkeypatch.setattr(mkdocs_plugin, "generate", lambda *args, **kwargs: Generated({p: "# x\n" for p in paths}))
    matched: list[int] = []
    monkeypatch.setattr(mkdocs_plugin, "set_exclusions", lambda files, config: matched.append(len(files))
                        or set_exclusions(files, config))
    for rules, times in (("/formats/*.md\n", [7, 0, 0]), ("/formats/\n", [7, 0])):
        matched.clear()
        for _ in times:
            config = config_of(rules)
            expected = [File.generated(config, path, content="x") for path in paths]
            set_exclusions(expected, config)
            files = mkdocs_plugin.AtlasPlugin().on_files(Files([]), config)
            assert [(f.src_uri, f.inclusion) for f in files] == [(f.src_uri, f.inclusion) for f in expected]
        assert matched == times  # every path at the first build under these rules, none at the next ones
    assert {str(f.inclusion) for f in expected} >= {"InclusionLevel.EXCLUDED", "InclusionLevel.DRAFT",
                                                    "InclusionLevel.NOT_IN_NAV", "InclusionLevel.INCLUDED"}


def test_the_edit_latency_benchmark_reads_the_plugin_s_wall_and_cpu_figures():
    """benchmarks/edit_latency.py splits a rebuild by the log lines of `mkdocs serve`, the atlas plugin's among them."""
    from benchmarks.edit_latency import breakdown, cpu_seconds
    log = [(1.0, "INFO - Detected file changes"), (1.1, "INFO - Building documentation..."),
           (1.5, "INFO - atlas: 4229 generated files (3 changed; 7 rendered, 4181 reused) in 0.31 s (0.27 s CPU)"),
           (1.9, "INFO - Reloading browsers")]
    steps = breakdown(log, 0.5, 2.0)
    assert steps["atlas"] == 0.31 and steps["atlas cpu"] == 0.27 and round(steps["rebuild"], 6) == 0.8
    assert "rebuild cpu" not in steps
    with_cpu = [(*entry, cpu) for entry, cpu in zip(log, (5.0, 5.25, 5.5, 5.75))]  # the server's CPU by each line
    assert breakdown(with_cpu, 0.5, 2.0)["rebuild cpu"] == 0.5  # "Building documentation" to "Reloading browsers"
    used = cpu_seconds(os.getpid())
    assert used is None or used > 0
