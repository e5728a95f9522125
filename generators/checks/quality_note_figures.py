"""Every figure in a format's quality note restates a benchmark of that format, a field of the format, or a quote.

A format's `quality_note` sums up, in prose, what the accuracy evidence says; the figures it repeats are stated with
their sources elsewhere: in a benchmark record whose `format` is this format or that the note names by its id (its
value, a baseline's value or their difference, as a benchmark's summary may write them), in the format's own
`bits_per_weight` values, or in a quote of one of the format's citations, of those benchmarks' citations (another row
of the quoted table) or of a finding the note names by its id (its evidence: a seed's figure the finding contradicts). A figure tied to
none of them is a copy that has drifted from its source, or a number without one: either way the site would show two
numbers for one fact. What counts as a figure (a number with a fractional part, thousands separators, a percent or
multiplication sign or a rate) and at which precision it ties are the rules of the benchmark summaries
(summary_figures.py); whether a difference is written with the right direction is not read here, as a note may
compare a format against several baselines at once.
"""
from __future__ import annotations

import re
from decimal import Decimal

from collections.abc import Callable, Iterator, Sequence

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check
from .quoted_value import citations
from .summary_figures import figures, numbers_in, position_in_field, recorded, restates, stated

NAME = "quality-note-figures"
FIELD = "quality_note"


_ID = re.compile(r"(?<![\w-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w-])")  # a record id as a note names one


def _benchmarks(atlas: Atlas, format_record: Record, text: str) -> list[Record]:
    """The benchmark records whose `format` is this format, then those the note names by id."""
    found = {}
    for link in atlas.index.backlinks.get(format_record.ref, []):
        kind, _, record_id = link.source.partition("/")
        if kind == "benchmark" and link.path == "format" and (record := atlas.index.get(kind, record_id)) is not None:
            found[record.ref] = record
    for record in named(atlas, text, "benchmark"):
        found.setdefault(record.ref, record)
    return list(found.values())


def named(atlas: Atlas, text: str, kind: str) -> list[Record]:
    """The records of the kind the text names by id."""
    return [record for name in dict.fromkeys(_ID.findall(text)) if (record := atlas.index.get(kind, name)) is not None]


def quotes_of(records: list[Record]) -> list[str]:
    """The quotes of the records' citations (a finding's evidence among them)."""
    found = []
    for record in records:
        cited = [citation for _, citation in citations(record)] + list(record.data.get("evidence") or [])
        found += [citation["quote"] for citation in cited if isinstance(citation.get("quote"), str)]
    return found


_ROLE = {"the value": "value", "the baseline": "baseline", "their difference": "difference from its baseline"}


def nearest(atlas: Atlas, figure: str, benchmarks: list[Record], quotes: list[str],
            facts: Sequence[tuple[Decimal, str]] = ()) -> str:
    """The recorded number closest to the figure and where it stands, for the message ('' when there is none); `facts`
    adds other recorded numbers with where they stand."""
    written = Decimal(figure.replace(",", ""))
    found = [(number, f"benchmark {benchmark.id}'s {_ROLE[label]}")
             for benchmark in benchmarks for label, number in recorded(atlas, benchmark)]
    found += [(number, "a quote") for quote in quotes for number in numbers_in(quote)] + list(facts)
    if not found:
        return ""
    number, where = min(found, key=lambda item: (abs(item[0] - written), item[1]))
    shown = number.normalize()  # without trailing zeros, but a whole number written with a decimal keeps one (9.0)
    written_whole = int(number.as_tuple().exponent) < 0 and shown == shown.to_integral_value()
    return f" (the nearest recorded number is {shown:.1f}, {where})" if written_whole else \
        f" (the nearest recorded number is {shown:f}, {where})"


def _own_values(format_record: Record) -> list[str]:
    """The format's bits_per_weight values, written as numbers."""
    return [repr(item["value"]) for item in format_record.data.get("bits_per_weight") or []
            if isinstance(item.get("value"), (int, float)) and not isinstance(item.get("value"), bool)]


def check(atlas: Atlas, format_record: Record) -> Iterator[Problem]:
    text = format_record.data.get(FIELD)
    if not isinstance(text, str):
        return
    benchmarks = _benchmarks(atlas, format_record, text)
    quotes = quotes_of([format_record, *benchmarks, *named(atlas, text, "finding")]) + _own_values(format_record)
    seen: dict[str, int] = {}
    for _, written in figures(text):
        nth = seen[written] = seen.get(written, -1) + 1
        if any(restates(atlas, benchmark, written) for benchmark in benchmarks):
            continue
        if any(stated(written, quote) for quote in quotes):
            continue
        ids = listed([benchmark.id for benchmark in benchmarks])
        line, column = position_in_field(format_record, FIELD, finder(written), nth)
        closest = nearest(atlas, written, benchmarks, quotes)
        yield Problem(format_record.path, line, column, NAME,
                      f"{FIELD}: {written!r} is no value, baseline or difference of this format's or the named "
                      f"benchmarks ({ids}), no bits_per_weight value, and no quote of the format's, those "
                      f"benchmarks' or a named finding's citations states it{closest}; state the figure once (a "
                      f"benchmark record, or a citation with its locator and quote) and make the note say what it says")


def listed(ids: list[str], shown: int = 3) -> str:
    """The first few ids, and how many more there are."""
    if not ids:
        return "none"
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more


def finder(figure: str) -> Callable[[str], list[int]]:
    return lambda raw: [offset for offset, written in figures(raw) if written == figure]


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record:format", check_record=check, stage=SHAPE)
