"""The reference adapter answers every line, whatever it holds, and only ever
writes standard JSON (issue 16, items 1 and 8).  Each test runs on both cores."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

from hucklebuck.conformance.adapter import answer_line, encode_answer, serve, strict_loads

PY = sys.executable


def strict(text: str) -> Any:
    """Parse as standard JSON only: NaN, Infinity and -Infinity are errors."""

    def refuse(name: str) -> Any:
        raise AssertionError(f"non-standard JSON constant {name} in {text[:80]!r}")

    return json.loads(text, parse_constant=refuse)


HOSTILE: list[tuple[bytes, str]] = [
    (b"[" * 2000 + b"]" * 2000, "nested too deeply"),
    (b"{" * 100000, "not JSON"),
    (b'{"id": 1, "op": "hello"' + b"\xff" + b"}", "not UTF-8: byte 0xff at offset 23"),
    (b"\xff", "not UTF-8: byte 0xff at offset 0"),
    (b"\xed\xa0\x80", "not UTF-8"),  # an encoded surrogate
    (b'{"id":NaN,"op":"hello"}', "NaN is not a JSON number"),
    (b'{"id":Infinity,"op":"hello"}', "Infinity is not a JSON number"),
    (b'{"id":-Infinity,"op":"hello"}', "-Infinity is not a JSON number"),
    (b'{"id":1e400,"op":"hello"}', "1e400 is too large for a JSON number"),
    (b'{"id":-1e400,"op":"hello"}', "-1e400 is too large for a JSON number"),
    (b'{"id":' + b"9" * 5000 + b',"op":"hello"}', "an integer of 5000 digits"),
    (b'{"op":"deck","game":"hucklebuck","players":4,"options":{"target":NaN}}', "NaN is not a JSON number"),
    (b'{"op":"solve","game":"buckem","trump":"S","hands":[],"leader":1e999,"seat":0}', "too large"),
    (b"\x00\x01\x02", "not JSON"),
]


def run_adapter(core: str, payload: bytes, env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    out = subprocess.run(
        [PY, "-m", "hucklebuck.conformance", "adapter", "--backend", core],
        input=payload,
        capture_output=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    assert out.returncode == 0, out.stderr.decode(errors="replace")[-2000:]
    assert b"Traceback" not in out.stderr
    text = out.stdout.decode("ascii")  # answers are ASCII
    return [strict(line) for line in text.splitlines()]


@pytest.mark.parametrize("encoding", ["", "utf-8:strict"])
def test_every_hostile_line_gets_a_bad_request_and_the_adapter_goes_on(core_name: str, encoding: str) -> None:
    lines = []
    for i, (raw, _) in enumerate(HOSTILE):
        lines += [raw, b'{"id": %d, "op": "hello"}' % i]
    env = {"PYTHONIOENCODING": encoding} if encoding else {}
    answers = run_adapter(core_name, b"\n".join(lines) + b"\n", env)
    assert len(answers) == 2 * len(HOSTILE)
    for i, (_, why) in enumerate(HOSTILE):
        bad, hello = answers[2 * i], answers[2 * i + 1]
        assert bad["id"] is None and bad["ok"] is False, bad
        assert bad["error"]["code"] == "bad_request" and why in bad["error"]["message"], (why, bad)
        assert hello == {"id": i, "ok": True, "result": hello["result"]}
        assert hello["result"]["core"] == core_name


def test_answer_line_in_process(core_name: str) -> None:
    for raw, why in HOSTILE:
        text = answer_line(raw)
        assert text is not None
        answer = strict(text)
        assert answer["id"] is None and why in answer["error"]["message"]
    assert answer_line(b"   \n") is None  # blank lines get no answer
    deep_id = "[" * 500 + "]" * 500  # deep, but within what the decoder reads: echoed
    text = answer_line(f'{{"id": {deep_id}, "op": "hello"}}')
    assert text is not None and strict(text)["ok"] is True and text.startswith('{"id":' + "[" * 500)
    hello = answer_line('{"id": 1.5e300, "op": "hello"}')
    assert hello is not None and strict(hello)["id"] == 1.5e300


def test_answers_are_never_non_standard_json(core_name: str) -> None:
    nan_answer = {"id": math.nan, "ok": True, "result": [math.inf]}
    text = encode_answer(nan_answer)
    answer = strict(text)
    assert answer["id"] is None and answer["error"]["code"] == "bad_request"
    assert "cannot be written as standard JSON" in answer["error"]["message"]
    assert text.isascii()
    ok = strict(encode_answer({"id": "é", "ok": True, "result": 1}))
    assert ok["id"] == "é"


def test_serve_on_binary_and_text_streams(core_name: str) -> None:
    import io

    raw = io.BytesIO(b'{"id":NaN,"op":"hello"}\n\n{"id":2,"op":"hello"}\n\xff\n')
    out = io.BytesIO()
    assert serve(raw, out) == 0
    answers = [strict(line) for line in out.getvalue().decode("ascii").splitlines()]
    assert [a["id"] for a in answers] == [None, 2, None]
    text_out = io.StringIO()
    assert serve(io.StringIO('{"id":3,"op":"hello"}\n'), text_out) == 0
    assert strict(text_out.getvalue())["id"] == 3


def test_strict_loads() -> None:
    assert strict_loads('{"a": [1, 2.5, -3e10, true, null]}') == {"a": [1, 2.5, -3e10, True, None]}
    for bad in ("NaN", "[Infinity]", "1e400", "9" * 1001):
        with pytest.raises(ValueError):
            strict_loads(bad)


def test_from_json_of_deeply_nested_text_is_a_restore_error(core_name: str) -> None:
    from hucklebuck.errors import RestoreError
    from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame

    for game in (HucklebuckGame, BuckEmGame, DeerParkGame):
        for text in ("[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000):
            with pytest.raises(RestoreError, match="nested too deeply"):
                game.from_json(text)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
OPS_AND_FIELDS = st.fixed_dictionaries(
    {"op": st.sampled_from(["hello", "deck", "trick_winner", "legal_plays", "play", "solve", "nope"])},
    optional={
        "id": JSON_VALUES,
        "game": st.sampled_from(["hucklebuck", "buckem", "deerpark", "poker"]) | JSON_VALUES,
        "players": st.integers(-2, 10) | JSON_VALUES,
        "trump": st.sampled_from(["C", "D", "H", "S", "X"]) | JSON_VALUES,
        "plays": st.lists(st.sampled_from(["AS", "KS", "2C", "JD", "10H", "TH"]), max_size=9) | JSON_VALUES,
        "hand": st.lists(st.sampled_from(["AS", "KS", "2C", "JD", "TH"]), max_size=6) | JSON_VALUES,
        "hands": JSON_VALUES,
        "options": st.dictionaries(st.sampled_from(["target", "ante", "lock_at", "x"]), JSON_VALUES)
        | JSON_VALUES,
        "start": JSON_VALUES,
        "leader": JSON_VALUES,
        "seat": JSON_VALUES,
    },
)


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(raw=st.binary(max_size=200))
def test_any_bytes_get_exactly_one_strict_json_answer(core_name: str, raw: bytes) -> None:
    line = raw.replace(b"\n", b" ")
    text = answer_line(line)
    if not line.strip():
        assert text is None
        return
    assert text is not None and text.isascii()
    answer = strict(text)
    assert set(answer) in ({"id", "ok", "result"}, {"id", "ok", "error"})


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(req=OPS_AND_FIELDS)
def test_any_request_object_gets_an_answer_echoing_its_id(core_name: str, req: dict[str, Any]) -> None:
    text = answer_line(json.dumps(req))
    assert text is not None
    answer = strict(text)
    assert answer["id"] == req.get("id")
    if answer["ok"] is False:
        assert answer["error"]["code"] in ("bad_request", "illegal_action", "unsupported")
        assert "internal error" not in answer["error"]["message"], answer
