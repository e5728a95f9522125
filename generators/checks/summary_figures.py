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

A figure that is the difference and neither the value nor a baseline also says which way it goes, when the prose gives
it a direction, and that direction must be the sign of value minus baseline (the difference being 0 at the figure's
precision, any direction passes): an explicit sign (+0.03, -4.2, −4.2) and a direction word in the words right after
it (units such as points or ppl between them: "4.2 points below", "a 2.1-point drop") or right before it ("by", "of",
"a", "about" and the like between them: "drops by 4.2", "a loss of 4.2"), with no comma, parenthesis or other
punctuation in between. Higher, above, up, more, increase, rise and jump say the value is above the baseline; lower,
below, under, down, less, decrease, drop and fall that it is beneath it. Better, gain, improvement and ahead say it is
better, worse, loss, degradation, regression, short, behind and trails that it is worse, which is above or beneath as
the record's `higher_is_better` says; a record that does not state it has these words unchecked. Within, gap,
difference and apart say no direction. The direction is the result's: prose that says the baseline is 4.2 higher is
written as the result being 4.2 lower. The quote that may also state the figure does not change what the difference's
sign is, so it is compared all the same. Such a figure with a percent sign, where the record's unit is not a percent
and no quote states the figure, is a difference in the record's unit written as if it were a relative change (2.1% for
a 2.1-point loss), and a multiplication sign on a difference (2.1x) is no difference either: both are errors. Value
and baseline are not swapped: in "A against B", "A versus B", "A vs B", "A compared with B" or "A relative to B" (two
figures with that connective between them and no other figure) A is read as the result and B as what it is compared
with, and in "from A to B" A as the baseline and B as the result; a pair whose first figure is a baseline and not the
value, and whose second is the value and not a baseline (the other way round for "from ... to"), is an error at its
first figure. Prose that puts the baseline first says so in words ("FP8 scores 81% and NVFP4 80%") rather than with
one of those connectives.

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
from typing import Any, NamedTuple
from decimal import Decimal
from collections.abc import Callable, Iterator

from ..derive.baseline import as_decimal, baseline_values
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
_FIGURE = re.compile(rf"([~≈+±−-]?)({_NUMBER})(%|x|×)?(?:-[a-z]+)*")  # -0.5, 91%, 4x, 2.9-point
_RANGE = re.compile(rf"(?:{_NUMBER})(?:[-–](?:{_NUMBER}))+")  # 0.5-1.0 (and 25-50, 2026-12-02: no figure in them)
_DIGIT = re.compile(r"\d")  # (what _NUMBER's digits match)
_RATE = re.compile(r"\s*(?:tokens per second|tok(?:en)?s?/s|t/s)\b")  # 179 tokens per second, 207 t/s
_LABEL = re.compile(r"(?:arxiv|table|figure|fig\.|section|appendix|eq\.|equation)\W*$", re.I)  # arXiv 2306.00978, Table 4.2

# Which way a difference goes: +1 the value above the baseline, -1 beneath it; "better"/"worse" words go the way
# the record's higher_is_better says.
_ABOVE = {"higher", "above", "up", "more", "increase", "increases", "increased", "rise", "rises", "rose", "jump",
          "jumps", "jumped"}
_BENEATH = {"lower", "below", "under", "down", "less", "fewer", "decrease", "decreases", "decreased", "drop", "drops",
            "dropped", "fall", "falls", "fell"}
_BETTER = {"better", "gain", "gains", "gained", "improvement", "improvements", "improves", "improved", "ahead"}
_WORSE = {"worse", "loss", "losses", "lose", "loses", "lost", "degradation", "degrades", "degraded", "regression",
          "short", "behind", "trails", "trail", "trailing"}
_AFTER = {"point", "points", "pt", "pts", "pp", "percentage", "percent", "ppl", "perplexity", "accuracy", "average",
          "absolute"}  # words that may stand between a figure and the direction word after it
_BEFORE = {"by", "of", "a", "an", "about", "around", "roughly", "nearly", "almost", "only", "just", "merely", "some",
           "approximately"}  # words that may stand between the direction word before a figure and the figure
_NEXT_WORD = re.compile(r"[ \t\n\-–]+([A-Za-z]+)")
_PREVIOUS_WORD = re.compile(r"([A-Za-z]+)[ \t\n\-–]+$")
_VERSUS = re.compile(r"\b(?:against|versus|vs|compared (?:with|to)|relative to)\b", re.I)  # result, then baseline
_FROM = re.compile(r"\bfrom\s+$", re.I)  # from baseline ...
_TO = re.compile(r"(?:\s+[A-Za-z]+)?\s+to\s+")  # ... to result (one unit word between: from 7.72 ppl to 8.1)


class Figure(NamedTuple):
    """A figure as the summary writes it: where its number starts and its word ends, the number without sign or
    unit, its explicit sign ('+', '-' or '') and its unit ('%', 'x', 'rate' or '')."""
    offset: int
    number: str
    sign: str
    unit: str
    start: int
    end: int


def _words(text: str) -> Iterator[Figure]:
    """Each number that stands as a word of its own (the unit and sign of a range's ends are left empty)."""
    for token in _TOKEN.finditer(text):
        if _DIGIT.search(token.group(0)) is None:
            continue  # (a figure has a digit: most words are passed over without the label's search)
        if _LABEL.search(text, max(0, token.start() - 12), token.start()):
            continue
        word = token.group(0).rstrip(".,")
        start, end = token.start(), token.start() + len(word)
        if _RANGE.fullmatch(word):  # each end on its own, without a unit
            for m in re.finditer(_NUMBER, word):
                yield Figure(start + m.start(), m.group(0), "", "", start, end)
        elif (match := _FIGURE.fullmatch(word)) is not None:
            unit = {"%": "%", "x": "x", "×": "x"}.get(match.group(3) or "", "")
            if not unit and _RATE.match(text, token.end()) is not None:
                unit = "rate"
            sign = {"+": "+", "-": "-", "−": "-"}.get(match.group(1), "")
            yield Figure(start + match.start(2), match.group(2), sign, unit, start, end)


def _figures(text: str) -> Iterator[Figure]:
    for word in _words(text):
        if word.unit or "." in word.number or "," in word.number:
            yield word


def figures(text: str) -> Iterator[tuple[int, str]]:
    """(offset, number as written, without its sign or unit) for each figure in the text."""
    for figure in _figures(text):
        yield figure.offset, figure.number


def stated(figure: str, quote: str) -> bool:
    """True when the quote states the figure's number as a word of its own, at any precision it writes (4.0 as "4"
    or "4.0", 2.5 as "2.50x", 1234 as "1,234"); digits inside a name state nothing (llama2-70b-99 is no 99, W4A16 no
    4), as in the summary."""
    return Decimal(figure.replace(",", "")) in numbers_in(quote)


class _Numbers(NamedTuple):
    """The record's value and its baselines' values."""
    value: Decimal | None
    bases: list[Decimal]

    @property
    def differences(self) -> list[tuple[Decimal, Decimal]]:
        """(baseline, value minus baseline) for each baseline."""
        return [(base, self.value - base) for base in self.bases] if self.value is not None else []

    def labelled(self) -> list[tuple[str, Decimal]]:
        """What a figure may restate: the value, each baseline's value and their difference (by magnitude)."""
        found = [("the value", self.value)] if self.value is not None else []
        for base in self.bases:
            found.append(("the baseline", base))
            if self.value is not None:
                found.append(("their difference", self.value - base))
        return [(label, abs(number)) for label, number in found]

    def roles(self, figure: str) -> tuple[bool, bool]:
        """Whether the figure shows the value, and whether it shows a baseline's value."""
        return (self.value is not None and shows(figure, abs(self.value)),
                any(shows(figure, abs(base)) for base in self.bases))

    def only_difference(self, figure: str) -> list[tuple[Decimal, Decimal]]:
        """The (baseline, difference) pairs the figure shows, when it shows neither the value nor a baseline."""
        if any(self.roles(figure)):
            return []
        return [(base, difference) for base, difference in self.differences if shows(figure, abs(difference))]


def restates(atlas: Atlas, benchmark: Record, figure: str) -> bool:
    """True when the figure shows the benchmark's value, a baseline's value or their difference, at the precision it
    is written with."""
    return any(shows(figure, number) for _, number in recorded(atlas, benchmark))


def recorded(atlas: Atlas, benchmark: Record) -> list[tuple[str, Decimal]]:
    """What a figure may restate of the benchmark: ('the value', its value), each baseline's value and their
    difference (by magnitude)."""
    return _numbers(atlas, benchmark).labelled()


def numbers_in(quote: str) -> list[Decimal]:
    """The numbers the quote states as words of their own (what `stated` compares a figure with)."""
    return [Decimal(word.number.replace(",", "")) for word in _words(quote)]


def _numbers(atlas: Atlas, benchmark: Record) -> _Numbers:
    bases = [b for b in (as_decimal(v) for v in baseline_values(atlas.index, benchmark.data)) if b is not None]
    return _Numbers(as_decimal(benchmark.data.get("value")), list(dict.fromkeys(bases)))


def shows(figure: str, number: Decimal) -> bool:
    """True when the figure is the number rounded to the decimals the figure shows (either way at a tie)."""
    written = Decimal(figure.replace(",", ""))
    decimals = len(figure.partition(".")[2])
    return abs(written - number) <= Decimal(5).scaleb(-decimals - 1)


def _direction_word(text: str, figure: Figure) -> str | None:
    """The direction word right after the figure (units between them) or right before it (by, of, a ... between)."""
    after = _words_from(lambda at: _NEXT_WORD.match(text, at), figure.end, forward=True)
    before = _words_from(lambda at: _PREVIOUS_WORD.search(text, max(0, at - 40), at), figure.start, forward=False)
    return _first_direction(after, _AFTER) or _first_direction(before, _BEFORE)


def _words_from(next_word: Callable[[int], re.Match[str] | None], at: int, forward: bool) -> Iterator[str]:
    """The words one after another from `at`, forward or backward, each as next_word finds it (lower case)."""
    while (match := next_word(at)) is not None:
        yield match.group(1).lower()
        at = match.end() if forward else match.start()


def _first_direction(words: Iterator[str], skipped: set[str]) -> str | None:
    """The first direction word among the words, passing over those in `skipped` (units, 'by', 'a'); None at any
    other word."""
    for word in words:
        if word in _ABOVE or word in _BENEATH or word in _BETTER or word in _WORSE:
            return word
        if word not in skipped:
            return None
    return None


def _claims(text: str, figure: Figure, higher_is_better: object) -> list[tuple[str, int, bool]]:
    """(what says it, +1 above or -1 beneath the baseline, whether it says better or worse rather than above or
    beneath) for the figure's sign and its direction word."""
    found = []
    if figure.sign:
        found.append((f"its sign ({figure.sign})", 1 if figure.sign == "+" else -1, False))
    word = _direction_word(text, figure)
    if word in _ABOVE or word in _BENEATH:
        found.append((f"'{word}'", 1 if word in _ABOVE else -1, False))
    elif (word in _BETTER or word in _WORSE) and isinstance(higher_is_better, bool):
        found.append((f"'{word}'", 1 if (word in _BETTER) == higher_is_better else -1, True))
    return found


def _direction_problems(text: str, figure: Figure, numbers: _Numbers, higher_is_better: object) -> Iterator[str]:
    """Why a figure that is only the difference says the wrong direction."""
    matching = numbers.only_difference(figure.number)
    if not matching or shows(figure.number, Decimal(0)):
        return
    for cue, direction, quality in _claims(text, figure, higher_is_better):
        if any(difference * direction > 0 for _, difference in matching):
            continue
        base = matching[0][0]
        if quality:
            said, actual = ("better than", "worse") if (direction > 0) == higher_is_better else ("worse than", "better")
            metric = f"; {'higher' if higher_is_better else 'lower'} is better"
        else:
            said, actual, metric = ("above", "beneath it", "") if direction > 0 else ("beneath", "above it", "")
        yield (f"{cue} says the value is {said} the baseline, and it is {actual} ({numbers.value} against {base}"
               f"{metric}); give the difference the direction of value minus baseline")


def _unit_problem(figure: Figure, numbers: _Numbers, unit: object, quoted: bool) -> str | None:
    """Why a figure that is only the difference carries a unit no difference of the record's has."""
    if not numbers.only_difference(figure.number):
        return None
    if figure.unit == "x":
        return "a multiplication sign makes it a ratio, not a difference; write the difference in the record's unit"
    if figure.unit == "%" and str(unit).strip().lower() not in ("%", "percent") and not quoted:
        return (f"the difference is in {unit}, not a percent (a relative change is another number); write it in "
                f"{unit}, or cite the passage that states the relative change")
    return None


def _pairs(text: str, found: list[Figure]) -> Iterator[tuple[Figure, Figure, bool]]:
    """(first, second, whether the first is read as the result) for two figures with a connective between them."""
    for first, second in zip(found, found[1:]):
        between = text[first.end:second.start]
        if _VERSUS.search(between) and not re.search(r"(?<!\bvs)[.;]\s", between):
            yield first, second, True
        elif _FROM.search(text, 0, first.start) and _TO.fullmatch(between):
            yield first, second, False


def check(atlas: Atlas, benchmark: Record) -> Iterator[Problem]:
    text = benchmark.data.get(FIELD)
    if not isinstance(text, str):
        return
    numbers = _numbers(atlas, benchmark)
    references = numbers.labelled()
    quotes = [citation["quote"] for path, citation in citations(benchmark)
              if isinstance(citation.get("quote"), str) and not _rejected(benchmark, path, citation)]
    found = list(_figures(text))
    swapped = {first.offset: (second, result_first) for first, second, result_first in _pairs(text, found)
               if _swapped(first, second, result_first, numbers)}
    seen: dict[str, int] = {}
    for figure in found:
        written = figure.number
        nth = seen[written] = seen.get(written, -1) + 1
        quoted = any(stated(written, quote) for quote in quotes)
        messages = []
        if not any(shows(written, number) for _, number in references) and not quoted:
            messages.append(f"{written!r} {_restates_none(written, references)}, and no quote of this record's "
                            f"citations states it; correct it against the source, or cite the passage that states it "
                            f"(a source with its locator and quote)")
        for why in _direction_problems(text, figure, numbers, benchmark.data.get("higher_is_better")):
            messages.append(f"{figure.sign + written!r} is their difference, but {why}")
        if (why_unit := _unit_problem(figure, numbers, benchmark.data.get("unit"), quoted)) is not None:
            messages.append(f"{written + figure.unit!r} is their difference, but {why_unit}")
        if figure.offset in swapped:
            second, result_first = swapped[figure.offset]
            order = (f"'{written} against {second.number}' reads as the result against what it is compared with"
                     if result_first else
                     f"'from {written} to {second.number}' reads as from the baseline to the result")
            roles = ("the baseline", "the value") if result_first else ("the value", "the baseline")
            messages.append(f"{written!r} is {roles[0]} and {second.number!r} {roles[1]}, but {order}; swap them, "
                            f"or say in words which is which")
        for message in messages:
            line, column = _position(benchmark, written, nth)
            yield Problem(benchmark.path, line, column, NAME, f"{FIELD}: {message}")


def _swapped(first: Figure, second: Figure, result_first: bool, numbers: _Numbers) -> bool:
    """Whether the pair puts a baseline, and not the value, where the result is read, and the value, and no
    baseline, where what it is compared with is read."""
    result, compared = (first, second) if result_first else (second, first)
    return numbers.roles(result.number) == (False, True) and numbers.roles(compared.number) == (True, False)


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
