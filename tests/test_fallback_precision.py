"""A fallback's short "Computes in" (the comparison's cell, api `computes_short`) says no precision its full note
(`computes_as`) does not say, and none the target cannot load the model in."""
from __future__ import annotations

import re

from generators.derive.route_computes import PRECISION_OF, precision_label

# how a full note names each precision a short form may give ("the model dtype" and "16-bit" name the dtypes the
# target loads the model in, checked against its model_dtypes below)
_SAID = {"FP16": r"float16|\bFP16\b|\bfp16\b", "BF16": r"bfloat16|\bBF16\b|\bbf16\b", "FP32": r"float32|\bFP32\b",
         "FP8 E4M3": r"FP8 E4M3"}
_ANY_MODEL_DTYPE = {"FP16": r"model dtype|16-bit", "BF16": r"model dtype|16-bit"}


def test_a_short_form_claims_no_precision_the_full_note_or_the_target_does_not(real_atlas):
    cells, answers, index = real_atlas.views.cells, real_atlas.views.answers, real_atlas.index
    wrong, shortened = [], 0
    for key, answer in answers.items():
        short, cell = answer.computes_short, cells[key]
        if short is None:
            continue
        shortened += 1
        target = index.get("hardware-target", cell.target)
        # a target's model_dtypes are its dtypes_engine's rule (vLLM's), no other engine's
        ruled = target is not None and target.data.get("dtypes_engine") == cell.engine
        loads = {precision_label(PRECISION_OF[d]) for d in target.data.get("model_dtypes", [])} if ruled else set()
        for label in short.precisions:
            said = re.search(_SAID.get(label, re.escape(label)), cell.computes_as)
            by_dtype = re.search(_ANY_MODEL_DTYPE.get(label, r"(?!)"), cell.computes_as)
            if not (said or by_dtype) or (label in _ANY_MODEL_DTYPE and loads and label not in loads):
                wrong.append((key, label, cell.computes_as[:90]))
    assert shortened > 50  # the records give most fallbacks a short form: this test reads them
    assert wrong == [], "\n".join(map(str, wrong))
