"""Compatibility name for the Record value, which lives in the model."""
from __future__ import annotations

from .model.records import PathPart, Record, node_position

__all__ = ["PathPart", "Record", "node_position"]
