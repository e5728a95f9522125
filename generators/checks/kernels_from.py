"""An engine that runs another engine's kernels (`kernels_from`) names another engine, one whose `version_read` (the
release its kernel records describe) satisfies the stated `requirement`, and runs no kernels of its own: a kernel
record of this engine would be a second copy of what the named engine's records state."""
from __future__ import annotations

import re
from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "kernels-from"

_CLAUSE = re.compile(r"\s*(==|!=|>=|<=|>|<)\s*([0-9]+(?:\.[0-9]+)*)\s*")
_RELEASE = re.compile(r"v?([0-9]+(?:\.[0-9]+)*)")


def _numbers(version: str) -> tuple[int, ...]:
    parts = [int(p) for p in version.split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()  # 1.31.0 == 1.31
    return tuple(parts)


def satisfies(release: str, requirement: str) -> bool | None:
    """Whether a numeric release (1.32.0, or v1.32.0) meets every comparison of a requirement (>=1.31.0,<2); None
    where the release is not a numeric version or the requirement has a clause this does not read."""
    found = _RELEASE.fullmatch(release.strip())
    if found is None:
        return None
    have = _numbers(found.group(1))
    for clause in requirement.split(","):
        parsed = _CLAUSE.fullmatch(clause)
        if parsed is None:
            return None
        op, want = parsed.group(1), _numbers(parsed.group(2))
        ok = {"==": have == want, "!=": have != want, ">=": have >= want, "<=": have <= want,
              ">": have > want, "<": have < want}[op]
        if not ok:
            return False
    return True


def check(atlas: Atlas, engine: Record) -> Iterator[Problem]:
    relation = engine.data.get("kernels_from")
    if not relation:
        return
    other_id = relation["engine"]
    if other_id == engine.id:
        yield at(engine, ("kernels_from", "engine"), NAME,
                 "an engine cannot run its own kernels as another's; name the other engine or remove kernels_from")
        return
    other = atlas.index.get("engine", other_id)
    if other is None:
        return  # a dangling id is the link stage's error
    release = other.data.get("version_read")
    if not release:
        yield at(engine, ("kernels_from", "engine"), NAME,
                 f"engine {other_id!r} states no `version_read`, so nothing says which of its releases its kernel "
                 f"records describe; state it there")
    else:
        met = satisfies(str(release), relation["requirement"])
        if met is None:
            yield at(engine, ("kernels_from", "requirement"), NAME,
                     f"cannot compare {other_id!r}'s version_read {release!r} with {relation['requirement']!r}; "
                     f"write both as numeric versions")
        elif not met:
            yield at(engine, ("kernels_from", "requirement"), NAME,
                     f"{engine.id!r} requires {other_id} {relation['requirement']}, but the kernel records of "
                     f"{other_id!r} describe its release {release}, which does not satisfy it; read {other_id!r}'s kernels at a "
                     f"release that does (and state it as its version_read), or correct the requirement")
    own = sorted(k.id for k in atlas.index.all("kernel") if k.data.get("engine") == engine.id)
    if own:
        yield at(engine, ("kernels_from",), NAME,
                 f"kernel records {', '.join(own)} belong to {engine.id!r}, which runs the kernels of "
                 f"{other_id!r}; list the kernel records of {other_id!r} in its schemes instead")


CHECK = Check(NAME, __doc__.strip(), "record:engine", check_record=check, stage=SHAPE)
