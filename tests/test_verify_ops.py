"""The verify probe's simulation of compiled ops, on a fake engine built in tmp_path (a stand-in `torch` whose
`torch.library` keeps an op registry, and a `vllm` tree whose op test and kernel selector read it; no torch, no
engine install, no network).

The probe defines fp8_scaled_mm_cpu in torch.ops._C where the engine's x86 CPU build has it: the x86 build compiles
its _C extension with AVX512-BF16, AVX512F and VNNI flags and registers the op there (csrc/cpu/torch_bindings.cpp),
and the CPU platform's import_kernels imports that _C only on an x86 CPU with AVX512 and AVX512-BF16 (otherwise
_C_AVX512 or _C_AVX2). vllm/_custom_ops.py then registers a fake implementation for the op and sets
_supports_cpu_fp8_w8a16 from hasattr(torch.ops._C, "fp8_scaled_mm_cpu"), which the CPU FP8 kernels' is_supported
reads. The fake torch models what the probe relies on in the real one: an op defined in a Library fragment is
visible through torch.ops with its schema, register_fake needs the op to exist, and a fragment's definitions are
dropped when the Library object is collected.
"""
from __future__ import annotations

import gc
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from generators.verify.jobs import target_facts
from generators.verify.outcome import fold
from generators.verify.run import PROBE

ROOT = Path(__file__).resolve().parent.parent
OP = "_C::fp8_scaled_mm_cpu"
# The op's schema as the engine defines it in the x86 build's _C: vLLM 0.33.0 csrc/cpu/torch_bindings.cpp lines 680-683
# (and 0.34.0 lines 748-751), character for character after the namespace.
SCHEMA = ("_C::fp8_scaled_mm_cpu(Tensor(a0!) mat1, Tensor(a1!) mat2, Tensor(a2!) scales2, SymInt[] block_size, "
          "Tensor? bias, ScalarType out_dtype, bool is_vnni) -> Tensor")
# The record targets on which a default vLLM CPU install has the op: x86_64 with AVX512F and AVX512-BF16.
WITH_OP = {"x86-cpu-avx512-amx", "x86-cpu-avx512"}

FAKE_TREE = {
    "torch/_ops.py": '''
"""torch.ops: a namespace's attribute is an op only while the registry holds its definition."""
REGISTRY = {}  # "ns::name" -> the schema it was defined with


class OpOverloadPacket:
    def __init__(self, qualname):
        self.qualname = qualname
        self.schema = REGISTRY[qualname]


class _OpNamespace:
    def __init__(self, name):
        self._name = name

    def __getattr__(self, op):
        if op.startswith("__"):
            raise AttributeError(op)
        qualname = f"{self._name}::{op}"
        if qualname not in REGISTRY:
            raise AttributeError(f"'_OpNamespace' '{self._name}' object has no attribute '{op}'")
        return OpOverloadPacket(qualname)


class _Ops:
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        namespace = _OpNamespace(name)
        setattr(self, name, namespace)
        return namespace


ops = _Ops()
''',
    "torch/library.py": '''
"""torch.library: Library(ns, kind).define(schema) registers ns::name until the Library object is collected."""
import re
import weakref

from ._ops import REGISTRY

FAKES = {}


def _drop(names):
    for name in names:
        REGISTRY.pop(name, None)


class Library:
    def __init__(self, ns, kind, dispatch_key=""):
        if kind not in ("DEF", "IMPL", "FRAGMENT"):
            raise ValueError(f"Unsupported kind: {kind}")
        self.ns = ns
        self._defined = []
        weakref.finalize(self, _drop, self._defined)

    def define(self, schema, alias_analysis="", *, tags=()):
        name = re.match(r"\\s*([A-Za-z_][A-Za-z0-9_.]*)\\(", schema).group(1)
        qualname = f"{self.ns}::{name}"
        if qualname in REGISTRY:
            raise RuntimeError(f"Tried to register an operator ({qualname}) with the same name as an existing one")
        REGISTRY[qualname] = f"{self.ns}::{schema}"
        self._defined.append(qualname)
        return name


def register_fake(qualname):
    def register(function):
        if qualname not in REGISTRY:
            raise RuntimeError(f"operator {qualname} does not exist")
        FAKES[qualname] = function
        return function
    return register
''',
    "vllm/__init__.py": "",
    "vllm/_custom_ops.py": '''
"""As the engine's: a fake implementation for the op where it exists, and the flag the CPU FP8 kernels read."""
import torch
from torch.library import register_fake

if hasattr(torch.ops._C, "fp8_scaled_mm_cpu"):

    @register_fake("_C::fp8_scaled_mm_cpu")
    def fp8_scaled_mm_cpu_fake(mat1, mat2, scales2, block_size, bias, out_dtype, is_vnni):
        return None


_supports_cpu_fp8_w8a16 = bool(hasattr(torch.ops._C, "fp8_scaled_mm_cpu"))
''',
    "vllm/platforms/__init__.py": '''
_current_platform = None


def __getattr__(name):
    if name == "current_platform":
        return _current_platform
    raise AttributeError(name)
''',
    "vllm/platforms/cpu.py": '''
from .interface import Platform


class CpuPlatform(Platform):
    device = "cpu"
''',
    "vllm/platforms/cuda.py": '''
from .interface import Platform


class CudaPlatform(Platform):
    device = "cuda"
''',
    "vllm/model_executor/__init__.py": "",
    "vllm/model_executor/layers/__init__.py": "",
    "vllm/model_executor/layers/linear.py": '''
import torch


class RowParallelLinear(torch.nn.Module):
    pass
''',
    "vllm/model_executor/layers/quantization/__init__.py": '''
"""One method, `fakefp8`, whose linear method asks the scaled-mm selector when its weights are created."""
import torch
from vllm.model_executor.kernels.linear import choose_scaled_mm_linear_kernel

QUANTIZATION_METHODS = ["fakefp8"]


class Fp8LinearMethod:
    def create_weights(self, layer, **kwargs):
        choose_scaled_mm_linear_kernel({"act": kwargs["params_dtype"]})


class Fp8Config:
    @classmethod
    def from_config(cls, config):
        return cls()

    def get_min_capability(self):
        return 75

    def get_supported_act_dtypes(self):
        return [torch.bfloat16]

    def get_quant_method(self, layer, prefix):
        return Fp8LinearMethod()


def get_quantization_config(name):
    return {"fakefp8": Fp8Config}[name]
''',
    "vllm/model_executor/kernels/__init__.py": "",
    "vllm/model_executor/kernels/linear/__init__.py": '''
"""A kernel that needs the compiled op and one that does not, walked in order."""
from vllm import _custom_ops as ops
from vllm.platforms import current_platform


class OpFp8Kernel:
    @classmethod
    def is_supported(cls, compute_capability=None):
        if not ops._supports_cpu_fp8_w8a16:
            return False, "fp8_scaled_mm_cpu op not available."
        return True, None

    @classmethod
    def can_implement(cls, config):
        return True, None


class TorchFp8Kernel:
    @classmethod
    def is_supported(cls, compute_capability=None):
        return True, None

    @classmethod
    def can_implement(cls, config):
        return True, None


_POSSIBLE_KERNELS = {"cpu": [OpFp8Kernel, TorchFp8Kernel], "cuda": [OpFp8Kernel, TorchFp8Kernel]}


def choose_scaled_mm_linear_kernel(config):
    reasons = []
    for kernel in _POSSIBLE_KERNELS[current_platform.device]:
        ok, reason = kernel.is_supported()
        if ok:
            ok, reason = kernel.can_implement(config)
        if ok:
            return kernel
        reasons.append(f"{kernel.__name__}: {reason}")
    raise ValueError("Failed to find a kernel. Reasons: " + "; ".join(reasons))
''',
}


SHARED = ROOT / "tests/fixtures/fake_engine"  # the harness tests' fake engine: these files are taken from it as they are
# torch's stand-in there (dtypes, nn.Module, the ISA probes' namespace), with ops and library backed by one registry here
TORCH_OPS = "\nfrom . import library  # noqa: E402\nfrom ._ops import ops  # noqa: E402,F811\n"


def _tree() -> dict[str, str]:
    return {**FAKE_TREE, "torch/__init__.py": (SHARED / "torch/__init__.py").read_text(encoding="utf-8") + TORCH_OPS,
            "vllm/platforms/interface.py": (SHARED / "vllm/platforms/interface.py").read_text(encoding="utf-8")}


@pytest.fixture(scope="module")
def engine_tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fake-engine")
    for relative, text in _tree().items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.lstrip("\n"), encoding="utf-8")
    return root


def _records() -> dict[str, dict]:
    return {path.stem: yaml.safe_load(path.read_text(encoding="utf-8"))
            for path in sorted((ROOT / "records" / "hardware-targets").glob("*.yaml"))}


def _cpu_facts() -> dict[str, dict]:
    return {tid: target_facts(target, {}) for tid, target in _records().items() if target["platform"] == "cpu"}


@pytest.fixture
def fake_torch(engine_tree, monkeypatch):
    """The fake torch imported in this process (a real torch, if any, is set aside and put back afterwards)."""
    for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.syspath_prepend(str(engine_tree))
    import torch
    assert Path(torch.__file__).is_relative_to(engine_tree)
    yield torch
    for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
        del sys.modules[name]


def _fresh_probe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("atlas_probe_ops", PROBE)
    assert spec and spec.loader
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    return probe


def _ops_after_simulation(torch, facts: dict) -> dict[str, str]:
    """The ops registered once the probe's CPU op simulation has run for these facts and it has returned."""
    registry = sys.modules["torch._ops"].REGISTRY
    registry.clear()
    probe = _fresh_probe()
    probe._simulate_cpu_ops(facts)
    gc.collect()  # a definition the probe does not keep alive is gone, as in torch
    defined = dict(registry)
    probe._LIBRARIES.clear()
    gc.collect()
    return defined


def test_the_op_is_defined_with_its_schema_exactly_on_the_targets_whose_install_has_it(fake_torch):
    facts = _cpu_facts()
    assert WITH_OP.union({"x86-cpu-avx2", "arm-cpu"}).issubset(facts)
    defined = {tid: _ops_after_simulation(fake_torch, f) for tid, f in facts.items()}
    assert {tid for tid, ops in defined.items() if ops} == WITH_OP
    for tid in WITH_OP:
        assert defined[tid] == {OP: SCHEMA}, tid


@pytest.mark.parametrize(("facts", "has_op"), [
    ({"cpu_arch": "x86_64", "isa": ["avx512f", "avx512_bf16"]}, True),
    ({"cpu_arch": None, "isa": ["avx2", "avx512f", "avx512_bf16"]}, True),  # the probe's machine is x86_64 by default
    # import_kernels loads _C only when _is_avx512_supported() too; without it the engine imports _C_AVX2
    ({"cpu_arch": "x86_64", "isa": ["avx2", "avx512_bf16"]}, False),
    ({"cpu_arch": "x86_64", "isa": ["avx2", "avx512f", "avx512_vnni"]}, False),  # _C_AVX512: no op
    ({"cpu_arch": "aarch64", "isa": ["avx512f", "avx512_bf16"]}, False),  # only the x86 build's _C registers it
    ({"cpu_arch": "x86_64", "isa": []}, False),
])
def test_each_condition_of_the_op_is_the_engines(fake_torch, facts, has_op):
    assert _ops_after_simulation(fake_torch, dict(facts, platform="cpu")) == ({OP: SCHEMA} if has_op else {})


def test_the_definition_outlives_the_simulation_and_satisfies_register_fake(fake_torch):
    sys.modules["torch._ops"].REGISTRY.clear()
    probe = _fresh_probe()
    probe._simulate_cpu_ops({"platform": "cpu", "cpu_arch": "x86_64", "isa": ["avx512f", "avx512_bf16"]})
    gc.collect()
    assert fake_torch.ops._C.fp8_scaled_mm_cpu.schema == SCHEMA
    fake_torch.library.register_fake(OP)(lambda *args: None)
    probe._LIBRARIES.clear()
    gc.collect()
    assert not hasattr(fake_torch.ops._C, "fp8_scaled_mm_cpu")


CELL = {"scheme": "fake-fp8", "variant": "", "hf_config": {"quant_method": "fakefp8"}, "dtype": "bfloat16",
        "prefix": "model.layers.0.mlp.down_proj", "shape": [256, 256], "quantization": "fakefp8"}
EXTRA_TARGETS = {"sm90": {"platform": "cuda", "capability": 90},
                 "x86-bf16-no-avx512f": {"platform": "cpu", "cpu_arch": "x86_64", "isa": ["avx2", "avx512_bf16"]}}


@pytest.fixture(scope="module")
def observed(engine_tree) -> dict[str, dict]:
    facts = {**_cpu_facts(), **EXTRA_TARGETS}
    jobs = [{"target": tid, "world": "bare", "facts": f, "packages": [], "cells": [CELL]} for tid, f in facts.items()]
    env = dict(os.environ, PYTHONPATH=str(engine_tree))
    out = subprocess.run([sys.executable, str(PROBE)], input=json.dumps({"jobs": jobs}), capture_output=True,
                         text=True, env=env, timeout=30, check=True).stdout
    results = [json.loads(line) for line in out.splitlines()]
    cells, errors = fold(jobs, results)
    assert errors == []
    return {c["target"]: c for c in cells}


def test_the_probe_outcome_selects_the_op_kernel_exactly_where_the_op_is_simulated(observed):
    assert WITH_OP.union(EXTRA_TARGETS).issubset(observed)
    kernels = {tid: (cell["verdict"], cell.get("kernel")) for tid, cell in observed.items()}
    assert kernels == {tid: ("runs", "OpFp8Kernel" if tid in WITH_OP else "TorchFp8Kernel") for tid in observed}
    for tid, cell in observed.items():
        (run,) = cell["runs"]
        assert (run["outcome"], run["stage"], run["worlds"]) == ("selected", "kernel-selection", ["bare"]), tid
        if tid in WITH_OP:
            assert run["candidates"] == ["OpFp8Kernel.is_supported accepted", "OpFp8Kernel.can_implement accepted"]
        else:
            assert run["candidates"] == ["OpFp8Kernel.is_supported refused: fp8_scaled_mm_cpu op not available.",
                                         "TorchFp8Kernel.is_supported accepted",
                                         "TorchFp8Kernel.can_implement accepted"], tid
