"""End to end: the real records pass check, and `mkdocs build --strict` builds the site; bad input fails cleanly."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_real_records_check_clean(real_check):
    atlas, problems = real_check
    assert [str(p) for p in problems if p.severity == "error"] == []  # warnings: records marked unverified
    assert atlas is not None


def test_mkdocs_build_strict_on_the_real_records(built_site, request):
    if getattr(request.config.option, "loadgroup", False):  # a worker of a --dist=loadgroup run (pytest-xdist)
        assert request.node.nodeid.endswith("@built-site"), "pytest-xdist did not group the built-site tests"
    site = built_site
    for page in ("chapters/04-quantization-regimes/index.html", "chapters/support-tables/index.html",
                 "formats/nvfp4/index.html", "search/search_index.json"):
        assert (site / page).is_file(), page
    assert not list(ROOT.glob("docs/**/*.md.j2.md")), "generated pages must not be written into the repository"


def test_mkdocs_build_fails_with_the_problem_list_and_no_traceback(tmp_path):
    project = tmp_path / "project"  # what the build reads, without the repository's history (a clone took seconds)
    for folder in ("records", "docs", "schema"):
        shutil.copytree(ROOT / folder, project / folder)
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    bad = project / "records/formats/nvfp4.yaml"
    bad.write_text(bad.read_text().replace("stated_native:", "stated_native:\n- h100\n", 1) + "name: dup\n")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                            cwd=project, capture_output=True, text=True)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "records/formats/nvfp4.yaml:" in output and "duplicate key 'name'" in output
    assert "Traceback" not in output
    assert not (tmp_path / "site" / "index.html").exists()
