"""Where a source links: a revision written as prose gives no permalink, and deciding so never hangs."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from generators.derive.source_links import permalink

ROOT = Path(__file__).resolve().parent.parent


def test_a_tag_or_a_hash_gives_a_permalink_and_prose_does_not():
    code = {"repository": "o/r", "path": "a/b.py"}
    assert permalink({**code, "revision": "v0.33.0"}) == "https://github.com/o/r/blob/v0.33.0/a/b.py"
    assert permalink({**code, "revision": "846d176"}) == "https://github.com/o/r/blob/846d176/a/b.py"
    assert permalink({**code, "revision": "2.14.0+cu130"}) is not None
    for prose in ("rendered page; commit not exposed", "1..2", "1-", "abc"):
        assert permalink({**code, "revision": prose}) is None, prose


def test_a_long_revision_in_prose_is_refused_without_backtracking():
    """Five commit hashes with their versions in one `revision` (a real source record's) sent the old pattern into
    exponential backtracking: the site build hung in `permalink`. Run apart, so a hang fails instead of stalling."""
    revision = ", ".join(f"{'5811a8d7da873dd699ff6687092c225caffcf1bb'} (2.{n}.0)" for n in range(9, 14)) + "x" * 40
    probe = f"from generators.derive.source_links import permalink; print(permalink({{'repository': 'o/r', " \
            f"'path': 'a.py', 'revision': {revision!r}}}))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "None", done.stderr
