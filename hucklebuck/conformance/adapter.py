"""The reference adapter: the conformance protocol over stdin/stdout.

``python -m hucklebuck.conformance adapter [--backend c|python]`` reads one JSON
request per line and writes one answer line per request, flushing each.
Garbage never stops it; EOF ends it with status 0.
"""

from __future__ import annotations

import json
import sys
from typing import IO

from .protocol import handle

__all__ = ["serve"]


def answer_line(line: str) -> str | None:
    """The answer to one input line (None for a blank line, which gets no answer)."""
    if not line.strip():
        return None
    try:
        req = json.loads(line)
    except ValueError as exc:
        resp = {"id": None, "ok": False, "error": {"code": "bad_request", "message": f"not JSON: {exc}"}}
    else:
        resp = handle(req)
    return json.dumps(resp, separators=(",", ":"))


def serve(stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Serve requests until EOF."""
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    for line in inp:
        text = answer_line(line)
        if text is not None:
            out.write(text + "\n")
            out.flush()
    return 0
