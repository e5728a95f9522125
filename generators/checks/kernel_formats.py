"""A kernel that lists formats lists every format it computes in a derived cell: its `formats` are a claim the cells check.

Where the engine selects a kernel for a scheme and the scheme's own arithmetic runs (runs, or runs if), the kernel
computes in the scheme's formats, so a kernel's own list that leaves one out contradicts the derivation. A fallback
computes at another precision and a kernel that fails at run time computes nothing, so neither says what it lists.
Excepted: a format whose regime is `mixed` (a checkpoint container such as compressed-tensors, which holds several
regimes and names no arithmetic). A kernel that lists no formats states nothing to contradict; its page shows the
derived uses anyway.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import VIEWS, Check, at

NAME = "kernel-formats"
CONTAINER_REGIME = "mixed"


def check(atlas: Atlas, kernel: Record) -> Iterator[Problem]:
    listed = kernel.data.get("formats", [])
    if not listed:
        return
    missing: dict[str, str] = {}  # format id -> the first scheme that needs it
    for use in atlas.views.kernel_uses.get(kernel.id, []):
        scheme = atlas.index.get("scheme", use.scheme)
        if scheme is None or not use.verdict.runs_as_specified:
            continue
        for format_id in scheme.data.get("formats", []):
            fmt = atlas.index.get("format", format_id)
            if format_id not in listed and (fmt is None or fmt.data.get("regime") != CONTAINER_REGIME):
                missing.setdefault(format_id, scheme.id)
    for format_id, scheme_id in missing.items():
        yield at(kernel, ("formats",), NAME,
                 f"the derived cells have the engine select this kernel for scheme {scheme_id!r}, whose format "
                 f"{format_id!r} its formats do not list; list it, or correct the scheme's candidates or this "
                 f"kernel's requirements")


CHECK = Check(NAME, __doc__.strip(), "record:kernel", check_record=check, stage=VIEWS)
