"""What a kernel requirement (`uses` a runtime check) or a scheme's candidate list (marked `no_path`, or naming one of
the engine's `candidate_lists`) reads from a fact its engine states once: the item keeps its own fields but the marker
and takes the stated ones, and a record resolves to the same object again while its data and the engine's statement
are the same objects (the cell memo, cells._kept_cell, compares records' data by identity)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..last_few import LastFew
from ..model.index import Index

T = TypeVar("T")


def engine_data(index: Index, engine_id: str) -> Mapping[str, Any] | None:
    """The engine record's data, or None when there is no such record (a dangling reference, reported by link)."""
    record = index.get("engine", engine_id)
    return record.data if record is not None else None


def merged(item: Mapping[str, Any], marker: str, stated: Mapping[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """The item without its marker, with each of `fields` the engine's statement holds."""
    out = {k: v for k, v in item.items() if k != marker}
    out.update((k, stated[k]) for k in fields if k in stated)
    return out


def resolved_once(kept: LastFew[tuple[Any, Any, T]], record_id: str, data: Any, stated: Any,
                  resolve: Callable[[], T]) -> T:
    """resolve(), or the object it gave for the same record data and engine statement (by identity, item by item for
    a tuple of statements)."""
    found = kept.find(record_id, lambda entry: entry[0] is data and _same(entry[1], stated))
    if found is not None:
        return found[2]
    resolved = resolve()
    kept.keep(record_id, (data, stated, resolved))
    return resolved


def _same(kept: Any, stated: Any) -> bool:
    """The same statement: the same object, or tuples of the same objects (an engine's statements read together)."""
    if isinstance(kept, tuple) and isinstance(stated, tuple):
        return len(kept) == len(stated) and all(a is b for a, b in zip(kept, stated))
    return kept is stated
