"""Stage 6, render: Jinja2 templates (prose) filled from records and derived views (data).

Templates live with the site sources: every `docs/**/*.md.j2` renders to the same path without
`.j2`, and `docs/_templates/` holds the record-page and kind-index layouts. StrictUndefined makes
a missing value an error; `finalize` escapes every value that is not already trusted Markup, so
record text never becomes markup or template source.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
from markupsafe import Markup

from ..kinds import FOLDER_OF_KIND, KINDS
from ..problems import Problem
from ..tree_files import DOCS_MAX_BYTES, Refused, list_tree, read_text
from .context import Read, RenderContext, calling_template_line
from .functions import TemplateFunctions
from .labels import label
from .literals import literal_problems
from .markdown import escape_text, page_of
from .memo import PageMemo
from .pages import cells_table, kind_index, names_of, record_page, verdict_markup
from .template_globals import PageScope, bind_globals
from .tree_loader import TreeLoader
from .values import ValueRenderer

TEMPLATE_SUFFIX = ".md.j2"
LAYOUTS = "_templates"
FILTERS = {"e": escape_text, "verdict": verdict_markup, "label": label}


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the process, found by template name and source checksum.

    Jinja checks the checksum of the source it just read, so an edited template is compiled afresh;
    a long-lived process (`mkdocs serve`, `build --watch`) stops recompiling every template per run.
    """

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


_COMPILED = COMPILED_TEMPLATES = _CompiledTemplates()  # also the theme's, under mkdocs serve (mkdocs_plugin.on_env)


def environment(docs_dir: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=TreeLoader(docs_dir),
        bytecode_cache=_COMPILED,
        undefined=jinja2.StrictUndefined,
        finalize=escape_text,
        autoescape=True,  # finalize escapes each value for Markdown; autoescape makes a macro's output trusted Markup
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(FILTERS)
    return env


def hand_written_files(docs_dir: Path) -> list[Path]:
    """Every file under docs_dir that is site content as it stands: not a template, not a layout."""
    listing = list_tree(docs_dir.parent, docs_dir.name)  # regular files only: links and devices are refused
    return [docs_dir.parent / rel for rel in listing.files
            if not rel.endswith(TEMPLATE_SUFFIX) and LAYOUTS not in rel.split("/")[1:]]


def chapter_templates(docs_dir: Path) -> list[str]:
    """Docs-relative paths of every page template outside the layouts folder, sorted."""
    listing = list_tree(docs_dir.parent, docs_dir.name)  # regular files only: links and devices are refused
    return [rel.split("/", 1)[1] for rel in listing.files
            if rel.endswith(TEMPLATE_SUFFIX) and LAYOUTS not in rel.split("/")[1:]]


def render_site(atlas: Any, docs_dir: Path, record_pages: bool = True,
                memo: PageMemo | None = None) -> tuple[dict[str, str], list[Problem]]:
    """Every generated page as {docs-relative path: Markdown}, and every render problem.

    With `record_pages=False` only the chapters render (the page templates, where prose states facts).
    With a memo (a long-lived process), a page whose reads are unchanged since the memo's last run is reused.
    """
    env = environment(docs_dir)
    names = names_of(atlas)
    pages: dict[str, str] = {}
    problems: list[Problem] = []
    sources: dict[str, str] = {}
    for template_path in chapter_templates(docs_dir):
        try:
            sources[template_path] = read_text(docs_dir, template_path, limit=DOCS_MAX_BYTES)
        except Refused as refused:
            problems.append(Problem(f"docs/{template_path}", 1, 1, "template", refused.message))
    round_ = memo.begin(atlas, names, {**sources, **_layouts(docs_dir)}) if memo is not None else None

    def rendered(page: str, render: Callable[[Any, Any, list[Problem]], str]) -> str:
        return render(atlas, names, problems) if round_ is None else round_.page(page, render, problems)

    for template_path, source in sources.items():
        page = template_path[: -len(".j2")]
        problems += literal_problems(f"docs/{template_path}", source)
        pages[page] = rendered(page, lambda a, n, p, t=template_path, pg=page: render_page(env, a, t, pg, n, {}, p))
    for kind in KINDS if record_pages else ():
        index_page = f"{FOLDER_OF_KIND[kind]}/index.md"
        pages[index_page] = rendered(index_page, lambda a, n, p, k=kind, pg=index_page: _kind_index_page(env, a, k, pg, n, p))
        for record in atlas.index.all(kind):
            page = page_of(kind, record.id)
            pages[page] = rendered(page, lambda a, n, p, r=record, pg=page: _record_page(env, a, r, pg, n, p))
    if round_ is not None:
        round_.finish()
    return dict(sorted(pages.items())), problems


def _kind_index_page(env: jinja2.Environment, atlas: Any, kind: str, page: str, names: Any, problems: list[Problem]) -> str:
    title, entries = kind_index(atlas, kind)
    return render_page(env, atlas, f"{LAYOUTS}/kind-index.md.j2", page, names,
                       {"title": title, "entries": entries, "kind": kind}, problems)


def _record_page(env: jinja2.Environment, atlas: Any, record: Any, page: str, names: Any, problems: list[Problem]) -> str:
    record = atlas.index.must(record.kind, record.id)  # through the atlas, so a memo notes that the page read it
    view = record_page(atlas, record, names)
    return render_page(env, atlas, f"{LAYOUTS}/record.md.j2", page, names, {"view": view}, problems)


def _layouts(docs_dir: Path) -> dict[str, str]:
    """The layout templates' sources (a change to any of them renders every page again)."""
    listing = list_tree(docs_dir.parent, docs_dir.name)
    out: dict[str, str] = {}
    for rel in listing.files:
        if rel.endswith(".j2") and LAYOUTS in rel.split("/")[1:]:
            try:
                out[rel] = read_text(docs_dir.parent, rel, limit=DOCS_MAX_BYTES)
            except Refused as refused:
                out[rel] = refused.message
    return out


def render_page(env: jinja2.Environment, atlas: Any, template_path: str, page: str, names: dict[str, str],
                extra: dict[str, Any], problems: list[Problem], reads: list[Read] | None = None) -> str:
    """Render one page; problems are appended to `problems`, and what the template read to `reads` if given."""
    context = RenderContext(page, f"docs/{template_path}")
    functions = TemplateFunctions(atlas, context)
    values = ValueRenderer({}, names, page)
    variables = {**bind_globals(PageScope(atlas, page, names, functions, values)), **extra}
    try:
        text = env.get_template(template_path).render(variables)
    except jinja2.TemplateSyntaxError as error:
        problems.append(Problem(f"docs/{template_path}", error.lineno, 1, "template", f"template syntax error: {error.message}"))
        return ""
    except jinja2.UndefinedError as error:
        problems.append(Problem(f"docs/{template_path}", _error_line(error), 1, "template", f"undefined value: {error.message}"))
        return ""
    except Exception as error:  # a template bug must report, not crash the build
        problems.append(Problem(f"docs/{template_path}", _error_line(error), 1, "template",
                                f"{type(error).__name__}: {error}"))
        return ""
    problems += context.problems
    if reads is not None:
        reads += context.reads
    return text


def _error_line(error: BaseException) -> int:
    traceback = error.__traceback__
    line = 1
    while traceback is not None:
        if traceback.tb_frame.f_code.co_filename.endswith(".j2"):  # Jinja rewrites frames to template lines
            line = traceback.tb_lineno
        traceback = traceback.tb_next
    return line


__all__ = ["render_site", "environment", "chapter_templates", "calling_template_line", "cells_table", "Markup"]
