"""The check runner keeps a record check's findings between trees whose records are the same objects (runner.py)."""
from __future__ import annotations

import dataclasses

from generators.build import check_tree
from generators.checks import run_checks
from generators.checks.base import SHAPE, Check
from generators.problems import Problem


def _counting_check(name, reads):
    """A record check on schemes that looks up each scheme's engine the way `reads` says, counting its calls."""
    calls = []

    def check_record(atlas, record):
        calls.append(record.ref)
        engine = reads(atlas, record)
        if engine is None:
            yield Problem(record.path, 1, 1, name, "no engine")

    check = Check(name, "test", "record:scheme", check_record=check_record, stage=SHAPE)
    return check, calls


def test_a_record_check_is_asked_again_only_when_its_record_or_a_record_it_read_is_another_object(tree):
    atlas, _ = check_tree(tree)
    check, calls = _counting_check("kept-by-lookups", lambda atlas, r: atlas.index.get("engine", r.data.get("engine")))
    schemes = len(atlas.index.all("scheme"))
    first = run_checks(atlas, [check], errors_only=True)
    assert len(calls) == schemes
    assert run_checks(atlas, [check], errors_only=True) == first and len(calls) == schemes  # all kept
    scheme = atlas.index.all("scheme")[0]
    engine = atlas.index.get("engine", scheme.data["engine"])
    atlas.index.by_kind["engine"][engine.id] = dataclasses.replace(engine)  # an equal record, but another object
    run_checks(atlas, [check], errors_only=True)
    readers = [s.ref for s in atlas.index.all("scheme") if s.data.get("engine") == engine.id]
    assert calls[schemes:] == readers
    atlas.index.by_kind["scheme"][scheme.id] = dataclasses.replace(scheme)
    run_checks(atlas, [check], errors_only=True)
    assert calls[schemes + len(readers):] == [scheme.ref]
    assert run_checks(atlas, [check]) == first and len(calls) == 2 * schemes + len(readers) + 1  # a full run: never kept


def test_a_record_check_that_reads_the_atlas_otherwise_is_never_kept(tree):
    atlas, _ = check_tree(tree)
    for name, reads in (("reads-schemas", lambda atlas, r: atlas.schemas and None),
                        ("reads-a-kind", lambda atlas, r: atlas.index.all("engine") and None)):
        check, calls = _counting_check(name, reads)
        first = run_checks(atlas, [check], errors_only=True)
        assert run_checks(atlas, [check], errors_only=True) == first[:1]
        assert len(calls) == 2  # the first error ends an errors-only run; nothing was kept, so it is asked again


def test_a_record_check_that_reads_backlinks_is_asked_again_only_when_they_differ(tree):
    """A kept finding whose record's backlinks changed must not leak into the next tree: linking another tree makes new
    lists (equal ones keep the finding), and a tree where the links differ asks the check again."""
    atlas, _ = check_tree(tree)
    calls = []

    def check_record(atlas, record):
        calls.append(record.ref)
        sources = [link.source for link in atlas.index.backlinks.get(record.ref, [])]
        if "gotcha/trap-silent" in sources:
            yield Problem(record.path, 1, 1, "kept-by-backlinks", f"linked from {sources}")

    check = Check("kept-by-backlinks", "test", "record:format", check_record=check_record, stage=SHAPE)
    formats = [record.ref for record in atlas.index.all("format")]
    first = run_checks(atlas, [check], errors_only=True)
    assert [p.message for p in first] == ["linked from ['gotcha/trap-silent']"] and calls == formats[:1]
    assert run_checks(atlas, [check], errors_only=True) == first and calls == formats[:1]  # kept
    atlas.index.backlinks["format/fmt-fp4"] = list(atlas.index.backlinks["format/fmt-fp4"])  # equal, another list
    assert run_checks(atlas, [check], errors_only=True) == first and calls == formats[:1]
    link = atlas.index.backlinks["format/fmt-fp4"][0]
    atlas.index.backlinks["format/fmt-fp4"] = [dataclasses.replace(link, source="gotcha/other")]  # the links differ
    assert run_checks(atlas, [check], errors_only=True) == [] and calls == formats[:1] + formats
    del atlas.index.backlinks["format/fmt-fp4"]  # no backlinks at all: asked again too
    assert run_checks(atlas, [check], errors_only=True) == [] and calls == formats[:1] + formats + formats[:1]


def test_a_full_run_that_keeps_findings_leaves_them_for_an_errors_only_run_of_another_tree(tree):
    """The working tree's full run (build.check_stages without a reuse memo) keeps record checks' findings, so the
    changelog's first past tree takes those of its records that are the same objects; without `keep` it keeps none."""
    atlas, _ = check_tree(tree)
    check, calls = _counting_check("kept-from-a-full-run", lambda atlas, r: atlas.index.get("engine", r.data.get("engine")))
    schemes = len(atlas.index.all("scheme"))
    first = run_checks(atlas, [check])
    assert run_checks(atlas, [check], errors_only=True) == first and len(calls) == 2 * schemes  # nothing kept
    check, calls = _counting_check("kept-from-a-full-run-2", lambda atlas, r: atlas.index.get("engine", r.data.get("engine")))
    assert run_checks(atlas, [check], keep=True) == first and len(calls) == schemes
    assert run_checks(atlas, [check], errors_only=True) == first and len(calls) == schemes  # all kept
    scheme = atlas.index.all("scheme")[0]
    atlas.index.by_kind["scheme"][scheme.id] = dataclasses.replace(scheme)  # another object: asked again
    assert run_checks(atlas, [check], errors_only=True) == first and calls[schemes:] == [scheme.ref]


def test_a_kept_finding_is_where_its_tree_puts_it(tree, tmp_path):
    """A finding is kept for the very same record object only (same path and bytes: the same text), so a tree whose
    copy of the record puts the same requirement a line lower reports it there, and one with the same bytes at another
    path reports it where the first did (the suspicion behind commit 7705da5f: a position from another tree's text)."""
    import shutil

    kernel = "records/kernels/k-generic.yaml"
    path = tree / kernel
    path.write_text(path.read_text().replace(
        "sources:\n", "  - {check: env, declines: false, elsewhere: the host CPU, reason: r, reason_verbatim: false}\n"
                      "sources:\n"))
    twin = shutil.copytree(tree, tmp_path / "twin")
    (twin / kernel).write_text((twin / kernel).read_text().replace("summary:", "# moved a line down\nsummary:"))

    def where(root):
        return [str(p).split(": error:")[0] for p in check_tree(root)[1] if p.rule == "elsewhere-placement"]

    for root, line in ((tree, 9), (twin, 10), (tree, 9), (twin, 10)):
        assert where(root) == [f"{kernel}:{line}:46"], root
    same = shutil.copytree(tree, tmp_path / "same")
    assert where(same) == [f"{kernel}:9:46"]


def test_a_check_that_crashes_after_yielding_gives_the_crash_alone_kept_or_not(tree):
    """A record whose check yields a problem and then raises reports the crash only, whether its findings are kept
    or the check is asked afresh (before, a fresh run kept the problem yielded before the crash and a kept run not)."""
    atlas, _ = check_tree(tree)

    def check_record(atlas, record):
        yield Problem(record.path, 1, 1, "half", "found first")
        raise ValueError("odd record")

    check = Check("half", "test", "record:scheme", check_record=check_record, stage=SHAPE)
    crashes = [Problem(s.path, 1, 1, "half", "check crashed on this record: ValueError: odd record")
               for s in atlas.index.all("scheme")]
    assert run_checks(atlas, [check]) == crashes
    assert run_checks(atlas, [check], keep=True) == crashes
