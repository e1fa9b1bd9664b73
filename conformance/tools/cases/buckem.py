"""Buck 'Em cases: the pack, tricks, legal plays, the solver, the ante, staying,
scare cards, the swap and simultaneous decisions."""

from __future__ import annotations

import itertools
from typing import Any

from reference import buckem_pack, full_pack, sort_cards

from .common import add, bad_card_cases, err, legal_cases, rest_of, solve_cases, trick_cases

BK = "buckem"
TOP = ["2D 3D 4D 5D 6D", "AS KS QS 2C 3C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
SOLO = ["2D 3D 4D 5D 6D", "AS KS QS JS TS", "2C 3C 4C 5C 6C", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
SOLO_PLAY = [
    "1 play AS",
    "2 play 2C",
    "1 play KS",
    "2 play 3C",
    "1 play QS",
    "2 play 4C",
    "1 play JS",
    "2 play 5C",
    "1 play TS",
    "2 play 6C",
]
SPLIT_PLAY = [
    "1 play AS",
    "2 play TH",
    "1 play KS",
    "2 play JH",
    "1 play QS",
    "2 play QH",
    "1 play 2C",
    "2 play KC",
    "2 play AC",
    "1 play 3C",
]
T221 = ["AD KD QD JD TD", "AS KS 2H 2D 4D", "AH KH 3C 5D 6D", "AC 7D 8D 9D TC", "2C 4C 5C 6C 7C"]
T221_PLAY = [
    "1 play AS",
    "2 play 5D",
    "3 play 7D",
    "1 play KS",
    "2 play 6D",
    "3 play 8D",
    "1 play 2H",
    "2 play AH",
    "3 play 9D",
    "2 play KH",
    "3 play TC",
    "1 play 2D",
    "2 play 3C",
    "3 play AC",
    "1 play 4D",
]
ONE_EACH = ["5C 5H 5D 7C KH", "AC 2H 3D 8C 7H", "2C AH 2D 9C 8H", "3C 3H AD 6C 9H", "4C 4H 4D KC 6H"]
ONE_EACH_PLAY = [
    "1 play AC",
    "2 play 2C",
    "3 play 3C",
    "4 play 4C",
    "0 play 5C",
    "1 play 2H",
    "2 play AH",
    "3 play 3H",
    "4 play 4H",
    "0 play 5H",
    "2 play 2D",
    "3 play AD",
    "4 play 4D",
    "0 play 5D",
    "1 play 3D",
    "3 play 6C",
    "4 play KC",
    "0 play 7C",
    "1 play 8C",
    "2 play 9C",
    "4 play 6H",
    "0 play KH",
    "1 play 7H",
    "2 play 8H",
    "3 play 9H",
]


def bk_deal(
    hands: list[str],
    upcard: str,
    *,
    short: bool = False,
    removed: bool = False,
    scare: str | None = None,
    restock: list[list[str]] | None = None,
) -> dict[str, Any]:
    hs = [h.split() for h in hands]
    used = [c for h in hs for c in h] + ([] if removed else [upcard])
    deal: dict[str, Any] = {
        "hands": hs,
        "upcard": upcard,
        "stock": rest_of(buckem_pack(len(hands), short), used),
    }
    if scare is not None:
        deal["scare"] = scare.split()
    if restock is not None:
        deal["restock"] = restock
    return deal


def bk(
    hands: list[str],
    upcard: str,
    actions: list[str],
    *,
    options: dict[str, Any] | None = None,
    start: dict[str, Any] | None = None,
    scare: str | None = None,
    restock: list[list[str]] | None = None,
    more: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    o = options or {}
    deal = bk_deal(
        hands,
        upcard,
        short=bool(o.get("short_handed")),
        removed=o.get("short_handed_trump") == "removed_card",
        scare=scare,
        restock=restock,
    )
    return {
        "op": "play",
        "game": BK,
        "players": len(hands),
        "options": o,
        "start": start or {},
        "hands": [{"deal": deal, "actions": actions}, *(more or [])],
    }


def decide(stayers: set[int], n: int = 5, dealer: int = 0) -> list[str]:
    return [
        f"{(dealer + 1 + i) % n} {'stay' if (dealer + 1 + i) % n in stayers else 'fold'}" for i in range(n)
    ]


def pat(stayers: list[int]) -> list[str]:
    return [f"{s} draw" for s in stayers]


def build() -> None:
    """Add the cases of this file."""
    pk = ["S3: a standard 52-card deck; short-handed games remove the 2s (six) or the 2s and 3s (five)"]
    for n in range(5, 9):
        add(
            BK,
            "deck",
            f"players-{n}",
            f"{n} players use 52 cards",
            pk,
            [],
            {"op": "deck", "game": BK, "players": n, "options": {}},
            sort_cards(full_pack()),
        )
        add(
            BK,
            "deck",
            f"players-{n}-short",
            f"short_handed with {n} players",
            pk,
            [58],
            {"op": "deck", "game": BK, "players": n, "options": {"short_handed": True}},
            sort_cards(buckem_pack(n, True)),
        )
    for n in (4, 9):
        add(
            BK,
            "deck",
            f"players-{n}-rejected",
            f"{n} players is outside 5-8",
            ["S3: 5-8 players"],
            [],
            {"op": "deck", "game": BK, "players": n, "options": {}},
            err("bad_request"),
        )
    add(
        BK,
        "deck",
        "removed-card-needs-short-pack",
        "removed_card trump without a short pack: bad_request",
        ["protocol: options, checks on options"],
        [58],
        {
            "op": "deck",
            "game": BK,
            "players": 7,
            "options": {"short_handed": True, "short_handed_trump": "removed_card"},
        },
        err("bad_request"),
    )
    tsrc = ["S3: highest trump wins, otherwise the highest card of the suit led"]
    trick_cases(BK, 45, 505, tsrc, [61])
    legal_cases(BK, 35, 606, ["S3: players must follow suit if able, otherwise any card"], [61])
    solve_cases(BK, 12, 909)
    bad_card_cases(BK)

    a_src = ["S3: all players ante equally at the start of a normal round"]
    add(
        BK,
        "ante",
        "everyone-antes",
        "a normal round: everyone antes; eldest decides first",
        a_src,
        [35, 41],
        bk(TOP, "9S", []),
        {
            "hands": [
                {
                    "complete": False,
                    "to_act": 1,
                    "legal": ["1 fold", "1 stay"],
                    "trump": "S",
                    "delta": [-1] * 5,
                    "bankrolls": [-1] * 5,
                    "pot": 5,
                    "pot_units": 1,
                    "ante_due": False,
                }
            ]
        },
    )
    add(
        BK,
        "ante",
        "variant-ante-2",
        "ante=2",
        a_src,
        [35],
        bk(TOP, "9S", [], options={"ante": 2}),
        {"hands": [{"pot": 10, "bankrolls": [-2] * 5}]},
    )
    add(
        BK,
        "ante",
        "no-ante-when-not-due",
        "no ante when the round is a burn round",
        a_src,
        [64],
        bk(TOP, "9S", [], start={"pot": 6, "pot_units": 2, "ante_due": False}),
        {"hands": [{"pot": 6, "pot_units": 2, "delta": [0] * 5}]},
    )
    sf = ["S3: starting left of the dealer, each player stays or folds"]
    add(
        BK,
        "stay",
        "draws-after-all-decisions",
        "draws begin after every decision, eldest stayer first",
        sf,
        [52],
        bk(TOP, "9S", decide({1, 2})),
        {
            "hands": [
                {
                    "to_act": 1,
                    "stayers": [1, 2],
                    "legal": sorted(
                        f"1 draw {' '.join(sort_cards(list(c)))}".rstrip()
                        for k in range(4)
                        for c in itertools.combinations(TOP[1].split(), k)
                    ),
                }
            ]
        },
    )
    add(
        BK,
        "stay",
        "fold-cannot-play",
        "a folded player has no turn",
        sf,
        [40],
        bk(TOP, "9S", [*decide({1, 2}), "3 draw"]),
        err("illegal_action", hand=0, action=5),
    )
    add(
        BK,
        "stay",
        "draw-during-decisions",
        "drawing before all have decided is illegal",
        sf,
        [52],
        bk(TOP, "9S", ["1 draw"]),
        err("illegal_action", hand=0, action=0),
    )
    sc = ["S3 variations: a player whose scare card is a trump must stay"]
    add(
        BK,
        "scare",
        "forced-stay",
        "a trump scare card forces a stay",
        sc,
        [55],
        bk(TOP, "9S", [], options={"scare_cards": True}, scare="2D AS AC 7D 2H"),
        {"hands": [{"legal": ["1 stay"]}]},
    )
    add(
        BK,
        "scare",
        "forced-fold-illegal",
        "folding with a trump scare card is illegal",
        sc,
        [55],
        bk(TOP, "9S", ["1 fold"], options={"scare_cards": True}, scare="2D AS AC 7D 2H"),
        err("illegal_action", hand=0, action=0),
    )
    add(
        BK,
        "scare",
        "others-free",
        "a non-trump scare card leaves the choice",
        sc,
        [55],
        bk(TOP, "9S", ["1 stay"], options={"scare_cards": True}, scare="2D AS AC 7D 2H"),
        {"hands": [{"legal": ["2 fold", "2 stay"]}]},
    )
    add(
        BK,
        "scare",
        "ignored-without-option",
        "scare cards in a deal are ignored without the option",
        ["protocol: options, checks on options"],
        [55],
        bk(TOP, "9S", [], scare="2D AS AC 7D 2H"),
        {"hands": [{"legal": ["1 fold", "1 stay"]}]},
    )
    add(
        BK,
        "scare",
        "not-in-hand",
        "a scare card not in that hand: bad_request",
        ["protocol: play, the deal: a legal deal for the game, player count and options"],
        [55],
        bk(TOP, "9S", [], options={"scare_cards": True}, scare="2D AS AC 7D 9H"),
        err("bad_request"),
    )
    dw = [
        "S3 variations: a player dealt the 2 of trump may exchange it for the face-up card; the trump ace "
        "cannot be swapped"
    ]
    deuce = ["2D 3D 4D 5D 6D", "2S KS QS 2C 3C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
    add(
        BK,
        "swap",
        "offered",
        "the dealt deuce of trump offers 'stay swap'",
        dw,
        [54],
        bk(deuce, "9S", [], options={"deuce_swap": True}),
        {"hands": [{"legal": ["1 fold", "1 stay", "1 stay swap"]}]},
    )
    add(
        BK,
        "swap",
        "takes-the-upcard",
        "after the swap the player holds the old upcard",
        dw,
        [54],
        bk(
            deuce,
            "9S",
            ["1 stay swap", "2 stay", "3 fold", "4 fold", "0 fold", "1 draw", "2 draw", "1 play 9S"],
            options={"deuce_swap": True},
        ),
        {"hands": [{"current_trick": {"leader": 1, "cards": ["9S"]}, "to_act": 2}]},
    )
    add(
        BK,
        "swap",
        "not-onto-the-ace",
        "the trump ace upcard cannot be swapped",
        dw,
        [54],
        bk(deuce, "AS", ["1 stay swap"], options={"deuce_swap": True}),
        err("illegal_action", hand=0, action=0),
    )
    add(
        BK,
        "swap",
        "needs-the-deuce",
        "a swap without the dealt deuce is illegal",
        dw,
        [54],
        bk(deuce, "9S", ["1 stay", "2 stay swap"], options={"deuce_swap": True}),
        err("illegal_action", hand=0, action=1),
    )
    add(
        BK,
        "swap",
        "needs-the-option",
        "a swap without the variant is illegal",
        dw,
        [54],
        bk(deuce, "9S", ["1 stay swap"]),
        err("illegal_action", hand=0, action=0),
    )
    add(
        BK,
        "swap",
        "bad-arity",
        "'fold swap' has the wrong arguments",
        ["protocol: actions, unreadable versus illegal"],
        [],
        bk(deuce, "9S", ["1 fold swap"]),
        err("illegal_action", hand=0, action=0),
    )
    add(
        BK,
        "simultaneous",
        "same-outcome",
        "simultaneous_declare changes what is seen, not the result",
        ["S3 variations: players reveal stay or fold at once"],
        [59],
        bk(SOLO, "9S", [*decide({1, 2}), *pat([1, 2]), *SOLO_PLAY], options={"simultaneous_declare": True}),
        {"hands": [{"winners": [1], "burned": [2], "delta": [-1, 4, -6, -1, -1]}]},
    )
