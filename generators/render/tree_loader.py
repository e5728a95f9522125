"""The Jinja loader of the site sources: templates are read through tree_files (regular files inside the root only).

Only `.j2` files are templates: a page memo takes every .j2 file's source as what its pages were rendered with, so
a page that could include another kind of file would not be rendered again when that file changed.
"""
from __future__ import annotations

import os
from pathlib import Path
from collections.abc import Callable

import jinja2

from ..tree_files import DOCS_MAX_BYTES, Refused, Vanished, read_text


class TreeLoader(jinja2.BaseLoader):
    """A Jinja loader for templates under one folder that reads through this module (no links followed)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        if not template.endswith(".j2"):  # the page memo knows a page's templates by the .j2 files (render/memo.py)
            raise jinja2.TemplateError(f"{template}: only .j2 templates can be included, imported or extended")
        try:
            source = read_text(self.folder, template, limit=DOCS_MAX_BYTES)
        except Vanished:
            raise jinja2.TemplateNotFound(template) from None
        except Refused as refused:
            if not self._exists(template):
                raise jinja2.TemplateNotFound(template) from None
            raise jinja2.TemplateError(f"{template} {refused.message}") from None
        return source, str(self.folder / template), lambda: True

    def _exists(self, template: str) -> bool:
        try:
            os.lstat(self.folder / template)
        except OSError:
            return False
        return True
