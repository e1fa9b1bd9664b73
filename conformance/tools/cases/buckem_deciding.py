"""Buck 'Em cases on the deciding boundaries of the split and the rake (called by ``buckem_settle``)."""

from __future__ import annotations

from .buckem import BK, SPLIT_PLAY, TOP, bk, bk_deal, decide, pat
from .common import add


def deciding() -> None:
    """Cases on the deciding boundaries of the split and the rake (DEF #37, #46)."""
    split = ["S3: if two players each win 2+ tricks, they split the pot"]
    three_two = [*decide({1, 2}), *pat([1, 2]), *SPLIT_PLAY]
    add(
        BK,
        "settle",
        "even-pot-three-two",
        "two winners (3-2) split an even pot of 8: 4 each, no odd chip, nothing left",
        split,
        [37, 38],
        bk(TOP, "9S", three_two, start={"pot": 8, "pot_units": 1, "ante_due": False}),
        {
            "hands": [
                {
                    "tricks_won": [0, 3, 2, 0, 0],
                    "payouts": [0, 4, 4, 0, 0],
                    "pot": 0,
                    "pot_units": 0,
                    "ante_due": True,
                }
            ]
        },
        deciding=["buckem/def-37-even-pot-three-two"],
    )
    add(
        BK,
        "settle",
        "even-pot-ante-2",
        "ante=2 makes a pot of 10; two winners (3-2) take 5 each",
        [*split, "S3: all players ante equally"],
        [35, 37, 38],
        bk(TOP, "9S", three_two, options={"ante": 2}),
        {
            "hands": [
                {
                    "payouts": [0, 5, 5, 0, 0],
                    "delta": [-2, 3, 3, -2, -2],
                    "pot": 0,
                    "pot_units": 0,
                    "ante_due": True,
                }
            ]
        },
        deciding=["buckem/def-37-even-pot-three-two"],
    )
    add(
        BK,
        "rake",
        "one-chip-left",
        "a double pot of 2 is raked by half: the one chip left is a single pot and the next round has "
        "no ante, so a lone raker then takes it whole",
        ["S3: if the pot is double or larger the player rakes half; leftover means no ante"],
        [45, 46, 41],
        bk(
            TOP,
            "9S",
            decide({1}),
            start={"pot": 2, "pot_units": 2, "ante_due": False},
            more=[{"deal": bk_deal(TOP, "9S"), "actions": decide({1}, dealer=1)}],
        ),
        {
            "hands": [
                {"raked": 1, "payouts": [0, 1, 0, 0, 0], "pot": 1, "pot_units": 1, "ante_due": False},
                {
                    "raked": 1,
                    "payouts": [0, 1, 0, 0, 0],
                    "delta": [0, 1, 0, 0, 0],
                    "bankrolls": [0, 2, 0, 0, 0],
                    "pot": 0,
                    "pot_units": 0,
                    "ante_due": True,
                },
            ]
        },
        deciding=["buckem/def-46-one-chip-left"],
    )
