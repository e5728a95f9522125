"""The Atlas: everything read and computed from one tree, handed from stage to stage."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .index import Index
from .schemas import Schemas

if TYPE_CHECKING:  # the views are computed by the derive stage; the model only names their type
    from ..derive import Views


@dataclass
class Atlas:
    """The linked records, the schemas they were validated against, and their (lazily computed) views."""

    root: Path
    schemas: Schemas
    index: Index
    views: Views
    commits: tuple[Any, ...] = ()  # diff_model.CommitChange of recent commits that touched records/, when given
    history_cut: str | None = None  # where a shallow clone's history stops, when it hides some of those commits
