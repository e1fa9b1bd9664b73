"""Hucklebuck cases on deciding boundaries (the target under bidder_first, everyone
out, the hole under any_bid, a tie at the top under each tie_break with the
bidder in and out of the tie, a missed moon with no trick or one) and hands
that end without play."""

from __future__ import annotations

from .common import add
from .hucklebuck import BID3_ALL_STAY, HB, HB22, HB22_PLAY, HEARTS_RUN, MADE, NO_TRICK, SUITED, hb


def build() -> None:
    """Add the cases of this file."""
    _deciding()
    _no_play()
    _ties()
    _missed_moons()


def _no_play() -> None:
    """Hands that end without play report no tricks (DEF #4, #5)."""
    add(
        HB,
        "scoring",
        "all-pass-no-tricks",
        "an all-pass hand has no trump, no bidder, no active seats and no tricks",
        ["S0: if everyone passes, the dealer scores 5"],
        [4],
        hb(SUITED, ["1 pass", "2 pass", "0 pass"]),
        {
            "hands": [
                {
                    "complete": True,
                    "trump": None,
                    "bidder": None,
                    "bid": None,
                    "active": [],
                    "tricks": [],
                    "tricks_won": [0, 0, 0],
                    "delta": [5, 0, 0],
                }
            ]
        },
    )
    add(
        HB,
        "scoring",
        "lone-bidder-no-tricks",
        "a lone bidder's award is scored without play: no active seats and no tricks",
        ["S2: if everyone else drops, the bidder scores 5"],
        [5],
        hb(SUITED, ["1 bid 2", "2 pass", "0 pass", "1 trump S", "2 drop", "0 drop"]),
        {
            "hands": [
                {
                    "complete": True,
                    "trump": "S",
                    "bidder": 1,
                    "bid": 2,
                    "active": [],
                    "tricks": [],
                    "tricks_won": [0, 0, 0],
                    "delta": [0, 5, 0],
                }
            ]
        },
    )


def _deciding() -> None:
    """Cases on the deciding boundaries of the target, out and the hole (DEF #13, #16, #17)."""
    bf = ["S0: the first to 15 wins"]
    add(
        HB,
        "end",
        "bidder-first-lone-non-bidder",
        "tie_break=bidder_first: the bidder is short of 15, so the one non-bidder at 15 wins",
        bf,
        [17, 34],
        hb(HB22, MADE, start={"scores": [12, 0, 0]}, options={"tie_break": "bidder_first"}),
        {"hands": [{"scores": [15, 2, 0]}], "final": {"game_over": True, "winners": [0]}},
        deciding=["hucklebuck/def-17-bidder-first-lone-non-bidder"],
    )
    add(
        HB,
        "end",
        "bidder-first-non-bidders-play-on",
        "tie_break=bidder_first: two non-bidders past the target and the bidder short: play goes on",
        bf,
        [17],
        hb(HB22, MADE, start={"scores": [13, 0, 15]}, options={"tie_break": "bidder_first"}),
        {"hands": [{"scores": [16, 2, 15]}], "final": {"game_over": False, "winners": []}},
        deciding=["hucklebuck/def-17-bidder-first-non-bidders-play-on"],
    )
    add(
        HB,
        "end",
        "non-bidders-highest-wins",
        "by default the higher of two non-bidders past the target wins (compare bidder_first)",
        bf,
        [17],
        hb(HB22, MADE, start={"scores": [13, 0, 15]}),
        {"hands": [{"scores": [16, 2, 15]}], "final": {"game_over": True, "winners": [0]}},
    )
    out = ["S0: a player who scores -25 or lower is out of the game"]
    add(
        HB,
        "end",
        "everyone-out-played-hand",
        "everyone goes out in the same played hand: the highest score wins",
        out,
        [16, 7, 10],
        hb(HB22, [*BID3_ALL_STAY, *HB22_PLAY], start={"scores": [-40, -40, -40]}),
        {
            "hands": [{"delta": [3, -5, -5], "scores": [-37, -45, -45], "out": [0, 1, 2]}],
            "final": {"game_over": True, "winners": [0]},
        },
        deciding=["hucklebuck/def-16-everyone-out"],
    )
    add(
        HB,
        "end",
        "everyone-out-after-all-pass",
        "everyone out after an all-pass hand: the highest score wins, not the dealer who scored",
        [*out, "S0: if everyone passes, the dealer scores 5"],
        [16, 4],
        hb(SUITED, ["1 pass", "2 pass", "0 pass"], start={"scores": [-35, -26, -28]}),
        {
            "hands": [{"delta": [5, 0, 0], "scores": [-30, -26, -28], "out": [0, 1, 2]}],
            "final": {"game_over": True, "winners": [1]},
        },
        deciding=["hucklebuck/def-16-everyone-out"],
    )
    hole = ["S0: a player in the hole whose bid succeeds returns to zero"]
    for slug, prior, delta in (("at-zero", 0, 2), ("at-minus-one", -1, 1)):
        add(
            HB,
            "scoring",
            f"variant-any-bid-{slug}",
            f"in_the_hole_reset_applies_to=any_bid, bidder on {prior} makes a bid of 2 with 2 tricks: "
            + ("0 is not in the hole, +2" if prior == 0 else "back to 0"),
            hole,
            [13, 9],
            hb(
                HB22,
                MADE,
                start={"scores": [0, prior, 0]},
                options={"in_the_hole_reset_applies_to": "any_bid"},
            ),
            {"hands": [{"tricks_won": [3, 2, 0], "delta": [3, delta, 0], "scores": [3, prior + delta, 0]}]},
            deciding=[
                "hucklebuck/def-13-any-bid-at-exactly-zero"
                if prior == 0
                else "hucklebuck/def-13-any-bid-from-the-hole"
            ],
        )


#: Five players, dealer 0: seat 1 bids 2 and names spades, seat 4 drops, the others stay.
#: Seat 1 (the bidder) takes no trick (-5), seats 2 and 3 take two each (+2), seat 0 one (+1).
TIE5 = ["AH KH 2D 3D 4C", "2H 3H 4H 2C 3C", "AS KS 4D 5D 6D", "QS JS 7D 8D TC", "AC KC QC JC 9H"]
TIE5_ACTIONS = [
    *("1 bid 2", "2 pass", "3 pass", "4 pass", "0 pass", "1 trump S"),
    *("2 stay 0", "3 stay 0", "4 drop", "0 stay 0", "1 stay 0"),
    *("1 play 2H", "2 play 4D", "3 play TC", "0 play AH"),  # AH: seat 0
    *("0 play KH", "1 play 3H", "2 play AS", "3 play 7D"),  # AS: seat 2
    *("2 play KS", "3 play QS", "0 play 4C", "1 play 4H"),  # KS: seat 2
    *("2 play 5D", "3 play 8D", "0 play 2D", "1 play 2C"),  # 8D: seat 3
    *("3 play JS", "0 play 3D", "1 play 3C", "2 play 6D"),  # JS: seat 3
]


def _ties() -> None:
    """A tie at the top past the target under each tie_break, with the hand's bidder out of
    the tie (far below the target, or at the target below the tie) and in it (DEF #17)."""
    src = ["S0: game is 15 points"]  # the tie itself is DEF #17
    delta = [1, -5, 2, 2, 0]
    on = "play goes on"
    for slug, start, words, finals in (
        (
            "bidder-far-below",
            [0, 4, 13, 13, -5],
            "the bidder on -1, two non-bidders tied on 15",
            {
                "highest_then_bidder": ([], "hucklebuck/def-17-tie-without-bidder", on),
                "bidder_first": ([], "hucklebuck/def-17-bidder-first-non-bidders-play-on", on),
                "shared": ([2, 3], "hucklebuck.tie_break=shared", "the two tied share the win"),
            },
        ),
        (
            "bidder-below-the-tie",
            [0, 20, 14, 14, -5],
            "the bidder on 15, two non-bidders tied on 16",
            {
                "highest_then_bidder": ([], "hucklebuck/def-17-tie-without-bidder", on),
                "bidder_first": ([1], "hucklebuck.tie_break=bidder_first", "the bidder wins"),
                "shared": ([2, 3], "hucklebuck.tie_break=shared", "the two tied share the win"),
            },
        ),
        (
            "bidder-in-the-tie",
            [0, 20, 13, 13, -5],
            "the bidder and two non-bidders tied on 15",
            {
                "highest_then_bidder": ([1], "hucklebuck/def-17-tie-bidder-wins", "the bidder wins"),
                "bidder_first": ([1], None, "the bidder wins, as by default"),
                "shared": ([1, 2, 3], "hucklebuck.tie_break=shared", "the three tied share the win"),
            },
        ),
    ):
        scores = [a + d for a, d in zip(start, delta, strict=True)]
        for tb, (winners, deciding, outcome) in finals.items():
            add(
                HB,
                "end",
                f"tie-{slug}-{tb.replace('_', '-')}",
                f"tie_break={tb}: the hand ends {scores}, {words}: {outcome}",
                src,
                [17],
                hb(TIE5, TIE5_ACTIONS, start={"scores": start}, options={"tie_break": tb}),
                {
                    "hands": [{"bidder": 1, "tricks_won": [1, 0, 2, 2, 0], "delta": delta, "scores": scores}],
                    "final": {"game_over": bool(winners), "winners": winners},
                },
                deciding=[deciding] if deciding else None,
            )
    add(
        HB,
        "end",
        "tie-bidder-far-below-default",
        "by default a hand ending [1, -1, 15, 15, -5] with the bidder on -1 plays on: the bidder "
        "is not in the tie at the top",
        src,
        [17],
        hb(TIE5, TIE5_ACTIONS, start={"scores": [0, 4, 13, 13, -5]}),
        {
            "hands": [{"bidder": 1, "delta": delta, "scores": [1, -1, 15, 15, -5]}],
            "final": {"game_over": False, "winners": []},
        },
        deciding=["hucklebuck/def-17-tie-without-bidder"],
    )
    add(
        HB,
        "end",
        "tie-lone-bidder-far-below",
        "everyone drops against a bidder on -6, who scores 5: two others already tied on 15 play on",
        src,
        [17, 5],
        hb(
            TIE5,
            [
                *("1 bid 2", "2 pass", "3 pass", "4 pass", "0 pass", "1 trump S"),
                *("2 drop", "3 drop", "4 drop", "0 drop"),
            ],
            start={"scores": [1, -6, 15, 15, -5]},
        ),
        {
            "hands": [{"bidder": 1, "active": [], "delta": [0, 5, 0, 0, 0], "scores": [1, -1, 15, 15, -5]}],
            "final": {"game_over": False, "winners": []},
        },
        deciding=["hucklebuck/def-17-tie-without-bidder"],
    )


def _missed_moons() -> None:
    """A missed moon costs 15 flat, with no trick as with one (DEF #14)."""
    src = ["S0: the penalty for failing a moon is -15 points"]
    add(
        HB,
        "moon",
        "missed-with-no-trick-flat",
        "a moon bidder who takes no trick loses 15, not 20, without bidder_zero_trick_penalty_stacks",
        src,
        [14],
        hb(NO_TRICK, ["1 bid 5", "1 trump H", "2 stay 0", "0 stay 0", "1 stay 0", *HEARTS_RUN]),
        {"hands": [{"tricks_won": [0, 0, 5], "delta": [-5, -15, 5]}]},
    )
    one = ["AD KD QD JD TD", "AS 2C 3C 4C 5C", "AC KC QC JC TC"]
    add(
        HB,
        "moon",
        "missed-with-one-trick",
        "a moon bidder who takes one trick loses 15",
        src,
        [14],
        hb(
            one,
            [
                *("1 bid 5", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0"),
                *("1 play AS", "2 play TC", "0 play TD", "1 play 2C", "2 play AC", "0 play JD"),
                *("2 play KC", "0 play QD", "1 play 3C", "2 play QC", "0 play KD", "1 play 4C"),
                *("2 play JC", "0 play AD", "1 play 5C"),
            ],
        ),
        {"hands": [{"tricks_won": [0, 1, 4], "delta": [-5, -15, 4]}]},
    )
