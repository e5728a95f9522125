"""The command line: exit codes, output formats, no tracebacks, nothing half-written."""
from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

from generators.cli import main

from .conftest import write


def run(tree: Path, *args: str) -> subprocess.CompletedProcess:
    """`python -m generators --root TREE ARGS` run in this process, as generators/__main__.py runs it: its exit code
    and what it printed. A process costs half a second of imports; the tests of what only a process shows (the
    module's entry point, a closed pipe, the working folder) start one."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            code = main(["--root", str(tree), *args])
        except SystemExit as exit:  # argparse: a usage error or --help
            code = exit.code
    return subprocess.CompletedProcess(["python", "-m", "generators", "--root", str(tree), *args], code,
                                       stdout.getvalue(), stderr.getvalue())


def test_check_clean_tree_exits_zero(tree):
    result = run(tree, "check")
    assert result.returncode == 0 and result.stdout == ""
    assert "23 records checked, 0 error(s), 0 warning(s)" in result.stderr


def test_check_reports_all_problems_and_exits_one(tree):
    write(tree, "records/techniques/a.yaml", "name: X\nname: Y\n")
    write(tree, "records/techniques/b.yaml", "name: !!python/object:os.system x\n")
    result = run(tree, "check")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "records/techniques/a.yaml:2:1: error: [load] duplicate key 'name' (first defined at line 1); a key may appear once per mapping",
        "records/techniques/b.yaml:1:7: error: [load] YAML tags are not allowed (found 'tag:yaml.org,2002:python/object:os.system'); "
        "records hold plain data only"]
    assert "Traceback" not in result.stderr


def test_check_formats(tree):
    write(tree, "records/techniques/a.yaml", "name: X\nname: Y\n")
    github = run(tree, "check", "--format", "github").stdout.strip()
    assert github == ("::error file=records/techniques/a.yaml,line=2,col=1,title=load::duplicate key 'name' "
                      "(first defined at line 1); a key may appear once per mapping")
    [problem] = json.loads(run(tree, "check", "--format", "json").stdout)
    assert problem == {"file": "records/techniques/a.yaml", "line": 2, "column": 1, "severity": "error", "rule": "load",
                       "message": "duplicate key 'name' (first defined at line 1); a key may appear once per mapping"}


def test_usage_errors_exit_two(tree):
    assert run(tree, "frobnicate").returncode == 2
    assert run(tree / "nowhere", "check").returncode == 2
    result = run(tree, "explain", "sch-w4a16", "cpu-avx51")
    assert result.returncode == 2 and "did you mean 'cpu-avx512'?" in result.stderr


def test_help_on_every_command(tree):
    for command in ("check", "build", "explain", "cells", "diff", "new"):
        result = run(tree, command, "--help")
        assert result.returncode == 0 and "usage:" in result.stdout


def test_build_writes_the_whole_tree(tree, tmp_path):
    out = tmp_path / "out"
    assert run(tree, "build", "--out", str(out)).returncode == 0
    assert (out / "index.md").is_file() and (out / "chapters/demo.md").is_file() and (out / "formats/fmt-int4.md").is_file()
    assert not list(out.rglob("*.j2")) and not (out / "_templates").exists()


def test_build_with_problems_writes_nothing(tree, tmp_path):
    write(tree, "records/techniques/a.yaml", "")
    out = tmp_path / "out"
    result = run(tree, "build", "--out", str(out))
    assert result.returncode == 1 and not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".atlas-build-")]


def test_explain_and_cells(tree):
    result = run(tree, "explain", "sch-w4a16", "gpu-sm80")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == ("sch-w4a16 on gpu-sm80: RUNS IF via k-generic (read from the engine's "
                                             "dispatch code at a release the engine record does not name)")
    assert "1. k-hopper: NO: Hopper kernel requires compute capability of 90" in result.stdout
    cells = json.loads(run(tree, "cells", "--format", "json").stdout)
    assert {(c["scheme"], c["target"], c["verdict"]) for c in cells["cells"]} == {
        ("sch-w4a16", "cpu-avx512", "runs"), ("sch-w4a16", "gpu-sm80", "runs-if"), ("sch-w4a16", "gpu-sm90", "runs")}
    # What happens without the condition: k-generic declines a bfloat16 model, and no candidate is left.
    lines = result.stdout.splitlines()
    at = lines.index("  if the conditions do not hold (the next outcome in the engine's order):")
    assert lines[at:at + 6] == [
        "  if the conditions do not hold (the next outcome in the engine's order):",
        "    unless activation dtype in {float16} (for k-generic):",
        "      -> REFUSED",
        "         k-hopper: Hopper kernel requires compute capability of 90",
        "         k-generic: Generic kernel only supports float16 activations (unless activation dtype in {float16})",
        "         engine raises: Failed to find a kernel"]
    otherwise = {(c["scheme"], c["target"]): c["otherwise"] for c in cells["cells"]}
    assert otherwise[("sch-w4a16", "gpu-sm80")] == [{
        "kernel": "k-generic", "unmet": ["activation dtype in {float16}"], "verdict": "refused", "selected": None,
        "conditions": [], "computes_as": "", "failure_message": "Failed to find a kernel", "off_default": False,
        "of_install": False, "elsewhere": "", "walks": False,
        "reasons": ["k-hopper: Hopper kernel requires compute capability of 90",
                    "k-generic: Generic kernel only supports float16 activations (unless activation dtype in {float16})"]}]
    assert otherwise[("sch-w4a16", "gpu-sm90")] == otherwise[("sch-w4a16", "cpu-avx512")] == []


def test_check_limited_to_paths_reports_only_those_files(tree):
    write(tree, "records/techniques/a.yaml", "name: X\nname: Y\n")
    write(tree, "records/techniques/b.yaml", "")
    result = subprocess.run([sys.executable, "-m", "generators", "check", "records/techniques/b.yaml"],
                            cwd=tree, capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "records/techniques/b.yaml:1:1: error: [load] file is empty; a record needs at least the fields its schema requires"]


def test_warnings_pass_check_and_fail_strict(tree):
    write(tree, "records/sources/src-seed.yaml", "name: A seed draft\nsummary: Notes.\ntype: seed\nurl: https://example.org/seed\n"
          "sources:\n  - source: src-seed\n")
    path = tree / "records/benchmarks/b-ref.yaml"
    text = path.read_text().replace("  - source: src-doc\n", "  - source: src-seed\n")
    path.write_text(text.replace("grade: measured\n", "grade: measured\nunverified: Only the seed states it.\n"))
    plain, strict = run(tree, "check"), run(tree, "check", "--strict")
    assert plain.returncode == 0 and strict.returncode == 1
    assert plain.stdout == strict.stdout and "warning: [unverified-record]" in plain.stdout
    assert "0 error(s), 1 warning(s) (--strict fails on warnings)" in plain.stderr
    github = run(tree, "check", "--format", "github").stdout
    assert github.startswith("::warning file=records/benchmarks/b-ref.yaml,")


def test_a_reader_that_goes_away_gets_no_traceback(tree):
    """`generators cells | head -1`: the pipe closes before the output is written; the command stops quietly."""
    import os
    read_end, write_end = os.pipe()
    os.close(read_end)  # no reader at all: the first write fails, whatever the output's size
    try:
        result = subprocess.run([sys.executable, "-m", "generators", "--root", str(tree), "cells"],
                                stdout=write_end, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write_end)
    assert result.stderr == ""
    assert result.returncode == 141


def test_explain_names_the_release_or_commit_the_engine_record_read(tree):
    """The header says what was read, from the engine record's version_read: a commit as a commit, not a release."""
    engine = tree / "records/engines/eng.yaml"
    said = {}
    for version in ("commit 00bbf71", "'2.1.0'"):
        engine.write_text(engine.read_text().replace("category: serving-engine\n",
                                                     f"category: serving-engine\nversion_read: {version}\n", 1))
        said[version] = run(tree, "explain", "sch-w4a16", "gpu-sm80").stdout.splitlines()[0]
        engine.write_text(engine.read_text().replace(f"version_read: {version}\n", ""))
    assert said["commit 00bbf71"].endswith("(read from the engine's dispatch code at commit 00bbf71)")
    assert said["'2.1.0'"].endswith("(read from the engine's dispatch code at release 2.1.0)")
