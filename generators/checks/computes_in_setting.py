"""A setting that chooses what a kernel multiplies in (`computes_in.setting`) agrees with the precision it states: its
default gives `computes_in.precision`, each other value is a float dtype the multiply can run in or an integer level
whose precision `precisions` states (one entry for each integer value, the default's included, and none for a value
the setting does not take), and each value a tool writes (`written_by`) is one the setting takes."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.route_computes import PRECISION_OF, setting_precision
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "computes-in-setting"


def check(atlas: Atlas, kernel: Record) -> Iterator[Problem]:
    stated = kernel.data.get("computes_in") or {}
    setting = stated.get("setting")
    if not setting:
        return
    default = setting["default"]
    taken = [default, *setting["values"]]
    given = setting_precision(setting, default)
    if given != stated["precision"]:
        yield at(kernel, ("computes_in", "setting", "default"), NAME,
                 f"{setting['name']} defaults to {default!r}, which multiplies in {given or 'no precision the record states'}, "
                 f"but computes_in.precision says {stated['precision']!r}; state the precision the default gives")
    for n, value in enumerate(setting["values"]):
        if value == default:
            yield at(kernel, ("computes_in", "setting", "values", n), NAME,
                     f"{value!r} is the default; values lists only the others")
        elif not setting_precision(setting, value):
            yield at(kernel, ("computes_in", "setting", "values", n), NAME,
                     f"{value!r} is not a float dtype a multiply runs in (expected one of: {', '.join(PRECISION_OF)}) "
                     f"nor an integer level with an entry in precisions")
    seen: set[int] = set()
    for n, entry in enumerate(setting.get("precisions", [])):
        if entry["value"] not in taken or isinstance(entry["value"], bool):
            yield at(kernel, ("computes_in", "setting", "precisions", n, "value"), NAME,
                     f"{entry['value']!r} is neither the default nor one of values")
        elif entry["value"] in seen:
            yield at(kernel, ("computes_in", "setting", "precisions", n, "value"), NAME,
                     f"{entry['value']!r} has two entries")
        seen.add(entry["value"])
    for n, written in enumerate(setting.get("written_by", [])):
        if written["value"] not in taken:
            yield at(kernel, ("computes_in", "setting", "written_by", n, "value"), NAME,
                     f"{written['writer']} writes {written['value']!r}, which is neither the default nor one of values")


CHECK = Check(NAME, __doc__.strip(), "record:kernel", check_record=check, stage=SHAPE)
