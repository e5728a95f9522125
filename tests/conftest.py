from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generators.build import Atlas, check_tree
from generators.problems import Problem

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini"


def make_tree(destination: Path, records: Path = MINI) -> Path:
    """A self-contained project tree: the mini records and docs, the real schemas and page layouts."""
    shutil.copytree(records, destination, dirs_exist_ok=True)
    shutil.copytree(ROOT / "schema", destination / "schema")
    shutil.copytree(ROOT / "docs" / "_templates", destination / "docs" / "_templates")
    return destination


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    """The suite never reads or writes the user's on-disk cache (generators/cache.py)."""
    os.environ["ATLAS_CACHE_DIR"] = str(tmp_path_factory.mktemp("atlas-cache"))


@pytest.fixture(autouse=True)
def _cache_per_test(tmp_path_factory, monkeypatch):
    """Each test starts with an empty on-disk cache: the whole-site copy and the page memo are keyed by the code's
    files, not by what a test monkeypatches, so a test that patches the pipeline and builds the mini tree another test
    built would otherwise read that test's pages. Session fixtures built before keep the session folder."""
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(tmp_path_factory.mktemp("atlas-cache-test")))


@pytest.fixture(scope="session")
def real_check() -> tuple[Atlas, list[Problem]]:
    """`check_tree` of the repository's own records, once per worker: tests read the atlas (its views are computed
    on first read and kept) and never change it; a test that needs another atlas builds its own."""
    atlas, problems = check_tree(ROOT)
    assert atlas is not None, [str(p) for p in problems]
    return atlas, problems


@pytest.fixture
def real_atlas(real_check: tuple[Atlas, list[Problem]]) -> Atlas:
    """The atlas of the repository's own records (see real_check)."""
    return real_check[0]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "tree")


def git(root: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-c", "user.name=Atlas Test", "-c", "user.email=atlas@example.org", "-c", "commit.gpgsign=false",
         "-c", "init.defaultBranch=main", *args],
        cwd=root, capture_output=True, text=True, check=True)
    return result.stdout.strip()


def commit(root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository holding the mini fixture, the real schemas and page layouts; one commit."""
    root = make_tree(tmp_path / "repo")
    git(root, "init", "-q")
    commit(root, "base")
    return root


def write(root: Path, relative: str, text: str | bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# The real site built by mkdocs, and the pages it is built from (tests/test_engines.py): generating them runs the
# changelog's pipeline over past commits, which the site build keeps in the worker's cache folder for the second.
SITE_FIXTURES = {"built_site", "site_url", "browser", "real_site_files"}


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items):
    """Tests that read the built site or its pages share one worker, so the site is built once per run (pytest-xdist)."""
    for item in items:
        if SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.xdist_group("built-site"))


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files; review the diff before committing")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real site, built once per test session with the project's own `python -m generators site` (mkdocs build
    --strict), shared by the site and browser tests; what the build printed is kept beside it in build.log."""
    site = tmp_path_factory.mktemp("built") / "site"
    result = subprocess.run([sys.executable, "-m", "generators", "site", "-d", str(site)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    (site.parent / "build.log").write_text(result.stdout + result.stderr, encoding="utf-8")
    return site
