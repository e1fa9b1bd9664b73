"""Deer Park Euchre cases: the lock, play, scoring, the end of the game and errors."""

from __future__ import annotations

from .common import add, err
from .deerpark import B_ALL, DP, DPA, DPB, DPC, STUCK, dp, dp_deal


def build() -> None:
    """Add the cases of this file."""
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
        dp(DPA, "AH", [*STUCK, "0 call D"], start={"scores": [48, 45, 46]}),
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
    b_src = ["protocol: play, the deal: a legal deal for the game, player count and options"]
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
    _deciding()


# Hand 2 of the lock cases (dealer 1): seat 1 orders up the TS; seat 0 takes one trick.
DP2 = ["TC QC TD KS AS", "KC JD QD JS QS", "AC AD TH JH AH"]
DP2_PLAY = [
    "2 pass",
    "0 pass",
    "1 order",
    "1 discard QD",
    "2 play AH",
    "0 play KS",
    "1 play JS",
    "1 play TS",
    "2 play JH",
    "0 play AS",
    "0 play TD",
    "1 play JD",
    "2 play AD",
    "2 play TH",
    "0 play TC",
    "1 play KC",
    "2 play AC",
    "0 play QC",
    "1 play QS",
]


def _deciding() -> None:
    """Cases on the deciding boundaries of the goals (DEF #73) and lock_permanent (DEF #75)."""
    goal = ["S4: the first person to 0 or 50 points wins"]
    for start, over in ((5, True), (6, False)):
        add(
            DP,
            "end",
            "maker-reaches-exactly-zero" if over else "maker-stops-at-one",
            f"the maker on {start} takes all five tricks: "
            + ("exactly 0 reaches the goal" if over else "1 is not a goal"),
            goal,
            [73, 65],
            dp(DPB, "AS", B_ALL, start={"scores": [20, start, 20]}),
            {
                "hands": [{"tricks_won": [0, 5, 0], "scores": [25, start - 5, 25]}],
                "final": {"game_over": over, "winners": [1] if over else []},
            },
            deciding=["deerpark/def-73-reach-exactly-zero"] if over else [],
        )
    lk = ["S4: at 45 points a player may not call trump unless stuck as dealer"]
    for permanent in (True, False):
        add(
            DP,
            "lock",
            "variant-permanent-reached-in-play" if permanent else "lock-lifts-after-play",
            "seat 0 reaches exactly 45 by scoring, then drops to 44: "
            + ("under lock_permanent it still may not call" if permanent else "by default it may call again"),
            lk,
            [75, 65, 66],
            dp(
                DPB,
                "AS",
                B_ALL,
                start={"scores": [40, 30, 20]},
                options={"lock_permanent": True} if permanent else {},
                more=[
                    {"deal": dp_deal(DP2, "TS"), "actions": DP2_PLAY},
                    {"deal": dp_deal(DPA, "AH"), "actions": []},
                ],
            ),
            {
                "hands": [
                    {"tricks_won": [0, 5, 0], "scores": [45, 25, 25]},
                    {"tricks_won": [1, 2, 2], "delta": [-1, 5, -2], "scores": [44, 30, 23]},
                    {"to_act": 0, "legal": ["0 pass"] if permanent else ["0 order", "0 pass"]},
                ]
            },
            deciding=["deerpark/def-75-lock-permanent-in-play"] if permanent else [],
        )
