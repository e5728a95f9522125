"""A one-line progress report for long builds: written to a terminal only, rewritten in place, erased at the end.

Nothing is written when the stream is not a terminal (CI logs, pipes, the test suite), nor before the
work has run for `delay` seconds, so short builds print nothing. The stages never print: they take a
`(done, total)` callback, and the command line or the MkDocs plugin passes `Progress.update`.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

DELAY = 2.0  # seconds of work before the line appears
EVERY = 0.1  # seconds between redraws


class Progress:
    """`label: done/total (percent)` on one terminal line."""

    def __init__(self, label: str, stream: TextIO | None = None, delay: float = DELAY,
                 clock: Callable[[], float] = time.monotonic):
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.delay, self.clock = delay, clock
        self.began = clock()
        self.drawn_at: float | None = None
        self.active = _is_terminal(self.stream)

    def update(self, done: int, total: int) -> None:
        if not self.active:
            return
        now = self.clock()
        if now - self.began < self.delay or (self.drawn_at is not None and now - self.drawn_at < EVERY and done < total):
            return
        percent = 100 * done // total if total else 100
        self.stream.write(f"\r\x1b[K{self.label}: {done}/{total} ({percent} %)")
        self.stream.flush()
        self.drawn_at = now

    def close(self) -> None:
        """Erase the line, if one was drawn."""
        if self.drawn_at is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn_at = None


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or not a file
        return False
