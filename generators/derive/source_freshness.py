"""Sources a reader should distrust first: no check date, not checked for a long time, or pinned to an older release
of a package (name==version) or tag of a repository than another source cites.

"Long" is measured against the newest check date in the records (not today's date), so the view
is the same on every build of the same records. A release is older when the same package, or the
same repository, is also cited at a newer version (versions compare as numbers: 0.33.0 > 0.9.1).
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from ..model.index import Index
from ..model.fields import SourceFields

MAX_AGE_DAYS = 180
_VERSION = re.compile(r"^v?(\d+(?:\.\d+)*)$")


@dataclass(frozen=True)
class StaleSource:
    source: str
    reason: str


@dataclass(frozen=True)
class StaleReport:
    max_age_days: int
    items: tuple[StaleSource, ...]


def _date(value: Any) -> dt.date | None:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        return None


def _pin(data: SourceFields) -> tuple[str, tuple[int, ...], str] | None:
    """(what is pinned, version as numbers, version as written) from `package` (name==version) or a tag revision."""
    package = str(data.get("package", ""))
    if "==" in package:
        name, _, version = package.partition("==")
        found = _VERSION.match(version.strip())
        if found:
            return name.strip(), tuple(int(p) for p in found.group(1).split(".")), version.strip()
    found = _VERSION.match(str(data.get("revision", "")))
    if found and data.get("repository"):
        return str(data["repository"]), tuple(int(p) for p in found.group(1).split(".")), str(data["revision"])
    return None


def stale_sources(index: Index, max_age_days: int = MAX_AGE_DAYS) -> StaleReport:
    """Every source checked more than `max_age_days` before the newest check, or pinned below the newest pin."""
    sources = index.all("source")
    dates = {s.id: _date(s.data.get("accessed")) for s in sources}
    newest = max((d for d in dates.values() if d), default=None)
    pins = {s.id: _pin(s.data) for s in sources}
    latest: dict[str, tuple[tuple[int, ...], str]] = {}
    for pin in pins.values():
        if pin and (pin[0] not in latest or pin[1] > latest[pin[0]][0]):
            latest[pin[0]] = (pin[1], pin[2])
    out = []
    for source in sources:
        reasons = []
        checked = dates[source.id]
        if checked is None:
            reasons.append("no check date recorded")
        elif newest and (newest - checked).days > max_age_days:
            reasons.append(f"last checked {checked.isoformat()}, {(newest - checked).days} days before the newest check")
        pin = pins[source.id]
        if pin and pin[1] < latest[pin[0]][0]:
            reasons.append(f"pinned to {pin[0]} {pin[2]}; the records also cite {latest[pin[0]][1]}")
        if reasons:
            out.append(StaleSource(source.id, "; ".join(reasons)))
    return StaleReport(max_age_days, tuple(out))
