"""A part page lists every trap on its answers, not only those naming the part (derive/part_traps.py)."""
from __future__ import annotations

from generators.derive.members import targets_of
from generators.derive.part_traps import part_traps
from generators.derive.trap_scope import applies_when
from generators.derive.wording import fill, words
from generators.render.markdown import escape_text
from generators.render.pages import names_of, record_page

OVERFLOW = "llama-cpp-cublas-f16-activation-overflow-volta"  # scoped by kernel and platform: it names no part


def _traps_of(atlas, part: str) -> dict[str, tuple[str, ...]]:
    order = [trap.id for trap in atlas.views.traps]
    return dict(part_traps(atlas.views.answers, targets_of(atlas.index, part), part, order))


def test_a_trap_scoped_by_kernel_reaches_the_part_whose_answers_carry_it(real_atlas) -> None:
    v100 = _traps_of(real_atlas, "v100")
    assert OVERFLOW not in real_atlas.index.get("gotcha", OVERFLOW).data.get("accelerators", [])
    assert "llama-cpp-iq1-m" in v100[OVERFLOW]
    carried = {s for (s, t), a in real_atlas.views.answers.items() if t == "nvidia-sm70" and OVERFLOW in a.traps}
    assert set(v100[OVERFLOW]) == carried
    # in the reading order: silent first, then by severity
    order = [trap.id for trap in real_atlas.views.traps]
    assert list(v100) == sorted(v100, key=order.index)


def test_a_trap_limited_to_other_parts_of_the_target_does_not_reach_this_one(real_atlas) -> None:
    limited = [(key, trap, parts) for key, answer in real_atlas.views.answers.items()
               for trap, parts in answer.trap_parts]
    assert limited  # the records hold such traps (a blocker on the GB10 alone among the SM 12.x parts)
    (scheme, target), trap, parts = limited[0]
    members = [a.id for a in real_atlas.index.all("accelerator") if target in targets_of(real_atlas.index, a.id)]
    other = next(m for m in members if m not in parts)
    assert trap not in _traps_of(real_atlas, other) or any(
        trap in a.traps and not a.parts_of(trap) for (s, t), a in real_atlas.views.answers.items()
        if t in targets_of(real_atlas.index, other))  # unless another answer carries it for the whole target
    assert scheme in _traps_of(real_atlas, parts[0])[trap]


def test_the_part_page_shows_them_before_its_cells(real_atlas) -> None:
    page = record_page(real_atlas, real_atlas.index.get("accelerator", "v100"), names_of(real_atlas))
    titles = [t.title for t in page.tables]
    assert titles.index("Traps on its answers") < titles.index("Support cells of its hardware targets")
    table = page.tables[titles.index("Traps on its answers")]
    assert any(OVERFLOW in str(row[0]) for row in table.rows)


def test_a_trap_that_bites_only_on_an_arm_host_says_so_on_the_part_page(real_atlas) -> None:
    """The T4's answers describe an x86_64 host; a trap of an aarch64 host (applies_when) is on them, and the part
    page must say when it bites, as the selector and explain do, or a T4 reader on x86_64 reads a blocker as theirs."""
    traps = list(_traps_of(real_atlas, "t4"))
    data = {trap: real_atlas.index.get("gotcha", trap).data for trap in traps}
    assert any((data[t].get("applies_when") or {}).get("host") == "aarch64" for t in traps)  # torch's aarch64 wheels
    page = record_page(real_atlas, real_atlas.index.get("accelerator", "t4"), names_of(real_atlas))
    table = next(t for t in page.tables if t.title == "Traps on its answers")
    assert len(table.rows) == len(traps)
    for trap, row in zip(traps, table.rows):  # the rows in part_traps' order
        when = applies_when(data[trap])
        if when:
            said = str(escape_text(fill(words("trap_when"), when=when)))  # (its underscores escaped for Markdown)
            assert str(row[0]).endswith(f".md) ({said})"), (trap, str(row[0]))
        else:
            assert str(row[0]).endswith(".md)"), (trap, str(row[0]))  # the link alone


def test_the_hopper_humming_activation_trap_reaches_no_blackwell_part(real_atlas) -> None:
    """HummingMxFp4LinearKernel swaps MXFP4 activations for FP8 below capability 100 only; from 120 vLLM keeps them
    (the kernel's capability-min 120 requirement), so the SM 12.x parts, whose W4A4 MXFP4 answer humming serves, do
    not meet the trap. It stays on the Hopper parts."""
    trap = "vllm-mxfp4-w4a4-hopper-humming-fp8-activations"
    kernel = real_atlas.index.get("kernel", "vllm-humming-mxfp4").data
    assert any(r.get("check") == "capability-min" and r.get("value") == 120 for r in kernel["requirements"])
    for part in ("gb10-dgx-spark", "rtx-5090", "rtx-pro-6000-blackwell"):
        assert trap not in _traps_of(real_atlas, part), part
    assert trap in _traps_of(real_atlas, "h100-sxm")
