"""Hucklebuck cases: the pack, tricks, legal plays, the solver, the auction and naming trump."""

from __future__ import annotations

from typing import Any

from reference import full_pack, sort_cards

from .common import add, bad_card_cases, err, legal_cases, rest_of, solve_cases, trick_cases

HB = "hucklebuck"
SUITED = ["AD KD QD JD TD", "AS KS QS JS TS", "AH KH QH JH TH"]
HB22 = ["AD KD QD JD AC", "AS KS 2C 3C 4C", "AH KH QH JH TH"]
FOUR = ["AD KD QD JD TD", "AS KS QS JS TS", "AH KH QH JH TH", "AC KC QC JC TC"]
SPADES_RUN = [
    "1 play AS",
    "2 play TH",
    "0 play TD",
    "1 play KS",
    "2 play JH",
    "0 play JD",
    "1 play QS",
    "2 play QH",
    "0 play QD",
    "1 play JS",
    "2 play KH",
    "0 play KD",
    "1 play TS",
    "2 play AH",
    "0 play AD",
]
HB22_PLAY = [
    "1 play AS",
    "2 play TH",
    "0 play JD",
    "1 play KS",
    "2 play JH",
    "0 play QD",
    "1 play 2C",
    "2 play QH",
    "0 play AC",
    "0 play AD",
    "1 play 3C",
    "2 play KH",
    "0 play KD",
    "1 play 4C",
    "2 play AH",
]
MADE = [
    "1 bid 2",
    "2 pass",
    "0 pass",
    "1 trump S",
    "2 drop",
    "0 stay 0",
    "1 stay 0",
    "1 play AS",
    "0 play JD",
    "1 play KS",
    "0 play QD",
    "1 play 2C",
    "0 play AC",
    "0 play AD",
    "1 play 3C",
    "0 play KD",
    "1 play 4C",
]
HEARTS_RUN = [
    "1 play 2C",
    "2 play TH",
    "0 play TS",
    "2 play JH",
    "0 play JS",
    "1 play 3C",
    "2 play QH",
    "0 play QS",
    "1 play 4C",
    "2 play KH",
    "0 play KS",
    "1 play 5C",
    "2 play AH",
    "0 play AS",
    "1 play 6C",
]
NO_TRICK = ["AS KS QS JS TS", "2C 3C 4C 5C 6C", "AH KH QH JH TH"]
#: Seat 1 bids 3 and names spades; everyone stays, discarding nothing.
BID3_ALL_STAY = ["1 bid 3", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0"]
TRUMPS = ["1 trump C", "1 trump D", "1 trump H", "1 trump S"]


def hb_deal(hands: list[str], stock_top: str = "", restock: list[list[str]] | None = None) -> dict[str, Any]:
    hs = [h.split() for h in hands]
    top = stock_top.split()
    deal: dict[str, Any] = {
        "hands": hs,
        "stock": top + rest_of(full_pack(), [c for h in hs for c in h] + top),
    }
    if restock is not None:
        deal["restock"] = restock
    return deal


def hb(
    hands: list[str],
    actions: list[str],
    *,
    options: dict[str, Any] | None = None,
    start: dict[str, Any] | None = None,
    stock_top: str = "",
    restock: list[list[str]] | None = None,
    more: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "op": "play",
        "game": HB,
        "players": len(hands),
        "options": options or {},
        "start": start or {},
        "hands": [{"deal": hb_deal(hands, stock_top, restock), "actions": actions}, *(more or [])],
    }


def stays(seat: int) -> list[str]:
    return sorted([f"{seat} drop"] + [f"{seat} stay {k}" for k in range(6)])


def build() -> None:
    """Add the cases of this file."""
    s0p, s2p = "S0: 3 to 7 players, a 52-card pack", "S2: three to seven players, 52 cards"
    for n in range(3, 8):
        add(
            HB,
            "deck",
            f"players-{n}",
            f"{n} players use the whole 52-card pack",
            [s0p, s2p],
            [],
            {"op": "deck", "game": HB, "players": n, "options": {}},
            sort_cards(full_pack()),
        )
    for n in (2, 8):
        add(
            HB,
            "deck",
            f"players-{n}-rejected",
            f"{n} players is outside 3-7",
            [s0p],
            [],
            {"op": "deck", "game": HB, "players": n, "options": {}},
            err("bad_request"),
        )
    tsrc = ["S2: the highest trump wins, otherwise the highest card of the suit led"]
    trick_cases(HB, 45, 101, tsrc, [25])
    for slug, trump, plays, w in [
        ("no-bowers", "H", ["AH", "JD", "JH"], 0),
        ("off-suit-ace-loses", "S", ["2H", "AD", "3H"], 2),
        ("low-trump-beats-ace", "S", ["AH", "2S"], 1),
        ("trump-led", "C", ["5C", "AD", "6C"], 2),
    ]:
        add(
            HB,
            "tricks",
            slug,
            f"{' '.join(plays)} with {trump} trump: card {w} wins",
            tsrc,
            [],
            {"op": "trick_winner", "game": HB, "trump": trump, "plays": plays},
            w,
        )
    lsrc = ["S2: follow suit if you can; if you can't, play anything", "S0: players must follow suit"]
    legal_cases(HB, 35, 202, lsrc, [25])
    solve_cases(HB, 12, 707)
    bad_card_cases(HB)

    a_src = ["S2: bidding starts on the dealer's left", "S0: the minimum bid is two"]
    add(
        HB,
        "auction",
        "eldest-opens",
        "the dealer's left opens the auction with pass or a bid of 2 to 5",
        a_src,
        [24],
        hb(SUITED, []),
        {
            "hands": [
                {
                    "complete": False,
                    "to_act": 1,
                    "bidder": None,
                    "bid": None,
                    "trump": None,
                    "legal": ["1 bid 2", "1 bid 3", "1 bid 4", "1 bid 5", "1 pass"],
                }
            ],
            "final": {"game_over": False, "winners": [], "dealer": 0},
        },
    )
    add(
        HB,
        "auction",
        "eldest-opens-dealer-3",
        "with seat 3 dealing, seat 0 opens",
        a_src,
        [24],
        hb(FOUR, [], start={"dealer": 3}),
        {"hands": [{"complete": False, "to_act": 0, "dealer": 3}]},
    )
    add(
        HB,
        "auction",
        "bid-one-illegal",
        "a bid of 1 is below the minimum",
        a_src,
        [],
        hb(SUITED, ["1 bid 1"]),
        err("illegal_action", hand=0, action=0),
    )
    add(
        HB,
        "auction",
        "bid-six-illegal",
        "nobody can bid more than 5 tricks",
        ["S2: a bid of all five is the top"],
        [],
        hb(SUITED, ["1 bid 6"]),
        err("illegal_action", hand=0, action=0),
    )
    add(
        HB,
        "auction",
        "must-overcall",
        "an equal bid does not overcall",
        ["S0: players must overcall"],
        [],
        hb(SUITED, ["1 bid 3", "2 bid 3"]),
        err("illegal_action", hand=0, action=1),
    )
    add(
        HB,
        "auction",
        "overcall-choices",
        "after a bid of 3 the next player may pass, bid 4 or 5",
        ["S0: players must overcall the highest previous bid"],
        [],
        hb(SUITED, ["1 bid 3"]),
        {"hands": [{"to_act": 2, "legal": ["2 bid 4", "2 bid 5", "2 pass"]}]},
    )
    add(
        HB,
        "auction",
        "second-circuit",
        "the bidding goes round again for those who have not passed",
        ["S0: there can be more than one round of bidding"],
        [21],
        hb(FOUR, ["1 bid 2", "2 bid 3", "3 pass", "0 pass"]),
        {"hands": [{"to_act": 1, "legal": ["1 bid 4", "1 bid 5", "1 pass"]}]},
    )
    add(
        HB,
        "auction",
        "pass-is-final",
        "a player who passed is skipped on the next circuit",
        ["S2: bidding goes round until everyone but one has passed"],
        [21],
        hb(FOUR, ["1 bid 2", "2 bid 3", "3 pass", "0 pass", "1 bid 4", "3 bid 5"]),
        err("illegal_action", hand=0, action=5),
    )
    add(
        HB,
        "auction",
        "ends-when-all-but-one-pass",
        "the auction ends when all others have passed",
        ["S2: bidding goes round until everyone but one has passed"],
        [21],
        hb(FOUR, ["1 bid 2", "2 bid 3", "3 pass", "0 pass", "1 bid 4", "2 pass"]),
        {"hands": [{"to_act": 1, "bidder": 1, "bid": 4, "legal": TRUMPS}]},
    )
    add(
        HB,
        "auction",
        "moon-ends-auction",
        "a bid of 5 ends the auction at once",
        ["S2: a bid of all five ... ends the bidding at once"],
        [32],
        hb(SUITED, ["1 bid 5"]),
        {"hands": [{"to_act": 1, "bid": 5, "bidder": 1, "legal": TRUMPS}]},
    )
    add(
        HB,
        "auction",
        "all-pass-dealer-scores-5",
        "if all pass the dealer scores 5 without play",
        ["S0: if all drop out during the bidding the dealer scores 5 without playing"],
        [4, 33],
        hb(SUITED, ["1 pass", "2 pass", "0 pass"]),
        {
            "hands": [
                {
                    "complete": True,
                    "bidder": None,
                    "bid": None,
                    "trump": None,
                    "active": [],
                    "tricks": [],
                    "delta": [5, 0, 0],
                    "scores": [5, 0, 0],
                    "out": [],
                    "restock": [],
                }
            ],
            "final": {"game_over": False, "winners": [], "dealer": 1, "scores": [5, 0, 0], "out": []},
        },
    )
    add(
        HB,
        "auction",
        "variant-dealer-must-bid",
        "dealer_must_bid: the dealer may only bid when nobody has",
        ["S2: if everyone passes, the dealer must bid"],
        [4],
        hb(SUITED, ["1 pass", "2 pass"], options={"all_pass": "dealer_must_bid"}),
        {"hands": [{"to_act": 0, "legal": ["0 bid 2", "0 bid 3", "0 bid 4", "0 bid 5"]}]},
    )
    add(
        HB,
        "auction",
        "variant-dealer-must-bid-no-pass",
        "dealer_must_bid: the dealer's pass is illegal",
        ["S2: if everyone passes, the dealer must bid"],
        [4],
        hb(SUITED, ["1 pass", "2 pass", "0 pass"], options={"all_pass": "dealer_must_bid"}),
        err("illegal_action", hand=0, action=2),
    )
    add(
        HB,
        "auction",
        "variant-reentry",
        "auction_reentry: a player who passed may bid again",
        ["S0: more than one round of bidding"],
        [21],
        hb(SUITED, ["1 pass", "2 bid 2", "0 pass"], options={"auction_reentry": True}),
        {"hands": [{"to_act": 1, "legal": ["1 bid 3", "1 bid 4", "1 bid 5", "1 pass"]}]},
    )
    add(
        HB,
        "auction",
        "variant-reentry-circuit",
        "auction_reentry: a full circuit without a bid ends it",
        ["S0: more than one round of bidding"],
        [21],
        hb(
            SUITED,
            ["1 pass", "2 bid 2", "0 pass", "1 bid 3", "2 pass", "0 pass"],
            options={"auction_reentry": True},
        ),
        {"hands": [{"to_act": 1, "bidder": 1, "bid": 3, "legal": TRUMPS}]},
    )
    add(
        HB,
        "auction",
        "variant-reentry-all-pass",
        "auction_reentry: one circuit of passes is an all-pass",
        ["S0: the dealer scores 5 if all drop out"],
        [4, 21],
        hb(SUITED, ["1 pass", "2 pass", "0 pass"], options={"auction_reentry": True}),
        {"hands": [{"complete": True, "delta": [5, 0, 0]}]},
    )

    t_src = ["S0: the highest bidder declares trumps", "S2: the high bidder names trump"]
    add(
        HB,
        "trump",
        "bidder-names-any-suit",
        "the bidder names trump; then stay/drop starts at the bidder's left",
        t_src,
        [30],
        hb(SUITED, ["1 bid 2", "2 pass", "0 pass", "1 trump S"]),
        {"hands": [{"trump": "S", "to_act": 2, "legal": stays(2)}]},
    )
    add(
        HB,
        "trump",
        "out-of-turn",
        "only the bidder names trump",
        t_src,
        [],
        hb(SUITED, ["1 bid 2", "2 pass", "0 pass", "2 trump H"]),
        err("illegal_action", hand=0, action=3),
    )
    add(
        HB,
        "trump",
        "wrong-phase",
        "naming trump during the auction is illegal",
        t_src,
        [],
        hb(SUITED, ["1 trump S"]),
        err("illegal_action", hand=0, action=0),
    )
