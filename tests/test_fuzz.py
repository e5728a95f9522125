"""Property-based fuzzing of the pipeline with mutated records (issue 11, class 7).

Hypothesis mutates the mini fixture's records (values, types, structure, raw bytes, file names,
links and pipes) in a temporary copy and runs `check` in-process. For every example: no exception
escapes, no crash is reported in disguise ("crashed", an exception name), nothing hangs (alarm),
nothing is written anywhere, and a non-zero exit always comes with problems located as
file:line:col. The seed is fixed (derandomize) and the budget bounded so CI stays fast.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import signal
from pathlib import Path

import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from generators import load
from generators.cli import main

from .conftest import MINI, make_tree

RECORDS = sorted(p.relative_to(MINI).as_posix() for p in (MINI / "records").rglob("*.yaml"))
HOSTILE_SCALARS = [
    ".nan", "-.inf", "010", "1:30", "1_000", "0x1F", "0b11", "9" * 400, "9" * 5000, "1.0e+999", "0", "-1", "yes",
    "off", "~", "''", "[]", "{}", "[", "&a x", "*a", "!!python/object:os.system x", "!custom x", "\"a\\x00b\"",
    "\"\\x1b[31m\"", "`a``b`", "</title><script>alert(1)</script>", "index", "con", "\"x\\n\"", "1e5", "True",
    "2026-13-45", "\"@octocat ![i](https://e.example/i.png)\"",
]
CRASH = re.compile(r"crashed|Traceback|\b(Type|Key|Attribute|Value|ZeroDivision|Overflow|Index|Recursion|Assertion)Error\b")
LOCATED = re.compile(r"^(?P<file>[^\n]+?):(?P<line>[1-9][0-9]*):(?P<col>[1-9][0-9]*): (error|warning): \[[a-z-]+\] ")


def _set_scalar(text: str, line: int, value: str) -> str:
    lines = text.splitlines()
    candidates = [i for i, item in enumerate(lines) if re.match(r"^\s*(- )?[a-z_]+: \S", item)]
    if not candidates:
        return text
    i = candidates[line % len(candidates)]
    key = lines[i].split(":", 1)[0]
    lines[i] = f"{key}: {value}"
    return "\n".join(lines) + "\n"


def _restructure(text: str, choice: int, path_seed: int) -> str:
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, UnicodeError):
        return text  # an earlier mutation broke the YAML: nothing to restructure
    if not isinstance(data, dict) or not data:
        return text
    keys = sorted(data, key=str)
    key = keys[path_seed % len(keys)]
    value = data[key]
    data[key] = [
        lambda v: None, lambda v: [v], lambda v: {"x": v}, lambda v: str(v), lambda v: 10**20,
        lambda v: [v, v] if isinstance(v, list) else v, lambda v: v[:1] * 300 if isinstance(v, list) else v,
        lambda v: -3, lambda v: True,
    ][choice % 9](value)
    if choice % 2:
        del data[keys[(path_seed + 1) % len(keys)]]
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _mutate_bytes(raw: bytes, position: int, inserted: bytes, cut: int) -> bytes:
    at = position % (len(raw) + 1)
    return raw[:at] + inserted + raw[at + cut:]


mutations = st.one_of(
    st.tuples(st.just("scalar"), st.integers(0, 200), st.sampled_from(HOSTILE_SCALARS)),
    st.tuples(st.just("structure"), st.integers(0, 100), st.integers(0, 100)),
    st.tuples(st.just("bytes"), st.integers(0, 5000), st.binary(max_size=6), st.integers(0, 40)),
    st.tuples(st.just("file"), st.sampled_from(["rename-index", "rename-upper", "symlink-out", "symlink-loop",
                                                "fifo", "empty", "huge", "delete"])),
)


def _apply(tree: Path, outside: Path, rel: str, mutation: tuple) -> None:
    path = tree / rel
    kind = mutation[0]
    text = path.read_bytes().decode("utf-8", "surrogateescape") if kind in ("scalar", "structure") else ""
    if kind == "scalar":
        path.write_bytes(_set_scalar(text, mutation[1], mutation[2]).encode("utf-8", "surrogateescape"))
    elif kind == "structure":
        path.write_bytes(_restructure(text, mutation[1], mutation[2]).encode("utf-8", "surrogateescape"))
    elif kind == "bytes":
        path.write_bytes(_mutate_bytes(path.read_bytes(), mutation[1], mutation[2], mutation[3]))
    else:
        action = mutation[1]
        if action == "rename-index":
            path.rename(path.with_name("index.yaml"))
        elif action == "rename-upper":
            path.rename(path.with_name(path.name.upper()))
        elif action in ("symlink-out", "symlink-loop", "fifo"):
            path.unlink()
            if action == "fifo":
                os.mkfifo(path)
            else:
                os.symlink(outside if action == "symlink-out" else path.name, path)
        elif action == "empty":
            path.write_bytes(b"")
        elif action == "huge":
            path.write_bytes(path.read_bytes() + b"# " + b"x" * 300_000 + b"\n")
        else:
            path.unlink()


def _snapshot(folder: Path) -> dict[str, float]:
    return {p.relative_to(folder).as_posix(): p.lstat().st_mtime for p in folder.rglob("*")}


def _alarm(signum, frame):
    raise TimeoutError("check hung on a mutated tree")


@settings(derandomize=True, max_examples=60, deadline=None, database=None,
          phases=[Phase.explicit, Phase.generate],  # no shrinking: the failing example is printed as generated
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(record=st.sampled_from(RECORDS), mutation=mutations, second=st.none() | mutations)
def test_mutated_records_give_located_errors_and_nothing_else(tmp_path_factory, record, mutation, second):
    base = tmp_path_factory.mktemp("fuzz")
    outside = base / "outside.yaml"
    outside.write_text("name: SECRET-OUTSIDE\n", encoding="utf-8")
    tree = make_tree(base / "tree")
    _apply(tree, outside, record, mutation)
    if second is not None and os.path.isfile(tree / record) and not os.path.islink(tree / record):
        _apply(tree, outside, record, second)
    before = _snapshot(base)
    load._CACHE.clear() if hasattr(load, "_CACHE") else None
    stdout, stderr = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(30)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = main(["--root", str(tree), "check", "--format", "json"])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert _snapshot(base) == before, "check wrote something"
    problems = json.loads(stdout.getvalue())
    text = stdout.getvalue() + stderr.getvalue()
    assert "SECRET-OUTSIDE" not in text
    assert not CRASH.search(text), text
    assert code in (0, 1), (code, text)
    if code == 1:
        assert problems, "a failing check must say why"
        for problem in problems:
            shown = f"{problem['file']}:{problem['line']}:{problem['column']}: {problem['severity']}: [{problem['rule']}] "
            assert LOCATED.match(shown) and problem["file"], problem
    else:
        assert not [p for p in problems if p["severity"] == "error"]
    shutil.rmtree(base, ignore_errors=True)
