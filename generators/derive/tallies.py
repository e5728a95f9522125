"""Native/emulated formats per accelerator, computed from the format records' support lists."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.index import Index


@dataclass(frozen=True)
class Tally:
    """What the format records say runs natively or emulated on one accelerator, and what sources state."""

    accelerator: str
    native: tuple[str, ...]
    emulated: tuple[str, ...]
    stated: tuple[dict[str, Any], ...]

    @property
    def native_count(self) -> int:
        return len(self.native)

    @property
    def emulated_count(self) -> int:
        return len(self.emulated)

    @property
    def listed(self) -> bool:
        return bool(self.native or self.emulated)

    def stated_mismatches(self) -> list[tuple[str, int, int, dict[str, Any]]]:
        """(which list, stated count, derived count, stated entry) for every stated count the records do not reproduce."""
        out = []
        for entry in self.stated:
            for which, derived in (("native", self.native_count), ("emulated", self.emulated_count)):
                stated = entry.get(which)
                if stated is not None and stated != derived:
                    out.append((which, stated, derived, entry))
        return out


def derive_tallies(index: Index) -> dict[str, Tally]:
    native: dict[str, list[str]] = {a.id: [] for a in index.all("accelerator")}
    emulated: dict[str, list[str]] = {a.id: [] for a in index.all("accelerator")}
    for fmt in index.all("format"):
        for accelerator in fmt.data.get("native_support", []):
            native.setdefault(accelerator, []).append(fmt.id)
        for accelerator in fmt.data.get("emulated_support", []):
            emulated.setdefault(accelerator, []).append(fmt.id)
    return {
        a.id: Tally(a.id, tuple(sorted(native[a.id])), tuple(sorted(emulated[a.id])),
                    tuple(a.data.get("stated_tallies", [])))
        for a in index.all("accelerator")
    }


def ranked_by_native(tallies: dict[str, Tally]) -> list[Tally]:
    """Accelerators by native-format count, most first; ties by id."""
    return sorted(tallies.values(), key=lambda t: (-t.native_count, t.accelerator))
