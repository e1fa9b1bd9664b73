"""A progress line on standard error with the time left, for long runs (tournaments, board matches).

The line is rewritten in place: ``tournament: 40/500 deals (8%), about 6 min left``.  Before
the first chunk of work is done it says how much there is and that the estimate follows; the
estimate is the time per deal so far times the deals left, so it settles as the run goes on.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["ProgressLine", "duration"]


def duration(seconds: float) -> str:
    """``seconds`` in plain words, rounded to what matters: ``40 s``, ``6 min``, ``1 h 15 min``."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 600:
        m, r = divmod(s, 60)
        return f"{m} min {r} s" if r else f"{m} min"
    m = round(s / 60)
    if m < 60:
        return f"{m} min"
    h, m = divmod(m, 60)
    return f"{h} h {m} min" if m else f"{h} h"


class ProgressLine:
    """A ``progress(done, total)`` callback writing ``what: done/total unit (p%), about T left``."""

    def __init__(
        self,
        what: str,
        total: int,
        unit: str = "deals",
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Start the clock and write the opening line (the work to do; the estimate follows)."""
        self.what, self.unit = what, unit
        self.stream = sys.stderr if stream is None else stream
        self.clock = clock
        self.start = clock()
        self._write(f"{what}: {total} {unit} to play; the time left shows after the first ones")

    def __call__(self, done: int, total: int) -> None:
        """Rewrite the line for ``done`` of ``total``; at the end, say how long it took."""
        spent = self.clock() - self.start
        if done >= total:
            self._write(f"{self.what}: {total}/{total} {self.unit} in {duration(spent)}\n")
            return
        left = spent * (total - done) / done if done > 0 else None
        tail = f", about {duration(left)} left" if left is not None else ""
        self._write(f"{self.what}: {done}/{total} {self.unit} ({100 * done // total}%){tail}")

    def _write(self, text: str) -> None:
        self.stream.write("\r" + text + ("" if text.endswith("\n") else "\x1b[K"))
        self.stream.flush()
