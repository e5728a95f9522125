"""`python -m generators serve`, the README's command: fast reloads (MkDocs's --dirty) with strict mode kept."""
from __future__ import annotations

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
