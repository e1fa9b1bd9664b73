"""Write the conformance cases (conformance/cases/<game>/<area>.json).

Run ``python conformance/tools/build_cases.py`` from the repository root.  The
JSON it writes is the suite; this script is how the cases were authored, kept
so they can be reviewed and extended in one place.

Where the answers come from:

* ``deck``, ``trick_winner`` and ``legal_plays`` answers, and the discard and
  play lists at cut points, come from ``reference.py``, a small independent
  statement of the trick rules that shares no code with the library;
* every ``play`` scenario's scores, pots and winners were worked out by hand
  from the rules cited in the case.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import coverage_cases
from reference import (
    buckem_pack,
    deerpark_pack,
    full_pack,
    legal,
    solve,
    sort_cards,
    winner,
)

OUT = Path(__file__).resolve().parents[1] / "cases"
CASES: dict[str, dict[str, list[dict[str, Any]]]] = {"hucklebuck": {}, "buckem": {}, "deerpark": {}}


def add(
    game: str,
    area: str,
    slug: str,
    title: str,
    source: list[str],
    decisions: list[int],
    request: dict[str, Any],
    expect: Any,
) -> None:
    CASES[game].setdefault(area, []).append(
        {
            "id": f"{game}/{area}/{slug}",
            "title": title,
            "source": source,
            "decisions": [f"DEF #{d}" for d in decisions],
            "request": request,
            "expect": expect,
        }
    )


def err(code: str, **kw: Any) -> dict[str, Any]:
    return {"error": {"code": code, **kw}}


def rest_of(pack: list[str], used: list[str]) -> list[str]:
    u = set(used)
    return [c for c in sort_cards(pack) if c not in u]


# ------------------------------------------------------------ shared generators
def trick_cases(game: str, n: int, seed: int, source: list[str], decisions: list[int]) -> None:
    rng = random.Random(seed)
    deck = deerpark_pack(7) if game == "deerpark" else full_pack()
    for i in range(n):
        trump = "CDHS"[i % 4]
        k = rng.randint(2, 8 if game == "buckem" else 7)
        if game == "deerpark" and i % 3 == 0:  # make jacks likely
            jacks = [c for c in deck if c[0] == "J"]
            others = rng.sample([c for c in deck if c[0] != "J"], k - 2)
            plays = rng.sample(jacks, 2) + others
            rng.shuffle(plays)
        else:
            plays = rng.sample(deck, k)
        w = winner(game, trump, plays)
        add(
            game,
            "tricks",
            f"random-{i:02d}",
            f"{len(plays)} cards, {trump} trump: card {w} wins",
            source,
            decisions,
            {"op": "trick_winner", "game": game, "trump": trump, "plays": plays},
            w,
        )


def legal_cases(game: str, n: int, seed: int, source: list[str], decisions: list[int]) -> None:
    rng = random.Random(seed)
    deck = deerpark_pack(7) if game == "deerpark" else full_pack()
    for i in range(n):
        trump = "CDHS"[i % 4]
        cards = rng.sample(deck, rng.randint(2, 8))
        hand = cards[: rng.randint(1, min(5, len(cards) - 1))]
        trick = cards[len(hand) :][: rng.randint(0, 3)]
        add(
            game,
            "legal",
            f"random-{i:02d}",
            f"legal plays from {len(hand)} cards after {len(trick)} played",
            source,
            decisions,
            {"op": "legal_plays", "game": game, "trump": trump, "hand": hand, "trick": trick},
            legal(game, trump, hand, trick),
        )


def bad_card_cases(game: str) -> None:
    src = ["protocol: cards are two upper-case characters, rank then suit"]
    for slug, plays in [
        ("ten-as-10", ["10H", "AS"]),
        ("lower-case", ["th", "AS"]),
        ("unknown-suit", ["TX", "AS"]),
        ("not-a-string", [12, "AS"]),
    ]:
        add(
            game,
            "errors",
            f"trick-{slug}",
            f"{plays[0]!r} is not a card: bad_request",
            src,
            [],
            {"op": "trick_winner", "game": game, "trump": "S", "plays": plays},
            err("bad_request"),
        )
    add(
        game,
        "errors",
        "trick-duplicate",
        "the same card twice in a trick: bad_request",
        src,
        [],
        {"op": "trick_winner", "game": game, "trump": "S", "plays": ["AS", "AS"]},
        err("bad_request"),
    )
    add(
        game,
        "errors",
        "trick-one-card",
        "a trick of one card: bad_request",
        src,
        [],
        {"op": "trick_winner", "game": game, "trump": "S", "plays": ["AS"]},
        err("bad_request"),
    )
    add(
        game,
        "errors",
        "trick-bad-trump",
        "a trump that is not a suit letter: bad_request",
        src,
        [],
        {"op": "trick_winner", "game": game, "trump": "X", "plays": ["AS", "KS"]},
        err("bad_request"),
    )
    add(
        game,
        "errors",
        "legal-card-in-both",
        "a card both in hand and on the table: bad_request",
        src,
        [],
        {"op": "legal_plays", "game": game, "trump": "S", "hand": ["AS", "KH"], "trick": ["AS"]},
        err("bad_request"),
    )
    add(
        game,
        "errors",
        "legal-six-cards",
        "a hand of six cards: bad_request",
        src,
        [],
        {
            "op": "legal_plays",
            "game": game,
            "trump": "S",
            "hand": ["AS", "KS", "QS", "JS", "TS", "9S"],
            "trick": [],
        },
        err("bad_request"),
    )
    add(
        game,
        "errors",
        "unknown-op",
        "an op the protocol does not have: unsupported",
        src,
        [],
        {"op": "shuffle", "game": game},
        err("unsupported"),
    )


def solve_cases(game: str, n: int, seed: int) -> None:
    rng = random.Random(seed)
    deck = deerpark_pack(5) if game == "deerpark" else full_pack()
    src = [
        "S0: the highest trump wins"
        if game == "hucklebuck"
        else "S3: highest trump, else highest of the suit led"
        if game == "buckem"
        else "S4: normal rules for Euchre play apply (bowers)"
    ]
    for i in range(n):
        players = rng.randint(2, 4)
        k = rng.randint(1, 3)
        cards = rng.sample(deck, players * k)
        hands = [sort_cards(cards[j * k : (j + 1) * k]) for j in range(players)]
        if players > 2 and i % 4 == 0:
            hands[rng.randrange(players)] = []
        active = [j for j, h in enumerate(hands) if h]
        trump = "CDHS"[i % 4]
        leader, seat = rng.choice(active), rng.choice(active)
        add(
            game,
            "solve",
            f"position-{i:02d}",
            f"{len(active)} seats x {k} cards: the most tricks seat {seat} can be sure of",
            src,
            [],
            {"op": "solve", "game": game, "trump": trump, "hands": hands, "leader": leader, "seat": seat},
            solve(game, trump, hands, leader, seat),
        )
    add(
        game,
        "solve",
        "unequal-hands",
        "seats in play must hold as many cards each: bad_request",
        ["protocol: solve"],
        [],
        {"op": "solve", "game": game, "trump": "S", "hands": [["AS", "KS"], ["AH"]], "leader": 0, "seat": 0},
        err("bad_request"),
    )


def play_legal(game: str, trump: str, seat: int, hand: list[str], trick: list[str]) -> list[str]:
    return sorted(f"{seat} play {c}" for c in legal(game, trump, hand, trick))


# ================================================================= Hucklebuck
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


def build_hucklebuck() -> None:
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
        ["protocol: cards inside an action are in canonical order"],
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
        ["protocol: a restock must be exactly the cards the rules put into the new stock"],
        [18],
        hb(seven, run7, restock=[pool[:-1]]),
        err("bad_request"),
    )

    p_src = ["S0: players must follow suit; otherwise they may discard", "S2: follow suit if you can"]
    pre = ["1 bid 3", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0"]
    add(
        HB,
        "play",
        "must-follow",
        "a player holding the suit led must follow it",
        p_src,
        [],
        hb(HB22, [*pre, "1 play 2C", "2 play JH"]),
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
        hb(HB22, [*pre, "1 play 2C"]),
        {"hands": [{"to_act": 2, "legal": play_legal(HB, "S", 2, HB22[2].split(), ["2C"])}]},
    )
    add(
        HB,
        "play",
        "renege-illegal",
        "failing to follow suit is illegal",
        p_src,
        [],
        hb(HB22, [*pre, "1 play 2C", "2 play JH", "0 play AD"]),
        err("illegal_action", hand=0, action=9),
    )
    add(
        HB,
        "play",
        "card-not-held",
        "playing a card not held is illegal",
        p_src,
        [],
        hb(HB22, [*pre, "1 play 5C"]),
        err("illegal_action", hand=0, action=7),
    )
    add(
        HB,
        "play",
        "out-of-turn",
        "playing out of turn is illegal",
        p_src,
        [],
        hb(HB22, [*pre, "2 play AH"]),
        err("illegal_action", hand=0, action=7),
    )
    add(
        HB,
        "play",
        "winner-leads-and-trumping",
        "the trick winner leads next; a void player may trump",
        ["S2: the highest trump wins the trick ... the winner leads the next"],
        [25],
        hb(HB22, [*pre, "1 play 4C", "2 play AH", "0 play AC", "0 play AD", "1 play AS"]),
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

    sc = [
        "S0: active players score 1 per trick or -5 for none; a bidder who fails loses 5",
        "S2: a bidder who is set loses 5",
    ]
    add(
        HB,
        "scoring",
        "set-bidder-loses-five",
        "bid 3, took 2: the bidder loses 5 flat",
        sc,
        [7, 10],
        hb(HB22, [*pre, *HB22_PLAY], start={"scores": [0, 4, 0]}),
        {
            "hands": [
                {
                    "complete": True,
                    "tricks_won": [3, 2, 0],
                    "active": [0, 1, 2],
                    "delta": [3, -5, -5],
                    "scores": [3, -1, -5],
                }
            ],
            "final": {"scores": [3, -1, -5], "dealer": 1},
        },
    )
    add(
        HB,
        "scoring",
        "made-bid-counts-every-trick",
        "a made bid scores every trick; five tricks on bid 2 is +5",
        sc,
        [9, 11],
        hb(
            SUITED,
            ["1 bid 2", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0", *SPADES_RUN],
        ),
        {"hands": [{"delta": [-5, 5, -5], "tricks_won": [0, 5, 0]}], "final": {"game_over": False}},
    )
    add(
        HB,
        "scoring",
        "bidder-no-trick-minus-five",
        "a bidder without a trick loses 5, not 10",
        sc,
        [8],
        hb(
            NO_TRICK,
            ["1 bid 2", "2 pass", "0 pass", "1 trump H", "2 stay 0", "0 stay 0", "1 stay 0", *HEARTS_RUN],
        ),
        {"hands": [{"tricks_won": [0, 0, 5], "delta": [-5, -5, 5]}]},
    )
    add(
        HB,
        "scoring",
        "variant-penalty-stacks",
        "bidder_zero_trick_penalty_stacks: -10",
        sc,
        [8],
        hb(
            NO_TRICK,
            ["1 bid 2", "2 pass", "0 pass", "1 trump H", "2 stay 0", "0 stay 0", "1 stay 0", *HEARTS_RUN],
            options={"bidder_zero_trick_penalty_stacks": True},
        ),
        {"hands": [{"delta": [-5, -10, 5]}]},
    )
    add(
        HB,
        "scoring",
        "variant-penalty-stacks-moon",
        "bidder_zero_trick_penalty_stacks: a failed moon with no trick is -20",
        sc,
        [14],
        hb(
            NO_TRICK,
            ["1 bid 5", "1 trump H", "2 stay 0", "0 stay 0", "1 stay 0", *HEARTS_RUN],
            options={"bidder_zero_trick_penalty_stacks": True},
        ),
        {"hands": [{"delta": [-5, -20, 5]}]},
    )
    m_src = [
        "S0: a successful moon from a positive score wins the game; in the hole it returns to zero; "
        "failing costs 15",
        "S2: from zero or below, back to zero",
    ]
    moon = ["1 bid 5", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0", *SPADES_RUN]
    add(
        HB,
        "moon",
        "wins-from-positive",
        "taking all five on a moon bid from a positive score wins",
        m_src,
        [15],
        hb(SUITED, moon, start={"scores": [0, 3, 12]}, more=[{"deal": hb_deal(SUITED), "actions": []}]),
        {
            "hands": [{"delta": [-5, 5, -5], "scores": [-5, 8, 7]}],
            "final": {"game_over": True, "winners": [1]},
        },
    )
    add(
        HB,
        "moon",
        "from-the-hole-resets",
        "a moon from below zero puts the score back to 0",
        m_src,
        [12],
        hb(SUITED, moon, start={"scores": [0, -12, 0]}),
        {"hands": [{"delta": [-5, 12, -5], "scores": [-5, 0, -5]}], "final": {"game_over": False}},
    )
    for variant, over, score in [("reset_to_zero", False, 0), ("win", True, 5), ("score_normally", False, 5)]:
        add(
            HB,
            "moon",
            f"from-zero-{variant.replace('_', '-')}",
            f"moon_at_zero={variant}",
            m_src,
            [12],
            hb(SUITED, moon, options={"moon_at_zero": variant}),
            {"hands": [{"scores": [-5, score, -5]}], "final": {"game_over": over}},
        )
    add(
        HB,
        "moon",
        "missed-minus-fifteen",
        "a missed moon costs 15",
        m_src,
        [14],
        hb(
            HB22,
            ["1 bid 5", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0", *HB22_PLAY],
            start={"scores": [0, 4, 0]},
        ),
        {"hands": [{"delta": [3, -15, -5]}]},
    )
    add(
        HB,
        "scoring",
        "in-the-hole-normal-bid",
        "an ordinary made bid from the hole scores normally",
        sc,
        [13],
        hb(HB22, MADE, start={"scores": [0, -7, 0]}),
        {"hands": [{"tricks_won": [3, 2, 0], "delta": [3, 2, 0]}]},
    )
    add(
        HB,
        "scoring",
        "variant-in-the-hole-any-bid",
        "in_the_hole_reset_applies_to=any_bid resets to 0",
        sc,
        [13],
        hb(HB22, MADE, start={"scores": [0, -7, 0]}, options={"in_the_hole_reset_applies_to": "any_bid"}),
        {"hands": [{"scores": [3, 0, 0]}]},
    )
    add(
        HB,
        "scoring",
        "dropped-player-scores-nothing",
        "a player who drops scores nothing",
        sc,
        [],
        hb(HB22, MADE),
        {"hands": [{"active": [0, 1], "delta": [3, 2, 0]}]},
    )

    e_src = ["S0: a player who scores -25 or lower is out; game is 15 points", "S2: at -25 you are out"]
    add(
        HB,
        "end",
        "out-at-minus-25",
        "exactly -25 is out; the deal skips the out player",
        e_src,
        [16, 31],
        hb(
            HB22,
            [*pre, *HB22_PLAY],
            start={"scores": [0, -20, 0]},
            more=[{"deal": hb_deal(["AD KD QD JD TD", "", "AH KH QH JH TH"]), "actions": ["0 pass"]}],
        ),
        {
            "hands": [{"out": [1], "scores": [3, -25, -5]}, {"complete": False, "dealer": 2, "to_act": 2}],
            "final": {"scores": [3, -25, -5], "out": [1], "dealer": 2},
        },
    )
    add(
        HB,
        "end",
        "sole-survivor",
        "the last player not out wins",
        e_src,
        [16],
        hb(HB22, [*pre, *HB22_PLAY], start={"scores": [0, -20, -21]}),
        {"final": {"game_over": True, "winners": [0], "out": [1, 2]}},
    )
    add(
        HB,
        "end",
        "target-exactly",
        "reaching 15 exactly wins",
        e_src,
        [34],
        hb(HB22, [*pre, *HB22_PLAY], start={"scores": [12, 4, 0]}),
        {"final": {"game_over": True, "winners": [0]}},
    )
    add(
        HB,
        "end",
        "variant-target-11",
        "target=11",
        ["S0: game is 11 or 15 points"],
        [20],
        hb(HB22, [*pre, *HB22_PLAY], start={"scores": [8, 4, 0]}, options={"target": 11}),
        {"final": {"game_over": True, "winners": [0]}},
    )
    add(
        HB,
        "end",
        "below-target-plays-on",
        "11 points is not game at target 15",
        e_src,
        [20],
        hb(HB22, [*pre, *HB22_PLAY], start={"scores": [8, 4, 0]}),
        {"final": {"game_over": False}},
    )
    add(
        HB,
        "end",
        "tie-without-bidder-plays-on",
        "a tie at the top without the bidder: play on",
        e_src,
        [17],
        hb(SUITED, ["1 pass", "2 pass", "0 pass"], start={"scores": [10, 15, 12]}),
        {"final": {"game_over": False, "scores": [15, 15, 12]}},
    )
    add(
        HB,
        "end",
        "tie-bidder-wins",
        "a tie at the top goes to the bidder",
        e_src,
        [17],
        hb(HB22, MADE, start={"scores": [12, 13, 0]}),
        {"final": {"game_over": True, "winners": [1]}},
    )
    add(
        HB,
        "end",
        "highest-wins",
        "of two players past the target the higher wins",
        e_src,
        [17],
        hb(HB22, MADE, start={"scores": [17, 13, 0]}),
        {"final": {"winners": [0]}},
    )
    add(
        HB,
        "end",
        "variant-bidder-first",
        "tie_break=bidder_first: the bidder at the target wins",
        e_src,
        [17],
        hb(HB22, MADE, start={"scores": [17, 13, 0]}, options={"tie_break": "bidder_first"}),
        {"final": {"winners": [1]}},
    )
    add(
        HB,
        "end",
        "variant-shared",
        "tie_break=shared: players tied at the top share the win",
        e_src,
        [17],
        hb(
            SUITED,
            ["1 pass", "2 pass", "0 pass"],
            start={"scores": [10, 15, 12]},
            options={"tie_break": "shared"},
        ),
        {"final": {"game_over": True, "winners": [0, 1]}},
    )
    add(
        HB,
        "end",
        "hands-after-the-end",
        "hands after the game is over are not played",
        e_src,
        [15],
        hb(
            SUITED,
            moon,
            start={"scores": [0, 3, 0]},
            more=[{"deal": hb_deal(SUITED), "actions": ["9 nonsense"]}],
        ),
        {"hands": [{"complete": True}]},
    )
    add(
        HB,
        "end",
        "two-hands-carry-scores",
        "scores carry and the deal passes left",
        ["S2: the deal passes left"],
        [31],
        hb(
            SUITED,
            ["1 pass", "2 pass", "0 pass"],
            more=[{"deal": hb_deal(SUITED), "actions": ["2 pass", "0 pass", "1 pass"]}],
        ),
        {
            "hands": [{"dealer": 0, "delta": [5, 0, 0]}, {"dealer": 1, "delta": [0, 5, 0]}],
            "final": {"scores": [5, 5, 0], "dealer": 2},
        },
    )

    b_src = ["protocol: the deal must be a legal deal for the game and player count"]
    add(
        HB,
        "errors",
        "deal-short-hand",
        "a hand of four cards: bad_request",
        b_src,
        [],
        {
            **hb(SUITED, []),
            "hands": [
                {
                    "deal": {
                        "hands": [SUITED[0].split()[:4], SUITED[1].split(), SUITED[2].split()],
                        "stock": hb_deal(SUITED)["stock"],
                    },
                    "actions": [],
                }
            ],
        },
        err("bad_request"),
    )
    dup = hb_deal(SUITED)
    dup["stock"] = ["AS", *dup["stock"][1:]]
    add(
        HB,
        "errors",
        "deal-duplicate",
        "a card dealt twice: bad_request",
        b_src,
        [],
        {**hb(SUITED, []), "hands": [{"deal": dup, "actions": []}]},
        err("bad_request"),
    )
    add(
        HB,
        "errors",
        "deal-missing-cards",
        "a stock missing cards: bad_request",
        b_src,
        [],
        {
            **hb(SUITED, []),
            "hands": [{"deal": {"hands": [h.split() for h in SUITED], "stock": []}, "actions": []}],
        },
        err("bad_request"),
    )
    add(
        HB,
        "errors",
        "deal-unknown-card",
        "an unknown card in a deal: bad_request",
        b_src,
        [],
        {
            **hb(SUITED, []),
            "hands": [
                {
                    "deal": {
                        "hands": [["1D", *SUITED[0].split()[1:]], SUITED[1].split(), SUITED[2].split()],
                        "stock": hb_deal(SUITED)["stock"],
                    },
                    "actions": [],
                }
            ],
        },
        err("bad_request"),
    )
    add(
        HB,
        "errors",
        "deal-out-seat-with-cards",
        "a seat that is out must get no cards: bad_request",
        b_src,
        [16],
        hb(FOUR, [], start={"out": [3], "scores": [0, 0, 0, -30]}),
        err("bad_request"),
    )
    add(
        HB,
        "errors",
        "start-dealer-out",
        "a dealer who is out: bad_request",
        ["protocol: play, the start position"],
        [31],
        hb(SUITED, [], start={"dealer": 1, "out": [1]}),
        err("bad_request"),
    )
    add(
        HB,
        "errors",
        "start-one-player-left",
        "fewer than two players left: bad_request",
        ["protocol: play, the start position"],
        [16],
        hb(SUITED, [], start={"out": [1, 2]}),
        err("bad_request"),
    )
    add(
        HB,
        "errors",
        "option-target-12",
        "target 12 is not offered: unsupported",
        ["protocol: options, checks on options"],
        [20],
        hb(SUITED, [], options={"target": 12}),
        err("unsupported"),
    )
    add(
        HB,
        "errors",
        "option-wrong-type",
        "an option of the wrong JSON type: bad_request",
        ["protocol: options, checks on options"],
        [],
        hb(SUITED, [], options={"auction_reentry": "yes"}),
        err("bad_request"),
    )
    add(
        HB,
        "errors",
        "option-unknown-value",
        "an unlisted enum value: unsupported",
        ["protocol: options, checks on options"],
        [4],
        hb(SUITED, [], options={"all_pass": "redeal"}),
        err("unsupported"),
    )
    add(
        HB,
        "errors",
        "action-unreadable",
        "a non-numeric bid: bad_request with hand and action",
        ["protocol: actions, unreadable versus illegal"],
        [],
        hb(SUITED, ["1 bid two"]),
        err("bad_request", hand=0, action=0),
    )
    add(
        HB,
        "errors",
        "action-unknown-verb",
        "a verb Hucklebuck does not have: illegal_action",
        ["protocol: actions, unreadable versus illegal"],
        [],
        hb(SUITED, ["1 fold"]),
        err("illegal_action", hand=0, action=0),
    )
    add(
        HB,
        "errors",
        "action-after-hand-over",
        "an action after the hand is over: illegal_action",
        ["protocol: actions, unreadable versus illegal"],
        [4],
        hb(SUITED, ["1 pass", "2 pass", "0 pass", "1 bid 2"]),
        err("illegal_action", hand=0, action=3),
    )
    add(
        HB,
        "errors",
        "action-not-a-string",
        "an action that is not a string: bad_request",
        ["protocol: actions, unreadable versus illegal"],
        [],
        hb(SUITED, [7]),
        err("bad_request", hand=0, action=0),
    )  # type: ignore[list-item]


# ================================================================= Deer Park
DP = "deerpark"
DPA = ["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"]
DPB = ["AD KD QD TD AC", "JD AH KH JH TH", "KS QS JS TS QH"]
DPC = ["AD KD QD JD TD", "AH KH QH JH TH", "AS KS QS JS TS"]
B_ALL = [
    "1 pass",
    "2 pass",
    "0 pass",
    "1 call H",
    "1 play JD",
    "2 play QH",
    "0 play TD",
    "1 play TH",
    "2 play TS",
    "0 play QD",
    "1 play JH",
    "2 play QS",
    "0 play KD",
    "1 play KH",
    "2 play KS",
    "0 play AD",
    "1 play AH",
    "2 play JS",
    "0 play AC",
]


def dp_deal(hands: list[str], kitty_top: str) -> dict[str, Any]:
    hs = [h.split() for h in hands]
    top = kitty_top.split()
    return {"hands": hs, "kitty": top + rest_of(deerpark_pack(len(hands)), [c for h in hs for c in h] + top)}


def dp(
    hands: list[str],
    kitty_top: str,
    actions: list[str],
    *,
    options: dict[str, Any] | None = None,
    start: dict[str, Any] | None = None,
    more: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "op": "play",
        "game": DP,
        "players": len(hands),
        "options": options or {},
        "start": start or {},
        "hands": [{"deal": dp_deal(hands, kitty_top), "actions": actions}, *(more or [])],
    }


def build_deerpark() -> None:
    pk = ["S4: tens to aces for three; add nines for four, eights for five, and so on"]
    for n in range(3, 8):
        add(
            DP,
            "deck",
            f"players-{n}",
            f"{n} players use the {n + 2} highest ranks of each suit",
            pk,
            [70],
            {"op": "deck", "game": DP, "players": n, "options": {}},
            sort_cards(deerpark_pack(n)),
        )
    add(
        DP,
        "deck",
        "players-8-rejected",
        "eight players are refused by default",
        pk,
        [70],
        {"op": "deck", "game": DP, "players": 8, "options": {}},
        err("bad_request"),
    )
    add(
        DP,
        "deck",
        "players-2-rejected",
        "two players are too few",
        ["S4: the ideal number is three"],
        [81],
        {"op": "deck", "game": DP, "players": 2, "options": {}},
        err("bad_request"),
    )
    tsrc = ["S4: normal rules for Euchre play apply (right and left bowers)"]
    for t in "CDHS":
        p = {"C": "S", "S": "C", "D": "H", "H": "D"}[t]
        for slug, plays, w, title in [
            ("right-over-left", [f"J{p}", f"J{t}"], 1, "the right bower beats the left bower"),
            ("left-over-ace", [f"A{t}", f"J{p}"], 1, "the left bower beats the ace of trump"),
            (
                "left-led-is-trump",
                [f"J{p}", f"A{p}"],
                0,
                "the left bower led is a trump: the partner ace does not follow",
            ),
            ("left-trumps-partner", [f"K{p}", f"J{p}", f"A{p}"], 1, "the left bower trumps its printed suit"),
            ("low-trump-over-ace", [f"A{p}", f"T{t}"], 1, "any trump beats a plain ace"),
        ]:
            add(
                DP,
                "tricks",
                f"{slug}-{t.lower()}",
                f"{title} ({t} trump)",
                tsrc,
                [],
                {"op": "trick_winner", "game": DP, "trump": t, "plays": plays},
                w,
            )
        others = [s for s in "CDHS" if s not in (t, p)]
        add(
            DP,
            "tricks",
            f"plain-jack-{t.lower()}",
            f"the jacks of the other colour are plain ({t} trump)",
            tsrc,
            [],
            {"op": "trick_winner", "game": DP, "trump": t, "plays": [f"Q{others[0]}", f"J{others[0]}"]},
            0,
        )
        add(
            DP,
            "legal",
            f"left-must-follow-trump-{t.lower()}",
            f"holding only the left bower, it must follow trump ({t})",
            tsrc,
            [],
            {
                "op": "legal_plays",
                "game": DP,
                "trump": t,
                "hand": [f"J{p}", f"T{p}", f"A{others[0]}"],
                "trick": [f"K{t}"],
            },
            [f"J{p}"],
        )
        add(
            DP,
            "legal",
            f"left-does-not-follow-partner-{t.lower()}",
            f"the left bower does not follow its printed suit ({t})",
            tsrc,
            [],
            {
                "op": "legal_plays",
                "game": DP,
                "trump": t,
                "hand": [f"J{p}", f"T{p}", f"A{others[0]}"],
                "trick": [f"A{p}"],
            },
            [f"T{p}"],
        )
        add(
            DP,
            "legal",
            f"left-bower-led-{t.lower()}",
            f"the left bower led calls for trump ({t})",
            tsrc,
            [],
            {
                "op": "legal_plays",
                "game": DP,
                "trump": t,
                "hand": [f"A{p}", f"Q{t}", f"K{others[1]}"],
                "trick": [f"J{p}"],
            },
            [f"Q{t}"],
        )
    trick_cases(DP, 40, 303, tsrc, [])
    legal_cases(DP, 30, 404, ["S4: normal rules for Euchre play apply"], [])
    solve_cases(DP, 12, 808)
    bad_card_cases(DP)

    c_src = ["S4: a turned club makes clubs trump and the dealer must take two tricks"]
    add(
        DP,
        "trump",
        "club-turnup",
        "a turned club: clubs trump, dealer maker needing 2, no calling",
        c_src,
        [67, 76],
        dp(DPC, "AC", []),
        {
            "hands": [
                {
                    "to_act": 1,
                    "trump": "C",
                    "maker": 0,
                    "requirement": 2,
                    "legal": play_legal(DP, "C", 1, DPC[1].split(), []),
                }
            ]
        },
    )
    add(
        DP,
        "trump",
        "variant-club-pickup",
        "club_turnup_pickup: the dealer takes the club and discards one",
        c_src,
        [67],
        dp(DPC, "AC", [], options={"club_turnup_pickup": True}),
        {"hands": [{"to_act": 0, "legal": sorted(f"0 discard {c}" for c in DPC[0].split() + ["AC"])}]},
    )
    r1 = ["S4: on the first round only the turned suit can be chosen; the dealer picks it up and discards"]
    add(
        DP,
        "trump",
        "round-one-choices",
        "round one offers only order or pass",
        r1,
        [],
        dp(DPA, "AH", []),
        {"hands": [{"to_act": 1, "trump": None, "maker": None, "legal": ["1 order", "1 pass"]}]},
    )
    add(
        DP,
        "trump",
        "round-one-call-illegal",
        "naming a suit in round one is illegal",
        r1,
        [],
        dp(DPA, "AH", ["1 call S"]),
        err("illegal_action", hand=0, action=0),
    )
    add(
        DP,
        "trump",
        "order-up",
        "ordering up makes a maker needing 3; the dealer picks up and must discard",
        r1 + ["S4: a voluntary caller must take three"],
        [77, 78],
        dp(DPA, "AH", ["1 order"]),
        {
            "hands": [
                {
                    "to_act": 0,
                    "maker": 1,
                    "requirement": 3,
                    "trump": "H",
                    "legal": sorted(f"0 discard {c}" for c in DPA[0].split() + ["AH"]),
                }
            ]
        },
    )
    add(
        DP,
        "trump",
        "discard-picked-up-card",
        "the dealer may discard the card just picked up",
        r1,
        [77],
        dp(DPA, "AH", ["1 order", "0 discard AH"]),
        {"hands": [{"to_act": 1, "legal": play_legal(DP, "H", 1, DPA[1].split(), [])}]},
    )
    add(
        DP,
        "trump",
        "discard-by-non-dealer",
        "only the dealer discards",
        r1,
        [77],
        dp(DPA, "AH", ["1 order", "1 discard AC"]),
        err("illegal_action", hand=0, action=1),
    )
    add(
        DP,
        "trump",
        "dealer-orders-needs-three",
        "a dealer who orders up is a voluntary maker",
        r1,
        [79],
        dp(["AH KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"], "AD", ["1 pass", "2 pass", "0 order"]),
        {"hands": [{"maker": 0, "requirement": 3, "to_act": 0}]},
    )
    r2 = ["S4: on the second round any suit can be chosen"]
    add(
        DP,
        "trump",
        "round-two-any-suit",
        "round two may name any suit, the turned one included",
        r2,
        [68],
        dp(DPA, "AH", ["1 pass", "2 pass", "0 pass"]),
        {"hands": [{"to_act": 1, "legal": ["1 call C", "1 call D", "1 call H", "1 call S", "1 pass"]}]},
    )
    add(
        DP,
        "trump",
        "round-two-no-pickup",
        "a round-two caller needs 3 and nobody picks up",
        r2,
        [68, 69],
        dp(DPA, "AH", ["1 pass", "2 pass", "0 pass", "1 call H"]),
        {
            "hands": [
                {
                    "maker": 1,
                    "requirement": 3,
                    "trump": "H",
                    "to_act": 1,
                    "legal": play_legal(DP, "H", 1, DPA[1].split(), []),
                }
            ]
        },
    )
    add(
        DP,
        "trump",
        "variant-round2-excludes",
        "round2_excludes_turned_suit: the turned suit is not offered",
        r2,
        [68],
        dp(DPA, "AH", ["1 pass", "2 pass", "0 pass"], options={"round2_excludes_turned_suit": True}),
        {"hands": [{"legal": ["1 call C", "1 call D", "1 call S", "1 pass"]}]},
    )
    add(
        DP,
        "trump",
        "variant-round2-excludes-illegal",
        "round2_excludes_turned_suit: naming it is illegal",
        r2,
        [68],
        dp(
            DPA,
            "AH",
            ["1 pass", "2 pass", "0 pass", "1 call H"],
            options={"round2_excludes_turned_suit": True},
        ),
        err("illegal_action", hand=0, action=3),
    )
    sd = ["S4: if everyone passes twice the dealer must call trump and take two tricks"]
    stuck = ["1 pass", "2 pass", "0 pass", "1 pass", "2 pass"]
    add(
        DP,
        "trump",
        "stuck-dealer-must-call",
        "the stuck dealer may only name a suit",
        sd,
        [],
        dp(DPA, "AH", stuck),
        {"hands": [{"to_act": 0, "legal": ["0 call C", "0 call D", "0 call H", "0 call S"]}]},
    )
    add(
        DP,
        "trump",
        "stuck-dealer-pass-illegal",
        "the stuck dealer may not pass",
        sd,
        [],
        dp(DPA, "AH", [*stuck, "0 pass"]),
        err("illegal_action", hand=0, action=5),
    )
    add(
        DP,
        "trump",
        "stuck-dealer-needs-two",
        "the stuck dealer's requirement is 2",
        sd,
        [79],
        dp(DPA, "AH", [*stuck, "0 call S"]),
        {"hands": [{"maker": 0, "requirement": 2, "trump": "S"}]},
    )
    add(
        DP,
        "trump",
        "variant-stuck-dealer-any-suit",
        "round2_excludes_turned_suit still lets the stuck dealer name the turned suit",
        sd,
        [68],
        dp(DPA, "AH", stuck, options={"round2_excludes_turned_suit": True}),
        {"hands": [{"legal": ["0 call C", "0 call D", "0 call H", "0 call S"]}]},
    )
    lk = ["S4: at 45 points a player may not call trump unless stuck as dealer"]
    add(
        DP,
        "lock",
        "locked-only-pass",
        "a player on 45 may only pass",
        lk,
        [75],
        dp(DPA, "AH", [], start={"scores": [47, 45, 44]}),
        {"hands": [{"legal": ["1 pass"]}]},
    )
    add(
        DP,
        "lock",
        "locked-order-illegal",
        "ordering up at 45 is illegal",
        lk,
        [75],
        dp(DPA, "AH", ["1 order"], start={"scores": [47, 45, 44]}),
        err("illegal_action", hand=0, action=0),
    )
    add(
        DP,
        "lock",
        "44-may-call",
        "a player on 44 may call",
        lk,
        [75],
        dp(DPA, "AH", ["1 pass", "2 order"], start={"scores": [47, 45, 44]}),
        {"hands": [{"maker": 2}]},
    )
    add(
        DP,
        "lock",
        "stuck-dealer-exempt",
        "the stuck dealer must call even at 48",
        lk,
        [75],
        dp(DPA, "AH", [*stuck, "0 call D"], start={"scores": [48, 45, 46]}),
        {"hands": [{"maker": 0, "requirement": 2}]},
    )
    add(
        DP,
        "lock",
        "locked-round-two",
        "the lock covers naming a suit in round two",
        lk,
        [75],
        dp(DPA, "AH", ["1 pass", "2 pass", "0 pass", "1 call S"], start={"scores": [20, 45, 20]}),
        err("illegal_action", hand=0, action=3),
    )
    add(
        DP,
        "lock",
        "variant-lock-at",
        "lock_at=40",
        lk,
        [75],
        dp(DPA, "AH", [], start={"scores": [20, 41, 20]}, options={"lock_at": 40}),
        {"hands": [{"legal": ["1 pass"]}]},
    )
    add(
        DP,
        "lock",
        "club-turnup-not-a-call",
        "a turned club binds the dealer even at 49",
        lk,
        [75],
        dp(DPC, "AC", [], start={"scores": [49, 20, 20]}),
        {"hands": [{"maker": 0, "requirement": 2}]},
    )

    pl = ["S4: normal rules for Euchre play apply"]
    follow = ["AD KD QD TD AS", "JD KH QC JH TH", "KS QS JS TS QH"]
    add(
        DP,
        "play",
        "eldest-leads",
        "the dealer's left leads the first trick",
        pl,
        [71],
        dp(DPA, "AH", ["1 pass", "2 order", "0 discard AH"]),
        {"hands": [{"to_act": 1}]},
    )
    add(
        DP,
        "play",
        "variant-maker-leads",
        "first_lead=maker",
        pl,
        [71],
        dp(DPA, "AH", ["1 pass", "2 order", "0 discard AH"], options={"first_lead": "maker"}),
        {"hands": [{"to_act": 2}]},
    )
    add(
        DP,
        "play",
        "left-bower-led",
        "the left bower led calls for trump",
        pl,
        [],
        dp(follow, "AH", ["1 pass", "2 pass", "0 order", "0 discard AH", "1 play JD"]),
        {"hands": [{"to_act": 2, "legal": ["2 play QH"], "current_trick": {"leader": 1, "cards": ["JD"]}}]},
    )
    add(
        DP,
        "play",
        "renege-effective-suit",
        "not following the effective suit is illegal",
        pl,
        [],
        dp(follow, "AH", ["1 pass", "2 pass", "0 order", "0 discard AH", "1 play JD", "2 play KS"]),
        err("illegal_action", hand=0, action=5),
    )
    add(
        DP,
        "play",
        "unknown-verb-drop",
        "'drop' is not a Deer Park Euchre action",
        ["protocol: actions, unreadable versus illegal"],
        [],
        dp(DPA, "AH", ["1 drop"]),
        err("illegal_action", hand=0, action=0),
    )

    s_src = [
        "S4: everyone other than the caller must take a trick or go up 5",
        "S4: the caller must take three or go up 5",
    ]
    add(
        DP,
        "scoring",
        "maker-takes-all",
        "a maker who takes all five goes down 5; others up 5",
        s_src,
        [65, 83],
        dp(DPB, "AS", B_ALL),
        {
            "hands": [
                {
                    "complete": True,
                    "maker": 1,
                    "requirement": 3,
                    "trump": "H",
                    "tricks_won": [0, 5, 0],
                    "delta": [5, -5, 5],
                    "scores": [25, 15, 25],
                }
            ],
            "final": {"dealer": 1},
        },
    )
    spade = [
        "1 pass",
        "2 pass",
        "0 pass",
        "1 call S",
        "1 play AH",
        "2 play QH",
        "0 play TD",
        "1 play KH",
        "2 play TS",
        "0 play QD",
        "2 play KS",
        "0 play KD",
        "1 play TH",
        "2 play QS",
        "0 play AD",
        "1 play JH",
        "2 play JS",
        "0 play AC",
        "1 play JD",
    ]
    add(
        DP,
        "scoring",
        "maker-set",
        "a maker short of 3 goes up 5; a defender with 4 goes down 4",
        s_src,
        [65, 66],
        dp(DPB, "AS", spade),
        {"hands": [{"tricks_won": [0, 1, 4], "delta": [5, 5, -4]}]},
    )
    add(
        DP,
        "scoring",
        "variant-failed-tricks-count",
        "failed_contract_tricks_count: +5 minus the tricks",
        s_src,
        [66],
        dp(DPB, "AS", spade, options={"failed_contract_tricks_count": True}),
        {"hands": [{"delta": [5, 4, -4]}]},
    )
    e_src = ["S4: the first person to 0 or 50 points wins"]
    for slug, scores, fin in [
        ("reach-zero", [20, 3, 20], {"game_over": True, "winners": [1]}),
        ("reach-fifty", [45, 30, 20], {"game_over": True, "winners": [0]}),
        ("farthest-wins", [47, 4, 20], {"game_over": True, "winners": [0]}),
        ("equal-distance-maker", [46, 4, 20], {"game_over": True, "winners": [1]}),
        (
            "tie-without-maker",
            [46, 30, 46],
            {"game_over": False, "winners": [], "scores": [51, 25, 51], "dealer": 1},
        ),
    ]:
        add(
            DP,
            "end",
            slug,
            f"game end from {scores}",
            e_src,
            [73, 74],
            dp(DPB, "AS", B_ALL, start={"scores": scores}),
            {"final": fin},
        )
    add(
        DP,
        "end",
        "variant-shared",
        "tie_break=shared",
        e_src,
        [74],
        dp(DPB, "AS", B_ALL, start={"scores": [46, 30, 46]}, options={"tie_break": "shared"}),
        {"final": {"game_over": True, "winners": [0, 2]}},
    )
    add(
        DP,
        "end",
        "two-hands",
        "scores carry over and the deal passes left",
        e_src,
        [81],
        dp(DPB, "AS", B_ALL, more=[{"deal": dp_deal(DPA, "AH"), "actions": ["2 pass"]}]),
        {
            "hands": [{"complete": True}, {"complete": False, "dealer": 1, "to_act": 0}],
            "final": {"scores": [25, 15, 25], "dealer": 1},
        },
    )
    b_src = ["protocol: the deal must come from the game's pack for the player count"]
    add(
        DP,
        "errors",
        "deal-wrong-pack",
        "a nine in a three-player deal: bad_request",
        b_src,
        [70],
        {
            **dp(DPA, "AH", []),
            "hands": [
                {
                    "deal": {
                        "hands": [["9D", "KD", "QD", "JD", "TD"], DPA[1].split(), DPA[2].split()],
                        "kitty": ["AH", "KC", "QC", "JC", "TC"],
                    },
                    "actions": [],
                }
            ],
        },
        err("bad_request"),
    )
    add(
        DP,
        "errors",
        "deal-kitty-size",
        "a kitty of the wrong size: bad_request",
        b_src,
        [70],
        {
            **dp(DPA, "AH", []),
            "hands": [{"deal": {"hands": [h.split() for h in DPA], "kitty": ["AH", "KC"]}, "actions": []}],
        },
        err("bad_request"),
    )
    add(
        DP,
        "errors",
        "eight-players",
        "eight players: bad_request",
        b_src,
        [70],
        {
            "op": "play",
            "game": DP,
            "players": 8,
            "options": {},
            "start": {},
            "hands": [{"deal": {"hands": [], "kitty": []}, "actions": []}],
        },
        err("bad_request"),
    )
    add(
        DP,
        "errors",
        "option-first-lead",
        "an unknown first_lead: unsupported",
        ["protocol: options, checks on options"],
        [71],
        dp(DPA, "AH", [], options={"first_lead": "dealer"}),
        err("unsupported"),
    )
    add(
        DP,
        "errors",
        "option-lock-at-type",
        "lock_at as a string: bad_request",
        ["protocol: options, checks on options"],
        [75],
        dp(DPA, "AH", [], options={"lock_at": "45"}),
        err("bad_request"),
    )


# ================================================================= Buck 'Em
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


def build_buckem() -> None:
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
        ["protocol: play, the deal"],
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

    rk = ["S3: a lone stayer rakes with the ace of trump, or two trumps with a king, queen or jack"]
    for slug, hand, ok in [
        ("king-pair", "KS 3S 2C 3C 4C", True),
        ("jack-pair", "JS 2S 2C 3C 4C", True),
        ("ace-alone", "AS 2C 3C 4C 5C", True),
        ("no-face", "4S 3S 2C 3C 4C", False),
        ("one-face", "KS AC KC QC 4C", False),
        ("off-suit-faces", "KH QH JH 2C 3C", False),
    ]:
        hands = ["2D 3D 4D 5D 6D", hand, "7D 8D 9D TD JD", "QD KD AD 7H 8H", "9H TH 5H 6H 7C"]
        exp = (
            {"raked": 1, "winners": [1], "payouts": [0, 5, 0, 0, 0], "pot": 0, "ante_due": True}
            if ok
            else {"raked": None, "winners": [], "burned": [], "tricks": [], "pot": 5, "ante_due": True}
        )
        add(
            BK,
            "rake",
            slug,
            f"rake test: {hand} {'qualifies' if ok else 'does not'}",
            rk,
            [43, 44, 47],
            bk(hands, "9S", decide({1})),
            {"hands": [{"complete": True, "stayers": [1], **exp}]},
        )
    add(
        BK,
        "rake",
        "half-of-double",
        "a double pot is raked by half; the rest stays with no ante",
        ["S3: if the pot is double or larger the player rakes half; leftover means no ante"],
        [41, 45, 46],
        bk(TOP, "9S", decide({1}), start={"pot": 7, "pot_units": 2, "ante_due": False}),
        {"hands": [{"payouts": [0, 3, 0, 0, 0], "pot": 4, "pot_units": 1, "ante_due": False}]},
    )
    rh = ["2D 3D 4D 5D 6D", "2S 3S 2C 3C 4C", "7D 8D 9D TD JD", "QD KD AD 7H 8H", "9H TH 5H 6H 7C"]
    add(
        BK,
        "rake",
        "as-dealt",
        "the rake test looks at the hand as dealt",
        rk,
        [42],
        bk(rh, "QS", ["1 stay swap", "2 fold", "3 fold", "4 fold", "0 fold"], options={"deuce_swap": True}),
        {"hands": [{"raked": None}]},
    )
    add(
        BK,
        "rake",
        "variant-after-swap",
        "rake_hand=after_swap",
        rk,
        [42],
        bk(
            rh,
            "QS",
            ["1 stay swap", "2 fold", "3 fold", "4 fold", "0 fold"],
            options={"deuce_swap": True, "rake_hand": "after_swap"},
        ),
        {"hands": [{"raked": 1}]},
    )
    vd = ["S3: if no one stays, no rake occurs and a new round begins"]
    add(
        BK,
        "void",
        "nobody-stays",
        "nobody stays: the pot carries and the next round antes",
        vd,
        [48],
        bk(TOP, "9S", decide(set())),
        {"hands": [{"stayers": [], "raked": None, "pot": 5, "pot_units": 1, "ante_due": True}]},
    )
    add(
        BK,
        "void",
        "variant-no-ante",
        "after_void_round_ante=false",
        vd,
        [47, 48],
        bk(TOP, "9S", decide(set()), options={"after_void_round_ante": False}),
        {"hands": [{"ante_due": False}]},
    )
    add(
        BK,
        "void",
        "next-round-antes",
        "after a void round the pot grows by a fresh ante (two units)",
        vd,
        [41, 48],
        bk(TOP, "9S", decide(set()), more=[{"deal": bk_deal(TOP, "9S"), "actions": []}]),
        {"hands": [{"complete": True}, {"complete": False, "pot": 10, "pot_units": 2}]},
    )

    st = [
        "S3: one player with 2+ tricks takes the pot; players with 0 or 1 trick are burned and match the pot"
    ]
    add(
        BK,
        "settle",
        "one-winner-one-burn",
        "one winner takes the pot; the burned player matches it",
        st,
        [36],
        bk(SOLO, "9S", [*decide({1, 2}), *pat([1, 2]), *SOLO_PLAY]),
        {
            "hands": [
                {
                    "complete": True,
                    "stayers": [1, 2],
                    "winners": [1],
                    "burned": [2],
                    "tricks_won": [0, 5, 0, 0, 0],
                    "payouts": [0, 5, 0, 0, 0],
                    "delta": [-1, 4, -6, -1, -1],
                    "bankrolls": [-1, 4, -6, -1, -1],
                    "pot": 5,
                    "pot_units": 1,
                    "ante_due": False,
                }
            ],
            "final": {"game_over": False, "winners": [], "dealer": 1, "pot": 5},
        },
    )
    add(
        BK,
        "settle",
        "burn-round-no-ante",
        "the next round is funded by the burn alone",
        st,
        [64],
        bk(
            SOLO,
            "9S",
            [*decide({1, 2}), *pat([1, 2]), *SOLO_PLAY],
            more=[
                {"deal": bk_deal(SOLO, "9S"), "actions": ["2 fold", "3 fold", "4 fold", "0 fold", "1 fold"]}
            ],
        ),
        {
            "hands": [{"complete": True}, {"delta": [0] * 5, "pot": 5, "ante_due": True}],
            "final": {"bankrolls": [-1, 4, -6, -1, -1], "pot": 5, "dealer": 2},
        },
    )
    for slug, opts, pay, pot in [
        ("equal-buckup", {}, [0, 4, 3, 0, 0], 0),
        ("odd-chip-carry", {"odd_chip": "carry"}, [0, 3, 3, 0, 0], 1),
        ("proportional", {"split": "proportional"}, [0, 4, 2, 0, 0], 1),
    ]:
        add(
            BK,
            "settle",
            slug,
            f"two winners (3-2) split a pot of 7: {slug}",
            st + ["S3: two winners split the pot"],
            [37, 38],
            bk(
                TOP,
                "9S",
                [*decide({1, 2}), *pat([1, 2]), *SPLIT_PLAY],
                options=opts,
                start={"pot": 2, "pot_units": 1},
            ),
            {
                "hands": [
                    {
                        "tricks_won": [0, 3, 2, 0, 0],
                        "winners": [1, 2],
                        "burned": [],
                        "payouts": pay,
                        "pot": pot,
                        "pot_units": 0,
                        "ante_due": True,
                    }
                ]
            },
        )
    add(
        BK,
        "settle",
        "two-two-one",
        "2-2-1: the odd chip stays; the 1-trick player is burned",
        st,
        [37, 63],
        bk(T221, "9S", [*decide({1, 2, 3}), *pat([1, 2, 3]), *T221_PLAY]),
        {
            "hands": [
                {
                    "tricks_won": [0, 2, 2, 1, 0],
                    "payouts": [0, 2, 2, 0, 0],
                    "burned": [3],
                    "pot": 6,
                    "pot_units": 1,
                }
            ]
        },
    )
    add(
        BK,
        "settle",
        "variant-pot-limit",
        "pot_limit caps the burn payment",
        st,
        [57],
        bk(T221, "9S", [*decide({1, 2, 3}), *pat([1, 2, 3]), *T221_PLAY], options={"pot_limit": 3}),
        {"hands": [{"delta": [-1, 1, 1, -4, -1], "pot": 4}]},
    )
    add(
        BK,
        "settle",
        "no-winners",
        "five stayers with a trick each: all burned, the pot carries",
        st + ["S3: if five or more stay and no one wins, every stayer is burned"],
        [39, 63],
        bk(ONE_EACH, "AS", [*decide({0, 1, 2, 3, 4}), *pat([1, 2, 3, 4, 0]), *ONE_EACH_PLAY]),
        {
            "hands": [
                {
                    "tricks_won": [1] * 5,
                    "winners": [],
                    "burned": [0, 1, 2, 3, 4],
                    "pot": 30,
                    "pot_units": 6,
                    "bankrolls": [-6] * 5,
                }
            ]
        },
    )
    pl = ["S3: the first staying player left of the dealer leads; follow suit if able"]
    add(
        BK,
        "play",
        "first-stayer-leads",
        "the first stayer left of the dealer leads",
        pl,
        [60],
        bk(TOP, "9S", [*decide({0, 2, 4}), *pat([2, 4, 0])]),
        {"hands": [{"to_act": 2, "legal": play_legal(BK, "S", 2, TOP[2].split(), [])}]},
    )
    add(
        BK,
        "play",
        "must-follow",
        "a player holding the suit led must follow",
        pl,
        [61],
        bk(TOP, "9S", [*decide({1, 2}), *pat([1, 2]), "1 play 2C", "2 play QH"]),
        err("illegal_action", hand=0, action=8),
    )
    add(
        BK,
        "play",
        "not-held",
        "playing a card not held is illegal",
        pl,
        [],
        bk(TOP, "9S", [*decide({1, 2}), *pat([1, 2]), "1 play AH"]),
        err("illegal_action", hand=0, action=7),
    )
    add(
        BK,
        "draw",
        "four-cards-illegal",
        "drawing 4 cards is illegal",
        ["S3: discard and draw 0-3"],
        [53],
        bk(TOP, "9S", [*decide({1, 2}), "1 draw 2C 3C QS KS"]),
        err("illegal_action", hand=0, action=5),
    )
    add(
        BK,
        "draw",
        "replacements-from-stock",
        "a stayer's discards are replaced from the top of the stock",
        ["S3: players who stay may discard and draw 0-3 cards"],
        [53],
        bk(TOP, "9S", [*decide({1, 2}), "1 draw 2C 3C", "2 draw", "1 play 4C"]),
        {"hands": [{"to_act": 2, "current_trick": {"leader": 1, "cards": ["4C"]}}]},
    )
    # Eight players, seven stay and draw three each: the stock (11) runs out at seat 4, the folded hand
    # refills it, then the discards of seats 1-5 (never seat 6's own) do.
    deck8 = sort_cards(full_pack())
    hands8 = [" ".join(deck8[5 * i : 5 * i + 5]) for i in range(8)]
    up8 = deck8[40]
    draws = [f"{s} draw {' '.join(hands8[s].split()[:3])}" for s in range(1, 8)]
    first = hands8[0].split()
    second = sort_cards([c for s in range(1, 6) for c in hands8[s].split()[:3]])
    add(
        BK,
        "draw",
        "depleted-deck",
        "the stock runs out: folded hands first, then earlier discards",
        ["S3: the dealer reshuffles the folded players' discards"],
        [49, 50],
        bk(hands8, up8, [*decide(set(range(1, 8)), 8), *draws], restock=[first, second]),
        {"hands": [{"complete": False, "to_act": 1, "restock": [first, second]}]},
    )
    add(
        BK,
        "draw",
        "depleted-deck-wrong-restock",
        "a restock that is not the folded hands: bad_request",
        ["protocol: a restock must be exactly the cards the rules put there"],
        [50],
        bk(hands8, up8, [*decide(set(range(1, 8)), 8), *draws], restock=[second[:5], first]),
        err("bad_request"),
    )
    sh = ["S3 variations: five players remove the 2s and 3s; trump may come from a removed card"]
    short5 = ["4D 5D 6D 7D 8D", "AS KS QS 4C 5C", "AC KC QH JH TH", "9D TD JD QD KD", "4H 5H 6H 7H 8H"]
    add(
        BK,
        "short",
        "short-deal",
        "a short-handed five-player deal",
        sh,
        [58],
        bk(short5, "9S", [], options={"short_handed": True}),
        {"hands": [{"trump": "S", "to_act": 1}]},
    )
    add(
        BK,
        "short",
        "short-deal-wrong-pack",
        "a 2 in a short-handed five-player deal: bad_request",
        sh,
        [58],
        {
            **bk(short5, "9S", [], options={"short_handed": True}),
            "hands": [
                {
                    "deal": {
                        "hands": [["2D", *short5[0].split()[1:]], *[h.split() for h in short5[1:]]],
                        "upcard": "9S",
                        "stock": bk_deal(short5, "9S", short=True)["stock"],
                    },
                    "actions": [],
                }
            ],
        },
        err("bad_request"),
    )
    add(
        BK,
        "short",
        "removed-card-trump",
        "removed_card: the upcard is a removed card and sets trump",
        sh,
        [58],
        bk(short5, "2H", [], options={"short_handed": True, "short_handed_trump": "removed_card"}),
        {"hands": [{"trump": "H"}]},
    )
    add(
        BK,
        "short",
        "removed-card-must-be-removed",
        "removed_card with an upcard from the pack: bad_request",
        sh,
        [58],
        {
            **bk(short5, "2H", [], options={"short_handed": True, "short_handed_trump": "removed_card"}),
            "hands": [
                {
                    "deal": {
                        "hands": [h.split() for h in short5],
                        "upcard": "AD",
                        "stock": [
                            c for c in bk_deal(short5, "2H", short=True, removed=True)["stock"] if c != "AD"
                        ],
                    },
                    "actions": [],
                }
            ],
        },
        err("bad_request"),
    )
    add(
        BK,
        "short",
        "seven-keep-52",
        "short_handed at seven players keeps 52 cards",
        sh,
        [58],
        {"op": "deck", "game": BK, "players": 7, "options": {"short_handed": True}},
        sort_cards(full_pack()),
    )
    add(
        BK,
        "errors",
        "option-ante-zero",
        "ante 0: bad_request",
        ["protocol: options, checks on options"],
        [35],
        bk(TOP, "9S", [], options={"ante": 0}),
        err("bad_request"),
    )
    add(
        BK,
        "errors",
        "option-pot-limit-zero",
        "pot_limit 0: bad_request",
        ["protocol: options, checks on options"],
        [57],
        bk(TOP, "9S", [], options={"pot_limit": 0}),
        err("bad_request"),
    )
    add(
        BK,
        "errors",
        "option-odd-chip-unknown",
        "an unlisted odd_chip: unsupported",
        ["protocol: options, checks on options"],
        [37],
        bk(TOP, "9S", [], options={"odd_chip": "dealer"}),
        err("unsupported"),
    )
    add(
        BK,
        "errors",
        "start-bankrolls-type",
        "bankrolls of the wrong type: bad_request",
        ["protocol: play, the deal"],
        [62],
        bk(TOP, "9S", [], start={"bankrolls": "none"}),
        err("bad_request"),
    )
    add(
        BK,
        "errors",
        "deal-duplicate-upcard",
        "the upcard also in a hand: bad_request",
        ["protocol: play, the deal"],
        [51],
        {
            **bk(TOP, "9S", []),
            "hands": [
                {
                    "deal": {
                        "hands": [h.split() for h in TOP],
                        "upcard": "AS",
                        "stock": bk_deal(TOP, "9S")["stock"],
                    },
                    "actions": [],
                }
            ],
        },
        err("bad_request"),
    )


def main() -> None:
    build_hucklebuck()
    build_deerpark()
    build_buckem()
    coverage_cases.build(add, err, hb, bk, dp)
    for game, areas in CASES.items():
        folder = OUT / game
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.json"):
            old.unlink()
        for area, cases in areas.items():
            text = json.dumps({"cases": cases}, indent=1, ensure_ascii=False)
            (folder / f"{area}.json").write_text(text + "\n", encoding="utf-8")
        print(f"{game}: {sum(len(c) for c in areas.values())} cases")


if __name__ == "__main__":
    main()
