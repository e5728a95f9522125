"""`uniqueItems` in linear time: each item is reduced to a hashable canonical form and looked up once.

jsonschema's own check sorts the items and, when they do not sort (objects, or mixed types), falls
back to comparing every pair: a long list took tens of seconds. Equality follows JSON Schema: 1 and
1.0 are equal, true and 1 are not, objects compare by keys and values, arrays by order. The error
points at the repeated item and names the first occurrence, instead of printing the whole list.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Iterator

from jsonschema.exceptions import ValidationError


def canonical(value: Any) -> Any:
    """A hashable value equal for exactly the JSON values JSON Schema calls equal."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number", value)  # 1 == 1.0 and hash(1) == hash(1.0)
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, dict):
        return ("object", frozenset((key, canonical(item)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return ("array", tuple(canonical(item) for item in value))
    return ("other", repr(value))


def unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """The `uniqueItems` keyword: one error per repeated item, located at that item."""
    if not unique or not validator.is_type(instance, "array"):
        return
    first: dict[Any, int] = {}
    for index, item in enumerate(instance):
        key = canonical(item)
        if key in first:
            yield ValidationError(f"repeats item {first[key]}; each item may appear once in this list", path=[index])
        else:
            first[key] = index
