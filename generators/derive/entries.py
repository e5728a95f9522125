"""Views computed entry by entry: a view whose value is a dict of independent entries (one answer per support cell)
states what each entry is computed from, so a long-lived process can compute again only the entries whose inputs
changed (reuse.py's `_Entries`). Here, the one-off way: every entry computed.

`each(index, context, entries, compute)` gives {key: compute(index, inputs)} for each (key, inputs) of `entries`, in
their order. `compute` reads the records through the index it is given and nothing else but `inputs` and what
`context` holds (the values shared by every entry, built before the entries): a reusing `each` reuses an entry when
the context and the entry's inputs are the same as in the last run and every record it read answers the same.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from ..model.index import Index

K = TypeVar("K")
I = TypeVar("I")  # noqa: E741 - an entry's inputs
V = TypeVar("V")


class Each(Protocol):
    def __call__(self, index: Index, context: Any, entries: Iterable[tuple[K, I]],
                 compute: Callable[[Index, I], V]) -> dict[K, V]: ...


def every_entry(index: Index, context: Any, entries: Iterable[tuple[K, I]],
                compute: Callable[[Index, I], V]) -> dict[K, V]:
    """Every entry computed (a one-off run, or a view with no earlier run to reuse)."""
    return {key: compute(index, inputs) for key, inputs in entries}
