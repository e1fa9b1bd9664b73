"""Fuzz the conformance adapter's line handler: any bytes get one strict-JSON answer.

Checks: no exception escapes, the answer is ASCII strict JSON with ``id`` and
``ok``, an error has a protocol code and is never an ``internal error``, and
the C and Python cores give the same answer.
"""

from __future__ import annotations

import json
import sys

from _common import on_every_core, run

from hucklebuck.conformance.adapter import answer_line

CODES = {"bad_request", "unsupported", "illegal_action"}


def _no_constant(name: str) -> None:
    raise AssertionError(f"the answer holds {name}")


def _answer(line: bytes) -> str | None:
    text = answer_line(line)
    # hello names the core that answered: the one field the cores may differ in
    return None if text is None else text.replace('"core":"c"', '"core":"python"')


def TestOneInput(data: bytes) -> None:  # the name atheris expects
    line = data.split(b"\n", 1)[0]
    kind, text = on_every_core(lambda: _answer(line), allowed=())
    assert kind == "ok"
    if text is None:
        assert not line.strip()
        return
    check_answer(text)


def check_answer(text: str) -> None:
    """One answer line: ASCII strict JSON with ``id`` and ``ok``; errors coded, never internal."""
    assert text.isascii() and "\n" not in text
    answer = json.loads(text, parse_constant=_no_constant)
    assert isinstance(answer, dict) and "id" in answer and isinstance(answer.get("ok"), bool), text[:200]
    if not answer["ok"]:
        error = answer["error"]
        assert error["code"] in CODES, text[:200]
        assert "internal error" not in error["message"], text[:300]


if __name__ == "__main__":
    run(TestOneInput)
    sys.exit(0)
