"""Git revisions as project trees: resolve a revision, and unpack the site's inputs at it into a folder."""
from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

SITE_PATHS = ("records", "schema", "docs", "mkdocs.yml")


class DiffError(Exception):
    """A user error: not a git repository, or a revision git does not know."""


def _git(root: Path, *args: str, binary: bool = False) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=not binary, check=False)
    except FileNotFoundError:
        raise DiffError("git is not installed or not on PATH") from None


def project_prefix(root: Path) -> str:
    """Where the project root sits inside its git work tree ('' at the top)."""
    result = _git(root, "rev-parse", "--show-prefix")
    if result.returncode != 0:
        raise DiffError(f"{root} is not a git repository (or git cannot read it); diff compares git revisions")
    return result.stdout.strip()


def verify_revision(root: Path, rev: str) -> str:
    """The commit a revision names, or DiffError saying how to get it."""
    result = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if result.returncode != 0 or not result.stdout.strip():
        raise DiffError(f"unknown revision {rev!r}; give a commit, branch or tag git knows "
                        f"(for a remote branch, fetch it first: git fetch origin)")
    return result.stdout.strip()


def materialise(root: Path, sha: str, prefix: str, dest: Path) -> Path:
    """Extract the site paths of commit `sha` into dest; return the project root inside it."""
    wanted = [prefix + p for p in SITE_PATHS]
    listed = _git(root, "ls-tree", "--name-only", sha, "--", *wanted)
    present = [p for p in listed.stdout.splitlines() if p] if listed.returncode == 0 else []
    dest.mkdir(parents=True)
    if present:
        archive = _git(root, "archive", "--format=tar", sha, "--", *present, binary=True)
        if archive.returncode != 0:
            raise DiffError(f"git archive failed for {sha[:12]}: {archive.stderr.decode(errors='replace').strip()}")
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            try:
                tar.extractall(dest, filter="data")
            except TypeError:  # Python without extraction filters
                tar.extractall(dest)  # noqa: S202 -- archive comes from the local repository
    project = dest / prefix if prefix else dest
    project.mkdir(parents=True, exist_ok=True)
    return project
