"""`check PATHS`: which problems concern the given files, and how command-line paths map into the tree.

The exit code of `check` is always decided by the whole tree, so a partial check never turns a
failing tree green. What is printed is every problem in the given files (a folder stands for every
file under it) and every problem elsewhere that they cause: a problem naming one of their record
ids, and any dangling reference (a rename or deletion in the change makes references elsewhere
dangle under the old id, which no given path names).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from .kinds import KIND_OF_FOLDER
from .problems import Problem

_DANGLING = re.compile(r"'[^']*' is not an? [a-z-]+ id\b")


class PathError(Exception):
    """A usage error: a path that does not exist or lies outside the project root."""


def tree_paths(root: Path, arguments: list[str], cwd: Path | None = None) -> list[str]:
    """Root-relative POSIX paths for command-line paths (relative to cwd, or to the root as check prints them)."""
    root = Path(os.path.abspath(root))
    found: list[str] = []
    for argument in arguments:
        candidates = [Path(argument)] if os.path.isabs(argument) else [Path(cwd or Path.cwd()) / argument, root / argument]
        existing = [Path(os.path.abspath(c)) for c in candidates if os.path.lexists(c)]
        if not existing:
            raise PathError(f"{argument}: no such file or folder")
        inside = [path for path in existing if path == root or root in path.parents]
        if not inside:
            raise PathError(f"{argument}: outside the project root {root}")
        rel = inside[0].relative_to(root).as_posix()
        found.append("" if rel == "." else rel)
    return found


def in_scope(problems: list[Problem], paths: list[str]) -> list[Problem]:
    """The problems in `paths` (files or folders) and the problems elsewhere they cause."""
    if "" in paths:
        return list(problems)
    ids = {_record_id(p) for p in paths} - {None}

    def concerns(problem: Problem) -> bool:
        if any(problem.file == p or problem.file.startswith(p + "/") for p in paths):
            return True
        if problem.rule == "refs" and _DANGLING.search(problem.message):
            return True
        return any(f"'{record_id}'" in problem.message for record_id in ids)
    return [p for p in problems if concerns(p)]


def _record_id(rel: str) -> str | None:
    parts = rel.split("/")
    if len(parts) == 3 and parts[0] == "records" and parts[1] in KIND_OF_FOLDER and parts[2].endswith(".yaml"):
        return parts[2][: -len(".yaml")]
    return None
