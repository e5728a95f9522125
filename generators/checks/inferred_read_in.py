"""Each source a kernel requirement marked `inferred` was read in (`read_in`) is cited in the kernel's own `sources`
with a locator: an answer that runs on the step names the source and says where in it the step stands from that
citation, so a source not cited there would be named without saying where, and its citation kept nowhere."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "inferred-read-in"


def check(atlas: Atlas, kernel: Record) -> Iterator[Problem]:
    located = {c["source"] for c in kernel.data.get("sources", []) if c.get("locator")}
    for n, requirement in enumerate(kernel.data.get("requirements", [])):
        for m, source in enumerate(requirement.get("read_in", [])):
            if source not in located:
                yield at(kernel, ("requirements", n, "read_in", m), NAME,
                         f"{source!r} is not cited with a locator in this kernel's `sources`; cite it there with "
                         f"where in it the step stands (the answer says that locator)")


CHECK = Check(NAME, __doc__.strip(), "record:kernel", check_record=check, stage=SHAPE)
