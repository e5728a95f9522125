"""A hardware target's dtype rules belong to one engine: `model_dtypes`, `auto_dtypes` and `fp8_dtype` state what
that engine's platform code (`dtypes_engine`: vLLM's check_if_supports_dtype, `--dtype auto`, fp8_dtype) does on the
target, not what the hardware does. A cell of that engine reads them; a cell of any other engine sees the target
without them, so no engine's rule decides another engine's verdict, conditions or compute formats."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

RULES = ("model_dtypes", "auto_dtypes", "fp8_dtype")
T = TypeVar("T", bound=Mapping[str, Any])


def as_seen_by(target: T, engine: str) -> T:
    """The target as the engine's cells read it: without another engine's dtype rules."""
    if target.get("dtypes_engine", engine) == engine or not any(rule in target for rule in RULES):
        return target  # (the schema requires `dtypes_engine` beside a rule: only a hand-built target lacks it)
    return {key: value for key, value in target.items() if key not in RULES}  # type: ignore[return-value]
