"""MkDocs glue: run the pipeline on each build, hand generated pages to MkDocs in memory, watch the data.

Nothing generated is written into the repository, so `mkdocs serve` has no rebuild loop; any
problem fails the build with the full list.
"""
from __future__ import annotations

import logging
from html import escape
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from .build import run_pipeline
from .render import TEMPLATE_SUFFIX, LAYOUTS
from .render.api import api_files

log = logging.getLogger("mkdocs.plugins.atlas")


def theme_title(page: Page) -> str | None:
    """The page title as the theme must receive it: HTML-escaped when it is the text of the page's first heading.

    MkDocs takes a page's title from its first `#` heading as plain text (entities decoded), and the
    theme writes it unescaped into `<title>`, the navigation and the search index; a record name such
    as `</title><script>` would run. Titles given in `nav:` or front matter are the site's own HTML.
    """
    from_heading = getattr(page, "_title_from_render", None)
    if from_heading and "title" not in vars(page) and "title" not in page.meta:
        return escape(str(from_heading), quote=True)
    return None if page.title is None else str(page.title)


class AtlasPlugin(BasePlugin):
    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        root = Path(config.config_file_path).parent
        run = run_pipeline(root, Path(config.docs_dir).relative_to(root).as_posix())
        pages, problems = run.pages, run.problems
        errors = [p for p in problems if p.severity == "error"]
        if errors:
            raise PluginError(f"{len(errors)} problem(s) in the atlas:\n" + "\n".join(str(p) for p in problems))
        for problem in problems:
            log.warning(str(problem))
        for file in list(files):
            if file.src_uri.endswith(TEMPLATE_SUFFIX) or file.src_uri.startswith(LAYOUTS + "/"):
                files.remove(file)
        static = api_files(run.atlas) if run.atlas is not None else {}
        for path, content in {**pages, **static}.items():
            files.append(File.generated(config, path, content=content))
        return files

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        page.title = theme_title(page)
        return html

    def on_serve(self, server, config: MkDocsConfig, builder):
        root = Path(config.config_file_path).parent
        for folder in ("records", "schema"):
            server.watch(str(root / folder))
        return server
