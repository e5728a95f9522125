"""The sources behind one support answer: what its verdict, its conditions and its steps rest on, on its platform.

Read from the records the cell was derived from, in reading order: the scheme's own citations and its candidate list's
for the target's platform (and those of a scheme the engine returns instead), the sources of every kernel on the
cell's route (each candidate tried, the one selected, and each step's kernel and the kernel it then selects; not one
that is another platform's alone), the findings of its published claims and the copy of each table the claim is read
from (with what scopes a column to the target's platform), then what the engine record states that the answer rests
on: the default-install facts it assumes or lacks, the install's binaries that serve the target (or that lack code for
it), the toolkit rule a PTX-only target's driver condition rests on, where the engine launches its first kernels, and
the runtime checks the route's kernels use; last, what member parts need beyond the target. A kernel's informational
gate that says what a reader needs (route_needs) cites its source as the kernel's own sources do.

A citation that names `platforms` concerns those alone: an answer on another platform leaves it out, so a CPU answer
does not list the CUDA file a kernel shared by both cites. Pure functions; no I/O.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..model.fields import EngineDefaultInstall, HardwareTargetFields
from ..model.index import Index
from ..model.records import Record
from .cells import FAILS_FIRST_ON_DEFAULT_INSTALL, Cell, Choice, install_of
from .engine_stated import engine_data
from .candidate_lists import resolved_scheme
from .parts import PartAnswer


def answer_sources(index: Index, cell: Cell, platform: str, claimed: Sequence[tuple[str, str | None]] = (),
                   on_parts: Sequence[PartAnswer] = (), route: Sequence[str] | None = None) -> tuple[str, ...]:
    """Source ids behind the answer, each once, in reading order; `claimed`: each published claim's table and the
    finding that explains it (None when none does); `route`: platform_route's, when the caller has it."""
    return _backing(index, cell, platform, platform_route(index, cell, platform) if route is None else route,
                    claimed, on_parts)


def platform_route(index: Index, cell: Cell, platform: str) -> list[str]:
    """The route's kernels (route_kernels) but those of another platform alone (another_platforms)."""
    return [k for k in route_kernels(cell) if not another_platforms(index.get("kernel", k), platform)]


def _backing(index: Index, cell: Cell, platform: str, kernels: Sequence[str], claimed: Sequence[tuple[str, str | None]],
             on_parts: Sequence[PartAnswer]) -> tuple[str, ...]:
    """The answer's sources, in reading order, as if its route went through `kernels` alone."""
    records = [*scheme_records(index, cell), *(index.get("kernel", k) for k in kernels),
               *(index.get("finding", f) for _, f in claimed if f), *(index.get("support-matrix", m) for m, _ in claimed)]
    cited = [source for r in records if r is not None for source in cited_here(r, platform, index)]
    engine = index.get("engine", cell.engine)
    target = index.get("hardware-target", cell.target)
    stated = engine_sources(engine.data, cell, kernels, index, target.data if target else None) if engine else []
    needs = [n.source for p in on_parts for n in p.needs]
    return tuple(dict.fromkeys([*cited, *stated, *needs]))


def route_kernels(cell: Cell) -> tuple[str, ...]:
    """The kernels the answer goes through, in the engine's order: each candidate tried, the one selected, and for
    each step when conditions fail the kernel whose conditions fail and the kernel the engine then selects; where a
    setting filters the list, the default walk's candidates too (what a default install selects rests on them)."""
    steps = [k for step in cell.otherwise for k in (step.kernel, step.selected) if k]
    tried = [a.kernel for a in (*cell.attempts, *cell.default_attempts)]
    return tuple(dict.fromkeys([*tried, *([cell.kernel] if cell.kernel else []), *steps]))


def another_platforms(kernel: Record | None, platform: str) -> bool:
    """Whether a kernel is another platform's alone (a platform requirement, whatever the rest, that leaves this one
    out, as MLX's CUDA kernels tried on an AMD GPU): its files back nothing here, unless the engine's own message for
    it does (the card quotes that message, so its sources stay)."""
    requirements = kernel.data.get("requirements", []) if kernel is not None else []
    return any(r.get("check") == "platform" and "when" not in r and platform not in r.get("values", [])
               and not r.get("reason_verbatim") for r in requirements)


def scheme_records(index: Index, cell: Cell) -> list[Record]:
    """The cell's scheme and the schemes the engine returns instead (a failed gate's fallback, a substitution)."""
    found = (index.get("scheme", s) for s in (cell.scheme, cell.gate_fallback, cell.substitution) if s)
    return [r for r in found if r is not None]


def record_citations(record: Record, platform: str, index: Index) -> list[Mapping[str, Any]]:
    """A record's own citations, and for a scheme its candidate list's for this platform (another platform's backend
    files back no answer here; a `no_path` list's are its engine's entry's). For a published table, the copy of the table the claim is read from (`published_in`)
    and the citations that name `platforms`, which say which of a platform's targets a column covers (the GPU list of
    vLLM's ROCm install page for its AMD GPU column); its other sources (each release's copy, the pages behind its
    notes) back the table's page, not the answer."""
    if record.kind == "support-matrix" and record.data.get("published_in"):
        return [record.data["published_in"], *(c for c in record.data.get("sources", []) if c.get("platforms"))]
    scheme = resolved_scheme(record.id, record.data, engine_data(index, str(record.data.get("engine", "")))) if record.kind == "scheme" else None
    lists = [c for c in (scheme["candidates"] if scheme else []) if c["platform"] == platform]
    needs = gate_citations(record.data) if record.kind == "kernel" else []
    return [*record.data.get("sources", []), *(c for candidates in lists for c in candidates.get("sources", [])), *needs]


# (id of a record, platform) -> (the record, the engine data a scheme's lists were resolved with, cited_here's answer)
_CITED: dict[tuple[int, str], tuple[Record, Any, tuple[str, ...]]] = {}


def cited_here(record: Record, platform: str, index: Index) -> tuple[str, ...]:
    """The sources of record_citations(record, platform) that concern the platform (on_platform), in order. Kept per
    record object and platform, with the engine data a scheme's lists read: every answer on a platform reads the
    same scheme and kernels again, and record data never change once loaded (the entry holds the record, so its id is
    not another's)."""
    engine = engine_data(index, str(record.data.get("engine", ""))) if record.kind == "scheme" else None
    key = (id(record), platform)
    kept = _CITED.get(key)
    if kept is not None and kept[0] is record and kept[1] is engine:
        return kept[2]
    found = tuple(c["source"] for c in record_citations(record, platform, index) if on_platform(c, platform))
    if len(_CITED) > 100_000:
        _CITED.clear()
    _CITED[key] = (record, engine, found)
    return found


def gate_citations(kernel: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The sources of a kernel's informational gates that state what a reader needs (route_needs), as citations of
    the platforms each gate names (an answer elsewhere does not list it)."""
    code = kernel.get("code") or {}
    return [{"source": gate.get("source") or code.get("source") or kernel["sources"][0]["source"],
             **({"platforms": gate["when"]["platform"]} if (gate.get("when") or {}).get("platform") else {})}
            for gate in kernel.get("external_gates", []) if gate["effect"] == "informational" and gate.get("needs")]


def on_platform(citation: Mapping[str, Any], platform: str) -> bool:
    """Whether a citation concerns answers on this platform: every one, unless it names its `platforms`."""
    return not citation.get("platforms") or platform in citation["platforms"]


def engine_sources(engine: Mapping[str, Any], cell: Cell, kernels: Sequence[str], index: Index,
                   target: HardwareTargetFields | None) -> list[str]:
    """What the engine record states that the answer rests on (see the module's docstring)."""
    installs = [i for i in engine.get("default_install", []) if target is not None and i["platform"] == target["platform"]]
    wanted = {fact for stated in (*cell.assumes, *cell.opt_in) for fact in stated.facts}
    facts = [fact["source"] for i in engine.get("default_install", [])
             for fact in [*i.get("provides", []), *i.get("lacks", [])] if fact["fact"] in wanted]
    built = [s for i in installs for s in install_sources(i, cell, target)] if target is not None else []
    first = engine.get("first_kernels")  # where a refusal comes after them, which a default install never meets
    late = [first["source"]] if first and any(r.startswith(FAILS_FIRST_ON_DEFAULT_INSTALL) for r in cell.reasons) else []
    platform = target["platform"] if target is not None else None
    return [*facts, *built, *late, *checks_used(engine, kernels, index, platform)]


def install_sources(install: EngineDefaultInstall, cell: Cell, target: HardwareTargetFields) -> list[str]:
    """The sources of a default install on the target's platform that the answer rests on: the binaries that carry no
    code for the target; where the cell loads, those that serve it, the downloads it must choose among and, when the
    code a download has there is PTX only, the toolkit rule its driver condition rests on."""
    built = install_of(install)
    unbuilt = [build.source for build, _ in built.unbuilt(target)]
    if not cell.verdict.loads:
        return unbuilt
    choices = built.choices(target.get("compute_capability"))
    serving = [build.source for build in built.builds if not build.missing(target)]
    return [*unbuilt, *serving, *(c.source for c in choices), *ptx_rule(install, choices)]


def ptx_rule(install: EngineDefaultInstall, choices: Iterable[Choice]) -> list[str]:
    """The install's `toolkit_sources` where a download runs on the target from PTX alone, its driver a condition."""
    return [c["source"] for c in install.get("toolkit_sources", [])] if any(c.jit for c in choices) else []


def checks_used(engine: Mapping[str, Any], kernels: Sequence[str], index: Index, platform: str | None) -> list[str]:
    """The sources of the engine's runtime checks that the kernels' requirements use on the answer's platform (a
    requirement scoped to other platforms by `when` is not part of this answer)."""
    used = {c for k in kernels for c in checks_of(index, k, platform)}
    return [check["source"] for check in engine.get("runtime_checks", []) if check["id"] in used]


def checks_of(index: Index, kernel_id: str, platform: str | None) -> set[str]:
    """The engine runtime checks (ids) a kernel's requirements use on the answer's platform."""
    kernel = index.get("kernel", kernel_id)
    return {r["uses"] for r in (kernel.data.get("requirements", []) if kernel is not None else [])
            if "uses" in r and _applies(r, platform)}


def stated_conditions(cell: Cell) -> tuple[str, ...]:
    """The conditions an answer states: its own, each step's when they fail, and what the default install meets or
    lacks."""
    return (*cell.conditions, *(c for step in cell.otherwise for c in step.conditions),
            *(a.condition for a in (*cell.assumes, *cell.opt_in)))


def _applies(requirement: Mapping[str, Any], platform: str | None) -> bool:
    """Whether a requirement can concern an answer on `platform`: it names no platforms, or names this one."""
    platforms = (requirement.get("when") or {}).get("platform")
    return not platforms or platform is None or platform in platforms




def passed_over_sources(index: Index, cell: Cell, platform: str, claimed: Sequence[tuple[str, str | None]] = (),
                        on_parts: Sequence[PartAnswer] = (),
                        route: Sequence[str] | None = None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The answer's sources that back only kernels it passes over, by kernel in the engine's order: those that come
    after the kernel that computes (reached only when a condition fails), and, where the cell runs as specified, those
    tried before it and declined. Neither the kernel that computes nor the one a default install selects is passed
    over, nor a kernel declined before it where the verdict is a refusal, a fallback or a failure (their reasons are
    the verdict's). A source that the scheme, those kernels, a published table or the engine record also cite stays
    with the verdict; one that two passed-over kernels cite is listed under the first. The answer's other sources are
    the verdict's, which a card shows first."""
    kept = kept_kernels(cell)
    route = platform_route(index, cell, platform) if route is None else route
    if all(k in kept for k in route):
        return ()  # no kernel passed over (most answers): the verdict's sources need not be gathered again
    listed = set(_backing(index, cell, platform, [k for k in route if k in kept], claimed, on_parts))
    engine = index.get("engine", cell.engine)
    runtime_checks: list[Mapping[str, Any]] = list(engine.data.get("runtime_checks", [])) if engine else []
    groups: list[tuple[str, tuple[str, ...]]] = []
    for kernel in (k for k in route if k not in kept):
        record = index.get("kernel", kernel)
        cited = cited_here(record, platform, index) if record else ()
        checks = checks_of(index, kernel, platform)
        used = [c["source"] for c in runtime_checks if c["id"] in checks]  # what it requires of the engine's checks
        own = tuple(s for s in dict.fromkeys([*cited, *used]) if s not in listed)
        listed.update(own)
        if own:
            groups.append((kernel, own))
    return tuple(groups)


def kept_kernels(cell: Cell) -> set[str]:
    """The kernels of the route whose sources back the verdict (passed_over_sources says which are passed over)."""
    order = [a.kernel for a in cell.attempts]
    before = order[:order.index(cell.kernel)] if cell.kernel in order else order
    return {k for k in (cell.kernel, cell.default_kernel) if k} | (set() if cell.verdict.runs_as_specified else set(before))


@dataclass(frozen=True)
class SourceGroup:
    """Sources of an answer with what they back: `backs` is the kind of statement (the engine's selection of a kernel
    for the scheme, a kernel on the route, what a kernel computes in, a condition, the default install's binaries, a
    published table, a finding, a run-time need, a part's need, a trap, or `other`), `subject` which one (a kernel,
    matrix, finding or trap id, or a condition's or need's text; empty for the selection and the install)."""

    backs: str
    subject: str
    sources: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"backs": self.backs, "subject": self.subject, "sources": list(self.sources)}


def source_groups(index: Index, cell: Cell, platform: str, sources: Sequence[str], traps: Sequence[str] = (),
                  claimed: Sequence[tuple[str, str | None]] = (), on_parts: Sequence[PartAnswer] = (),
                  needs: Sequence[Any] = (), route: Sequence[str] | None = None) -> tuple[SourceGroup, ...]:
    """The answer's `sources` (answer_sources and its needs') grouped by the record field that cites each, in the card's
    reading order, and each trap's own sources: a source several statements rest on is in each of their groups; one no
    group claims (none, on the records as they are) is in `other`. Groups with one subject are merged; empty ones
    dropped. `needs`: route_needs' (each with `said`, `source`, `used_in`)."""
    kernels = platform_route(index, cell, platform) if route is None else route
    engine = index.get("engine", cell.engine)
    target = index.get("hardware-target", cell.target)
    groups: dict[tuple[str, str], list[str]] = {}

    def add(backs: str, subject: str, found: Iterable[str]) -> None:
        groups.setdefault((backs, subject), []).extend(s for s in found if s)

    add("selection", "", (s for r in scheme_records(index, cell) for s in cited_here(r, platform, index)))
    kept = kept_kernels(cell)
    for kernel_id in kernels:
        kernel = index.get("kernel", kernel_id)
        if kernel is None:
            continue
        add("kernel" if kernel_id in kept else "passed-over", kernel_id, cited_here(kernel, platform, index))
        stated = kernel.data.get("computes_in")
        if stated and kernel_id in kept:
            add("computes", kernel_id, [stated["source"]])
    data: Mapping[str, Any] = engine.data if engine is not None else {}
    facts: dict[str, list[str]] = {}  # (a fact's name may be stated by installs of several platforms)
    for install in data.get("default_install", []):
        for fact in [*install.get("provides", []), *install.get("lacks", [])]:
            facts.setdefault(fact["fact"], []).append(fact["source"])
    for assumed in (*cell.assumes, *cell.opt_in):
        add("condition", assumed.condition, (s for f in assumed.facts for s in facts.get(f, ())))
    # a runtime check backs a condition the answer states; one only a kernel's requirement uses (a kernel declined
    # before the one that runs, or a refusal's) backs what that kernel requires, not a condition of this answer
    answered = stated_conditions(cell)
    for check in data.get("runtime_checks", []):
        users = [k for k in kernels if check["id"] in checks_of(index, k, platform)]
        condition = str(check.get("condition") or check["value"])
        if users and any(condition in said for said in answered):
            add("condition", condition, [check["source"]])
            continue
        for kernel_id in users:
            add("kernel" if kernel_id in kept else "passed-over", kernel_id, [check["source"]])
    if target is not None:
        installs = [i for i in data.get("default_install", []) if i["platform"] == target.data["platform"]]
        add("install", "", (s for i in installs for s in install_sources(i, cell, target.data)))
        first = data.get("first_kernels")
        if first and any(r.startswith(FAILS_FIRST_ON_DEFAULT_INSTALL) for r in cell.reasons):
            add("install", "", [first["source"]])
    for matrix, finding in claimed:
        record = index.get("support-matrix", matrix)
        add("published", matrix, cited_here(record, platform, index) if record else ())
        if finding and (found := index.get("finding", finding)) is not None:
            add("finding", finding, cited_here(found, platform, index))
    for need in needs:
        add("need", need.said, (need.used_in, need.source) if need.tool else (need.source,))
    for part in on_parts:
        for part_need in part.needs:
            add("part", part_need.said, [part_need.source])
    listed = {s for found in groups.values() for s in found}
    add("other", "", (s for s in sources if s not in listed))
    for trap_id in traps:
        trap = index.get("gotcha", trap_id)
        add("trap", trap_id, (c["source"] for c in trap.data.get("sources", [])) if trap else ())
    return tuple(SourceGroup(backs, subject, tuple(dict.fromkeys(found))) for (backs, subject), found in groups.items()
                 if found)
