"""The part both hand-off checks share: the scheme a checkpoint is handed to (a capability gate's `on_failure`, a
platform's `substitution`) is another scheme of the same engine (scheme_fallback.py, scheme_substitution.py)."""
from __future__ import annotations

from ..model.records import Record
from ..problems import Problem
from .base import at


def not_another_scheme(scheme: Record, other: Record, where: tuple[str | int, ...], check: str,
                       field: str) -> Problem | None:
    """The problem when `other` (named at `where`, in `field`) is this scheme itself or another engine's, else None."""
    if other.id == scheme.id:
        return at(scheme, where, check, "a scheme cannot be what the engine returns instead of itself; name another "
                                        f"scheme or remove {field}")
    if other.data.get("engine") != scheme.data.get("engine"):
        return at(scheme, where, check, f"scheme {other.id!r} belongs to engine {other.data.get('engine')!r} "
                                        f"({other.path}), not {scheme.data.get('engine')!r}")
    return None
