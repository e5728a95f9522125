"""A requirement that says where the model runs instead (`elsewhere`) is an `other` check with a `condition`, scoped
to platforms by `when`, that the engine neither declines on nor fails after selecting: the walk keeps its kernel and
says the same outcome on that device, so the condition must be stated and bound to the targets where the engine
places the model elsewhere. The check and condition may come from a runtime check of the engine the requirement
`uses` (a placement several kernels need, stated once)."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.runtime_checks import resolve_requirement, runtime_checks
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "elsewhere-placement"


def check(atlas: Atlas, kernel: Record) -> Iterator[Problem]:
    engine = atlas.index.get("engine", kernel.data.get("engine", ""))
    checks = runtime_checks(engine.data if engine else None)
    for n, stated in enumerate(kernel.data.get("requirements", [])):
        if "elsewhere" not in stated:
            continue
        # what the walk reads: a `uses` requirement takes its check and condition from the engine's runtime check
        requirement = resolve_requirement(stated, checks)
        missing = [what for what, ok in (
            ("check: other", requirement.get("check") == "other"),
            ("a condition", bool(requirement.get("condition"))),
            ("when.platform", bool((requirement.get("when") or {}).get("platform"))),
            ("no declines: false", requirement.get("declines") is not False),
            ("no after_selection", not requirement.get("after_selection")),
        ) if not ok]
        if missing:
            yield at(kernel, ("requirements", n, "elsewhere"), NAME,
                     f"says the model runs on {requirement['elsewhere']!r} when the condition does not hold, so the "
                     f"requirement needs {', '.join(missing)}: an `other` check whose condition is the placement "
                     f"(stated here or in the engine's runtime check it `uses`), scoped to the platforms where the "
                     f"engine places the model elsewhere, and kept, not declined or failed (remove `elsewhere`, or "
                     f"state the requirement so)")


CHECK = Check(NAME, __doc__.strip(), "record:kernel", check_record=check, stage=SHAPE)
