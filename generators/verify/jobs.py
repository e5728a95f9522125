"""Probe jobs from records: one job per (hardware target, simulated world), each listing every scheme's checkpoints.

Pure functions of records. A target's platform facts come from its hardware-target record (platform, compute
capability, CPU architecture, ISA features, the AMD gfx id of a ROCm target, whether its CPUs are AMD Zen parts).
A world says which optional packages are importable; where a kernel route depends on one, both worlds are run.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .configs import PREFIX, checkpoint_configs, checkpoint_tensors

# Optional packages whose presence changes a linear-kernel route in the modelled releases (kernel records name them;
# quark is the module of amd-quark, which the MXFP4 emulation kernel needs). flashinfer_cubin goes with flashinfer:
# has_flashinfer() wants it or else nvcc and ninja on the machine, so with it the answer does not depend on the
# machine the probe runs on (without flashinfer it is never asked).
OPTIONAL_PACKAGES: tuple[str, ...] = ("humming", "conch", "flashinfer", "flashinfer_cubin", "aiter", "deep_gemm",
                                      "zentorch", "quark")
WORLDS: dict[str, tuple[str, ...]] = {"bare": (), "optional-packages": OPTIONAL_PACKAGES}
SHAPE = (4096, 4096)
PLATFORMS = ("cuda", "rocm", "cpu", "xpu")  # the platforms the probe simulates (probe._platform_class); the engine has no other


@dataclass(frozen=True)
class Job:
    """One simulated machine: a target, a world, and the checkpoints to load on it."""

    target: str
    world: str
    facts: dict[str, Any]
    packages: tuple[str, ...]
    cells: tuple[dict[str, Any], ...]

    def as_dict(self) -> dict[str, Any]:
        return {"target": self.target, "world": self.world, "facts": self.facts, "packages": list(self.packages),
                "cells": list(self.cells)}


def target_facts(target: dict[str, Any], vendors: dict[str, str]) -> dict[str, Any]:
    """The platform facts the probe simulates for a target (a ROCm target names its one gfx id)."""
    facts: dict[str, Any] = {"platform": target["platform"]}
    if target["platform"] == "cuda":
        facts["capability"] = target.get("compute_capability")
    if target["platform"] == "cpu":
        facts.update(cpu_arch=target.get("cpu_arch"), isa=list(target.get("isa_features", [])),
                     zen=any(vendors.get(a) == "AMD" for a in target.get("accelerators", [])))
    if target["platform"] == "rocm":
        facts["gfx"] = target.get("gfx", "")
    return facts


def scheme_cells(scheme_id: str, scheme: dict[str, Any]) -> list[dict[str, Any]]:
    """One probe cell per modelled checkpoint variant of a scheme (group size), in the engine's config format."""
    tensors = checkpoint_tensors(scheme.get("class_name", ""))
    return [{"scheme": scheme_id, "variant": variant, "hf_config": config, "dtype": dtype, "prefix": PREFIX,
             "tensors": tensors, "shape": list(SHAPE), "quantization": config["quant_method"],
             "override_order": ["auto_gptq", "gptq", "gptq_marlin", "auto_awq", "awq", "awq_marlin"]}
            for variant, config, dtype in checkpoint_configs(scheme.get("class_name", ""), scheme.get("config", {}))]


def _worlds(facts: dict[str, Any]) -> list[str]:
    if facts["platform"] == "cpu" and not facts.get("zen"):
        return ["bare"]
    if facts["platform"] == "xpu":
        return ["bare"]
    return list(WORLDS)


def build_jobs(schemes: dict[str, dict[str, Any]], targets: dict[str, dict[str, Any]],
               vendors: dict[str, str], engine: str = "vllm",
               pinned: dict[str, tuple[str, ...]] | None = None) -> list[Job]:
    """Every (target, world) job for the engine's schemes, in target then world order.

    `pinned` (platform -> optional packages the release's requirements for that platform pin) lets the probe
    tell a hard import of the release from an optional route: see probe._hard_imports."""
    cells = tuple(c for sid in sorted(schemes) if schemes[sid].get("engine") == engine
                  for c in scheme_cells(sid, schemes[sid]))
    facts = {tid: _with_pins(target_facts(targets[tid], vendors), pinned or {}) for tid in sorted(targets)
             if targets[tid]["platform"] in PLATFORMS}
    return [Job(tid, world, facts[tid], WORLDS[world], cells) for tid in facts for world in _worlds(facts[tid])]


def _with_pins(facts: dict[str, Any], pinned: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    pins = [p for p in pinned.get(facts["platform"], ()) if p in OPTIONAL_PACKAGES]
    return dict(facts, pinned=pins) if pins else facts
