"""The verdict vocabulary: what really runs when an engine is given a scheme on a target, and how we know.

One vocabulary for the support table, `explain`, record pages, `cells --format json`, the data API and
`verify`. A verdict never rounds a fallback up to a plain yes.
"""
from __future__ import annotations

from enum import Enum


class Verdict(str, Enum):
    """What happens when the engine loads the scheme on the target."""

    RUNS = "runs"  # the named kernel computes at the scheme's precision (named conditions only choose the kernel)
    RUNS_IF = "runs-if"  # as specified only given an optional package, build flag, setting or model property (named)
    FALLBACK = "fallback"  # loads, but computes at another precision (e.g. activations left unquantized)
    FAILS_AT_RUNTIME = "fails-at-runtime"  # a kernel is selected, then fails when it runs
    REFUSED = "refused"  # not run on the target: refused at load, or no kernel or backend serves it (reasons in order)

    def __str__(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def runs_as_specified(self) -> bool:
        """True when the scheme's own arithmetic runs (possibly under named conditions)."""
        return self in (Verdict.RUNS, Verdict.RUNS_IF)

    @property
    def loads(self) -> bool:
        """True when a model in this scheme loads at all (even at another precision)."""
        return self in (Verdict.RUNS, Verdict.RUNS_IF, Verdict.FALLBACK)


def worse(a: Verdict, b: Verdict) -> Verdict:
    """The worse of two verdicts in the vocabulary's own order, the order the enum declares them in (best first), which
    the support tables' legend, the API's enum and the card's comparison (can-i-run-it.js RANK) already follow: what
    a checkpoint gets when two of its parts must both load (an expert-layer scheme and its other layers' scheme)."""
    order = list(Verdict)
    return a if order.index(a) >= order.index(b) else b


_LABELS = {
    Verdict.RUNS: "Runs",
    Verdict.RUNS_IF: "Runs if",
    Verdict.FALLBACK: "Fallback",
    Verdict.FAILS_AT_RUNTIME: "Fails at run time",
    Verdict.REFUSED: "Refused",
}

# A fallback that a default install does not reach: it needs conditions the defaults leave unmet, and without them
# the engine fails at run time, refuses, or runs the model on another device (transformers on a GPU without a
# device_map: the host CPU) (derive/cells.py Cell.fallback_if). Shown as a runs-if is, with "if".
FALLBACK_IF_LABEL = "Fallback if"
FALLBACK_IF_MEANING = ("loads and computes at another precision only given the named package, build, setting or model "
                       "property; without it the engine fails at run time, refuses, or runs the model on another device")

VERDICT_MEANINGS: dict[Verdict, str] = {
    Verdict.RUNS: "runs as specified: the named kernel computes at the scheme's precision (conditions, where named, "
                  "only choose the kernel)",
    Verdict.RUNS_IF: "runs as specified only given the named optional package, build flag, setting or model property; "
                     "without it the engine falls back, fails or refuses",
    Verdict.FALLBACK: "loads, but computes at another precision (for example activations left unquantized); "
                      "not the scheme's arithmetic",
    Verdict.FAILS_AT_RUNTIME: "the engine selects a kernel, then fails at run time",
    Verdict.REFUSED: "not run on this hardware: the engine refuses at load, or none of its kernels or backends serves "
                     "it; every reason is listed in order",
}


class KnownBy(str, Enum):
    """How a verdict is known."""

    def __str__(self) -> str:
        return self.value

    CODE = "code"  # read from the engine's dispatch code at a release
    RUN = "run"  # verified by running the engine's own selection code (an observation is the evidence)
    # read from the code but for one step the records mark `inferred` (not read in the engine at the pinned version),
    # on which the verdict rests: saying "read" would claim a link nobody read
    INFERRED = "inferred"


# How a code-read verdict is known, at what the engine record says was read (`read_at`); the site's legend fills it
# with the general phrase, explain's header with the engine's own release or commit.
READ_FROM_CODE = "read from the engine's dispatch code at {read}"
READ_IN_GENERAL = "the release or commit its engine record names as read"
INFERRED_READ = "inferred from the engine's dispatch code read at {read}"
INFERRED_FROM_CODE = INFERRED_READ + (": one step the verdict rests on was not read in the engine; the kernel or scheme "
                                      "record says which")

# a support table's note on a cell known by inference: it rests on a step a kernel requirement or the scheme's candidate
# list says was not read (a kernel that loads has no reason on the cell to say it, so the record is named)
INFERRED_NOTE = "Inferred, not all read: one step this verdict rests on was not read in the engine (the kernel or scheme record says which)"

KNOWN_BY_MEANINGS: dict[KnownBy, str] = {
    KnownBy.CODE: READ_FROM_CODE.format(read=READ_IN_GENERAL),
    KnownBy.RUN: "kernel selection verified by running the engine's own selection code (the observation is the "
                 "evidence); what the kernel then computes is read from the code",
    KnownBy.INFERRED: INFERRED_FROM_CODE.format(read=READ_IN_GENERAL),
}


def read_at(version_read: str | None) -> str:
    """What the atlas read of an engine, from its record's `version_read`: "commit 00bbf71" as stated (the schema's
    "release or commit"), any other value a release ("release 0.33.0"); a record naming none is said to."""
    if not version_read:
        return "a release the engine record does not name"
    return version_read if version_read.startswith("commit ") else f"release {version_read}"


def known_by_said(known_by: KnownBy, version_read: str | None, below: str = "") -> str:
    """How one cell's verdict is known, naming the engine's release or commit read where it was read from code; a cell
    known by inference that lists the steps it rests on after this says `below` (wording.inferred_below) in place of
    the pointer to the records."""
    if known_by is KnownBy.CODE:
        return READ_FROM_CODE.format(read=read_at(version_read))
    if known_by is KnownBy.INFERRED:
        return (INFERRED_READ + below if below else INFERRED_FROM_CODE).format(read=read_at(version_read))
    return KNOWN_BY_MEANINGS[known_by]
