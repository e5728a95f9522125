"""Answers: one derived support cell with everything a reader needs beside its verdict.

For each (scheme, hardware target): the published cells that claim it (with the finding that
explains a disagreement), the traps that apply (silent first, then by severity, the order of
`ordered_traps`), and the sources behind the verdict (answer_sources: the scheme, the kernels on its route, the
findings, what the engine's install gives the target).
A trap applies when every part of its scope it declares matches the answer (`trap_scope.applies`): engine,
scheme formats and layers, serving kernel, target members and the formats they all emulate, and engine release. On a member part that comes with its own host
CPU or compute capability, the answer may need more than the target's (`parts`). Pure functions; no I/O.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.fields import AcceleratorHostCpu
from ..model.index import Index
from ..model.records import Record
from .engine_dtypes import as_seen_by
from .answer_sources import SourceGroup, answer_sources, passed_over_sources, platform_route, source_groups
from .cells import Cell, Install, default_installs
from .entries import Each, every_entry
from .fallback_precision import FallbackPrecision, fallback_precision
from .host_fit import HostLimits, fixed_hosts, host_limits, host_needs
from .messages import MODEL_DTYPES
from .part_builds import build_needs, capabilities
from .parts import PartAnswer, part_answers
from .plugins import layers_of
from .members import members
from .published import PublishedCell
from .published_history import explaining_findings
from .route_computes import ComputeStep, compute_steps
from .route_needs import RouteNeed, route_needs
from .runtime_checks import resolved_kernels
from .tallies import Tally
from .trap_scope import AnswerScope, TrapScope, applies, parts_named, trap_scope


@dataclass(frozen=True)
class PublishedClaim:
    """What a publisher's table says about this cell, and whether it agrees with the derivation."""

    matrix: str
    row: str
    column: str
    symbol: str
    says: str
    agrees: bool
    finding: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"matrix": self.matrix, "row": self.row, "column": self.column, "symbol": self.symbol,
                "says": self.says, "agrees": self.agrees, "finding": self.finding}


@dataclass(frozen=True)
class Answer:
    """A derived cell with its published claims, applicable traps and sources (ids, in reading order)."""

    cell: Cell
    published: tuple[PublishedClaim, ...]
    traps: tuple[str, ...]
    sources: tuple[str, ...]
    computes_in: tuple[str, ...] = ()  # hardware format ids, when the cell runs at the scheme's precision
    on_parts: tuple[PartAnswer, ...] = ()  # the answer on member parts that need more than the target (parts.py)
    passed_over: tuple[tuple[str, tuple[str, ...]], ...] = ()  # of `sources`, those of kernels it passes over, by kernel
    steps: tuple[ComputeStep, ...] = ()  # what each kernel on its route computes in, where it runs as specified
    needs: tuple[RouteNeed, ...] = ()  # what the kernels it runs on need that the engine does not check (route_needs)
    # of `traps`, those limited to some of the target's parts (trap_scope.parts_named), with those parts, in trap order
    trap_parts: tuple[tuple[str, tuple[str, ...]], ...] = ()
    computes_short: FallbackPrecision | None = None  # for a fallback: what it computes in, from typed fields
    source_groups: tuple[SourceGroup, ...] = ()  # `sources` and each trap's, by what each backs (answer_sources)

    @property
    def findings(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.finding for p in self.published if p.finding))

    @property
    def whole_traps(self) -> tuple[str, ...]:
        """Of `traps`, those that concern every part of the target (not limited to some, `trap_parts`)."""
        limited = {trap for trap, _ in self.trap_parts}
        return tuple(t for t in self.traps if t not in limited)

    def parts_of(self, trap: str) -> tuple[str, ...]:
        """The target's parts a trap of this answer is limited to; empty where it concerns the whole target."""
        return next((parts for t, parts in self.trap_parts if t == trap), ())


def derive_answers(index: Index, cells: dict[tuple[str, str], Cell], published: list[PublishedCell],
                   traps: list[Record], tallies: Mapping[str, Tally] | None = None,
                   each: Each = every_entry) -> dict[tuple[str, str], Answer]:
    """Every cell's answer, keyed like `cells`: each from its cell and claims, the records it reads, and what every
    answer shares (the context `each` is given: a long-lived process reuses the answers none of these changed for)."""
    explained = {key: ids[-1] for key, ids in explaining_findings(index).items()}  # the last, as the grids show
    claims: dict[tuple[str, str], list[PublishedClaim]] = {}
    for p in published:
        finding = explained.get((p.matrix, p.row, p.column))
        for cell in p.cells:
            agrees = _agrees_here(p, cell)
            claims.setdefault((cell.scheme, cell.target), []).append(
                PublishedClaim(p.matrix, p.row, p.column, p.symbol, p.published, agrees, None if agrees else finding))
    scopes = _TrapIndex([trap_scope(t) for t in traps])
    targets = {t.id: (str(t.data["platform"]), members(index, t)) for t in index.all("hardware-target")}
    releases = engine_releases(index)
    fit = _PartFit(fixed_hosts(index), host_limits(resolved_kernels(index)), capabilities(index),
                   default_installs(index), {t.id: t.data.get("compute_capability") for t in index.all("hardware-target")})
    native = {a: frozenset(t.native) for a, t in (tallies or {}).items()}
    emulated = {a: frozenset(t.emulated) for a, t in (tallies or {}).items()}

    def answer(seen: Index, inputs: tuple[Cell, tuple[PublishedClaim, ...]]) -> Answer:
        return _answer(seen, inputs[0], inputs[1], scopes, targets, releases, fit, native, emulated)
    return each(index, (scopes, targets, releases, fit, native, emulated),
                ((key, (cell, tuple(claims.get(key, ())))) for key, cell in sorted(cells.items())), answer)


@dataclass(frozen=True)
class _PartFit:
    """What a part's answer is derived from: fixed hosts and host limits (host_fit), each part's compute capability,
    the default installs' binaries and each target's capability (part_builds)."""

    hosts: Mapping[str, AcceleratorHostCpu]
    limits: HostLimits
    capabilities: Mapping[str, int]
    installs: Mapping[tuple[str, str], Install]
    target_capabilities: Mapping[str, int | None]

    def on_parts(self, cell: Cell, platform: str, parts: frozenset[str]) -> tuple[PartAnswer, ...]:
        install = self.installs.get((cell.engine, platform))
        builds = build_needs(cell, self.target_capabilities.get(cell.target), parts, self.capabilities, install,
                             {part: host["arch"] for part, host in self.hosts.items()}) if install is not None else {}
        return part_answers(cell, host_needs(cell, parts, self.hosts, self.limits), builds)


def _agrees_here(published: PublishedCell, cell: Cell) -> bool:
    """Whether a published cell's yes or no agrees with this one of the cells it covers: a column such as "AMD GPU"
    spans several targets, and where the derivation splits them the table is wrong for some and right for the others
    (the table-level comparison, PublishedCell.agrees, says the column disagrees). A partial or unknown mark is
    judged for the whole published cell."""
    if published.published not in ("yes", "no") or not published.comparable:
        return published.agrees
    return published.published == ("yes" if cell.verdict.runs_as_specified else "no")


class _TrapIndex:
    """The traps in their order, looked up by what an answer must share with a trap for it to apply: one of the
    scheme's formats (a trap naming formats), else a kernel the cell tried or selected (a trap naming kernels), else
    the scheme (a trap naming only schemes), else the engine (a trap naming an engine on some hardware). A trap naming
    none applies to no answer. Each answer then tests only these candidates (not every trap)."""

    def __init__(self, scopes: list[TrapScope]):
        self.by_format: dict[str, list[tuple[int, TrapScope]]] = {}
        self.by_kernel: dict[str, list[tuple[int, TrapScope]]] = {}
        self.by_scheme: dict[str, list[tuple[int, TrapScope]]] = {}
        self.by_engine: dict[str, list[tuple[int, TrapScope]]] = {}
        for order, scope in enumerate(scopes):
            keys, table = ((scope.formats, self.by_format) if scope.formats else
                           (scope.kernels, self.by_kernel) if scope.kernels else
                           (scope.schemes, self.by_scheme) if scope.schemes else (scope.engines, self.by_engine))
            for key in keys:
                table.setdefault(key, []).append((order, scope))

    def candidates(self, cell: Cell, formats: frozenset[str]) -> list[TrapScope]:
        found: dict[int, TrapScope] = {}
        for format_id in formats:
            found.update(self.by_format.get(format_id, ()))
        if self.by_kernel:
            for kernel in {cell.kernel, *(a.kernel for a in cell.attempts)}:
                found.update(self.by_kernel.get(kernel, ()) if kernel else ())
        found.update(self.by_scheme.get(cell.scheme, ()))
        found.update(self.by_engine.get(cell.engine, ()))  # applies() keeps those that also name platforms or parts
        return [found[order] for order in sorted(found)]


def engine_releases(index: Index) -> dict[str, str]:
    """The release each engine's cells are derived at (`version_read`), by engine id."""
    return {e.id: str(e.data["version_read"]) for e in index.all("engine") if e.data.get("version_read")}


def _answer(index: Index, cell: Cell, claims: tuple[PublishedClaim, ...], traps: _TrapIndex,
            targets: dict[str, tuple[str, tuple[str, ...]]], releases: dict[str, str],
            fit: _PartFit | None = None, native: Mapping[str, frozenset[str]] | None = None,
            emulated: Mapping[str, frozenset[str]] | None = None) -> Answer:
    scheme = index.get("scheme", cell.scheme)
    formats = frozenset(scheme.data.get("formats", [])) if scheme else frozenset()
    platform, listed = targets.get(cell.target, ("", ()))
    parts = frozenset(listed)
    scope = AnswerScope(cell, formats, platform, parts, releases.get(cell.engine, ""),
                        layers_of(scheme.data) if scheme else "dense", emulated_everywhere(parts, emulated or {}))
    found = [t for t in traps.candidates(cell, formats) if applies(t, scope)]
    applying = tuple(t.id for t in found)
    limited = tuple((t.id, named) for t in found if (named := parts_named(t, listed)))
    runs = scheme is not None and cell.verdict.runs_as_specified

    # A CPU multiplies every float dtype on its vector units and the model's dtype picks which, so its matrix
    # instructions (a Neoverse V2 has BF16 and no FP16 one) do not narrow what a kernel computes in there.
    narrowing = {} if platform == "cpu" else native or {}

    derived: dict[str | None, tuple[str, ...]] = {}  # (the steps ask again for the cell's own kernel)

    def formats_of(kernel: str | None) -> tuple[str, ...]:
        if kernel not in derived:
            derived[kernel] = kernel_computes_in(index, scheme, cell, kernel, parts, narrowing) if scheme and runs else ()
        return derived[kernel]
    computes_in = formats_of(cell.kernel)
    steps = compute_steps(index, cell, formats_of, scheme.data.get("config") or {}) if scheme and runs else ()
    on_parts = fit.on_parts(cell, platform, parts) if fit is not None else ()
    claimed = [(c.matrix, c.finding) for c in claims]
    needs = route_needs(index, cell, scheme.data.get("config") or {}) if scheme else ()
    route = platform_route(index, cell, platform)
    sources = answer_sources(index, cell, platform, claimed, on_parts, route)
    sources = tuple(dict.fromkeys([*sources, *(s for n in needs if n.tool for s in (n.used_in, n.source))]))
    short = fallback_precision(index, cell, scheme.data.get("config") or {}) if scheme else None
    return Answer(cell, claims, applying, sources, computes_in,
                  on_parts, passed_over_sources(index, cell, platform, claimed, on_parts, route), steps, needs, limited,
                  short, source_groups(index, cell, platform, sources, applying, claimed, on_parts, needs, route))


def emulated_everywhere(parts: frozenset[str], emulated: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """The hardware formats every part is derived to emulate (none where the target has no part): a format a part
    computes natively, or whose records say neither (no figure, no instruction), is left out, so a trap that needs the
    format native is dropped only where the records show no part has it."""
    found = [emulated.get(part, frozenset()) for part in parts]
    return frozenset.intersection(*found) if found else frozenset()


def kernel_computes_in(index: Index, scheme: Record, cell: Cell, kernel: str | None, parts: frozenset[str],
                       native: Mapping[str, frozenset[str]]) -> tuple[str, ...]:
    """The hardware formats the cell computes in through this kernel of its route: what the scheme's formats allow,
    given whether the kernel quantizes the activations, on the cell's target, narrowed to the activation dtypes the
    kernel runs with, to those its block scales leave and to those every part runs natively where only some are."""
    quantizing = kernel_quantizes_activations(index, kernel)
    allowed = scaled_by_kernel(index, scheme_computes_in(index, scheme, quantizing), kernel)
    formats = on_target(index, allowed, cell.target, cell.engine)
    return natively_computed(_with_kernel_dtypes(index, formats, scheme, cell, quantizing, kernel), parts, native)


def scaled_by_kernel(index: Index, formats: tuple[str, ...], kernel_id: str | None) -> tuple[str, ...]:
    """Of the hardware formats a checkpoint format allows, those the kernel's block scales leave (`block_scales`): a
    kernel that scales each FP8 partial product by float32 block scales itself (vLLM's Triton block-FP8 GEMM and MoE
    experts) computes in FP8 E4M3, never in a block-scaled format whose matrix instruction applies E8M0 scales
    (MXFP8). Unchanged where the kernel states no scale kind, or where that would leave none."""
    kernel = index.get("kernel", kernel_id) if kernel_id else None
    scales = kernel.data.get("block_scales") if kernel is not None else None
    if not scales or scales["type"] != "float32":
        return formats
    kept = tuple(f for f in formats if (r := index.get("format", f)) is None or r.data.get("family") != "block-scaled-fp")
    return kept or formats


def natively_computed(formats: tuple[str, ...], parts: frozenset[str],
                      native: Mapping[str, frozenset[str]]) -> tuple[str, ...]:
    """Of the formats a checkpoint format allows (FP8 block scaling: FP8 E4M3, or MXFP8 where a recipe turns its scales
    into E8M0), those every part of the target computes natively, where some are and some are not: a Hopper part has
    no MXFP8 instruction, so a kernel there computes the E4M3 one. Unchanged where all or none are native (the format
    map's emulated notice then speaks for the rest)."""
    known = [p for p in parts if p in native]
    kept = tuple(f for f in formats if known and all(f in native[p] for p in known))
    return kept if kept and len(kept) < len(formats) else formats


def scheme_computes_in(index: Index, scheme: Record, quantizing: bool = False) -> tuple[str, ...]:
    """The hardware formats a scheme computes in: what all its formats allow (a hardware format is itself, a
    checkpoint format its `computes_in`), in the order the first one lists them; empty when the records disagree.
    A scheme whose activations stay unquantized stores its weights in a hardware format but multiplies in the
    activations' precision, so a hardware format it names says how it stores, not what it computes in; unless the
    kernel quantizes the activations itself (`quantizing`: llama.cpp's integer paths pair a GGUF file's weights with
    8-bit activations, which is what its checkpoint format's `computes_in` names)."""
    weight_only = _multiplies_in_activation_types(scheme, quantizing)
    allowed: list[tuple[str, ...]] = []
    for format_id in scheme.data.get("formats", []):
        record = index.get("format", format_id)
        if record is None:
            continue
        if record.data.get("format_class") == "hardware":
            if weight_only:
                continue
            allowed.append((record.id,))
        elif record.data.get("computes_in"):
            allowed.append(tuple(record.data["computes_in"]))
    if not allowed:
        return ()
    common = tuple(f for f in allowed[0] if all(f in other for other in allowed[1:]))
    return _in_activation_types(index, common, scheme) if weight_only else common


def _in_activation_types(index: Index, formats: tuple[str, ...], scheme: Record) -> tuple[str, ...]:
    """A weight-only scheme multiplies in its activations' type: of the formats its checkpoint format allows, those
    its own activation types name (GPTQ allows FP16 and BF16; a scheme that takes only float16 computes in FP16)."""
    types = {t for t in scheme.data.get("config", {}).get("activation_types", []) if t in MODEL_DTYPES}
    return tuple(f for f in formats if types & _names(index, f)) if types else formats


def _multiplies_in_activation_types(scheme: Record, quantizing: bool) -> bool:
    """Whether the cell multiplies in the activations' own dtype: a weight-only scheme through a kernel that does not
    quantize the activations itself."""
    return scheme.data.get("config", {}).get("activation_quantized") is False and not quantizing


def kernel_quantizes_activations(index: Index, kernel_id: str | None) -> bool:
    """Whether a kernel quantizes the activations it is given (`activation_handling: quantized`)."""
    kernel = index.get("kernel", kernel_id) if kernel_id else None
    return kernel is not None and kernel.data.get("activation_handling") == "quantized"


def _with_kernel_dtypes(index: Index, formats: tuple[str, ...], scheme: Record, cell: Cell,
                        quantizing: bool = False, kernel: str | None = None) -> tuple[str, ...]:
    """A weight-only scheme's formats narrowed to the activation dtypes the selected kernel runs with, where its
    activation-type requirements leave only some (the Hub MXFP4 kernel on Hopper takes bfloat16 alone: its cell computes
    in BF16, not FP16 or BF16 as the scheme allows)."""
    if not _multiplies_in_activation_types(scheme, quantizing):
        return formats
    kernel = kernel if kernel is not None else cell.kernel
    dtypes = next((set(a.dtypes) for a in reversed(cell.attempts) if a.kernel == kernel and a.dtypes), None)
    return formats if dtypes is None else tuple(f for f in formats if dtypes & _names(index, f))


def on_target(index: Index, formats: tuple[str, ...], target_id: str, engine: str) -> tuple[str, ...]:
    """The hardware formats a cell can compute in on its target: E4M3 in the target's own FP8 type where the engine
    computes FP8 in it (`in_fp8_dtype`), and without those named (id or alias) by a model dtype the engine refuses
    there before loading (a dtype in MODEL_DTYPES the target's `model_dtypes` omit, where they are this engine's:
    engine_dtypes.py)."""
    target = index.get("hardware-target", target_id)
    if target is None:
        return formats
    seen = as_seen_by(target.data, engine)
    formats = in_fp8_dtype(index, formats, seen.get("fp8_dtype"))
    allowed = seen.get("model_dtypes")
    if not allowed:
        return formats
    refused = {d for d in MODEL_DTYPES if d not in allowed}
    return tuple(f for f in formats if not refused & _names(index, f))


def in_fp8_dtype(index: Index, formats: tuple[str, ...], fp8_dtype: str | None) -> tuple[str, ...]:
    """An engine that computes E4M3 in the target's own FP8 type (vLLM on gfx94x converts E4M3FN weights and scales to
    float8_e4m3fnuz and computes in that) computes an OCP E4M3 format in the format that type names (by alias);
    unchanged where the type is OCP E4M3 itself or names no format record."""
    if not fp8_dtype:
        return formats
    own = next((r.id for r in index.all("format") if fp8_dtype in r.data.get("aliases", [])), None)
    if own is None:
        return formats
    converted = (own if (r := index.get("format", f)) and r.data.get("encoding") == "e4m3" else f for f in formats)
    return tuple(dict.fromkeys(converted))


def _names(index: Index, format_id: str) -> set[str]:
    record = index.get("format", format_id)
    return {format_id, *(record.data.get("aliases", []) if record else [])}
