"""Golden views: the mini records in, every view `Views` computes out, as one reviewed text file.

Every cached view is serialized (a view added later is included without touching this test), so a
change to derivation code that moves any view on the mini records shows up as a reviewed diff.
Regenerate with `python3 -m pytest tests/test_golden_views.py --update-golden` and read the diff:
each changed line is a view that now says something else.
"""
from __future__ import annotations

import dataclasses
import enum
import json
from functools import cached_property
from pathlib import Path
from typing import Any

from generators.build import check_tree, render_tree
from generators.derive import Views
from generators.model.records import TypedRecord

from .conftest import make_tree

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def view_names() -> list[str]:
    return sorted(name for name, value in vars(Views).items() if isinstance(value, cached_property))


def plain(value: Any) -> Any:
    """A JSON-ready form of a view value: records by reference, dataclasses by field, tuple keys joined."""
    if isinstance(value, TypedRecord):
        return value.ref
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {(" | ".join(map(str, k)) if isinstance(k, tuple) else str(k)): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [plain(v) for v in value]
        return sorted(items, key=json.dumps) if isinstance(value, (set, frozenset)) else items
    return value


def compare(request: Any, path: Path, text: str) -> None:
    if request.config.getoption("--update-golden"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs: review, then --update-golden"


def test_every_view_of_the_mini_records_matches_the_golden_file(tmp_path, request):
    atlas, problems = check_tree(make_tree(tmp_path / "tree"))
    assert atlas is not None, problems
    views = {name: plain(getattr(atlas.views, name)) for name in view_names()}
    compare(request, GOLDEN / "views-mini.json", json.dumps(views, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def test_the_mini_chapter_matches_the_golden_file(tmp_path, request):
    pages, problems = render_tree(make_tree(tmp_path / "tree"))
    assert [p for p in problems if p.severity == "error"] == []
    compare(request, GOLDEN / "chapter-demo-mini.md", pages["chapters/demo.md"])


def test_the_golden_file_names_every_view():
    golden = json.loads((GOLDEN / "views-mini.json").read_text(encoding="utf-8"))
    assert sorted(golden) == view_names()


def test_the_mini_published_table_renders_as_the_golden_file(tmp_path, request):
    """The published grid (support tables chapter) and the support-matrix record page of the mini records: the
    disagreeing cell carries its derived verdict and the finding that explains it."""
    from generators.render.matrix import published_grid_html
    from generators.render.pages import names_of

    tree = make_tree(tmp_path / "tree")
    atlas, problems = check_tree(tree)
    assert atlas is not None, problems
    pages, problems = render_tree(tree)
    assert [p for p in problems if p.severity == "error"] == []
    grid = published_grid_html(atlas, "pub-table", "chapters/support-tables.md", names_of(atlas))
    compare(request, GOLDEN / "published-mini.md", f"{grid}\n\n{pages['support-matrices/pub-table.md']}")
