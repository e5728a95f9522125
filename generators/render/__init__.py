"""Stage 6, render: Jinja2 templates (prose) filled from records and derived views (data).

Templates live with the site sources: every `docs/**/*.md.j2` renders to the same path without
`.j2`, and `docs/_templates/` holds the record-page and kind-index layouts. StrictUndefined makes
a missing value an error; `finalize` escapes every value that is not already trusted Markup, so
record text never becomes markup or template source.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import shutil
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
from jinja2 import meta
from jinja2.lexer import TokenStream
from markupsafe import Markup

from ..cache import cache_dir
from ..derive.terms import verbatim_texts
from ..kinds import FOLDER_OF_KIND, KINDS
from ..problems import Problem
from ..tree_files import DOCS_MAX_BYTES, Refused, list_tree, read_text
from .context import Read, RenderContext, calling_template_line
from .functions import TemplateFunctions
from .labels import label
from .literals import lexed, literal_problems
from .markdown import code_span, escape_text, page_of, with_code
from .memo import PageMemo
from .pages import cells_table, kind_index, names_of, record_page, verdict_markup
from .template_globals import GLOBAL_NAMES, PageScope, bind_globals
from .term_links import link_terms
from .tree_loader import TreeLoader
from .values import ValueRenderer

TEMPLATE_SUFFIX = ".md.j2"
LAYOUTS = "_templates"
# record pages whose text links no glossary term: a source's and an observation's are what others cite, not prose a
# reader learns from, and a term's own page is the glossary
UNLINKED_KINDS = ("source", "observation", "term")
FILTERS = {"e": escape_text, "verdict": verdict_markup, "label": label, "code": code_span, "with_code": with_code}


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the process and on disk beside the parse cache, found by template
    name and source checksum, on disk in a folder of the environments' settings (environment_salt).

    Jinja checks the checksum of the source it just read, so an edited template is compiled afresh;
    a long-lived process (`mkdocs serve`, `build --watch`) stops recompiling every template per run,
    and a new process (`mkdocs build`, `check`) loads what an earlier one compiled. The disk copy lives
    in the user's cache folder (generators/cache.py: outside the repository, `ATLAS_CACHE=off` turns it
    off); Jinja refuses bytecode of another Jinja or Python version and writes each file atomically.
    """

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}
        self.folders: dict[Path, jinja2.FileSystemBytecodeCache | None] = {}

    def _disk(self) -> jinja2.FileSystemBytecodeCache | None:
        folder = cache_dir()
        if folder is None:
            return None
        if folder not in self.folders:
            compiled = folder / "templates" / environment_salt()
            try:
                compiled.mkdir(parents=True, exist_ok=True)
                self.folders[folder] = jinja2.FileSystemBytecodeCache(str(compiled))
            except OSError:
                self.folders[folder] = None
            for other in (folder / "templates").glob("*"):  # compiled under other settings: never read again
                if other.name != compiled.name:
                    shutil.rmtree(other, ignore_errors=True)
        return self.folders[folder]

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)
            return
        disk = self._disk()
        if disk is not None:
            with contextlib.suppress(Exception):  # unreadable or foreign: compile instead
                disk.load_bytecode(bucket)
            if bucket.code is not None:
                self.compiled[bucket.key] = bucket.bytecode_to_string()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()
        disk = self._disk()
        if disk is not None:
            with contextlib.suppress(OSError):
                disk.dump_bytecode(bucket)


@functools.lru_cache(maxsize=1)
def environment_salt() -> str:
    """What compiled code depends on beside a template's source: the environments' settings, which compile into it
    (autoescape above all). Ours are set in this file; the theme's (`mkdocs serve` shares the cache) by MkDocs and
    its theme. So a change to this file or to those libraries' versions compiles every template afresh."""
    digest = hashlib.blake2b(Path(__file__).read_bytes(), digest_size=8)
    for library in ("jinja2", "mkdocs", "mkdocs-material"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            digest.update(f"|{library}=={metadata.version(library)}".encode())
    return digest.hexdigest()


_COMPILED = COMPILED_TEMPLATES = _CompiledTemplates()  # also the theme's, under mkdocs serve (mkdocs_plugin.on_env)


# The layouts filled hundreds of times a build. They only print values (no macro, block `set`, `call` or `~`), so
# Jinja's autoescape would only wrap again the Markup that `finalize` already made of every value.
PRINT_ONLY_LAYOUTS = frozenset(f"{LAYOUTS}/{name}.md.j2" for name in ("record", "table", "kind-index"))


def _autoescape(template_name: str | None) -> bool:
    """Autoescape everywhere but the print-only layouts: it makes a macro's output (and a block `set`) trusted Markup.

    Escaping does not depend on it: `finalize` escapes every printed value that is not Markup already, in every
    template, and markupsafe's escape of Markup (all autoescape adds after finalize) leaves it as it is."""
    return template_name not in PRINT_ONLY_LAYOUTS


class _Environment(jinja2.Environment):
    """Jinja's environment, lexing each chapter once: the literal-number check (literals.py) lexes a chapter's source
    with this environment's lexer just before the chapter compiles, and compiling takes those tokens."""

    layout_names: dict[str, frozenset[str] | None]  # layout -> the names it can read (_layout_names), found once

    def _tokenize(self, source: str, name: str | None, filename: str | None = None,
                  state: str | None = None) -> TokenStream:
        tokens = None if state is not None or self.extensions else lexed(source, self.lexer)  # (no preprocessing)
        if tokens is None:
            return super()._tokenize(source, name, filename, state)
        return TokenStream(self.lexer.wrap(tokens, name, filename), name, filename)


def environment(docs_dir: Path) -> jinja2.Environment:
    env = _Environment(
        loader=TreeLoader(docs_dir),
        bytecode_cache=_COMPILED,
        undefined=jinja2.StrictUndefined,
        finalize=escape_text,
        autoescape=_autoescape,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        optimized=False,  # Jinja's constant folding finds almost nothing in prose templates and costs a fifth of compiling
    )
    env.filters = dict(FILTERS)  # only ours: templates loop, branch and write prose; sorting, counting and filtering are views
    env.layout_names = {}
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


def render_site(atlas: Any, docs_dir: Path, record_pages: bool = True, memo: PageMemo | None = None,
                progress: Callable[[int, int], None] | None = None) -> tuple[dict[str, str], list[Problem]]:
    """Every generated page as {docs-relative path: Markdown}, and every render problem.

    With `record_pages=False` only the chapters render (the page templates, where prose states facts).
    With a memo (a long-lived process), a page whose reads are unchanged since the memo's last run is reused.
    `progress(done, total)` is called after each page.
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

    total = len(sources) + (sum(len(atlas.index.by_kind.get(kind, {})) + 1 for kind in KINDS) if record_pages else 0)

    def rendered(page: str, render: Callable[[Any, Any, list[Problem]], str]) -> str:
        text = render(atlas, names, problems) if round_ is None else round_.page(page, render, problems)
        if progress is not None:
            progress(len(pages) + 1, total)
        return text

    for template_path, source in sources.items():
        page = template_path[: -len(".j2")]
        pages[page] = rendered(page, _page_renderer(_chapter_page, env, template_path, page, source))
    for kind in KINDS if record_pages else ():
        index_page = f"{FOLDER_OF_KIND[kind]}/index.md"
        pages[index_page] = rendered(index_page, _page_renderer(_kind_index_page, env, kind, index_page))
        for record in atlas.index.all(kind):
            page = page_of(kind, record.id)
            pages[page] = rendered(page, _page_renderer(_record_page, env, record, page))
    if round_ is not None:
        round_.finish()
    return dict(sorted(pages.items())), problems


def _page_renderer(render: Callable[..., str], env: jinja2.Environment, subject: Any, page: str,
                   *extra: Any) -> Callable[[Any, Any, list[Problem]], str]:
    """render(env, atlas, subject, page, names, *extra, problems) as a function of (atlas, names, problems)."""
    def rendered(atlas: Any, names: Any, problems: list[Problem]) -> str:
        return render(env, atlas, subject, page, names, *extra, problems)
    return rendered


def _chapter_page(env: jinja2.Environment, atlas: Any, template_path: str, page: str, names: Any, source: str,
                  problems: list[Problem]) -> str:
    """A page template rendered, with the numbers typed in its prose (a memo keeps both with the page)."""
    problems += literal_problems(f"docs/{template_path}", source)
    return link_terms(render_page(env, atlas, template_path, page, names, {}, problems), atlas.views.term_links, page,
                      shared=atlas.views.quoted_stretches)


def _kind_index_page(env: jinja2.Environment, atlas: Any, kind: str, page: str, names: Any, problems: list[Problem]) -> str:
    title, entries = kind_index(atlas, kind)
    return render_page(env, atlas, f"{LAYOUTS}/kind-index.md.j2", page, names,
                       {"title": title, "entries": entries, "kind": kind}, problems)


def _record_page(env: jinja2.Environment, atlas: Any, record: Any, page: str, names: Any, problems: list[Problem]) -> str:
    record = atlas.index.must(record.kind, record.id)  # through the atlas, so a memo notes that the page read it
    view = record_page(atlas, record, names)
    text = render_page(env, atlas, f"{LAYOUTS}/record.md.j2", page, names, {"view": view}, problems)
    if record.kind in UNLINKED_KINDS:
        return text
    # its own verbatim text whole, and every record's that holds a spelling (a cell quotes a kernel's refusal)
    own = tuple(dict.fromkeys(verbatim_texts(record.data)))
    return link_terms(text, atlas.views.term_links, page, own, atlas.views.quoted_stretches)


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
    try:
        template = env.get_template(template_path)
        read = _layout_names(env, template_path)
        scope = (PageScope(atlas, page, names, TemplateFunctions(atlas, context, names), ValueRenderer({}, names, page))
                 if read is None or read & GLOBAL_NAMES else None)
        text = template.render({**(bind_globals(scope, read) if scope is not None else {}), **extra})
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


def _layout_names(env: jinja2.Environment, template_path: str) -> frozenset[str] | None:
    """The names a layout and the templates it includes, imports or extends can read, or None (every global is bound)
    for a page template, or where a template it uses is named only at run time (jinja2.meta cannot follow it).

    A layout fills a page per record, and binding every template global for each (a page scope, its functions and
    the ~50 names copied into every context an include makes) was about a quarter of the record pages' Jinja render,
    for names the record layout never reads; a page template renders once. A name left out cannot be read: Jinja finds
    every name a template reads without defining it."""
    known: dict[str, frozenset[str] | None] | None = getattr(env, "layout_names", None)
    if known is None or not template_path.startswith(f"{LAYOUTS}/"):
        return None
    if template_path not in known:
        try:
            known[template_path] = _names_read(env, template_path, {template_path})
        except jinja2.TemplateError:  # one it names is missing or broken: the render reports it if it gets there
            known[template_path] = None
    return known[template_path]


def _names_read(env: jinja2.Environment, template_path: str, seen: set[str]) -> frozenset[str] | None:
    """The undeclared names of a template and of every template it names, or None when one is named at run time."""
    assert env.loader is not None
    tree = env.parse(env.loader.get_source(env, template_path)[0], template_path)
    found = set(meta.find_undeclared_variables(tree))
    for used in meta.find_referenced_templates(tree):
        if used is None:
            return None
        if used not in seen:
            seen.add(used)
            names = _names_read(env, used, seen)
            if names is None:
                return None
            found |= names
    return frozenset(found)


def _error_line(error: BaseException) -> int:
    traceback = error.__traceback__
    line = 1
    while traceback is not None:
        if traceback.tb_frame.f_code.co_filename.endswith(".j2"):  # Jinja rewrites frames to template lines
            line = traceback.tb_lineno
        traceback = traceback.tb_next
    return line


__all__ = ["render_site", "environment", "chapter_templates", "calling_template_line", "cells_table", "Markup"]
