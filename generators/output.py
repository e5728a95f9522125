"""Writing the complete Markdown tree (hand-written and generated pages) for any MkDocs-compatible engine."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from .build import render_tree
from .problems import Problem
from .render import hand_written_files
from .tree_files import DOCS_MAX_BYTES, read_bytes


def write_markdown_tree(root: Path, out: Path, docs_dir: str = "docs") -> list[Problem]:
    """Render everything, then write it all at once; on any error nothing is written."""
    if out.exists() and any(out.iterdir()):
        return [Problem(str(out), 1, 1, "output", "output folder is not empty; choose an empty or new folder")]
    pages, problems = render_tree(root, docs_dir)
    if any(p.severity == "error" for p in problems):
        return problems
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
