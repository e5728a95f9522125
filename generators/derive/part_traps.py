"""The traps a part's readers meet: every trap on some answer for one of the part's hardware targets.

A part page used to list only the traps that name the part (its backlinks), so a trap scoped by kernel and platform
(llama.cpp's FP16 activation overflow through cuBLAS and hipBLAS) left the V100's page although every V100 answer
through that kernel carries it. The rule: a trap reaches a part where it is on the answer of a cell of one of the
part's targets and, if that answer limits it to some of the target's parts (`Answer.trap_parts`), the part is among
them. Per trap, in reading order (silent first, then by severity), the schemes whose answers carry it.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from .answers import Answer


def part_traps(answers: Mapping[tuple[str, str], Answer], targets: Iterable[str], part: str,
               reading_order: Iterable[str]) -> list[tuple[str, tuple[str, ...]]]:
    """(trap id, the schemes whose answers on the part's targets carry it), traps in `reading_order`."""
    wanted = set(targets)
    schemes: dict[str, list[str]] = {}
    for (scheme, target), answer in sorted(answers.items()):
        if target not in wanted:
            continue
        for trap in answer.traps:
            parts = answer.parts_of(trap)
            if (not parts or part in parts) and scheme not in schemes.setdefault(trap, []):
                schemes[trap].append(scheme)
    return [(trap, tuple(schemes[trap])) for trap in reading_order if trap in schemes]

