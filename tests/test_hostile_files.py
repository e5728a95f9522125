"""Hostile trees: only regular files inside the repository are read (issue 11, class 1).

Each test asserts the exact message and location, and that nothing from outside the tree shows.
"""
from __future__ import annotations

import errno
import os
import shutil
import signal
import stat
import subprocess
from pathlib import Path

import pytest

from generators import load, tree_files
from generators.build import run_pipeline
from generators.cli import main
from generators.load import load_tree

from .conftest import write

SECRET = "AUTHORIZATION: basic c2VjcmV0LXRva2Vu"
LINK = ("is a symbolic link; the atlas reads only regular files inside the repository, "
        "so replace the link with the file itself")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A YAML file outside the tree whose content must never be printed."""
    return write(tmp_path, "outside/secret.yaml", f"name: {SECRET}\nsummary: leaked\n")


@pytest.fixture(autouse=True)
def no_hang():
    """Fail instead of hanging (a FIFO read would block forever)."""
    def timeout(signum, frame):
        raise TimeoutError("the pipeline hung")
    previous = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def problems_of(tree: Path) -> list[str]:
    return [str(p) for p in run_pipeline(tree).problems]


def check_output(tree: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["--root", str(tree), "check", *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize("target", ["outside", "dangling", "loop", "device"])
def test_symlinked_record_is_refused_by_name(tree, outside, capsys, target):
    link = tree / "records/techniques/evil.yaml"
    os.symlink({"outside": str(outside), "dangling": str(tree / "nowhere.yaml"), "loop": "evil.yaml",
                "device": "/dev/zero"}[target], link)
    code, out = check_output(tree, capsys)
    assert code == 1
    assert f"records/techniques/evil.yaml:1:1: error: [files] {LINK}" in out
    assert SECRET not in out and "leaked" not in out


def test_symlinked_kind_folder_is_refused(tree, outside, capsys):
    os.symlink(outside.parent, tree / "records/formats-extra")
    shutil.rmtree(tree / "records/techniques")
    os.symlink(outside.parent, tree / "records/techniques")
    code, out = check_output(tree, capsys)
    assert code == 1
    assert f"records/techniques:1:1: error: [files] {LINK}" in out
    assert f"records/formats-extra:1:1: error: [files] {LINK}" in out
    assert SECRET not in out


def test_fifo_record_is_refused_without_hanging(tree):
    os.mkfifo(tree / "records/techniques/pipe.yaml")
    assert ("records/techniques/pipe.yaml:1:1: error: [files] is a named pipe (FIFO), not a regular file; "
            "the atlas reads only regular files, so remove it") in problems_of(tree)


def test_fifo_swapped_in_after_listing_does_not_hang(tree):
    fifo = tree / "records/techniques/calib.yaml"
    fifo.unlink()
    os.mkfifo(fifo)
    with pytest.raises(tree_files.Refused) as refused:
        tree_files.read_bytes(tree, "records/techniques/calib.yaml")
    assert refused.value.message.startswith("is a named pipe (FIFO)")


def test_unreadable_record_is_a_located_error(tree, monkeypatch):
    real_open = os.open

    def deny(path, flags, *args, **kwargs):
        if path == "calib.yaml":
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, flags, *args, **kwargs)
    monkeypatch.setattr(os, "open", deny)
    load._CACHE.clear()
    _, problems = load_tree(tree)
    assert [str(p) for p in problems] == [
        "records/techniques/calib.yaml:1:1: error: [files] cannot be read (permission denied); make it readable"]


def test_record_deleted_between_listing_and_reading_is_skipped(tree, monkeypatch):
    real = tree_files.list_tree

    def listing_with_a_ghost(root, folder, *args, **kwargs):
        found = real(root, folder, *args, **kwargs)
        found.files.append("records/techniques/ghost.yaml")  # listed, then deleted by an editor
        return found
    monkeypatch.setattr(tree_files, "list_tree", listing_with_a_ghost)
    records, problems = load_tree(tree)
    assert problems == [] and "ghost" not in {r.id for r in records}


def test_file_over_the_size_limit(tree):
    write(tree, "records/techniques/huge.yaml", "name: X\nsummary: " + "x" * tree_files.MAX_BYTES + "\n")
    size = (tree / "records/techniques/huge.yaml").stat().st_size
    assert (f"records/techniques/huge.yaml:1:1: error: [files] file is {size} bytes, over the limit of "
            f"{tree_files.MAX_BYTES} bytes per file; split it into smaller records or shorten it") in problems_of(tree)


def test_symlinked_page_and_template_in_docs_are_refused(tree, outside, capsys):
    os.symlink(outside, tree / "docs/leak.md")
    os.symlink(outside, tree / "docs/chapters/leak.md.j2")
    code, out = check_output(tree, capsys)
    assert code == 1
    assert f"docs/leak.md:1:1: error: [files] {LINK}" in out
    assert f"docs/chapters/leak.md.j2:1:1: error: [files] {LINK}" in out
    assert SECRET not in out


def test_build_out_never_copies_a_link_target(tree, outside, tmp_path, capsys):
    os.symlink(outside, tree / "docs/leak.md")
    code = main(["--root", str(tree), "build", "--out", str(tmp_path / "site-md")])
    out = capsys.readouterr()
    assert code == 1
    assert f"docs/leak.md:1:1: error: [files] {LINK}" in out.out
    assert not (tmp_path / "site-md").exists()


def test_reader_refuses_paths_leaving_the_tree(tree):
    for rel in ("../outside/secret.yaml", "/etc/passwd", "records/../../x"):
        with pytest.raises(tree_files.Refused) as refused:
            tree_files.read_bytes(tree, rel)
        assert refused.value.message == "is not a path inside the repository"


# ---- diff: the PR comment must never carry a linked file's content ----

def git(root: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-c", "user.name=Atlas Test", "-c", "user.email=atlas@example.org", "-c", "commit.gpgsign=false",
         "-c", "init.defaultBranch=main", *args], cwd=root, capture_output=True, text=True, check=True)
    return result.stdout.strip()


@pytest.fixture
def repo(tree: Path) -> Path:
    git(tree, "init", "-q")
    git(tree, "config", "http.https://github.com/.extraheader", SECRET)  # what actions/checkout stores
    git(tree, "add", "-A")
    git(tree, "commit", "-q", "-m", "base")
    return tree


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("absolute", [False, True])
@pytest.mark.parametrize("committed", [False, True])
def test_pr_linking_the_git_config_into_docs_names_the_link_and_leaks_nothing(repo, capsys, absolute, committed):
    os.symlink(str(repo / ".git/config") if absolute else "../.git/config", repo / "docs/config.md")
    os.symlink(str(repo / ".git/config") if absolute else "../../.git/config", repo / "records/sources/config.yaml")
    args = ["--root", str(repo), "diff", "HEAD"]
    if committed:
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "innocent change")
        args = ["--root", str(repo), "diff", "HEAD~1", "HEAD"]
    for fmt in ("markdown", "json"):
        code = main(args + ["--format", fmt])
        out = capsys.readouterr()
        assert code == 0
        report = out.out + out.err
        assert "docs/config.md:1:1: error: [files] is a symbolic link" in report
        assert "records/sources/config.yaml:1:1: error: [files] is a symbolic link" in report
        assert SECRET not in report and "extraheader" not in report and "repositoryformatversion" not in report


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_diff_against_a_base_holding_an_absolute_symlink(repo, capsys):
    os.symlink("/etc/passwd", repo / "docs/passwd.md")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "link")
    os.unlink(repo / "docs/passwd.md")
    code = main(["--root", str(repo), "diff", "HEAD"])
    out = capsys.readouterr().out
    assert code == 0
    assert "docs/passwd.md:1:1: error: [files] is a symbolic link" in out  # fixed by the working tree
    assert "root:" not in out


def test_device_node_is_refused(tree):
    try:
        os.mknod(tree / "records/techniques/zero.yaml", 0o600 | stat.S_IFCHR, os.makedev(1, 5))
    except PermissionError:
        pytest.skip("creating a device node needs privileges")
    assert ("records/techniques/zero.yaml:1:1: error: [files] is a character device, not a regular file; "
            "the atlas reads only regular files, so remove it") in problems_of(tree)


def test_new_never_writes_through_a_linked_kind_folder(tree, tmp_path):
    from generators.skeleton import SkeletonError, write_skeleton
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(tree / "records/techniques")
    os.symlink(elsewhere, tree / "records/techniques")
    with pytest.raises(SkeletonError) as error:
        write_skeleton(tree, "technique", "my-technique")
    assert str(error.value) == f"records/techniques: {LINK}"
    assert list(elsewhere.iterdir()) == []


def test_mkdocs_plugin_refuses_a_linked_page_before_mkdocs_reads_it(tree, outside, tmp_path):
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort
    os.symlink(outside, tree / "docs/leak.md")
    write(tree, "mkdocs.yml", "site_name: Mini\ndocs_dir: docs\ntheme:\n  name: material\nplugins:\n  - atlas\n")
    config = load_config(config_file=str(tree / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
    with pytest.raises(Abort) as error:
        build(config)
    cause = error.value.__context__
    assert f"docs/leak.md:1:1: error: [files] {LINK}" in str(cause)
    assert SECRET not in str(cause)
    site = tmp_path / "site"
    assert not site.exists() or all(SECRET not in p.read_text(errors="replace") for p in site.rglob("*") if p.is_file())


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_diff_never_reads_an_oversized_blob_of_the_base(repo, capsys):
    big = repo / "docs/big.md"
    big.write_bytes(b"# big\n" + b"x" * (tree_files.DOCS_MAX_BYTES + 10))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "big page")
    size = big.stat().st_size
    big.unlink()
    assert main(["--root", str(repo), "diff", "HEAD"]) == 0
    out = capsys.readouterr().out
    assert (f"docs/big.md:1:1: error: [files] file is {size} bytes, over the limit of {tree_files.DOCS_MAX_BYTES} "
            "bytes per file; split it into smaller records or shorten it") in out  # fixed by the working tree
