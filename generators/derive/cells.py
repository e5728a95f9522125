"""Support cells derived from dispatch rules: a scheme on a hardware target, walked the way the engine walks it.

The scheme's capability gate is applied first; then the candidate kernels for the target's
platform are tried in order. A kernel's requirements are evaluated in order and the first that
fails is its reason (as `can_implement()` returns one). Requirements the records cannot decide
for a target (an optional package, an environment switch, an activation dtype the model chooses)
make an acceptance conditional; the walk then goes on, because the engine would fall through to
the next candidate when the condition does not hold. Shape checks (dimensions divisible by a tile or
group size) do not make a cell conditional: every kernel has them and they depend on the model, not on
the scheme or the part; they are kept as the accepting kernel's `limits`. A condition the engine release's default
install meets (a requirement's `met_by_install` fact, provided on the target's platform by the engine record's
`default_install`) stays a condition, marked assumed; one naming a fact the install lacks makes its kernel an
opt-in the engine passes over by default. An activation-type requirement, tested at selection or after it, that
every dtype the engine's `--dtype auto` gives on the target passes (its `auto_dtypes`) is marked assumed likewise: a
kernel that declines or fails only for an explicit `--dtype float32` is then a step off the defaults. The cell runs
when every outcome the defaults can reach runs, and still says what runs the other way. Pure functions of records; no
I/O.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from ..last_few import LastFew
from ..model.index import Index
from ..model.verdicts import FALLBACK_IF_LABEL, KnownBy, Verdict
from ..model.fields import EngineDefaultInstall, EngineDefaultInstallBuiltFor, HardwareTargetFields, KernelExternalGates, KernelFields, KernelRequirements, SchemeCapabilityGate, SchemeFields
from .inferred_steps import InferredStep, inferred_step
from .engine_dtypes import as_seen_by
from .messages import MODEL_DTYPES, engine_message
from .candidate_lists import resolved_schemes
from .plugins import layers_of
from .runtime_checks import resolved_kernels

_Frozen = TypeVar("_Frozen")


def _replaced(value: _Frozen, **changes: Any) -> _Frozen:
    """dataclasses.replace for the frozen dataclasses below (no __post_init__, no field left out of __init__), without
    running __init__ again: about a tenth of its cost, and a check derives a copy or two of every one of thousands of
    cells. An unknown field name is refused as replace refuses it."""
    unknown = changes.keys() - value.__dataclass_fields__.keys()  # type: ignore[attr-defined]
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {sorted(unknown)[0]!r}")
    new = object.__new__(type(value))
    new.__dict__.update(value.__dict__, **changes)
    return new


# outcomes of one candidate kernel (not cell verdicts)
YES, CONDITIONAL, NO = "yes", "conditional", "no"


@dataclass(frozen=True)
class Assumed:
    """A condition the engine's defaults meet: the condition, what meets it (in words: how it is installed, or the
    default setting that gives it) and the default-install facts that do (none for a setting)."""

    condition: str
    install: str
    facts: tuple[str, ...]
    route: str = ""  # how the default install is installed (empty for a setting): a card folds it away

    @property
    def met_by(self) -> str:
        """What meets (or lacks) the condition, with the install's route where there is one."""
        return f"{self.install} ({self.route})" if self.route else self.install

    @property
    def said(self) -> str:
        """The condition with what meets (or lacks) it, as notes and explain print it."""
        return f"{self.condition} ({self.met_by})"

    def as_dict(self) -> dict[str, Any]:
        return {"condition": self.condition, "install": self.install, "route": self.route, "facts": list(self.facts)}


@dataclass(frozen=True)
class Attempt:
    """One candidate kernel as tried: accepted, accepted under conditions, or rejected with a reason."""

    kernel: str
    outcome: str
    reason: str = ""
    reason_template: str = ""  # the engine's f-string as the source holds it, before filling
    conditions: tuple[str, ...] = ()
    routes: tuple[str, ...] = ()
    limits: tuple[str, ...] = ()
    after_selection: bool = False  # rejected by a gate outside can_implement: selected, then fails at run time
    instead: tuple[tuple[str, str], ...] = ()  # (condition, what the kernel computes when it does not hold): kept anyway
    messages: tuple[tuple[str, str], ...] = ()  # (condition, the engine's own message when it does not hold)
    computes_as: str = ""  # a precision requirement this target fails: the kernel is kept and computes this instead
    computes_check: str = ""  # that requirement's `check` (weight-only, weight-type, ...): what a short form reads
    # that requirement's typed `computes` (way, precision, encoding; '' where unstated), where its check alone does not
    # say how the kept kernel computes: what a short form reads first
    computes_stated: tuple[str, ...] = ()
    assumed: tuple[Assumed, ...] = ()  # conditions the default install (or a default setting) meets
    opt_in: tuple[Assumed, ...] = ()  # conditions the default install does not meet (the reader must opt in)
    opposites: tuple[tuple[str, str], ...] = ()  # (condition, the message of the check it is the negation of)
    fails: tuple[tuple[str, str], ...] = ()  # (condition, how the kernel fails when it does not hold): selected anyway
    # (condition, what happens when it does not hold, the device that then runs the model): kept, run there instead
    elsewhere: tuple[tuple[str, str, str], ...] = ()
    # those of `elsewhere` whose device walks its own candidates (`elsewhere_walk`): another kernel runs there
    walks: tuple[str, ...] = ()
    dtypes: tuple[str, ...] = ()  # the activation dtypes it runs with, when its activation-type requirements leave only some
    inferred: bool = False  # the requirement that rejects it (`reason`) is marked `inferred`: not read in the engine
    # for a kernel that loads, the requirements marked `inferred` it meets (or takes as a condition, or computes at
    # another precision for), as what each tests and where it was read: its loading rests on them as much as a failure
    # rests on a failing one
    inferred_steps: tuple[InferredStep, ...] = ()

    @property
    def selection_conditions(self) -> tuple[str, ...]:
        """The conditions without which the engine declines this kernel and goes on to the next candidate."""
        kept = {condition for condition, _ in (*self.instead, *self.fails)} | {c for c, _, _ in self.elsewhere}
        return tuple(c for c in self.conditions if c not in kept)


@dataclass(frozen=True)
class Otherwise:
    """The next outcome in the engine's order when conditions of the kernel it would select do not hold: the next
    candidate's verdict, or the same kernel at another precision, or a refusal with every reason."""

    kernel: str  # the kernel whose conditions do not hold (or whose scheme the engine substitutes)
    unmet: tuple[str, ...]  # those conditions: any one of them failing leads here
    verdict: Verdict
    selected: str | None  # the kernel the engine then selects; None when it refuses
    conditions: tuple[str, ...] = ()  # what this outcome itself needs
    computes_as: str = ""
    reasons: tuple[str, ...] = ()  # for a refusal or a failure at run time: every reason in the engine's order
    failure_message: str = ""
    off_default: bool = False  # reached only when the default install lacks what it provides
    # the unmet conditions are the default install's (a build for the target, a download and its driver), not the
    # kernel's own: the step holds whichever kernel the engine selects there
    of_install: bool = False
    # the device that runs the model instead when the unmet condition is where the engine places it (a kernel
    # requirement's `elsewhere`): the verdict is the same kernel's there, and this target runs nothing
    elsewhere: str = ""
    # that device's own candidates are walked (`elsewhere_walk`): `selected` is where the walk left this target, not
    # what runs there, so the step names no kernel and keeps only the conditions every candidate here shares
    walks: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"kernel": self.kernel, "unmet": list(self.unmet), "verdict": self.verdict.value,
                "selected": self.selected, "conditions": list(self.conditions), "computes_as": self.computes_as,
                "reasons": list(self.reasons), "failure_message": self.failure_message,
                "off_default": self.off_default, "of_install": self.of_install, "elsewhere": self.elsewhere,
                "walks": self.walks}


@dataclass(frozen=True)
class Worse:
    """A value of a setting that filters the candidate list (vLLM's --linear-backend) with which a cell that runs as
    specified by default no longer does: what a default install then gets, from the same walk of the filtered list."""

    setting: str  # the setting and its value, as a reader types it
    verdict: Verdict  # fallback, fails-at-runtime or refused
    kernel: str | None  # the kernel the engine then selects; None when it refuses
    computes_as: str = ""  # for a fallback: what it computes in instead
    reasons: tuple[str, ...] = ()  # for a refusal or a failure at run time: every reason in the engine's order
    # the kernel the value leaves that needs what the default install lacks (a package, a switch), so that install
    # passes it over and gets `verdict`; and what the value gets where that need is met (runs, fails at run time)
    passed_over: str | None = None
    given_it: Verdict | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"setting": self.setting, "verdict": self.verdict.value, "kernel": self.kernel,
                "computes_as": self.computes_as, "reasons": list(self.reasons), "passed_over": self.passed_over,
                "given_it": self.given_it.value if self.given_it else None}


@dataclass(frozen=True)
class Cell:
    """The derived verdict for one (scheme, hardware target)."""

    engine: str
    scheme: str
    target: str
    verdict: Verdict
    kernel: str | None
    conditions: tuple[str, ...]
    attempts: tuple[Attempt, ...]
    gate: str = ""  # the capability gate's message: the one that refuses, or (for a fallback) the one that hands on
    gate_fallback: str = ""  # the scheme id the engine returns instead when this scheme's gate fails (its `on_failure`)
    failure_message: str = ""
    reasons: tuple[str, ...] = field(default=())
    computes_as: str = ""  # for a fallback: what the engine really computes in
    known_by: KnownBy = KnownBy.CODE
    evidence: tuple[str, ...] = ()  # observation ids when known_by is RUN
    substitute_scheme: str = ""  # the class the engine uses instead (gate fallback, or unless a setting keeps this scheme)
    substitute_kernel: str = ""  # the kernel that class selects (what a run with default settings shows)
    substitution: str = ""  # the scheme id the engine returns on this platform unless a setting keeps this scheme
    otherwise: tuple[Otherwise, ...] = ()  # what runs when the conditions do not hold, in the engine's order
    assumes: tuple[Assumed, ...] = ()  # conditions the verdict takes as met by the default install
    default_kernel: str | None = None  # the kernel a default install selects when the open conditions hold (None: none)
    default_where: tuple[str, ...] = ()  # what else must hold for a default install to select it (a checkpoint's layout)
    opt_in: tuple[Assumed, ...] = ()  # conditions of `kernel` a default install does not meet
    default_attempts: tuple[Attempt, ...] = ()  # where a setting filters the list: the whole list's walk (the default's)
    worse: tuple[Worse, ...] = ()  # where a setting filters the list and the cell runs: the values that make it worse

    def as_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine, "scheme": self.scheme, "target": self.target, "verdict": self.verdict.value,
            "kernel": self.kernel, "computes_as": self.computes_as, "conditions": list(self.conditions),
            "gate": self.gate, "gate_fallback": self.gate_fallback, "substitution": self.substitution,
            "reasons": list(self.reasons), "failure_message": self.failure_message,
            "known_by": self.known_by.value, "evidence": list(self.evidence),
            "attempts": [{"kernel": a.kernel, "outcome": a.outcome, "reason": a.reason,
                          "after_selection": a.after_selection,
                          "conditions": list(a.conditions), "routes": list(a.routes), "limits": list(a.limits),
                          "inferred_steps": [step.as_dict() for step in a.inferred_steps]}
                         for a in self.attempts],
            "inferred_steps": [{"kernel": kernel, **step.as_dict()} for kernel, step in self.inferred_met],
            "otherwise": [o.as_dict() for o in self.otherwise],
            "assumes": [a.as_dict() for a in self.assumes],
            "default_kernel": self.default_kernel,
            "default_where": list(self.default_where),
            "opt_in": [a.as_dict() for a in self.opt_in],
            "worse": [w.as_dict() for w in self.worse],
            "fallback_if": self.fallback_if,
        }

    @property
    def fallback_if(self) -> bool:
        """A fallback that needs what a default install lacks: some step a default install reaches when the conditions
        do not hold fails at run time, is refused, or runs on another device. A runs-if says so in its verdict; a
        fallback keeps its verdict (it still computes at another precision) and says so in its label. The steps are
        those a default install reaches, as a runs-if that stays runs-if reads them (`default_reached`)."""
        opt_in = {a.kernel for a in self.attempts if a.opt_in}  # (as _by_default reads them)
        return self.verdict is Verdict.FALLBACK and any(
            not step.verdict.loads or step.elsewhere for step in default_reached(self.otherwise, opt_in))

    @property
    def label(self) -> str:
        """The verdict as a reader reads it: the verdict's label, "Fallback if" for a fallback_if."""
        return FALLBACK_IF_LABEL if self.fallback_if else self.verdict.label

    @property
    def inferred_met(self) -> tuple[tuple[str, InferredStep], ...]:
        """The steps marked `inferred` that the kernels deciding its verdict meet, or fail and stay (`deciding`), each
        with its kernel, in the engine's order: what a cell that runs rests on without the engine's code for it read."""
        return tuple((a.kernel, step) for a in deciding(self) for step in a.inferred_steps)

    @property
    def loaded_as(self) -> str:
        """The scheme id whose cell this is, under this scheme's id: the gate's fallback, or the substitution's scheme
        where no value of its setting keeps this one (a kept scheme's cell is `runs-if`); empty for its own cell."""
        if self.gate_fallback:
            return self.gate_fallback
        return self.substitution if self.verdict is not Verdict.RUNS_IF else ""


def derive_cells(index: Index, keep: bool = True) -> dict[tuple[str, str], Cell]:
    """Every (scheme id, target id) cell, for every scheme record and every hardware-target record on a platform the
    scheme has read (see `unread_platforms`) and its engine is modelled on (see `engine_platforms`). With `keep`, each
    derivation is kept for the next tree (_kept_cell); a process that derives one tree (`check`) skips that."""
    kernels = resolved_kernels(index)
    installs = default_installs(index)
    schemes = resolved_schemes(index)  # a `no_path` or named list reads its engine's statement
    modelled = engine_platforms(schemes.values())
    derive = _kept_cell if keep else derive_cell
    return {
        (scheme_id, target.id): derive(scheme_id, scheme, target.id, target.data, kernels,
                                       installs.get((scheme.get("engine", ""), target.data["platform"]), NO_INSTALL),
                                       fallback_of(scheme, schemes), substitute_of(scheme, target.data["platform"], schemes))
        for scheme_id, scheme in schemes.items()
        for target in index.all("hardware-target")
        if target.data["platform"] not in unread_platforms(scheme)
        and target.data["platform"] in modelled.get(scheme.get("engine", ""), ())
    }


def engine_platforms(schemes: Iterable[SchemeFields]) -> dict[str, set[str]]:
    """The platforms each engine is modelled on: those for which one of its schemes has a candidate list (read or
    `unread`). A scheme without a list for such a platform is refused there, as the engine's walk finds nothing; on a
    platform none of its schemes lists, the engine has no dispatch the records know of, so no cell is derived there
    rather than a refusal the engine never makes."""
    found: dict[str, set[str]] = {}
    for scheme in schemes:
        found.setdefault(scheme.get("engine", ""), set()).update(c["platform"] for c in scheme.get("candidates", []))
    return found


def unread_platforms(scheme: SchemeFields) -> dict[str, str]:
    """The platforms whose dispatch the scheme record has not read (a candidate list marked `unread`), with why: no
    cell is derived for their targets, since a refusal would say what the engine never does."""
    return {c["platform"]: c["unread"] for c in scheme.get("candidates", []) if "unread" in c}


Fallback = tuple[str, SchemeFields]  # (scheme id, its data): the scheme an engine returns when another's gate fails


def fallback_of(scheme: SchemeFields, schemes: Mapping[str, SchemeFields]) -> Fallback | None:
    """The scheme the capability gate's `on_failure` names, with its data (None when it names none, or an unknown id)."""
    named = (scheme.get("capability_gate") or {}).get("on_failure")
    return (named, schemes[named]) if named and named in schemes else None


def substitute_of(scheme: SchemeFields, platform: str, schemes: Mapping[str, SchemeFields]) -> Fallback | None:
    """The scheme the `substitution` of the platform's candidate list names, with its data (None when the list has
    none, or names an unknown id)."""
    substitution = next((c.get("substitution") for c in scheme.get("candidates", []) if c["platform"] == platform), None)
    named = substitution["scheme"] if substitution else None
    return (named, schemes[named]) if named and named in schemes else None


@dataclass(frozen=True)
class Build:
    """One set of binaries a default install runs (the engine's own kernels, the torch it installs), with the GPU
    architectures it carries code for: gfx ids (ROCm), or CUDA compute capabilities as cubins and as PTX."""

    binaries: str = ""  # which binaries, in words; empty when the list covers everything the install compiles
    gfx: tuple[str, ...] = ()
    cubins: tuple[int, ...] = ()  # compute capabilities as major*10+minor
    ptx: tuple[int, ...] = ()
    source: str = ""  # the source record that shows the list
    exact: tuple[int, ...] = ()  # those of `cubins` that are architecture-specific (sm_100a): that capability alone
    alternative: str = ""  # a published build of the same release with code for every target this one lacks
    toolkit: str = ""  # the CUDA toolkit it was compiled with; its PTX needs a driver at least as new
    one_of: str = ""  # builds sharing this name are alternative downloads: a user installs one of them
    hosts: tuple[str, ...] = ()  # the host CPU architectures it is published for; empty when any

    def on_host(self, host: str) -> bool:
        """Whether it can be had on a host of this CPU architecture (any, when `host` or `hosts` is empty)."""
        return not host or not self.hosts or host in self.hosts

    def serves(self, capability: int) -> str:
        """How these binaries run on a device of the capability: "cubin", "ptx" (only PTX, which the driver compiles
        when it loads it), or "" (nothing to run; gfx lists are judged by `missing`)."""
        if _runs_on(self.cubins, (), capability, self.exact):
            return "cubin"
        return "ptx" if any(p <= capability for p in self.ptx) else ""

    def missing(self, target: HardwareTargetFields) -> str:
        """The target's architecture in words when these binaries carry no code for it; empty when they do (or the
        target states no architecture of the kind the list names)."""
        if self.gfx:
            gfx = target.get("gfx")
            return gfx if gfx and gfx not in self.gfx else ""
        capability = target.get("compute_capability")
        return self.missing_capability(capability) if capability is not None else ""

    def missing_capability(self, capability: int) -> str:
        """The capability in words when these binaries carry no code for it (CUDA only); empty when they do."""
        if self.gfx or _runs_on(self.cubins, self.ptx, capability, self.exact):
            return ""
        return f"compute capability {_dotted(capability)}"

    def listed(self) -> str:
        """The architectures it carries code for, in words."""
        if self.gfx:
            return ", ".join(self.gfx)
        ptx = f" and PTX for {', '.join(map(_dotted, self.ptx))}" if self.ptx else ""
        return ", ".join(_dotted(c) + ("a" if c in self.exact else "") for c in self.cubins) + ptx

    def condition(self, missing: str) -> str:
        notes = ("; an 'a' cubin runs on its own capability alone" if self.exact else "") + (
            f"; {self.alternative} is such a build" if self.alternative else "")
        if not self.binaries:
            return f"a build compiled for {missing} (the default install is compiled for {self.listed()} only{notes})"
        return (f"a build compiled for {missing} in place of {self.binaries} (which has code for {self.listed()} "
                f"only{notes})")

    def reason(self, missing: str) -> str:
        return f"no code compiled for {missing} in the default install's {self.binaries or 'binaries'}"


# cudaErrorUnsupportedPtxVersion (222) in the CUDA runtime's error strings, which engines print (llama.cpp's CUDA_CHECK)
UNSUPPORTED_PTX = "the provided PTX was compiled with an unsupported toolchain"


def _name(build: Build) -> str:
    return build.binaries or "the default install's binaries"


@dataclass(frozen=True)
class Choice:
    """Where an install covers a CUDA capability but not plainly: the builds of one group that run there (with a
    driver at least as new as their toolkit, for those whose code there is only PTX) and those that carry nothing."""

    capability: int
    runs: tuple[Build, ...]
    jit: tuple[Build, ...]  # those of `runs` whose code there is PTX from a stated toolkit
    lacking: tuple[Build, ...]
    elsewhere: tuple[Build, ...] = ()  # those of the group not published for the part's host CPU (a Grace-based GB200)

    @property
    def same_need(self) -> tuple[tuple[Build, ...], ...]:
        """What the need is, whatever the capability: two parts with the same builds in each role need the same."""
        return self.runs, self.jit, self.lacking, self.elsewhere

    @property
    def source(self) -> str:
        return (self.runs or self.lacking)[0].source

    def said(self) -> str:
        """The condition, in words: which download to take, and with which driver (NVIDIA's rule for PTX compiled by
        the driver: one older than the PTX's toolkit refuses it with CUDA error 222)."""
        where = _dotted(self.capability)
        takes = ", or ".join(_name(build) + (f" with a driver that supports CUDA {build.toolkit} or later"
                                            if build in self.jit else "") for build in self.runs)
        whose = "its code" if len(self.jit) == 1 else "the code of each"
        # the PTX a device runs is the newest one at or below its capability: named by its own architecture, so the
        # words hold for every part of a target (a B300 at 10.3 runs the 9.0 PTX as a B200 at 10.0 does)
        ptx = {self._ptx_run(build) for build in self.jit}
        which = f"PTX for {_dotted(ptx.pop())}" if len(ptx) == 1 else "PTX"
        said = ("either " if len(self.runs) > 1 else "") + takes + (
            f" ({whose} here is {which}, which the driver compiles when it first loads it; a driver older than the "
            f"toolkit refuses it with CUDA error 222, '{UNSUPPORTED_PTX}')" if self.jit else "")
        if self.lacking:
            verb = "carry" if len(self.lacking) > 1 else "carries"
            said += "; " + " and ".join(map(_name, self.lacking)) + f" {verb} no code for {where}"
        for build in self.elsewhere:
            said += f"; {_name(build)} is published for {' and '.join(build.hosts)} hosts only"
        return said

    def reasons(self) -> tuple[str, ...]:
        """Why a default install without it fails at run time. The PTX is named by its own architecture, as `said`
        names it: on a 10.0 device the driver compiles the 9.0 PTX (there is no PTX for 10.0 to compile)."""
        where = _dotted(self.capability)
        return tuple(f"no code compiled for compute capability {where} in {_name(build)}" for build in self.lacking) + tuple(
            f"{_name(build)} with a driver older than CUDA {build.toolkit}: CUDA error 222 when the driver compiles "
            f"its PTX for {_dotted(self._ptx_run(build))} at load" for build in self.jit)

    def _ptx_run(self, build: Build) -> int:
        """The PTX a device of the capability runs from the build: the newest one at or below its capability."""
        return max(p for p in build.ptx if p <= self.capability)


def _choice(group: Sequence[Build], capability: int, host: str = "") -> Choice | None:
    """What a device of the capability needs among one group of builds (one set, or alternative downloads): None when
    nothing (every one runs there and one has a cubin for it, or none states the toolkit of its PTX) or when none runs
    there (`Install.unbuilt` says that). With a host CPU architecture (a part sold with its host), only the builds
    published for that host count: the others are named as such."""
    elsewhere = tuple(build for build in group if not build.on_host(host))
    if elsewhere and len(elsewhere) < len(group):
        found = _choice([build for build in group if build.on_host(host)], capability)
        return None if found is None else _replaced(found, elsewhere=elsewhere)
    served = [(build, build.serves(capability)) for build in group]
    runs = tuple(build for build, how in served if how)
    lacking = tuple(build for build, how in served if not how)
    jit = tuple(build for build, how in served if how == "ptx" and build.toolkit)
    if not runs or (not lacking and (any(how == "cubin" for _, how in served) or not jit)):
        return None
    return Choice(capability, runs, jit, lacking)


def _runs_on(cubins: Sequence[int], ptx: Sequence[int], capability: int, exact: Sequence[int] = ()) -> bool:
    """CUDA's compatibility rule: a cubin for X.Y runs on X.Z with Z >= Y (same major only), an architecture-specific
    one (sm_100a) on X.Y alone; PTX for X.Y is compiled when loaded on any device of capability X.Y or above."""
    return (any(c == capability if c in exact else c // 10 == capability // 10 and c <= capability for c in cubins)
            or any(p <= capability for p in ptx))


def _dotted(capability: int) -> str:
    return f"{capability // 10}.{capability % 10}"


@dataclass(frozen=True)
class Install:
    """What an engine release's default install provides on one platform: how it is installed, and each fact."""

    route: str = ""
    facts: Mapping[str, str] = field(default_factory=dict)  # fact -> what provides it, in words
    lacking: Mapping[str, str] = field(default_factory=dict)  # fact -> what is missing or off, in words
    builds: tuple[Build, ...] = ()  # the binaries it runs with their architectures; empty when the record states none
    first_kernels: str = ""  # what the engine launches on the device before it builds the model, in words

    def groups(self) -> tuple[tuple[Build, ...], ...]:
        """Its builds as sets that must each cover a target: one build alone, or the alternative downloads that share
        a `one_of` name (one of them must), in the order the record lists them."""
        grouped: dict[str, list[Build]] = {}
        for number, build in enumerate(self.builds):
            grouped.setdefault(build.one_of or f"#{number}", []).append(build)
        return tuple(tuple(group) for group in grouped.values())

    def unbuilt(self, target: HardwareTargetFields) -> tuple[tuple[Build, str], ...]:
        """Each of its binaries that carries no code for the target, with the target's architecture in words, where
        no alternative download carries any: every cell that loads there needs another build of each first. Empty
        when the install covers it (or states no list)."""
        return tuple((build, missing) for group in self.groups()
                     if all(build.missing(target) for build in group)
                     for build in group if (missing := build.missing(target)))

    def choices(self, capability: int | None, host: str = "") -> tuple[Choice, ...]:
        """On a CUDA device of the capability, where the install covers it but not plainly: which download to take
        when only some carry code for it, and the driver a build's PTX needs when that is all it has there; with a host
        CPU architecture, among the downloads published for it."""
        if capability is None:
            return ()
        return tuple(found for group in self.groups() if not any(build.gfx for build in group)
                     and (found := _choice(group, capability, host)) is not None)

    def meets(self, facts: Sequence[str]) -> str:
        """What provides all of `facts`, in words (the route apart: `route`); empty when this install lacks one."""
        if not facts or any(fact not in self.facts for fact in facts):
            return ""
        return "; ".join(self.facts[fact] for fact in facts)

    def lacks(self, facts: Sequence[str]) -> str:
        """What this install lacks of `facts`, in words (the route apart); empty when it lacks none of them."""
        return "; ".join(self.lacking[fact] for fact in facts if fact in self.lacking)


NO_INSTALL = Install()


def default_installs(index: Index) -> dict[tuple[str, str], Install]:
    """(engine id, platform) -> its default install, from each engine record's `default_install`."""
    return {(engine.id, install["platform"]): install_of(install, engine.data.get("first_kernels", {}).get("text", ""))
            for engine in index.all("engine") for install in engine.data.get("default_install", [])}


def install_of(install: EngineDefaultInstall, first_kernels: str = "") -> Install:
    """One `default_install` entry of an engine record as an Install; `first_kernels` is the engine's own."""
    return Install(install["route"], {f["fact"]: f["text"] for f in install.get("provides", [])},
                   {f["fact"]: f["text"] for f in install.get("lacks", [])},
                   tuple(build_of(built) for built in install.get("built_for", [])), first_kernels)


def build_of(built: EngineDefaultInstallBuiltFor) -> Build:
    """One `built_for` entry of a default install as a Build."""
    return Build(built.get("binaries", ""), tuple(built.get("gfx", [])), tuple(built.get("compute_capability", [])),
                 tuple(built.get("ptx", [])), built["source"], tuple(built.get("arch_specific", [])),
                 built.get("alternative", ""), built.get("toolkit", ""), built.get("one_of", ""),
                 tuple(built.get("hosts", [])))


# (scheme id, target id) -> the last few derivations of that cell: (scheme data, target data, install, fallback and
# substitute, each kernel id the derivation read with what it found, the cell).
_KEPT: LastFew[tuple[Any, Any, Install, Any, tuple[tuple[str, Any], ...], Cell]] = LastFew()


def _kept_cell(scheme_id: str, scheme: SchemeFields, target_id: str, target: HardwareTargetFields,
               kernels: dict[str, KernelFields], installed: Install, fallback: Fallback | None = None,
               substitute: Fallback | None = None) -> Cell:
    """derive_cell, or the cell an earlier derivation made from the very same scheme, target, fallback and substitute
    scheme data
    objects and, for every kernel id that derivation asked for, the very same kernel data object (or its absence again).

    derive_cell is a pure function of its arguments and reads the kernels only through the mapping it is given, so
    the same inputs for every read give the same cell (record data are never changed once loaded); a derivation that
    iterated the kernels (read them all) is not kept."""
    def same(entry: tuple[Any, Any, Install, Any, tuple[tuple[str, Any], ...], Cell]) -> bool:
        old_scheme, old_target, old_installed, (old_fallback, old_substitute), reads, _ = entry
        return (old_scheme is scheme and old_target is target and old_installed == installed
                and _same_fallback(old_fallback, fallback) and _same_fallback(old_substitute, substitute)
                and all(kernels.get(k) is found for k, found in reads))

    kept = _KEPT.find((scheme_id, target_id), same)
    if kept is not None:
        return kept[-1]
    recorded = _RecordedKernels(kernels)
    cell = derive_cell(scheme_id, scheme, target_id, target, recorded, installed, fallback, substitute)
    if not recorded.everything:
        _KEPT.keep((scheme_id, target_id), (scheme, target, installed, (fallback, substitute),
                                            tuple(recorded.read.items()), cell))
    return cell


def _same_fallback(old: Fallback | None, new: Fallback | None) -> bool:
    if old is None or new is None:
        return old is new
    return old[0] == new[0] and old[1] is new[1]


class _RecordedKernels(Mapping[str, KernelFields]):
    """The kernels by id as one cell's derivation reads them: each id asked for is noted with what it found."""

    def __init__(self, kernels: dict[str, KernelFields]):
        self.kernels = kernels
        self.read: dict[str, KernelFields | None] = {}
        self.everything = False  # iterated or counted: the cell depends on every kernel

    def __getitem__(self, kernel_id: str) -> KernelFields:
        found: KernelFields | None = self.get(kernel_id)
        if found is None:
            raise KeyError(kernel_id)
        return found

    def get(self, kernel_id: str, default: Any = None) -> Any:  # (Mapping's own goes through __getitem__ and KeyError)
        found = self.read[kernel_id] = self.kernels.get(kernel_id)
        return default if found is None else found

    def __contains__(self, kernel_id: object) -> bool:
        return isinstance(kernel_id, str) and self.get(kernel_id) is not None

    def __iter__(self) -> Iterator[str]:
        self.everything = True
        return iter(self.kernels)

    def __len__(self) -> int:
        self.everything = True
        return len(self.kernels)


def derive_cell(scheme_id: str, scheme: SchemeFields, target_id: str, target: HardwareTargetFields,
                kernels: Mapping[str, KernelFields], installed: Install | None = None,
                fallback: Fallback | None = None, substitute: Fallback | None = None) -> Cell:
    """The cell of one scheme on one target; `installed` is what the engine's default install provides on the
    target's platform, `fallback` the scheme its capability gate's `on_failure` names (see `fallback_of`),
    `substitute` the scheme its substitution on the target's platform names (see `substitute_of`)."""
    installed = installed or NO_INSTALL
    target = as_seen_by(target, scheme.get("engine", ""))
    cell = _selected(scheme_id, scheme, target_id, target, kernels, installed, fallback, substitute)
    unbuilt = installed.unbuilt(target)
    if cell.verdict is Verdict.REFUSED:
        gate_first = bool(cell.gate) and (scheme.get("capability_gate") or {}).get("before_first_kernels", False)
        first = gate_first or (not cell.gate and _list_refuses_first(scheme, target))
        return _known(cell if first else _refused_after_first_kernels(cell, unbuilt, installed.first_kernels))
    return _known(_on_chosen_build(_on_unbuilt_target(cell, unbuilt), installed.choices(target.get("compute_capability"))))


def _known(cell: Cell) -> Cell:
    """The cell marked known by inference where a step deciding its verdict comes from a requirement marked `inferred`
    (the records read the code around it, not that step): a refusal rests on every reason it lists; a failure at run
    time on the failing kernel's reason; a kernel that loads on each earlier candidate's decline and on every
    requirement of its own it meets (a gate it passes decides that it runs as much as one it fails decides a failure)."""
    return _replaced(cell, known_by=KnownBy.INFERRED) if any(a.inferred or a.inferred_steps for a in deciding(cell)) else cell


_RUNS_OR_IF = (Verdict.RUNS, Verdict.RUNS_IF)
_LOADS_THEN = (Verdict.RUNS, Verdict.FALLBACK)


def deciding(cell: Cell) -> tuple[Attempt, ...]:
    """The attempts whose reasons make the cell's verdict: each one listed as a reason when it refuses; up to and
    including the kernel it selects otherwise (the declines before it decide which kernel that is), and, where a
    cell runs, or runs if, through a kernel selected only under conditions (TensorRT-LLM's FP8 on Ada: the CUDA-core
    kernel for at most 8 rows, cuBLASLt beyond), each kernel a default install selects where they do not hold that
    loads: its running makes the cell run, and its computing otherwise (ONNX Runtime's dequantize path in TF32 past 16
    rows on SM 8.0+) makes it run only if they hold."""
    at = next((n for n, a in enumerate(cell.attempts) if a.outcome != NO or a.after_selection), None)
    if cell.verdict is Verdict.REFUSED or at is None:
        return tuple(a for a in cell.attempts if a.outcome == NO)
    if cell.verdict not in _RUNS_OR_IF or cell.attempts[at].outcome != CONDITIONAL:
        return cell.attempts[:at + 1]
    also = {step.selected for step in cell.otherwise if not step.off_default and step.verdict in _LOADS_THEN}
    return (*cell.attempts[:at + 1], *(a for a in cell.attempts[at + 1:] if a.kernel in also))


def _on_chosen_build(cell: Cell, choices: Sequence[Choice]) -> Cell:
    """Where the install covers the target only through some of its downloads, or only through PTX the driver
    compiles, every cell that loads takes each such choice as a first condition (one that runs becomes `runs-if`), and
    says that without it the kernel the engine selects fails at run time."""
    if not choices or not cell.verdict.loads:
        return cell
    verdict = Verdict.RUNS_IF if cell.verdict is Verdict.RUNS else cell.verdict
    said = tuple(choice.said() for choice in choices)
    unrun = Otherwise(cell.kernel or "", said, Verdict.FAILS_AT_RUNTIME, cell.kernel, _placements(cell),
                      reasons=tuple(reason for choice in choices for reason in choice.reasons()), of_install=True)
    return _replaced(cell, verdict=verdict, conditions=(*said, *cell.conditions), otherwise=(unrun, *cell.otherwise))


def _list_refuses_first(scheme: SchemeFields, target: HardwareTargetFields) -> bool:
    """Whether the target's candidate list is an empty one the engine refuses before its first kernels (vLLM's
    verify_quantization in the front end): that refusal, not a failure of the first kernels, is what a default
    install meets."""
    candidates = next((c for c in scheme.get("candidates", []) if c["platform"] == target["platform"]), None)
    if candidates is None:
        return False
    return not candidates.get("kernels") and bool(candidates.get("before_first_kernels"))


def _refused_after_first_kernels(cell: Cell, unbuilt: Sequence[tuple[Build, str]], first_kernels: str) -> Cell:
    """A refusal made while the model is built comes after the engine's first kernels on the device: on a target the
    default install carries no code for, those fail first, so the refusal is what a build for the target says. The
    verdict stays (nothing runs either way); its reasons say what a default install meets first."""
    if not unbuilt or not first_kernels:
        return cell
    binaries = "; ".join(dict.fromkeys(build.binaries or "its binaries" for build, _ in unbuilt))
    earlier = (f"{FAILS_FIRST_ON_DEFAULT_INSTALL}: {first_kernels}, and the default install has no code compiled for "
               f"{unbuilt[0][1]} ({binaries})")
    return _replaced(cell, reasons=(*cell.reasons, earlier))


# how the reason a refusal gains on a target the default install carries no code for begins
FAILS_FIRST_ON_DEFAULT_INSTALL = "with the default install it fails at run time before this refusal"


def _on_unbuilt_target(cell: Cell, unbuilt: Sequence[tuple[Build, str]]) -> Cell:
    """On a target the default install is not compiled for, nothing it selects runs there without another build:
    every cell that loads takes each build it needs as its first conditions, one that runs becomes `runs-if`, and its
    first step says that with the default install the kernel the engine selects fails at run time (no code for the
    target)."""
    if not unbuilt or not cell.verdict.loads:
        return cell
    verdict = Verdict.RUNS_IF if cell.verdict is Verdict.RUNS else cell.verdict
    builds = tuple(build.condition(missing) for build, missing in unbuilt)
    unrun = Otherwise(cell.kernel or "", builds, Verdict.FAILS_AT_RUNTIME, cell.kernel, _placements(cell),
                      reasons=tuple(build.reason(missing) for build, missing in unbuilt), of_install=True)
    return _replaced(cell, verdict=verdict, conditions=(*builds, *cell.conditions), otherwise=(unrun, *cell.otherwise))


def _placements(cell: Cell) -> tuple[str, ...]:
    """The placement conditions (`elsewhere`) of the kernel a cell selects: a failure of the install's code for the
    target happens only where the model is placed on it (without the placement the model runs on another device,
    the step `_placed_elsewhere` adds), so a step of the install's needs them."""
    return tuple(dict.fromkeys(c for s in cell.otherwise if s.elsewhere and s.kernel == cell.kernel for c in s.unmet))


def _selected(scheme_id: str, scheme: SchemeFields, target_id: str, target: HardwareTargetFields,
              kernels: Mapping[str, KernelFields], installed: Install, fallback: Fallback | None = None,
              substitute: Fallback | None = None) -> Cell:
    """derive_cell for an install that covers the target: the engine's own gates and kernel walk."""
    engine = scheme.get("engine", "")
    config = handed_config(scheme, target, kernels, installed)
    gate = _gate_failure(scheme.get("capability_gate") or {}, target, scheme)
    if gate and fallback is not None:
        return _handed_on(fallback[0], _loaded_as(scheme_id, scheme, fallback, target_id, target, kernels, installed))
    if gate:
        reasons = _package_tests_before(gate, scheme, target, kernels, config, installed)
        return Cell(engine, scheme_id, target_id, Verdict.REFUSED, None, (), (), gate=gate, reasons=reasons)
    candidates = next((c for c in scheme.get("candidates", []) if c["platform"] == target["platform"]), None)
    if candidates is None or not candidate_order(candidates, target):
        # an empty list's locator says where the engine's walk comes up empty (or why it never reaches this device)
        where = candidates.get("locator", "") if candidates else ""
        reason = f"no candidate kernels for platform {target['platform']!r}" + (f" ({where})" if where else "")
        # an empty list: the engine still raises
        failure = failure_message(candidates, kernels, target, scheme) if candidates else ""
        return _of_list(Cell(engine, scheme_id, target_id, Verdict.REFUSED, None, (), (), reasons=(reason,),
                             failure_message=failure), candidates)
    if "substitution" in candidates and substitute is not None:  # (a dangling id is the link stage's error)
        return _substituted(engine, scheme_id, target_id, candidates, target, scheme, kernels, installed,
                            _loaded_as(scheme_id, scheme, substitute, target_id, target, kernels, installed))
    attempts = _walk(candidate_order(candidates, target), kernels, config, target, scheme, installed)
    failure = failure_message(candidates, kernels, target, scheme)
    cell = _verdict(engine, scheme_id, target_id, attempts, failure, config, _handling(attempts, kernels))
    whole = _by_default(cell, _otherwise(cell, kernels, config, failure, (target, scheme, installed)))
    if "filter" in candidates and not whole.verdict.runs_as_specified:
        return _of_list(_filtered(whole, candidates, target, scheme, kernels, installed), candidates)
    if "filter" in candidates:
        return _of_list(_replaced(whole, worse=_worse_settings(candidates, target, scheme, kernels, installed)), candidates)
    return _of_list(whole, candidates)


def _of_list(cell: Cell, candidates: Mapping[str, Any] | None) -> Cell:
    """The cell a candidate list decides, known by inference where the list is marked `inferred` (a step of its walk,
    such as that it comes up empty for the scheme, was not read in the engine at the pinned version; its locator says
    which)."""
    return _replaced(cell, known_by=KnownBy.INFERRED) if candidates and candidates.get("inferred") else cell


def _package_tests_before(gate: str, scheme: SchemeFields, target: HardwareTargetFields,
                          kernels: Mapping[str, KernelFields], config: Mapping[str, Any], installed: Install) -> tuple[str, ...]:
    """A failed gate's reasons in the engine's order. Where the engine tests packages first (the gate's
    `after_installs`), each such test of the first candidate kernel the default install fails refuses before the gate
    does, so a reader of the default install sees that message first and the gate's only with the package installed."""
    named = set((scheme.get("capability_gate") or {}).get("after_installs") or ())
    candidates = next((c for c in scheme.get("candidates", []) if c["platform"] == target["platform"]), None)
    if not named or not candidates or not candidates["kernels"]:
        return (gate,)
    first = candidates["kernels"][0]
    attempt = try_kernel(first, kernels.get(first), config, target, scheme, installed)
    messages = dict(attempt.messages)
    lacking = [a for a in attempt.opt_in if named & set(a.facts) and a.condition in messages]
    if not lacking:
        return (gate,)
    earlier = tuple(f"{BEFORE_GATE_FIRST if n == 0 else BEFORE_GATE_NEXT} (unmet: {a.condition}): {messages[a.condition]}"
                    for n, a in enumerate(lacking))
    return (*earlier, f"{GATE_AFTER_PACKAGES}: {gate}")


# how the reasons of a gate the engine tests after packages begin: each package test the default install fails, then
# the gate once they are met
BEFORE_GATE_FIRST = "on the default install a package test before the capability gate refuses first"
BEFORE_GATE_NEXT = "with that met, a package test before the capability gate refuses"
GATE_AFTER_PACKAGES = "with the packages met, the capability gate refuses"


def _filtered(whole: Cell, candidates: Mapping[str, Any], target: HardwareTargetFields, scheme: SchemeFields,
              kernels: Mapping[str, KernelFields], installed: Install) -> Cell:
    """A list a setting filters (`filter`), where the whole list's walk (`whole`, the default) does not run as
    specified: runs-if the first value whose filtered list does (without it, the whole list's outcome), else `whole`."""
    rule = candidates["filter"]
    given = _given_setting(rule["values"], lambda value: f"{rule['setting']} {value} (unset, the default, leaves the "
                           "whole list)", candidates, target, scheme, kernels, installed, whole)
    return whole if given is None else given


def _filtered_lists(candidates: Mapping[str, Any], target: HardwareTargetFields,
                    kernels: Mapping[str, KernelFields]) -> Iterator[tuple[str, list[str]]]:
    """Each value of the list's filtering setting with the list it leaves (the kernels whose `linear_backends` name it,
    in the walk's order), skipping values that name none of them (those leave the whole list: the default)."""
    order = candidate_order(candidates, target)
    for value in candidates["filter"]["values"]:
        kept = [k for k in order if k in kernels and value in kernels[k].get("linear_backends", [])]
        if kept and kept != order:
            yield value, kept


def _worse_settings(candidates: Mapping[str, Any], target: HardwareTargetFields, scheme: SchemeFields,
                    kernels: Mapping[str, KernelFields], installed: Install) -> tuple[Worse, ...]:
    """For a cell that runs as specified by default on a list a setting filters: each value whose filtered list a
    default install walks to an outcome that does not run as specified (a weight-only fallback, a failure at run time,
    a refusal), with what it selects then; the walk is the one `_given_setting` makes, so nothing is typed by hand. A
    kernel whose record leaves its activation handling open is not known to run worse, so it is not listed. A kernel
    that runs only with something the default install lacks (a package it leaves out: Conch on vLLM's CUDA wheel) is
    passed over by a default install, which gets the first step it reaches without it (with nothing after it in the
    filtered list, the refusal), whatever that kernel would then do (run, or fail at run time as FBGEMM's NVFP4 GEMM
    on SM120); the entry names that kernel and its own outcome, so a reader sees the value needs what the install
    lacks, and whether meeting the need would make it run."""
    config = handed_config(scheme, target, kernels, installed)
    failure = failure_message(candidates, kernels, target, scheme)
    found = []
    for value, kept in _filtered_lists(candidates, target, kernels):
        attempts = _walk(kept, kernels, config, target, scheme, installed)
        handling = _handling(attempts, kernels)
        cell = _verdict(scheme.get("engine", ""), "", "", attempts, failure, config, handling)
        cell = _by_default(cell, _otherwise(cell, kernels, config, failure, (target, scheme, installed)))
        opt_in = {a.kernel for a in attempts if a.opt_in}
        if cell.kernel in opt_in:  # whatever the kernel then does (runs, fails at run time), the install never gets it
            step = next((s for s in cell.otherwise if not s.off_default and s.selected != s.kernel
                         and s.selected not in opt_in), None)  # as _default_kernel finds what the install selects
            if step is not None and not step.verdict.runs_as_specified:
                found.append(Worse(f"{candidates['filter']['setting']} {value}", step.verdict,
                                   step.selected if step.verdict is not Verdict.REFUSED else None, step.computes_as,
                                   () if step.verdict is Verdict.FALLBACK else step.reasons, cell.kernel, cell.verdict))
            continue
        if cell.verdict.runs_as_specified:
            continue
        if cell.verdict is Verdict.FALLBACK and handling is None and not any(
                a.computes_as for a in attempts if a.kernel == cell.kernel):
            continue  # a kernel whose record does not say what its activations run in is not known to be worse
        found.append(Worse(f"{candidates['filter']['setting']} {value}", cell.verdict,
                           cell.kernel if cell.verdict is not Verdict.REFUSED else None, cell.computes_as,
                           () if cell.verdict is Verdict.FALLBACK else cell.reasons))
    return tuple(found)


def _given_setting(values: Sequence[str], said: Callable[[str], str], candidates: Mapping[str, Any],
                   target: HardwareTargetFields, scheme: SchemeFields, kernels: Mapping[str, KernelFields],
                   installed: Install, instead: Cell) -> Cell | None:
    """Runs-if the first value of a setting whose filtered list (the kernels whose `linear_backends` name it, the
    whole list when none does) runs as specified: the setting, as `said` words it, leads the conditions, and without
    it the outcome is `instead`, whose default kernel is what a default install selects (also where it then fails at
    run time), whose own steps follow that one and whose walk is kept (`default_attempts`). What the defaults meet is
    `instead`'s and, of the kernel the setting leaves, what its attempt notes as met (`assumes`) or lacking (`opt_in`).
    None when no value's does."""
    config, order = handed_config(scheme, target, kernels, installed), candidate_order(candidates, target)
    failure = failure_message(candidates, kernels, target, scheme)
    for value in values:
        kept = [k for k in order if k in kernels and value in kernels[k].get("linear_backends", [])] or order
        attempts = _walk(kept, kernels, config, target, scheme, installed)
        cell = _verdict(instead.engine, instead.scheme, instead.target, attempts, failure, config,
                        _handling(attempts, kernels))
        if cell.verdict.runs_as_specified:
            setting, loads = said(value), instead.verdict.loads
            selects = loads or instead.verdict is Verdict.FAILS_AT_RUNTIME  # the engine selects a kernel at load
            unset = Otherwise(cell.kernel or "", (setting,), instead.verdict, instead.kernel if selects else None,
                              instead.conditions if selects else (), instead.computes_as,
                              () if loads else instead.reasons,
                              instead.failure_message if instead.verdict is Verdict.REFUSED else "")
            # what the defaults meet of the kernel the setting leaves (humming-kernels comes with vLLM's CUDA wheel;
            # --dtype auto gives only dtypes it takes) is met for a reader who gives the setting too: not a step to take
            primary = next((a for a in cell.attempts if a.kernel == cell.kernel), None)
            own = primary.assumed if primary is not None else ()
            return _replaced(cell, verdict=Verdict.RUNS_IF, conditions=(setting, *cell.conditions),
                             assumes=tuple(dict.fromkeys((*instead.assumes, *own))),
                             opt_in=primary.opt_in if primary is not None else (),
                             default_kernel=instead.default_kernel if selects else None,
                             default_where=_where_selected(instead) if selects else (),
                             default_attempts=instead.attempts,
                             otherwise=(unset, *(instead.otherwise if selects else ()),
                                        *_otherwise(cell, kernels, config, failure, (target, scheme, installed))))
    return None


def failure_message(candidates: Mapping[str, Any], kernels: Mapping[str, KernelFields], target: HardwareTargetFields,
                    scheme: SchemeFields) -> str:
    """The message the engine raises when every candidate declines, as it prints it: its f-string placeholders filled
    as the candidates' own reasons are, from the target, the scheme and the constants the candidates' requirements
    state (transformers' `{BITSANDBYTES_MIN_VERSION}` is 0.46.1); one the records do not hold shows as ‹name›. A
    message that is word for word a candidate's requirement's is that check's (vLLM's activation-dtype test for
    vLLM-Gaudi's ModelOpt FP8), so it is filled as that requirement's is."""
    message = str(candidates.get("failure_message", ""))
    forced = candidates.get("forced")
    if forced and forced_kernels(forced, target):  # the forcing raises its own message, not the list's
        message = str(forced["failure_message"])
    if "{" not in message:
        return message
    constants: dict[str, Any] = {}
    check: Mapping[str, Any] = {}
    for kernel_id in candidates.get("kernels", []):
        kernel = kernels.get(kernel_id)
        for requirement in kernel.get("requirements", []) if kernel is not None else []:
            for name, value in (requirement.get("constants") or {}).items():
                constants.setdefault(name, value)
            if not check and requirement.get("reason") == message:
                check = requirement
    return engine_message(message, target, scheme, {**check, "constants": constants})


def on_target(config: Mapping[str, Any], target: HardwareTargetFields) -> Mapping[str, Any]:
    """The scheme's configuration as the target lets it load: a model dtype the engine refuses on this target before
    loading (the target's `model_dtypes` omit it) is not one of its activation dtypes there; others stay."""
    allowed = target.get("model_dtypes")
    types = config.get("activation_types") or []
    kept = [t for t in types if t not in MODEL_DTYPES or t in allowed] if allowed else types
    return config if len(kept) == len(types) else {**config, "activation_types": kept}


def handed_config(scheme: SchemeFields, target: HardwareTargetFields, kernels: Mapping[str, KernelFields] | None = None,
                  installed: Install | None = None) -> Mapping[str, Any]:
    """The configuration the scheme hands kernel selection on the target: its config as the target lets it load
    (`on_target`), with the activation quantization keys its candidate list for the target's platform states in
    place of the config's, where the list states them (vLLM's fp8 method asks for per-token scales only where CUTLASS
    FP8 is supported), and those of its `activation_scales_without` where the kernel named there is refused on the
    target outright (tried against `kernels`; a kernel that is only a condition there is the steps' business:
    `_keys_without`)."""
    config = on_target(scheme.get("config", {}), target)
    listed = next((c for c in scheme.get("candidates", []) if c["platform"] == target["platform"]), None)
    if listed is None:
        return config
    if "activation_scales" in listed:
        config = {**config, "activation_scales": list(listed["activation_scales"])}
    without = listed.get("activation_scales_without")
    if without is None or kernels is None:
        return config
    tried = try_kernel(without["kernel"], kernels.get(without["kernel"]), config, target, scheme,
                       installed or NO_INSTALL)
    if tried.outcome != NO or tried.after_selection:
        return config
    return {**config, "activation_scales": list(without["activation_scales"])}


def _keys_without(kernel_id: str, target: HardwareTargetFields, scheme: SchemeFields) -> list[str] | None:
    """The activation keys the scheme hands kernel selection where the engine finds `kernel_id` unsupported, when its
    candidate list for the target's platform makes its keys depend on that kernel (`activation_scales_without`: vLLM's
    fp8 method asks cutlass_fp8_supported() before the walk, so a build without CUTLASS FP8 hands per-tensor keys to
    every kernel); None when it does not."""
    listed = next((c for c in scheme.get("candidates", []) if c["platform"] == target["platform"]), None)
    without = listed.get("activation_scales_without") if listed is not None else None
    if without is None or without["kernel"] != kernel_id:
        return None
    return list(without["activation_scales"])


def _handed_on(fallback_id: str, loaded: Cell) -> Cell:
    """The cell of a scheme whose capability gate fails on the target and names the scheme the engine returns instead
    (`on_failure`): that scheme's cell as this one's checkpoint loads (`_loaded_as`). Such a gate is a test, not an
    error (vLLM calls it with error=False), so where the checkpoint loads no gate message is printed and the cell has
    none; where it does not, the other scheme's own refusal (below its own gate, that gate's message)."""
    return _replaced(loaded, gate=loaded.gate, gate_fallback=fallback_id)


def _loaded_as(scheme_id: str, scheme: SchemeFields, other: Fallback, target_id: str, target: HardwareTargetFields,
               kernels: Mapping[str, KernelFields], installed: Install) -> Cell:
    """The cell of this scheme's checkpoint where the engine returns the scheme `other` for it instead: that scheme's
    own cell (its gate, kernel walk, conditions and steps; its own `on_failure` and substitution are not followed),
    for the same weights (`same_checkpoint`), under this scheme's id. Where it loads the cell is a fallback, never
    more: it computes at the other scheme's precision, and so does every step of it that runs. Where that scheme
    refuses or fails, so does this cell, with its reasons."""
    fallback_id, substitute = other
    substitute = same_checkpoint(substitute, scheme)
    instead = _selected(fallback_id, substitute, target_id, target, kernels, installed)
    named = substitute.get("class_name", fallback_id)
    cell = _replaced(instead, scheme=scheme_id, substitute_scheme=named)
    if not instead.verdict.loads:
        return cell
    config = handed_config(substitute, target, kernels, installed)

    def computes(kernel: str | None, verdict: Verdict, computes_as: str) -> str:
        if not verdict.runs_as_specified:
            return f"{named}: {computes_as}" if computes_as else ""
        tried = next((a for a in instead.attempts if a.kernel == kernel), None)
        kept = {**config, "activation_types": list(tried.dtypes)} if tried and tried.dtypes else config
        return f"{named}: " + (_unquantized_activations(kept, "as-given") if not config.get("activation_quantized")
                               else f"its own arithmetic ({fallback_id})")

    steps = tuple(_replaced(step, verdict=Verdict.FALLBACK,
                            computes_as=computes(step.selected, step.verdict, step.computes_as))
                  if step.verdict.runs_as_specified else step for step in instead.otherwise)
    return _replaced(cell, verdict=Verdict.FALLBACK, otherwise=steps,
                     computes_as=computes(instead.kernel, instead.verdict, instead.computes_as))


def same_checkpoint(other: SchemeFields, scheme: SchemeFields) -> SchemeFields:
    """The scheme the engine returns instead of `scheme`, as it loads `scheme`'s checkpoints: the engine builds it from
    the same weights (vLLM hands CompressedTensorsW8A16Fp8 the W8A8 checkpoint's weight_quant), so of its weight scales
    only those `scheme` lists are left (when that leaves any; otherwise it is taken as it is)."""
    theirs = other.get("config", {}).get("weight_scales") or []
    kept = [s for s in theirs if s in (scheme.get("config", {}).get("weight_scales") or [])]
    if not kept or len(kept) == len(theirs):
        return other
    return {**other, "config": {**other["config"], "weight_scales": kept}}


def _by_default(cell: Cell, otherwise: tuple[Otherwise, ...]) -> Cell:
    """The cell with its steps `otherwise` (what runs when its conditions do not hold): marks the steps the default
    install cannot reach, names what the verdict assumes of it, and makes a conditional cell `runs` when every
    outcome the default install can reach runs as specified: its conditions then only choose the kernel (or hold by
    default), and stay, with every step, to say which kernel computes when.

    A step is out of the default install's reach when its kernel is (the engine selects it only after an earlier
    kernel's conditions fail by default, or selects it once more only off the defaults) or when every condition it is
    the failure of is one the install meets. A kernel with a condition the install lacks (`opt_in`) is passed over by
    default: its failure step is reached, the outcome of selecting it is not, and the kernel a default install
    selects is the next one the walk reaches."""
    assumed = {a.kernel: {x.condition for x in a.assumed} for a in cell.attempts}
    opt_in = {a.kernel for a in cell.attempts if a.opt_in}
    reached = {cell.kernel}
    again: set[str] = set()  # kernels a step off the defaults selects once more (`_tried_again`): their steps are off too
    steps = []
    for step in otherwise:
        met = assumed.get(step.kernel, set())
        kept = step.selected == step.kernel  # a precision step: the kernel is selected and computes otherwise
        held = all(condition in met for condition in step.unmet)  # the defaults meet what this step needs unmet
        on_default = step.kernel in reached and step.kernel not in again and (
            step.kernel not in opt_in and not (step.unmet and held) if kept else not held)
        if on_default and step.selected:
            reached.add(step.selected)
        elif step.selected is not None and step.selected in reached and not kept:
            again.add(step.selected)
        steps.append(step if on_default else _replaced(step, off_default=True))
    assumes = tuple(dict.fromkeys(x for a in cell.attempts if a.kernel in reached for x in a.assumed))
    primary = next((a for a in cell.attempts if a.kernel == cell.kernel), None)
    verdict = cell.verdict
    if verdict is Verdict.RUNS_IF and steps and _reached_run(cell.kernel in opt_in or verdict.runs_as_specified,
                                                             steps, opt_in):
        verdict = Verdict.RUNS
    default_kernel, default_where = _default_kernel(cell.kernel, steps, opt_in, assumed)
    if verdict is Verdict.FAILS_AT_RUNTIME and cell.kernel in opt_in and primary is not None:
        passed_over = _passed_over(cell, primary, steps, opt_in)
        if passed_over is not None:
            return passed_over
    return _replaced(cell, verdict=verdict, otherwise=tuple(steps), assumes=assumes,  # one copy per cell
                     default_kernel=default_kernel, default_where=default_where,
                     opt_in=primary.opt_in if primary else ())


def _passed_over(cell: Cell, primary: Attempt, steps: Sequence[Otherwise], opt_in: AbstractSet[str]) -> Cell | None:
    """A kernel that is selected and then fails only where something the default install lacks is present (a package
    it leaves out) is never selected by default: the default install gets the step the engine takes without it. That
    step is the cell (its verdict, kernel, conditions and precision: what a reader with a default install gets), and
    the failure becomes a step off the defaults, reached by adding what the install lacks. None when that step does
    not load (a refusal there is no more a run than the failure) or is itself an opt-in's."""
    at = next((n for n, s in enumerate(steps) if s.kernel == cell.kernel and not s.off_default
               and s.selected not in (None, cell.kernel) and s.selected not in opt_in), None)
    if at is None or not steps[at].verdict.loads:
        return None
    step = steps[at]
    # what the default install lacks is what this answer rests on: met by the defaults, and the failure is the step
    # without it (a condition of the kernel the default install reaches, not of the one it passes over)
    lack = tuple(Assumed(f"the default install's lack of {a.condition}", a.install, a.facts, a.route)
                 for a in primary.opt_in)
    fails = Otherwise(step.selected or "", tuple(x.condition for x in lack), Verdict.FAILS_AT_RUNTIME,
                      cell.kernel, reasons=cell.reasons[-1:] or (primary.reason,), off_default=True)
    return _replaced(cell, verdict=step.verdict, kernel=step.selected, conditions=step.conditions,
                     computes_as=step.computes_as, otherwise=(fails, *steps[at + 1:]),
                     assumes=(*lack, *(x for a in cell.attempts if a.kernel == step.selected for x in a.assumed)),
                     default_kernel=step.selected, default_where=(), opt_in=())  # (adding it leads to the failure)


def _default_kernel(kernel: str | None, steps: Sequence[Otherwise], opt_in: set[str],
                    assumed: Mapping[str, set[str]]) -> tuple[str | None, tuple[str, ...]]:
    """The first kernel in the engine's order that a default install selects: the cell's own unless it needs an
    opt-in, else the first step reached by default whose kernel needs none (None when that step refuses); with what
    else that step needs besides what the defaults meet (a checkpoint layout the cell's own kernel does not need)."""
    if kernel not in opt_in:
        return kernel, ()
    step = next((s for s in steps if not s.off_default and s.selected != s.kernel and s.selected not in opt_in), None)
    if step is None or step.selected is None:
        return None, ()
    # a condition whose failure leaves that kernel selected (it then fails or computes otherwise, a step of its own)
    # is not where the install selects it: DeepGEMM is selected on a host without nvcc, then fails at load
    kept = {c for s in steps if s.kernel == s.selected == step.selected for c in s.unmet}
    return step.selected, tuple(c for c in step.conditions
                                if c not in assumed.get(step.selected, set()) and c not in kept)


def runs_by_default(cell: Cell, opt_in: AbstractSet[str] = frozenset()) -> bool:
    """Whether the scheme runs as specified whichever way the conditions the default install leaves open go: every
    outcome a default install reaches (the cell's own unless its kernel needs an opt-in, and each step it reaches
    whose kernel needs none) runs at the scheme's precision."""
    return _reached_run(cell.kernel in opt_in or cell.verdict.runs_as_specified, cell.otherwise, opt_in)


def _reached_run(own: bool, steps: Sequence[Otherwise], opt_in: AbstractSet[str]) -> bool:
    """runs_by_default of a cell whose own outcome runs (or is passed over) as `own` says and whose steps are `steps`.
    A step on another device (`elsewhere`) runs nothing on this target, whatever its verdict there."""
    return own and all(s.verdict.runs_as_specified and not s.elsewhere for s in default_reached(steps, opt_in))


def default_reached(steps: Sequence[Otherwise], opt_in: AbstractSet[str]) -> Iterator[Otherwise]:
    """The steps a default install reaches: those not off the defaults, less the outcome of selecting a kernel that
    needs an opt-in (`opt_in`): a default install passes that kernel over and reaches its own step instead. Whether
    a runs-if stays runs-if (`_reached_run`) and whether a fallback is "Fallback if" (Cell.fallback_if) read these."""
    return (s for s in steps if not s.off_default and (s.selected is None or s.selected not in opt_in))


def _walk(order: Sequence[str], kernels: Mapping[str, KernelFields], config: Mapping[str, Any],
          target: HardwareTargetFields, scheme: SchemeFields, installed: Install) -> tuple[Attempt, ...]:
    attempts = []
    for kernel_id in order:
        attempt = try_kernel(kernel_id, kernels.get(kernel_id), config, target, scheme, installed)
        attempts.append(attempt)
        if (attempt.outcome != NO or attempt.after_selection) and not attempt.selection_conditions:
            break  # the engine takes the first kernel whose can_implement accepts (a conditional one only if it holds)
    return tuple(attempts)


def _handling(attempts: Sequence[Attempt], kernels: Mapping[str, KernelFields]) -> str | None:
    chosen = next((a for a in attempts if a.outcome != NO or a.after_selection), None)
    chosen_kernel = kernels.get(chosen.kernel) if chosen else None
    return chosen_kernel.get("activation_handling") if chosen_kernel else None


def _substituted(engine: str, scheme_id: str, target_id: str, candidates: Mapping[str, Any],
                 target: HardwareTargetFields, scheme: SchemeFields, kernels: Mapping[str, KernelFields],
                 installed: Install, instead: Cell) -> Cell:
    """A scheme the engine replaces on this platform unless a setting keeps it: runs-if the first value of the
    setting whose filtered list accepts (the setting leads the conditions, and without it the checkpoint loads as the
    substitution's scheme: `instead`, that scheme's cell from `_loaded_as`), else `instead` itself."""
    substitution = candidates["substitution"]
    linked = dict(substitution=substitution["scheme"], substitute_scheme=instead.substitute_scheme,
                  substitute_kernel=instead.kernel or "")
    keeping = " or ".join(substitution["values"])  # every value keeps the scheme, not only the one that runs
    given = _given_setting(substitution["values"], lambda value: f"{substitution['setting']} {value} (without "
                           f"{substitution['setting']} {keeping}, vLLM returns {instead.substitute_scheme})",
                           candidates, target, scheme, kernels, installed,
                           _replaced(instead, engine=engine, scheme=scheme_id, target=target_id))
    return _replaced(given if given is not None else instead, **linked)


def _otherwise(cell: Cell, kernels: Mapping[str, KernelFields], config: Mapping[str, Any],
               failure: str, walk: tuple[HardwareTargetFields, SchemeFields, Install]) -> tuple[Otherwise, ...]:
    """Each way the cell's conditions can fail, in the engine's order: a selection condition of the chosen kernel
    failing makes the engine decline it and go on (the next candidate's outcome, itself followed the same way while
    it is conditional); a precision condition failing keeps the kernel at the precision its requirement names.

    A kernel declined for its activation dtypes alone leaves only the other dtypes on the way on: the later
    candidates are tried again with those (`walk` is the target, scheme and install they are tried against)."""
    steps: list[Otherwise] = []
    attempts = list(cell.attempts)
    failed: dict[str, frozenset[str]] = {}  # the message of each check known to fail on the way on: its conditions
    # checks declined together (several messages): one of them fails, which one is not known, so a later kernel that
    # makes every one of them fails too (packages a quantizer tests before any kernel: optimum and gptqmodel)
    together: list[dict[str, frozenset[str]]] = []
    while True:
        at = next((n for n, a in enumerate(attempts) if a.outcome != NO or a.after_selection), None)
        if at is None or not (attempts[at].outcome == CONDITIONAL or attempts[at].after_selection):
            return tuple(steps)
        if attempts[at].after_selection and not attempts[at].selection_conditions:
            return tuple(steps)
        chosen = attempts[at]
        selection = chosen.selection_conditions
        placed = tuple(_placed_elsewhere(cell, chosen, tuple(attempts), failure, config, _handling(attempts, kernels)))
        if selection:
            said = {dict(chosen.messages).get(c, c) for c in selection}
            if len(said) == 1:  # declined for one check of the engine's (one message): it fails from here on
                failed[next(iter(said))] = frozenset(selection)
            else:
                messages = dict(chosen.messages)
                together.append({m: frozenset(c for c in selection if messages.get(c, c) == m) for m in said})
            if len(selection) == 1:
                narrowed = _other_dtypes(chosen.kernel, kernels, config, walk)
                if narrowed is not None:
                    config = narrowed
                    attempts[at + 1:] = [try_kernel(a.kernel, kernels.get(a.kernel), config, walk[0], walk[1], walk[2])
                                         for a in attempts[at + 1:]]
            keys = _keys_without(chosen.kernel, walk[0], walk[1])
            if keys is not None:  # the scheme chose its activation keys by this kernel's support: without it, others
                config = {**config, "activation_scales": keys}
                attempts = [_tried_again(a, first, config, kernels, walk) if n < at else a
                            for n, (a, first) in enumerate(zip(attempts, cell.attempts))]
                attempts[at + 1:] = [try_kernel(a.kernel, kernels.get(a.kernel), config, walk[0], walk[1], walk[2])
                                     for a in attempts[at + 1:]]
            attempts[at] = Attempt(chosen.kernel, NO, _declined(chosen))
            attempts[at + 1:] = [_on_path(a, failed, together) for a in attempts[at + 1:]]
            after = _verdict(cell.engine, cell.scheme, cell.target, tuple(attempts), failure, config,
                             _handling(attempts, kernels))
            steps.append(Otherwise(chosen.kernel, selection, after.verdict, after.kernel, after.conditions,
                                   after.computes_as, () if after.verdict.loads else after.reasons,
                                   after.failure_message if after.verdict is Verdict.REFUSED else ""))
        steps.extend(Otherwise(chosen.kernel, (condition,), Verdict.FALLBACK, chosen.kernel, selection, instead)
                     for condition, instead in chosen.instead)
        steps.extend(Otherwise(chosen.kernel, (condition,), Verdict.FAILS_AT_RUNTIME, chosen.kernel, selection,
                               reasons=(f"{chosen.kernel}: {how}",))
                     for condition, how in chosen.fails)
        steps.extend(placed)
        if not selection:
            return tuple(steps)


def _placed_elsewhere(cell: Cell, chosen: Attempt, attempts: tuple[Attempt, ...], failure: str,
                      config: Mapping[str, Any], handling: str | None) -> Iterator[Otherwise]:
    """The steps of the chosen kernel's placement conditions (`elsewhere`): without one, the engine keeps the kernel
    and puts the model on another device, which runs it as this target would (the same verdict, precision and other
    conditions), so the step is that outcome, said to be on that device and not this target."""
    if not chosen.elsewhere:
        return
    here = _verdict(cell.engine, cell.scheme, cell.target, attempts, failure, config, handling)
    for condition, how, device in chosen.elsewhere:
        rest = tuple(c for c in here.conditions if c != condition)
        walks = condition in chosen.walks
        if walks:  # the device's own walk picks its kernel: only what every candidate here needs is known to hold there
            rest = tuple(c for c in rest if all(c in a.conditions for a in attempts if a.outcome != NO))
        verdict = Verdict.RUNS if here.verdict is Verdict.RUNS_IF and not rest else here.verdict
        yield Otherwise(chosen.kernel, (condition,), verdict, chosen.kernel, rest, "" if walks else here.computes_as,
                        (f"{chosen.kernel}: {how}",), elsewhere=device, walks=walks)


def _tried_again(attempt: Attempt, first: Attempt, config: Mapping[str, Any], kernels: Mapping[str, KernelFields],
                 walk: tuple[HardwareTargetFields, SchemeFields, Install]) -> Attempt:
    """An earlier candidate once the scheme hands other activation keys: one the engine declined on the way here for
    its conditions (it was conditional in the cell's walk) is tried again with them, since a condition on the old
    keys may hold now (FlashInfer's FP8 GEMM takes the per-tensor key a build without CUTLASS FP8 hands over); one
    refused outright, or whose conditions the new keys leave as they were (already known not to hold), stays as it
    is."""
    if first.outcome != CONDITIONAL:
        return attempt
    again = try_kernel(attempt.kernel, kernels.get(attempt.kernel), config, walk[0], walk[1], walk[2])
    return again if again.outcome != NO and again.conditions != first.conditions else attempt


def _where_selected(cell: Cell) -> tuple[str, ...]:
    """What must hold for a default install to select the cell's default kernel, besides what the defaults meet."""
    if cell.default_kernel != cell.kernel:
        return cell.default_where
    met = {a.condition for a in cell.assumes}
    return tuple(c for c in cell.conditions if c not in met)


def _other_dtypes(kernel_id: str, kernels: Mapping[str, KernelFields], config: Mapping[str, Any],
                  walk: tuple[HardwareTargetFields, SchemeFields, Install]) -> Mapping[str, Any] | None:
    """The configuration on the way on from a kernel declined for one condition: when that condition is its
    activation-dtype test (the kernel refuses exactly some of the dtypes the configuration allows), only those
    dtypes are left; None when the condition is another one."""
    dtypes = config.get("activation_types", [])
    tried = {d: try_kernel(kernel_id, kernels.get(kernel_id), {**config, "activation_types": [d]}, *walk)
             for d in dtypes}
    refused = [d for d in dtypes if tried[d].outcome == NO and not tried[d].after_selection]  # declined, not selected
    return {**config, "activation_types": refused} if refused and len(refused) < len(dtypes) else None


def _on_path(attempt: Attempt, failed: Mapping[str, AbstractSet[str]],
             together: Sequence[Mapping[str, AbstractSet[str]]] = ()) -> Attempt:
    """The attempt where the checks refusing with `failed` (message: the conditions that stated the check) are known
    to fail: selection conditions that state one of those checks (the same message and the same conditions) fail
    there too, so the engine declines the kernel; a condition that is the opposite of one of them (`opposite_of`)
    holds there, so it is no longer a condition (and no condition left makes it a YES). One message on conditions
    that differ is not known to be the same check (vLLM words the row-wise torch kernel's refusal of a per-tensor key
    on either side as the channel-wise one's refusal of per-tensor keys on both). Checks declined `together` (one of
    them failed, which one is not known) are known to fail where a kernel makes every one of them."""
    if attempt.outcome != CONDITIONAL:
        return attempt
    said = dict(attempt.messages)
    stating = {m: frozenset(c for c in attempt.selection_conditions if said.get(c, c) == m)
               for m in {*failed, *(m for group in together for m in group)}}
    known = tuple(c for c in attempt.selection_conditions
                  if said.get(c, c) in failed and stating[said.get(c, c)] == failed[said.get(c, c)])
    if not known:
        group = next((g for g in together if all(stating[m] == conditions for m, conditions in g.items())), None)
        known = tuple(c for c in attempt.selection_conditions if group and said.get(c, c) in group)
    if known:
        return Attempt(attempt.kernel, NO, _declined(_replaced(attempt, conditions=known)))
    holding = {condition for condition, opposite in attempt.opposites if opposite in failed}
    if not holding:
        return attempt
    conditions = tuple(c for c in attempt.conditions if c not in holding)
    return _replaced(attempt, outcome=CONDITIONAL if conditions else YES, conditions=conditions,
                     messages=tuple(m for m in attempt.messages if m[0] not in holding),
                     assumed=tuple(x for x in attempt.assumed if x.condition not in holding),
                     opt_in=tuple(x for x in attempt.opt_in if x.condition not in holding))


def _declined(attempt: Attempt) -> str:
    """Why the engine declines a kernel whose conditions do not hold: its own message for each condition it words,
    else the condition itself, in the order the engine checks them (it prints the first that fails); conditions
    that one engine check words with one message (a test of both scale keys) give that message once."""
    said = dict(attempt.messages)
    grouped = _by_message((condition, said.get(condition, "")) for condition in attempt.selection_conditions)
    reasons = [_unless(message, conditions) if message else f"declines unless {conditions[0]}"
               for message, conditions in grouped]
    return reasons[0] if len(reasons) == 1 else "whichever fails first of: " + "; ".join(reasons)


def _by_message(said: Iterable[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """(condition, message) pairs in check order as (message, its conditions): one engine check the records state as
    several conditions in a row (AITER's enablement test: the aiter package found and the switches set) gives one
    message, which holds back the kernel unless all of them hold. Only neighbours are one check: the same words on
    conditions with another check between them are two checks, and which message the engine prints depends on which
    fails first, so each keeps its place. An empty message (a condition in the atlas's words only) stays on its own."""
    grouped: list[tuple[str, list[str]]] = []
    for condition, message in said:
        if message and grouped and grouped[-1][0] == message:
            grouped[-1][1].append(condition)
        else:
            grouped.append((message, [condition]))
    return grouped


def _unless(message: str, conditions: Sequence[str]) -> str:
    """The engine's message with the conditions that avoid it. A check in the engine's words only ("passes the check
    that otherwise refuses with" the message) is said by the message alone; where one check is stated as several
    conditions, every one is named, the quoting one too (naming only the others would read as if they sufficed)."""
    if all(message in condition for condition in conditions):
        return message
    return f"{message} (unless {' and '.join(conditions)})"


def candidate_order(candidates: Mapping[str, Any], target: HardwareTargetFields) -> list[str]:
    """The list the selector walks on this target: the kernels it forces there, if any (`forced`), and no other;
    otherwise the list, where each promotion listing the target's capability moves its kernel directly ahead of
    `before` when it stands after it (vLLM's prioritize_humming) and the rest keep their order."""
    forced = forced_kernels(candidates.get("forced"), target)
    if forced:
        return forced
    order = list(candidates["kernels"])
    capability = target.get("compute_capability")
    for promotion in candidates.get("promotions", []):
        if capability not in promotion["capabilities"]:
            continue
        kernel, before = promotion["kernel"], promotion["before"]
        if kernel in order and before in order and order.index(kernel) > order.index(before):
            order.remove(kernel)
            order.insert(order.index(before), kernel)
    return order


def forced_kernels(forced: Mapping[str, Any] | None, target: HardwareTargetFields) -> list[str]:
    """The kernels a selector forces on this target instead of walking its list, in its order: each entry whose
    `capabilities` (if stated) name the target's and whose `except_capabilities` do not (a target without a capability
    matches no `capabilities` and is excepted by none, as vLLM's test of the capability against a set is false for
    None)."""
    capability = target.get("compute_capability")
    return [entry["kernel"] for entry in (forced or {}).get("kernels", [])
            if ("capabilities" not in entry or capability in entry["capabilities"])
            and capability not in entry.get("except_capabilities", [])]


def _verdict(engine: str, scheme_id: str, target_id: str, attempts: tuple[Attempt, ...], failure: str,
             config: Mapping[str, Any], handling: str | None) -> Cell:
    reasons = tuple(f"{a.kernel}: {a.reason}" for a in attempts if a.outcome == NO)
    first = next((a for a in attempts if a.outcome != NO or a.after_selection), None)
    if first is None:
        return Cell(engine, scheme_id, target_id, Verdict.REFUSED, None, (), attempts, failure_message=failure,
                    reasons=reasons)
    if first.after_selection:
        return Cell(engine, scheme_id, target_id, Verdict.FAILS_AT_RUNTIME, first.kernel, first.conditions, attempts,
                    reasons=reasons)
    if first.computes_as:
        return Cell(engine, scheme_id, target_id, Verdict.FALLBACK, first.kernel, first.conditions, attempts,
                    reasons=reasons, computes_as=first.computes_as)
    if config.get("activation_quantized") and handling != "quantized":
        kept = {**config, "activation_types": list(first.dtypes)} if first.dtypes else config  # the others fail
        return Cell(engine, scheme_id, target_id, Verdict.FALLBACK, first.kernel, first.conditions, attempts,
                    reasons=reasons, computes_as=_unquantized_activations(kept, handling))
    verdict = Verdict.RUNS if first.outcome == YES else Verdict.RUNS_IF
    return Cell(engine, scheme_id, target_id, verdict, first.kernel, first.conditions, attempts, reasons=reasons)


def _unquantized_activations(config: Mapping[str, Any], handling: str | None) -> str:
    weights = config.get("weight_type", "quantized")
    activations = "/".join(config.get("activation_types", [])) or "the model dtype"
    if handling == "emulated":
        return (f"software emulation: {weights} weights dequantized and activations quantized and dequantized "
                f"again, multiplied in {activations} (no low-precision GEMM)")
    if handling is None:
        return (f"{weights} weights; the kernel's page does not say whether it quantizes activations, "
                f"so the scheme's activation precision is not shown to run")
    return f"{weights} weights with activations left at {activations} (weight-only arithmetic, activations unquantized)"


def _gate_failure(gate: SchemeCapabilityGate | Mapping[str, Any], target: HardwareTargetFields, scheme: SchemeFields) -> str:
    """The gate's refusal on this target, or "" when it passes or is not applied there. On a target that reports no
    capability a minimum passes and an exact value fails, as vLLM's _check_scheme_supported returns `not match_exact`."""
    platforms = gate.get("platforms")
    if not gate or (platforms and target["platform"] not in platforms):
        return ""
    capability = target.get("compute_capability")
    if capability is None and "exact" not in gate:
        return ""
    reason = engine_message(gate.get("reason", ""), target, scheme, {"bound": gate.get("min", gate.get("exact"))})
    if capability is None:
        return reason or f"scheme requires compute capability exactly {gate['exact']}, target reports none"
    if "exact" in gate and capability != gate["exact"]:
        return reason or f"scheme requires compute capability exactly {gate['exact']}, target has {capability}"
    if "min" in gate and capability < gate["min"]:
        return reason or f"scheme requires compute capability >= {gate['min']}, target has {capability}"
    return ""


def try_kernel(kernel_id: str, kernel: KernelFields | None, config: Mapping[str, Any], target: HardwareTargetFields,
               scheme: SchemeFields | None = None, installed: Install | None = None) -> Attempt:
    """Evaluate one kernel's requirements in order against a scheme configuration and a target. A requirement with
    `declines: false` that the target fails does not refuse the kernel: the engine keeps it, and the first such
    requirement's reason is what it computes instead. A condition whose `met_by_install` facts the default install
    provides (`installed`) stays a condition and is noted as assumed; one naming a fact it lacks is noted as opt-in."""
    if not kernel:
        return Attempt(kernel_id, NO, "kernel record missing")
    conditions: list[str] = []
    limits: list[str] = []
    instead: list[tuple[str, str]] = []
    computes_as = ""
    computes_check = ""
    computes_stated: tuple[str, ...] = ()
    earlier: list[tuple[str, str]] = []  # (condition, the engine's refusal when it does not hold), in check order
    paraphrased: list[tuple[str, str]] = []  # the same, with checks in the atlas's words the default install fails
    split: list[str] = []  # undecided parts in the atlas's words of a check split in the records, since the last verbatim one
    assumed: list[Assumed] = []
    opt_in: list[Assumed] = []
    opposites: list[tuple[str, str]] = []
    fails: list[tuple[str, str]] = []
    elsewhere: list[tuple[str, str, str]] = []
    walks: list[str] = []  # those of `elsewhere` whose device walks its own candidates
    failure = ""  # an after-selection requirement the target fails: the kernel is selected, then fails
    failure_inferred = False  # that requirement is marked `inferred`
    inferred_steps: list[InferredStep] = []  # the requirements marked `inferred` that it meets so far
    method = scheme.get("method") if scheme else None
    layers = layers_of(scheme) if scheme else None  # one kernel can serve dense and expert layers by other rules
    scheme_config = config
    context = scheme or {"config": scheme_config}  # what the kernel's messages are filled from
    for requirement in kernel.get("requirements", []):
        if not applies(requirement.get("when"), target, config, method, layers):
            continue
        outcome = _for_dtypes(evaluate(requirement, config, target), requirement, config)
        config = _dtypes_left(requirement, outcome, config)
        if requirement.get("inferred") and (outcome is not False or (requirement.get("declines") is False
                                                                     and not requirement.get("after_selection"))):
            inferred_steps.append(inferred_step(requirement, kernel, target["platform"], outcome is not False))
        if outcome is not True and requirement.get("after_selection"):
            filled = engine_message(requirement["reason"], target, context, requirement, kernel)
            if outcome is False:
                failure_inferred = failure_inferred if failure else bool(requirement.get("inferred"))
                failure = failure or filled
            else:
                conditions.append(outcome)
                fails.append((outcome, filled))
                facts = tuple(requirement.get("met_by_install") or ())
                if by_default := _auto_dtypes_pass(requirement, target):
                    assumed.append(Assumed(outcome, by_default, ()))
                elif installed and facts and (met := installed.meets(facts)):  # its failure is off the defaults
                    assumed.append(Assumed(outcome, met, facts, installed.route))
            continue
        if outcome is False and requirement.get("declines") is False:
            if not computes_as:
                stated = requirement.get("computes")
                computes_stated = (stated["way"], stated.get("precision", ""), stated.get("encoding", "")) if stated else ()
            computes_check = computes_check or str(requirement.get("check", ""))
            computes_as = computes_as or engine_message(requirement["reason"], target, context, requirement, kernel)
            continue
        if outcome is False:
            template = requirement["reason"]
            reason = engine_message(template, target, context, requirement, kernel)
            # an undecided check in the atlas's words whose fact the default install lacks (zentorch, for is_zen_cpu)
            # fails first on a default install, so it leads a refusal by another check with a message of its own; a
            # refusal without one is a part of a check the records split (AITER's device test): the target fails that
            # check whatever the undecided parts say, so they do not lead it
            told = paraphrased if requirement.get("reason_verbatim", True) else earlier
            return Attempt(kernel_id, NO, _after_earlier(told, reason), template,
                           inferred=bool(requirement.get("inferred")))
        if isinstance(outcome, str):
            filled = engine_message(requirement["reason"], target, context, requirement, kernel)
            outcome = outcome.replace(requirement["reason"], filled)  # the quoted engine message as this cell prints it
            (limits if requirement["check"] == "shape" else conditions).append(outcome)
            if "opposite_of" in requirement:
                opposites.append((outcome, requirement["opposite_of"]))
            if requirement.get("declines") is False:
                instead.append((outcome, filled))
            elif "elsewhere" in requirement:  # kept: without it the model runs on another device
                elsewhere.append((outcome, filled, requirement["elsewhere"]))
                if requirement.get("elsewhere_walk"):
                    walks.append(outcome)
            elif installed and requirement.get("met_by_install"):
                facts = tuple(requirement["met_by_install"])
                if met := installed.meets(facts):
                    assumed.append(Assumed(outcome, met, facts, installed.route))
                elif lacking := installed.lacks(facts):
                    opt_in.append(Assumed(outcome, lacking, facts, installed.route))
            elif by_default := _auto_dtypes_pass(requirement, target):
                assumed.append(Assumed(outcome, by_default, ()))
            if requirement["check"] != "shape" and requirement.get("reason_verbatim", True):
                earlier.append((outcome, filled))
            if requirement["check"] == "shape":
                continue
            if requirement.get("reason_verbatim", True):
                paraphrased.append((outcome, filled))
                split.clear()
            elif installed and installed.lacks(tuple(requirement.get("met_by_install") or ())):
                # the other undecided parts of the same split engine test hold too where the fact is installed
                # (is_zen_cpu: an AMD CPU, not only zentorch): an Intel CPU with zentorch still gets this message
                paraphrased.append((" and ".join((*split, outcome)), filled))
                split.clear()
            elif all(a.condition != outcome for a in assumed):  # what the defaults meet need not be named
                split.append(outcome)
    gates = [gate["description"] for gate in kernel.get("external_gates", []) if _gate_blocks(gate, target, config)]
    if failure or gates:  # selected where its selection conditions hold, then fails whatever the rest
        selecting = tuple(c for c in conditions if c not in dict(fails))
        return Attempt(kernel_id, NO, failure or gates[0], failure or gates[0], after_selection=True,
                       inferred=failure_inferred if failure else False,
                       conditions=selecting, messages=tuple(earlier),
                       assumed=tuple(a for a in assumed if a.condition in selecting),  # (it fails whatever the rest)
                       opt_in=tuple(a for a in opt_in if a.condition in selecting))
    routes = tuple(route["name"] for route in kernel.get("routes", [])
                   if applies(route.get("when"), target, config, method, layers))
    return Attempt(kernel_id, CONDITIONAL if conditions else YES, conditions=tuple(conditions), routes=routes,
                   limits=tuple(limits), instead=tuple(instead), messages=tuple(earlier), computes_as=computes_as,
                   computes_check=computes_check if computes_as else "",
                   computes_stated=computes_stated if computes_as else (),
                   assumed=tuple(assumed), opt_in=tuple(opt_in), opposites=tuple(opposites), fails=tuple(fails),
                   elsewhere=tuple(elsewhere), walks=tuple(walks), inferred_steps=tuple(inferred_steps),
                   dtypes=tuple(config.get("activation_types") or ()) if config is not scheme_config else ())


def _dtypes_left(requirement: KernelRequirements, outcome: bool | str, config: Mapping[str, Any]) -> Mapping[str, Any]:
    """The configuration the kernel's later requirements see: after an activation-type requirement that binds every
    activation dtype (no `when` scoping it to some, not `declines: false`), only the dtypes it accepts are left. A
    kernel's requirements must all hold, so two that each accept some of the scheme's dtypes are met only by the
    dtypes both accept: {float16, bfloat16} and then {bfloat16, float32} leave bfloat16, and on a target without
    bfloat16 the second fails outright rather than naming float32 as a way round the first."""
    if requirement.get("check") != "activation-type" or outcome is False or requirement.get("declines") is False:
        return config
    if (requirement.get("when") or {}).get("activation_types"):
        return config
    left = _passing_dtypes(requirement, config)
    if not left or len(left) == len(config.get("activation_types") or []):
        return config
    return {**config, "activation_types": left}


def _auto_dtypes_pass(requirement: KernelRequirements, target: HardwareTargetFields) -> str:
    """What makes an activation-type requirement hold by default on the target, or '': every dtype the engine's
    `--dtype auto` can give there (the target's `auto_dtypes`) is one the requirement takes."""
    automatic = target.get("auto_dtypes") or []
    if requirement.get("check") != "activation-type" or not automatic:
        return ""
    if any(dtype not in requirement.get("values", []) for dtype in automatic):
        return ""
    return f"--dtype auto, the default, gives only {' or '.join(automatic)} on this target"


def _passing_dtypes(requirement: KernelRequirements, config: Mapping[str, Any]) -> list[str]:
    """The scheme's activation dtypes an activation-type requirement accepts (none for another check)."""
    if requirement.get("check") != "activation-type":
        return []
    return [t for t in config.get("activation_types") or [] if t in requirement.get("values", [])]


def _for_dtypes(outcome: bool | str, requirement: KernelRequirements, config: Mapping[str, Any]) -> bool | str:
    """A check the derivation words itself, scoped by `when` to some of the scheme's activation dtypes, binds only
    for those: failing, it leaves the other dtypes as the condition; undecided, its condition names the dtypes it is
    for (Machete's group sizes differ for 16-bit and other activations). A requirement with its own `condition`
    states its scope there."""
    scoped = (requirement.get("when") or {}).get("activation_types")
    have = config.get("activation_types") or []
    if outcome is True or not scoped or "condition" in requirement or set(have) <= set(scoped):
        return outcome
    if outcome is False:
        return f"activation dtype in {_show([t for t in have if t not in scoped])}"
    return f"{outcome} (for activation dtype in {_show([t for t in have if t in scoped])})"


def _after_earlier(earlier: Sequence[tuple[str, str]], reason: str) -> str:
    """The refusal as the engine words it: a check it makes first, which the records cannot decide (a package, a
    setting), gives its own message when it fails, so those messages come first, each once with the conditions that
    avoid it (several where the records state one check as several conditions)."""
    if not earlier:
        return reason
    first = "; ".join(_unless(message, conditions) for message, conditions in _by_message(earlier))
    return f"{first}; otherwise: {reason}"


def _gate_blocks(gate: KernelExternalGates, target: HardwareTargetFields, config: Mapping[str, Any]) -> bool:
    when = gate.get("when") or {}
    if gate.get("effect") == "excludes":
        return bool(when) and applies(when, target, config)
    if gate.get("effect") == "requires":
        scope = {k: v for k, v in when.items() if k in ("platform", "cpu_arch")}
        return applies(scope, target, config) and not applies(when, target, config)
    return False


def applies(when: Mapping[str, Any] | None, target: HardwareTargetFields, config: Mapping[str, Any],
            method: str | None = None, layers: str | None = None) -> bool:
    """Whether a `when` restriction matches the target and the scheme (activation dtypes match if any overlap;
    `methods` names the scheme methods, i.e. checkpoint layouts, a path is taken for; `layers` the kind of layer
    the scheme describes, dense or experts, where one kernel follows other rules on each; `weight_storage` matches only
    a scheme that states its weight tensor's dtype; `capabilities` the targets a path is allowed on; a capability
    bound or a gfx list never matches a target that has no capability or gfx id; `weight_types` the scheme's
    weight types a rule is for; `activation_quantized` a scheme that says whether its activations are quantized)."""
    if not when:
        return True
    if "methods" in when and method not in when["methods"]:
        return False
    if "layers" in when and layers not in when["layers"]:
        return False
    if "weight_storage" in when and config.get("weight_storage") not in when["weight_storage"]:
        return False
    if "platform" in when and target["platform"] not in when["platform"]:
        return False
    if "cpu_arch" in when and target.get("cpu_arch") not in when["cpu_arch"]:
        return False
    if "isa_features" in when and not set(when["isa_features"]) <= set(target.get("isa_features", [])):
        return False
    if "capability_min" in when and (target.get("compute_capability") or -1) < when["capability_min"]:
        return False
    if "capability_max" in when and not 0 <= (target.get("compute_capability") or -1) <= when["capability_max"]:
        return False
    if "gfx" in when and target.get("gfx") not in when["gfx"]:
        return False
    if "weight_types" in when and config.get("weight_type") not in when["weight_types"]:
        return False
    if "capabilities" in when and not _capability_in(when["capabilities"], target.get("compute_capability")):
        return False
    if "zero_points" in when and "zero_points" in config and config["zero_points"] != when["zero_points"]:
        return False
    if "activation_quantized" in when and config.get("activation_quantized") != when["activation_quantized"]:
        return False
    return not ("activation_types" in when and not set(when["activation_types"]) & set(config.get("activation_types", [])))


def _capability_in(accepted: Mapping[str, Any], capability: int | None) -> bool:
    """Whether a capability is one of `exact` or in the family (capability // 10) of one of `family`, as vLLM's
    is_device_capability and is_device_capability_family test it; a target without one matches neither."""
    if capability is None:
        return False
    return capability in accepted.get("exact", []) or any(capability // 10 == f // 10 for f in accepted.get("family", []))


def evaluate(requirement: KernelRequirements, config: Mapping[str, Any], target: HardwareTargetFields) -> bool | str:
    """True (met), False (fails: the kernel declines), or a condition text the records cannot decide."""
    check = requirement["check"]
    values = requirement.get("values", [])
    value = requirement.get("value")
    capability = target.get("compute_capability")
    if check == "platform":
        return bool(target["platform"] in values)
    if check.startswith("capability-"):
        if capability is None:
            return False
        if check == "capability-exact" and values:  # a set the engine tests with `in`, e.g. (100, 103)
            return capability in values
        bound = _capability_bound(requirement)
        return bool({"capability-min": capability >= bound, "capability-exact": capability == bound,
                     "capability-max": capability <= bound,
                     "capability-family": capability // 10 == bound // 10}[check])
    if check in ("gfx", "gfx-excluded"):  # vLLM's on_gfx* helpers test substrings of the arch name
        named = any(str(v) in target.get("gfx", "") for v in values)
        return named if check == "gfx" else bool(target.get("gfx")) and not named
    if check == "cpu-arch":
        return target.get("cpu_arch") in values
    if check == "cpu-vendor":
        return _vendor(values, target.get("cpu_vendors", []))
    if check == "isa":
        return set(values) <= set(target.get("isa_features", []))
    if check == "weight-type":
        return config.get("weight_type") in values
    if check == "activation-type":  # its own `condition` names what sets the dtype where the model dtype does not
        found = _overlap("activation dtype", config.get("activation_types"), values)
        return str(requirement["condition"]) if isinstance(found, str) and "condition" in requirement else found
    if check == "group-size":
        return _group_size(requirement, config.get("group_sizes"))
    if check == "zero-points":
        if "zero_points" not in config:
            return f"zero points {'present' if value else 'absent'}"
        return bool(config["zero_points"] == value)
    if check == "weight-only":
        return not config.get("activation_quantized", False)
    if check == "activation-quantized":
        return bool(config.get("activation_quantized", False))
    if check in _STATED:
        return _stated(requirement, config.get(_STATED[check][0]), values)
    return condition_text(requirement, target["platform"])


# checks of configuration a scheme may leave unsaid: (the scheme's config field, how a condition names it)
_STATED = {"weight-scales": ("weight_scales", "weight scales"),
           "activation-scales": ("activation_scales", "activation scales"),
           "activation-quant-type": ("activation_quant_type", "quantized activation dtype")}


def _stated(requirement: KernelRequirements, stated: Any, accepted: list[Any]) -> bool | str:
    """A test of what the scheme states (scale granularities, the dtype activations are quantized to): every stated
    value accepted passes, none fails, some is a condition; a scheme that does not state it leaves the check a
    condition, as an `other` check is."""
    if stated is None:
        return condition_text(requirement)
    return _overlap(_STATED[requirement["check"]][1], stated if isinstance(stated, list) else [stated], accepted)


def _vendor(accepted: Sequence[Any], vendors: Sequence[str]) -> bool | str:
    """A profile spanning several vendors leaves the vendor test to the reader's part; none listed never passes."""
    common = [v for v in vendors if v in accepted]
    if not common:
        return False
    return True if len(common) == len(vendors) else f"CPU vendor {' or '.join(common)}"


def _group_size(requirement: KernelRequirements, have: list[Any] | None) -> bool | str:
    """A group-size test: the list the engine accepts (`values`), every size from a bound (`at_least`), since
    ExllamaLinearKernel takes any positive size, or every size divisible by a number (`multiple_of`, besides the
    `values` listed), since CPUWNA16 takes -1 or any even size; no list of sizes states either of the last two."""
    listed = requirement.get("values", [])
    if "multiple_of" in requirement:
        divisor = requirement["multiple_of"]
        if not have:
            return f"group size {accepted_group_sizes(requirement)}"
        return _overlap("group size", have, [size for size in have if size in listed or size % divisor == 0])
    if "at_least" not in requirement:
        return _overlap("group size", have, listed)
    bound = requirement["at_least"]
    if not have:
        return f"group size of at least {bound}"
    return _overlap("group size", have, [size for size in have if size >= bound])


def accepted_group_sizes(requirement: Mapping[str, Any]) -> str:
    """The sizes a divisibility group-size requirement accepts, in one phrase ("-1, or any multiple of 2"): a size
    passes if `values` lists it or `multiple_of` divides it, which the two fields shown side by side read as both. The
    cell's condition and the kernel page (render/pages.py) say it in these words."""
    multiple = f"any multiple of {requirement['multiple_of']}"
    listed = ", ".join(str(size) for size in requirement.get("values", []))
    return f"{listed}, or {multiple}" if listed else multiple


def _overlap(label: str, have: list[Any] | None, accepted: list[Any]) -> bool | str:
    if not have:
        return f"{label} in {_show(accepted)}"
    common = [v for v in have if v in accepted]
    if not common:
        return False
    if len(common) == len(have):
        return True
    return f"{label} in {_show(common)}"


def _show(values: list[Any]) -> str:
    return "{" + ", ".join(str(v) for v in values) + "}"


def _capability_bound(requirement: KernelRequirements) -> int:
    value = requirement.get("value", 0)
    if not isinstance(value, int):  # the schema allows strings for other checks; a capability is a number
        raise TypeError(f"{requirement['check']} needs an integer value, not {value!r}")
    return value


def condition_text(requirement: KernelRequirements, platform: str | None = None) -> str:
    """A runtime requirement's condition as cells show it: its own `condition`, or one said from its check and value.
    A condition naming {device} says the device of `platform` (its runtime check's `devices`), so a cell on one
    platform is not told another's; without a platform (the engine page) it says each platform's."""
    check, value = requirement["check"], requirement.get("value")
    if "condition" in requirement:
        return _with_device(str(requirement["condition"]), cast(Mapping[str, Any], requirement).get("devices") or {},
                            platform)
    if check == "package":
        return f"package {value} installed"
    if check == "op":
        return f"op {value} available"
    if check == "env":
        default = requirement.get("default")
        return f"{value}" + (f" (default {default})" if default is not None else "")
    return f"the {'layer shape' if check == 'shape' else 'checkpoint'} passes the check that otherwise refuses with “{requirement['reason']}”"


def _with_device(condition: str, devices: Mapping[str, str], platform: str | None) -> str:
    if "{device}" not in condition:
        return condition
    if platform is not None and platform in devices:
        return condition.replace("{device}", devices[platform])
    # the engine page, or a platform the check does not name (the runtime-checks check reports that)
    return condition.replace("{device}", "‹device›") + " (‹device›: " + ", ".join(
        f"{name} on {where}" for where, name in devices.items()) + ")"
