"""Traps per engine: every trap naming an engine, in reading order, the engine-wide ones apart.

A trap is engine-wide for an engine when it names that engine and nothing narrower (no format, kernel, platform or
part) and, if it bounds the engine's releases, the release read is inside the bounds. Such a trap attaches to no
support answer (`trap_scope.applies` needs a format, a kernel, a scheme or hardware beside the engine), so without
this view a reader finds it only on the trap index: the engine's page lists it, and Can I run it? shows it beside
every answer of that engine under its own
heading, never among the traps that apply to the cell. The other traps naming the engine keep the scope they declare.
Pure functions; no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model.index import Index
from ..model.records import Record
from .answers import engine_releases
from .trap_scope import TrapScope, in_releases, trap_scope


@dataclass(frozen=True)
class ScopedTrap:
    """A trap naming the engine and something narrower, with what it names (each in the record's order)."""

    trap: str
    formats: tuple[str, ...]
    kernels: tuple[str, ...]
    platforms: tuple[str, ...]
    accelerators: tuple[str, ...]
    releases: str  # the engine's releases it bounds ('0.20–0.25', '0.20 and later'); '' when it bounds none
    schemes: tuple[str, ...] = ()
    layers: str = ""  # 'dense' or 'experts' where it names the layers it bites in
    native: tuple[str, ...] = ()  # hardware formats a part must compute natively for it to bite


@dataclass(frozen=True)
class EngineTraps:
    """The traps naming one engine, in reading order (silent first, then by severity)."""

    engine_wide: tuple[str, ...]
    scoped: tuple[ScopedTrap, ...]
    answered: bool = False  # the engine has schemes, so support answers (Can I run it?) to show its engine-wide traps


def traps_by_engine(index: Index, traps: list[Record]) -> dict[str, EngineTraps]:
    """Per engine id (every engine record, by id): its engine-wide traps and the traps naming it more narrowly."""
    releases = engine_releases(index)
    wide: dict[str, list[str]] = {}
    scoped: dict[str, list[ScopedTrap]] = {}
    for trap in traps:
        scope = trap_scope(trap)
        for engine in dict.fromkeys(trap.data.get("engines", [])):
            if is_engine_wide(scope, engine, releases.get(engine, "")):
                wide.setdefault(engine, []).append(trap.id)
            else:
                scoped.setdefault(engine, []).append(_scoped(trap, scope, engine))
    answered = {str(s.data.get("engine", "")) for s in index.all("scheme")}
    return {e.id: EngineTraps(tuple(wide.get(e.id, ())), tuple(scoped.get(e.id, ())), e.id in answered)
            for e in index.all("engine")}


def is_engine_wide(scope: TrapScope, engine: str, release: str) -> bool:
    """Names the engine and no scheme, format, kernel, platform or part, and the release read is inside any bounds it
    sets."""
    return (engine in scope.engines
            and not (scope.schemes or scope.formats or scope.kernels or scope.platforms or scope.accelerators)
            and in_releases(scope, engine, release))


def _scoped(trap: Record, scope: TrapScope, engine: str) -> ScopedTrap:
    data = trap.data
    bounds = _bounds(scope) if scope.release_engine == engine else ""
    return ScopedTrap(trap.id, tuple(data.get("formats", [])), tuple(data.get("kernels", [])),
                      tuple(data.get("platforms", [])), tuple(data.get("accelerators", [])), bounds,
                      tuple(data.get("schemes", [])), scope.layers, tuple(data.get("native", [])))


def _bounds(scope: TrapScope) -> str:
    """The affected releases in words: a range, a first release on, or up to a last one when no first is known."""
    if scope.first:
        return f"{scope.first}–{scope.last}" if scope.last else f"{scope.first} and later"
    return f"up to {scope.last}" if scope.last else ""
