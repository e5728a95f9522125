"""Only an informational external gate says what a reader also needs (`needs`): an `excludes` or `requires` gate
decides the verdict, and the answer says it as a reason."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "gate-needs"


def check(atlas: Atlas, kernel: Record) -> Iterator[Problem]:
    for n, gate in enumerate(kernel.data.get("external_gates", [])):
        if gate.get("needs") and gate["effect"] != "informational":
            yield at(kernel, ("external_gates", n, "needs"), NAME,
                     f"a gate with effect {gate['effect']!r} decides the verdict, and the answers say it as a reason; "
                     f"`needs` belongs on an informational gate (remove it, or make the gate informational)")


CHECK = Check(NAME, __doc__.strip(), "record:kernel", check_record=check, stage=SHAPE)
