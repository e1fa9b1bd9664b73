"""Helpers every game's case file uses: ``add`` records a case, ``err`` writes an
expected error, and the generators write the trick, legal-play and solver cases
whose answers come from ``reference.py``."""

from __future__ import annotations

import random
from typing import Any

from reference import deerpark_pack, full_pack, legal, solve, sort_cards, winner

from .deciding import EARLIER

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
    *,
    deciding: list[str] | None = None,
) -> None:
    """Record one case; ``deciding`` names the boundaries it sits on (see ``deciding.py``)."""
    case_id = f"{game}/{area}/{slug}"
    case: dict[str, Any] = {
        "id": case_id,
        "title": title,
        "source": source,
        "decisions": [f"DEF #{d}" for d in decisions],
    }
    names = [*(deciding or []), *EARLIER.get(case_id, [])]
    if names:
        case["deciding"] = names
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
