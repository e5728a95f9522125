"""A part page lists every trap on its answers, not only those naming the part (derive/part_traps.py)."""
from __future__ import annotations

from generators.derive.members import targets_of
from generators.derive.part_traps import part_traps
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
