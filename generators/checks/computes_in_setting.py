"""A setting that chooses what a kernel multiplies in (`computes_in.setting`) agrees with the precision it states: its
default gives `computes_in.precision`, and each other value is another float dtype the multiply can run in."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.route_computes import PRECISION_OF
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
    if PRECISION_OF.get(default) != stated["precision"]:
        given = PRECISION_OF.get(default, "no float precision")
        yield at(kernel, ("computes_in", "setting", "default"), NAME,
                 f"{setting['name']} defaults to {default!r}, which multiplies in {given}, but computes_in.precision "
                 f"says {stated['precision']!r}; state the precision the default gives")
    for n, value in enumerate(setting["values"]):
        if value == default:
            yield at(kernel, ("computes_in", "setting", "values", n), NAME,
                     f"{value!r} is the default; values lists only the others")
        elif value not in PRECISION_OF:
            yield at(kernel, ("computes_in", "setting", "values", n), NAME,
                     f"{value!r} is not a float dtype a multiply runs in (expected one of: "
                     f"{', '.join(PRECISION_OF)})")


CHECK = Check(NAME, __doc__.strip(), "record:kernel", check_record=check, stage=SHAPE)
