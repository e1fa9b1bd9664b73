"""The suite bites: our adapter with one protocol rule broken at a time
(``tests/fixtures/broken_adapter.py``) fails the case of that rule, and the
failure names the rule.  Our own adapter passes the same cases."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hucklebuck.conformance import SubprocessAdapter, load_cases, run_cases
from hucklebuck.conformance.runner import Report

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PY = sys.executable
pytestmark = pytest.mark.single_core

FRAMING = "protocol: transport and framing: "
ORDER = "protocol: the order of checks: "
#: mode -> (a case it must fail, the rule the failure must name)
BROKEN = {
    "crash-on-non-json": ("protocol/framing/not-utf8-byte-ff", FRAMING + "a line that is not UTF-8"),
    "accept-invalid-utf8": ("protocol/framing/not-utf8-byte-ff", FRAMING + "a line that is not UTF-8"),
    "wrong-id": ("hucklebuck/defaults/legal-trick-default", "protocol: legal_plays: trick defaults to []"),
    "unsupported-missing-game": ("protocol/games/missing-game", ORDER + "the game must be present"),
    "ignore-trick-default": ("hucklebuck/defaults/legal-trick-default-hearts", "protocol: legal_plays: tri"),
    "answer-blank-lines": ("protocol/framing/empty-line", FRAMING + "a line that is empty or holds only"),
    "nonstandard-numbers": ("protocol/framing/number-1e400", FRAMING + "a line that is not standard JSON"),
    "builtin-ops": ("protocol/ops/dunder-class", "protocol: requests and answers: an unknown op"),
    "missing-op-echoes-id": ("protocol/framing/missing-op", FRAMING + "a line that is not an object"),
    "stop-after-bad-line": ("protocol/framing/not-utf8-byte-ff", FRAMING + "a line that is not UTF-8"),
    "unknown-game-bad-request": ("protocol/games/unknown-game", ORDER + "an unknown game"),
    "oversize-trick": ("hucklebuck/shape/trick-nine-cards", "protocol: trick_winner: plays holds 2 to 8"),
    "options-before-shape": ("hucklebuck/order/shape-before-options", ORDER + "the rest of the shape is"),
    "stderr-then-die": ("hucklebuck/shape/trick-missing-trump", "protocol: requests and answers: a missing"),
}


def protocol_cases() -> list:  # type: ignore[type-arg]
    keep = ("protocol/", "hucklebuck/shape/", "hucklebuck/order/", "hucklebuck/defaults/")
    return [c for c in load_cases() if c.id.startswith(keep)]


def run(command: str) -> Report:
    adapter = SubprocessAdapter(command, timeout=120)
    try:
        return run_cases(protocol_cases(), adapter)
    finally:
        adapter.close()


def test_our_adapter_passes_the_protocol_cases() -> None:
    report = run(f"{PY} -m hucklebuck.conformance adapter")
    assert report.failed == [] and report.not_run == [] and report.skipped == []
    assert len(report.passed) >= 80


@pytest.mark.parametrize("mode", sorted(BROKEN))
def test_each_broken_adapter_fails_naming_the_rule(mode: str) -> None:
    case_id, rule = BROKEN[mode]
    report = run(f"{PY} {FIXTURES / 'broken_adapter.py'} {mode}")
    failed = dict(report.failed)
    assert case_id in failed, (mode, sorted(failed)[:5])
    assert f"(rule: {rule}" in failed[case_id], failed[case_id]
    if mode == "answer-blank-lines":  # the runner stays in step: only the three blank-line cases fail
        blank = ["empty-line", "vertical-tab-line", "white-space-line"]
        assert sorted(failed) == [f"protocol/framing/{b}" for b in blank]
    if mode in ("crash-on-non-json", "stderr-then-die"):  # what the adapter said on stderr is kept
        stderr = next(r.stderr for r in report.results if r.id == case_id)
        assert ("Traceback" if mode == "crash-on-non-json" else "cannot work out a trick") in stderr


def test_every_mode_of_the_broken_adapter_is_tried() -> None:
    source = (FIXTURES / "broken_adapter.py").read_text()
    modes = source.split("MODES = {")[1].split("}")[0]
    assert {line.split('"')[1] for line in modes.splitlines() if '"' in line} == set(BROKEN)
