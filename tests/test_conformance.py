"""The conformance suite against our cores (in-process and through the adapter
subprocess), the runner's failure reports, the adapter's answers to bad input,
and a non-Python adapter."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hucklebuck.conformance import InProcessAdapter, SubprocessAdapter, load_cases, match, run_cases
from hucklebuck.conformance.lint import lint
from hucklebuck.conformance.runner import RunnerError, bundled_suite_dir, suite_info
from hucklebuck.conformance.spec import OPS

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PY = sys.executable


def adapter_cmd(backend: str) -> str:
    return f"{PY} -m hucklebuck.conformance adapter --backend {backend}"


def test_bundled_suite_passes_in_process(core_name: str) -> None:
    cases = load_cases()
    assert sum(1 for c in cases if c.id.startswith("hucklebuck/")) >= 150
    report = run_cases(cases, InProcessAdapter(core_name))
    assert report.failed == [], report.failed[:5]
    assert report.skipped == [] and len(report.passed) == len(cases)


def test_bundled_suite_passes_through_the_adapter_process(core_name: str) -> None:
    cases = load_cases()
    adapter = SubprocessAdapter(adapter_cmd(core_name), timeout=30)
    try:
        report = run_cases(cases, adapter)
    finally:
        adapter.close()
    assert report.failed == [], report.failed[:5]
    assert len(report.passed) == len(cases)


@pytest.mark.single_core
def test_suite_lint_is_clean_and_versioned() -> None:
    assert lint() == []
    info = suite_info()
    assert info["protocol"] == 3 and info["suite"].count(".") == 2
    assert (bundled_suite_dir() / "cases" / "deerpark").is_dir()


@pytest.mark.single_core
def test_lint_finds_problems(tmp_path: Path) -> None:
    d = tmp_path / "hucklebuck"
    d.mkdir()
    bad = {"cases": [
        {"id": "hucklebuck/x/one", "title": "t", "source": [], "decisions": [],
         "request": {"op": "hello"}, "expect": {}},
        {"id": "hucklebuck/x/one", "title": "t", "source": ["S0: x"], "decisions": ["#3"],
         "request": {"op": "hello"}, "expect": {}},
        {"id": "Bad Id", "request": {}},
    ]}  # fmt: skip
    (d / "a.json").write_text(json.dumps(bad))
    problems = "\n".join(lint([tmp_path]))
    assert "cites neither" in problems and "duplicate id hucklebuck/x/one" in problems
    assert '"decisions" must be a list like' in problems and "must look like" in problems
    assert "no case sets these option values" in problems and "fewer than 150" in problems
    assert "no case cites these observable decisions: DEF #2," in problems


@pytest.mark.single_core
def test_a_wrong_adapter_fails_with_the_case_id() -> None:
    cases = [
        c
        for c in load_cases()
        if c.request.get("op") == "trick_winner"
        and (c.request.get("plays") or [""])[0] == "AS"
        and isinstance(c.expect, int)
    ]
    assert cases, "the suite should have a trick led by the ace of spades"
    cmd = f"{PY} {FIXTURES / 'wrong_adapter.py'}"
    out = subprocess.run(
        [PY, "-m", "hucklebuck.conformance", "run", "--adapter", cmd, "--id-prefix", cases[0].id],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 1
    assert f"FAIL {cases[0].id}: $: expected" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "0 passed, 1 failed, 0 skipped, 0 not run"


@pytest.mark.single_core
def test_slow_and_dead_adapters_are_reported_not_hung() -> None:
    cases = load_cases()[:3]
    slow = SubprocessAdapter(f"{PY} {FIXTURES / 'slow_adapter.py'}", timeout=1.0)
    try:
        report = run_cases(cases, slow)
    finally:
        slow.close()
    assert len(report.failed) == 3 and "timeout" in report.failed[0][1]
    dying = SubprocessAdapter(f"{PY} {FIXTURES / 'dying_adapter.py'}", timeout=120)
    try:
        report = run_cases(cases, dying)
    finally:
        dying.close()
    assert report.failed and "exited" in report.failed[0][1]


@pytest.mark.single_core
def test_protocol_mismatch_is_refused() -> None:
    class Old:
        def request(self, req: dict[str, Any]) -> dict[str, Any]:
            return {"id": req.get("id"), "ok": True, "result": {"protocol": 0}}

        def close(self) -> None:
            pass

    mismatch = r"protocol mismatch: the suite is protocol 3, the adapter answered 0$"
    with pytest.raises(RunnerError, match=mismatch):
        run_cases(load_cases()[:2], Old())


@pytest.mark.single_core
@pytest.mark.skipif(
    shutil.which("node") is None and not os.environ.get("HUCKLEBUCK_TEST_REQUIRE_NODE"),
    reason="Node.js is not installed (CI installs Debian's nodejs and sets HUCKLEBUCK_TEST_REQUIRE_NODE=1)",
)
def test_node_adapter_runs_the_suite_with_unsupported_ops_skipped() -> None:
    cmd = f"node {ROOT / 'conformance' / 'adapters' / 'node' / 'adapter.js'}"
    adapter = SubprocessAdapter(cmd, timeout=120)
    try:
        report = run_cases(load_cases(), adapter)
    finally:
        adapter.close()
    assert report.failed == [] and report.not_run == [], report.failed[:5]
    passed_ops = {c.split("/")[1] for c in report.passed}
    assert len(report.passed) >= 80 and {"tricks", "legal"} <= passed_ops
    assert any(s[0].startswith("deerpark/") for s in report.skipped)  # other games are skipped
    # every raw line and every protocol case of its ops, and its game's shape cases, pass
    ops = {"hello", "trick_winner", "legal_plays"}
    must = [
        c.id
        for c in load_cases()
        if c.raw is not None
        or (c.group == "protocol" and (c.op in ops or c.op not in OPS))
        or (c.group == "hucklebuck" and c.id.split("/")[1] in ("shape", "defaults") and c.op in ops)
    ]
    assert len(must) >= 60 and set(must) <= set(report.passed), sorted(set(must) - set(report.passed))


def adapter_session(lines: list[str]) -> list[dict[str, Any]]:
    out = subprocess.run(
        [PY, "-m", "hucklebuck.conformance", "adapter"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


@pytest.mark.single_core
def test_adapter_survives_bad_input() -> None:
    answers = adapter_session([
        "this is not json",
        "",
        "[1, 2]",
        '{"id": 5}',
        '{"id": 6, "op": "teleport"}',
        '{"id": 7, "op": "deck", "game": "poker", "players": 4}',
        '{"id": 8, "op": "deck", "game": "hucklebuck", "players": "four"}',
        '{"id": 9, "op": "trick_winner", "game": "hucklebuck", "trump": "S", "plays": "AS KS"}',
        '{"id": 10, "op": "play", "game": "hucklebuck", "players": 3, '
        '"hands": [{"deal": {"hands": [], "stock": []}}]}',
        '{"id": 11, "op": "hello"}',
    ])  # fmt: skip
    codes = [(a["id"], a["ok"], a.get("error", {}).get("code")) for a in answers]
    assert codes == [
        (None, False, "bad_request"),  # not JSON (the blank line got no answer)
        (None, False, "bad_request"),  # not an object
        (None, False, "bad_request"),  # no op
        (6, False, "unsupported"),
        (7, False, "unsupported"),
        (8, False, "bad_request"),
        (9, False, "bad_request"),
        (10, False, "bad_request"),  # an impossible deal
        (11, True, None),
    ]


@pytest.mark.single_core
def test_adapter_illegal_action_names_hand_and_action() -> None:
    case = next(c for c in load_cases() if c.id == "hucklebuck/play/renege-illegal")
    answers = adapter_session([json.dumps(dict(case.request, id="x"))])
    assert answers[0]["error"]["code"] == "illegal_action"
    assert answers[0]["error"]["hand"] == 0 and answers[0]["error"]["action"] == 9


@pytest.mark.single_core
def test_match_rules() -> None:
    assert match({"a": 1}, {"a": 1, "b": 2}) is None  # extra keys are fine
    assert match([1, 2], [1, 2, 3]) == "$: expected [1, 2], got [1, 2, 3]"
    assert match({"a": [{"b": 1}]}, {"a": [{"b": 2}]}) == "$.a[0].b: expected 1, got 2"
    assert match({"a": None}, {"a": 0}) is not None
    assert match(True, 1) is not None  # a boolean is not a number
    assert match({"x": 1}, {}) == "$.x: missing (expected 1)"


@pytest.mark.single_core
def test_runner_filters_by_game_and_option() -> None:
    out = subprocess.run(
        [
            PY,
            "-m",
            "hucklebuck.conformance",
            "run",
            "--game",
            "deerpark",
            "--skip-option",
            "lock_at",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0
    n = sum(
        1 for c in load_cases() if c.group in ("deerpark", "protocol") and "lock_at" not in c.option_names
    )
    assert out.stdout.strip().splitlines()[-1] == f"{n} passed, 0 failed, 0 skipped, 0 not run"


@pytest.mark.single_core
def test_lint_reports_coverage_of_decisions_and_option_values(tmp_path: Path) -> None:
    from hucklebuck.conformance.lint import coverage, coverage_lines
    from hucklebuck.conformance.spec import DEFS, NOT_OBSERVABLE

    cov = coverage()
    assert cov.uncited() == [] and cov.unexercised() == []
    assert set(cov.decisions) == set(DEFS) - set(NOT_OBSERVABLE)
    assert cov.decisions[56]  # scare cards with the deuce swap
    lines = coverage_lines()
    assert (
        f"decisions cited: {len(DEFS) - len(NOT_OBSERVABLE)} of {len(DEFS) - len(NOT_OBSERVABLE)}" in lines[1]
    )
    d = tmp_path / "buckem"
    d.mkdir()
    one = {"id": "buckem/x/one", "title": "t", "source": ["protocol: 6.3"], "decisions": ["DEF #56"],
           "request": {"op": "deck", "game": "buckem", "players": 5, "options": {"split": "proportional",
                                                                               "ante": 3}},
           "expect": {}}  # fmt: skip
    (d / "a.json").write_text(json.dumps({"cases": [one]}))
    problems = "\n".join(lint([tmp_path]))
    assert "cite the protocol page by topic" in problems
    assert "DEF #56," not in problems and "DEF #55," in problems
    small = coverage([tmp_path])
    assert small.option_values[("buckem", "split", "proportional")] == 1
    assert small.option_values[("buckem", "ante", "int")] == 1
    assert ("buckem", "odd_chip", "carry") in small.unexercised()
    out = subprocess.run(
        [PY, "-m", "hucklebuck.conformance", "lint", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1 and "not set: hucklebuck.target=11" in out.stdout
