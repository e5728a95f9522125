"""On a part whose compute capability is not its target's, binaries without code for the part's own are one more need.

A hardware target has one compute capability, and some of its parts have a later minor of the same major (the B300,
10.3, beside the B200's 10.0 on the SM 10.x target; the GB10, 12.1, on SM 12.x). Where an engine's default install
lists the code its binaries carry (`built_for`), a cubin for X.Y runs on X.Z with Z >= Y, except an
architecture-specific one (`arch_specific`: sm_100a), which runs on X.Y alone. So binaries that cover the target may
carry nothing for such a part: a loading cell there needs a build compiled for the part's capability first, the need a
target outside the list gets (cells._on_unbuilt_target). Where a part runs on other downloads than its target, or only on
their PTX, the choice it needs is one more (cells.Choice): a B300 beside a B200 needs none, running the same PTX; a
Grace-based GB200 beside it does, since the downloads published for its aarch64 host are fewer (`built_for` hosts).
Pure functions.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..model.index import Index
from .cells import Cell, Install
from .members import cuda_capability
from .parts import PartNeed


def capabilities(index: Index) -> dict[str, int]:
    """Each accelerator's compute capability as major*10+minor, where its record states one."""
    return {record.id: capability for record in index.all("accelerator")
            if (capability := cuda_capability(record.data.get("compute_capability"))) is not None}


def build_needs(cell: Cell, target_capability: int | None, parts: Iterable[str], part_capabilities: Mapping[str, int],
                install: Install, part_hosts: Mapping[str, str] | None = None) -> dict[str, list[PartNeed]]:
    """For each of `parts` whose capability differs from the target's, a build for it in place of each set of the
    install's binaries that carries no code for it; and for each part whose capability or fixed host CPU (`part_hosts`:
    part -> architecture) gives it another choice among the install's downloads than its target's, that choice. Empty
    when every part is covered like its target (or the cell does not load)."""
    if not cell.verdict.loads or not install.builds or target_capability is None:
        return {}
    hosts = part_hosts or {}
    found: dict[str, list[PartNeed]] = {}
    on_target = {choice.same_need for choice in install.choices(target_capability)}
    for part in sorted(parts):
        capability = part_capabilities.get(part)
        host = hosts.get(part, "")
        if capability is None or (capability == target_capability and all(b.on_host(host) for b in install.builds)):
            continue
        for group in install.groups():
            # a part sold with its host can take only the downloads published for it (a Grace-based GB200: the
            # aarch64 wheel), so it needs a build in place of those alone
            here = [build for build in group if build.on_host(host)] or list(group)
            if all(build.missing_capability(capability) for build in here):
                found.setdefault(part, []).extend(
                    PartNeed(build.condition(build.missing_capability(capability)), build.source) for build in here)
        found.setdefault(part, []).extend(PartNeed(choice.said(), choice.source)
                                          for choice in install.choices(capability, host)
                                          if choice.same_need not in on_target)
    return {part: needs for part, needs in found.items() if needs}
