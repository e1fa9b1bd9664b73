"""Deer Park Euchre ``observe`` cases: what each seat and an onlooker may know with the
turned card, the dealer's pick-up and discard, the second round, the play, and at
the end of a hand and of the game (DEF #84-#91).  See ``observe_common.py`` for
where the answers come from."""

from __future__ import annotations

from .deerpark import dp
from .observe_common import View, answer, cards_in, case_request, cut, observe, observe_error

DP = "deerpark"
#: Seat 0 deals, JH is turned; seat 1 passes, seat 2 orders hearts up, the dealer picks
#: up JH and discards TD (or, in a twin, JH itself); seat 1 leads AH.
HANDS = ["AS KS QS TD AC", "JD AH KH QC TH", "KD QD JS TS QH"]
REQ = dp(HANDS, "JH", ["1 pass", "2 order", "0 discard TD", "1 play AH"])
TWIN = dp(HANDS, "JH", ["1 pass", "2 order", "0 discard JH", "1 play AH"])
KITTY = {c for c in REQ["hands"][0]["deal"]["kitty"][1:]}
S4_TURN = ["S4: the rest of the cards form the kitty, face down, and its top card is turned face up"]
S4_PICK = ["S4: on the first round the dealer picks up the turned card and may discard any card, even it"]


def _hidden(view: View, cards: set[str]) -> None:
    assert not cards & cards_in(view), cards & cards_in(view)


def build() -> None:
    """Add the Deer Park Euchre ``observe`` cases."""
    _turned_and_kitty()
    _pick_up()
    _play_and_end()
    observe_error(DP, "seat-negative", "seat -1 is bad_request", REQ, -1, "bad_request")
    observe_error(DP, "seat-as-float", "a seat given as 1.0 is bad_request", REQ, 1.0, "bad_request")


def _turned_and_kitty() -> None:
    def round_one(v: View) -> None:
        assert v["turned"] == "JH" and v["legal"] == ["2 order", "2 pass"] and v["history"] == ["1 pass"]
        assert len(KITTY) == 4
        _hidden(v, KITTY | set(HANDS[0].split()) | set(HANDS[1].split()))

    observe(
        DP,
        "round-one-turned-card",
        "in round one the seat to act sees the turned card and its choices; the rest of the kitty is hidden",
        S4_TURN,
        [84, 85, 86, 87, 90, 91],
        cut(REQ, 1),
        2,
        round_one,
    )

    def onlooker(v: View) -> None:
        assert v["hand"] is None and v["legal"] == [] and cards_in(v) == {"JH"} and v["history"] == ["1 pass"]

    observe(
        DP,
        "round-one-onlooker",
        "an onlooker sees the turned card and the pass, nothing of the hands or the kitty",
        S4_TURN,
        [85, 86, 87, 89],
        cut(REQ, 1),
        None,
        onlooker,
    )

    round_two = dp(HANDS, "JH", ["1 pass", "2 pass", "0 pass", "1 call S"])

    def turned_down(v: View) -> None:
        assert v["turned"] == "JH" and v["trump"] == "S" and v["maker"] == 1
        _hidden(v, KITTY)

    observe(
        DP,
        "round-two-turned-card-still-known",
        "after the turned card is turned down in round two, everyone still knows what it was",
        ["S4: on the second round any suit can be chosen"],
        [86],
        round_two,
        2,
        turned_down,
    )


def _pick_up() -> None:
    def dealer(v: View) -> None:
        assert v["hand"] == ["AC", "TD", "JH", "QS", "KS", "AS"] and v["hand_sizes"] == [6, 5, 5]
        assert v["legal"] == [f"0 discard {c}" for c in ["AC", "AS", "JH", "KS", "QS", "TD"]]
        _hidden(v, KITTY)

    observe(
        DP,
        "dealer-holds-the-picked-up-card",
        "the dealer who picks up sees the turned card in its own hand of six and chooses its discard",
        S4_PICK,
        [84, 90, 91],
        cut(REQ, 2),
        0,
        dealer,
    )

    def others(v: View) -> None:
        assert v["hand_sizes"] == [6, 5, 5] and v["turned"] == "JH" and v["maker"] == 2
        _hidden(v, {"AS", "KS", "QS", "TD", "AC"} | KITTY)

    observe(
        DP,
        "others-know-the-dealer-took-it",
        "the others know the dealer took the turned card (six cards), nothing more of the dealer's hand",
        S4_PICK,
        [86, 87],
        cut(REQ, 2),
        1,
        others,
    )

    discard_other = answer(cut(REQ, 3), 1)
    discard_turned = answer(cut(TWIN, 3), 1)
    assert discard_other == discard_turned  # whether the dealer kept the turned card is not known

    def hidden_discard(v: View) -> None:
        assert v["history"] == ["1 pass", "2 order", "0 discard 1 card"] and v["hand_sizes"] == [5, 5, 5]
        assert v == discard_turned
        _hidden(v, {"TD", "AS", "KS", "QS", "AC"} | KITTY)

    for slug, req, what in (("discard-hidden", REQ, "TD"), ("discard-of-the-turned-card-hidden", TWIN, "JH")):
        observe(
            DP,
            slug,
            f"the dealer discards {what}: the others see only that one card went, the same view either way",
            S4_PICK,
            [86, 87],
            cut(req, 3),
            1,
            hidden_discard,
        )

    def own_discard(v: View) -> None:
        assert v["history"][-1] == "0 discard JH" and v["hand"] == ["AC", "TD", "QS", "KS", "AS"]

    observe(
        DP,
        "dealer-sees-own-discard",
        "the dealer sees which card it discarded",
        S4_PICK,
        [84],
        cut(TWIN, 3),
        0,
        own_discard,
    )


def _play_and_end() -> None:
    def follow(v: View) -> None:
        assert v["current_trick"] == {"leader": 1, "cards": ["AH"]} and v["hand_sizes"] == [5, 4, 5]
        assert v["legal"] == ["2 play QH"]
        _hidden(v, {"TD", "QC", "JD"} | KITTY)

    observe(
        DP,
        "play-seat-must-follow",
        "the seat to act sees the card led and its legal plays, from its own hand only",
        ["S4: normal rules for Euchre play apply"],
        [86, 90, 91],
        REQ,
        2,
        follow,
    )
    end = case_request(DP, "deerpark/end/reach-zero")

    def game_over(v: View) -> None:
        assert v["game_over"] is True and v["winners"] == [1] and v["phase"] == "game_over"
        kitty = set(end["hands"][0]["deal"]["kitty"][1:])
        assert cards_in(v) <= {c for t in v["tricks"] for c in t["cards"]} | {"AS"}
        _hidden(v, kitty)

    observe(
        DP,
        "end-of-game-onlooker",
        "at the end of the game an onlooker sees the winner, tricks and turned card; the kitty stays hidden",
        ["S4: the first person to 0 or 50 points wins"],
        [87, 89],
        end,
        None,
        game_over,
    )

    def seat_end(v: View) -> None:
        assert v["game_over"] is True and v["hand"] == [] and v["legal"] == [] and v["to_act"] is None

    observe(
        DP,
        "end-of-game-seat",
        "at the end of the game a seat has nothing left to play and sees no hidden card",
        ["S4: the first person to 0 or 50 points wins"],
        [84, 87],
        end,
        2,
        seat_end,
    )
