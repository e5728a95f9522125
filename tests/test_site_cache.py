"""Generated files kept on disk across processes (generators/site_cache.py): the same inputs give the same bytes
without running the pipeline; any input change, a link in the tree, a damaged entry or ATLAS_CACHE=off builds."""
from __future__ import annotations

import gc
import json
import os
import shutil
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from generators import build, cache, site_cache
from generators.cache import ContentCache

from .conftest import write


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(cache))
    monkeypatch.delenv("ATLAS_CACHE", raising=False)
    return cache / "site-files"


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the pipeline runs."""
    counted: list[int] = []
    real = build.run_pipeline

    def counting(*args: object, **kwargs: object) -> build.Run:
        counted.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "run_pipeline", counting)
    return counted


def test_the_same_inputs_give_the_same_files_without_a_pipeline_run(tree: Path, folder: Path, runs: list[int]) -> None:
    first = site_cache.generate(tree)
    assert not first.cached and first.files and runs == [1]
    again = site_cache.generate(tree)
    assert again.cached and runs == [1]
    assert again.files == first.files and again.problems == first.problems
    assert [p.name for p in folder.iterdir()] == [f"{site_cache.site_key(tree, 'docs', (), '')}.files"]  # (no git: cut "")


def test_an_edit_to_a_record_or_a_template_builds_again(tree: Path, folder: Path, runs: list[int]) -> None:
    first = site_cache.generate(tree)
    record = next((tree / "records" / "formats").glob("*.yaml"))
    record.write_text(record.read_text(encoding="utf-8").replace("name: ", "name: Edited ", 1), encoding="utf-8")
    edited = site_cache.generate(tree)
    assert not edited.cached and runs == [1, 1] and edited.files != first.files
    write(tree, "docs/_templates/extra.txt", "a new file under docs")
    assert not site_cache.generate(tree).cached and len(runs) == 3


def test_a_link_in_the_tree_is_never_served_from_the_cache(tree: Path, folder: Path, runs: list[int]) -> None:
    site_cache.generate(tree)
    os.symlink("elsewhere", tree / "docs" / "link.md")
    assert site_cache.site_key(tree, "docs", ()) is None
    site_cache.generate(tree)
    assert len(runs) == 2


def test_a_damaged_entry_is_not_read(tree: Path, folder: Path, runs: list[int]) -> None:
    site_cache.generate(tree)
    (entry,) = folder.iterdir()
    data = bytearray(entry.read_bytes())
    data[-5] ^= 1
    entry.write_bytes(bytes(data))
    again = site_cache.generate(tree)
    assert not again.cached and len(runs) == 2


def test_off_means_nothing_is_read_or_written(tree: Path, folder: Path, runs: list[int],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ATLAS_CACHE", "off")
    site_cache.generate(tree)
    site_cache.generate(tree)
    assert len(runs) == 2 and not folder.exists()


def test_a_failing_run_is_not_kept(tree: Path, folder: Path, runs: list[int]) -> None:
    write(tree, "records/formats/broken.yaml", "id: [unclosed\n")
    assert site_cache.generate(tree).failed
    assert site_cache.generate(tree).failed and len(runs) == 2
    assert not folder.exists() or not list(folder.iterdir())


def test_only_the_newest_entries_are_kept(tmp_path: Path, folder: Path) -> None:
    for n in range(site_cache.KEEP + 3):
        site_cache.write(f"{n:040x}", site_cache.Generated({"a.md": f"page {n}"}))
        os.utime(folder / f"{n:040x}.files", ns=(n * 10**9, n * 10**9))
    site_cache.write("f" * 40, site_cache.Generated({"a.md": "last"}))
    kept = sorted(p.name for p in folder.iterdir())
    assert len(kept) == site_cache.KEEP and f"{'f' * 40}.files" in kept
    assert site_cache.read("f" * 40).files == {"a.md": "last"}  # type: ignore[union-attr]


def test_a_table_unchanged_on_disk_is_not_parsed_again_but_a_replaced_one_is(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    table = ContentCache("t", "salt", tmp_path)
    table.put("k", {"a": 1})
    table.save()
    parsed: list[int] = []
    real = cache.orjson.loads
    monkeypatch.setattr(cache.orjson, "loads", lambda raw: parsed.append(1) or real(raw))
    assert ContentCache("t", "salt", tmp_path).entries == {"k": {"a": 1}} and parsed == []
    assert ContentCache("t", "other salt", tmp_path).entries == {}
    other = tmp_path / "written-by-another-process"
    other.write_text(json.dumps({"salt": "salt", "entries": {"k": 2}}), encoding="utf-8")
    os.replace(other, tmp_path / "t.json")
    assert ContentCache("t", "salt", tmp_path).entries == {"k": 2} and parsed


def test_literal_problems_are_the_same_when_asked_again() -> None:
    from generators.render.literals import literal_problems
    source = "We tested 17 parts.\n"
    first = literal_problems("docs/x.md.j2", source)
    assert first and literal_problems("docs/x.md.j2", source) == first
    first.clear()  # a caller's list is its own
    assert literal_problems("docs/x.md.j2", source)


def _fresh(tree: Path, monkeypatch: pytest.MonkeyPatch) -> site_cache.Generated:
    with monkeypatch.context() as off:
        off.setenv("ATLAS_CACHE", "off")
        return site_cache.generate(tree)


def _recorded(tree: Path) -> site_cache.Generated:
    """A one-off build that records its pages' reads (the first under this code records none: a build of other
    inputs, a comment appended to a record and then taken away, comes first)."""
    record = next((tree / "records" / "formats").glob("*.yaml"))
    text = record.read_text(encoding="utf-8")
    record.write_text(text + "# an earlier build\n", encoding="utf-8")
    assert site_cache.generate(tree).rendered is None
    record.write_text(text, encoding="utf-8")
    recorded = site_cache.generate(tree)
    assert not recorded.cached and recorded.reused == 0 and recorded.rendered
    return recorded


def test_the_first_one_off_build_under_this_code_records_no_reads_and_the_next_does(
        tree: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generators.render import memo
    with monkeypatch.context() as patched:
        patched.setattr(memo.Round, "page", lambda *_: pytest.fail("a read was recorded"))
        first = site_cache.generate(tree)
    assert first.rendered is None and first.files == _fresh(tree, monkeypatch).files
    kept = json.loads((folder.parent / "page-memo.json").read_text(encoding="utf-8"))["entries"]["docs"]
    assert kept == {"texts": site_cache.site_key(tree, "docs", (), ""), "pages": {}}  # so the next build records
    _edit(tree, "Edited.")
    edited = site_cache.generate(tree)
    assert edited.reused == 0 and edited.rendered and edited.files == _fresh(tree, monkeypatch).files
    kept = json.loads((folder.parent / "page-memo.json").read_text(encoding="utf-8"))["entries"]["docs"]
    assert kept["pages"] and set(kept["pages"]) <= set(edited.files)


def test_a_one_off_build_after_an_edit_renders_only_the_pages_that_read_it(tree: Path, folder: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    first = _recorded(tree)
    record = next((tree / "records" / "formats").glob("*.yaml"))
    record.write_text(record.read_text(encoding="utf-8").replace("summary: ", "summary: Edited. ", 1), encoding="utf-8")
    edited = site_cache.generate(tree)
    assert not edited.cached and 0 < edited.rendered < edited.reused  # type: ignore[operator]
    assert edited.files == _fresh(tree, monkeypatch).files and edited.files != first.files
    # As a new process would, the next build reads the memo from its table on disk: the tables this process read or
    # wrote are forgotten. (Not by hashing the code again: the salt a worker computed minutes before differs when the
    # package's files changed meanwhile, a landing into the tree under test, and the memo was then never found.)
    monkeypatch.setattr(cache, "_READ", {})
    record.write_text(record.read_text(encoding="utf-8").replace("Edited. ", "Edited twice. ", 1), encoding="utf-8")
    again = site_cache.generate(tree)
    assert again.reused and again.files == _fresh(tree, monkeypatch).files


def test_a_page_memo_from_another_tree_or_a_damaged_one_changes_nothing(tree: Path, tmp_path: Path, folder: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    other.mkdir()
    for name in ("records", "schema", "docs"):
        shutil.copytree(tree / name, other / name)
    for record in (other / "records" / "formats").glob("*.yaml"):
        record.write_text(record.read_text(encoding="utf-8").replace("name: ", "name: Other ", 1), encoding="utf-8")
    _recorded(other)  # keeps its pages under the same docs folder name
    assert site_cache.generate(tree).files == _fresh(tree, monkeypatch).files
    (memo,) = folder.parent.glob("page-memo.json")
    kept = json.loads(memo.read_text(encoding="utf-8"))
    pages = kept["entries"]["docs"]["pages"]
    some, other_page = sorted(pages)[:2]
    pages[some] = {"reads": 3}
    pages[other_page]["reads"] = [[*read[:-1], 5] for read in pages[other_page]["reads"]]  # not a fingerprint
    memo.write_text(json.dumps(kept), encoding="utf-8")
    record = next((tree / "records" / "formats").glob("*.yaml"))  # new inputs: the whole-site copy misses
    record.write_text(record.read_text(encoding="utf-8").replace("summary: ", "summary: Edited. ", 1), encoding="utf-8")
    rebuilt = site_cache.generate(tree)
    assert not rebuilt.cached and rebuilt.reused and rebuilt.files == _fresh(tree, monkeypatch).files


def test_a_long_lived_process_starts_from_the_pages_one_off_builds_kept(tree: Path, folder: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from generators.render.memo import PageMemo
    _recorded(tree)  # a one-off build keeps its pages on disk
    record = next((tree / "records" / "formats").glob("*.yaml"))
    record.write_text(record.read_text(encoding="utf-8").replace("summary: ", "summary: Edited. ", 1), encoding="utf-8")
    memo = PageMemo()  # `mkdocs serve` or `build --watch` starting
    first = site_cache.generate(tree, memo=memo)
    assert first.reused and 0 < first.rendered < first.reused  # type: ignore[operator]
    assert first.files == _fresh(tree, monkeypatch).files


def test_literal_problems_are_kept_on_disk_for_every_template(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generators.render import literals
    sources = {f"docs/c{n}.md.j2": f"We tested {n + 10} parts.\n" for n in range(3)}
    first = {path: literals.literal_problems(path, source) for path, source in sources.items()}
    assert all(first.values())
    literals._kept_literal_problems.cache_clear()  # as a new process: only the table on disk is left
    monkeypatch.setattr(literals, "_literal_problems", lambda *_: pytest.fail("computed again"))
    assert {path: literals.literal_problems(path, source) for path, source in sources.items()} == first


def _edit(tree: Path, text: str) -> None:
    record = next((tree / "records" / "formats").glob("*.yaml"))
    record.write_text(record.read_text(encoding="utf-8").replace("summary: ", f"summary: {text} ", 1), encoding="utf-8")


def test_the_page_memo_keeps_no_text_of_its_own_but_the_key_of_the_files_holding_them(tree: Path, folder: Path) -> None:
    first = _recorded(tree)
    kept = json.loads((folder.parent / "page-memo.json").read_text(encoding="utf-8"))["entries"]["docs"]
    assert kept["texts"] == site_cache.site_key(tree, "docs", (), "") and (folder / f"{kept['texts']}.files").is_file()
    assert kept["pages"] and set(kept["pages"]) <= set(first.files)
    assert not any("text" in value for value in kept["pages"].values())


@pytest.mark.parametrize("damage", ["gone", "damaged", "elsewhere"])
def test_a_page_memo_whose_texts_are_gone_damaged_or_named_outside_renders_every_page(
        tree: Path, folder: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    _recorded(tree)
    memo_file = folder.parent / "page-memo.json"
    kept = json.loads(memo_file.read_text(encoding="utf-8"))
    entry = folder / f"{kept['entries']['docs']['texts']}.files"
    if damage == "gone":
        entry.unlink()
    elif damage == "damaged":
        data = bytearray(entry.read_bytes())
        data[-5] ^= 1
        entry.write_bytes(bytes(data))
    else:
        (folder.parent / "outside.files").write_bytes(entry.read_bytes())
        kept["entries"]["docs"]["texts"] = "../outside"
        memo_file.write_text(json.dumps(kept), encoding="utf-8")
    _edit(tree, "Edited.")
    rebuilt = site_cache.generate(tree)
    assert rebuilt.reused == 0 and rebuilt.rendered and rebuilt.files == _fresh(tree, monkeypatch).files


def test_a_memo_is_not_kept_when_its_texts_could_not_be(tree: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _recorded(tree)
    memo_file = folder.parent / "page-memo.json"
    before = memo_file.read_bytes()
    monkeypatch.setattr(site_cache, "write", lambda key, generated: False)
    _edit(tree, "Edited.")
    assert site_cache.generate(tree).rendered
    assert memo_file.read_bytes() == before  # still names the entry its texts are in


def test_the_entry_just_written_is_never_pruned(tmp_path: Path, folder: Path) -> None:
    future = 2**40 * 10**9  # entries another process touched after this one wrote its own
    for n in range(site_cache.KEEP):
        site_cache.write(f"{n:040x}", site_cache.Generated({"a.md": f"page {n}"}))
        os.utime(folder / f"{n:040x}.files", ns=(future, future))
    assert site_cache.write("f" * 40, site_cache.Generated({"a.md": "last"}))
    assert site_cache.read("f" * 40).files == {"a.md": "last"}  # type: ignore[union-attr]


class _Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """Leave the collector as the test found it: nothing frozen."""
    gc.unfreeze()
    yield
    gc.unfreeze()
    build._FROZEN[0] = False


def test_a_one_off_build_freezes_what_it_leaves_alive_and_the_next_run_hands_it_back(
        tree: Path, folder: Path, unfrozen: None) -> None:
    """A one-off build (no memo) hides what it leaves alive from the collector (gc.freeze): the first collection after
    it and the host's later ones do not scan the run's objects. The next paused run gives them back (gc.unfreeze), so
    a cycle left by the first is collected; a long-lived process (a memo given) never freezes."""
    from generators.render.memo import PageMemo
    assert gc.isenabled()
    left = _Cycle()
    gone = weakref.ref(left)
    with build.cycle_collection_paused(freeze=True):
        assert not gc.isenabled()
    assert gc.isenabled() and gc.get_freeze_count() > 0
    del left
    gc.collect()
    assert gone() is not None  # frozen: a cycle waits
    with build.cycle_collection_paused():
        pass
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert gone() is None
    site_cache.generate(tree)
    assert gc.get_freeze_count() > 0 and gc.isenabled()
    site_cache.generate(tree, memo=PageMemo())
    assert gc.get_freeze_count() == 0 and gc.isenabled()
