"""The fast YAML path (yaml-rs) never changes what load builds or reports: on every text it accepts, libyaml's
node-by-node path builds exactly the same data (same types, same order) and rejects nothing; every text it declines
is read by the slow path as before. Checked on the real records, crafted hazards and generated documents."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generators import fast_yaml, load

ROOT = Path(__file__).resolve().parent.parent
SCALARS = ["", "a", "Synthetic text", "yes", "Yes", "NO", "on", "Off", "y", "n", "true", "True", "TRUE", "tRUE", "False",
           "~", "null", "Null", "NULL", "nULL", "1", "-1", "+1", "0", "-0", "00", "09", "010", "0x1f", "-0x1", "0o7",
           "0b101", "1_000", "1__0", "1_000.5", "0.5_", "1.5", "-1.5", "+.5", "-.5", ".5", "1.", "1e3", "1E3", "1.0e3",
           "1.0e+3", "1.5e-3", ".inf", "-.inf", ".NaN", "nan", "inf", "2024-01-01", "2024-1-1", "2024-01-01 10:00:00",
           "2001-12-14t21:59:43.10-05:00", "12:30", "190:20:30", "1:30.5", "0.33.0", "v0.33.0", "095f58a51c",
           "123456789012345", "1234567890123456", "99999999999999999999", "1.00000000000000000001", "1,000", "4-bit",
           "8B", "=", "<<", "-", "--", ".", "?", "&a x", "*a", "!x", "!!str 1", "'quoted'", '"dq"', '"a\\tb"', "a#b",
           "a #c", "R&D", "x: y", "@x", "`x", "%x", "[1, 2]", "{a: 1}", "[1,000]", "[a, b,]", "{x: }", "|\n  x\n  y",
           ">\n  x\n  y", "\"x\n  y\"", "'it''s'", ":x", "-x", "- x", "? x", "|x", ">x", "@", "%", "#x", ",x", "]", "}",
           "a: b", "a:b", "-1 x", "x\n  y", "x\n\n  y", "x\n-y", "'a\n\n  b'", "\u00e9t\u00e9", "\ufeffx", "\tx", "x\t"]


def strict(value: Any) -> Any:
    """A form in which 1, 1.0 and True differ, and mappings keep their order."""
    if isinstance(value, dict):
        return ("map", [(strict(k), strict(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("seq", [strict(item) for item in value])
    return (type(value).__name__, repr(value))


def slow(text: str) -> Any:
    try:
        return strict(load._parse_with_positions(text))
    except load._Reject as reject:
        return ("rejected", reject.message)


def agrees(text: str) -> bool:
    """True when the fast path declines the text, or builds what the slow path builds (and the slow path accepts)."""
    fast = fast_yaml.parse(text)
    return fast is None or slow(text) == strict(fast)


def test_yaml_rs_is_installed():
    assert fast_yaml.yaml_rs is not None, "yaml-rs is a dependency (pyproject.toml); without it every file is slow"


def test_every_real_record_reads_alike_and_most_take_the_fast_path():
    paths = sorted((ROOT / "records").rglob("*.yaml")) + sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))
    texts = [path.read_text(encoding="utf-8") for path in paths]
    assert [path for path, text in zip(paths, texts) if not agrees(text)] == []
    fast = sum(fast_yaml.parse(text) is not None for text in texts)
    assert fast > len(texts) * 3 // 4  # the hazards are rare in real records (commit ids, versions stay fast)


@pytest.mark.parametrize("template", ["a: {}\n", "- {}\n", "a:\n  - {}\n", "a: [{}]\n", "a: [x, {}]\n", "a: {{b: {}}}\n",
                                      "{}: x\n", "a:\n  {}: x\n", "a: {{{}: x}}\n", "a: [{}, x]\n", "{}\n", "a: x\n{}\n",
                                      "a: {{\"b\":{}}}\n", "a: [\n  {},\n  x\n]\n", "a: 1\nb: {}\n"])
def test_every_hazard_is_declined_or_read_alike(template):
    disagreements = [value for value in SCALARS if not agrees(template.format(value))]
    assert disagreements == []


def test_the_hazards_are_declined():
    """The cases where YAML 1.1 and yaml-rs differ reach the slow path (which then reports or reads them)."""
    for value in ("yes", "Off", "010", "0x1f", "0o7", "1_000", "1e3", ".inf", "12:30", "-.5", "&a x", "*a", "!x", "<<",
                  '"a\\tb"', "99999999999999999999"):
        assert fast_yaml.parse(f"a: {value}\n") is None, value
    for text in ("1: x\n", "2024-01-01: x\n", "null: x\n", "? a\n: b\n", "[a]: b\n", "a: 1\na: 2\n", "- a\n",
                 "a: 1\n---\nb: 2\n", "%YAML 1.1\n---\na: 1\n"):
        assert fast_yaml.parse(text) is None, text


def test_ordinary_records_take_the_fast_path():
    text = ("name: Format 1\nsummary: Synthetic text, with commas, a colon:inside and (brackets).\nweight_bits: 4\nvalue: -1.5\n"
            "verified_on: 2026-11-29\nrevision: 095f58a51c\nversion: 0.33.0\nsilent: true\nnotes: ~\n"
            "peak:\n  - {precision: bf16, tflops: 100, source: src-1}\n")
    assert fast_yaml.parse(text) == load._parse_with_positions(text)
    assert fast_yaml.parse(text) is not None


_KEYS = st.sampled_from(["a", "b", "name", "1", "yes", "null", "2024-01-01", "'q'", "a b", "x:y", "<<", "~", ""])
_VALUES = st.sampled_from(SCALARS)


@st.composite
def documents(draw: st.DrawFn, depth: int = 0) -> str:
    """Small YAML texts mixing block and flow styles, hazardous scalars and keys, and broken indentation."""
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        key, indent = draw(_KEYS), " " * draw(st.sampled_from([0, 0, 0, 1, 2]))
        shape = draw(st.integers(0, 4 if depth < 2 else 1))
        if shape <= 1:
            lines.append(f"{indent}{key}: {draw(_VALUES)}")
        elif shape == 2:
            items = draw(st.sampled_from([", ", ",\n  ", ",\n"])).join(draw(st.lists(_VALUES, max_size=3)))
            lines.append(f"{indent}{key}: [{items}]")
        elif shape == 3:
            separator = draw(st.sampled_from([", ", ",\n  ", "\n  , "]))
            pairs = separator.join(f"{k}: {v}" for k, v in draw(st.lists(st.tuples(_KEYS, _VALUES), max_size=3)))
            lines.append(f"{indent}{key}: {{{pairs}}}")
        else:
            inner = draw(documents(depth + 1))
            lines.append(f"{indent}{key}:")
            lines.extend(f"  {'- ' if draw(st.booleans()) and n == 0 else ''}{line}" for n, line in enumerate(inner.splitlines()))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n---\n", "\n...\n", "\n# c\n"]))


@settings(max_examples=600, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_generated_documents_read_alike(text):
    assert agrees(text)
