"""A kernel's declared activation handling agrees with the formats it lists: one that takes activations as given lists no format that quantizes activations."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "kernel-operands"
QUANTIZED_ACTIVATIONS = ("weight-activation",)


def check(atlas: Atlas, kernel: Record) -> Iterator[Problem]:
    if kernel.data.get("activation_handling") != "as-given":
        return
    for n, format_id in enumerate(kernel.data.get("formats", [])):
        fmt = atlas.index.get("format", format_id)
        if fmt is not None and fmt.data["regime"] in QUANTIZED_ACTIVATIONS:
            yield at(kernel, ("formats", n), NAME,
                     f"the kernel takes activations as given (16-bit), but {format_id!r} quantizes activations "
                     f"({fmt.path}); a layer in that format runs here only as a weight-only fallback, so list "
                     f"the format on a kernel that quantizes activations, or correct activation_handling")


CHECK = Check(NAME, __doc__.strip(), "record:kernel", check_record=check, stage=SHAPE)
