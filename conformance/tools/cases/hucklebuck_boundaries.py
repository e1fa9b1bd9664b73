"""Hucklebuck cases on deciding boundaries (the target under bidder_first, everyone
out, the hole under any_bid) and hands that end without play."""

from __future__ import annotations

from .common import add
from .hucklebuck import BID3_ALL_STAY, HB, HB22, HB22_PLAY, MADE, SUITED, hb


def build() -> None:
    """Add the cases of this file."""
    _deciding()
    _no_play()


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
