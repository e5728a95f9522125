"""A format's native_support and emulated_support lists never name the same accelerator."""
from __future__ import annotations

from typing import Iterator

from ..problems import Problem
from .base import Check, at

NAME = "disjoint-support"


def run(atlas) -> Iterator[Problem]:
    for fmt in atlas.index.all("format"):
        native = fmt.data.get("native_support", [])
        for n, accelerator in enumerate(fmt.data.get("emulated_support", [])):
            if accelerator in native:
                yield at(fmt, ("emulated_support", n), NAME,
                         f"{accelerator!r} is listed as both native (native_support[{native.index(accelerator)}]) "
                         f"and emulated; keep it in one list")


CHECK = Check(NAME, __doc__.strip(), "record:format", run)
