"""Cases on deciding boundaries that a mutation study of the rule modules found
undecided: a Deer Park hand ending with one seat on exactly 0 and another on
exactly 50 (and its neighbours), a Hucklebuck stayer with exactly one trick, a
bid made exactly and one trick short, a moon from a score of exactly 1, the
Buck 'Em odd chip under ``odd_chip=first_left_of_dealer``, and a Hucklebuck
stock re-formed twice in one hand.  Each expected answer is worked out from
the rule it cites (the comments show the arithmetic)."""

from __future__ import annotations

from reference import full_pack, sort_cards

from .buckem import BK, TOP, bk, decide, pat
from .common import add, err
from .deerpark import B_ALL, DP, DPB, dp
from .hucklebuck import HB, SPADES_RUN, SUITED, hb

#: The maker, seat 1, calls spades and takes one trick: +5 to both players
#: without a trick (the maker is set), -4 to seat 2 with four.
SPADE_SET = [
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


def build() -> None:
    """Add the cases of this file."""
    _deerpark_goals()
    _deerpark_made_exactly()
    _hucklebuck_hand()
    _hucklebuck_restock()
    _buckem_odd_chip()


def _deerpark_goals() -> None:
    goal = ["S4: the first person to 0 or 50 points wins"]
    # SPADE_SET: delta [+5, +5, -4]; B_ALL: the maker (seat 1) takes all five, delta [+5, -5, +5]
    for slug, actions, start, scores, fin, deciding in [
        (
            "zero-and-fifty-play-on",
            SPADE_SET,
            [45, 20, 4],
            [50, 25, 0],
            {"game_over": False, "winners": []},
            "deerpark/def-74-zero-and-fifty-play-on",
        ),
        (
            "fifty-and-minus-one",
            SPADE_SET,
            [45, 20, 3],
            [50, 25, -1],
            {"game_over": True, "winners": [2]},
            "deerpark/def-74-fifty-and-minus-one",
        ),
        (
            "forty-nine-and-zero",
            SPADE_SET,
            [44, 20, 4],
            [49, 25, 0],
            {"game_over": True, "winners": [2]},
            None,
        ),
        (
            "maker-zero-and-fifty",
            B_ALL,
            [45, 5, 20],
            [50, 0, 25],
            {"game_over": True, "winners": [1]},
            "deerpark/def-74-zero-and-fifty-maker",
        ),
        (
            "fifty-one-and-maker-zero",
            B_ALL,
            [46, 5, 20],
            [51, 0, 25],
            {"game_over": True, "winners": [0]},
            None,
        ),
    ]:
        add(
            DP,
            "end",
            slug,
            f"scores {start} become {scores}: "
            + (
                f"seat {fin['winners'][0]} wins"
                if fin["winners"]
                else "two goals at equal distance, no maker: play goes on"
            ),
            goal,
            [73, 74],
            dp(DPB, "AS", actions, start={"scores": start}),
            {"hands": [{"scores": scores}], "final": fin},
            deciding=[deciding] if deciding else None,
        )


def _deerpark_made_exactly() -> None:
    """The maker, seat 1, calls hearts and takes exactly the three tricks needed: -3; seat 0
    with two tricks -2; seat 2 with none +5."""
    hands = ["AC KC QC AD KD", "JH JD AH TC TD", "KS QS JS TS QH"]
    actions = [
        *("1 pass", "2 pass", "0 pass", "1 call H"),
        *("1 play JH", "2 play QH", "0 play QC", "1 play JD", "2 play JS", "0 play KC"),
        *("1 play AH", "2 play QS", "0 play KD", "1 play TC", "2 play KS", "0 play AC"),
        *("0 play AD", "1 play TD", "2 play TS"),
    ]
    add(
        DP,
        "scoring",
        "maker-exactly-three",
        "a maker who takes exactly the three tricks needed makes it: -3 (a defender with two: -2)",
        ["S4: the caller must take three or go up 5"],
        [65],
        dp(hands, "AS", actions),
        {"hands": [{"maker": 1, "requirement": 3, "tricks_won": [2, 3, 0], "delta": [-2, -3, 5]}]},
        deciding=["deerpark/def-65-maker-exactly-requirement"],
    )


def _hucklebuck_hand() -> None:
    sc = ["S0: active players score 1 per trick or -5 for none; a bidder who fails loses 5"]
    one = ["AH 2C 3C 4C 5C", "AS KS QS JS 2H", "AD KD QD JD TD"]
    one_play = [
        "1 play AS",
        "0 play 2C",
        "1 play KS",
        "0 play 3C",
        "1 play QS",
        "0 play 4C",
        "1 play JS",
        "0 play 5C",
        "1 play 2H",
        "0 play AH",
    ]
    stay = ["2 drop", "0 stay 0", "1 stay 0"]
    add(
        HB,
        "scoring",
        "stayer-exactly-one-trick",
        "a non-bidder who stays and takes exactly one trick scores +1; the bidder of 4 with 4 scores 4",
        sc,
        [10, 9],
        hb(one, ["1 bid 4", "2 pass", "0 pass", "1 trump S", *stay, *one_play]),
        {"hands": [{"tricks_won": [1, 4, 0], "delta": [1, 4, 0], "scores": [1, 4, 0]}]},
        deciding=["hucklebuck/def-10-stayer-one-trick", "hucklebuck/def-9-bid-made-exactly"],
    )
    two = ["AH KH 2C 3C 4C", "AS KS QS 2H 3H", "AD KD QD JD TD"]
    two_play = [
        "1 play AS",
        "0 play 2C",
        "1 play KS",
        "0 play 3C",
        "1 play QS",
        "0 play 4C",
        "1 play 2H",
        "0 play AH",
        "0 play KH",
        "1 play 3H",
    ]
    for bid, delta, name in (
        (3, 3, "hucklebuck/def-9-bid-made-exactly"),
        (4, -5, "hucklebuck/def-7-one-short"),
    ):
        add(
            HB,
            "scoring",
            f"bid-{bid}-with-three",
            f"a bidder of {bid} takes three tricks: " + ("+3, made exactly" if bid == 3 else "-5, one short"),
            sc,
            [9] if bid == 3 else [7],
            hb(two, [f"1 bid {bid}", "2 pass", "0 pass", "1 trump S", *stay, *two_play]),
            {"hands": [{"tricks_won": [2, 3, 0], "delta": [2, delta, 0]}]},
            deciding=[name],
        )
    m_src = ["S0: a successful moon from a positive score wins the game"]
    moon = ["1 bid 5", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0", *SPADES_RUN]
    add(
        HB,
        "moon",
        "wins-from-exactly-one",
        "a moon made from a score of exactly 1 (positive) wins at once; the others' -5 still count",
        m_src,
        [15, 12],
        hb(SUITED, moon, start={"scores": [0, 1, 0]}),
        {
            "hands": [{"delta": [-5, 5, -5], "scores": [-5, 6, -5]}],
            "final": {"game_over": True, "winners": [1]},
        },
        deciding=["hucklebuck/def-15-moon-from-exactly-one"],
    )


def _hucklebuck_restock() -> None:
    """Seven players all stay and exchange five: 17 cards of stock serve seats 2, 3 and 4 and
    two cards of seat 5's; a new stock of the 15 discards of seats 2, 3, 4 serves the rest of
    seat 5 and seats 6 and 0 (3 + 5 + 5 = 13, two left), and a second new stock of the 15
    discards of seats 5, 6 and 0 serves the bidder, seat 1 (2 + 3)."""
    src = ["S0: each active player discards the number stated and the dealer deals as many"]
    pack = sort_cards(full_pack())
    hands = [" ".join(pack[5 * i : 5 * i + 5]) for i in range(7)]
    order = [2, 3, 4, 5, 6, 0, 1]
    actions = ["1 bid 2", *(f"{s} pass" for s in order[:-1]), "1 trump S", *(f"{s} stay 5" for s in order)]
    actions += [f"{s} discard {hands[s]}" for s in order]
    first = [c for s in (2, 3, 4) for c in hands[s].split()]
    second = [c for s in (5, 6, 0) for c in hands[s].split()]
    add(
        HB,
        "exchange",
        "stock-re-formed-twice",
        "the stock runs out twice in one exchange; the second new stock is the discards of seats 5, 6, 0",
        src,
        [18, 19],
        hb(hands, actions, restock=[first, second]),
        {"hands": [{"complete": False, "restock": [first, second], "tricks": []}]},
        deciding=["hucklebuck/def-18-stock-re-formed-twice"],
    )
    wrong = [*second[:-1], hands[1].split()[0]]  # the bidder's own discard instead of one of seat 0's
    add(
        HB,
        "exchange",
        "stock-re-formed-twice-own-discard",
        "a second new stock holding a discard of the player being served: bad_request at that discard",
        ["protocol: play, re-formed stocks: a restock must be exactly the cards the rules put there"],
        [18],
        hb(hands, actions, restock=[first, wrong]),
        err("bad_request", hand=0, action=len(actions) - 1),
    )


def _buckem_odd_chip() -> None:
    """Dealer 1: seat 2 leads and takes two tricks, seat 1 three; a pot of 2 + 5 antes = 7 is
    split 3 and 3 and the odd chip goes to seat 2 (first from the dealer's left), not seat 1."""
    play = [
        "2 play AC",
        "1 play 2C",
        "2 play KC",
        "1 play 3C",
        "2 play QH",
        "1 play AS",
        "1 play KS",
        "2 play JH",
        "1 play QS",
        "2 play TH",
    ]
    for slug, opts, pay in [
        ("odd-chip-first-left-of-dealer", {"odd_chip": "first_left_of_dealer"}, [0, 3, 4, 0, 0]),
        ("odd-chip-buckup-dealer-1", {}, [0, 4, 3, 0, 0]),
    ]:
        add(
            BK,
            "settle",
            slug,
            f"dealer 1, a pot of 7 split 3-2 between seats 1 and 2: payouts {pay}",
            ["S3: two winners split the pot"],
            [37, 38],
            bk(
                TOP,
                "9S",
                [*decide({1, 2}, dealer=1), *pat([2, 1]), *play],
                options=opts,
                start={"dealer": 1, "pot": 2, "pot_units": 1},
            ),
            {"hands": [{"tricks_won": [0, 3, 2, 0, 0], "winners": [1, 2], "payouts": pay, "pot": 0}]},
            deciding=["buckem/def-37-odd-chip-first-left"] if opts else None,
            extensions=["buckem.odd_chip=first_left_of_dealer"] if opts else None,
        )
