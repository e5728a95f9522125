"""`python -m generators serve|site`: MkDocs's serve and build, quiet.

The theme prints an end-of-life banner whenever the process is named `mkdocs`; the project's own
commands run MkDocs in-process under this module's name, with the theme's documented switch set,
so the first lines a maintainer sees are MkDocs's own ("Serving on ...").
"""
from __future__ import annotations

import os
from collections.abc import Sequence


def run_mkdocs(command: str, extra: Sequence[str]) -> int:
    """Run `mkdocs COMMAND EXTRA...` in this process; returns its exit code."""
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from mkdocs.__main__ import cli

    try:
        cli.main(args=[command, *extra], prog_name="mkdocs")  # click reports its own usage errors, then exits
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    return 0
