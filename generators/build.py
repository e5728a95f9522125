"""The pipeline in one place: load -> validate -> link -> derive -> check -> render.

Nothing is written here: `check_tree` and `render_tree` return values; callers (the command
line, the MkDocs plugin) decide what to print or write, and only when no error was found.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import checks, derive, load, render, schemas, validate
from .link import Index, link_records
from .problems import Problem, sorted_problems


@dataclass
class Atlas:
    """Everything read and computed from one tree: the linked records and the derived views."""

    root: Path
    schemas: schemas.Schemas
    index: Index
    views: derive.Views


def check_tree(root: Path) -> tuple[Atlas | None, list[Problem]]:
    """Run load..check. Returns the atlas (None if an early stage failed) and every problem found."""
    schema_set, problems = schemas.load_schemas(root / "schema")
    records, load_problems = load.load_tree(root)
    problems += load_problems
    if schema_set is None:
        return None, sorted_problems(problems)
    problems += validate.validate_records(records, schema_set)
    index, link_problems = link_records(records, schema_set)
    problems += link_problems
    if any(p.severity == "error" for p in problems):
        return None, sorted_problems(problems)
    views = derive.derive_views(index)
    atlas = Atlas(root, schema_set, index, views)
    problems += checks.run_checks(atlas)
    return atlas, sorted_problems(problems)


def render_tree(root: Path, docs_dir: str = "docs") -> tuple[dict[str, str], list[Problem]]:
    """Run the whole pipeline; return {page path: Markdown} for every generated page, and all problems.

    Pages are returned only when there is no error, so a failed run never yields half a site.
    """
    atlas, problems = check_tree(root)
    if atlas is None or any(p.severity == "error" for p in problems):
        return {}, problems
    pages, render_problems = render.render_site(atlas, root / docs_dir)
    problems = sorted_problems(problems + render_problems)
    if any(p.severity == "error" for p in problems):
        return {}, problems
    return pages, problems
