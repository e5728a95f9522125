"""The Record value: a parsed YAML record, and the positions of its nodes when a message needs one.

Loading keeps only the plain data and the file's text; the node tree (with line and column of
every value) is composed again from that text the first time a position is asked for, so the
common case, a clean record, never pays for positions.
"""
from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import yaml

PathPart = str | int
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Fields = TypeVar("Fields", bound=Mapping[str, Any])


@dataclass(frozen=True)
class TypedRecord(Generic[Fields]):
    """One record: kind, id, repository-relative path, plain data, and the YAML text it was read from.

    `Fields` is the kind's generated TypedDict (model/fields.py) when the record came from a typed
    look-up such as `index.all("format")`; a `Record` holds any mapping.
    """

    kind: str
    id: str
    path: str
    data: Fields
    text: str = field(repr=False, compare=False)

    @property
    def node(self) -> yaml.MappingNode:
        """The record's YAML node tree, composed from its text on first use and kept."""
        node = self.__dict__.get("_node")
        if node is None:
            node = yaml.compose(self.text, Loader=_LOADER)
            object.__setattr__(self, "_node", node)
        assert isinstance(node, yaml.MappingNode)
        return node

    @property
    def text_digest(self) -> str:
        """A hash of the record's text, computed on first use and kept (the page memo and validate's table key by it)."""
        digest = self.__dict__.get("_text_digest")
        if digest is None:
            digest = hashlib.blake2b(self.text.encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()
            object.__setattr__(self, "_text_digest", digest)
        assert isinstance(digest, str)
        return digest

    def __getstate__(self) -> dict[str, Any]:
        """The fields without what is computed on first use (node tree, digest, ref), so a record pickles the same
        whether or not they were asked for (the page memo fingerprints views holding records by their pickle)."""
        return {name: value for name, value in self.__dict__.items() if not name.startswith("_") and name != "ref"}

    @functools.cached_property
    def ref(self) -> str:
        """`kind/id`, made on first use and kept (asked tens of thousands of times in a check: linking, every look-up
        by reference, every link a page shows)."""
        return f"{self.kind}/{self.id}"

    @property
    def name(self) -> str:
        return str(self.data.get("name", self.id))

    def position(self, path: tuple[PathPart, ...] | list[PathPart], key: bool = False) -> tuple[int, int]:
        """1-based (line, column) of the value at `path`; of its key when `key` is true.

        Walks as far as the path exists, so a missing leaf reports its parent's position.
        """
        return node_position(self.node, path, key)


Record = TypedRecord[Any]  # a record of any kind (loading, validation, linking, diff)


def node_position(root: yaml.Node, path: tuple[PathPart, ...] | list[PathPart], key: bool = False) -> tuple[int, int]:
    node: yaml.Node = root
    key_node: yaml.Node | None = None
    for part in path:
        child, child_key = _child(node, part)
        if child is None:
            break
        node, key_node = child, child_key
    else:
        if key and key_node is not None:
            node = key_node
    mark = node.start_mark
    return mark.line + 1, mark.column + 1


def _child(node: yaml.Node, part: PathPart) -> tuple[yaml.Node | None, yaml.Node | None]:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if key_node.value == part:
                return value_node, key_node
    elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
        return node.value[part], None
    return None, None


def settled(contest: Mapping[str, Any]) -> bool:
    """Whether an entry of a record's `contested` is settled: a finding settled it and the entry names the claim it
    upholds (`upheld`, schema: with `resolution`); one without is open, and every answer showing it says so."""
    return "upheld" in contest
