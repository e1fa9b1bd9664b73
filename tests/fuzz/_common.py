"""Shared by the fuzz harnesses: run a call on every core and compare.

Each harness module defines ``TestOneInput(data: bytes)`` and can be imported
without atheris (the pytest replay of the seed corpus does that); ``run()``
starts atheris when the file is executed.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Run as a fuzzer (python fuzz_x.py): instrument the library's modules for
# coverage as they are first imported (instrumenting everything loaded,
# the standard library included, would take ten times as long at start-up).
if Path(sys.argv[0]).name.startswith("fuzz_"):
    import atheris

    with atheris.instrument_imports(include=["hucklebuck"]):
        for _name in ("evaluate", "games", "conformance.adapter"):
            importlib.import_module(f"hucklebuck.{_name}")

import hucklebuck as hb  # after the instrumented import above

CORES = hb.available()

Outcome = tuple[str, Any]
Allowed = type[BaseException] | tuple[type[BaseException], ...]


def outcome(fn: Callable[[], Any], allowed: Allowed = hb.HucklebuckError) -> Outcome:
    """``("ok", result)`` or ``("error", (type name, message))``; any other exception propagates."""
    try:
        return ("ok", fn())
    except allowed as exc:
        return ("error", (type(exc).__name__, str(exc)))


def on_every_core(fn: Callable[[], Any], allowed: Allowed = hb.HucklebuckError) -> Outcome:
    """Run ``fn`` on each core; assert they agree (same result, or same error and message)."""
    seen: list[Outcome] = []
    for core in CORES:
        with hb.using(core):
            seen.append(outcome(fn, allowed))
    for core, got in zip(CORES[1:], seen[1:], strict=True):
        assert got == seen[0], f"the cores disagree: {CORES[0]}: {seen[0]!r:.300} / {core}: {got!r:.300}"
    return seen[0]


def run(test_one_input: Callable[[bytes], None]) -> None:
    """Fuzz ``test_one_input`` with atheris (libFuzzer arguments come from the command line)."""
    import atheris

    if "c" not in CORES and os.environ.get("HUCKLEBUCK_FUZZ_ALLOW_PYTHON_ONLY") != "1":
        raise SystemExit(
            "the harnesses compare the C core with the Python core; C is not loaded: "
            + hb.backend_info().reason
        )
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


class Bytes:
    """Reads choices from the fuzzer's bytes (zeros once they run out)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        """The next byte."""
        b = self.data[self.pos] if self.pos < len(self.data) else 0
        self.pos += 1
        return b

    def int_in(self, lo: int, hi: int) -> int:
        """An integer ``lo..hi`` from as many bytes as the span needs."""
        span = hi - lo + 1
        value = 0
        for _ in range(max(1, (span.bit_length() + 7) // 8)):
            value = value << 8 | self.byte()
        return lo + value % span

    def pick(self, choices: Any) -> Any:
        """One of ``choices``."""
        return choices[self.byte() % len(choices)]
