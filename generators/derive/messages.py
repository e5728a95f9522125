"""Engine messages as the engine would print them for one cell: its f-string placeholders filled.

Kernel and gate reasons are recorded verbatim, with the f-string placeholders the engine's source
holds (`{c.weight_type}`, `{compute_capability}`, ...). For a given (scheme, target) the engine fills
them from the layer configuration, the platform and the requirement's own accepted values; this
module does the same from the records. A placeholder whose value the records do not hold is shown as
‹expression›, never as a bare brace template. A self-documenting placeholder (`{c.out_type=}`) prints its own
expression text and then the value's repr(), which the records never hold: `c.out_type=‹c.out_type›`.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..model.fields import HardwareTargetFields

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_CAPABILITY = ("compute_capability", "device_capability", "capability")
_SUPPORTED_LIST = re.compile(r"SUPPORTED|supported_types|quant_types|query_machete")


def engine_message(template: str, target: HardwareTargetFields, scheme: Mapping[str, Any],
                   requirement: Mapping[str, Any] | None = None) -> str:
    """The message with every placeholder the records can fill replaced by what the engine would print."""
    values = _known_values(target, scheme, requirement or {})
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
    if _SUPPORTED_LIST.search(expression) and requirement.get("values"):
        return _python_list(requirement["check"], requirement["values"])
    return f"‹{expression}›"


def _python_list(check: str, accepted: list[Any]) -> str:
    if check == "weight-type":
        return "[" + ", ".join(f"ScalarType.{v}" for v in accepted) + "]"
    return "[" + ", ".join(str(v) for v in accepted) + "]"
