"""Hucklebuck cases: staying and dropping, the exchange and play."""

from __future__ import annotations

import itertools

from reference import sort_cards

from .common import add, err, play_legal
from .hucklebuck import BID3_ALL_STAY, FOUR, HB, HB22, SUITED, hb, stays


def build() -> None:
    """Add the cases of this file."""
    d_src = [
        "S0: beginning left of the highest bidder, players stay (stating 0-5 cards) or drop",
        "S2: the bidder swaps last and cannot drop",
    ]
    add(
        HB,
        "declare",
        "bidder-last-and-cannot-drop",
        "the bidder decides last and may only stay",
        d_src,
        [26, 28],
        hb(FOUR, ["1 pass", "2 bid 2", "3 pass", "0 pass", "2 trump H", "3 stay 0", "0 stay 0", "1 stay 0"]),
        {"hands": [{"to_act": 2, "active": [0, 1, 3], "legal": [f"2 stay {k}" for k in range(6)]}]},
    )
    add(
        HB,
        "declare",
        "bidder-drop-illegal",
        "a drop by the bidder is illegal",
        d_src,
        [26],
        hb(SUITED, ["1 bid 2", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0", "1 drop"]),
        err("illegal_action", hand=0, action=6),
    )
    add(
        HB,
        "declare",
        "stay-six-illegal",
        "a stay with 6 cards to exchange is illegal",
        d_src,
        [29],
        hb(SUITED, ["1 bid 2", "2 pass", "0 pass", "1 trump S", "2 stay 6"]),
        err("illegal_action", hand=0, action=4),
    )
    add(
        HB,
        "declare",
        "everyone-else-drops",
        "the bidder scores 5 without play when all others drop",
        ["S2: if everyone else drops, the bidder scores 5"],
        [5],
        hb(SUITED, ["1 bid 3", "2 pass", "0 pass", "1 trump S", "2 drop", "0 drop"]),
        {
            "hands": [
                {
                    "complete": True,
                    "bidder": 1,
                    "bid": 3,
                    "trump": "S",
                    "active": [],
                    "tricks": [],
                    "delta": [0, 5, 0],
                    "scores": [0, 5, 0],
                }
            ]
        },
    )
    add(
        HB,
        "declare",
        "lone-moon-bidder-scores-5",
        "a moon bidder left alone scores 5",
        ["S2: the bidder scores 5"],
        [6],
        hb(SUITED, ["1 bid 5", "1 trump S", "2 drop", "0 drop"], start={"scores": [0, 3, 0]}),
        {"hands": [{"delta": [0, 5, 0]}], "final": {"game_over": False}},
    )
    add(
        HB,
        "declare",
        "variant-lone-moon-wins",
        "lone_moon_bidder=wins_game: the lone moon bidder wins outright",
        ["S2: shooting the moon wins the game"],
        [6],
        hb(
            SUITED,
            ["1 bid 5", "1 trump S", "2 drop", "0 drop"],
            start={"scores": [0, -10, 0]},
            options={"lone_moon_bidder": "wins_game"},
        ),
        {"final": {"game_over": True, "winners": [1]}},
    )
    add(
        HB,
        "declare",
        "pass-then-stay",
        "a player who passed in the auction may stay in",
        d_src,
        [28],
        hb(SUITED, ["1 bid 2", "2 pass", "0 pass", "1 trump S", "2 stay 1"]),
        {"hands": [{"to_act": 0, "active": [2], "legal": stays(0)}]},
    )

    x_src = ["S0: each active player discards the number stated and the dealer deals as many"]
    ex = [
        "1 pass",
        "2 bid 2",
        "3 pass",
        "0 pass",
        "2 trump H",
        "3 stay 2",
        "0 stay 0",
        "1 stay 1",
        "2 stay 3",
    ]
    top = "2C 3C 4C 5C 6C 7C 8C 9C"
    seat3 = FOUR[3].split()
    add(
        HB,
        "exchange",
        "order-from-bidders-left",
        "the exchange starts at the bidder's left",
        x_src,
        [19, 29],
        hb(FOUR, ex, stock_top=top),
        {
            "hands": [
                {
                    "to_act": 3,
                    "legal": sorted(
                        f"3 discard {' '.join(sort_cards(list(c)))}" for c in itertools.combinations(seat3, 2)
                    ),
                }
            ]
        },
    )
    add(
        HB,
        "exchange",
        "zero-has-no-turn",
        "a player who exchanges 0 has no exchange turn",
        x_src,
        [19],
        hb(FOUR, [*ex, "3 discard TC JC"], stock_top=top),
        {"hands": [{"to_act": 1, "legal": sorted(f"1 discard {c}" for c in FOUR[1].split())}]},
    )
    add(
        HB,
        "exchange",
        "bidder-leads-after-exchange",
        "replacements come from the top of the stock; the bidder leads",
        x_src + ["S0: the highest bidder leads to the first trick"],
        [19, 23],
        hb(FOUR, [*ex, "3 discard TC JC", "1 discard TS", "2 discard TH JH QH"], stock_top=top),
        {"hands": [{"to_act": 2, "legal": play_legal(HB, "H", 2, ["AH", "KH", "5C", "6C", "7C"], [])}]},
    )
    add(
        HB,
        "exchange",
        "wrong-count",
        "discarding fewer cards than stated is illegal",
        x_src,
        [29],
        hb(FOUR, [*ex, "3 discard JC"], stock_top=top),
        err("illegal_action", hand=0, action=9),
    )
    add(
        HB,
        "exchange",
        "card-not-held",
        "discarding a card not held is illegal",
        x_src,
        [],
        hb(FOUR, [*ex, "3 discard 2H TC"], stock_top=top),
        err("illegal_action", hand=0, action=9),
    )
    add(
        HB,
        "exchange",
        "non-canonical-order",
        "cards out of canonical order make the action illegal",
        ["protocol: actions: cards inside an action are in canonical order"],
        [],
        hb(FOUR, [*ex, "3 discard JC TC"], stock_top=top),
        err("illegal_action", hand=0, action=9),
    )
    add(
        HB,
        "exchange",
        "variant-dealer-left-order",
        "exchange_order=dealer_left_dealer_last",
        ["S0: stay/drop from the bidder's left"],
        [19],
        hb(
            FOUR,
            [
                "1 pass",
                "2 bid 2",
                "3 pass",
                "0 pass",
                "2 trump H",
                "3 stay 1",
                "0 stay 1",
                "1 stay 1",
                "2 stay 1",
            ],
            options={"exchange_order": "dealer_left_dealer_last"},
        ),
        {"hands": [{"to_act": 1}]},
    )
    seven = [
        "2D 3D 4D 5D 6D",
        "AS KS QS JS TS",
        "AH KH QH JH TH",
        "AC KC QC JC TC",
        "2S 3S 4S 5S 6S",
        "2H 3H 4H 5H 6H",
        "7D 8D 9D TD JD",
    ]
    run7 = [
        "1 bid 2",
        "2 pass",
        "3 pass",
        "4 pass",
        "5 pass",
        "6 pass",
        "0 pass",
        "1 trump S",
        "2 stay 5",
        "3 stay 5",
        "4 stay 5",
        "5 stay 5",
        "6 drop",
        "0 drop",
        "1 stay 0",
        "2 discard TH JH QH KH AH",
        "3 discard TC JC QC KC AC",
        "4 discard 2S 3S 4S 5S 6S",
        "5 discard 2H 3H 4H 5H 6H",
    ]
    pool = sort_cards(" ".join([seven[2], seven[3], seven[4], seven[6], seven[0]]).split())
    add(
        HB,
        "exchange",
        "stock-runs-out",
        "an exhausted stock is re-formed from set-aside cards, not the current player's discards",
        ["S2: even seven players leave a stock to swap from"],
        [18],
        hb(seven, run7, restock=[list(reversed(pool))]),
        {"hands": [{"complete": False, "to_act": 1, "restock": [list(reversed(pool))]}]},
    )
    add(
        HB,
        "exchange",
        "stock-runs-out-wrong-restock",
        "a restock that is not the set-aside cards: bad_request",
        ["protocol: play, re-formed stocks: a restock must be exactly the cards the rules put there"],
        [18],
        hb(seven, run7, restock=[pool[:-1]]),
        err("bad_request"),
    )

    p_src = ["S0: players must follow suit; otherwise they may discard", "S2: follow suit if you can"]
    add(
        HB,
        "play",
        "must-follow",
        "a player holding the suit led must follow it",
        p_src,
        [],
        hb(HB22, [*BID3_ALL_STAY, "1 play 2C", "2 play JH"]),
        {
            "hands": [
                {"to_act": 0, "legal": ["0 play AC"], "current_trick": {"leader": 1, "cards": ["2C", "JH"]}}
            ]
        },
    )
    add(
        HB,
        "play",
        "void-plays-anything",
        "a player void in the suit led may play any card",
        p_src,
        [25],
        hb(HB22, [*BID3_ALL_STAY, "1 play 2C"]),
        {"hands": [{"to_act": 2, "legal": play_legal(HB, "S", 2, HB22[2].split(), ["2C"])}]},
    )
    add(
        HB,
        "play",
        "renege-illegal",
        "failing to follow suit is illegal",
        p_src,
        [],
        hb(HB22, [*BID3_ALL_STAY, "1 play 2C", "2 play JH", "0 play AD"]),
        err("illegal_action", hand=0, action=9),
    )
    add(
        HB,
        "play",
        "card-not-held",
        "playing a card not held is illegal",
        p_src,
        [],
        hb(HB22, [*BID3_ALL_STAY, "1 play 5C"]),
        err("illegal_action", hand=0, action=7),
    )
    add(
        HB,
        "play",
        "out-of-turn",
        "playing out of turn is illegal",
        p_src,
        [],
        hb(HB22, [*BID3_ALL_STAY, "2 play AH"]),
        err("illegal_action", hand=0, action=7),
    )
    add(
        HB,
        "play",
        "winner-leads-and-trumping",
        "the trick winner leads next; a void player may trump",
        ["S2: the highest trump wins the trick ... the winner leads the next"],
        [25],
        hb(HB22, [*BID3_ALL_STAY, "1 play 4C", "2 play AH", "0 play AC", "0 play AD", "1 play AS"]),
        {
            "hands": [
                {
                    "to_act": 2,
                    "tricks": [{"leader": 1, "cards": ["4C", "AH", "AC"], "winner": 0}],
                    "current_trick": {"leader": 0, "cards": ["AD", "AS"]},
                    "tricks_won": [1, 0, 0],
                }
            ]
        },
    )
