"""Helpers every game's case file uses: ``add`` records a case, ``err`` writes an
expected error, and the generators write the trick, legal-play and solver cases
whose answers come from ``reference.py``."""

from __future__ import annotations

import json
import random
from typing import Any

from reference import deerpark_pack, full_pack, legal, solve, sort_cards, winner

from hucklebuck.conformance.spec import option_needs

from .deciding import EARLIER

CASES: dict[str, dict[str, list[dict[str, Any]]]] = {
    "protocol": {},
    "hucklebuck": {},
    "buckem": {},
    "deerpark": {},
}

#: Citations of a protocol paragraph that states two rules: each case cites the
#: one its expected answer tests (chosen by the expected error code).
SPLIT: dict[str, dict[str, str]] = {
    "protocol: options, checks on options": {
        "bad_request": "protocol: options, checks on options: a value of the wrong JSON type is bad_request",
        "unsupported": "protocol: options, checks on options: a value the list does not name is unsupported",
        "result": "protocol: options, checks on options: any integer lock_at is accepted",
    },
    "protocol: actions, unreadable versus illegal": {
        "bad_request": "protocol: actions, unreadable versus illegal: an action that cannot be read "
        "is bad_request",
        "illegal_action": "protocol: actions, unreadable versus illegal: a readable action the rules forbid "
        "is illegal_action",
    },
}


def outcome(expect: Any) -> str:
    """The expected error code, or ``"result"``."""
    if isinstance(expect, dict) and set(expect) == {"error"}:
        return str(expect["error"]["code"])
    return "result"


def add(
    game: str,
    area: str,
    slug: str,
    title: str,
    source: list[str],
    decisions: list[int],
    request: dict[str, Any],
    expect: Any,
    *,
    deciding: list[str] | None = None,
    extensions: list[str] | None = None,
) -> None:
    """Record one case; ``deciding`` names the boundaries it sits on (see ``deciding.py``)."""
    case_id = f"{game}/{area}/{slug}"
    source = [SPLIT[s][outcome(expect)] if s in SPLIT else s for s in source]
    case: dict[str, Any] = {
        "id": case_id,
        "title": title,
        "source": source,
        "decisions": [f"DEF #{d}" for d in decisions],
    }
    names = [*(deciding or []), *EARLIER.get(case_id, [])]
    if names:
        case["deciding"] = names
    if extensions:
        case["extensions"] = extensions
    needs = option_needs(request)
    if needs:
        case["needs"] = needs
    CASES[game].setdefault(area, []).append(case | {"request": request, "expect": expect})


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
    src = ["protocol: notation, cards: two upper-case characters, rank then suit"]
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
            f"{json.dumps(plays[0])} is not a card: bad_request",
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
        ["protocol: trick_winner: plays, no card twice"],
        [],
        {"op": "trick_winner", "game": game, "trump": "S", "plays": ["AS", "AS"]},
        err("bad_request"),
    )
    add(
        game,
        "errors",
        "trick-one-card",
        "a trick of one card: bad_request",
        ["protocol: trick_winner: plays holds 2 to 8 cards"],
        [],
        {"op": "trick_winner", "game": game, "trump": "S", "plays": ["AS"]},
        err("bad_request"),
    )
    add(
        game,
        "errors",
        "trick-no-card",
        "a trick of no card at all: bad_request",
        ["protocol: trick_winner: plays holds 2 to 8 cards"],
        [],
        {"op": "trick_winner", "game": game, "trump": "S", "plays": []},
        err("bad_request"),
    )
    add(
        game,
        "errors",
        "trick-bad-trump",
        "a trump that is not a suit letter: bad_request",
        ["protocol: notation, suits: C, D, H or S"],
        [],
        {"op": "trick_winner", "game": game, "trump": "X", "plays": ["AS", "KS"]},
        err("bad_request"),
    )
    add(
        game,
        "errors",
        "legal-card-in-both",
        "a card both in hand and on the table: bad_request",
        ["protocol: legal_plays: no card of trick may also be in hand"],
        [],
        {"op": "legal_plays", "game": game, "trump": "S", "hand": ["AS", "KH"], "trick": ["AS"]},
        err("bad_request"),
    )
    add(
        game,
        "errors",
        "legal-six-cards",
        "a hand of six cards: bad_request",
        ["protocol: legal_plays: hand holds 1 to 5 cards"],
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
        ["protocol: requests and answers: an unknown op is unsupported"],
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
        ["protocol: solve: every seat in play holds the same number of cards"],
        [],
        {"op": "solve", "game": game, "trump": "S", "hands": [["AS", "KS"], ["AH"]], "leader": 0, "seat": 0},
        err("bad_request"),
    )


def play_legal(game: str, trump: str, seat: int, hand: list[str], trick: list[str]) -> list[str]:
    return sorted(f"{seat} play {c}" for c in legal(game, trump, hand, trick))
