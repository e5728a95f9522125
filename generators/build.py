"""The pipeline in one place: load -> validate -> link -> derive -> check -> render.

Nothing is written here: `run_pipeline` returns values; callers (the command line, the MkDocs
plugin, the diff) decide what to print or write, and only when no error was found.
"""
from __future__ import annotations

import contextlib
import gc

from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from . import checks, derive, load, schemas, tree_files, validate
from .link import link_records
from .model.atlas import Atlas
from .problems import Problem, has_errors, sorted_problems
from .model.records import Record

if TYPE_CHECKING:
    from .diff_model import CommitChange
    from .render.memo import PageMemo
    from .reuse import ReuseMemo


@dataclass
class Run:
    """One run of the pipeline: what loaded, the atlas if it linked, every problem, and the pages if all is clean."""

    records: list[Record]
    atlas: Atlas | None
    problems: list[Problem]
    pages: dict[str, str] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return has_errors(self.problems)


def run_pipeline(root: Path, docs_dir: str | None = "docs", pages_despite_errors: bool = False,
                 record_pages: bool = True, commits: tuple[CommitChange, ...] = (), memo: PageMemo | None = None,
                 progress: Callable[[int, int], None] | None = None, checked: Run | None = None,
                 history_cut: str | None = None, keep: bool = True) -> Run:
    """The stages below, plus the site sources' entries that are not regular files (links, pipes, devices).

    `commits` are the recent changes to the records in git (record_history.py, gathered by the caller) that the
    changelog page and feed list beside the engine releases; without them the changelog lists releases only.
    `history_cut` is where a shallow clone's history stops when it hides some of them (the changelog says so).

    References to a record that failed to load are not reported again as dangling (load.without_cascade).
    `record_pages=False` renders the chapters (every page template: the prose) but not the record
    pages and kind indexes, which the layouts fill from views without prose of their own (`check`).
    A memo (kept by a long-lived process) reuses the pages whose reads did not change since its last run;
    `progress(done, total)` hears of each rendered page (the command line draws a line on a terminal).
    `checked` is this root's `check_stages` run when the caller already has it (the changelog may have needed it).
    `keep=False` (a process that checks no other tree: `check`) skips keeping record checks' findings (check_stages).
    """
    reuse = memo.reuse if memo is not None else None
    run = _render_stages(checked if checked is not None else check_stages(root, reuse=reuse, keep=keep), root, docs_dir, pages_despite_errors,
                         record_pages, commits, memo, progress, history_cut)
    run.problems = load.without_cascade(run.problems)
    refused = tree_files.list_tree(root, docs_dir, limit=tree_files.DOCS_MAX_BYTES).problems if docs_dir is not None else []
    if refused:
        run.problems = sorted_problems(run.problems + refused)
        run.pages = run.pages if pages_despite_errors else {}
    return run


def check_stages(root: Path, views: tuple[str, ...] | None = None, stored: tree_files.StoredTree | None = None,
                 reuse: ReuseMemo | None = None, loaded: tuple[list[Record], list[Problem]] | None = None,
                 keep: bool = True) -> Run:
    """Run load..check: the records, the atlas if every stage passed, and every problem found.

    With `views` named, only those views are computed and the checks of views are skipped: a past side that the
    changelog compares needs the views the comparison reads (diff.CHANGE_VIEWS), and its atlas is compared whatever
    those checks would say. Its other stages only decide whether it has an atlas, so the shape checks that only warn
    are skipped and the first error found ends the run (its problems are then not all of the tree's).
    With a stored tree (a past commit's: revisions.GitTree), its records and schemas are read; `loaded` is what
    load.load_tree gave for this tree already (the changelog loads a side before it knows whether it needs the rest).
    With `reuse` (a long-lived process's), views and check results whose reads did not change are the last run's.
    Without it, record checks' findings are kept for the changelog's past trees (checks/runner.py) unless `keep` is
    False: a process that checks no other tree (`check`) would only pay for recording each check's reads.
    """
    first_error = views is not None
    schema_set, problems = schemas.load_schemas(root / "schema", stored)
    records, load_problems = loaded if loaded is not None else load.load_tree(root, stored=stored)
    problems += load_problems
    if schema_set is None or (first_error and has_errors(problems)):
        return Run(records, None, sorted_problems(problems))
    problems += validate.validate_records(records, schema_set)
    if first_error and has_errors(problems):
        return Run(records, None, sorted_problems(problems))
    index, link_problems = link_records(records, schema_set)
    problems += link_problems
    if has_errors(problems):
        return Run(records, None, sorted_problems(problems))
    atlas = Atlas(root, schema_set, index, derive.derive_views(index, keep) if reuse is None else reuse.views_of(index, schema_set))
    registry = checks.REGISTRY if reuse is None else reuse.checks_of(checks.REGISTRY, atlas.views)
    # shapes first: views may trust them. A one-off run keeps record checks' findings for the changelog's past trees
    # (checks/runner.py); a reuse memo's checks are wrapped by it, and a finding it reuses shows no reads to keep by.
    problems += checks.run_checks(atlas, registry, checks.SHAPE, errors_only=views is not None,
                                 keep=keep and reuse is None)
    if has_errors(problems):
        return Run(records, None, sorted_problems(problems))
    problems += [Problem("generators/derive", 1, 1, "derive", f"view {name!r} crashed: {type(error).__name__}: {error}")
                 for name, error in derive.compute_all(atlas.views, derive.CHECKED_VIEWS if views is None else views)]
    if has_errors(problems):
        return Run(records, None, sorted_problems(problems))
    if views is not None:
        return Run(records, atlas, sorted_problems(problems))
    problems += checks.run_checks(atlas, registry, checks.VIEWS)
    return Run(records, atlas, sorted_problems(problems))


def _render_stages(checked: Run, root: Path, docs_dir: str | None, pages_despite_errors: bool, record_pages: bool,
                   commits: tuple[CommitChange, ...], memo: PageMemo | None,
                   progress: Callable[[int, int], None] | None, history_cut: str | None = None) -> Run:
    """Render into docs_dir's templates unless docs_dir is None or a stage failed.

    Pages are returned only when there is no error, so a failed run never yields half a site; a
    reviewer's diff may ask for them anyway (`pages_despite_errors`) whenever the records linked.
    """
    atlas = checked.atlas
    run = Run(checked.records, atlas, list(checked.problems))
    if atlas is None or docs_dir is None or (run.failed and not pages_despite_errors):
        return run
    atlas.commits, atlas.history_cut = commits, history_cut
    if not record_pages and memo is None and not _page_templates(root / docs_dir):
        return run  # nothing to render: render_site would return no page and no problem
    from . import render  # Jinja is imported only by the runs that render
    pages, render_problems = render.render_site(atlas, root / docs_dir, record_pages=record_pages, memo=memo,
                                                 progress=progress)
    if record_pages:  # the checks of what record pages alone read (their search tags), now computed for them
        reuse = memo.reuse if memo is not None else None  # (a long-lived process's: reused when their reads answer alike)
        registry = checks.REGISTRY if reuse is None else reuse.checks_of(checks.REGISTRY, atlas.views, atlas)
        render_problems += checks.run_checks(atlas, registry, checks.PAGES)
    run.problems = sorted_problems(run.problems + render_problems)
    run.pages = {} if run.failed and not pages_despite_errors else pages
    return run


def _page_templates(docs: Path) -> bool:
    """Whether the docs folder holds a page template (render.chapter_templates: a `.md.j2` file outside the layouts
    folder). Without one, a run that renders no record page (`check` on a tree without chapters) has nothing for
    the render stage, and Jinja and the render package (a tenth of a second) are not imported."""
    return any(rel.endswith(".md.j2") and "_templates" not in rel.split("/")[1:]
               for rel in tree_files.list_tree(docs.parent, docs.name).files)


_FROZEN = [False]  # whether a paused run of this process froze what it left alive


@contextlib.contextmanager
def cycle_collection_paused(freeze: bool = False) -> Iterator[None]:
    """Pause Python's cycle collector for one pipeline run: the run builds many objects that stay alive to its end, and
    each collection would scan them, and in a host such as MkDocs everything the host holds, for no garbage.

    With `freeze` (a one-off build or check, whose process ends after writing the site or the report), what is alive
    at the end is moved out of the collector's sight (gc.freeze) rather than scanned by the first collection after the
    pause and again by the host's later ones (about 200,000 objects on the real records). Objects are still freed when
    nothing refers to them; only cycles among them would wait, so the next paused run of the same process (tests, a
    second build) first hands them back to the collector (gc.unfreeze)."""
    collecting = gc.isenabled()
    if _FROZEN[0]:
        gc.unfreeze()
        _FROZEN[0] = False
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
            _FROZEN[0] = True
        if collecting:
            gc.enable()


def check_tree(root: Path) -> tuple[Atlas | None, list[Problem]]:
    """Run load..check. Returns the atlas (None if an early stage failed) and every problem found."""
    run = run_pipeline(root, docs_dir=None, keep=False)
    return run.atlas, run.problems


def render_tree(root: Path, docs_dir: str = "docs") -> tuple[dict[str, str], list[Problem]]:
    """Run the whole pipeline; return {page path: Markdown} for every generated page, and all problems."""
    run = run_pipeline(root, docs_dir)
    return run.pages, run.problems
