"""A trap whose text uses a scope word (every, always, all GPUs, any model, never, no fix, ...) backs it with `scope`, citing a primary source with a locator or quote."""
from __future__ import annotations

import re
from typing import Any
from collections.abc import Iterator

from ..derive.provenance import is_primary
from ..model.atlas import Atlas
from ..problems import Problem
from ..model.records import Record
from .base import SHAPE, Check, at

NAME = "trap-scope"
TEXT_FIELDS = ("summary", "trigger", "symptom", "detection", "workaround")
SCOPE_WORDS = ("every", "all GPUs", "all models", "any GPU", "any model", "always", "never", "no fix", "no workaround")
_PATTERN = re.compile(r"\b(" + "|".join(re.escape(w) for w in SCOPE_WORDS) + r")\b", re.IGNORECASE)


def scope_words(text: str) -> list[str]:
    """The scope words a text uses, as written, each once (ignoring case), in order of first use."""
    found: dict[str, str] = {}
    for match in _PATTERN.finditer(text):
        found.setdefault(match.group(1).lower(), match.group(1))
    return list(found.values())


def check(atlas: Atlas, trap: Record) -> Iterator[Problem]:
    scope = trap.data.get("scope")
    yield from _seed_scope_sources(atlas, trap)
    if scope is not None and _backed(atlas, scope):
        return
    for field in TEXT_FIELDS:
        words = scope_words(str(trap.data.get(field, "")))
        if not words:
            continue
        if scope is None:
            yield at(trap, (field,), NAME,
                     f"says {', '.join(map(repr, words))} but the trap declares no scope; narrow the wording to what "
                     f"the evidence shows, or add scope: {{statement, affected, fixed_in, sources}} citing a "
                     f"primary source whose locator or quote backs it")
        else:
            yield at(trap, ("scope", "sources"), NAME,
                     f"{field} says {', '.join(map(repr, words))} but no scope source is a primary source with a "
                     f"locator or quote; cite the code, issue or paper passage that shows the scope")


def _backed(atlas: Atlas, scope: dict[str, Any]) -> bool:
    return any(is_primary(atlas.index, c["source"]) and (c.get("locator") or c.get("quote")) for c in scope["sources"])


def _seed_scope_sources(atlas: Atlas, trap: Record) -> Iterator[Problem]:
    for n, citation in enumerate((trap.data.get("scope") or {}).get("sources", [])):
        if atlas.index.get("source", citation["source"]) is not None and not is_primary(atlas.index, citation["source"]):
            yield at(trap, ("scope", "sources", n, "source"), NAME,
                     f"{citation['source']!r} is a seed draft; a scope rests on primary sources only (cite it in sources instead)")


CHECK = Check(NAME, __doc__.strip(), "record:gotcha", check_record=check, stage=SHAPE)
