"""Problems: every error or warning the pipeline reports, as a value with a location."""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable

from .gfm import visible_json


@dataclass(frozen=True, order=True)
class Problem:
    """One finding of the pipeline, printed as `file:line:col: severity: [rule] message`."""

    file: str
    line: int
    column: int
    rule: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        # a file name or an echoed value may hold a character a terminal acts on or draws as nothing: shown escaped
        return visible_json(f"{self.file}:{self.line}:{self.column}: {self.severity}: [{self.rule}] {self.message}")

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message,
        }

    def as_github(self) -> str:
        """A GitHub Actions workflow command; data and property values escaped so nothing can inject a property."""
        level = "error" if self.severity == "error" else "warning"
        props = ",".join(f"{name}={_property(value)}" for name, value in
                         (("file", self.file), ("line", self.line), ("col", self.column), ("title", self.rule)))
        return f"::{level} {props}::{_data(self.message)}"


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(value: object) -> str:
    return _data(str(value)).replace(":", "%3A").replace(",", "%2C")


def sorted_problems(problems: Iterable[Problem]) -> list[Problem]:
    """Problems in a stable order: by file, line, column, then rule and message; duplicates dropped."""
    return sorted(set(problems))


def has_errors(problems: Iterable[Problem]) -> bool:
    """The one rule for a failed run: any problem of severity error (warnings fail only `--strict` callers)."""
    return any(p.severity == "error" for p in problems)
