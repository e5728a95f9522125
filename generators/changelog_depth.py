"""How many recent commits that touched records/ the changelog walks.

One number with two readers: the walk (record_history.py) and the changelog page that says how many it lists
(render/template_globals.py). It sits below both, so render states it without importing the history stage.
"""
from __future__ import annotations

import os

COMMITS = 5  # the default; ATLAS_CHANGELOG_COMMITS overrides it


def commit_limit() -> int:
    """The number of commits to walk: ATLAS_CHANGELOG_COMMITS when it is a number, else COMMITS."""
    value = os.environ.get("ATLAS_CHANGELOG_COMMITS", "")
    return int(value) if value.isdigit() else COMMITS
