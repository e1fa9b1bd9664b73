"""Buck 'Em cases: the rake, void rounds, settling, play, the draw, short-handed games and errors."""

from __future__ import annotations

from reference import full_pack, sort_cards

from .buckem import (
    BK,
    ONE_EACH,
    ONE_EACH_PLAY,
    SOLO,
    SOLO_PLAY,
    SPLIT_PLAY,
    T221,
    T221_PLAY,
    TOP,
    bk,
    bk_deal,
    decide,
    pat,
)
from .buckem_deciding import deciding
from .common import add, err, play_legal


def build() -> None:
    """Add the cases of this file."""
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
        ["protocol: play, re-formed stocks: a restock must be exactly the cards the rules put there"],
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
        ["protocol: play, the deal: a legal deal for the game, player count and options"],
        [62],
        bk(TOP, "9S", [], start={"bankrolls": "none"}),
        err("bad_request"),
    )
    add(
        BK,
        "errors",
        "deal-duplicate-upcard",
        "the upcard also in a hand: bad_request",
        ["protocol: play, the deal: a legal deal for the game, player count and options"],
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
    deciding()
    _no_play()
    _rake_and_units()


def _no_play() -> None:
    """Rounds that end without play report no tricks (DEF #44, #48)."""
    for slug, area, stayers, why, defs in (
        ("nobody-stays-no-tricks", "void", set(), "S3: if no one stays, no rake occurs", [48]),
        ("rake-no-tricks", "rake", {1}, "S3: a lone stayer with the rake cards rakes", [44]),
    ):
        add(
            BK,
            area,
            slug,
            "a round that ends without play has no tricks: every seat took 0",
            [why],
            defs,
            bk(TOP, "9S", decide(stayers)),
            {"hands": [{"complete": True, "tricks": [], "tricks_won": [0, 0, 0, 0, 0], "burned": []}]},
        )


def _rake_and_units() -> None:
    """The rake_rounding variant and an emptied pot's units (DEF #41, #45)."""
    add(
        BK,
        "rake",
        "variant-rake-rounding-ceil",
        "rake_rounding=ceil: half of a double pot of 7 is 4, and 3 stay with no ante",
        ["S3: if the pot is double or larger the player rakes half; leftover means no ante"],
        [45, 46],
        bk(
            TOP,
            "9S",
            decide({1}),
            start={"pot": 7, "pot_units": 2, "ante_due": False},
            options={"rake_rounding": "ceil"},
        ),
        {"hands": [{"payouts": [0, 4, 0, 0, 0], "pot": 3, "pot_units": 1, "ante_due": False}]},
    )
    add(
        BK,
        "void",
        "empty-pot-has-no-units",
        "a void round over an empty pot leaves no units: the next round is a normal ante round",
        ["S3: if no one stays, no rake occurs and a new round begins"],
        [41, 48],
        bk(TOP, "9S", decide(set()), start={"pot": 0, "pot_units": 2, "ante_due": False}),
        {"hands": [{"pot": 0, "pot_units": 0, "ante_due": True}]},
    )

