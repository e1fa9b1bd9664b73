"""Issue 16 items 3-7: each reproduction from the hostile review, on both cores.

Every test here runs once per core (conftest.py); the ``single_core`` tests
compare the cores themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import hucklebuck as hb
from hucklebuck import (
    ActionParseError,
    CardError,
    CardSet,
    HucklebuckError,
    OptionsError,
    PlayerCountError,
    RestoreError,
    Suit,
    parse_card,
    parse_cards,
)
from hucklebuck.actions import Bid, Stay
from hucklebuck.evaluate import (
    TrickDistribution,
    buckem_advice,
    deerpark_advice,
    evaluate_hand,
    hucklebuck_advice,
    rake_qualifies,
    simulate_buckem,
    simulate_deerpark,
    simulate_hucklebuck,
    solve,
)
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase
from hucklebuck.games.history import History

HAND = parse_cards("AS KS QS 2H 3D")


def _error(fn: Callable[[], object]) -> tuple[str, str]:
    with pytest.raises(HucklebuckError) as info:
        fn()
    return type(info.value).__name__, str(info.value)


# ------------------------------------------------------------------ item 3
OUT_OF_RANGE: list[tuple[str, Callable[[], object]]] = [
    ("pot_limit", lambda: simulate_buckem(5, 200, pot_limit=-1)),
    ("pot_limit", lambda: simulate_buckem(5, 20, pot_limit=2**64)),
    ("ante", lambda: simulate_buckem(5, 20, ante=2**40)),
    ("ante", lambda: simulate_buckem(5, 20, ante=0)),
    ("hands", lambda: simulate_hucklebuck(4, -5)),
    ("hands", lambda: simulate_deerpark(4, -5)),
    ("hands", lambda: simulate_buckem(5, -5)),
    ("players", lambda: simulate_hucklebuck(9, 5)),
    ("players", lambda: simulate_buckem(4, 5)),
    ("seed", lambda: simulate_deerpark(4, 5, seed=-1)),
    ("seed", lambda: simulate_deerpark(4, 5, seed=2**64)),
    ("workers", lambda: simulate_deerpark(4, 5, workers=0)),
    ("samples", lambda: evaluate_hand("hucklebuck", Suit.SPADES, HAND, players=4, samples=-1)),
    ("samples", lambda: evaluate_hand("hucklebuck", Suit.SPADES, HAND, players=4, samples=2**40)),
    ("seat", lambda: evaluate_hand("hucklebuck", Suit.SPADES, HAND, players=4, seat=4)),
    ("leader", lambda: evaluate_hand("hucklebuck", Suit.SPADES, HAND, players=4, leader=-1)),
    ("in_play", lambda: evaluate_hand("hucklebuck", Suit.SPADES, HAND, players=4, in_play=[0, 9])),
    ("in_play", lambda: evaluate_hand("hucklebuck", Suit.SPADES, HAND, players=4, in_play=[1, 2])),
    (
        "leader",
        lambda: solve("hucklebuck", Suit.SPADES, [parse_cards("AS"), parse_cards("AH")], leader=2, seat=0),
    ),
    (
        "seat",
        lambda: solve(
            "hucklebuck", Suit.SPADES, [parse_cards("AS"), parse_cards("AH"), []], leader=0, seat=2
        ),
    ),
    ("hands", lambda: solve("hucklebuck", Suit.SPADES, [parse_cards("AS")], leader=0, seat=0)),
    (
        "hands",
        lambda: solve("hucklebuck", Suit.SPADES, [parse_cards("AS KS"), parse_cards("AH")], leader=0, seat=0),
    ),
]


@pytest.mark.parametrize(
    ("name", "call"), OUT_OF_RANGE, ids=[f"{n}-{i}" for i, (n, _) in enumerate(OUT_OF_RANGE)]
)
def test_out_of_range_arguments_are_refused_naming_the_argument(
    name: str, call: Callable[[], object]
) -> None:
    kind, message = _error(call)
    assert message.startswith(name), message
    # (SeatError is the PlayerCountError of a seat out of range)
    assert kind in ("OptionsError", "PlayerCountError", "SeatError", "CardError")


@pytest.mark.single_core
@pytest.mark.parametrize(
    ("name", "call"), OUT_OF_RANGE, ids=[f"{n}-{i}" for i, (n, _) in enumerate(OUT_OF_RANGE)]
)
def test_both_cores_raise_the_same_error(name: str, call: Callable[[], object]) -> None:
    seen = set()
    for core in hb.available():
        with hb.using(core):
            seen.add(_error(call))
    assert len(seen) == 1, seen


# ------------------------------------------------------------------ item 4
def _to_first_restock() -> HucklebuckGame:
    """Seven seats: one bid, everyone stays for five, and the stock re-forms mid-exchange."""
    g = HucklebuckGame(7, seed=1)
    while not g._restocks:
        legal = g.legal_actions()
        if g.phase is Phase.DECLARE:
            g.apply(max((a for a in legal if isinstance(a, Stay)), key=lambda a: a.exchange))
        elif g.phase is Phase.AUCTION and g.to_act == 1:
            g.apply(next(a for a in legal if isinstance(a, Bid)))
        else:
            g.apply(legal[0])
    assert g.phase is Phase.EXCHANGE
    return g


def test_a_fresh_game_with_a_made_up_restock_is_refused() -> None:
    g = HucklebuckGame(7, seed=1)
    d = g.to_dict()
    d["hands"][0]["restock"] = [["2C"]]
    with pytest.raises(RestoreError, match="restock"):
        HucklebuckGame.from_dict(d)


def test_a_restock_whose_actions_were_cut_is_refused() -> None:
    g = _to_first_restock()
    assert HucklebuckGame.from_json(g.to_json()) == g
    d = g.to_dict()
    d["hands"][0]["actions"] = d["hands"][0]["actions"][:-1]  # the discard that formed the stock
    with pytest.raises(RestoreError, match="restock"):
        HucklebuckGame.from_dict(d)


def test_a_restock_with_other_cards_is_refused() -> None:
    g = _to_first_restock()
    d = g.to_dict()
    held = g.hand(0).codes()[0]  # a card in a hand cannot be in the re-formed stock
    d["hands"][0]["restock"][0][0] = held
    with pytest.raises(RestoreError, match="restock"):
        HucklebuckGame.from_dict(d)
    d["hands"][0]["restock"].append(["2C"])  # one stock more than the replay forms
    with pytest.raises(RestoreError, match="restock"):
        HucklebuckGame.from_dict(d)


def test_a_restored_game_with_a_restock_plays_on_like_the_original() -> None:
    g = _to_first_restock()
    g2 = HucklebuckGame.from_json(g.to_json())
    while g.to_act is not None:
        a = g.legal_actions()[0]
        g.apply(a)
        g2.apply(a)
    assert g2 == g


# ------------------------------------------------------------------ item 5
@pytest.mark.parametrize(
    "text",
    [
        "² pass",
        "1 bid ²",
        "١ pass",
        "1 bid ١",
        "9" * 5000 + " pass",
        "1 bid " + "9" * 5000,
        "+1 pass",
        "-1 pass",
    ],
)
def test_action_text_numbers_are_ascii_digits_only(text: str) -> None:
    g = HucklebuckGame(4, seed=1)
    before = g.to_json()
    with pytest.raises(ActionParseError):
        g.apply(text)
    assert g.to_json() == before


@pytest.mark.parametrize("state", [2**70, -1, 2**32, "x", None])
def test_a_random_state_out_of_range_is_a_restore_error(state: object) -> None:
    for cls in (HucklebuckGame, DeerParkGame, BuckEmGame):
        d = cls(5).to_dict()
        d["rng"]["state"][0] = state
        with pytest.raises(RestoreError, match="random state"):
            cls.from_dict(d)


def test_advice_with_impossible_seat_counts_is_a_library_error() -> None:
    five = parse_cards("AS KS QS JS TS")
    with pytest.raises(PlayerCountError, match=r"^players"):
        deerpark_advice(five, players=0)
    with pytest.raises(PlayerCountError, match=r"^players"):
        buckem_advice(HAND, parse_card("9H"), players=0)
    with pytest.raises(PlayerCountError, match=r"^players"):
        hucklebuck_advice(HAND, players=0)
    with pytest.raises(CardError, match=r"^upcard"):
        buckem_advice(HAND, "2H", players=5)  # type: ignore[arg-type]


def test_legal_plays_batch_takes_any_iterable_hand() -> None:
    hand = tuple(parse_cards("JD 2C"))
    got = hb.legal_plays_batch("deerpark", [(Suit.HEARTS, hand, parse_card("AH")), (Suit.HEARTS, hand, None)])
    assert [str(s) for s in got] == ["JD", "2C JD"]


def test_effective_suit_refuses_a_number_and_a_string_card() -> None:
    with pytest.raises(CardError, match=r"^trump"):
        hb.effective_suit("deerpark", 0, parse_card("JS"))  # type: ignore[arg-type]
    with pytest.raises(CardError, match=r"^card"):
        hb.effective_suit("deerpark", Suit.CLUBS, "JS")  # type: ignore[arg-type]
    assert hb.effective_suit("deerpark", "C", parse_card("JS")) is Suit.CLUBS


FLOATS: list[tuple[str, Callable[[], object]]] = [
    ("seat", lambda: evaluate_hand("hucklebuck", Suit.SPADES, HAND, players=4, seat=1.0, samples=10)),
    ("samples", lambda: evaluate_hand("hucklebuck", Suit.SPADES, HAND, players=4, samples=10.0)),
    ("players", lambda: evaluate_hand("hucklebuck", Suit.SPADES, HAND, players=4.0, samples=10)),
    ("hands", lambda: simulate_hucklebuck(4, 10.0)),
    ("players", lambda: simulate_buckem(5.0, 10)),
    (
        "leader",
        lambda: solve("hucklebuck", Suit.SPADES, [parse_cards("AS"), parse_cards("AH")], leader=0.0, seat=0),
    ),
]


@pytest.mark.single_core
@pytest.mark.parametrize(("name", "call"), FLOATS, ids=[n for n, _ in FLOATS])
def test_a_float_where_an_int_belongs_is_the_same_error_on_both_cores(
    name: str, call: Callable[[], Any]
) -> None:
    seen = set()
    for core in hb.available():
        with hb.using(core):
            seen.add(_error(call))
    assert len(seen) == 1, seen
    _kind, message = seen.pop()
    assert message.startswith(name) and "float" in message


# ------------------------------------------------------------------ item 6
def test_history_grows_without_copying_and_copies_stay_independent() -> None:
    a: History[int] = History([1, 2])
    b = a.plus(3)
    c = a.plus(4)  # a's storage was taken by b: c gets its own
    assert (list(a), list(b), list(c)) == ([1, 2], [1, 2, 3], [1, 2, 4])
    assert b == (1, 2, 3) and b[-1] == 3 and b[0:2] == (1, 2) and len(b) == 3
    with pytest.raises(IndexError):
        b[3]


def test_game_copies_keep_their_own_past_across_hands() -> None:
    g = BuckEmGame(8, seed=2)
    for _ in range(3):
        while g.to_act is not None:
            g.apply(f"{g.to_act} fold")
        g.next_hand()
    c = g.copy()
    while g.to_act is not None:
        g.apply(f"{g.to_act} fold")
    g.next_hand()
    while c.to_act is not None:
        c.apply(f"{c.to_act} stay" if c.to_act == 1 else f"{c.to_act} fold")
    c.next_hand()
    assert len(g.results) == len(c.results) == 4
    assert g.results[:3] == c.results[:3] and g.results[3] != c.results[3]
    assert BuckEmGame.from_json(g.to_json()) == g and BuckEmGame.from_json(c.to_json()) == c
    assert g.events[: len(g.events) // 2] == c.events[: len(g.events) // 2]


# ------------------------------------------------------------------ item 7
def test_one_rule_for_suits_a_suit_or_its_letter() -> None:
    hand = parse_cards("AS KS 2H 3D 4C")
    assert rake_qualifies(hand, Suit.SPADES) is rake_qualifies(hand, "S") is True
    for bad in (3, 2.7, "2", "s", "♠", "SPADES", None, True):
        with pytest.raises(CardError, match=r"^trump"):
            rake_qualifies(hand, bad)  # type: ignore[arg-type]
        with pytest.raises(CardError, match=r"^trump"):
            solve("hucklebuck", bad, [parse_cards("AS"), parse_cards("AH")], leader=0, seat=0)  # type: ignore[arg-type]
        with pytest.raises(CardError, match=r"^trump"):
            hb.trick_winner("hucklebuck", bad, parse_cards("AS KS"))  # type: ignore[arg-type]
    with pytest.raises(CardError, match=r"^trump"):
        hucklebuck_advice(hand, players=4, trump=3, samples=10)  # type: ignore[arg-type]
    assert hucklebuck_advice(hand, players=4, trump="S", samples=10) == hucklebuck_advice(
        hand, players=4, trump=Suit.SPADES, samples=10
    )


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"stayers": [7]}, "stayers"),
        ({"dealer": 99}, "dealer"),
        ({"dealer": -1}, "dealer"),
        ({"seat": 5}, "seat"),
    ],
)
def test_buckem_advice_refuses_seats_outside_the_table(kwargs: dict[str, Any], name: str) -> None:
    with pytest.raises(PlayerCountError, match=rf"^{name}"):
        buckem_advice(HAND, parse_card("9H"), players=5, samples=10, **kwargs)


def test_at_least_counts_from_zero() -> None:
    d = TrickDistribution((1, 2, 3, 0, 0, 4), 10)
    assert d.at_least(-1) == d.at_least(0) == 1.0
    assert d.at_least(5) == 0.4 and d.at_least(6) == 0.0
    with pytest.raises(OptionsError, match=r"^k"):
        d.at_least(1.5)  # type: ignore[arg-type]


def test_hand_arguments_are_cardsets_or_card_iterables_not_text() -> None:
    with pytest.raises(CardError, match=r"^hand"):
        rake_qualifies("AS KS", Suit.SPADES)  # type: ignore[arg-type]
    with pytest.raises(CardError, match=r"^hand"):
        hb.legal_plays("hucklebuck", Suit.SPADES, 5)  # type: ignore[arg-type]
    assert hb.legal_plays("hucklebuck", "S", CardSet(HAND)) == CardSet(HAND)


@pytest.mark.parametrize("text", ["² pass", "١ pass", "1 bid ²", "9" * 5000 + " pass"])
def test_the_adapter_answers_bad_action_numbers_with_bad_request_naming_the_action(text: str) -> None:
    import json

    from hucklebuck.conformance.adapter import answer_line

    deal = HucklebuckGame(3, seed=1).to_dict()["hands"][0]["deal"]
    request = {
        "id": 7,
        "op": "play",
        "game": "hucklebuck",
        "players": 3,
        "hands": [{"deal": deal, "actions": [text]}],
    }
    answer = json.loads(answer_line(json.dumps(request).encode()) or "null")
    assert answer["ok"] is False and answer["id"] == 7
    error = answer["error"]
    assert error["code"] == "bad_request" and (error["hand"], error["action"]) == (0, 0)
    assert "internal error" not in error["message"]


def test_a_long_game_still_pickles_copies_and_restores() -> None:
    import copy
    import pickle

    g = BuckEmGame(8, seed=2)
    for _ in range(50):
        while g.to_act is not None:
            g.apply(f"{g.to_act} fold")
        g.next_hand()
    assert pickle.loads(pickle.dumps(g)) == g
    assert copy.deepcopy(g) == g == g.copy()
    assert BuckEmGame.from_json(g.to_json()) == g
    assert len(g.results) == 50 and g.results[-1].hand == 50
