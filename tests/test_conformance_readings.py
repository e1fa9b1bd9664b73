"""Protocol version 3 settles the sentences that could be read two ways: the page,
the schemas, the reference adapter and the example Node adapter say the same
thing, and each reading has a case that cites it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from hucklebuck.conformance import load_cases
from hucklebuck.conformance.adapter import answer_line
from hucklebuck.conformance.protocol import handle
from hucklebuck.conformance.runner import SubprocessAdapter

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.single_core

#: The protocol rule each settled reading's case cites, and the case.
READINGS = {
    "buckem/observe/rake-shown-after-swap": "observe, rake_shown",
    "buckem/observe/simultaneous-swapper-sees-own-swap": "observe, upcard",
    "deerpark/observe/locked-after-a-scored-hand": "observe, locked",
    "hucklebuck/observe/stock-emptied-exactly": "observe, stock_size",
    "hucklebuck/observe/seat-already-out": "observe, seat",
    "hucklebuck/order/earlier-illegal-action-before-later-deal": "the order of checks",
    "hucklebuck/order/options-before-start-types": "the order of checks",
    "hucklebuck/play/active-at-a-cut": "play, state at a cut",
    "hucklebuck/shape/start-null-is-every-default": "play, start",
    "hucklebuck/solve/one-seat-in-play": "solve, hands",
    "hucklebuck/shape/deal-extra-field-ignored": "requests and answers",
    "protocol/framing/vertical-tab-line": "transport and framing",
    "protocol/framing/no-break-space-line": "transport and framing",
}


def test_each_settled_reading_has_a_case_citing_it_first() -> None:
    cases = {c.id: c for c in load_cases()}
    for case_id, section in READINGS.items():
        assert case_id in cases, case_id
        assert cases[case_id].rule.startswith(f"protocol: {section}"), (case_id, cases[case_id].rule)


def test_the_request_schema_takes_what_the_adapter_takes() -> None:
    pytest.importorskip("jsonschema")
    from hucklebuck.conformance.schemas import validator

    v = validator("request")
    pack = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    deal = {"hands": [pack[0:5], pack[5:10], pack[10:15]], "stock": pack[15:]}
    req = {"id": 0, "op": "play", "game": "hucklebuck", "players": 3, "options": {}}
    req["hands"] = [{"deal": deal}]
    for changed in (dict(req, start=None), dict(req, hands=[{"deal": dict(deal, note="by hand")}])):
        assert handle(changed)["ok"] is True
        assert [e.message for e in v.iter_errors(changed)] == [], changed


def test_which_lines_are_empty_in_the_reference_adapter() -> None:
    for blank in (b"", b" \t\r", b"\x0b\x0c", b" \x0c "):
        assert answer_line(blank) is None, blank
    for not_blank in ("\u00a0".encode(), " \u3000".encode(), "\u2028".encode()):
        answer = answer_line(not_blank)
        assert answer is not None and '"code":"bad_request"' in answer, not_blank


@pytest.mark.skipif(
    shutil.which("node") is None and not os.environ.get("HUCKLEBUCK_TEST_REQUIRE_NODE"),
    reason="Node.js is not installed (CI installs Debian's nodejs and sets HUCKLEBUCK_TEST_REQUIRE_NODE=1)",
)
def test_which_lines_are_empty_in_the_node_adapter() -> None:
    script = ROOT / "conformance" / "adapters" / "node" / "adapter.js"
    adapter = SubprocessAdapter(f"node {script}", timeout=30)
    try:
        for blank in (b"\x0b\x0c", b" \t"):
            answers, probe = adapter.exchange_raw(blank, {"id": "p", "op": "hello"})
            assert answers == [] and probe["ok"] is True, blank
        answers, probe = adapter.exchange_raw("\u00a0".encode(), {"id": "p", "op": "hello"})
        assert [a["error"]["code"] for a in answers] == ["bad_request"] and probe["ok"] is True
    finally:
        adapter.close()
