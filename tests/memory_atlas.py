"""Atlases built in memory from Python dicts: records in, linked index and lazy views out, no files."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from generators.derive import derive_views
from generators.kinds import FOLDER_OF_KIND
from generators.link import link_records
from generators.model.atlas import Atlas
from generators.model.records import Record
from generators.schemas import load_schemas

ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=1)
def real_schemas() -> Any:
    schemas, problems = load_schemas(ROOT / "schema")
    assert schemas is not None, problems
    return schemas


def record(kind: str, record_id: str, data: dict[str, Any]) -> Record:
    """A Record whose node positions come from the data written as YAML, as the loader would keep it."""
    text = yaml.safe_dump(data, sort_keys=False)
    return Record(kind, record_id, f"records/{FOLDER_OF_KIND[kind]}/{record_id}.yaml", data, text)


def atlas_of(records: dict[str, dict[str, Any]]) -> Atlas:
    """An atlas from {'kind/id': data}; references are linked against the real schemas (dangling ones are dropped)."""
    built = [record(ref.partition("/")[0], ref.partition("/")[2], data) for ref, data in records.items()]
    index, _ = link_records(built, real_schemas())
    return Atlas(ROOT, real_schemas(), index, derive_views(index))
