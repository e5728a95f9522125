"""Engine messages read as the engine prints them: what the records or the observation hold is filled in, and only
a model's layer shape is left as a ‹placeholder›."""
from __future__ import annotations

import re

from generators.derive.cells import FAILS_FIRST_ON_DEFAULT_INSTALL
from generators.derive.printed import resolve
from generators.model.atlas import Atlas

# what a model or its checkpoint decides: a layer's dimensions as the kernels name them, and the group size when the
# scheme admits several (the engine prints the checkpoint's own)
SHAPES = re.compile(r"‹(N|K|n|in_features|in_size|out_size|c\.partition_weight_shape(\[[01]\])?|c\.full_weight_shape\[0\]"
                    r"|c\.group_size|eff_gs|gs)›")


def test_gptq_refused_on_sm70_reads_as_vllm_0_33_0_printed_it(real_atlas: Atlas):
    atlas = real_atlas
    cell = atlas.views.cells[("vllm-gptq-marlin", "nvidia-sm70")]
    printed = {run["message"] for o in atlas.index.all("observation") if o.data.get("release") == "0.33.0"
               for c in o.data.get("cells", []) if (c["scheme"], c["target"]) == ("vllm-gptq-marlin", "nvidia-sm70")
               for run in c.get("runs", []) if run.get("message")}
    # (what a build for 7.0 prints; the reason after it says a default install fails at run time before it)
    assert cell.gate == cell.reasons[0] and [r[:len(FAILS_FIRST_ON_DEFAULT_INSTALL)] for r in cell.reasons[1:]] == [
        FAILS_FIRST_ON_DEFAULT_INSTALL]
    assert cell.reasons[0].startswith("Marlin does not support weight_bits = uint4b8. Only types = [] are supported")
    assert cell.reasons[0] in printed  # one of the lines 0.33.0 printed (one per checkpoint group size it was run with)


def test_aiter_names_the_fp8_type_of_the_platform(real_atlas: Atlas):
    cells = real_atlas.views.cells
    for target, dtype in (("amd-gfx942", "torch.float8_e4m3fnuz"), ("amd-gfx950", "torch.float8_e4m3fn")):
        texts = [c for a in cells[("vllm-ct-w8a8-fp8", target)].attempts for c in a.conditions if "tuned configuration" in c]
        assert texts and all(f"fp8 dtype {dtype}." in t for t in texts)


def test_no_refusal_keeps_a_placeholder_and_only_layer_shapes_stay_elsewhere(real_atlas: Atlas):
    cells = real_atlas.views.cells.values()
    refusals = [r for c in cells for r in (c.gate, *c.reasons, *(a.reason for a in c.attempts)) if "‹" in r]
    assert refusals == []
    left = {p for c in cells for a in c.attempts for text in (*a.conditions, *a.limits)
            for p in re.findall(r"‹[^›]*›", text)}
    assert left and all(SHAPES.fullmatch(p) for p in left), sorted(p for p in left if not SHAPES.fullmatch(p))


def test_a_placeholder_takes_the_printed_text_only_when_the_rest_matches():
    lines = ("Only types = [] are supported (for group_size = -1)", "Only types = [x] are supported (for group_size = 128)")
    assert resolve("Only types = ‹t› are supported (for group_size = 128)", lines) == lines[1]
    assert resolve("Only types = ‹t› are supported (for group_size = 64)", lines) == (
        "Only types = ‹t› are supported (for group_size = 64)")
    assert resolve("no placeholder", lines) == "no placeholder"


def test_a_dtype_refusal_names_float32_on_nvidia_and_keeps_the_model_dtype_on_gaudi(real_atlas: Atlas):
    """vLLM 0.26.0's config test on vLLM-Gaudi (f"{model_config.dtype} is not supported ... Supported dtypes:
    {supported_dtypes}", config/vllm.py lines 694-696) takes bfloat16 alone, so float16 (--dtype auto on a float16
    checkpoint) and float32 (--dtype float32) both reach it: each cell quoting it keeps ‹model_config.dtype› and prints
    the check's list as torch does. The NVIDIA NVFP4, MXFP4, MXFP8 and FP8 checks take float16 and bfloat16, so only a
    float32 model reaches them: each refusal quoted names torch.float32."""
    cells, index = real_atlas.views.cells, real_atlas.index
    checks = [(k.id, r) for k in index.all("kernel") for r in k.data.get("requirements", [])
              if r.get("check") == "activation-type" and re.search(r"\{(model_config|input|x)?\.?dtype\}", r["reason"])]
    seen = {"gaudi": 0, "float32": 0}
    for kernel, check in checks:
        head = max(re.split(r"\{[^{}]*\}", check["reason"]), key=len)  # its longest literal part
        said = [r for cell in cells.values() for step in (cell, *cell.otherwise) for r in step.reasons
                if r.startswith(f"{kernel}: ") and head in r]
        if "{model_config.dtype}" in check["reason"]:
            listed = "[" + ", ".join(f"torch.{t}" for t in check["values"]) + "]"
            assert said and all("‹model_config.dtype› is not supported" in r and f"Supported dtypes: {listed}" in r
                                for r in said), said
            seen["gaudi"] += 1
        elif set(check["values"]) == {"float16", "bfloat16"}:
            assert all("torch.float32" in r and "dtype›" not in r for r in said), said
            seen["float32"] += bool(said)
    assert seen["gaudi"] == 3 and seen["float32"] >= 6, seen  # the three Gaudi configs; the six kernels msg40 filled


def test_a_gptqmodel_refusal_names_its_class_and_list_as_python_prints_them(real_atlas: Atlas):
    """GPTQModel 7.7.0's validation messages are classmethod f-strings: `{cls}` prints the class by type.__repr__
    (<class 'module.Name'>, the kernel's dotted class_name) and `{cls.SUPPORTS_GROUP_SIZE}` the class's list as
    Python prints it (nn_modules/qlinear/__init__.py lines 452 and 714); the device the first ends with is the
    user's map's, so that reason stops at its colon."""
    cells, index = real_atlas.views.cells, real_atlas.index
    texts = [r for cell in cells.values() for step in (cell, *cell.otherwise)
             for r in (*step.reasons, *(f"{a.kernel}: {a.reason}" for a in getattr(step, "attempts", ())))]
    seen = set()
    for kernel in index.all("kernel"):
        for check in kernel.data.get("requirements", []):
            if not check.get("reason", "").startswith("{cls} "):
                continue
            head = max(re.split(r"\{[^{}]*\}", check["reason"]), key=len)  # its longest literal part
            said = [r for r in texts if r.startswith(f"{kernel.id}: ") and head in r]
            printed = f"<class '{kernel.data['class_name']}'>"
            if check.get("check") == "group-size":
                printed += f" only supports `[{', '.join(str(v) for v in check['values'])}]` group_size"
            assert all(printed in r and "‹cls" not in r for r in said), (kernel.id, said)
            seen.update((kernel.id, check["check"]) for _ in said[:1])
    assert {("transformers-gptqmodel-machete", "capability-exact"), ("transformers-gptqmodel-swordfish",
            "capability-exact"), ("transformers-gptqmodel-torch-aten", "group-size")} <= seen, seen
