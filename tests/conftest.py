from __future__ import annotations

import fcntl
import gc
import itertools
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from generators.build import Atlas, check_tree
from generators.problems import Problem

from . import processes
from .site_build import SiteBuild

ROOT = Path(__file__).resolve().parent.parent
# As on a contributor's machine: the workers and the ~30 `python -m generators` processes the tests start compile
# the package and the test modules once and reuse the bytecode, rather than compiling them again in every process
# (an environment that sets this, as CI machines may, costs about a tenth of the suite's CPU time).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
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


@pytest.fixture(scope="session")
def _test_caches(tmp_path_factory) -> Iterator[Iterator[Path]]:
    """Unused cache folders, one for each test; a folder is made when the cache first writes in it (generators/cache.py;
    most tests never write one). Not numbered folders from tmp_path_factory: pytest lists the whole run folder to
    number each one, a second or more per worker over a thousand tests, and removing them all costs as much again."""
    folder = tmp_path_factory.mktemp("atlas-cache-test")
    yield (folder / str(n) for n in itertools.count())


@pytest.fixture(autouse=True)
def _cache_per_test(_test_caches, monkeypatch):
    """Each test starts with an empty on-disk cache: the whole-site copy and the page memo are keyed by the code's
    files, not by what a test monkeypatches, so a test that patches the pipeline and builds the mini tree another test
    built would otherwise read that test's pages. Session fixtures built before keep the session folder."""
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(next(_test_caches)))


@pytest.fixture(scope="session")
def real_check(tmp_path_factory: pytest.TempPathFactory) -> tuple[Atlas, list[Problem]]:
    """`check_tree` of the repository's own records, once per worker: tests read the atlas (its views are computed
    on first read and kept) and never change it; a test that needs another atlas builds its own.

    The workers share one on-disk cache for it (generators/cache.py, keyed by the files' bytes and the code), taking
    turns: the first parses and validates the records and keeps what it made, and the others read that back (about
    half the load's time) instead of each parsing every record again."""
    folder = run_folder(tmp_path_factory) / "real-records-cache"
    folder.mkdir(exist_ok=True)
    before = os.environ.get("ATLAS_CACHE_DIR")
    with open(folder / "turn.lock", "w") as turn:
        fcntl.flock(turn, fcntl.LOCK_EX)  # released when the file is closed
        os.environ["ATLAS_CACHE_DIR"] = str(folder)
        try:
            atlas, problems = check_tree(ROOT)
        finally:
            if before is None:
                os.environ.pop("ATLAS_CACHE_DIR", None)
            else:
                os.environ["ATLAS_CACHE_DIR"] = before
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


# The real site built by mkdocs, and the pages it is built from (tests/test_engines.py reads them back from the build's
# cache rather than running the changelog's pipeline over past commits again).
SITE_FIXTURES = {"built_site", "site_url", "browser", "real_site_files"}


# The site tests that take several times as long as any other (the search worker indexes every page first): sent to a
# worker first among the site tests, so that no worker is left running one of them after the others have finished.
LONGEST_SITE_TESTS = {"test_search_finds_records_by_their_aliases_and_the_named_record_first"}


def _reads_the_site(item: pytest.Item) -> bool:
    return bool(SITE_FIXTURES & set(getattr(item, "fixturenames", ())))


@pytest.hookimpl(tryfirst=True)  # before xdist reads the collection
def pytest_collection_modifyitems(items):
    """Tests that read the built site run last, spread over every worker: by then the site, built once per run in the
    background from the first test on (tests/site_build.py), is ready. The longest of them go first."""
    def order(item: pytest.Item) -> tuple[bool, bool]:
        reads = _reads_the_site(item)
        return reads, reads and getattr(item, "originalname", item.name) not in LONGEST_SITE_TESTS
    items[:] = sorted(items, key=order)  # stable: the other tests keep their order


def pytest_configure(config):
    """Every process that runs tests (not the xdist controller) adopts what its tests leave running (tests/processes.py).

    Python's cycle collector runs every 700 allocations by default, and a full collection scans every live object:
    the real atlas, Hypothesis and the imported package make that a tenth of a worker's time for no garbage worth the
    scan (the tests build little that only a cycle collection frees). Rarer collections, same tests."""
    gc.set_threshold(50_000, 20, 100)
    runs_tests = hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None)
    config.stash[_ADOPTS] = runs_tests and processes.become_subreaper()


_ADOPTS = pytest.StashKey[bool]()
_CHILDREN_BEFORE = pytest.StashKey[tuple[dict[int, tuple[int, int]], int]]()
_LASTING_SETUPS = [0]  # fixtures set up that outlive a test


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef, request):
    """A fixture that outlives the test whose setup made it may keep processes started then (the site build, the
    browser): that test is not held to leaving no new process behind; the last test's check (below) still is."""
    if fixturedef.scope != "function":
        _LASTING_SETUPS[0] += 1
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """No test leaves a process running: after its teardown the worker has no living child it did not have before
    the test, other than those of sessions a fixture keeps (tests/processes.py); after the last test, when every
    fixture is torn down, it has none at all. A process left is killed and the test reports an error at teardown."""
    if item.config.stash.get(_ADOPTS, False):
        item.stash[_CHILDREN_BEFORE] = processes.children(), _LASTING_SETUPS[0]
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    if not item.config.stash.get(_ADOPTS, False):
        return (yield)
    try:
        result = yield
    except BaseException:
        _processes_left(item, nextitem)  # ended all the same, reported with the teardown's own error
        raise
    left = _processes_left(item, nextitem)
    if left:
        raise AssertionError(f"processes left running after the test (killed): {left}")
    return result


def _processes_left(item, nextitem) -> str:
    """End the processes the test left running (see above): their pids and names, or ''."""
    before, lasting = item.stash.get(_CHILDREN_BEFORE, ({}, _LASTING_SETUPS[0]))
    if nextitem is None:
        def spared(pid, session, started):
            return False
    elif lasting != _LASTING_SETUPS[0]:
        return ""
    else:
        def spared(pid, session, started):  # a pid in `before` is the same process only if it started at the same time
            return before.get(pid, (None, None))[1] == started or processes.kept(pid, session)
    living = processes.children()
    left = {pid: facts for pid, facts in living.items() if not spared(pid, *facts)}
    if not left:
        return ""
    described = processes.describe(list(left))
    processes.end_left(left, spared)
    return described


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """After the last test pytest collects cycles five times over (so that an exception raised while freeing garbage
    is reported), each collection scanning every object still alive: the imported modules, Hypothesis, the caches of
    the code; about 2 s at the end of a worker that no one-off build froze (generators/build.py). One collection here
    frees what is garbage now, its exceptions reported as pytest would report them; what is left alive is then frozen,
    out of the later collections' sight (garbage made after this is not frozen: they still collect it)."""
    gc.collect()
    gc.freeze()


def pytest_sessionstart(session: pytest.Session) -> None:
    """pytest removes the temporary folders of runs older than the last few when the run's process exits, after the
    summary, one file at a time (tens of thousands of files, over ten seconds of disk waits on a slow disk). The process
    that owns the run's folder starts that same removal (pytest's own, which spares a folder another run still holds)
    when the run starts, beside the tests; at exit pytest finds nothing left to remove."""
    config = session.config
    factory = getattr(config, "_tmp_path_factory", None)
    keep = int(config.getini("tmp_path_retention_count"))
    if factory is None or config.option.basetemp or keep == 0 or config.getini("tmp_path_retention_policy") == "none":
        return  # a given folder (as every xdist worker has) is not numbered; with nothing kept, the run's own is a candidate
    try:
        from _pytest.pathlib import LOCK_TIMEOUT, cleanup_numbered_dir
    except ImportError:  # another pytest: it removes them at exit, as before
        return
    basetemp = factory.getbasetemp()  # numbered and locked, as pytest would make it a moment later
    threading.Thread(target=cleanup_numbered_dir, name="old-pytest-folders",
                     args=(basetemp.parent, "pytest-", keep, basetemp.stat().st_mtime - LOCK_TIMEOUT)).start()


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files; review the diff before committing")


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of the whole run: under pytest-xdist each worker's own folder sits in it, named after the
    worker (the standard recipe for sharing a session fixture between workers)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session", autouse=True)
def site_build(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteBuild]:
    """The run's one build of the real site, started with the first test when any collected test reads it."""
    build = SiteBuild(run_folder(tmp_path_factory) / "site-build")
    if any(_reads_the_site(item) for item in request.session.items):
        build.start()
    yield build
    build.reap()


@pytest.fixture(scope="session")
def built_site(site_build: SiteBuild) -> Path:
    """The real site, built once per test run with the project's own `python -m generators site` (mkdocs build
    --strict), shared by the site and browser tests of every worker; what the build printed is kept beside it in
    build.log."""
    code, stderr = site_build.wait()
    assert code == 0, stderr[-3000:]
    return site_build.site
