"""Checkpoint configurations: the `quantization_config` a checkpoint of each modelled scheme carries.

The probe hands these dictionaries to the engine's own config loader (`from_config`), exactly as the engine
reads them from a model's config.json; nothing here decides what the engine does with them. One builder per
scheme class, parameterised by the scheme record's `config` (group size, model dtype).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

PREFIX = "model.layers.0.mlp.down_proj"


@dataclass(frozen=True)
class Layout:
    """What a checkpoint variant's config states about its weights: the group size (-1 per channel), the integer
    weight width and whether it has zero points, read from the scheme record's config."""
    group_size: int
    bits: int = 4
    symmetric: bool = True


def _weights(num_bits: int, kind: str, group_size: int, symmetric: bool = True) -> dict[str, Any]:
    strategy = "channel" if group_size == -1 else "group"
    weights: dict[str, Any] = {"num_bits": num_bits, "type": kind, "symmetric": symmetric, "strategy": strategy,
                               "dynamic": False}
    if strategy == "group":
        weights["group_size"] = group_size
    return weights


def _compressed_tensors(fmt: str, weights: dict[str, Any], inputs: dict[str, Any] | None) -> dict[str, Any]:
    group: dict[str, Any] = {"targets": ["Linear"], "weights": weights}
    if inputs is not None:
        group["input_activations"] = inputs
    return {"quant_method": "compressed-tensors", "format": fmt, "ignore": ["lm_head"],
            "config_groups": {"group_0": group}}


def _ct_w4a8_int(layout: Layout) -> dict[str, Any]:
    inputs = {"num_bits": 8, "type": "int", "symmetric": True, "strategy": "token", "dynamic": True}
    return _compressed_tensors("int-quantized", _weights(4, "int", layout.group_size), inputs)


def _ct_w4a8_fp8(layout: Layout) -> dict[str, Any]:
    inputs = {"num_bits": 8, "type": "float", "symmetric": True, "strategy": "token", "dynamic": True}
    return _compressed_tensors("float-quantized", _weights(4, "int", layout.group_size), inputs)


def _ct_w8a8_fp8(layout: Layout) -> dict[str, Any]:
    weights = {"num_bits": 8, "type": "float", "symmetric": True, "strategy": "channel", "dynamic": False}
    inputs = {"num_bits": 8, "type": "float", "symmetric": True, "strategy": "token", "dynamic": True}
    return _compressed_tensors("float-quantized", weights, inputs)


def _ct_w8a16_fp8(layout: Layout) -> dict[str, Any]:
    weights = {"num_bits": 8, "type": "float", "symmetric": True, "strategy": "channel", "dynamic": False}
    return _compressed_tensors("float-quantized", weights, None)  # weight-only: no input_activations


def _ct_w8a8_int8(layout: Layout) -> dict[str, Any]:
    weights = {"num_bits": 8, "type": "int", "symmetric": True, "strategy": "channel", "dynamic": False}
    inputs = {"num_bits": 8, "type": "int", "symmetric": True, "strategy": "token", "dynamic": True}
    return _compressed_tensors("int-quantized", weights, inputs)


def _microscaled(num_bits: int, strategy: str, group_size: int, scale_dtype: str, dynamic: Any) -> dict[str, Any]:
    # Serialized as compressed-tensors writes its preset (quant_scheme.py NVFP4 / MXFP4 / MXFP8) into config.json:
    # scale_dtype as "torch.<dtype>", zp_dtype omitted (it serializes to null when symmetric).
    return {"num_bits": num_bits, "type": "float", "symmetric": True, "strategy": strategy, "group_size": group_size,
            "dynamic": dynamic, "scale_dtype": scale_dtype}


def _ct_w4a4_nvfp4(layout: Layout) -> dict[str, Any]:
    return _compressed_tensors("nvfp4-pack-quantized",
                               _microscaled(4, "tensor_group", layout.group_size, "torch.float8_e4m3fn", False),
                               _microscaled(4, "tensor_group", layout.group_size, "torch.float8_e4m3fn", "local"))


def _ct_w4a4_mxfp4(layout: Layout) -> dict[str, Any]:
    return _compressed_tensors("mxfp4-pack-quantized", _microscaled(4, "group", layout.group_size, "torch.uint8", False),
                               _microscaled(4, "group", layout.group_size, "torch.uint8", True))


def _ct_w8a8_mxfp8(layout: Layout) -> dict[str, Any]:
    return _compressed_tensors("mxfp8-quantized", _microscaled(8, "group", layout.group_size, "torch.uint8", False),
                               _microscaled(8, "group", layout.group_size, "torch.uint8", True))


def _ct_wna16(layout: Layout) -> dict[str, Any]:
    return _compressed_tensors("pack-quantized", _weights(layout.bits, "int", layout.group_size, layout.symmetric), None)


def _awq(layout: Layout) -> dict[str, Any]:
    return {"quant_method": "awq", "bits": 4, "group_size": layout.group_size, "zero_point": True, "version": "gemm",
            "modules_to_not_convert": None}


def _fp8_block(layout: Layout) -> dict[str, Any]:
    # vLLM's own fp8 method as DeepSeek-V3 and Qwen3-FP8 checkpoints write it: 128 x 128 weight blocks (the block is
    # the scheme's, not a group size), dynamic activations.
    return {"quant_method": "fp8", "fmt": "e4m3", "activation_scheme": "dynamic", "weight_block_size": [128, 128]}


def _fp8_tensor(activation_scheme: str) -> dict[str, Any]:
    # vLLM's own fp8 method without weight_block_size: one weight scale per tensor, activations static (an
    # input_scale per layer in the checkpoint) or dynamic, as the checkpoint's activation_scheme says.
    return {"quant_method": "fp8", "activation_scheme": activation_scheme}


def _gptq(layout: Layout) -> dict[str, Any]:
    return {"quant_method": "gptq", "bits": layout.bits, "group_size": layout.group_size, "desc_act": False, "sym": True,
            "lm_head": False, "checkpoint_format": "gptq"}


BUILDERS: dict[str, Callable[[Layout], dict[str, Any]]] = {
    "CompressedTensorsW4A8Int": _ct_w4a8_int,
    "CompressedTensorsW4A8Fp8": _ct_w4a8_fp8,
    "CompressedTensorsW8A8Fp8": _ct_w8a8_fp8,
    "CompressedTensorsW8A16Fp8": _ct_w8a16_fp8,
    "CompressedTensorsW8A8Int8": _ct_w8a8_int8,
    "CompressedTensorsWNA16": _ct_wna16,
    "CompressedTensorsW4A4Fp4": _ct_w4a4_nvfp4,
    "CompressedTensorsW4A4Mxfp4": _ct_w4a4_mxfp4,
    "CompressedTensorsW8A8Mxfp8": _ct_w8a8_mxfp8,
    "AutoAWQMarlinLinearMethod": _awq,
    "AutoGPTQLinearMethod": _gptq,
    "Fp8LinearMethod": _fp8_block,
}

# The tensors a checkpoint of each scheme class stores for one linear layer (safetensors dtype per name suffix);
# the engine reads their dtypes from the checkpoint header to learn which layers are quantized.
_PACKED_INT4 = {"qweight": "I32", "qzeros": "I32", "scales": "F16"}
TENSORS: dict[str, dict[str, str]] = {
    "CompressedTensorsW4A8Int": {"weight_packed": "I32", "weight_scale": "BF16", "weight_shape": "I64"},
    "CompressedTensorsW4A8Fp8": {"weight_packed": "I32", "weight_scale": "BF16", "weight_shape": "I64"},
    "CompressedTensorsW8A8Fp8": {"weight": "F8_E4M3", "weight_scale": "F32"},
    "CompressedTensorsW8A16Fp8": {"weight": "F8_E4M3", "weight_scale": "F32"},
    "CompressedTensorsW8A8Int8": {"weight": "I8", "weight_scale": "F32"},
    "CompressedTensorsWNA16": {"weight_packed": "I32", "weight_scale": "BF16", "weight_shape": "I64"},
    "CompressedTensorsW4A4Fp4": {"weight_packed": "U8", "weight_scale": "F8_E4M3", "weight_global_scale": "F32",
                                 "input_global_scale": "F32"},
    "CompressedTensorsW4A4Mxfp4": {"weight_packed": "U8", "weight_scale": "U8"},
    "CompressedTensorsW8A8Mxfp8": {"weight": "F8_E4M3", "weight_scale": "U8"},
    "AutoAWQMarlinLinearMethod": _PACKED_INT4,
    "AutoGPTQLinearMethod": {**_PACKED_INT4, "g_idx": "I32"},
    "Fp8LinearMethod": {"weight": "F8_E4M3", "weight_scale_inv": "F32"},
}

# Older releases name the same schemes' classes differently; the checkpoint is the same.
ALIASES: dict[str, str] = {"AWQMarlinLinearMethod": "AutoAWQMarlinLinearMethod",
                           "GPTQMarlinLinearMethod": "AutoGPTQLinearMethod"}


# Scheme classes the probe writes no checkpoint for, with why: their cells stay read from code (known_by code).
UNPROBED: dict[str, str] = {
    "GGUFLinearMethod": "a GGUF checkpoint is one .gguf file that vllm-gguf-plugin's loader reads, not a safetensors "
                        "layer with a quantization_config, which is what the probe writes",
}


def checkpoint_tensors(class_name: str) -> dict[str, str]:
    """The layer's tensors and their safetensors dtypes in a checkpoint of this scheme class."""
    return dict(TENSORS.get(ALIASES.get(class_name, class_name), {}))


def checkpoint_configs(class_name: str, config: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """(variant label, quantization_config, model dtype) for each modelled group size, with the preferred dtype.

    The dtype is bfloat16 when the scheme accepts it (the usual checkpoint dtype), else the first listed.
    """
    builder = BUILDERS.get(ALIASES.get(class_name, class_name))
    if builder is None:
        return []
    dtypes = [d for d in config.get("activation_types", []) if d in ("bfloat16", "float16", "float32")]
    dtype = "bfloat16" if "bfloat16" in dtypes or not dtypes else dtypes[0]
    if "block" in config.get("weight_scales", []):  # scaled per square weight block, not per group of a row
        return [("block", builder(Layout(-1)), dtype)]
    if builder is _fp8_block:  # the same method with per-tensor weights: one checkpoint per activation scheme
        kinds = [k for k in ("static", "dynamic") if any(s.startswith(k) for s in config.get("activation_scales", []))]
        return [(f"tensor-{kind}", _fp8_tensor(kind), dtype) for kind in kinds]
    bits, symmetric = _integer_width(config.get("weight_type", "")), not config.get("zero_points", False)
    sizes = config.get("group_sizes") or [-1]
    preferred = [s for s in sizes if s == 128] or sizes[:1]
    variants = preferred + [s for s in sizes if s == -1 and s not in preferred]
    return [(f"g{size}" if size != -1 else "channel", builder(Layout(size, bits, symmetric)), dtype)
            for size in variants]


def _integer_width(weight_type: str) -> int:
    """The bits of an integer weight type as vLLM's scalar types name them (uint4b8, uint8b128, uint8, int4); 4
    for any other type, which the builders of float and microscaled schemes do not read."""
    match = re.fullmatch(r"u?int(\d+)(?:b\d+)?", weight_type)
    return int(match.group(1)) if match else 4
