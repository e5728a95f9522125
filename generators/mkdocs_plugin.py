"""MkDocs glue: run the pipeline on each build, hand generated pages to MkDocs in memory, watch the data.

Nothing generated is written into the repository, so `mkdocs serve` has no rebuild loop; any
problem fails the build with the full list.

Incremental rebuilds: MkDocs 1.6 rebuilds the whole site on every change; under
`mkdocs serve --dirty` it skips pages whose file says it is not modified. A generated page says so
when its Markdown is byte-identical to the one the last finished build of this process produced,
so after a one-record edit only the pages whose text changed are converted and written (the
pipeline itself re-runs, re-parsing only the edited files and re-rendering only the pages whose
reads changed: render/memo.py). Known limits of `--dirty`, from MkDocs: navigation and the search
index of skipped pages are not refreshed until a full build.
"""
from __future__ import annotations

import logging
import os
import time
from pathlib import Path, PurePath
from typing import Any
from collections.abc import Callable

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel, set_exclusions
from mkdocs.structure.pages import Page

from .native_watch import use_native_events
from .render import COMPILED_TEMPLATES, LAYOUTS, TEMPLATE_SUFFIX
from .render.memo import PageMemo
from .site_cache import generate
from .progress import Progress
from .site_address import site_address
from .portable import THEME_OVERRIDES

log = logging.getLogger("mkdocs.plugins.atlas")
UNDEFINED = InclusionLevel.UNDEFINED
SITEMAPS = ("sitemap.xml", "sitemap.xml.gz")
# config file -> {page: its Markdown} of the last finished build. The texts themselves rather than hashes: a page the
# memo reused is the very same string (compared by identity), and the memo holds every text anyway.
_BUILT: dict[str, dict[str, str]] = {}
_MEMOS: dict[str, PageMemo] = {}  # config file -> the pages of the last build with what each read (serve re-renders the rest)
_SERVING: list[bool] = [False]  # set by on_startup: only `mkdocs serve` rebuilds in the same process, so only it keeps a memo
_INCLUSIONS: dict[tuple[Any, ...], dict[str, InclusionLevel]] = {}  # the site's exclusion rules -> {generated path: its inclusion}
_THEME_LISTINGS: dict[tuple[Any, ...], list[str]] = {}  # (theme folders, filter, ...) -> the theme's files, under serve


def _known_inclusions(config: MkDocsConfig) -> dict[str, InclusionLevel] | None:
    """Under `mkdocs serve`, each generated path's inclusion (excluded, draft, not in the nav, included) as MkDocs's
    set_exclusions gave it in an earlier build with the same rules; None when the rules cannot be told apart.

    MkDocs matches every file it was handed without an inclusion against the site's patterns at every build (about
    0.04 s of a one-record rebuild for the 4,200 generated files); a path's inclusion depends on its path and those
    patterns alone (exclude_docs, draft_docs, not_in_nav, and MkDocs's fixed defaults)."""
    rules = []
    for name in ("exclude_docs", "draft_docs", "not_in_nav"):
        spec = config.get(name)
        patterns = [getattr(pattern, "pattern", None) for pattern in spec.patterns] if spec is not None else []
        if not all(isinstance(pattern, str) for pattern in patterns):
            return None
        rules.append((name, spec is not None, tuple(patterns)))
    return _INCLUSIONS.setdefault(tuple(rules), {})


class GeneratedPage(File):
    """A generated page that knows whether its Markdown differs from the last finished build's."""

    changed = True

    def is_modified(self) -> bool:
        return self.changed

    @property
    def src_path(self) -> str:
        return os.path.normpath(self.src_uri)

    @src_path.setter
    def src_path(self, value: str) -> None:
        """MkDocs normalises every file's path through pathlib (about a tenth of the plugin's part of a one-record
        rebuild, 4,200 files); a generated path is a POSIX path already, kept as is when pathlib would keep it too."""
        plain = "\\" not in value and all(part not in ("", ".") for part in value.split("/"))
        self.src_uri = value if plain else PurePath(value).as_posix()


def with_overrides(theme: Any) -> None:
    """Add the atlas's template overrides (theme_overrides/) to the theme's folders, after a custom_dir of the
    site's own (whose templates win) and before the theme's."""
    if THEME_OVERRIDES not in theme.dirs:
        theme.dirs.insert(1 if theme.custom_dir else 0, THEME_OVERRIDES)


def _edited_in_project(folder: str, root: Path) -> bool:
    """Whether a theme folder is one the project may edit while serving: inside the project, and neither our own
    overrides (package code) nor an installed package (a virtual environment inside the project, as the README's
    `.venv`, holds the theme under site-packages)."""
    path = Path(os.path.abspath(folder))
    installed = {"site-packages", "dist-packages"} & set(path.parts)
    return folder != THEME_OVERRIDES and not installed and path.is_relative_to(root.resolve())


def keep_theme_listing(theme: Any, root: Path) -> None:
    """Under `mkdocs serve`, list the theme's files once per process rather than at every rebuild.

    MkDocs walks every theme folder at each build to find its static files (Material's ~14,500 files: about 0.2 s
    of a one-record rebuild). An installed theme does not change while the server runs, even from a virtual
    environment inside the project; a theme folder the project holds (a `custom_dir` a contributor edits) may, so
    then every rebuild lists them again as MkDocs does."""
    folders = tuple(os.path.abspath(folder) for folder in theme.dirs)
    if any(_edited_in_project(folder, root) for folder in theme.dirs):
        return
    make_env = theme.get_env

    def get_env() -> jinja2.Environment:
        env: jinja2.Environment = make_env()
        if env.bytecode_cache is None:  # (also the environments Material's search makes in on_config, at every rebuild)
            env.bytecode_cache = COMPILED_TEMPLATES
        list_all = env.list_templates

        def list_templates(extensions: Any = None, filter_func: Any = None) -> list[str]:
            key = (folders, tuple(theme.static_templates), tuple(extensions or ()), getattr(filter_func, "__code__", filter_func))
            if key not in _THEME_LISTINGS:
                _THEME_LISTINGS[key] = list_all(extensions=extensions, filter_func=filter_func)
            return list(_THEME_LISTINGS[key])

        env.list_templates = list_templates  # type: ignore[method-assign]
        return env

    theme.get_env = get_env


class AtlasPlugin(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
    pending: dict[str, str] | None = None
    building: Progress | None = None
    converted = pages = 0

    def on_startup(self, *, command: str, dirty: bool) -> None:
        _SERVING[0] = command == "serve"

    @event_priority(50)  # before Material's search, whose on_config compiles theme templates (keep_theme_listing)
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        address, error = site_address(config.site_url, os.environ)
        if error:
            raise PluginError(error)
        config.site_url = address
        with_overrides(config.theme)
        if _SERVING[0]:
            keep_theme_listing(config.theme, Path(config.config_file_path).parent)
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        root = Path(config.config_file_path).parent
        began, began_cpu = time.perf_counter(), time.thread_time()  # (this thread: the server answers requests beside it)
        memo = _MEMOS.setdefault(config.config_file_path, PageMemo()) if _SERVING[0] else None
        rendering = Progress("atlas: rendering pages")
        try:
            generated = generate(root, Path(config.docs_dir).relative_to(root).as_posix(), memo=memo,
                                 progress=rendering.update)
        finally:
            rendering.close()
        problems = generated.problems
        errors = [p for p in problems if p.severity == "error"]
        if errors:
            raise PluginError(f"{len(errors)} problem(s) in the atlas:\n" + "\n".join(str(p) for p in problems))
        if problems:  # warnings mark records unverified on the site; they do not fail `mkdocs build --strict`
            log.info(f"atlas: {len(problems)} warning(s); `python -m generators check` lists them")
        for file in list(files):
            if file.src_uri.endswith(TEMPLATE_SUFFIX) or file.src_uri.startswith(LAYOUTS + "/"):
                files.remove(file)
        previous = _BUILT.get(config.config_file_path, {})
        self.pending = {}
        known = _known_inclusions(config) if _SERVING[0] else None
        pages = []
        for path, content in generated.files.items():
            page = GeneratedPage.generated(config, path, content=content,
                                           inclusion=known.get(path, UNDEFINED) if known is not None else UNDEFINED)
            if _SERVING[0]:  # only a rebuild in the same process compares with the last build's pages
                self.pending[path] = content
                page.changed = previous.get(path) != content  # type: ignore[attr-defined]
            files.append(page)
            pages.append(page)
        if known is not None:  # each new path's inclusion by MkDocs's own rules, once per process
            fresh = [page for page in pages if page.inclusion == UNDEFINED]
            set_exclusions(fresh, config)
            known.update((page.src_uri, page.inclusion) for page in fresh)
        changed = (sum(1 for path, content in self.pending.items() if previous.get(path) != content) if _SERVING[0]
                   else len(generated.files))
        reused = (f"; {generated.rendered} rendered, {generated.reused} reused" if generated.rendered is not None
                  else "; read from the cache" if generated.cached else "")
        log.info(f"atlas: {len(generated.files)} generated files ({changed} changed{reused}) in {time.perf_counter() - began:.2f} s"
                 f" ({time.thread_time() - began_cpu:.2f} s CPU)")
        return files

    def on_env(self, env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        """Keep the theme's compiled templates for the process: MkDocs makes a new environment per build, and
        compiling the theme's templates again is a large part of a `mkdocs serve` rebuild."""
        if env.bytecode_cache is None:
            env.bytecode_cache = COMPILED_TEMPLATES
        return env

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        if self.building is not None:
            self.converted += 1
            self.building.update(self.converted, self.pages)
        return html

    def on_nav(self, nav: Any, config: MkDocsConfig, files: Files) -> Any:
        """Before MkDocs converts the pages: a progress line over them on a terminal (long builds only)."""
        self.building, self.converted = Progress("mkdocs: converting pages"), 0
        self.pages = len(files.documentation_pages())  # once: the call walks every file
        return nav

    def on_post_build(self, config: MkDocsConfig) -> None:
        if self.building is not None:
            self.building.close()
        if not config.site_url:  # a sitemap needs absolute URLs; MkDocs would list bare paths
            for name in SITEMAPS:
                (Path(config.site_dir) / name).unlink(missing_ok=True)
        if self.pending:
            _BUILT[config.config_file_path] = self.pending

    def on_serve(self, server: LiveReloadServer, config: MkDocsConfig, builder: Callable[..., Any]) -> LiveReloadServer:
        root = Path(config.config_file_path).parent
        for folder in ("records", "schema"):
            server.watch(str(root / folder))
        log.info(f"atlas: watching with {use_native_events(server)}")
        return server
