"""Probe run inside an engine environment: simulate one target's platform facts, run the engine's own selection, print JSON.

This file is executed by the engine environment's interpreter as a script (`python probe.py < jobs.json`);
it imports nothing from the atlas and only the standard library at module level. The atlas process never
imports the engine or torch.

Input (stdin): {"jobs": [{"target", "world", "facts", "cells": [...]}], "engine_root": optional}.
For each job a child process is forked (so the engine's import-time platform resolution happens once per
simulated target) and prints one JSON line per cell: the kernel the engine selected, or the exception type and
its exact message, plus every candidate the selector asked, in order, with the reason it gave.

What is simulated (and nothing else): the platform object the engine resolves (its class chosen by the
target's platform, its device capability), the CPU architecture string, the CPU ISA probes of torch.cpu, the
AMD GPU architecture string the ROCm platform reads through amdsmi, and which optional packages are
importable (stand-in modules in which every name the engine reads exists). Compiled extension modules of the
engine are absent (an empty module stands in for each), so the engine's op-presence tests see a CPU build without
them. Selectors that build their kernel (NVFP4, MXFP4, MXFP8) return it and the load goes on until the scheme is
complete, so a capability gate the scheme applies after selecting is observed too.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import json
import os
import re
import struct
import sys
import tempfile
import types
from typing import Any
import contextlib

STUBBED_COMPILED: list[str] = []
PLATFORM_PACKAGES: dict[str, set[str]] = {"xpu": {"vllm_xpu_kernels"}}


class _EmptyModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Stands in for modules that cannot exist here: compiled engine extensions and simulated optional packages."""

    def __init__(self, names: set[str], compiled_prefix: str | None = None, permissive: bool = False) -> None:
        self.names = names
        self.compiled_prefix = compiled_prefix
        self.permissive = permissive

    def _wanted(self, fullname: str) -> bool:
        if fullname in self.names or fullname.split(".")[0] in self.names:
            return True
        # Last on the meta path: an engine module that reaches here has no source in the release (a compiled
        # extension or a build-time vendored package), so an empty stand-in is recorded and returned.
        return bool(self.compiled_prefix) and fullname.startswith(self.compiled_prefix)

    def find_spec(self, fullname, path=None, target=None):  # noqa: D401 - importlib protocol
        if not self._wanted(fullname):
            return None
        if fullname.startswith(self.compiled_prefix or "\0"):
            STUBBED_COMPILED.append(fullname)
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__path__ = []  # type: ignore[attr-defined]
        module.__file__ = f"<atlas-verify stand-in for {spec.name}>"
        if spec.name.split(".")[0] in self.names:
            module.__getattr__ = _package_names(spec.name)  # type: ignore[attr-defined]
        elif self.permissive or (self.compiled_prefix and spec.name.startswith(self.compiled_prefix)):
            def __getattr__(name: str, _module=spec.name):
                if name.startswith("__"):
                    raise AttributeError(name)
                return type(name, (), {"__module__": _module})
            module.__getattr__ = __getattr__  # type: ignore[attr-defined]
        return module

    def exec_module(self, module):
        return None


class _AnyName(type):
    """A name of a simulated optional package: a class that accepts any arguments and whose every attribute is such
    a name too (an enum's members, a class's constants), each created once and then the same object."""

    def __getattr__(cls, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        member = _AnyName(name, (), {"__module__": cls.__module__, "__init__": lambda self, *a, **k: None})
        setattr(cls, name, member)
        return member


def _package_names(module_name: str):
    """A simulated optional package's names: each exists and is the same object every time it is read (as a real
    module's are, so the engine can compare and key by them), so the engine's own code around the package runs;
    what the package itself would check is not reached."""
    names: dict[str, type] = {}

    def __getattr__(name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        if name not in names:
            names[name] = _AnyName(name, (), {"__module__": module_name, "__init__": lambda self, *a, **k: None})
        return names[name]
    return __getattr__


def _simulate_cpu(facts: dict[str, Any]) -> None:
    import platform as pyplatform
    import torch

    machine = facts.get("cpu_arch") or "x86_64"
    pyplatform.machine = lambda: machine  # type: ignore[assignment]
    isa = set(facts.get("isa") or [])
    probes = {
        "_is_amx_tile_supported": "amx_tile" in isa or "amx" in isa,
        "_is_amx_fp16_supported": "amx_fp16" in isa,
        "_is_avx512_supported": "avx512f" in isa,
        "_is_avx512_bf16_supported": "avx512_bf16" in isa,
        "_is_avx512_vnni_supported": "avx512_vnni" in isa,
        "_is_avx2_supported": "avx2" in isa,
        "_is_arm_sve_supported": "sve" in isa,
    }
    for name, value in probes.items():
        setattr(torch.cpu, name, (lambda v: (lambda *a, **k: v))(value))
        if hasattr(torch._C, "_cpu") and hasattr(torch._C._cpu, name):
            setattr(torch._C._cpu, name, (lambda v: (lambda *a, **k: v))(value))


_LIBRARIES: list[Any] = []


def _simulate_cpu_ops(facts: dict[str, Any]) -> None:
    """The x86 CPU build compiles its _C extension with AVX512-BF16 and VNNI flags and registers fp8_scaled_mm_cpu in it,
    and the CPU platform imports that _C on a CPU with AVX512 and AVX512-BF16, otherwise _C_AVX512 or _C_AVX2
    (cmake/cpu_extension.cmake, csrc/cpu/torch_bindings.cpp, CpuPlatform.import_kernels): the op is registered there,
    as vllm._custom_ops' _supports_cpu_fp8_w8a16 reads it at import."""
    isa = set(facts.get("isa") or [])
    if (facts.get("cpu_arch") or "x86_64") == "x86_64" and {"avx512f", "avx512_bf16"} <= isa:
        from torch.library import Library
        # defined with the engine's schema (csrc/cpu/torch_bindings.cpp, the ops.def of fp8_scaled_mm_cpu), as the engine
        # registers a fake implementation for it at import
        library = Library("_C", "FRAGMENT")
        library.define("fp8_scaled_mm_cpu(Tensor(a0!) mat1, Tensor(a1!) mat2, Tensor(a2!) scales2, SymInt[] block_size, "
                       "Tensor? bias, ScalarType out_dtype, bool is_vnni) -> Tensor")
        _LIBRARIES.append(library)  # a fragment is dropped with its last reference


def _simulate_x86_triton() -> None:
    """The x86 CPU install carries triton-cpu (the release's requirements/cpu.txt pins it for x86_64 on the Python the
    probe runs), and the CPU platform refuses to build its config on x86 without it (0.34.0 and later; earlier releases
    only warn); the probe has no Triton, so the engine's flag is set as that install sets it. No kernel selector reads it."""
    try:
        import vllm.triton_utils as triton_utils
    except ImportError:  # a release (or a test's engine tree) without the flag
        return
    triton_utils.HAS_TRITON = True


class _AnyOps:
    """torch.ops.zentorch as an installed zentorch leaves it: every op the engine asks about is registered."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *a, **k: None


def _simulate_zentorch_ops() -> None:
    import torch
    torch.ops.zentorch = _AnyOps()


def _fake_amdsmi(gfx: str) -> types.ModuleType:
    module = types.ModuleType("amdsmi")
    module.amdsmi_init = lambda *a, **k: None
    module.amdsmi_shut_down = lambda *a, **k: None
    module.amdsmi_get_processor_handles = lambda *a, **k: [0]
    module.amdsmi_get_gpu_asic_info = lambda *a, **k: {"target_graphics_version": gfx, "market_name": gfx}
    module.amdsmi_topo_get_link_type = lambda *a, **k: {}
    module.amdsmi_get_gpu_device_uuid = lambda *a, **k: "0"
    module.amdsmi_get_gpu_memory_total = lambda *a, **k: 0
    module.AmdSmiException = Exception

    class _Enum:
        VRAM = 0
    module.AmdSmiMemoryType = _Enum
    return module


def _cpuinfo(facts: dict[str, Any]) -> str:
    """/proc/cpuinfo as the target's CPUs show it: the vendor (AMD for a target of Zen parts) and the ISA flags."""
    vendor = "AuthenticAMD" if facts.get("zen") else "GenuineIntel"
    return f"vendor_id\t: {vendor}\nflags\t\t: {' '.join(facts.get('isa') or [])}\n"


def _engine_detects_zen(facts: dict[str, Any]) -> bool:
    """The engine's own Zen test (vllm.platforms._is_amd_zen_cpu: AuthenticAMD and avx512 in /proc/cpuinfo), run on
    the target's simulated /proc/cpuinfo; a release without that function chose ZenCpuPlatform for any Zen part."""
    import builtins
    import io
    import vllm.platforms as platforms

    detect = getattr(platforms, "_is_amd_zen_cpu", None)
    if detect is None:
        return True
    text = _cpuinfo(facts)

    def simulated_open(path, *args, **kwargs):
        if str(path) == "/proc/cpuinfo":
            return io.StringIO(text)
        return builtins.open(path, *args, **kwargs)
    platforms.open = simulated_open  # the module's global name shadows the builtin for its own code
    try:
        return bool(detect())
    finally:
        del platforms.open


def _platform_class(facts: dict[str, Any], packages: set[str]):
    kind = facts["platform"]
    if kind == "cuda":
        from vllm.platforms import cuda
        return cuda.CudaPlatform
    if kind == "rocm":
        from vllm.platforms import rocm
        return rocm.RocmPlatform
    if kind == "xpu":
        from vllm.platforms import xpu
        return xpu.XPUPlatform
    if kind == "cpu":
        if facts.get("zen") and "zentorch" in packages and _engine_detects_zen(facts):
            try:
                from vllm.platforms import zen_cpu
                return zen_cpu.ZenCpuPlatform
            except ImportError:
                pass
        from vllm.platforms import cpu
        return cpu.CpuPlatform
    raise ValueError(f"unknown platform {kind!r}")


def _install_platform(facts: dict[str, Any], packages: set[str]) -> str:
    import vllm.platforms as platforms
    from vllm.platforms.interface import DeviceCapability

    base = _platform_class(facts, packages)
    attrs: dict[str, Any] = {}
    capability = facts.get("capability")
    if capability is not None and facts["platform"] == "cuda":
        major, minor = capability // 10, capability % 10
        attrs["get_device_capability"] = classmethod(lambda cls, device_id=0: DeviceCapability(major=major, minor=minor))
    attrs["get_device_name"] = classmethod(lambda cls, device_id=0: facts.get("device_name", "simulated"))
    simulated = type("Simulated" + base.__name__, (base,), attrs)
    platforms._current_platform = simulated()
    return base.__module__ + "." + base.__name__


OP_CALLS: list[dict[str, Any]] = []

# Compiled capability queries some engine modules make at import or selection time. A CPU build has no such op;
# these answers follow the C++ entry points of the release (csrc/quantization/w8a8/cutlass/scaled_mm_entry.cu,
# csrc/quantization/fp4/nvfp4_scaled_mm_entry.cu) for a build with CUDA 12.8 or newer and every arch compiled in.
# Each call is recorded on the result, so an answer that matters is visible.
COMPILED_CAPABILITY_ANSWERS = {
    "cutlass_scaled_mm_supports_fp8": lambda cap: cap >= 89,
    "cutlass_scaled_mm_supports_block_fp8": lambda cap: cap >= 90,
    "cutlass_scaled_mm_supports_fp4": lambda cap: cap >= 100,
    "cutlass_group_gemm_supported": lambda cap: cap == 90 or 100 <= cap < 120,
}


def _simulate_compiled_queries() -> None:
    import torch

    namespace = torch.ops._C
    for name, answer in COMPILED_CAPABILITY_ANSWERS.items():
        def op(capability, _name=name, _answer=answer):
            value = bool(_answer(int(capability)))
            OP_CALLS.append({"op": _name, "argument": int(capability), "answer": value})
            return value
        with contextlib.suppress(Exception):
            setattr(namespace, name, op)


class _Selected(Exception):
    """Raised by the wrapped selector after it returned: stops the layer before weights are allocated."""

    def __init__(self, kernel: str, selector: str) -> None:
        super().__init__(kernel)
        self.kernel = kernel
        self.selector = selector


_TRIED: list[dict[str, Any]] = []
_PAUSED: list[int] = [0]
_SELECTORS = ("choose_mp_linear_kernel", "choose_scaled_mm_linear_kernel")
# Selectors that build the kernel they choose and hand it to the scheme, whose own checks may still refuse the layer
# afterwards (the NVFP4 and MXFP4 schemes select in their constructor, before get_scheme's capability gate): the
# choice is recorded and the load goes on, so such a refusal is observed as the engine reports it.
_BUILDING_SELECTORS = ("init_nvfp4_linear_kernel", "init_mxfp4_linear_kernel", "init_mxfp8_linear_kernel")
_BUILT: list[dict[str, str]] = []
_SINGLE_DEVICE = {"get_tensor_model_parallel_rank": lambda *a, **k: 0,
                  "get_tensor_model_parallel_world_size": lambda *a, **k: 1}


def _wrap_selector(function, name: str):
    def selector(*args, **kwargs):
        kernel = function(*args, **kwargs)
        if name in _BUILDING_SELECTORS:
            _BUILT.append({"kernel": type(kernel).__name__, "selector": name})
            return kernel
        raise _Selected(getattr(kernel, "__name__", str(kernel)), name)
    selector.__wrapped_by_probe__ = True  # type: ignore[attr-defined]
    return selector


def _wrap_constructor(cls) -> None:
    """The kernel's constructor runs as the engine's does, but the checks it repeats (the base classes assert
    is_supported and can_implement again) are not recorded as candidates a second time."""
    original = cls.__dict__.get("__init__")
    if original is None or getattr(original, "__probe__", False):
        return

    def init(self, *args, _f=original, **kwargs):
        _PAUSED[0] += 1
        try:
            _f(self, *args, **kwargs)
        finally:
            _PAUSED[0] -= 1
    init.__probe__ = True  # type: ignore[attr-defined]
    cls.__init__ = init


CAPABILITY: list[int | None] = [None]


def _wrap_min_capability(cls) -> None:
    original = cls.__dict__.get("get_min_capability")
    if original is None or getattr(getattr(original, "__func__", original), "__probe__", False):
        return
    function = original.__func__ if isinstance(original, (classmethod, staticmethod)) else original

    def wrapped(klass, *args, _f=function, **kwargs):
        value = _f(klass, *args, **kwargs)
        ok = CAPABILITY[0] is None or not isinstance(value, int) or value <= CAPABILITY[0]
        if not _PAUSED[0]:
            _TRIED.append({"kernel": klass.__name__, "check": "get_min_capability", "ok": ok, "reason": str(value)})
        return value
    wrapped.__probe__ = True  # type: ignore[attr-defined]
    cls.get_min_capability = classmethod(wrapped)


def _wrap_kernel_class(cls) -> None:
    _wrap_min_capability(cls)
    for klass in cls.__mro__:
        if klass.__module__.startswith("vllm."):
            _wrap_constructor(klass)
    for method in ("is_supported", "can_implement"):
        original = cls.__dict__.get(method)
        if original is None or getattr(getattr(original, "__func__", original), "__probe__", False):
            continue
        function = original.__func__ if isinstance(original, (classmethod, staticmethod)) else original

        def wrapped(klass, *args, _f=function, _m=method, **kwargs):
            result = _f(klass, *args, **kwargs)
            ok, reason = (result if isinstance(result, tuple) else (bool(result), None))
            if not _PAUSED[0]:
                _TRIED.append({"kernel": klass.__name__, "check": _m, "ok": bool(ok), "reason": reason})
            return result
        wrapped.__probe__ = True  # type: ignore[attr-defined]
        setattr(cls, method, classmethod(wrapped))


def _instrument() -> list[str]:
    """Wrap every kernel selector and every candidate kernel's checks, wherever the engine's modules hold them."""
    wrapped: list[str] = []
    originals = {}
    for module in list(sys.modules.values()):
        if module is None or not getattr(module, "__name__", "").startswith("vllm"):
            continue
        for name, value in _SINGLE_DEVICE.items():  # one device, no tensor parallelism: no process group is needed
            if callable(getattr(module, name, None)):
                setattr(module, name, value)
        for name in _SELECTORS + _BUILDING_SELECTORS:
            function = getattr(module, name, None)
            if callable(function) and not getattr(function, "__wrapped_by_probe__", False):
                original = originals.setdefault(id(function), function)
                setattr(module, name, _wrap_selector(original, name))
                wrapped.append(f"{module.__name__}.{name}")
        for value in list(vars(module).values()):
            if isinstance(value, dict) and value and all(isinstance(v, list) for v in value.values()):
                for kernels in value.values():
                    for kernel in kernels:
                        if isinstance(kernel, type) and hasattr(kernel, "can_implement"):
                            _wrap_kernel_class(kernel)
    return wrapped


def _has_source(name: str) -> bool:
    import vllm
    base = os.path.join(os.path.dirname(vllm.__file__), *name.split(".")[1:])
    return os.path.isdir(base) or os.path.isfile(base + ".py")


def _import_engine_modules() -> None:
    for name in ("vllm.model_executor.layers.quantization.compressed_tensors.compressed_tensors",
                 "vllm.model_executor.layers.quantization.auto_awq", "vllm.model_executor.layers.quantization.auto_gptq",
                 "vllm.model_executor.layers.quantization.awq_marlin",
                 "vllm.model_executor.layers.quantization.gptq_marlin",
                 "vllm.model_executor.kernels.linear",
                 "vllm.model_executor.layers.quantization.kernels.mixed_precision",
                 "vllm.model_executor.layers.quantization.kernels.scaled_mm"):
        if _has_source(name):
            importlib.import_module(name)


def _resolve_method(cell: dict[str, Any]) -> str:
    """The quantization method the engine's override detection picks for this checkpoint config."""
    from vllm.model_executor.layers.quantization import QUANTIZATION_METHODS, get_quantization_config
    declared = cell["hf_config"].get("quant_method", cell.get("quantization"))
    for name in cell.get("override_order") or []:
        if name not in QUANTIZATION_METHODS:
            continue
        method = get_quantization_config(name)
        try:
            found = method.override_quantization_method(cell["hf_config"], None, hf_config=None)
        except TypeError:
            found = method.override_quantization_method(cell["hf_config"], None)
        if found is not None:
            return found
    return declared


def _layer(cell: dict[str, Any], dtype):
    import torch
    from vllm.model_executor.layers import linear

    cls = linear.RowParallelLinear
    layer = cls.__new__(cls)
    torch.nn.Module.__init__(layer)
    k, n = cell.get("shape", [4096, 4096])
    for attr, value in (("input_size", k), ("output_size", n), ("input_size_per_partition", k),
                        ("output_size_per_partition", n), ("output_partition_sizes", [n]), ("tp_size", 1),
                        ("tp_rank", 0), ("params_dtype", dtype), ("prefix", cell["prefix"]), ("quant_config", None),
                        ("skip_bias_add", False), ("return_bias", True), ("input_is_parallel", True),
                        ("reduce_results", True), ("bias", None)):
        with contextlib.suppress(Exception):
            object.__setattr__(layer, attr, value)
    return layer


def _capability_gate(quant_config, method: str, dtype) -> None:
    """The config-level checks the engine makes when it loads the quantization config (minimum capability, act dtype)."""
    from vllm.platforms import current_platform

    capability_tuple = current_platform.get_device_capability()
    if capability_tuple is not None:
        capability = capability_tuple.to_int() if hasattr(capability_tuple, "to_int") else \
            capability_tuple[0] * 10 + capability_tuple[1]
        if capability < quant_config.get_min_capability():
            raise ValueError(f"The quantization method {method} is not supported for the current GPU. Minimum "
                             f"capability: {quant_config.get_min_capability()}. Current capability: {capability}.")
    supported = quant_config.get_supported_act_dtypes()
    if dtype not in supported:
        raise ValueError(f"{dtype} is not supported for quantization method {method}. Supported dtypes: {supported}")


_DTYPE_BYTES = {"I64": 8, "I32": 4, "F32": 4, "F16": 2, "BF16": 2, "I8": 1, "U8": 1, "F8_E4M3": 1}


def _checkpoint_dir(cell: dict[str, Any]) -> str:
    """A folder holding a one-file checkpoint whose safetensors header lists the layer's tensors with their dtypes
    (one element each): what the engine's maybe_update_config reads to learn which layers are quantized."""
    folder = tempfile.mkdtemp(prefix="atlas-checkpoint-")
    header: dict[str, Any] = {}
    offset = 0
    for suffix, dtype in (cell.get("tensors") or {}).items():
        size = _DTYPE_BYTES[dtype]
        header[f"{cell['prefix']}.{suffix}"] = {"dtype": dtype, "shape": [1], "data_offsets": [offset, offset + size]}
        offset += size
    blob = json.dumps(header).encode()
    blob += b" " * (-len(blob) % 8)
    with open(os.path.join(folder, "model.safetensors"), "wb") as stream:
        stream.write(struct.pack("<Q", len(blob)) + blob + b"\0" * offset)
    return folder


def _hard_imports(finder: _EmptyModuleFinder, pinned: set[str]) -> list[str]:
    """Import the engine's selection modules and every quantization config module (as its config loader does);
    a pinned optional package whose absence stops that import is a hard dependency of the release on this
    platform, so it is made importable in every world. Returns those packages, in the order found."""
    found: list[str] = []
    while True:
        try:
            _import_engine_modules()
            from vllm.model_executor.layers.quantization import get_quantization_config
            get_quantization_config("compressed-tensors")
            return found
        except ModuleNotFoundError as error:
            top = (error.name or "").split(".")[0]
            if top not in pinned or top in found:
                return found
            finder.names.add(top)
            found.append(top)
        except Exception:
            return found  # any other failure is observed by the cells themselves


def _run_cell(cell: dict[str, Any]) -> dict[str, Any]:
    import torch
    from vllm.model_executor.layers.quantization import get_quantization_config

    _TRIED.clear()
    _BUILT.clear()
    dtype = getattr(torch, cell.get("dtype", "bfloat16"))
    out: dict[str, Any] = {"scheme": cell["scheme"], "variant": cell.get("variant", ""), "stage": "config"}
    try:
        method = _resolve_method(cell)
        out["method"] = method
        quant_config = get_quantization_config(method).from_config(cell["hf_config"])
        out["stage"] = "config-gate"
        _capability_gate(quant_config, method, dtype)
        update = getattr(quant_config, "maybe_update_config", None)
        if callable(update):  # the engine's config step that reads the checkpoint's safetensors header
            update(_checkpoint_dir(cell), hf_config=None)
        out["stage"] = "scheme"
        layer = _layer(cell, dtype)
        with _engine_config_context(dtype, cell.get("linear_backend", "auto")):
            quant_method = quant_config.get_quant_method(layer, prefix=cell["prefix"])
        out["quant_method"] = type(quant_method).__name__
        scheme = getattr(layer, "scheme", None)
        if scheme is not None:
            out["scheme_class"] = type(scheme).__name__
        if _BUILT:  # the scheme's constructor selected its kernel and the checks after it passed
            raise _Selected(_BUILT[-1]["kernel"], _BUILT[-1]["selector"])
        out["stage"] = "kernel-selection"
        k, n = cell.get("shape", [4096, 4096])
        with _engine_config_context(dtype, cell.get("linear_backend", "auto")):
            quant_method.create_weights(layer, input_size_per_partition=k, output_partition_sizes=[n], input_size=k,
                                        output_size=n, params_dtype=dtype, weight_loader=lambda *a, **kw: None)
        if _BUILT:  # create_weights selected the kernel (MXFP8)
            raise _Selected(_BUILT[-1]["kernel"], _BUILT[-1]["selector"])
        out.update(outcome="loaded-without-selector", kernel=None)
    except _Selected as selected:
        out.update(outcome="selected", kernel=selected.kernel, selector=selected.selector)
    except BaseException as error:  # the engine's refusal, whatever its type, is the observation
        import traceback
        out.update(outcome="error", kernel=None, error_type=type(error).__name__, message=str(error),
                   raised_at=[f"{f.filename.rsplit('/vllm/', 1)[-1]}:{f.lineno} {f.name}"
                              for f in traceback.extract_tb(error.__traceback__)[-4:]])
    out["candidates"] = list(_TRIED)
    out["compiled_queries"] = sorted({json.dumps(c, sort_keys=True) for c in OP_CALLS})
    OP_CALLS.clear()
    return out


class _ModelFacts:
    """The model facts a layer reads from the current config while it is built: only its dtype is known."""

    def __init__(self, dtype) -> None:
        self.dtype = dtype

    def __getattr__(self, name: str):
        return None


def _engine_config_context(dtype, linear_backend: str = "auto"):
    """The engine's default configuration, with the checkpoint's model dtype, as the current one, and the model dtype
    as torch's default dtype, as the model loader sets both while it builds layers. A cell may name a --linear-backend
    value (default auto), set on the configuration's kernel_config as EngineArgs sets it."""
    import contextlib
    import torch

    stack = contextlib.ExitStack()
    try:
        from vllm.config import VllmConfig, set_current_vllm_config
        config = VllmConfig()
        object.__setattr__(config, "model_config", _ModelFacts(dtype))
        if linear_backend != "auto":
            config.kernel_config.linear_backend = linear_backend
        stack.enter_context(set_current_vllm_config(config))
    except Exception:
        pass
    if hasattr(torch, "set_default_dtype") and hasattr(torch, "get_default_dtype"):
        previous = torch.get_default_dtype()
        torch.set_default_dtype(dtype)
        stack.callback(torch.set_default_dtype, previous)
    return stack


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    facts = job["facts"]
    packages = set(job.get("packages") or [])
    # Packages every install of that platform carries (compiled kernels): present as stand-ins, like the engine's own.
    platform_packages = PLATFORM_PACKAGES.get(facts["platform"], set())
    finder = _EmptyModuleFinder(packages | platform_packages, compiled_prefix="vllm.")
    sys.meta_path.append(finder)
    if facts["platform"] == "rocm":
        sys.modules["amdsmi"] = _fake_amdsmi(facts.get("gfx", ""))
    if facts["platform"] == "cpu":
        _simulate_cpu(facts)
        _simulate_cpu_ops(facts)
        if "zentorch" in packages:
            _simulate_zentorch_ops()
    if facts["platform"] == "cuda":
        _simulate_compiled_queries()
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    platform_class = _install_platform(facts, packages)
    CAPABILITY[0] = facts.get("capability")
    hard = _hard_imports(finder, set(facts.get("pinned") or []) - packages)
    _import_engine_modules()
    if facts["platform"] == "cpu" and (facts.get("cpu_arch") or "x86_64") == "x86_64":
        _simulate_x86_triton()
    wrapped = _instrument()
    cells = [_run_cell(cell) for cell in job["cells"]]
    missing = sorted(next((f.missing for f in sys.meta_path if isinstance(f, _RecordingFinder)), set()))
    return {"missing": missing,"target": job["target"], "world": job["world"], "platform_class": platform_class, "hard_imports": hard,
            "selectors_wrapped": sorted(set(w.rsplit(".", 1)[1] for w in wrapped)),
            "stubbed_compiled_modules": sorted(set(STUBBED_COMPILED)), "cells": cells}


def _in_child(job: dict[str, Any]) -> dict[str, Any]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            result = run_job(job)
        except BaseException as error:
            import traceback
            result = {"target": job["target"], "world": job["world"],
                      "job_error": f"{type(error).__name__}: {error}",
                      "traceback": traceback.format_exc(limit=-6)}
        with os.fdopen(write, "w") as stream:
            stream.write(json.dumps(result, default=str))
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as stream:
        text = stream.read()
    os.waitpid(pid, 0)
    return json.loads(text) if text else {"target": job["target"], "world": job["world"],
                                          "job_error": "probe child exited without output"}


class _RecordingFinder(importlib.abc.MetaPathFinder):
    """Import-discovery mode: a missing third-party module is recorded and replaced by a permissive stand-in."""

    def __init__(self) -> None:
        self.missing: set[str] = set()
        self.stand_in = _EmptyModuleFinder(set(), permissive=True)

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.split(".")[0]
        if top == "vllm" or ("." in fullname and top not in self.missing):
            return None
        self.missing.add(top)
        spec = importlib.machinery.ModuleSpec(fullname, self.stand_in, is_package=True)
        return spec


def discover_imports() -> int:
    """Print `missing: NAME` for every third-party module the selection path imports and this environment lacks."""
    if "--all" in sys.argv:
        sys.meta_path.append(_RecordingFinder())
    jobs = [{"target": "discover-cuda", "world": "bare", "facts": {"platform": "cuda", "capability": 90}, "cells": []},
            {"target": "discover-cpu", "world": "bare",
             "facts": {"platform": "cpu", "cpu_arch": "x86_64", "isa": ["avx2", "avx512f"]}, "cells": []}]
    for job in jobs:
        result = _in_child(dict(job, report_missing=True))
        for name in result.get("missing", []):
            print(f"missing: {name}")
        if "job_error" in result:
            fatal = re.match(r"ModuleNotFoundError: No module named '([^'.]+)", result["job_error"])
            print(f"missing: {fatal.group(1)}" if fatal else f"error: {result['job_error']}")
    return 0


def main() -> int:
    if sys.argv[1:2] == ["--imports"]:
        return discover_imports()
    request = json.load(sys.stdin)
    results = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # whatever the engine prints goes to stderr; stdout carries only the JSON results
    sys.stdout = sys.stderr
    os.environ.setdefault("VLLM_TARGET_DEVICE", "empty")
    for module in request.get("preload", []):  # shared, platform-independent imports, made once before forking
        with contextlib.suppress(Exception):
            importlib.import_module(module)
    for job in request["jobs"]:
        results.write(json.dumps(_in_child(job), default=str) + "\n")
        results.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
