"""The progress line (generators/progress.py): only on a terminal, only after the delay, erased at the end."""
from __future__ import annotations

import io

from generators.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_nothing_is_written_when_the_stream_is_not_a_terminal():
    stream, clock = io.StringIO(), Clock()
    progress = Progress("build", stream=stream, delay=0, clock=clock)
    clock.now = 10
    progress.update(5, 10)
    progress.close()
    assert stream.getvalue() == ""


def test_a_short_build_writes_nothing_and_a_long_one_one_line_erased_at_the_end():
    stream, clock = Terminal(), Clock()
    progress = Progress("build: rendering pages", stream=stream, delay=2.0, clock=clock)
    clock.now = 1.0
    progress.update(1, 8)
    assert stream.getvalue() == ""  # before the delay
    clock.now = 2.5
    progress.update(2, 8)
    clock.now = 2.55
    progress.update(3, 8)  # too soon after the last redraw: skipped
    clock.now = 2.7
    progress.update(8, 8)
    progress.close()
    assert stream.getvalue() == ("\r\x1b[Kbuild: rendering pages: 2/8 (25 %)"
                                 "\r\x1b[Kbuild: rendering pages: 8/8 (100 %)"
                                 "\r\x1b[K")
