"""Record texts found valid are kept on disk (validate.py): a new process validates, and compiles validators for,
only the texts it has not found valid under the same schemas and code; an edited record, a changed schema or a
damaged table is validated again."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generators import schemas, validate
from generators.build import check_tree


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds whose fast validator was compiled, each time one was."""
    kinds: list[str] = []
    real = schemas._FastValidators.__getitem__

    def counting(self: schemas._FastValidators, kind: str) -> object:
        if kind not in self._built:
            kinds.append(kind)
        return real(self, kind)

    monkeypatch.setattr(schemas._FastValidators, "__getitem__", counting)
    return kinds


def new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget what this process compiled and found valid: only the table on disk is left."""
    monkeypatch.setattr(schemas, "_LOADED", {})
    monkeypatch.setattr(schemas, "_PARTS", {})


def table() -> Path:
    return Path(os.environ["ATLAS_CACHE_DIR"]) / "valid-records.json"


def edit(tree: Path, rel: str, old: str, new: str) -> None:
    path = tree / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_new_process_compiles_validators_only_for_the_kinds_of_edited_records(
        tree: Path, monkeypatch: pytest.MonkeyPatch, compiled: list[str]) -> None:
    new_process(monkeypatch)  # (other tests compiled the same schema texts)
    assert not check_tree(tree)[1] and {"format", "kernel"} <= set(compiled)
    new_process(monkeypatch)
    compiled.clear()
    assert not check_tree(tree)[1] and compiled == []
    edit(tree, "records/formats/fmt-fp4.yaml", "summary: ", "summary: Edited. ")
    new_process(monkeypatch)
    assert not check_tree(tree)[1] and compiled == ["format"]


def test_a_text_valid_under_the_old_schema_is_validated_under_the_new_one(tree: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert not check_tree(tree)[1]
    path = tree / "schema" / "format.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["required"] = [*schema.get("required", []), "no_such_field"]
    path.write_text(json.dumps(schema), encoding="utf-8")
    new_process(monkeypatch)
    assert any("no_such_field" in str(p) for p in check_tree(tree)[1])


def test_an_invalid_record_is_reported_by_every_run(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edit(tree, "records/formats/fmt-fp4.yaml", "summary: ", "no_such_field: 1\nsummary: ")
    first = [str(p) for p in check_tree(tree)[1]]
    assert any("no_such_field" in line for line in first)
    new_process(monkeypatch)
    assert [str(p) for p in check_tree(tree)[1]] == first


@pytest.mark.parametrize("damage", [b"{not json", b'{"salt": 1, "entries": []}', b"[]", b""])
def test_a_damaged_table_is_read_as_empty_and_written_again(tree: Path, monkeypatch: pytest.MonkeyPatch,
                                                            compiled: list[str], damage: bytes) -> None:
    assert not check_tree(tree)[1]
    kept = json.loads(table().read_bytes())
    table().write_bytes(damage)
    new_process(monkeypatch)
    compiled.clear()
    assert not check_tree(tree)[1] and compiled
    assert json.loads(table().read_bytes()) == kept


def test_an_entry_that_is_not_true_is_not_taken(tree: Path, monkeypatch: pytest.MonkeyPatch,
                                                compiled: list[str]) -> None:
    assert not check_tree(tree)[1]
    kept = json.loads(table().read_bytes())
    kept["entries"] = {key: 1 for key in kept["entries"]}
    table().write_text(json.dumps(kept), encoding="utf-8")
    new_process(monkeypatch)
    compiled.clear()
    assert not check_tree(tree)[1] and compiled


def test_two_runs_saving_at_once_leave_a_whole_table(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run writes its table to a temporary file and renames it: the last rename wins, never half of one."""
    assert not check_tree(tree)[1]
    opened = [validate._valid_texts(), validate._valid_texts()]  # two processes, both before either saves
    for n, other in enumerate(opened):
        assert other is not None
        other.put(f"{n:040x}", True)
    for other in opened:
        other.save()
    entries = json.loads(table().read_bytes())["entries"]
    assert f"{1:040x}" in entries and f"{0:040x}" not in entries and len(entries) == 1
    new_process(monkeypatch)
    assert not check_tree(tree)[1] and len(json.loads(table().read_bytes())["entries"]) > 1


def test_caching_off_keeps_nothing(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ATLAS_CACHE", "off")
    assert not check_tree(tree)[1] and not table().exists()



def test_schema_sets_share_a_kind_only_when_every_file_its_schema_reaches_is_the_same(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Schema sets that differ in some files (the changelog's past trees) share a kind's compiled schema, and what was
    found valid against it, when every file that kind's schema reaches is the same: a record found valid before is
    reported when a file its kind's schema reaches through a `$ref` changed, though the kind's own file did not."""
    assert not check_tree(tree)[1]
    first = schemas.load_schemas(tree / "schema")[0]
    path = tree / "schema" / "format.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["required"] = [*schema.get("required", []), "no_such_field"]
    path.write_text(json.dumps(schema), encoding="utf-8")
    second = schemas.load_schemas(tree / "schema")[0]
    assert first is not None and second is not None and second is not first
    assert second.ref_fields["kernel"] is first.ref_fields["kernel"]  # one compiled part for both sets
    assert second.kind_digests["kernel"] == first.kind_digests["kernel"] != "" and second.kind_digests["format"] != first.kind_digests["format"]
    assert {p.file for p in check_tree(tree)[1]} == {"records/formats/fmt-fp4.yaml", "records/formats/fmt-int4.yaml"}
    defs = tree / "schema" / "defs.schema.json"
    document = json.loads(defs.read_text(encoding="utf-8"))
    document["$defs"]["name"]["maxLength"] = 3
    defs.write_text(json.dumps(document), encoding="utf-8")
    third = schemas.load_schemas(tree / "schema")[0]
    assert third is not None and third.kind_digests["kernel"] != first.kind_digests["kernel"]
    assert "records/kernels/k-generic.yaml" in {p.file for p in check_tree(tree)[1] if "name" in p.message}
