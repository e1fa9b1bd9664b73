"""Hucklebuck ``observe`` cases: what each seat and an onlooker may know in the
auction, the declaring, the exchange, the play, and at the end of a hand and of
the game (DEF #84-#91).  See ``observe_common.py`` for where the answers come from."""

from __future__ import annotations

from .hucklebuck import hb
from .observe_common import View, cards_in, case_request, cut, observe, observe_error

HB = "hucklebuck"
#: Seat 0 deals; seat 2 wins the auction with 3 and names hearts; seat 0 drops;
#: seat 3 exchanges JC 7D for 2H 3H, seat 1 exchanges 3C for 4H, seat 2 4S 5S for 5H 6H.
HANDS = ["AD KD QD JD TD", "AS KS 9S 2C 3C", "AH KH QH 4S 5S", "AC KC QC JC 7D"]
ACTIONS = [
    "1 bid 2",
    "2 bid 3",
    "3 pass",
    "0 pass",
    "1 pass",
    "2 trump H",
    "3 stay 2",
    "0 drop",
    "1 stay 1",
    "2 stay 2",
    "3 discard JC 7D",
    "1 discard 3C",
    "2 discard 4S 5S",
    "2 play AH",
    "3 play 2H",
    "1 play 4H",
    "2 play KH",
    "3 play 3H",
    "1 play 2C",
    "2 play QH",
    "3 play QC",
    "1 play 9S",
    "2 play 6H",
    "3 play KC",
    "1 play KS",
    "2 play 5H",
    "3 play AC",
    "1 play AS",
]
REQ = hb(HANDS, ACTIONS, stock_top="2H 3H 4H 5H 6H 7H")
DROPPED = {"AD", "KD", "QD", "JD", "TD"}
S0 = ["S0: players who stay state the number of cards they wish to exchange"]


def _hidden(view: View, cards: set[str]) -> None:
    assert not cards & cards_in(view), cards & cards_in(view)


def build() -> None:
    """Add the Hucklebuck ``observe`` cases."""

    def auction_seat(v: View) -> None:
        assert v["hand"] == ["JC", "QC", "KC", "AC", "7D"] and v["to_act"] == 3
        assert v["legal"] == ["3 bid 4", "3 bid 5", "3 pass"] and v["history"] == ["1 bid 2", "2 bid 3"]
        assert v["bidder"] == 2 and v["bid"] == 3 and v["hand_sizes"] == [5, 5, 5, 5]
        _hidden(v, {c for h in HANDS[:3] for c in h.split()})

    observe(
        HB,
        "auction-seat-to-act",
        "in the auction the seat to act sees its own hand, the bids so far and its legal bids; no other hand",
        ["S0: players bid in clockwise order; the minimum bid is two"],
        [84, 85, 90, 91],
        cut(REQ, 2),
        3,
        auction_seat,
    )

    def auction_onlooker(v: View) -> None:
        assert v["seat"] is None and v["hand"] is None and v["legal"] == [] and v["to_act"] == 3
        assert v["history"] == ["1 bid 2", "2 bid 3"] and not cards_in(v)

    observe(
        HB,
        "auction-onlooker",
        "an onlooker in the auction sees the bids and whose turn it is, and no card at all",
        ["S0: players bid in clockwise order; the minimum bid is two"],
        [85, 89],
        cut(REQ, 2),
        None,
        auction_onlooker,
    )

    def after_drop(v: View) -> None:
        assert v["history"][-2:] == ["3 stay 2", "0 drop"] and v["hand_sizes"] == [0, 5, 5, 5]
        assert v["declarations"] == [{"seat": 3, "exchange": 2}, {"seat": 0, "exchange": None}]
        assert v["legal"] == ["1 drop"] + [f"1 stay {k}" for k in range(6)]
        _hidden(v, DROPPED)

    observe(
        HB,
        "declare-after-a-drop",
        "after seat 0 drops, seat 1 sees the drop and seat 3's 'stay 2' but never the dropped hand",
        S0,
        [85, 87, 90],
        cut(REQ, 8),
        1,
        after_drop,
    )

    def exchange_other(v: View) -> None:
        assert v["history"][-1] == "3 discard 2 cards" and v["stock_size"] == 30
        assert v["hand"] == ["2C", "3C", "9S", "KS", "AS"]
        _hidden(v, {"JC", "7D", "2H", "3H"} | DROPPED)

    observe(
        HB,
        "exchange-other-seat-discard",
        "another seat's exchange shows only as its count: not the cards discarded, not the cards drawn",
        S0,
        [85, 87],
        cut(REQ, 11),
        1,
        exchange_other,
    )

    def exchange_own(v: View) -> None:
        assert v["history"][-1] == "3 discard JC 7D" and v["hand"] == ["QC", "KC", "AC", "2H", "3H"]
        assert v["legal"] == [] and v["to_act"] == 1
        _hidden(v, DROPPED | {"3C", "4H"})

    observe(
        HB,
        "exchange-own-discard",
        "a seat sees its own discards and the cards it drew (2H 3H from the top of the stock)",
        S0,
        [84, 87],
        cut(REQ, 11),
        3,
        exchange_own,
    )

    def play_onlooker(v: View) -> None:
        assert v["phase"] == "play" and v["current_trick"] == {"leader": 2, "cards": ["AH", "2H"]}
        assert v["history"][10:13] == ["3 discard 2 cards", "1 discard 1 cards", "2 discard 2 cards"]
        assert cards_in(v) == {"AH", "2H"}

    observe(
        HB,
        "play-onlooker",
        "an onlooker in the play sees the cards played and the exchange counts, nothing else",
        ["S0: the highest bidder leads to the first trick"],
        [86, 87, 89],
        cut(REQ, 15),
        None,
        play_onlooker,
    )

    def play_seat(v: View) -> None:
        assert v["to_act"] == 1 and v["hand"] == ["2C", "4H", "9S", "KS", "AS"]
        assert v["legal"] == ["1 play 4H"]  # must follow hearts with its one heart
        _hidden(v, DROPPED | {"JC", "7D", "4S", "5S", "3H", "5H", "6H"})

    observe(
        HB,
        "play-seat-must-follow",
        "the seat to act sees the trick so far and its legal plays, worked out from its own hand",
        ["S0: players must follow suit"],
        [84, 86, 90, 91],
        cut(REQ, 15),
        1,
        play_seat,
    )

    def hand_over(v: View) -> None:
        assert v["phase"] == "hand_over" and v["hand"] == [] and v["legal"] == [] and v["to_act"] is None
        assert len(v["tricks"]) == 5 and v["scores"] == [0, -5, 5, -5]
        assert "3 discard JC 7D" in v["history"] and "1 discard 1 cards" in v["history"]
        _hidden(v, DROPPED | {"4S", "5S", "3C", "7H"})

    observe(
        HB,
        "end-of-hand-nothing-turned-up",
        "at the end of a hand nothing is turned up: the dropped hand and the discards stay hidden",
        ["S0: active players score 1 per trick or -5 for none; a bidder who fails loses 5"],
        [87],
        REQ,
        3,
        hand_over,
    )

    game_end = dict(REQ, start={"scores": [0, 0, 12, 0]})

    def game_over(v: View) -> None:
        assert v["phase"] == "game_over" and v["game_over"] is True and v["winners"] == [2]
        assert v["scores"] == [0, -5, 17, -5]
        _hidden(v, DROPPED | {"JC", "7D", "4S", "5S", "3C"})

    observe(
        HB,
        "end-of-game-nothing-turned-up",
        "at the end of the game an onlooker learns the winner and the scores; no hidden card is shown",
        ["S0: game is 15 points"],
        [87, 89],
        game_end,
        None,
        game_over,
    )

    def moon_end(v: View) -> None:
        assert v["game_over"] is True and v["hand"] == []

    observe(
        HB,
        "end-of-game-seat",
        "at the end of the game a seat sees what is public and its own (empty) hand",
        ["S0: game is 15 points"],
        [84, 87],
        case_request(HB, "hucklebuck/end/target-exactly"),
        2,
        moon_end,
    )
    observe_error(HB, "no-seat", "an observe without 'seat' is bad_request", REQ, "missing", "bad_request")
    observe_error(HB, "seat-out-of-range", "seat 4 of four players is bad_request", REQ, 4, "bad_request")
    observe_error(HB, "seat-as-text", "a seat given as text is bad_request", REQ, "1", "bad_request")
    illegal = dict(REQ, hands=[{"deal": REQ["hands"][0]["deal"], "actions": ["2 bid 2"]}])
    refused = "an illegal action is refused as in play"
    observe_error(HB, "illegal-action", refused, illegal, 1, "illegal_action", hand=0, action=0)
