"""The conformance suite: protocol handler, reference adapter, runner and lint.

``python -m hucklebuck.conformance adapter`` serves the protocol on stdin/stdout;
``python -m hucklebuck.conformance run`` runs the bundled cases against an
adapter command or one of our cores; ``python -m hucklebuck.conformance lint``
checks the cases.
"""

from __future__ import annotations

from .protocol import PROTOCOL, handle
from .runner import Case, InProcessAdapter, Report, SubprocessAdapter, load_cases, match, run_cases

__all__ = [
    "PROTOCOL",
    "Case",
    "InProcessAdapter",
    "Report",
    "SubprocessAdapter",
    "handle",
    "load_cases",
    "match",
    "run_cases",
]
