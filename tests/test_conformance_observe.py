"""The protocol's ``observe`` operation (since version 2): its cases pass on both cores,
cite every rule of what a seat may know (DEF #84-#91) in every game, pin what must
not be known, and the request and answer schemas describe it."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from hucklebuck.conformance import PROTOCOL, InProcessAdapter, load_cases, run_cases
from hucklebuck.conformance.protocol import handle
from hucklebuck.conformance.runner import suite_info

CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def observe_cases() -> list[Any]:
    return [c for c in load_cases() if c.request.get("op") == "observe"]


def test_observe_cases_pass(core_name: str) -> None:
    cases = observe_cases()
    report = run_cases(cases, InProcessAdapter(core_name))
    assert report.failed == [] and report.skipped == [], report.failed[:3]
    assert len(report.passed) == len(cases) >= 40


@pytest.mark.single_core
def test_protocol_version_3_offers_observe() -> None:
    hello = handle({"id": 1, "op": "hello"})["result"]
    assert PROTOCOL == 3 and hello["protocol"] == 3 and "observe" in hello["ops"]
    assert suite_info()["protocol"] == 3


@pytest.mark.single_core
def test_every_game_cites_every_rule_of_what_a_seat_may_know() -> None:
    for game in ("hucklebuck", "buckem", "deerpark"):
        cited = {d for c in observe_cases() if c.id.startswith(game + "/") for d in c.decisions}
        rules = set(range(84, 92)) - ({88} if game != "buckem" else set())  # #88: the Buck 'Em rake
        assert {f"DEF #{n}" for n in rules} <= cited, (game, sorted(cited))


@pytest.mark.single_core
def test_cases_cover_every_phase_several_seats_and_an_onlooker() -> None:
    phases: dict[str, set[str]] = {}
    seats: dict[str, set[Any]] = {}
    for c in observe_cases():
        if isinstance(c.expect, dict) and "phase" in c.expect:
            game = c.id.split("/")[0]
            phases.setdefault(game, set()).add(c.expect["phase"])
            seats.setdefault(game, set()).add(c.request["seat"])
    assert phases["hucklebuck"] >= {"auction", "declare", "exchange", "play", "hand_over", "game_over"}
    assert phases["buckem"] >= {"stay_fold", "draw", "play", "hand_over"}
    assert phases["deerpark"] >= {"order", "dealer_discard", "play", "game_over"}
    for game, who in seats.items():
        assert None in who and len(who - {None}) >= 3, (game, who)


def expected(case_id: str) -> dict[str, Any]:
    case = next(c for c in observe_cases() if c.id == case_id)
    result: dict[str, Any] = case.expect
    return result


@pytest.mark.single_core
@pytest.mark.parametrize(
    ("case_id", "hidden"),
    [
        ("hucklebuck/observe/exchange-other-seat-discard", {"JC", "7D", "2H", "3H"}),  # an exchange
        ("hucklebuck/observe/declare-after-a-drop", {"AD", "KD", "QD", "JD", "TD"}),  # a dropped hand
        ("buckem/observe/stay-fold-public", {"7D", "8D", "9D", "TD", "JD"}),  # a folded hand
        ("buckem/observe/draw-counts-only", {"2C", "3C", "4C", "5C"}),  # another stayer's draw
        ("buckem/observe/rake-shows-only-the-ace", {"KS", "2C", "3C", "4C"}),  # the raker's other cards
        ("buckem/observe/lone-stayer-not-qualifying-shows-nothing", {"4S", "3S", "2C", "3C", "4C"}),
        ("deerpark/observe/round-one-onlooker", {"TC", "JC", "KC", "AD"}),  # the kitty
        ("deerpark/observe/discard-hidden", {"TD"}),  # the dealer's discard
    ],
)
def test_what_must_not_be_known_is_absent(case_id: str, hidden: set[str]) -> None:
    shown = set(CARD.findall(json.dumps(expected(case_id))))
    assert not hidden & shown


@pytest.mark.single_core
def test_hidden_declarations_and_the_hidden_swap() -> None:
    waiting = expected("buckem/observe/simultaneous-hidden-declarations")
    assert waiting["history"] == ["1 declared", "2 declared"] and waiting["hand_sizes"] == [5] * 5
    assert waiting["upcard"] == "9S" and waiting["swapped_upcard"] is None and waiting["decisions"] == []
    revealed = expected("buckem/observe/simultaneous-revealed")
    assert revealed["upcard"] == "2S" and revealed["swapped_upcard"] == "9S"


@pytest.mark.single_core
def test_the_deerpark_discard_of_the_turned_card_looks_like_any_other() -> None:
    a = expected("deerpark/observe/discard-hidden")
    b = expected("deerpark/observe/discard-of-the-turned-card-hidden")
    assert a == b and a["history"][-1] == "0 discard 1 card" and a["turned"] == "JH"


@pytest.mark.single_core
def test_an_unknown_game_is_unsupported_before_a_missing_seat() -> None:
    # The order of checks (protocol page): the game (3) comes before the request's shape (4).
    ans = handle({"id": 1, "op": "observe", "game": "whist", "players": 4, "hands": []})
    assert ans["ok"] is False and ans["error"]["code"] == "unsupported"


@pytest.mark.single_core
def test_a_seat_out_of_range_is_refused_before_any_action() -> None:
    case = next(c for c in observe_cases() if c.id == "hucklebuck/observe/illegal-action")
    req = dict(case.request, seat=9, id=1)
    ans = handle(req)
    assert ans["ok"] is False and ans["error"]["code"] == "bad_request"
    assert '"seat"' in ans["error"]["message"]


@pytest.mark.single_core
def test_the_schemas_describe_observe() -> None:
    pytest.importorskip("jsonschema", reason="jsonschema is a development dependency (the dev extra)")
    from hucklebuck.conformance.schemas import validator

    case = next(c for c in observe_cases() if c.id == "deerpark/observe/discard-hidden")
    req = dict(case.request, id=1)
    assert not list(validator("request").iter_errors(req))
    assert list(validator("request").iter_errors({k: v for k, v in req.items() if k != "seat"}))
    assert list(validator("request").iter_errors(dict(req, seat="1")))
    answers = validator("answer", "answer_observe")
    good = handle(req)
    assert not list(answers.iter_errors(good))
    missing = dict(good, result={k: v for k, v in good["result"].items() if k != "turned"})
    assert list(answers.iter_errors(missing))
    assert list(answers.iter_errors(dict(good, result=dict(good["result"], hand=["10H"]))))


def test_every_view_describes_one_hand_its_dealer_included(core_name: str) -> None:
    """At every point of random games, hand_over and game_over included, the view's
    ``dealer`` (and the observation's) is the dealer of the hand the view shows, for
    every seat and an onlooker, and agrees with the ``play`` answer's HAND; once a
    hand is scored, ``game.dealer`` already names the next dealer, which no view reports."""
    from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
    from hucklebuck.games.observe import view

    rng = random.Random(57)
    ends = 0
    for cls, n in ((HucklebuckGame, 4), (BuckEmGame, 5), (DeerParkGame, 3)):
        for _ in range(4):
            g = cls(n, rng=random.Random(rng.getrandbits(32)), dealer=rng.randrange(n))
            for _hand in range(4):
                dealt_by = g.dealer
                while True:
                    for seat in (None, *range(n)):
                        assert view(g, seat)["dealer"] == dealt_by == g.observation(seat).dealer
                    if g.phase.value in ("hand_over", "game_over"):
                        break
                    g.apply(rng.choice(g.legal_actions()))
                ends += 1
                assert g.dealer != dealt_by or g.is_over
                if g.is_over:
                    break
                g.next_hand()
    assert ends >= 20
    played = handle({"id": 0, "op": "play", "game": "deerpark", "players": 3, "options": {}, "start": {},
                     "hands": case_hands("deerpark/scoring/maker-set")})  # fmt: skip
    seen = handle({"id": 0, "op": "observe", "seat": None, "game": "deerpark", "players": 3, "options": {},
                   "start": {}, "hands": case_hands("deerpark/scoring/maker-set")})  # fmt: skip
    assert seen["result"]["dealer"] == played["result"]["hands"][-1]["dealer"] == 0
    assert played["result"]["final"]["dealer"] == 1


def case_hands(case_id: str) -> Any:
    return next(c.request["hands"] for c in load_cases() if c.id == case_id)
