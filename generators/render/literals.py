"""Literal numbers in chapter prose: a number typed outside a template expression is an error.

Numbers belong in records and reach prose through template functions. A template may declare
an allowed literal with a reason in a comment, `{# allow-literal: 2026 -- year of the snapshot #}`;
an allowed literal that no longer occurs in the prose is itself an error. Identifiers that
contain digits (W4A16, SM90, E4M3, Q4_K_M, Llama-3.1-8B) are not numbers, nor are bit widths
written `4-bit`, nor section marks written `§3.2`.
"""
from __future__ import annotations

import re

from ..problems import Problem

RULE = "literal-number"
_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_ALLOW = re.compile(r"\{#\s*allow-literal:\s*(\S+)\s*--\s*(.+?)\s*#\}")
_TOKEN = re.compile(r"[^\s()\[\],;:!?\"'“”/*|`]+")
_NUMBER = re.compile(r"^[~≈≥≤<>+±−-]?\$?\d+(?:[.,]\d+)*(?:%|x|×|k|M|B)?\.?$")
_HYPHENATED = re.compile(r"^(\d+(?:\.\d+)?)-([a-z]+)$")
_RAW = re.compile(r"\{%\s*raw\s*%\}.*?\{%\s*endraw\s*%\}", re.S)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")


def literal_problems(template_path: str, source: str) -> list[Problem]:
    declarations = _RAW.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)  # examples are not declarations
    allowed = {m.group(1): m for m in _ALLOW.finditer(declarations)}
    prose = _TAG.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)
    prose = _LINK_TARGET.sub(lambda m: " " * len(m.group(0)), prose)
    problems: list[Problem] = []
    used: set[str] = set()
    for line_number, line in enumerate(prose.splitlines(), start=1):
        for match in _TOKEN.finditer(line):
            token = match.group(0).rstrip(".")
            if not _is_number(token):
                continue
            if token in allowed:
                used.add(token)
                continue
            problems.append(Problem(template_path, line_number, match.start() + 1, RULE,
                                    f"hand-typed number {token!r} in prose; compute it with a template function "
                                    f"or declare it with {{# allow-literal: {token} -- reason #}}"))
    for token, match in allowed.items():
        if token not in used:
            line_number = source.count("\n", 0, match.start()) + 1
            problems.append(Problem(template_path, line_number, 1, RULE,
                                    f"allowed literal {token!r} no longer occurs in the prose; remove the allow-literal"))
    return problems


def _is_number(token: str) -> bool:
    if token.startswith("§"):
        return False
    hyphenated = _HYPHENATED.match(token)
    if hyphenated:
        return hyphenated.group(2) != "bit"
    return bool(_NUMBER.match(token))
