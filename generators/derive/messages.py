"""Engine messages as the engine would print them for one cell: its f-string placeholders filled.

Kernel and gate reasons are recorded verbatim, with the f-string placeholders the engine's source
holds (`{c.weight_type}`, `{compute_capability}`, ...). For a given (scheme, target) the engine fills
them from the layer configuration, the platform and the requirement's own accepted values; this
module does the same from the records. A placeholder whose value the records do not hold is shown as
‹expression›, never as a bare brace template. A self-documenting placeholder (`{c.out_type=}`) prints its own
expression text and then the value's repr(), which the records never hold: `c.out_type=‹c.out_type›`.

The rule for what is filled: a placeholder takes a value only where that value is a fact the records already state
once, and it is derived from that fact here, never typed again into a record; the value is printed as the engine
prints it (a torch dtype with its module, `torch.float32`; a list of them as Python prints a list, by repr,
`[torch.bfloat16]`). A value that depends on the user's run (the model's name or path, a layer's shape, a dtype
several runs could bring) is no such fact and keeps its marker. So an activation-dtype check's message names a model
dtype only where one alone can reach it and fail (`_refused_dtype`): a float32 model for NVIDIA kernels that take
float16 and bfloat16; not for vLLM's config test on vLLM-Gaudi (`f"{model_config.dtype} is not supported for
quantization method {...}. Supported dtypes: {supported_dtypes}"`, vLLM 0.26.0 config/vllm.py lines 691-697), which
takes bfloat16 alone and so prints torch.float16 for a float16 checkpoint under --dtype auto and torch.float32 under
--dtype float32. Its list of supported dtypes is the check's accepted `values` where it holds one dtype (the order of
several is the engine's, which the records do not state). A placeholder's text is only looked up, never evaluated:
it is replaced where it is a name `_known_values` holds, a requirement's constant or a supported list.

A bare `{cls}` in a classmethod's message is the class object, which an f-string prints by type.__repr__ as
<class 'module.Name'>: it is filled from the kernel's `class_name` where that is the class's dotted path (GPTQModel
7.7.0's _validate_shared and GPTQQuantLinear._validate, nn_modules/qlinear/__init__.py lines 452 and 714; no
GPTQModel QuantLinear class has a metaclass). A class's list constant (`cls.SUPPORTS_GROUP_SIZE`) is the check's
accepted `values`, printed as Python prints a list, where the record lists them in the class's order.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..model.fields import HardwareTargetFields, KernelFields

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_CAPABILITY = ("compute_capability", "device_capability", "capability")
_SUPPORTED_LIST = re.compile(r"SUPPORTED|SUPPORTS_GROUP_SIZE|supported_types|supported_dtypes|quant_types|query_machete")
_DOTTED_PATH = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")  # a module path and a class name
MODEL_DTYPES = ("float32", "float16", "bfloat16")  # the dtypes a model runs in (others a scheme names are quantized)
# What these print in an activation-dtype check's message is the model's dtype, the one the check tests: vLLM's
# config test prints model_config.dtype (0.26.0 config/vllm.py lines 694-696); scaled_fp4_quant's `input.dtype` and
# the CuTe-DSL W4A16 kernel's `x.dtype` are the layer input's (0.33.0 _custom_ops.py line 1567, nvfp4/flashinfer.py
# line 88), as is FlashInfer's mxfp4_quantize_cute_dsl `input.dtype` (0.7.2.post1, mxfp4_quantize.py line 1142);
# FlashInfer's FP8 and MXFP8 GEMMs print their output `dtype` (gemm_base.py lines 4044-4050, 12504-12510), which vLLM
# sets to the input's (ScaledMMLinearKernel.py line 161) or the model's (the kernel records' locators).
_MODEL_DTYPE = ("model_config.dtype", "input.dtype", "x.dtype", "dtype")


def engine_message(template: str, target: HardwareTargetFields, scheme: Mapping[str, Any],
                   requirement: Mapping[str, Any] | None = None, kernel: KernelFields | None = None) -> str:
    """The message with every placeholder the records can fill replaced by what the engine would print."""
    values = _known_values(target, scheme, requirement or {})
    class_name = str(kernel.get("class_name", "")) if kernel else ""
    if _DOTTED_PATH.fullmatch(class_name):  # f"{cls}" on a class: type.__repr__
        values["cls"] = f"<class '{class_name}'>"
    refused = _refused_dtype(requirement or {}, target)
    if refused:
        values.update({name: f"torch.{refused}" for name in _MODEL_DTYPE})
    return _PLACEHOLDER.sub(lambda m: _fill(m.group(1), values, requirement or {}), template)


def _known_values(target: HardwareTargetFields, scheme: Mapping[str, Any], requirement: Mapping[str, Any]) -> dict[str, str]:
    config = scheme.get("config", {})
    values: dict[str, str] = {}
    capability = target.get("compute_capability")
    if capability is not None:
        values.update({name: str(capability) for name in _CAPABILITY})
    if target.get("fp8_dtype"):
        values["fp8_dtype"] = f"torch.{target['fp8_dtype']}"  # a torch dtype prints with its module
    bound = requirement.get("bound", requirement.get("value") if str(requirement.get("check", "")).startswith("capability-") else None)
    if isinstance(bound, int) and not isinstance(bound, bool):
        values["min_capability"] = str(bound)
        values["quant_config.get_min_capability()"] = str(bound)
    if "weight_type" in config:
        values["c.weight_type"] = values["quant_type"] = str(config["weight_type"])
        width = size_bits(str(config["weight_type"]))
        if width is not None:  # vLLM-Gaudi's HPUMPLinearKernel.can_implement: bits = c.weight_type.size_bits
            values["c.weight_type.size_bits"] = values["bits"] = str(width)
    if len(config.get("group_sizes") or []) == 1:  # several: the checkpoint's own size is printed, not known here
        group = str(config["group_sizes"][0])
        values.update({"c.group_size": group, "group_size": group, "gs": group, "eff_gs": group})
    if config.get("activation_types"):
        values["c.act_type"] = f"torch.{config['activation_types'][0]}"
    # `c.out_type` is the model's dtype (W4A8-FP8 sets it to params_dtype, others leave it None), never the
    # activation type a scheme quantizes to; the records do not hold it, so it stays ‹c.out_type›.
    if "zero_points" in config:
        values["has_zp"] = str(bool(config["zero_points"]))
    if scheme.get("method"):
        values["model_config.quantization"] = str(scheme["method"])
    return values


def _refused_dtype(requirement: Mapping[str, Any], target: HardwareTargetFields) -> str:
    """The model dtype an activation-dtype check's message names, where only one can reach the check and fail it: of
    the dtypes a model can be given on the target (its `model_dtypes`, else any of MODEL_DTYPES: vLLM's --dtype takes
    each whatever the checkpoint's), those the check is scoped to and does not accept. Not the scheme's activation
    types: they can be the dtypes --dtype auto gives (vLLM-Gaudi's schemes), and an explicit --dtype reaches the check
    too. '' where none or several can (which one the engine prints is then the user's run's)."""
    if requirement.get("check") != "activation-type" or not requirement.get("values"):
        return ""
    scoped = (requirement.get("when") or {}).get("activation_types")
    refused = [t for t in target.get("model_dtypes") or MODEL_DTYPES
               if t not in requirement["values"] and (not scoped or t in scoped)]
    return refused[0] if len(refused) == 1 else ""


_SCALAR = re.compile(r"u?int(\d+)(b\d+)?|b?float(\d+)(_e\d+m\d+[a-z]*)?")


def size_bits(weight_type: str) -> int | None:
    """The width vLLM's ScalarType of that name reports as size_bits (exponent, mantissa and sign bits: uint8b128 is
    8, uint4b8 4, float8_e4m3fn 8); None for a type that is no vLLM scalar type (ggml_q4_0, bnb_nf4)."""
    found = _SCALAR.fullmatch(weight_type)
    return None if found is None else int(found.group(1) or found.group(3))


def _fill(expression: str, values: dict[str, str], requirement: Mapping[str, Any]) -> str:
    if expression.rstrip().endswith("=") and not expression.rstrip().endswith("=="):
        # f"{x=}" prints the expression as written, "=" included, then repr(x) (not the str() the values hold)
        return f"{expression}‹{expression.rstrip()[:-1].strip()}›"
    expression = expression.strip()
    if expression in values:
        return values[expression]
    if expression in (requirement.get("constants") or {}):
        return str(requirement["constants"][expression])
    # a divisibility group-size test lists only what it takes besides the multiples (`multiple_of`): not the engine's list
    listed = _SUPPORTED_LIST.search(expression) and requirement.get("values") and "multiple_of" not in requirement
    return (listed and _python_list(requirement["check"], requirement["values"])) or f"‹{expression}›"


def _python_list(check: str, accepted: list[Any]) -> str:
    if check == "weight-type":
        return "[" + ", ".join(f"ScalarType.{v}" for v in accepted) + "]"
    if check == "activation-type":  # get_supported_act_dtypes()'s list prints each torch dtype by repr, in its order
        return f"[torch.{accepted[0]}]" if len(accepted) == 1 else ""
    return "[" + ", ".join(str(v) for v in accepted) + "]"
