"""inferred-read-in: each source a requirement marked inferred was read in is cited by its kernel with a locator."""
from __future__ import annotations

from generators.checks.inferred_read_in import check

from .test_inferred_steps import GATE, _atlas


def test_a_source_an_inferred_step_was_read_in_must_be_cited_by_the_kernel_with_a_locator():
    atlas = _atlas(GATE)
    assert list(check(atlas, atlas.index.must("kernel", "k"))) == []
    uncited = _atlas({**GATE, "read_in": ["other", "s"]})  # `s` is cited without a locator
    (problem,) = check(uncited, uncited.index.must("kernel", "k"))
    assert problem.rule == "inferred-read-in" and "'s' is not cited with a locator" in problem.message


def test_a_requirement_or_candidate_list_marked_inferred_must_name_the_sources_it_was_read_in():
    """The schema asks `read_in` with `inferred` of a kernel requirement and of a scheme's candidate list alike, at the
    record's line and column (the validator's message), not of one that is not inferred."""
    from generators.validate import validate_records

    from .memory_atlas import real_schemas, record

    kernel = {"name": "K", "summary": "s", "engine": "eng", "sources": [{"source": "s"}],
              "requirements": [{k: v for k, v in GATE.items() if k != "read_in"}]}
    scheme = {"name": "S", "summary": "s", "sources": [{"source": "s"}], "engine": "eng", "code": {"source": "s"},
              "config": {"weight_type": "int8", "activation_types": ["float16"], "activation_quantized": False},
              "candidates": [{"platform": "cuda", "kernels": [], "failure_message": "m", "inferred": True}]}
    problems = validate_records([record("kernel", "k", kernel), record("scheme", "s", scheme)], real_schemas())
    assert sorted(p.message for p in problems) == ["candidates[0]: missing required field 'read_in'",
                                                    "requirements[0]: missing required field 'read_in'"]
    assert all(p.line > 1 and p.column > 0 for p in problems)
    scheme["candidates"][0]["inferred"] = False
    assert validate_records([record("scheme", "s", scheme)], real_schemas()) == []


def test_a_source_an_inferred_candidate_list_was_read_in_must_be_cited_by_the_list_or_the_scheme():
    listed = {"platform": "cuda", "kernels": ["k"], "inferred": True, "read_in": ["other"], "locator": "l"}
    atlas = _atlas(GATE, candidates=[listed])
    (problem,) = check(atlas, atlas.index.must("scheme", "sch"))  # `other` is cited by the kernel only
    assert problem.rule == "inferred-read-in" and "'other' is not cited with a locator in the list's or the scheme's" \
        in problem.message and problem.line > 1
    cited = _atlas(GATE, candidates=[{**listed, "sources": [{"source": "other", "locator": "mode.py, from_quant_algo"}]}])
    assert list(check(cited, cited.index.must("scheme", "sch"))) == []


def test_read_in_on_a_requirement_or_candidate_list_not_marked_inferred_is_refused():
    """`read_in` says where a step marked inferred was read instead; on a step that is not (no `inferred`, or false) it
    would say a step read in the engine was read elsewhere, and no answer shows it: the schema refuses it at the
    record's line and column, on the requirement and on the candidate list alike."""
    from generators.validate import validate_records

    from .memory_atlas import real_schemas, record

    plain = {k: v for k, v in GATE.items() if k != "inferred"}
    kernel = {"name": "K", "summary": "s", "engine": "eng", "sources": [{"source": "s", "locator": "l"}],
              "requirements": [plain, {**plain, "inferred": False}]}
    scheme = {"name": "S", "summary": "s", "sources": [{"source": "s", "locator": "l"}], "engine": "eng",
              "code": {"source": "s"},
              "config": {"weight_type": "int8", "activation_types": ["float16"], "activation_quantized": False},
              "candidates": [{"platform": "cuda", "kernels": [], "failure_message": "m", "read_in": ["s"]}]}
    problems = validate_records([record("kernel", "k", kernel), record("scheme", "s", scheme)], real_schemas())
    messages = sorted(p.message for p in problems)
    assert [m.split(":")[0] for m in messages] == ["candidates[0]", "requirements[0]", "requirements[1].inferred"]
    # a missing `inferred` says why `read_in` asks for it (the `then`'s description), not only that it is missing
    assert messages[0] == ("candidates[0]: missing required field 'inferred': `read_in` names the sources a step "
                           "marked inferred was read in, so the candidate list it is on is marked `inferred: true` "
                           "(or, where the step was read in the engine, has no `read_in`)")
    assert messages[1] == ("requirements[0]: missing required field 'inferred': `read_in` names the sources a step "
                           "marked inferred was read in, so the requirement it is on is marked `inferred: true` "
                           "(or, where the step was read in the engine, has no `read_in`)")
    assert "False is not allowed here: `read_in` names the sources a step marked inferred was read in" in messages[2]
    assert all(p.line > 1 and p.column > 0 for p in problems)
    kernel["requirements"] = [GATE]
    scheme["candidates"][0].update(inferred=True)
    assert validate_records([record("kernel", "k", kernel), record("scheme", "s", scheme)], real_schemas()) == []
