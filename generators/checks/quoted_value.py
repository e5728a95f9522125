"""A citation carrying `value` quotes the text that number appears in, and a primary source's value is the record's `value`.

The number must appear in `quote` verbatim in one of its usual textual forms (19.1 in "19.1 points",
22.0 as "22", 1234 as "1,234", the magnitude of a negative value whose sign the text says in words).
"""
from __future__ import annotations

import math
import re
from typing import Any
from collections.abc import Iterator

from ..derive.provenance import is_primary
from ..model.atlas import Atlas
from ..problems import Problem
from ..model.records import Record
from .base import SHAPE, Check, at

NAME = "quoted-value"


def textual_forms(value: float) -> list[str]:
    """The ways a text may write the number: as given, without a trailing .0, with thousands separators."""
    magnitude = abs(value)
    plain = repr(float(magnitude))
    forms = {plain}
    if plain.endswith(".0"):
        forms.add(plain[:-2])
    whole, _, fraction = (f"{magnitude:,.{len(plain.split('.')[1])}f}").partition(".")
    forms.add(whole + ("." + fraction if fraction.strip("0") else ""))
    return sorted(forms, key=lambda f: (-len(f), f))


def appears_in(value: float, quote: str) -> bool:
    """True when one of the number's textual forms stands in the quote as a whole number (2.5 matches "2.50x")."""
    for form in textual_forms(value):
        padding = "0*" if "." in form else ""
        if re.search(r"(?<![\d.,])" + re.escape(form) + padding + r"(?![\d]|[.,]\d)", quote):
            return True
    return False


def citations(record: Record) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Every citation of the record with its path: its sources, then the sources of its contested claims."""
    for n, citation in enumerate(record.data.get("sources", [])):
        yield ("sources", n), citation
    for n, entry in enumerate(record.data.get("contested", [])):
        for k, claim in enumerate(entry.get("claims", [])):
            for m, citation in enumerate(claim.get("sources", [])):
                yield ("contested", n, "claims", k, "sources", m), citation


_CITING: dict[tuple[int, str], tuple[Record, tuple[tuple[tuple[Any, ...], dict[str, Any]], ...]]] = {}
_EVERY: dict[int, tuple[Record, tuple[tuple[tuple[Any, ...], dict[str, Any]], ...]]] = {}  # (id of a record) -> citations


def citations_with(record: Record, field: str) -> tuple[tuple[tuple[Any, ...], dict[str, Any]], ...]:
    """The record's citations (as `citations` gives them) that carry `field`, kept per record object: the changelog
    checks several past trees whose records are mostly the same objects (record data never change once loaded), and
    walking every citation of every record was most of this check's cost and quoted_difference's in each tree."""
    key = (id(record), field)
    kept = _CITING.get(key)
    if kept is not None and kept[0] is record:  # (the entry holds the record, so its id is not another's)
        return kept[1]
    every = _EVERY.get(key[0])  # every citation, walked once for all the fields asked of this record
    if every is None or every[0] is not record:
        every = (record, tuple(citations(record)))
    found = tuple((path, citation) for path, citation in every[1] if field in citation)
    if len(_CITING) > 100_000:
        _CITING.clear()
        _EVERY.clear()
    _EVERY[key[0]] = every
    _CITING[key] = (record, found)
    return found


def run(atlas: Atlas) -> Iterator[Problem]:
    for kind in sorted(atlas.index.by_kind):
        for record in atlas.index.all(kind):
            for path, citation in citations_with(record, "value"):
                cited = citation["value"]
                quote = citation.get("quote")
                if quote is None:
                    yield at(record, path + ("value",), NAME,
                             f"cites {cited!r} from {citation['source']!r} without a quote; add the verbatim text that states it")
                elif not appears_in(cited, quote):
                    yield at(record, path + ("quote",), NAME,
                             f"the quote {quote!r} does not contain {cited!r}; quote the text that states the number verbatim")
                elif path[0] == "sources" and _differs(record.data.get("value"), cited) and is_primary(atlas.index, citation["source"]):
                    yield at(record, ("value",), NAME,
                             f"value {record.data['value']!r} differs from {cited!r} quoted from the primary source "
                             f"{citation['source']!r} at {'.'.join(map(str, path))}; publish the source's figure "
                             f"(keep the other as a contested claim)")


def _differs(value: Any, cited: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isclose(value, cited, rel_tol=1e-9, abs_tol=1e-12)


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record", run, stage=SHAPE)
