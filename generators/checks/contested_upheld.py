"""A resolved contest names the claim it upholds, that claim is the record's value, and its finding exists.

The rule: where the sources contradict each other a finding settles which claim stands (`resolution`), the
contest names that claim (`upheld`, its position in `claims`), and the record states the upheld value as the
value, so the page never shows one figure as the value and settles the contest for another. Compared:
- `field` is a field of the record: its value (for a list of sourced figures, every figure's `value`) equals the
  upheld claim's value; a losing figure left in the list is reported, since the site would show both as the value.
- `field` is `peak_compute <precision> <sparsity>` (the label the accelerator records use): every peak_compute
  entry of that precision and sparsity states the upheld figure in `tflops`; a label that matches no entry is
  reported, since a misspelt precision (fp4 where the record says mxfp4) would otherwise compare nothing.
Not compared: a field whose value is of another type than the claims (a group size of 128 against sentences
about it, an install route against a sentence): the claims there describe the field rather than restate it.
`upheld` must name one of the claims, and the resolution must name a finding record.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "contested-upheld"
PEAK_LABEL = "peak_compute"


def run(atlas: Atlas) -> Iterator[Problem]:
    for kind in sorted(atlas.index.by_kind):
        for record in atlas.index.all(kind):
            for n, entry in enumerate(record.data.get("contested", [])):
                yield from _check_entry(atlas, record, n, entry)


def _check_entry(atlas: Atlas, record: Record, n: int, entry: dict[str, Any]) -> Iterator[Problem]:
    finding_id, upheld = entry.get("resolution"), entry.get("upheld")
    if finding_id is None or upheld is None:
        return  # the schema requires both or neither
    if atlas.index.get("finding", finding_id) is None:
        yield at(record, ("contested", n, "resolution"), NAME,
                 f"no finding {finding_id!r} settles this contest; name an existing finding or drop the resolution")
    if upheld >= len(entry["claims"]):
        yield at(record, ("contested", n, "upheld"), NAME,
                 f"upheld is {upheld} but the contest has {len(entry['claims'])} claims (counted from 0)")
        return
    value = entry["claims"][upheld]["value"]
    stated_list = stated_values(record, entry["field"])
    if not stated_list and _peak_label(entry["field"]):
        yield at(record, ("contested", n, "field"), NAME,
                 f"names {entry['field']!r} but the record states no peak_compute entry of that precision and "
                 f"sparsity, so the upheld {value!r} is compared with nothing; use the precision the entry states")
    for path, stated in stated_list:
        if _comparable(stated, value) and stated != value:
            yield at(record, path, NAME,
                     f"states {stated!r} but contest {entry['field']!r} upholds {value!r} (claim {upheld}, settled by "
                     f"{finding_id}); state the upheld value here and keep the other as a claim, or correct `upheld`")


def stated_values(record: Record, field: str) -> list[tuple[tuple[Any, ...], Any]]:
    """Where the record itself states the contested value, with each value: the field, each sourced figure of a
    list field, or each matching peak_compute entry; empty when the contest names a fact the record states in prose."""
    data = record.data
    if field in data:
        value = data[field]
        if isinstance(value, list) and value and all(isinstance(v, dict) and "value" in v for v in value):
            return [((field, k, "value"), v["value"]) for k, v in enumerate(value)]
        return [((field,), value)]
    words = _peak_label(field)
    if words:
        return [((PEAK_LABEL, k, "tflops"), p["tflops"]) for k, p in enumerate(data.get(PEAK_LABEL, []))
                if (p.get("precision"), p.get("sparsity")) == (words[1], words[2])]
    return []


def _peak_label(field: str) -> list[str]:
    """The words of a 'peak_compute <precision> <sparsity>' label, or [] for any other field name."""
    words = field.split()
    return words if len(words) == 3 and words[0] == PEAK_LABEL else []


def _comparable(stated: Any, claimed: Any) -> bool:
    number = (int, float)
    if isinstance(stated, bool) or isinstance(claimed, bool):
        return isinstance(stated, bool) and isinstance(claimed, bool)
    if isinstance(stated, number) and isinstance(claimed, number):
        return True
    return type(stated) is type(claimed)


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "tree", run, stage=SHAPE)
