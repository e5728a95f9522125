"""The record kinds and the folder each lives in."""
from __future__ import annotations

FOLDER_OF_KIND: dict[str, str] = {
    "format": "formats",
    "accelerator": "accelerators",
    "hardware-target": "hardware-targets",
    "kernel": "kernels",
    "engine": "engines",
    "scheme": "schemes",
    "support-matrix": "support-matrices",
    "gotcha": "gotchas",
    "benchmark": "benchmarks",
    "finding": "findings",
    "technique": "techniques",
    "term": "terms",
    "source": "sources",
    "observation": "observations",
}
KIND_OF_FOLDER: dict[str, str] = {folder: kind for kind, folder in FOLDER_OF_KIND.items()}
KINDS: tuple[str, ...] = tuple(FOLDER_OF_KIND)

TITLE_OF_KIND: dict[str, str] = {
    "format": "Formats",
    "accelerator": "Accelerators",
    "hardware-target": "Hardware targets",
    "kernel": "Kernels",
    "engine": "Engines and tools",
    "scheme": "Schemes",
    "support-matrix": "Support matrices",
    "gotcha": "Traps",
    "benchmark": "Benchmarks",
    "finding": "Findings",
    "technique": "Techniques",
    "term": "Glossary",
    "source": "Sources",
    "observation": "Observations",
}
