"""How a location inside a record is written in messages: `native_support[2].source`."""
from __future__ import annotations

from typing import Any
from collections.abc import Iterable


def dotted(path: Iterable[Any]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(record)"
