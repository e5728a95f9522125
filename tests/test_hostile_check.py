"""`check` is never falsely green (issue 11, class 5) and never prints a traceback on Ctrl-C.

`check` renders the chapters (claims, literal numbers, undefined names); `check PATHS` prints the
problems in those files and those they cause elsewhere, and exits with the whole tree's verdict.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from generators import build
from generators.cli import main
from generators.kinds import FOLDER_OF_KIND

from .conftest import write

DEMO = "docs/chapters/demo.md.j2"


def run_check(tree: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(["--root", str(tree), "check", *args])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def edit(tree: Path, rel: str, old: str, new: str) -> None:
    path = tree / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_check_fails_on_a_false_chapter_claim(tree, capsys):
    edit(tree, "records/accelerators/acc-cpu.yaml", "sources:\n",
         "peak_compute:\n  - {precision: int4, sparsity: dense, tflops: 6, source: src-doc}\nsources:\n")
    code, out, _ = run_check(tree, capsys)
    assert code == 1
    assert [line for line in out if "[claim]" in line] == [
        f"{DEMO}:5:1: error: [claim] claim native_empty('fmt-int4') no longer holds: fmt-int4 is derived native on ['acc-cpu']"], out


def test_check_fails_on_an_undefined_name_and_a_literal_number(tree, capsys):
    edit(tree, DEMO, "# Demo chapter (2026)\n", "# Demo chapter (2026)\n\n{{ no_such_name }} and 17 parts.\n")
    code, out, _ = run_check(tree, capsys)
    assert code == 1
    assert any(line.startswith(f"{DEMO}:") and "[template] undefined value: 'no_such_name' is undefined" in line
               for line in out), out
    assert any(line.startswith(f"{DEMO}:") and "[literal-number]" in line and "'17'" in line for line in out), out


def test_check_paths_of_a_renamed_record_reports_the_references_it_breaks(tree, capsys):
    (tree / "records/formats/fmt-int4.yaml").rename(tree / "records/formats/int4-weights.yaml")
    code, out, err = run_check(tree, capsys, "records/formats/int4-weights.yaml")
    assert code == 1
    dangling = [line for line in out if "'fmt-int4' is not a format id" in line]
    assert len(dangling) >= 3 and all(":error: " not in line for line in dangling)
    assert all(line.split(":")[0] != "records/formats/int4-weights.yaml" for line in dangling)


def test_check_paths_never_turns_a_failing_tree_green(tree, capsys):
    write(tree, "records/techniques/broken.yaml", "name: X\nname: Y\n")
    code, out, err = run_check(tree, capsys, "records/formats")  # a folder without the broken file
    assert (code, out) == (1, [])
    assert "1 more problem(s) elsewhere in the tree; run check without paths to list them" in err
    code, out, _ = run_check(tree, capsys, "records/techniques")
    assert code == 1 and out == ["records/techniques/broken.yaml:2:1: error: [load] duplicate key 'name' "
                                 "(first defined at line 1); a key may appear once per mapping"]


@pytest.mark.parametrize("argument, message", [
    ("records/formats/fmt-in4.yaml", "error: records/formats/fmt-in4.yaml: no such file or folder"),
    ("/etc/passwd", "error: /etc/passwd: outside the project root {root}"),
    ("../outside.yaml", "error: ../outside.yaml: outside the project root {root}"),
])
def test_unknown_or_outside_paths_are_usage_errors(tree, capsys, monkeypatch, argument, message):
    write(tree.parent, "outside.yaml", "name: X\n")
    monkeypatch.chdir(tree)
    code, out, err = run_check(tree, capsys, argument)
    assert (code, out) == (2, [])
    assert err.strip() == message.format(root=tree)


def test_ctrl_c_prints_one_line_and_exits_130(tree, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(build, "run_pipeline", interrupted)
    code = main(["--root", str(tree), "check"])
    captured = capsys.readouterr()
    assert (code, captured.out, captured.err) == (130, "", "interrupted\n")


def test_check_renders_every_chapter_and_all_pages_adds_the_record_pages(tree):
    """On the mini tree (the real one took 8 s for the same property): chapters, kind indexes and record pages."""
    checked = build.check_stages(tree)  # one atlas for both (build.run_pipeline's `checked`): they differ in what they render
    chapters = build.run_pipeline(tree, "docs", record_pages=False, checked=checked)
    everything = build.run_pipeline(tree, "docs", checked=checked)
    assert "chapters/demo.md" in chapters.pages and any(page.startswith("schemes/") for page in everything.pages)
    assert not chapters.failed and not everything.failed
    assert set(chapters.pages) == {page for page in everything.pages if page.startswith("chapters/")} | {
        page for page in everything.pages if not any(page.startswith(f"{folder}/") for folder in FOLDER_OF_KIND.values())}
    assert set(chapters.pages) < set(everything.pages)
    assert all(chapters.pages[page] == everything.pages[page] for page in chapters.pages)


def test_check_all_pages_reports_a_broken_record_layout(tree, capsys):
    edit(tree, "docs/_templates/record.md.j2", "\n", "\n{{ no_such_layout_name }}\n")
    assert run_check(tree, capsys)[0] == 0  # the layouts render in the site build and with --all-pages
    code, out, _ = run_check(tree, capsys, "--all-pages")
    assert code == 1
    assert any(line.startswith("docs/_templates/record.md.j2:") and "'no_such_layout_name' is undefined" in line
               for line in out), out
