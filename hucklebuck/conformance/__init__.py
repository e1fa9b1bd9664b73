"""The conformance suite: protocol handler, reference adapter, runner, lint and schemas.

``python -m hucklebuck.conformance adapter`` serves the protocol on stdin/stdout;
``python -m hucklebuck.conformance run`` runs the bundled cases against an
adapter command or one of our cores (``run --leaks N``: the leak check of
:mod:`~hucklebuck.conformance.leaks` instead, which asks for ``observe``
answers of twin games a seat cannot tell apart); ``python -m hucklebuck.conformance lint``
checks the cases and shows what they cover; ``python -m hucklebuck.conformance
schemas`` prints where the JSON Schemas of the protocol are.  The protocol
itself is described in the documentation's "Conformance protocol" page.
"""

from __future__ import annotations

from .protocol import PROTOCOL, handle
from .report import CaseResult, Report
from .runner import (
    AdapterFailure,
    Case,
    CaseFileError,
    InProcessAdapter,
    RunnerError,
    SubprocessAdapter,
    load_cases,
    match,
    run_cases,
)
from .schemas import load_schema, schema_paths
from .spec import extensions

__all__ = [
    "PROTOCOL",
    "AdapterFailure",
    "Case",
    "CaseFileError",
    "CaseResult",
    "InProcessAdapter",
    "Report",
    "RunnerError",
    "SubprocessAdapter",
    "extensions",
    "handle",
    "load_cases",
    "load_schema",
    "match",
    "run_cases",
    "schema_paths",
]
