"""A tiny, independent reference of the trick rules, used only to write the
expected answers of generated cases.  It shares no code with the library, so a
case built from it is a check of the library, not a copy of it."""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "CDHS"
PARTNER = {"C": "S", "S": "C", "D": "H", "H": "D"}


def canon(card: str) -> tuple[int, int]:
    """Canonical order: suit C D H S, then rank 2..A."""
    return SUITS.index(card[1]), RANKS.index(card[0])


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=canon)


def eff_suit(game: str, trump: str, card: str) -> str:
    """Deer Park Euchre's left bower (the other jack of trump's colour) is a trump."""
    if game == "deerpark" and card[0] == "J" and card[1] == PARTNER[trump]:
        return trump
    return card[1]


def strength(game: str, trump: str, card: str) -> int:
    if game == "deerpark" and card[0] == "J":
        if card[1] == trump:
            return 20  # right bower
        if card[1] == PARTNER[trump]:
            return 19  # left bower
    return RANKS.index(card[0])


def winner(game: str, trump: str, plays: list[str]) -> int:
    lead = eff_suit(game, trump, plays[0])
    best = 0
    for i, c in enumerate(plays):
        b = plays[best]
        cs, bs = eff_suit(game, trump, c), eff_suit(game, trump, b)
        if cs == trump and (bs != trump or strength(game, trump, c) > strength(game, trump, b)):
            best = i
        elif cs == lead and bs != trump and cs == bs and strength(game, trump, c) > strength(game, trump, b):
            best = i
    return best


def legal(game: str, trump: str, hand: list[str], trick: list[str]) -> list[str]:
    if not trick:
        return sort_cards(hand)
    lead = eff_suit(game, trump, trick[0])
    follow = [c for c in hand if eff_suit(game, trump, c) == lead]
    return sort_cards(follow or hand)


def full_pack() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


def deerpark_pack(players: int) -> list[str]:
    low = RANKS.index("A") - (players + 1)
    return [r + s for s in SUITS for r in RANKS[low:]]


def buckem_pack(players: int, short: bool) -> list[str]:
    drop = {5: "23", 6: "2"}.get(players, "") if short else ""
    return [c for c in full_pack() if c[0] not in drop]


def solve(game: str, trump: str, hands: list[list[str]], leader: int, seat: int) -> int:
    """Plain minimax over every play (no pruning): the definition of ``solve``."""
    order = [i for i, h in enumerate(hands) if h]

    def rec(hs: list[list[str]], lead_seat: int, trick: list[str], seats: list[int]) -> int:
        n = len(order)
        if len(trick) == n:
            w = seats[winner(game, trump, trick)]
            return (w == seat) + rec(hs, w, [], [])
        p = order[(order.index(lead_seat) + len(trick)) % n]
        if not hs[p]:
            return 0
        vals = []
        for c in legal(game, trump, hs[p], trick):
            nh = [list(h) for h in hs]
            nh[p].remove(c)
            vals.append(rec(nh, lead_seat, trick + [c], seats + [p]))
        return max(vals) if p == seat else min(vals)

    return rec([list(h) for h in hands], leader, [], [])
