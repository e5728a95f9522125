"""`python -m generators serve|site`: MkDocs's serve and build, quiet.

The theme prints an end-of-life banner whenever the process is named `mkdocs`; the project's own
commands run MkDocs in-process under this module's name, with the theme's documented switch set,
so the first lines a maintainer sees are MkDocs's own ("Serving on ...").

`serve` reloads the way a maintainer wants while editing: after an edit only the pages whose Markdown changed are
converted again (MkDocs's `--dirty`; the atlas plugin tells MkDocs which generated pages are unchanged), and the
project's strict mode still fails on every real warning. MkDocs warns on each dirty build that navigation may be
stale, which strict mode would turn into an abort; that one warning is logged as information instead. The
navigation is the hand-written `nav` of mkdocs.yml, so only an edit there needs a full build (restart, or
`serve --clean`, which rebuilds every page after each edit).
"""
from __future__ import annotations

import logging
import os
from collections.abc import Sequence

DIRTY_WARNING = "A 'dirty' build is being performed"  # the start of MkDocs 1.6's warning (mkdocs/commands/build.py)


def serve_arguments(extra: Sequence[str]) -> list[str]:
    """The arguments `serve` passes on: `--dirty` unless the maintainer asked for a clean or dirty build already."""
    given = list(extra)
    return given if {"--dirty", "--clean", "-c"} & set(given) else ["--dirty", *given]


class _DirtyNotice(logging.Filter):
    """MkDocs's dirty-build warning, logged as information: under `serve` it is the expected mode, not a problem."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.WARNING and str(record.msg).startswith(DIRTY_WARNING):
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def dirty_warning_as_information() -> None:
    """Log MkDocs's dirty-build warning as information in this process (once, however often it is called)."""
    logger = logging.getLogger("mkdocs.commands.build")
    if not any(isinstance(f, _DirtyNotice) for f in logger.filters):
        logger.addFilter(_DirtyNotice())


def run_mkdocs(command: str, extra: Sequence[str]) -> int:
    """Run `mkdocs COMMAND EXTRA...` in this process; returns its exit code."""
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from mkdocs.__main__ import cli

    if command == "serve":
        extra = serve_arguments(extra)
        dirty_warning_as_information()
    try:
        cli.main(args=[command, *extra], prog_name="mkdocs")  # click reports its own usage errors, then exits
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    return 0
