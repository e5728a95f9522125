"""Every memory, bandwidth, power or peak figure an accelerator's summary states is a value of the field its unit names.

An accelerator's summary introduces the part in prose ("Ampere datacenter card with 24 GB GDDR6"); the figures it
repeats are stated, with their sources, in `memory_gb` (GB, TB), `memory_bandwidth_gbs` (GB/s, TB/s), `power_w` (W)
and `peak_compute` (TFLOPS, PFLOPS). A figure in the prose that is none of that field's values is a copy that has
drifted from the sourced figure, or a figure with no source: either way the site would show two numbers for one fact.
A figure is a number directly followed by one of those units (a space between them or not); a figure that is not a
whole-part fact (64 GB beside each of two dies) is written so it is one, or left out of the summary.
"""
from __future__ import annotations

import re
from decimal import Decimal
from collections.abc import Callable, Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check
from .summary_figures import position_in_field

NAME = "accelerator-summary-figures"
FIELD = "summary"
# unit -> (the field whose values it restates, how many of the field's unit one of it is)
UNITS = {"GB/s": ("memory_bandwidth_gbs", 1), "TB/s": ("memory_bandwidth_gbs", 1000), "GB": ("memory_gb", 1),
         "TB": ("memory_gb", 1000), "W": ("power_w", 1), "TFLOPS": ("peak_compute", 1), "PFLOPS": ("peak_compute", 1000)}
_FIGURE = re.compile(r"(?<![\w.,/-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(GB/s|TB/s|GB|TB|W|TFLOPS|PFLOPS)(?![\w/])")


def figures(text: str) -> Iterator[tuple[int, str, str]]:
    """(offset, number as written, unit) for each figure with a unit in the text."""
    for match in _FIGURE.finditer(text):
        yield match.start(), match.group(1) + (match.group(2) or ""), match.group(3)


def _values(accelerator: Record, field: str) -> list[Decimal]:
    key = "tflops" if field == "peak_compute" else "value"
    return [Decimal(repr(item[key])) for item in accelerator.data.get(field) or []
            if isinstance(item.get(key), (int, float)) and not isinstance(item.get(key), bool)]


def check(atlas: Atlas, accelerator: Record) -> Iterator[Problem]:
    text = accelerator.data.get(FIELD)
    if not isinstance(text, str):
        return
    seen: dict[tuple[str, str], int] = {}
    for _, number, unit in figures(text):
        nth = seen[number, unit] = seen.get((number, unit), -1) + 1
        field, scale = UNITS[unit]
        stated = Decimal(number.replace(",", "")) * scale
        values = _values(accelerator, field)
        if stated in values:
            continue
        listed = ", ".join(sorted({f"{v.normalize():f}" for v in values})) or "none"
        line, column = position_in_field(accelerator, FIELD, _finder(number, unit), nth)
        yield Problem(accelerator.path, line, column, NAME,
                      f"{FIELD}: '{number} {unit}' is not one of the values {field} states ({listed}); state the "
                      f"figure once, in {field} with its source, and make the summary say what that field says")


def _finder(number: str, unit: str) -> Callable[[str], list[int]]:
    return lambda raw: [offset for offset, written, written_unit in figures(raw) if (written, written_unit) == (number, unit)]


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record:accelerator", check_record=check, stage=SHAPE)
