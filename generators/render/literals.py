"""Literal numbers in chapter prose: a number typed outside a template expression is an error.

Numbers belong in records and reach prose through template functions. The prose is what Jinja's own
lexer calls `data` (outside tags, comments and raw blocks), so no regular expression guesses at tags. A template may declare
an allowed literal with a reason in a comment, `{# allow-literal: 2026 -- year of the snapshot #}`;
an allowed literal that no longer occurs in the prose is itself an error. Identifiers that
contain digits (W4A16, SM90, E4M3, Q4_K_M, Llama-3.1-8B) are not numbers, nor are bit widths
written `4-bit`, nor section marks written `§3.2`.
"""
from __future__ import annotations

import functools
import re

import jinja2

from ..cache import ContentCache, content_key
from ..problems import Problem

RULE = "literal-number"
_ALLOW = re.compile(r"^\s*allow-literal:\s*(\S+)\s*--\s*(.+?)\s*$", re.S)
_TOKEN = re.compile(r"[^\s()\[\],;:!?\"'“”/*|`]+")
_NUMBER = re.compile(r"^[~≈≥≤<>+±−-]?\$?\d+(?:[.,]\d+)*(?:%|x|×|k|M|B)?\.?$")
_HYPHENATED = re.compile(r"^(\d+(?:\.\d+)?)-([a-z]+)$")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_KEPT = 256  # entries of the on-disk table: every template's source in its last few versions
# Only its lexer is used, never a template: the render environment's (render/__init__.py), as Jinja shares one lexer
# between environments of the same lexing settings, so the chapter compiled next takes these tokens (`lexed`).
_LEXER = jinja2.Environment(trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
_LEXED: dict[str, list[tuple[int, str, str]]] = {}  # source -> its tokens, until the render environment takes them


def literal_problems(template_path: str, source: str) -> list[Problem]:
    """Every number typed in the template's prose (Jinja's own `data` tokens, outside raw blocks), and stale allowances.

    A pure function of its arguments, kept for the process (`mkdocs serve` asks again after every edit) and in the
    on-disk cache (generators/cache.py, salted with this module), keyed by the path and the source."""
    return list(_kept_literal_problems(template_path, source))


@functools.lru_cache(maxsize=256)
def _kept_literal_problems(template_path: str, source: str) -> tuple[Problem, ...]:
    table = ContentCache.for_code("literal-problems", __file__, extra=jinja2.__version__)
    key = content_key(f"{template_path}\0{source}".encode("utf-8", "surrogatepass"))
    kept = table.get(key)
    if isinstance(kept, list):
        try:
            return tuple(Problem(**problem) for problem in kept)
        except TypeError:
            pass
    found = _literal_problems(template_path, source)
    for other, value in list(table.entries.items())[-_KEPT + 1:]:  # the other templates' entries stay, newest last
        table.keep(other, value)
    table.put(key, [problem.as_dict() for problem in found])
    table.save()
    return found


def lexed(source: str, lexer: object) -> list[tuple[int, str, str]] | None:
    """The tokens this check just lexed `source` into, when `lexer` is the lexer it used (None otherwise): compiling
    the same chapter then lexes it once. Each source's tokens are handed out once."""
    return _LEXED.pop(source, None) if lexer is _LEXER.lexer else None


def _literal_problems(template_path: str, source: str) -> tuple[Problem, ...]:
    try:
        tokens = list(_LEXER.lex(source))
    except jinja2.TemplateSyntaxError:
        return ()  # rendering reports the syntax error with its line
    if len(_LEXED) >= 64:  # (a chapter that never compiles, its compiled code being cached, leaves its tokens here)
        _LEXED.clear()
    _LEXED[source] = tokens
    allowed: dict[str, int] = {}
    prose: list[tuple[int, str]] = []  # (offset in source, text)
    cursor, in_raw = 0, False
    for line, kind, value in tokens:
        if kind in ("raw_begin", "raw_end"):
            in_raw = kind == "raw_begin"
        offset = source.find(value, cursor) if value else cursor
        if offset >= 0:
            cursor = offset + len(value)
        if in_raw:
            continue
        if kind == "comment" and (declared := _ALLOW.match(value)):
            allowed.setdefault(declared.group(1), line)
        elif kind == "data" and offset >= 0:
            prose.append((offset, _LINK_TARGET.sub(lambda m: " " * len(m.group(0)), value)))
    problems: list[Problem] = []
    used: set[str] = set()
    for offset, text in prose:
        for match in _TOKEN.finditer(text):
            token = match.group(0).rstrip(".")
            if not _is_number(token):
                continue
            if token in allowed:
                used.add(token)
                continue
            line_number, column = _position(source, offset + match.start())
            problems.append(Problem(template_path, line_number, column, RULE,
                                    f"hand-typed number {token!r} in prose; compute it with a template function "
                                    f"or declare it with {{# allow-literal: {token} -- reason #}}"))
    problems += [Problem(template_path, line_number, 1, RULE,
                         f"allowed literal {token!r} no longer occurs in the prose; remove the allow-literal")
                 for token, line_number in allowed.items() if token not in used]
    return tuple(problems)


def _position(source: str, offset: int) -> tuple[int, int]:
    line_start = source.rfind("\n", 0, offset) + 1
    return source.count("\n", 0, offset) + 1, offset - line_start + 1


def _is_number(token: str) -> bool:
    if token.startswith("§"):
        return False
    hyphenated = _HYPHENATED.match(token)
    if hyphenated:
        return hyphenated.group(2) != "bit"
    return bool(_NUMBER.match(token))
