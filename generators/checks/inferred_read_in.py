"""Each source a step marked `inferred` was read in (`read_in`: of a kernel requirement, or of a scheme's candidate
list) is cited with a locator, in the kernel's own `sources` (in the list's or the scheme's for a list): an answer that
runs on the step names the source and says where in it the step stands from that citation, so a source not cited there
would be named without saying where, and its citation kept nowhere."""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "inferred-read-in"


def check(atlas: Atlas, record: Record) -> Iterator[Problem]:
    if record.kind == "scheme":
        for n, candidates in enumerate(record.data.get("candidates", [])):
            yield from _uncited(record, ("candidates", n), candidates,
                                [*candidates.get("sources", []), *record.data.get("sources", [])], "the list's or the scheme's")
        return
    for n, requirement in enumerate(record.data.get("requirements", [])):
        yield from _uncited(record, ("requirements", n), requirement, record.data.get("sources", []), "this kernel's")


def _uncited(record: Record, path: tuple[str | int, ...], step: Mapping[str, Any],
             citations: Iterable[Mapping[str, Any]], whose: str) -> Iterator[Problem]:
    located = {c["source"] for c in citations if c.get("locator")}
    for m, source in enumerate(step.get("read_in", [])):
        if source not in located:
            yield at(record, (*path, "read_in", m), NAME,
                     f"{source!r} is not cited with a locator in {whose} `sources`; cite it there with where in it the "
                     f"step stands (the answer says that locator)")


CHECK = Check(NAME, __doc__.strip(), "record:kernel,scheme", check_record=check, stage=SHAPE)
