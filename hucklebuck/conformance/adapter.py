"""The reference adapter: the conformance protocol over stdin/stdout.

``python -m hucklebuck.conformance adapter [--backend c|python]`` reads one JSON
request per line and writes one answer line per request, flushing each.

It reads raw bytes, so no input can stop it: a line that is not UTF-8, not
JSON, nested too deeply for the decoder, or that holds ``NaN``, ``Infinity``
or a number too large for a double (``1e400``) gets a ``bad_request`` answer
with ``"id": null``, and the adapter carries on with the next line.  Answers
are strict JSON (never ``NaN`` or ``Infinity``) in ASCII.  EOF ends it with
status 0.
"""

from __future__ import annotations

import io
import json
import math
import sys
from typing import IO, Any

from .protocol import handle

__all__ = ["answer_line", "decode_request", "encode_answer", "serve", "strict_loads"]


class _NonStandardNumber(ValueError):
    """A number JSON itself cannot carry (NaN, Infinity, or beyond a double)."""


def _reject_constant(name: str) -> Any:
    raise _NonStandardNumber(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NonStandardNumber(f"{text} is too large for a JSON number (a double)")
    return value


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > 1000:
        raise _NonStandardNumber(f"an integer of {digits} digits is more than this adapter reads")
    return int(text)


def strict_loads(text: str) -> Any:
    """``json.loads`` that refuses what standard JSON cannot hold: ``NaN``,
    ``Infinity``, numbers beyond a double, integers of more than 1000 digits
    (a :class:`ValueError` naming the number)."""
    return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_int)


def _bad_line(message: str) -> dict[str, Any]:
    return {"id": None, "ok": False, "error": {"code": "bad_request", "message": message}}


def decode_request(line: bytes | str) -> Any:
    """Decode one line into a JSON value, or return an error answer for it.

    The result is either the decoded request (any JSON value) or, when the line
    cannot be read, a :class:`BadLine` answer object.
    """
    if isinstance(line, bytes):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return BadLine(_bad_line(f"not UTF-8: byte {line[exc.start]:#04x} at offset {exc.start}"))
    else:
        text = line
    try:
        return strict_loads(text)
    except _NonStandardNumber as exc:
        return BadLine(_bad_line(f"not standard JSON: {exc}"))
    except RecursionError:
        return BadLine(_bad_line("not JSON this adapter can read: nested too deeply"))
    except ValueError as exc:  # json.JSONDecodeError
        return BadLine(_bad_line(f"not JSON: {exc}"))


class BadLine(dict):  # type: ignore[type-arg]
    """The error answer to a line that could not be decoded (a plain dict)."""


def encode_answer(answer: dict[str, Any]) -> str:
    """One answer as strict, ASCII JSON text (no ``NaN``/``Infinity``, no newline).

    If the answer cannot be written as standard JSON (an echoed id nested too
    deeply to encode, say), a ``bad_request`` with ``"id": null`` is written instead.
    """
    try:
        return json.dumps(answer, separators=(",", ":"), allow_nan=False)
    except (ValueError, TypeError, RecursionError) as exc:
        fallback = _bad_line(f"the answer cannot be written as standard JSON ({type(exc).__name__})")
        return json.dumps(fallback, separators=(",", ":"))


def answer_line(line: bytes | str) -> str | None:
    """The answer to one input line (None for a blank line, which gets no answer)."""
    if not line.strip():
        return None
    req = decode_request(line)
    if isinstance(req, BadLine):
        return encode_answer(dict(req))
    try:
        resp = handle(req)
    except RecursionError:  # handle() never raises otherwise; be safe on odd input
        resp = _bad_line("the request is nested too deeply")
    return encode_answer(resp)


def serve(stdin: IO[bytes] | IO[str] | None = None, stdout: IO[bytes] | IO[str] | None = None) -> int:
    """Serve requests until EOF (by default on the raw bytes of stdin and stdout)."""
    inp: IO[Any] = stdin if stdin is not None else sys.stdin.buffer
    out: IO[Any] = stdout if stdout is not None else sys.stdout.buffer
    binary = not isinstance(out, io.TextIOBase)
    for line in inp:
        text = answer_line(line)
        if text is None:
            continue
        out.write((text + "\n").encode("ascii") if binary else text + "\n")
        out.flush()
    return 0
