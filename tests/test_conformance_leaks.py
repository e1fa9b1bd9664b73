"""The leak check (``run --leaks N``): our adapter passes it on both cores, and it
finds each deliberately leaky adapter (tests/fixtures/leaky_adapter.py), with the
smallest twin pair that shows the leak."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hucklebuck.conformance import InProcessAdapter
from hucklebuck.conformance.leaks import check_leaks, twin
from hucklebuck.conformance.protocol import handle
from hucklebuck.conformance.runner import SubprocessAdapter

LEAKY = Path(__file__).resolve().parent / "fixtures" / "leaky_adapter.py"


def leaky(mode: str) -> SubprocessAdapter:
    return SubprocessAdapter(f"{sys.executable} {LEAKY} {mode}", timeout=30)


def test_our_adapter_has_no_leak(core_name: str) -> None:
    report = check_leaks(InProcessAdapter(core_name), 12, seed=7)
    assert report.leaks == [], report.leaks[0].describe()
    for game in ("hucklebuck", "buckem", "deerpark"):
        assert report.games[game] == 12 and report.pairs[game] >= 40 and report.seen_pairs[game] >= 10


@pytest.mark.single_core
@pytest.mark.parametrize(
    ("mode", "game", "shows"),
    [
        ("dealer-discard", "deerpark", "$.history["),
        ("folded-hand", "buckem", "$.folded_hands"),
        ("hidden-declaration", "buckem", "$.history["),
        ("kitty-card", "deerpark", "$.kitty_next"),
    ],
)
def test_each_leaky_adapter_is_caught(mode: str, game: str, shows: str) -> None:
    adapter = leaky(mode)
    try:
        report = check_leaks(adapter, 30, seed=1, only=(game,))
    finally:
        adapter.close()
    assert report.leaks, f"the {mode} leak was not found"
    leak = report.leaks[0]
    assert leak.game == game and not leak.blind and leak.difference.startswith(shows), leak.describe()
    a, b = leak.requests
    # the smallest pair: one action fewer no longer tells the two games apart
    assert a["hands"][:-1] == b["hands"][:-1]
    shorter = [dict(r, hands=[*r["hands"][:-1], dict(r["hands"][-1], actions=r["hands"][-1]["actions"][:-1])])
               for r in (a, b)]  # fmt: skip
    if a["hands"][-1]["actions"]:
        x, y = (handle(dict(r, id=0)) for r in shorter)
        if x["ok"] and y["ok"]:  # (a change of the last action makes the shorter pair equal anyway)
            adapter = leaky(mode)
            try:
                answers = [adapter.request(dict(r, id=0)) for r in shorter]
            finally:
                adapter.close()
            assert answers[0] == answers[1] or answers[0]["ok"] is False


@pytest.mark.single_core
def test_the_hidden_declaration_leak_is_a_declaration_changed() -> None:
    adapter = leaky("hidden-declaration")
    try:
        report = check_leaks(adapter, 30, seed=1, only=("buckem",))
    finally:
        adapter.close()
    leak = report.leaks[0]
    assert leak.change.startswith("action ") and leak.requests[0]["options"]["simultaneous_declare"] is True
    ours = [handle(dict(r, id=0))["result"] for r in leak.requests]
    assert ours[0] == ours[1]  # our adapter: the twins look the same to that seat
    assert any(t.endswith(" declared") for t in ours[0]["history"])


@pytest.mark.single_core
def test_a_view_that_hides_everything_is_caught() -> None:
    adapter = leaky("blind")
    try:
        report = check_leaks(adapter, 5, seed=1, only=("hucklebuck",))
    finally:
        adapter.close()
    assert report.leaks and all(leak.blind for leak in report.leaks)
    assert "stays the same when a card it sees changes" in report.leaks[0].describe()


def test_twins_transpose_cards_everywhere_and_keep_canonical_order() -> None:
    req: dict[str, Any] = {
        "op": "observe",
        "game": "hucklebuck",
        "players": 3,
        "hands": [
            {"deal": {"hands": [["AS", "2C"]], "stock": ["KH"], "restock": [["2C", "KH"]]},
             "actions": ["1 discard 2C AS", "0 play KH"]},
        ],
    }  # fmt: skip
    out = twin(req, "2C", "KH")
    assert out["hands"][0]["deal"] == {"hands": [["AS", "KH"]], "stock": ["2C"], "restock": [["KH", "2C"]]}
    assert out["hands"][0]["actions"] == ["1 discard KH AS", "0 play 2C"]
    assert req["hands"][0]["actions"][0] == "1 discard 2C AS"  # the original is untouched


@pytest.mark.single_core
def test_command_line_exit_status_and_report() -> None:
    base = [sys.executable, "-m", "hucklebuck.conformance", "run", "--game", "deerpark"]
    ok = subprocess.run([*base, "--leaks", "3"], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr
    assert "deerpark: 3 games" in ok.stdout and "leak check: no leak found" in ok.stdout
    bad = subprocess.run(
        [*base, "--leaks", "20", "--seed", "1", "--adapter", f"{sys.executable} {LEAKY} kitty-card"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 1, bad.stderr
    assert "LEAK deerpark:" in bad.stdout and "$.kitty_next" in bad.stdout
    requests = [
        json.loads(line.split("request: ", 1)[1]) for line in bad.stdout.splitlines() if "request: " in line
    ]
    assert len(requests) >= 2 and requests[0]["op"] == "observe"
    zero = subprocess.run([*base, "--leaks", "0"], capture_output=True, text=True, timeout=300)
    assert zero.returncode == 2 and "--leaks must be at least 1" in zero.stderr


@pytest.mark.single_core
@pytest.mark.parametrize("mode", ["key-order", "four-float"])
def test_a_leak_in_the_text_of_the_answer_is_caught(mode: str) -> None:
    """Keys in another order, or 4.0 for 4, exactly when the left-hand neighbour holds the
    ace of spades: the decoded values are equal, but a client reading the line learns the card."""
    adapter = leaky(mode)
    try:
        report = check_leaks(adapter, 20, seed=3, only=("hucklebuck",))
    finally:
        adapter.close()
    assert report.leaks, f"the {mode} leak was not found"
    leak = report.leaks[0]
    assert not leak.blind and "differ as text" in leak.difference, leak.describe()
    a, b = leak.requests
    ours = [handle(dict(r, id=0))["result"] for r in (a, b)]
    assert ours[0]["hand"] == ours[1]["hand"]  # the seat cannot tell the twins apart from its view


@pytest.mark.single_core
def test_a_leak_of_an_earlier_hand_is_caught() -> None:
    """A view that carries the previous hand's whole deal: only twins that differ in an
    earlier hand can show it."""
    adapter = leaky("earlier-deal")
    try:
        report = check_leaks(adapter, 20, seed=1, only=("deerpark",))
    finally:
        adapter.close()
    assert report.leaks, "the earlier-deal leak was not found"
    leak = report.leaks[0]
    assert leak.difference.startswith("$.previous_deal"), leak.describe()
    a, b = leak.requests
    assert len(a["hands"]) > 1 and a["hands"][-1] == b["hands"][-1] and a["hands"][:-1] != b["hands"][:-1]
    assert " of hand " in leak.change


def test_twins_in_earlier_hands_keep_the_later_hands_legal(core_name: str) -> None:
    report = check_leaks(InProcessAdapter(core_name), 12, seed=5)
    assert report.leaks == [], report.leaks[0].describe()
    for game in ("hucklebuck", "buckem", "deerpark"):
        assert report.earlier_pairs[game] >= 5, (game, report.earlier_pairs)


@pytest.mark.single_core
def test_games_refused_as_unsupported_are_counted_and_fail_the_check() -> None:
    adapter = leaky("refuse-options")
    try:
        report = check_leaks(adapter, 24, seed=2, only=("buckem",))
    finally:
        adapter.close()
    assert report.leaks == []
    assert report.refused["buckem"] > 0.1 * report.games["buckem"] and report.low_coverage() == ["buckem"]
    summary = report.summary()
    assert f"{report.games['buckem'] - report.refused['buckem']} of 24 games checked" in summary
    assert "LOW COVERAGE buckem" in summary and "option not offered" in summary
    base = [sys.executable, "-m", "hucklebuck.conformance", "run", "--game", "buckem", "--leaks", "12"]
    base += ["--adapter", f"{sys.executable} {LEAKY} refuse-options"]
    low = subprocess.run(base, capture_output=True, text=True, timeout=300)
    assert low.returncode == 1 and "LOW COVERAGE buckem" in low.stdout, low.stdout + low.stderr
    accepted = subprocess.run([*base, "--accept-partial"], capture_output=True, text=True, timeout=300)
    assert accepted.returncode == 0 and "accepted as partial" in accepted.stdout, accepted.stdout
