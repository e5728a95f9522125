"""Write a synthetic atlas of N records (every kind, realistic cross-references) for timing `check`.

Usage: python3 benchmarks/make_corpus.py N OUT_DIR   (OUT_DIR gets records/, a copy of schema/, and docs/ with the
page layouts and a one-line home page: no chapters, whose claims are about the real records)

Most kinds get N/12 records each; schemes (N/50), hardware targets (20) and hardware number
formats (24; the other formats are checkpoint formats) are capped, as in a real atlas, because
derived cells are every scheme on every target and tallies every number format on every part.
"""
from __future__ import annotations

import argparse
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent



# one hardware format per peak precision, and FP8's two encodings (check format-encoding: formats that share a
# precision name distinct encodings)
_HARDWARE = ["peak_precision: fp8\nencoding: e4m3\n", "peak_precision: fp8\nencoding: e5m2\n"] + [
    f"peak_precision: {p}\n" for p in ("fp16", "fp32", "tf32", "fp8-fnuz", "int8", "fp6", "fp4", "nvfp4", "mxfp8",
                                        "mxfp6", "mxfp4", "int4")]

def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def make(n: int, out: Path) -> None:
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(ROOT / "schema", out / "schema")
    shutil.copytree(ROOT / "docs" / "_templates", out / "docs" / "_templates")
    write(out / "docs" / "index.md", "# Synthetic atlas\n")
    share = max(n // 12, 1)
    records = out / "records"
    for i in range(share):
        write(records / f"sources/src-{i}.yaml", f"name: Source {i}\nsummary: Synthetic source.\ntype: docs\n"
              f"url: https://example.org/{i}\nrevision: v1\nsources:\n  - source: src-{i}\n")
        write(records / f"accelerators/acc-{i}.yaml",
              f"name: Accelerator {i}\nsummary: Synthetic part.\nvendor: Example\ncategory: datacenter-gpu\n"
              f"compute_capability: \"9.0\"\nmemory_bandwidth_gbs:\n  - {{value: {1000 + i}, source: src-{i}}}\n"
              f"peak_compute:\n  - {{precision: bf16, sparsity: dense, tflops: {100 + i}, source: src-{i}}}\n"
              f"  - {{precision: fp8, sparsity: dense, tflops: {200 + i}, source: src-{i}}}\n"
              f"sources:\n  - source: src-{i}\n")
        hardware = (f"format_class: hardware\n{_HARDWARE[i]}emulated_via: [bf16]\n" if i < len(_HARDWARE) else
                    "format_class: checkpoint\n")  # number formats are a dozen or two; checkpoint formats grow
        write(records / f"formats/fmt-{i}.yaml",
              f"name: Format {i}\nsummary: Synthetic format.\n{hardware}family: integer\nregime: weight-only\n"
              f"weight_bits: 4\nsources:\n  - source: src-{i}\n    locator: table {i}\n")
        write(records / f"engines/eng-{i}.yaml", f"name: Engine {i}\nsummary: Synthetic engine.\ncategory: serving-engine\n"
              f"format_support:\n  - {{format: fmt-{i}, status: \"yes\", source: src-{i}}}\nsources:\n  - source: src-{i}\n")
        write(records / f"kernels/k-{i}.yaml", f"name: Kernel {i}\nsummary: Synthetic kernel.\nengine: eng-{i}\n"
              f"registry: mixed-precision-linear\ncode: {{source: src-{i}}}\nrequirements:\n  - {{check: capability-min, value: 80, reason: needs 80}}\n"
              f"  - {{check: weight-type, values: [int4], reason: bad type}}\nsources:\n  - source: src-{i}\n")
        if i < max(n // 50, 1):  # an engine has tens of schemes, not thousands
            write(records / f"schemes/sch-{i}.yaml", f"name: Scheme {i}\nsummary: Synthetic scheme.\nengine: eng-{i}\n"
              f"config: {{weight_type: int4, activation_types: [float16], activation_quantized: false}}\n"
              f"candidates:\n  - {{platform: cuda, kernels: [k-{i}]}}\ncode: {{source: src-{i}}}\nsources:\n  - source: src-{i}\n")
        write(records / f"gotchas/trap-{i}.yaml", f"name: Trap {i}\nsummary: Synthetic trap.\nseverity: major\neffect: degraded\nsilent: true\n"
              f"regime: weight-only\ntrigger: Something.\nsymptom: Garbage.\nformats: [fmt-{i}]\naccelerators: [acc-{i}]\n"
              f"sources:\n  - source: src-{i}\n")
        write(records / f"benchmarks/bench-{i}.yaml", f"name: Benchmark {i}\nsummary: Synthetic value.\nformat: fmt-{i}\n"
              f"model: Model-8B\nmetric: accuracy\nvalue: {50 + i % 40}\nunit: points\ngrade: measured\n"
              f"accelerator: acc-{i}\nsources:\n  - source: src-{i}\n")
        write(records / f"findings/find-{i}.yaml", f"name: Finding {i}\nsummary: Synthetic finding.\nclaim: A claim.\n"
              f"verdict: confirmed\nconclusion: True.\nverified_on: 2026-11-29\nevidence:\n  - {{source: src-{i}}}\n"
              f"concerns: [format/fmt-{i}]\nsources:\n  - source: src-{i}\n")
        write(records / f"techniques/tech-{i}.yaml", f"name: Technique {i}\nsummary: Synthetic technique.\n"
              f"category: calibration\napplies_to: [fmt-{i}]\nsources:\n  - source: src-{i}\n")
        if i < 20:  # support tables have a score of columns however many records there are
            write(records / f"hardware-targets/t-{i}.yaml", f"name: Target {i}\nsummary: Synthetic target.\nplatform: cuda\n"
              f"compute_capability: 90\naccelerators: [acc-{i}]\norder: {i}\nsources:\n  - source: src-{i}\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", type=int, help="how many records to write (roughly: each unit writes several kinds)")
    parser.add_argument("root", type=Path, help="the project folder to write records/ into")
    args = parser.parse_args()
    make(args.records, args.root)
