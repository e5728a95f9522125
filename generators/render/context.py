"""The rendering context: the page being rendered and the problems its template functions report.

Template functions never raise for a data problem: they record a Problem located at the
template line that called them and render nothing, so one run reports every failing sentence.
"""
from __future__ import annotations

import sys
from types import FrameType
from dataclasses import dataclass, field

from ..problems import Problem


@dataclass(frozen=True)
class Read:
    """One datum a template function read: which function, which record (or view key), which field."""

    function: str
    kind: str
    id: str
    detail: str = ""


@dataclass
class RenderContext:
    """Which page is being rendered (for relative links), which template produces it, and what it read."""

    page: str
    template: str
    problems: list[Problem] = field(default_factory=list)
    reads: list[Read] = field(default_factory=list)

    def read(self, function: str, kind: str, record_id: str, detail: str = "") -> None:
        self.reads.append(Read(function, kind, record_id, detail))

    def report(self, rule: str, message: str) -> None:
        self.problems.append(Problem(self.template, calling_template_line(), 1, rule, message))


def calling_template_line() -> int:
    """The template line executing now: found from the Jinja frame on the call stack."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            return int(template.get_corresponding_lineno(frame.f_lineno))
        frame = frame.f_back
    return 1
