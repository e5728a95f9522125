"""Words for readers in place of schema enum slugs (`datacenter-gpu` -> 'Data-center GPUs')."""
from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup

from .markdown import escape_text

LABELS = {
    "datacenter-gpu": "Data-center GPUs", "workstation-gpu": "Workstation GPUs", "consumer-gpu": "Consumer GPUs",
    "rack-system": "Rack-scale systems", "apple-silicon": "Apple silicon", "cpu": "CPUs", "tpu": "TPUs",
    "ai-asic": "AI accelerators (ASICs)", "wafer-scale": "Wafer-scale engines",
    "compiler": "compiler", "kernel-library": "kernel library", "local-runtime": "local runtime",
    "quantization-toolkit": "quantization toolkit", "research-harness": "research harness", "serving-engine": "serving engine",
}


def label(value: Any) -> Markup:
    """The reader's word for a slug; an unknown slug is written with spaces for hyphens."""
    text = str(value)
    return escape_text(LABELS.get(text, text.replace("-", " ")))


_ASIDE = re.compile(r"\s*\(([^()]*)\)")


def inline_name(name: str) -> str:
    """A name as it reads inside a parenthesis: its own asides become comma clauses ('A (B) C' -> 'A, B, C')."""
    while (aside := _ASIDE.search(name)) is not None:
        before, rest = name[:aside.start()], name[aside.end():]
        lead = ", " if before else ""
        tail = "," if rest and rest[0] not in ",;:.!?)" else ""
        name = before + lead + aside.group(1).strip() + tail + rest
    return name
