"""`verify ENGINE==X.Y.Z`: prepare the engine environment, run the probe for every job, write the observation record."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model.atlas import Atlas

import datetime as _dt
import json
import os
import platform
import subprocess
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable

import yaml

from .environment import Environment, platform_pins
from .jobs import Job, build_jobs
from .outcome import HARNESS_VERSION, fold

PROBE = Path(__file__).with_name("probe.py")
PRELOAD = ("torch", "transformers", "compressed_tensors", "pydantic", "numpy")

SIMULATED = (
    "the platform object the engine resolves (CUDA, ROCm, XPU, CPU or Zen CPU class), with the target's compute capability",
    "the CPU architecture string (platform.machine) and torch.cpu ISA probes (AVX2, AVX512, AVX512-BF16, VNNI, AMX)",
    "on an x86 CPU, the engine's HAS_TRITON flag, answered yes as the CPU install's triton-cpu requirement makes it (the "
    "CPU platform refuses to build its config on x86 without Triton from 0.34.0 on; no kernel selector reads the flag)",
    "/proc/cpuinfo's vendor (AMD for a target of Zen parts) and ISA flags, which the engine's own Zen test reads to "
    "choose ZenCpuPlatform (with zentorch installed)",
    "the AMD gfx id the ROCm platform reads through amdsmi at import (capability derived by the engine's own code)",
    "optional packages importable or not (empty stand-in modules; zentorch also registers its op names), and on XPU "
    "the vllm_xpu_kernels package every XPU install carries (a stand-in, its ops absent)",
    "in the optional-packages world, every name the engine reads from an optional package exists (the same object "
    "each time, a class accepting any arguments), so the engine's feature probes of FlashInfer (CuTe-DSL module, "
    "b12x and BF16 x FP4 GEMMs) and its humming schema mapping find what they ask for; flashinfer-cubin is present "
    "with flashinfer, so has_flashinfer() does not depend on an nvcc and ninja of the machine running the probe; quark "
    "(the amd-quark package) is present",
    "compiled capability queries cutlass_scaled_mm_supports_fp8/_block_fp8/_fp4 and cutlass_group_gemm_supported, "
    "answered as the release's C++ entry points do for a CUDA 12.8+ build",
    "on an x86 CPU target with AVX512F and AVX512-BF16, the op fp8_scaled_mm_cpu registered in torch.ops._C with the "
    "engine's schema, as the x86 CPU build's _C (compiled with AVX512-BF16 and VNNI flags, imported on such CPUs) "
    "registers it",
    "the checkpoint's safetensors header (the layer's tensors and their dtypes, one element each), which the engine's "
    "maybe_update_config reads after the capability gate to learn which layers are quantized",
)
NOT_REACHED = (
    "compiled kernels: every engine extension module is an empty stand-in, so ops registered by them are absent",
    "anything after kernel selection: weight allocation, weight processing and the first forward pass (the NVFP4 "
    "and MXFP4 schemes select in their constructor, so their load is followed on to get_scheme's capability gate; "
    "the MXFP8 scheme selects in create_weights, after that gate)",
    "the optional packages' own code: a check made inside FlashInfer, humming or AITER (a version that lacks a "
    "feature, a schema humming refuses) is answered yes",
    "CUDA or ROCm run-time failures inside a selected kernel",
    "environment settings other than their defaults (VLLM_* variables, --linear-backend)",
)


def run_probe(env: Environment, jobs: list[Job], log: Callable[[str], None] = print) -> list[dict[str, Any]]:
    """Run every job through the probe in the engine environment; one JSON result per job."""
    request = {"preload": list(PRELOAD), "jobs": [j.as_dict() for j in jobs]}
    process_env = dict(os.environ, PYTHONPATH=str(env.source), VLLM_LOGGING_LEVEL="ERROR")
    process = subprocess.Popen([str(env.python), str(PROBE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, env=process_env)
    assert process.stdin and process.stdout
    process.stdin.write(json.dumps(request))
    process.stdin.close()
    results = []
    for line in process.stdout:
        result = json.loads(line)
        results.append(result)
        log(f"  {result.get('target')} [{result.get('world')}]" + (" error" if "job_error" in result else ""))
    process.wait()
    return results


def _inputs(atlas: Atlas) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    index = atlas.index
    return ({r.id: r.data for r in index.all("scheme")}, {r.id: r.data for r in index.all("hardware-target")},
            {r.id: r.data.get("vendor", "") for r in index.all("accelerator")})


def observation_record(engine: str, version: str, env: Environment, jobs: list[Job], results: list[dict[str, Any]],
                       seconds: float) -> dict[str, Any]:
    """The observation record's data, in the field order the schema lists."""
    cells, errors = fold([j.as_dict() for j in jobs], results)
    stubbed = sorted({m for r in results for m in r.get("stubbed_compiled_modules", [])})
    platforms = sorted({f"{r['target']}: {r['platform_class']}" for r in results if "platform_class" in r})
    simulated = list(SIMULATED) + hard_import_notes(jobs, results)
    return {
        "name": f"{engine} {version} linear-kernel selection, observed (harness {HARNESS_VERSION})",
        "summary": f"Every modelled scheme loaded on every hardware target of a platform the probe simulates (CUDA, ROCm, "
                   f"CPU, XPU) by {engine} {version}'s own config loader, "
                   "scheme matching, capability gates and kernel selectors, with what lies outside its Python code "
                   "simulated (platform facts, compiled extensions, optional packages; listed under simulated).",
        "engine": engine, "release": version, "harness_version": HARNESS_VERSION,
        "observed_on": _dt.date.today().isoformat(),
        "environment": {"torch": env.manifest.get("torch", ""), "python": platform.python_version(),
                        "installed": env.manifest.get("installed", []) + [
                            f"{spec} (reinstalled within another installed distribution's stated bounds)"
                            for spec in env.manifest.get("repaired", [])],
                        "setup_seconds": env.manifest.get("setup_seconds", 0), "probe_seconds": round(seconds, 1),
                        "release_megabytes": round(env.manifest.get("release_bytes", 0) / 1e6, 1),
                        "base_megabytes": round(env.manifest.get("base_bytes", 0) / 1e6, 1)},
        "simulated": simulated, "not_reached": list(NOT_REACHED),
        "stand_in_modules": stubbed, "platform_classes": platforms, "job_errors": errors,
        "cells": cells,
        "sources": [{"source": source_id(engine, version), "locator": f"{engine}/ (Python source as unpacked; "
                     "config loaders, scheme matching, platform classes and kernel selectors)"}],
    }


def hard_import_notes(jobs: list[Job], results: list[dict[str, Any]]) -> list[str]:
    """One line per (package, platform) the release imports unconditionally and pins for that platform: the probe
    made it importable in every world there, as every install of the release on that platform has it."""
    platform_of = {j.target: j.facts["platform"] for j in jobs}
    found = sorted({(p, platform_of.get(r.get("target", ""), "")) for r in results for p in r.get("hard_imports", [])})
    return [f"{package} importable in every world on {platform}: the release pins it in requirements/{platform}.txt "
            "and its quantization config modules import it unconditionally there (a hard dependency, not an "
            "optional route)" for package, platform in found]


def source_id(engine: str, release: str) -> str:
    return f"{engine}-sdist-{release.replace('.', '-')}"


def source_record(engine: str, release: str) -> dict[str, Any]:
    """The source record for a release's published source distribution (what the probe ran)."""
    return {"name": f"{engine} {release} source distribution",
            "summary": f"The published source distribution of {engine} {release}, whose Python code the verify "
                       "probe runs (no extension is built).",
            "type": "code", "repository": "vllm-project/vllm", "package": f"{engine}=={release}", "path": ".",
            "revision": f"v{release}", "accessed": _dt.date.today().isoformat(), "publisher": "vLLM project",
            "sources": [{"source": source_id(engine, release), "locator": "whole archive"}]}


def observation_id(engine: str, release: str) -> str:
    """One record per (engine release, harness version): vllm 0.33.0 with harness 1 is vllm-0-33-0-h1."""
    return f"{engine}-{release.replace('.', '-')}-h{HARNESS_VERSION}"


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def write_observation(root: Path, data: dict[str, Any]) -> Path:
    source = root / "records" / "sources" / f"{source_id(data['engine'], data['release'])}.yaml"
    if not source.exists():
        source.write_text(yaml.dump(source_record(data["engine"], data["release"]), Dumper=_NoAliases,
                                    sort_keys=False, allow_unicode=True, width=110))
    path = root / "records" / "observations" / f"{observation_id(data['engine'], data['release'])}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=110))
    return path


def verify(root: Path, atlas: Atlas, engine: str, version: str, env: Environment,
           log: Callable[[str], None] = print, reuse: bool = False) -> Path:
    """Run (or, with reuse, re-read the raw results of the last run for the same jobs) and write the record."""
    schemes, targets, vendors = _inputs(atlas)
    jobs = build_jobs(schemes, targets, vendors, engine, platform_pins(env.source))
    log(f"{len(jobs)} simulated machines, {len(jobs[0].cells) if jobs else 0} checkpoints each")
    raw = env.source.parent / f"results-h{HARNESS_VERSION}.json"
    request = json.dumps([j.as_dict() for j in jobs], sort_keys=True)
    started = time.monotonic()
    if reuse and raw.exists() and json.loads(raw.read_text())["request"] == request:
        saved = json.loads(raw.read_text())
        results, seconds = saved["results"], saved["seconds"]
    else:
        results = run_probe(env, jobs, log)
        seconds = time.monotonic() - started
        raw.write_text(json.dumps({"request": request, "results": results, "seconds": seconds}))
    return write_observation(root, observation_record(engine, version, env, jobs, results, seconds))
