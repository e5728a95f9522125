"""Every module of the generator imports on its own, first in a fresh process (a circular import shows only when the
module that closes the circle is imported first: ux47's template global reached record_history, which imports diff)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIRST = ["generators.diff", "generators.record_history", "generators.render", "generators.render.template_globals",
         "generators.explain", "generators.cli"]


@pytest.mark.parametrize("module", FIRST)
def test_a_module_imports_first_in_a_fresh_process(module: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
