"""Every figure in a benchmark's summary is its value, its baseline's, their difference, or a figure its sources quote.

A summary restates the record's numbers in prose; tying each copy to the field or quote it comes from means a
corrected value cannot leave a stale summary on the site. A figure is a number written with a fractional part
(56.40, 0.9037, +0.1754, 2.9-point), with thousands separators (1,234), or with a percent sign, a multiplication sign
or a throughput unit (91%, 4x, 179 tokens per second, 207 t/s). It is tied when it is the record's value, its
baseline's value (`baseline.value`, or the value of the benchmark named in `baseline.benchmark`) or the difference
between the two, each rounded to the decimals the figure shows (a difference of 7.58 may be written 7.58 or 7.6, not
7.5), sign aside; or when a quote of one of the record's citations (its sources and its contested claims' sources,
except where they back a figure the record did not take: a citation's `value` other than the record's, a contested
claim other than the field's, whose figure the summary may mention only in words) states its number as a word of
its own, bare whole numbers included (other rows of the quoted table, a relative loss the source prints). Digits
inside a name in a quote state nothing, as in the summary: the benchmark name llama2-70b-99 does not state 99%, nor
W4A16 a 4.

Not figures: numbers glued to letters (Llama-2-70B, g128, W4A16, v6.0, Qwen3.6, 4.58G, 8xMI355X), dotted versions
(0.33.0), dates (2026-12-02), numbers after arXiv, Table, Figure, Section or Appendix, and bare whole numbers (Llama 2,
AIME 2024, RTX 3090, group size 128, 4 bits, 25-50), which in this prose name models, benchmarks, hardware, settings
and counts far more often than they restate a result. A two-part version after a name (vLLM 0.33) cannot be told from
a result (MMLU 70.3): write it v0.33 or 0.33.0. `notes` is not read: it holds the record's longer remarks
(derivations, rows the record does not publish, search logs naming figures that were looked for), whose figures are
arguments about the sources rather than copies of the record's fields.
"""
from __future__ import annotations

import re
from typing import Any
from decimal import Decimal
from collections.abc import Callable, Iterator

from ..derive.baseline import baseline_values
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check
from .quoted_value import citations

NAME = "summary-figures"
FIELD = "summary"

# A token: the text between spaces and the punctuation that is part of neither a number nor a name.
_TOKEN = re.compile(r"[^\s()\[\]{};:!?\"“”‘’'/*|`]+")
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_FIGURE = re.compile(rf"[~≈+±−-]?({_NUMBER})(%|x|×)?(?:-[a-z]+)*")  # -0.5, 91%, 4x, 2.9-point
_RANGE = re.compile(rf"(?:{_NUMBER})(?:[-–](?:{_NUMBER}))+")  # 0.5-1.0 (and 25-50, 2026-12-02: no figure in them)
_RATE = re.compile(r"\s*(?:tokens per second|tok(?:en)?s?/s|t/s)\b")  # 179 tokens per second, 207 t/s
_LABEL = re.compile(r"(?:arxiv|table|figure|fig\.|section|appendix|eq\.|equation)\W*$", re.I)  # arXiv 2306.00978, Table 4.2


def _words(text: str) -> Iterator[tuple[int, str, bool]]:
    """(offset, number as written, whether a unit follows it) for each number that stands as a word of its own."""
    for token in _TOKEN.finditer(text):
        if _LABEL.search(text, max(0, token.start() - 12), token.start()):
            continue
        word = token.group(0).rstrip(".,")
        if _RANGE.fullmatch(word):  # each end on its own, without a unit
            numbers = [(m.start(), m.group(0), False) for m in re.finditer(_NUMBER, word)]
        elif (match := _FIGURE.fullmatch(word)) is not None:
            unit = match.group(2) is not None or _RATE.match(text, token.end()) is not None
            numbers = [(match.start(1), match.group(1), unit)]
        else:
            continue  # a name, a version, a number glued to letters
        for offset, number, unit in numbers:
            yield token.start() + offset, number, unit


def figures(text: str) -> Iterator[tuple[int, str]]:
    """(offset, number as written, without its sign or unit) for each figure in the text."""
    for offset, number, unit in _words(text):
        if unit or "." in number or "," in number:
            yield offset, number


def stated(figure: str, quote: str) -> bool:
    """True when the quote states the figure's number as a word of its own, at any precision it writes (4.0 as "4"
    or "4.0", 2.5 as "2.50x", 1234 as "1,234"); digits inside a name state nothing (llama2-70b-99 is no 99, W4A16 no
    4), as in the summary."""
    wanted = Decimal(figure.replace(",", ""))
    return any(Decimal(number.replace(",", "")) == wanted for _, number, _ in _words(quote))


def _decimal(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return Decimal(repr(value))


def _references(atlas: Atlas, benchmark: Record) -> list[tuple[str, Decimal]]:
    """What a figure may restate: the value, the baseline's value, their difference (by magnitude)."""
    value = _decimal(benchmark.data.get("value"))
    bases = [b for b in (_decimal(v) for v in baseline_values(atlas.index, benchmark.data)) if b is not None]
    found = [("the value", value)] if value is not None else []
    for base in dict.fromkeys(bases):
        found.append(("the baseline", base))
        if value is not None:
            found.append(("their difference", value - base))
    return [(label, abs(number)) for label, number in found]


def _shows(figure: str, number: Decimal) -> bool:
    """True when the figure is the number rounded to the decimals the figure shows (either way at a tie)."""
    written = Decimal(figure.replace(",", ""))
    decimals = len(figure.partition(".")[2])
    return abs(written - number) <= Decimal(5).scaleb(-decimals - 1)


def check(atlas: Atlas, benchmark: Record) -> Iterator[Problem]:
    text = benchmark.data.get(FIELD)
    if not isinstance(text, str):
        return
    references = _references(atlas, benchmark)
    quotes = [citation["quote"] for path, citation in citations(benchmark)
              if isinstance(citation.get("quote"), str) and not _rejected(benchmark, path, citation)]
    seen: dict[str, int] = {}
    for _, figure in figures(text):
        nth = seen[figure] = seen.get(figure, -1) + 1
        if any(_shows(figure, number) for _, number in references):
            continue
        if any(stated(figure, quote) for quote in quotes):
            continue
        line, column = _position(benchmark, figure, nth)
        yield Problem(benchmark.path, line, column, NAME,
                      f"{FIELD}: {figure!r} {_restates_none(figure, references)}, and no quote of this record's "
                      f"citations states it; correct it against the source, or cite the passage that states it "
                      f"(a source with its locator and quote)")


def _rejected(benchmark: Record, path: tuple[Any, ...], citation: dict[str, Any]) -> bool:
    """Whether the citation backs a figure the record did not take: a `value` that is not the record's value (a seed's
    figure a source corrected), or a contested claim whose value is not the field's. A figure set aside is no figure
    for the summary to restate."""
    if path[0] == "contested":
        entry = benchmark.data["contested"][path[1]]
        return bool(entry["claims"][path[3]].get("value") != benchmark.data.get(entry.get("field")))
    return "value" in citation and bool(citation["value"] != benchmark.data.get("value"))


def _restates_none(figure: str, references: list[tuple[str, Decimal]]) -> str:
    if not references:
        return "restates no number of the record (it has neither value nor baseline value)"
    named = [f"{label} ({number})" for label, number in references]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]
    decimals = len(figure.partition(".")[2])
    shown = {0: "as the whole number it shows", 1: "at the one decimal it shows"}.get(
        decimals, f"at the {decimals} decimals it shows")
    return f"is not {listed} {shown}"


def _position(benchmark: Record, figure: str, nth: int) -> tuple[int, int]:
    return position_in_field(benchmark, FIELD, lambda raw: [offset for offset, written in figures(raw) if written == figure], nth)


def position_in_field(record: Record, field: str, offsets: Callable[[str], list[int]], nth: int) -> tuple[int, int]:
    """Line and column of the nth of the offsets `offsets` finds in the field's YAML text as written (folded lines and
    quotes included), or of the field itself when there are fewer."""
    node = next((value for key, value in record.node.value if key.value == field), None)
    if node is None:
        return record.position((field,))
    start = node.start_mark.index
    found = offsets(record.text[start:node.end_mark.index])
    if nth >= len(found):
        return node.start_mark.line + 1, node.start_mark.column + 1
    at = start + found[nth]
    return record.text.count("\n", 0, at) + 1, at - record.text.rfind("\n", 0, at)


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record:benchmark", check_record=check, stage=SHAPE)
