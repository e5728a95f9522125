"""Where a source can be read: its URL, or for code a permalink to the file at the cited revision.

A code source (repository, path, revision) links to https://github.com/OWNER/REPO/blob/REVISION/PATH
when the revision is a commit hash or a release tag; a revision written as prose ("rendered page;
commit not exposed") gives no permalink, and the URL, if any, is used instead.
"""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

_REVISION = re.compile(r"^(?:[0-9a-f]{7,40}|v?\d+(?:\.\d+)*(?:[-.+]?[A-Za-z0-9]+)*)$")


def permalink(source: dict[str, Any]) -> str | None:
    """The file at the cited revision on GitHub, or None when repository, path or a usable revision is missing."""
    repository, path, revision = source.get("repository"), source.get("path"), source.get("revision")
    if not (repository and path and revision and _REVISION.match(str(revision))):
        return None
    line = f"#L{source['line']}" if isinstance(source.get("line"), int) else ""
    return f"https://github.com/{repository}/blob/{quote(str(revision))}/{quote(str(path))}{line}"


def source_link(source: dict[str, Any]) -> str | None:
    """The address a reader follows: a code permalink first, then the document's URL."""
    if source.get("type") == "code":
        return permalink(source) or source.get("url")
    return source.get("url") or permalink(source)
