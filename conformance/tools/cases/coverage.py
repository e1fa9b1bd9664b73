"""Cases that close the coverage gaps the lint reports: every rule decision a
request can observe is cited by some case, and the extension mechanism is
exercised.  ``build_cases.py`` calls :func:`build` with the helpers of ``common.py`` and
the games' files.

Each expected answer was worked out by hand from the rule the case cites.
"""

from __future__ import annotations

from typing import Any

from reference import deerpark_pack, full_pack, sort_cards

HB, BK, DP = "hucklebuck", "buckem", "deerpark"


def build(add: Any, err: Any, hb: Any, bk: Any, dp: Any) -> None:
    """Add the coverage cases through ``common.add`` and request helpers."""
    _hucklebuck(add, err, hb)
    _buckem(add, bk)
    _deerpark(add, err, dp)


def _hucklebuck(add: Any, err: Any, hb: Any) -> None:
    suited = ["AD KD QD JD TD", "AS KS QS JS TS", "AH KH QH JH TH"]
    add(
        HB,
        "errors",
        "out-of-turn-bid-refused",
        "a bid out of turn is refused as illegal_action, with no penalty",
        ["S2: bidding starts on the dealer's left"],
        [2, 24],
        hb(suited, ["2 bid 2"]),
        err("illegal_action", hand=0, action=0),
    )
    add(
        HB,
        "auction",
        "first-dealer-given",
        "the first dealer is whoever the request names; the auction opens on that dealer's left",
        ["S2: bidding starts on the dealer's left"],
        [3, 24],
        hb(suited, [], start={"dealer": 2}),
        {
            "hands": [
                {
                    "complete": False,
                    "dealer": 2,
                    "to_act": 0,
                    "legal": ["0 bid 2", "0 bid 3", "0 bid 4", "0 bid 5", "0 pass"],
                }
            ],
            "final": {"dealer": 2},
        },
    )
    add(
        HB,
        "trump",
        "bidder-names-trump-no-turnup",
        "no card is turned up: the bidder names one of the four suits, and trump is unset until then",
        ["S0: the high bidder names trump", "S2: the bidder names trump"],
        [22, 30],
        hb(suited, ["1 bid 2", "2 pass", "0 pass"]),
        {
            "hands": [
                {
                    "complete": False,
                    "to_act": 1,
                    "legal": ["1 trump C", "1 trump D", "1 trump H", "1 trump S"],
                    "trump": None,
                    "bidder": 1,
                    "bid": 2,
                }
            ]
        },
    )
    pack = sort_cards(full_pack())
    seven = [" ".join(pack[5 * i : 5 * i + 5]) for i in range(7)]
    auction = ["1 bid 2", *[f"{s} pass" for s in (2, 3, 4, 5, 6, 0)], "1 trump S"]
    drops = [f"{s} drop" for s in (2, 3, 4, 5, 6)]
    add(
        HB,
        "declare",
        "five-of-six-drop",
        "any number of players may drop: five of six drop, one stays, and the hand is played",
        ["S0: each player in turn stays or drops", "S2: from the bidder's left, stay or drop"],
        [27, 26, 28],
        hb(seven, [*auction, *drops, "0 stay 0", "1 stay 0"]),
        {"hands": [{"complete": False, "to_act": 1, "active": [0, 1], "bidder": 1, "trump": "S"}]},
    )


def _buckem(add: Any, bk: Any) -> None:
    sc = [
        "S3 variations: a player whose scare card is a trump must stay",
        "S3 variations: a player dealt the 2 of trump may exchange it for the face-up card",
    ]
    opts = {"scare_cards": True, "deuce_swap": True}
    deuce = ["2D 3D 4D 5D 6D", "2S KS QS 2C 3C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
    add(
        BK,
        "scare",
        "scared-deuce-may-swap",
        "a scare card that is the 2 of trump forces a stay, which may be a stay with the deuce swap",
        sc,
        [56, 55, 54],
        bk(deuce, "9S", [], options=opts, scare="2D 2S AC 7D 2H"),
        {"hands": [{"complete": False, "to_act": 1, "legal": ["1 stay", "1 stay swap"]}]},
    )
    lone = ["2D 3D 4D 5D 6D", "2S 5S 2C 3C 4C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
    folds = ["2 fold", "3 fold", "4 fold", "0 fold"]
    add(
        BK,
        "scare",
        "scared-deuce-lone-stayer-as-dealt",
        "a lone stayer scared in by the 2 of trump gets the rake test on the hand as dealt: "
        "2S 5S has no face card, so swapping for the KS does not make it qualify",
        [*sc, "S3: a lone stayer rakes with the ace of trump or two trumps with a K, Q or J"],
        [56, 42, 43, 47],
        bk(lone, "KS", ["1 stay swap", *folds], options=opts, scare="2D 2S AC 7D 2H"),
        {
            "hands": [
                {
                    "complete": True,
                    "stayers": [1],
                    "raked": None,
                    "winners": [],
                    "burned": [],
                    "payouts": [0, 0, 0, 0, 0],
                    "delta": [-1, -1, -1, -1, -1],
                    "pot": 5,
                    "ante_due": True,
                }
            ]
        },
    )
    rich = ["2D 3D 4D 5D 6D", "2S JS 2C 3C 4C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
    add(
        BK,
        "scare",
        "scared-deuce-lone-stayer-rakes",
        "a lone stayer scared in by the 2 of trump who holds the JS as dealt rakes the single pot",
        [*sc, "S3: a lone stayer rakes with the ace of trump or two trumps with a K, Q or J"],
        [56, 42, 43, 44],
        bk(rich, "KS", ["1 stay swap", *folds], options=opts, scare="2D 2S AC 7D 2H"),
        {
            "hands": [
                {
                    "complete": True,
                    "stayers": [1],
                    "raked": 1,
                    "winners": [1],
                    "payouts": [0, 5, 0, 0, 0],
                    "delta": [-1, 4, -1, -1, -1],
                    "pot": 0,
                    "pot_units": 0,
                }
            ]
        },
    )


def _deerpark(add: Any, err: Any, dp: Any) -> None:
    hands = ["TC JC QC KC AC", "TD JD QD KD AD", "TH JH QH KH AH"]
    add(
        DP,
        "trump",
        "no-alone-no-notrump-round1",
        "round 1 offers only ordering up the turned suit or passing: no going alone",
        ["S4: each player in turn may order the turned card's suit as trump or pass"],
        [80],
        dp(hands, "TS", []),
        {"hands": [{"complete": False, "to_act": 1, "legal": ["1 order", "1 pass"]}]},
    )
    add(
        DP,
        "trump",
        "no-notrump-round2",
        "round 2 offers the four suits and pass: there is no no-trump",
        ["S4: on the second round any suit can be chosen as trump"],
        [80, 68],
        dp(hands, "TS", ["1 pass", "2 pass", "0 pass"]),
        {
            "hands": [
                {
                    "complete": False,
                    "to_act": 1,
                    "legal": ["1 call C", "1 call D", "1 call H", "1 call S", "1 pass"],
                    "trump": None,
                    "maker": None,
                }
            ]
        },
    )
    add(
        DP,
        "errors",
        "going-alone-refused",
        "'alone' is not an action of Deer Park Euchre: illegal_action",
        ["protocol: actions, unreadable versus illegal"],
        [80],
        dp(hands, "TS", ["1 alone"]),
        err("illegal_action", hand=0, action=0),
    )
    add(
        DP,
        "trump",
        "kitty-is-dead",
        "after an order-up the dealer discards from the six cards in hand; the rest of the kitty stays out",
        ["S4: the dealer picks up the turned card and may discard any card"],
        [82, 77, 78],
        dp(hands, "TS", ["1 order"]),
        {
            "hands": [
                {
                    "complete": False,
                    "to_act": 0,
                    "legal": [
                        "0 discard AC",
                        "0 discard JC",
                        "0 discard KC",
                        "0 discard QC",
                        "0 discard TC",
                        "0 discard TS",
                    ],
                    "trump": "S",
                    "maker": 1,
                    "requirement": 3,
                }
            ]
        },
    )
    eight = sort_cards(deerpark_pack(8))
    add(
        DP,
        "deck",
        "players-8-extension",
        "extension deerpark.eight_player_turnup: eight players use fives to aces (40 cards)",
        ["S4: add nines for four, eights for five, and so on"],
        [70],
        {"op": "deck", "game": DP, "players": 8, "options": {"eight_player_turnup": "dealer_last_card"}},
        eight,
    )
    first = ["5C", "6C", "7C", "8C", "9H"]
    others = [c for c in eight if c not in first]
    deal8 = {"hands": [first, *[others[5 * i : 5 * i + 5] for i in range(7)]], "kitty": []}
    add(
        DP,
        "trump",
        "eight-players-order-dealer-last-card",
        "extension deerpark.eight_player_turnup: the dealer's last card dealt (9H) is the turned card; "
        "ordering it up makes hearts trump and the dealer, who already holds it, discards nothing",
        ["S4: the first round may order up the turned card's suit"],
        [70, 71],
        {
            "op": "play",
            "game": DP,
            "players": 8,
            "options": {"eight_player_turnup": "dealer_last_card"},
            "start": {},
            "hands": [{"deal": deal8, "actions": ["1 order"]}],
        },
        {
            "hands": [
                {
                    "complete": False,
                    "to_act": 1,
                    "legal": ["1 play 9C", "1 play JC", "1 play KC", "1 play QC", "1 play TC"],
                    "trump": "H",
                    "maker": 1,
                    "requirement": 3,
                }
            ]
        },
    )
