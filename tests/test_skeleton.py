"""`generators.skeleton`: `new` writes a record with every required field that passes `check` as written."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from generators.build import check_tree
from generators.cli import main
from generators.kinds import FOLDER_OF_KIND, KINDS
from generators.load import load_file
from generators.skeleton import SkeletonError, dump_yaml, skeleton_data, write_skeleton



def _required(tree: Path, kind: str) -> list[str]:
    return json.loads((tree / "schema" / f"{kind}.schema.json").read_text(encoding="utf-8"))["required"]


@pytest.mark.parametrize("kind", KINDS)
def test_new_record_passes_check(tree: Path, kind: str) -> None:
    path = write_skeleton(tree, kind, f"new-{kind}")
    assert path == tree / "records" / FOLDER_OF_KIND[kind] / f"new-{kind}.yaml"
    record, load_problems = load_file(tree, path)
    assert load_problems == [] and record is not None
    assert set(_required(tree, kind)) <= set(record.data)
    atlas, problems = check_tree(tree)
    rel = path.relative_to(tree).as_posix()
    assert [str(p) for p in problems if p.file == rel] == []
    assert atlas is not None and not any(p.severity == "error" for p in problems)


def test_every_kind_at_once_passes_check(tree: Path) -> None:
    for kind in KINDS:
        write_skeleton(tree, kind, f"all-{kind}")
    atlas, problems = check_tree(tree)
    assert atlas is not None
    assert [str(p) for p in problems] == []


def test_placeholders(tree: Path) -> None:
    source = skeleton_data(tree, "source", "my-doc")
    assert source["sources"] == [{"source": "my-doc"}]
    assert source["type"] == "seed"
    fmt = skeleton_data(tree, "format", "my-format")
    assert list(fmt)[:2] == ["name", "summary"] and list(fmt)[-1] == "sources"
    assert fmt["sources"] == [{"source": "src-code"}]
    assert fmt["name"].startswith("TODO")
    matrix = skeleton_data(tree, "support-matrix", "my-table")
    assert len(matrix["cells"]) == len(matrix["rows"]) and len(matrix["cells"][0]) == len(matrix["columns"])


def test_yaml_quotes_what_yaml_11_misreads() -> None:
    text = dump_yaml({"a": "yes", "b": "no", "c": "on", "d": "off", "e": "2026-01-01", "f": "1.5", "g": "TODO: x"})
    assert yaml.safe_load(text) == {"a": "yes", "b": "no", "c": "on", "d": "off", "e": "2026-01-01", "f": "1.5",
                                    "g": "TODO: x"}
    for word in ("yes", "no", "on", "off"):
        assert f": {word}\n" not in text


def test_refuses_unknown_kind_with_suggestion(tree: Path) -> None:
    with pytest.raises(SkeletonError, match="unknown kind 'formt'.*did you mean 'format'"):
        write_skeleton(tree, "formt", "x")
    with pytest.raises(SkeletonError, match="did you mean 'format'"):
        write_skeleton(tree, "formats", "x")


@pytest.mark.parametrize("bad", ["Upper", "with_underscore", "double--hyphen", "-lead", "trail-", "", "a b"])
def test_refuses_invalid_id(tree: Path, bad: str) -> None:
    with pytest.raises(SkeletonError, match="invalid id"):
        write_skeleton(tree, "format", bad)


def test_refuses_existing_file(tree: Path) -> None:
    before = (tree / "records" / "formats" / "fmt-int4.yaml").read_text(encoding="utf-8")
    with pytest.raises(SkeletonError, match="already exists"):
        write_skeleton(tree, "format", "fmt-int4")
    assert (tree / "records" / "formats" / "fmt-int4.yaml").read_text(encoding="utf-8") == before


def test_refuses_when_a_needed_reference_has_no_record(tree: Path) -> None:
    for path in (tree / "records" / "engines").glob("*.yaml"):
        path.unlink()
    with pytest.raises(SkeletonError, match="no.*engine|engine.*none"):
        write_skeleton(tree, "scheme", "my-scheme")
    assert not (tree / "records" / "schemes" / "my-scheme.yaml").exists()


def test_cli_new(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--root", str(tree), "new", "gotcha", "my-trap"]) == 0
    assert capsys.readouterr().out.strip() == "records/gotchas/my-trap.yaml"
    assert main(["--root", str(tree), "new", "gotcha", "my-trap"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["--root", str(tree), "check"]) == 0


def test_a_new_scheme_cites_a_pinned_source_so_it_passes_dispatch_provenance(tree):
    (tree / "records/sources/aaa-unpinned.yaml").write_text(
        "name: A\nsummary: S.\ntype: web\nurl: https://example.org/a\nsources:\n  - source: aaa-unpinned\n")
    write_skeleton(tree, "scheme", "fresh-scheme")
    data = yaml.safe_load((tree / "records/schemes/fresh-scheme.yaml").read_text())
    assert data["code"]["source"] == "src-code"
    _, problems = check_tree(tree)
    assert [str(p) for p in problems if "fresh-scheme" in p.file] == []
