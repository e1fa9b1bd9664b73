"""Hucklebuck cases: scoring, the moon, the end of the game and errors."""

from __future__ import annotations

from .common import add, err
from .hucklebuck import (
    BID3_ALL_STAY,
    FOUR,
    HB,
    HB22,
    HB22_PLAY,
    HEARTS_RUN,
    MADE,
    NO_TRICK,
    SPADES_RUN,
    SUITED,
    hb,
    hb_deal,
)


def build() -> None:
    """Add the cases of this file."""
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
        hb(HB22, [*BID3_ALL_STAY, *HB22_PLAY], start={"scores": [0, 4, 0]}),
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
            [*BID3_ALL_STAY, *HB22_PLAY],
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
        hb(HB22, [*BID3_ALL_STAY, *HB22_PLAY], start={"scores": [0, -20, -21]}),
        {"final": {"game_over": True, "winners": [0], "out": [1, 2]}},
    )
    add(
        HB,
        "end",
        "target-exactly",
        "reaching 15 exactly wins",
        e_src,
        [34],
        hb(HB22, [*BID3_ALL_STAY, *HB22_PLAY], start={"scores": [12, 4, 0]}),
        {"final": {"game_over": True, "winners": [0]}},
    )
    add(
        HB,
        "end",
        "variant-target-11",
        "target=11",
        ["S0: game is 11 or 15 points"],
        [20],
        hb(HB22, [*BID3_ALL_STAY, *HB22_PLAY], start={"scores": [8, 4, 0]}, options={"target": 11}),
        {"final": {"game_over": True, "winners": [0]}},
    )
    add(
        HB,
        "end",
        "below-target-plays-on",
        "11 points is not game at target 15",
        e_src,
        [20],
        hb(HB22, [*BID3_ALL_STAY, *HB22_PLAY], start={"scores": [8, 4, 0]}),
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

    b_src = ["protocol: play, the deal: a legal deal for the game, player count and options"]
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
        ["protocol: play, the start position: a start that cannot be is bad_request"],
        [31],
        hb(SUITED, [], start={"dealer": 1, "out": [1]}),
        err("bad_request"),
    )
    add(
        HB,
        "errors",
        "start-one-player-left",
        "fewer than two players left: bad_request",
        ["protocol: play, the start position: a start that cannot be is bad_request"],
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
