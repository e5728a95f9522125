"""Writing the complete Markdown tree (hand-written and generated pages) for any MkDocs-compatible engine."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from .build import run_pipeline
from .problems import Problem
from .render import hand_written_files
from .render.api import api_files
from .tree_files import DOCS_MAX_BYTES, read_bytes


def write_markdown_tree(root: Path, out: Path, docs_dir: str = "docs") -> list[Problem]:
    """Render everything (pages and the data API under api/), then write it all at once; on any error nothing is written."""
    if out.exists() and any(out.iterdir()):
        return [Problem(str(out), 1, 1, "output", "output folder is not empty; choose an empty or new folder")]
    run = run_pipeline(root, docs_dir)
    if run.failed or run.atlas is None:
        return run.problems
    problems = run.problems
    pages = {**run.pages, **api_files(run.atlas)}
    staging = Path(tempfile.mkdtemp(prefix=".atlas-build-", dir=out.parent if out.parent.exists() else None))
    try:
        source = root / docs_dir
        for path in hand_written_files(source):
            rel = path.relative_to(source)
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            (staging / rel).write_bytes(read_bytes(source, rel.as_posix(), limit=DOCS_MAX_BYTES))
        for page, content in pages.items():
            (staging / page).parent.mkdir(parents=True, exist_ok=True)
            (staging / page).write_text(content, encoding="utf-8")
        if out.exists():
            out.rmdir()
        staging.rename(out)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return problems
