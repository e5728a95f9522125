"""Every figure in a gotcha's summary or symptom restates a linked benchmark, a quote, a linked record's fact, or an estimate it derives.

A trap's summary and symptom say in prose what goes wrong; the figures they repeat are stated with their sources
elsewhere: in a benchmark the gotcha links (`benchmarks`) or names by its id (its value, a baseline's value or their
difference, at the precision the figure shows); in a quote of the gotcha's citations (its sources, its contested
claims' and its scope's) or of a finding it names by its id (its evidence); or, for a figure written major.minor and
to its last digit, in a fact of a record it links: an accelerator's `compute_capability`, a capability a kernel's
requirements or a scheme's capability gate test (90 read as 9.0), and the compute capabilities (cubins, PTX) and the
CUDA toolkit an engine's default install is built for. A figure the record works out itself (the factor a doubled
sum under a square root gives) is listed in `derived_figures` with the arithmetic that gives it (numbers, + - * /,
sqrt, atan, degrees, at most 200 characters; the text is parsed, never run), and the figure must be that arithmetic's
finite value at the precision it shows; an entry whose
figure neither field writes, or writes tied by one of the above, is stale. A figure tied to none of them is a copy
that has drifted, or a number without a source. What counts as a figure is the benchmark summaries' rule
(summary_figures.py): a compute capability or a version with a fractional part is one (SM 9.0, CUDA 13.0), and so
is 10x, read as tenfold; a capability family written 10.x, an architecture name (sm_120) and a bare major (CUDA 13)
are not.
"""
from __future__ import annotations

import ast
import math
import operator
from decimal import Decimal
from collections.abc import Callable, Iterator
from typing import Any

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at
from .quality_note_figures import finder, listed, named, nearest, quotes_of
from .summary_figures import figures, position_in_field, restates, shows, stated

NAME = "gotcha-figures"
FIELDS = ("summary", "symptom")
DERIVED = "derived_figures"
_OPERATORS: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_FUNCTIONS: dict[str, Callable[[float], float]] = {"sqrt": math.sqrt, "atan": math.atan, "degrees": math.degrees}
LONGEST = 200  # characters of an expression the check parses (the schema's maxLength); a longer one is refused unread


def _linked(atlas: Atlas, gotcha: Record, field: str, kind: str) -> list[Record]:
    return [record for name in gotcha.data.get(field) or [] if (record := atlas.index.get(kind, name)) is not None]


def _capability(value: object) -> Decimal | None:
    """A capability written major*10+minor (90) as major.minor (9.0)."""
    return Decimal(value).scaleb(-1) if isinstance(value, int) and not isinstance(value, bool) else None


def facts(atlas: Atlas, gotcha: Record) -> list[tuple[Decimal, str]]:
    """The capabilities and toolkits the gotcha's linked accelerators, kernels, schemes and engines state, each with
    where it stands."""
    found = []
    for accelerator in _linked(atlas, gotcha, "accelerators", "accelerator"):
        if isinstance(capability := accelerator.data.get("compute_capability"), str):
            found.append((Decimal(capability), f"accelerator {accelerator.id}'s compute capability"))
    for kernel in _linked(atlas, gotcha, "kernels", "kernel"):
        for need in kernel.data.get("requirements") or []:
            if str(need.get("check", "")).startswith("capability-"):
                found += [(number, f"a capability kernel {kernel.id} tests")
                          for value in [need.get("value"), *(need.get("values") or [])]
                          if (number := _capability(value)) is not None]
    for scheme in _linked(atlas, gotcha, "schemes", "scheme"):
        gate = scheme.data.get("capability_gate") or {}
        found += [(number, f"scheme {scheme.id}'s capability gate")
                  for key in ("min", "exact") if (number := _capability(gate.get(key))) is not None]
    for engine in _linked(atlas, gotcha, "engines", "engine"):
        for build in [build for install in engine.data.get("default_install") or [] for build in install.get("built_for") or []]:
            found += [(number, f"a capability engine {engine.id}'s default install is built for")
                      for key in ("compute_capability", "ptx") for value in build.get(key) or []
                      if (number := _capability(value)) is not None]
            if isinstance(toolkit := build.get("toolkit"), str):
                found.append((Decimal(toolkit), f"the CUDA toolkit engine {engine.id}'s default install is built with"))
    return found


def evaluate(expression: str) -> Decimal | None:
    """The finite value of arithmetic on numbers (+ - * /, sqrt, atan, degrees), or None when it is anything else:
    other syntax, a name, a call to any other function, no finite value (1e999, a division by zero), or longer than
    LONGEST characters (so neither parsing nor evaluating can run deep or long)."""
    def value(node: ast.expr) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return float(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS
                and len(node.args) == 1 and not node.keywords):
            return _FUNCTIONS[node.func.id](value(node.args[0]))
        raise ValueError(ast.dump(node))
    if len(expression) > LONGEST:
        return None
    try:
        number = value(ast.parse(expression, mode="eval").body)
    except (SyntaxError, ValueError, ArithmeticError, RecursionError, MemoryError):
        return None
    return Decimal(repr(number)) if math.isfinite(number) else None


def _shown(expression: str) -> str:
    """The expression quoted for a message, cut to LONGEST characters."""
    return repr(expression) if len(expression) <= LONGEST else f"{expression[:LONGEST]!r}... ({len(expression)} characters)"


def check(atlas: Atlas, gotcha: Record) -> Iterator[Problem]:
    texts = [(field, text) for field in FIELDS if isinstance(text := gotcha.data.get(field), str)]
    every = " ".join(text for _, text in texts)
    benchmarks = list({record.ref: record for record in _linked(atlas, gotcha, "benchmarks", "benchmark")
                       + named(atlas, every, "benchmark")}.values())
    scope: dict[str, Any] = gotcha.data.get("scope") or {}
    quotes = quotes_of([gotcha, *named(atlas, every, "finding")]) + [
        citation["quote"] for citation in scope.get("sources") or [] if isinstance(citation.get("quote"), str)]
    recorded = facts(atlas, gotcha)
    derived: list[dict[str, Any]] = gotcha.data.get(DERIVED) or []
    used = set()
    for field, text in texts:
        seen: dict[str, int] = {}
        for _, written in figures(text):
            nth = seen[written] = seen.get(written, -1) + 1
            if (any(restates(atlas, benchmark, written) for benchmark in benchmarks)
                    or any(stated(written, quote) for quote in quotes)
                    or ("." in written and any(number == Decimal(written.replace(",", "")) for number, _ in recorded))):
                continue
            if any(entry.get("figure") == written for entry in derived):
                used.add(written)  # the entry's arithmetic is checked below
                continue
            line, column = position_in_field(gotcha, field, finder(written), nth)
            yield Problem(gotcha.path, line, column, NAME,
                          f"{field}: {written!r} is no value, baseline or difference of the linked or named benchmarks "
                          f"({listed([benchmark.id for benchmark in benchmarks])}), no compute capability or CUDA "
                          f"toolkit a linked accelerator, kernel, scheme or engine states, no figure {DERIVED} works "
                          f"out, and no quote of the gotcha's or a named finding's citations states it"
                          f"{nearest(atlas, written, benchmarks, quotes, recorded)}; correct it against the source, or "
                          f"tie it: cite the passage that states it, link the record that states it, or list an "
                          f"estimate the record works out in {DERIVED} with its arithmetic")
    for n, entry in enumerate(derived):
        figure, expression = str(entry.get("figure")), str(entry.get("expression"))
        if (value := evaluate(expression)) is None:
            yield at(gotcha, (DERIVED, n, "expression"), NAME,
                     f"{_shown(expression)} is not arithmetic this check evaluates to a finite number (numbers, + - * /, "
                     f"sqrt, atan, degrees; at most {LONGEST} characters)")
        elif not shows(figure, value):
            yield at(gotcha, (DERIVED, n, "figure"), NAME,
                     f"{figure!r} is not {expression} = {value.normalize():f} at the precision it shows; correct the "
                     f"figure (in the text as well) or the arithmetic")
        elif figure not in used:
            yield at(gotcha, (DERIVED, n, "figure"), NAME,
                     f"stale entry: neither {' nor '.join(FIELDS)} writes {figure!r} as a figure that nothing else "
                     f"ties; remove the entry")


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record:gotcha", check_record=check, stage=SHAPE)
