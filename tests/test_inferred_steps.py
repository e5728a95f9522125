"""A cell that runs because its kernel meets a requirement marked inferred: explain says what the step tests and where
it was read (the requirement's source, its commit, the kernel's locator for it), not the requirement's failure account."""
from __future__ import annotations

from generators.explain import explain_text

from .memory_atlas import atlas_of

TARGET = {"summary": "s", "sources": [{"source": "s"}], "platform": "cuda"}
FAILURE = "inferred, not read at the release: 'Arch unsupported' is thrown by a dispatch read at another commit"


def _atlas(gate: dict[str, object], other: str = "Dispatch at another commit", where: str = "Runner::dispatchToArch",
           other_id: str = "other", candidates: list[dict[str, object]] | None = None,
           also: list[dict[str, object]] | None = None, more: dict[str, dict[str, object]] | None = None,
           scheme_engine: str = "eng"):
    return atlas_of({
        "source/s": {"name": "S", "summary": "s", "type": "web", "url": "https://x.org/"},
        f"source/{other_id}": {"name": other, "summary": "s", "type": "code", "repository": "o/r",
                         "path": "d.h", "revision": "0249976575050d2c624a5f285683c66de311a3b7"},
        "engine/eng": {"name": "Eng", "summary": "s", "sources": [{"source": "s"}], "version_read": "commit 00bbf71"},
        "kernel/k": {"name": "K", "summary": "s", "engine": "eng",
                     "sources": [{"source": "s"}, {"source": other_id, "locator": where}],
                     "requirements": [gate, *(also or [])]},
        "scheme/sch": {"name": "Eng NVFP4", "summary": "s", "sources": [{"source": "s"}], "engine": scheme_engine,
                       "config": {"weight_type": "int4", "activation_types": ["float16"], "activation_quantized": False},
                       "candidates": candidates or [{"platform": "cuda", "kernels": ["k"]}], "code": {"source": "s"}},
        "hardware-target/sm100": {**TARGET, "name": "SM 10.0", "compute_capability": 100, "order": 1},
        "hardware-target/sm90": {**TARGET, "name": "SM 9.0", "compute_capability": 90, "order": 2}, **(more or {})})


GATE = {"check": "capability-exact", "values": [100, 103, 120, 121], "after_selection": True, "inferred": True,
        "read_in": ["other"], "reason": FAILURE, "reason_verbatim": False, "locator": "d.h at 0249976"}


def test_explain_says_what_a_met_inferred_step_tests_and_where_it_was_read_not_how_it_fails():
    text, ok = explain_text(_atlas(GATE), "sch", "sm100")
    assert ok and "RUNS via k" in text.splitlines()[0]
    assert ("\n     k meets a step marked inferred: compute capability 10.0, 10.3, 12.0 or 12.1, read in other at "
            "commit 0249976, Runner::dispatchToArch, not in Eng at commit 00bbf71") in text
    assert "Arch unsupported" not in text
    # where the target fails the step, the failure account is the reason, as before
    failed, _ = explain_text(_atlas(GATE), "sch", "sm90")
    assert failed.startswith("sch on sm90: FAILS AT RUN TIME via k (inferred ")
    assert "Arch unsupported" in failed and "meets a step marked inferred" not in failed


def test_explain_s_first_line_points_to_the_steps_below_in_the_card_s_words():
    """A cell that lists the inferred steps it rests on says so on its first line (WORDS inferred_below, which the card
    reads too), not that the records say which; one that lists none keeps the pointer to the records."""
    from generators.derive.wording import WORDS

    below = WORDS["inferred_below"]
    assert isinstance(below, dict)
    first = explain_text(_atlas(GATE), "sch", "sm100")[0].splitlines()[0]
    assert first.endswith(f"(inferred from the engine's dispatch code read at commit 00bbf71{below['one']})")
    second = {"check": "capability-min", "value": 90, "inferred": True, "read_in": ["other"], "reason": "r",
              "locator": "d.h at 0249976"}
    two = explain_text(_atlas(GATE, also=[second]), "sch", "sm100")[0].splitlines()[0]
    assert two.endswith(f"at commit 00bbf71{below['many']})")
    failed = explain_text(_atlas(GATE), "sch", "sm90")[0].splitlines()[0]
    assert "below" not in failed and failed.endswith("the kernel or scheme record says which)")


def test_a_step_read_in_the_kernels_engine_names_that_engine_s_release_not_the_cell_s():
    """ONNX Runtime GenAI runs ONNX Runtime's kernels: a GenAI cell's header names GenAI's release, while a step its
    kernel meets is ONNX Runtime's code, not read at ONNX Runtime's release. The step names its own engine and release
    (the kernel's), in explain and in the support tables' note, and the data API gives that engine on the step; a
    step in the cell's own engine names it too."""
    from generators.derive import cells as derive_cells
    from generators.render.matrix import support_matrices_html

    ort = {"engine/eng": {"name": "ORT", "summary": "s", "sources": [{"source": "s"}], "version_read": "1.32.0"},
           "engine/gen": {"name": "ORT GenAI", "summary": "s", "sources": [{"source": "s"}], "version_read": "0.18.0"}}
    atlas = _atlas(GATE, more=ort, scheme_engine="gen")
    text, ok = explain_text(atlas, "sch", "sm100")
    first, step = text.splitlines()[0], next(line for line in text.splitlines() if "a step marked inferred" in line)
    assert ok and "read at release 0.18.0" in first  # the header: the scheme's engine, as before
    assert step.endswith("Runner::dispatchToArch, not in ORT at 1.32.0") and "0.18.0" not in step
    names = {r.ref: r.data["name"] for kind in atlas.index.by_kind.values() for r in kind.values()}
    html = str(support_matrices_html(atlas, "chapters/support-tables.md", names))
    assert "Runner::dispatchToArch, not in ORT at 1.32.0" in html and "not in ORT GenAI" not in html
    cell = derive_cells.derive_cells(atlas.index)[("sch", "sm100")].as_dict()
    assert [s["engine"] for s in cell["inferred_steps"]] == ["eng"]
    own, _ = explain_text(_atlas(GATE, more=ort), "sch", "sm100")
    assert "not in ORT at 1.32.0" in own


def test_every_onnxruntime_genai_step_of_the_records_names_onnx_runtime_s_release(real_atlas):
    """Over the records: every step a GenAI cell rests on is ONNX Runtime's (its kernels), and explain says it was not
    read in ONNX Runtime at its release read, never at GenAI's."""
    genai = real_atlas.index.get("engine", "onnxruntime-genai").data
    ort = real_atlas.index.get("engine", genai["kernels_from"]["engine"])
    checked = 0
    for (scheme, target), cell in sorted(real_atlas.views.cells.items()):
        if cell.engine != "onnxruntime-genai" or not cell.inferred_met:
            continue
        text, _ = explain_text(real_atlas, scheme, target)
        steps = [line for line in text.splitlines() if " a step marked inferred" in line]
        assert steps and all(line.endswith(f", not in {ort.name} at {ort.data['version_read']}") for line in steps)
        assert not any(genai["version_read"] in line for line in steps), (scheme, target)
        checked += 1
    assert checked >= 4  # the INT4 CPU scheme on the Arm and x86 CPU targets


def test_what_a_step_tests_is_said_from_its_check():
    from generators.derive.inferred_steps import step_checked

    assert step_checked({"check": "capability-min", "value": 75, "reason": "r"}, "cuda") == "compute capability at least 7.5"
    assert step_checked({"check": "capability-max", "value": 103, "reason": "r"}, "cuda") == "compute capability at most 10.3"
    assert step_checked({"check": "capability-exact", "values": [90], "reason": "r"}, "cuda") == "compute capability 9.0"
    assert step_checked({"check": "platform", "values": ["cuda", "rocm"], "reason": "r"}, "cuda") == "platform cuda or rocm"
    assert step_checked({"check": "isa", "values": ["avx2"], "reason": "r"}, "cpu") == "CPU feature avx2"
    assert step_checked({"check": "package", "value": "flashinfer", "reason": "r"}, "cuda") == "package flashinfer installed"


def test_the_support_tables_note_names_the_step_in_html_with_its_source_linked():
    from generators.render.matrix import support_matrices_html

    atlas = _atlas(GATE)
    names = {r.ref: r.data["name"] for kind in atlas.index.by_kind.values() for r in kind.values()}
    html = str(support_matrices_html(atlas, "chapters/support-tables.md", names))
    assert ('<a href="../../kernels/k/">K</a> meets a step marked inferred: compute capability 10.0, 10.3, 12.0 or 12.1, '
            'read in <a href="../../sources/other/">Dispatch at another commit</a> at commit 0249976'
            ', Runner::dispatchToArch, not in Eng at commit 00bbf71') in html



def test_a_source_whose_name_names_its_commit_is_not_said_at_that_commit_again():
    """'read in d.h at 0249976 (runner) at commit 0249976' says the commit twice: where the name shown (the page's
    source name, explain's source id) names the commit already, the sentence adds none (WORDS read_at)."""
    from generators.derive.wording import revision_said
    from generators.render.matrix import support_matrices_html

    commit = "0249976575050d2c624a5f285683c66de311a3b7"
    assert revision_said(commit) == " at commit 0249976"
    assert revision_said(commit, "d.h at 0249976 (runner)") == revision_said(commit, "src-d-h-0249976") == ""
    assert revision_said(commit, "d.h at 02499765750") == ""  # a longer prefix of the same commit
    assert revision_said(commit, "d.h at 0249976999 (another commit)") == " at commit 0249976"
    assert revision_said("v1.2", "Eng v1.2 docs") == "" and revision_said("v1.2", "Eng v1.21 docs") == " at v1.2"
    atlas = _atlas(GATE, other="d.h at 0249976 (runner)")
    names = {r.ref: r.data["name"] for kind in atlas.index.by_kind.values() for r in kind.values()}
    html = str(support_matrices_html(atlas, "chapters/support-tables.md", names))
    # the locator follows the name after a comma, so a name with its own parenthesis does not read '(runner) (...)'
    assert ('read in <a href="../../sources/other/">d.h at 0249976 (runner)</a>, Runner::dispatchToArch, not in Eng '
            'at commit 00bbf71') in html
    assert html.count("0249976") == 1
    renamed = _atlas({**GATE, "read_in": ["src-d-h-0249976"]}, other_id="src-d-h-0249976")
    text, _ = explain_text(renamed, "sch", "sm100")
    assert "read in src-d-h-0249976, Runner::dispatchToArch, not in Eng at commit 00bbf71" in text


def test_a_hostile_source_name_or_locator_is_text_in_the_support_tables_note():
    from generators.render.matrix import support_matrices_html

    atlas = _atlas(GATE, other="<script>x</script> & d.h", where="Runner<T>::dispatch & <b>")
    names = {r.ref: r.data["name"] for kind in atlas.index.by_kind.values() for r in kind.values()}
    html = str(support_matrices_html(atlas, "chapters/support-tables.md", names))
    assert "<script>x" not in html and "& <b>" not in html
    assert "&lt;script&gt;x&lt;/script&gt; &amp; d.h</a> at commit 0249976, Runner&lt;T&gt;::dispatch &amp; &lt;b&gt;," in html


def test_a_kept_kernel_that_fails_an_inferred_step_is_said_to_fail_it_not_to_meet_it():
    """A requirement with `declines: false` keeps the kernel where the target fails it, which then computes otherwise:
    the verdict rests on the step, but the target does not meet it (ONNX Runtime's dequantize path above SM 7.9)."""
    from generators.derive import cells as derive_cells

    kept = {"check": "capability-max", "value": 79, "declines": False, "inferred": True, "read_in": ["other"],
            "reason": "on 8.0 and later it multiplies in TF32", "reason_verbatim": False, "locator": "d.h"}
    atlas = _atlas(kept)
    text, ok = explain_text(atlas, "sch", "sm100")
    assert ok and "k fails a step marked inferred and computes otherwise: compute capability at most 7.9" in text
    assert "meets a step marked inferred" not in text
    cell = derive_cells.derive_cells(atlas.index)[("sch", "sm100")].as_dict()
    assert [step["met"] for step in cell["inferred_steps"]] == [False]


def test_the_cell_lists_the_step_a_fallback_past_its_conditions_fails_as_a_step_its_verdict_rests_on():
    """Where a kernel runs under a condition and the kernel the engine selects beyond it computes otherwise because it
    fails an inferred step (ONNX Runtime's GEMV up to 16 rows, then the dequantize path in TF32 on SM 8.0+), that
    step decides that the cell only runs if the condition holds: the cell lists it, unmet, with the condition's."""
    from generators.derive import cells as derive_cells

    kept = {"check": "capability-max", "value": 79, "declines": False, "inferred": True, "read_in": ["other"],
            "reason": "on 8.0 and later it multiplies in TF32", "reason_verbatim": False, "locator": "d.h"}
    rows = {"check": "other", "condition": "at most 16 rows", "inferred": True, "read_in": ["other"],
            "reason": "it declines beyond 16 rows", "reason_verbatim": False}
    k2 = {"name": "K2", "summary": "s", "engine": "eng", "sources": [{"source": "s"}, {"source": "other"}],
          "requirements": [kept]}
    atlas = _atlas(rows, candidates=[{"platform": "cuda", "kernels": ["k", "k2"]}], more={"kernel/k2": k2})
    cells = derive_cells.derive_cells(atlas.index)
    cell = cells[("sch", "sm100")]
    assert cell.verdict.value == "runs-if" and cell.kernel == "k"
    assert [(step["kernel"], step["met"]) for step in cell.as_dict()["inferred_steps"]] == [("k", True), ("k2", False)]
    text, _ = explain_text(atlas, "sch", "sm100")
    assert "k2 fails a step marked inferred and computes otherwise: compute capability at most 7.9" in text


def test_every_cell_of_the_records_says_as_many_steps_below_as_explain_and_the_card_list(real_atlas):
    """The first line's 'but for the step(s) below' (WORDS inferred_below) counts the steps listed under it: in explain
    the step lines under the attempts, on the card the cell's inferred_steps. Read over every cell of the records
    (ONNX Runtime's MatMulNBits on SM 8.0-12.0 rests on two: the GEMV's row limit met, the dequantize path's capability
    step failed)."""
    from generators.derive.wording import WORDS

    below = WORDS["inferred_below"]
    assert isinstance(below, dict)
    checked = 0
    for (scheme, target), cell in sorted(real_atlas.views.cells.items()):
        text, ok = explain_text(real_atlas, scheme, target)
        lines = text.splitlines()
        listed = sum(1 for line in lines[1:] if line.startswith("     ") and " a step marked inferred" in line)
        card = len(cell.as_dict()["inferred_steps"])
        said = 2 if lines[0].endswith(f"{below['many']})") else 1 if lines[0].endswith(f"{below['one']})") else 0
        assert ok and listed == card and said == min(card, 2), (scheme, target, said, listed, card)
        checked += bool(card)
    assert checked >= 20  # the records hold 28 such cells; a check that reads none would pass on nothing
