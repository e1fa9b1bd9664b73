"""Deer Park Euchre cases: the pack, tricks, legal plays, the solver and making trump."""

from __future__ import annotations

from typing import Any

from reference import deerpark_pack, sort_cards

from .common import add, bad_card_cases, err, legal_cases, play_legal, rest_of, solve_cases, trick_cases

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

#: Everyone passes twice: the dealer (seat 0) is stuck.
STUCK = ["1 pass", "2 pass", "0 pass", "1 pass", "2 pass"]


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


def build() -> None:
    """Add the cases of this file."""
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
    add(
        DP,
        "trump",
        "stuck-dealer-must-call",
        "the stuck dealer may only name a suit",
        sd,
        [],
        dp(DPA, "AH", STUCK),
        {"hands": [{"to_act": 0, "legal": ["0 call C", "0 call D", "0 call H", "0 call S"]}]},
    )
    add(
        DP,
        "trump",
        "stuck-dealer-pass-illegal",
        "the stuck dealer may not pass",
        sd,
        [],
        dp(DPA, "AH", [*STUCK, "0 pass"]),
        err("illegal_action", hand=0, action=5),
    )
    add(
        DP,
        "trump",
        "stuck-dealer-needs-two",
        "the stuck dealer's requirement is 2",
        sd,
        [79],
        dp(DPA, "AH", [*STUCK, "0 call S"]),
        {"hands": [{"maker": 0, "requirement": 2, "trump": "S"}]},
    )
    add(
        DP,
        "trump",
        "variant-stuck-dealer-any-suit",
        "round2_excludes_turned_suit still lets the stuck dealer name the turned suit",
        sd,
        [68],
        dp(DPA, "AH", STUCK, options={"round2_excludes_turned_suit": True}),
        {"hands": [{"legal": ["0 call C", "0 call D", "0 call H", "0 call S"]}]},
    )
