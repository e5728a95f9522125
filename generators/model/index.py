"""The index of linked records: every record by kind and id, every reference, the backlinks, the declared gaps."""
from __future__ import annotations

from dataclasses import dataclass, field


from .fields import TypedLookups
from .records import Record


@dataclass(frozen=True)
class Link:
    """One reference: from record `source` (kind/id) at `path` to record `target` (kind/id)."""

    source: str
    path: str
    target: str


@dataclass(frozen=True)
class DeclaredGap:
    """A dangling reference a record declares on purpose."""

    record: str
    kind: str
    id: str
    reason: str
    path: str


@dataclass
class Index(TypedLookups):
    """Every record by kind and id, every link, the backlinks, and the declared gaps."""

    by_kind: dict[str, dict[str, Record]]
    links: list[Link] = field(default_factory=list)
    backlinks: dict[str, list[Link]] = field(default_factory=dict)
    outgoing: dict[str, list[Link]] = field(default_factory=dict)
    gaps: list[DeclaredGap] = field(default_factory=list)

    def by_ref(self, ref: str) -> Record | None:
        kind, _, record_id = ref.partition("/")
        return self.get(kind, record_id)
