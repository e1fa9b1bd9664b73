"""Fuzz the trick engine and evaluation entry points with the C core loaded.

The bytes choose a function and its arguments, from valid values and from the
wrong types and out-of-range values a caller might pass.  Checks: only library
errors escape, and the C and Python cores give the same result or the same
error with the same message.  Work is kept small (few samples, small solves)
so one input stays far below the fuzzer's time budget.
"""

from __future__ import annotations

import sys
from typing import Any

from _common import Bytes, on_every_core, run

import hucklebuck as hb
from hucklebuck import Card, CardSet, GameKind, Suit
from hucklebuck import evaluate as ev

GAMES: list[Any] = ["hucklebuck", "buckem", "deerpark", GameKind.DEERPARK, "bridge", 0, None, b"buckem"]
SUITS: list[Any] = [*Suit, "C", "D", "H", "S", 0, 3, "s", 2.7, None, "♠", True]
# invalid for every count (a valid huge count would only make the input slow)
ODD: list[Any] = [-1, 2**64, 1.0, True, None, "1", [1]]


def _card(b: Bytes) -> Any:
    return Card.from_index(b.byte() % 52) if b.byte() % 8 else b.pick(["AS", None, 52, (1,)])


def _cards(b: Bytes, most: int = 9) -> Any:
    n = b.byte() % (most + 1)
    cards = [Card.from_index(b.byte() % 52) for _ in range(n)]
    form = b.byte() % 8
    if form == 0:
        return tuple(cards)
    if form == 1:
        return b.pick(["AS KS", 5, None, [None], CardSet()])
    if form == 2 and len(set(cards)) == len(cards):
        return CardSet(cards)
    return cards


def _deal(b: Bytes, seats: int, size: int) -> list[Any]:
    deck = list(range(52))
    for i in range(51, 0, -1):  # Fisher-Yates driven by the input
        j = b.byte() % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands: list[Any] = [[Card.from_index(deck[s * size + k]) for k in range(size)] for s in range(seats)]
    if b.byte() % 4 == 0:
        hands[b.byte() % seats] = []  # a seat not in play
    return hands


def _int(b: Bytes, lo: int, hi: int) -> Any:
    return b.int_in(lo, hi) if b.byte() % 8 else b.pick(ODD)


def _call(b: Bytes) -> Any:
    which = b.byte() % 12
    game, trump = b.pick(GAMES), b.pick(SUITS)
    if which == 0:
        return hb.trick_winner(game, trump, _cards(b, 9))
    if which == 1:
        return hb.legal_plays(game, trump, _cards(b), _cards(b, 3))
    if which == 2:
        return hb.effective_suit(game, trump, _card(b))
    if which == 3:
        return hb.trick_winners(game, [(b.pick(SUITS), _cards(b, 8)) for _ in range(b.byte() % 4)])
    if which == 4:
        return hb.legal_plays_batch(
            game,
            [(b.pick(SUITS), _cards(b), _card(b) if b.byte() % 2 else None) for _ in range(b.byte() % 4)],
        )
    if which == 5:
        seats = 2 + b.byte() % 3
        hands = _deal(b, seats, 1 + b.byte() % 3)
        return ev.solve(game, trump, hands, leader=_int(b, 0, seats - 1), seat=_int(b, 0, seats - 1))
    if which == 6:
        players = _int(b, 2, 8)
        method = b.pick(["playout", "playout", "solver", "x"])
        return ev.evaluate_hand(
            game,
            trump,
            _cards(b, 5),
            players=players,
            seat=_int(b, 0, 7),
            leader=_int(b, 0, 7),
            samples=_int(b, 1, 2 if method == "solver" else 16),
            seed=_int(b, 0, 2**64 - 1),
            method=method,
        )
    if which == 7:
        return ev.rake_qualifies(_cards(b, 5), trump)
    if which == 8:
        return ev.simulate_hucklebuck(_int(b, 2, 8), _int(b, 0, 8), seed=_int(b, 0, 2**64 - 1))
    if which == 9:
        return ev.simulate_deerpark(_int(b, 2, 8), _int(b, 0, 8), seed=_int(b, 0, 2**64 - 1))
    if which == 10:
        return ev.simulate_buckem(
            _int(b, 4, 9),
            _int(b, 0, 8),
            seed=_int(b, 0, 99),
            ante=_int(b, 0, 3),
            pot_limit=b.pick([None, 0, 1, 5, -1, 2**58, 2**64]),
        )
    kind = b.byte() % 3
    if kind == 0:
        return ev.hucklebuck_advice(
            _cards(b, 5), players=_int(b, 2, 8), trump=b.pick([None, *SUITS]), samples=_int(b, 1, 4)
        )
    if kind == 1:
        return ev.buckem_advice(
            _cards(b, 5),
            _card(b),
            players=_int(b, 4, 9),
            seat=_int(b, 0, 8),
            dealer=_int(b, 0, 8),
            stayers=b.pick([None, [0, 1], [7], (2,), "1"]),
            samples=_int(b, 1, 4),
        )
    return ev.deerpark_advice(
        _cards(b, 5), players=_int(b, 2, 8), seat=_int(b, 0, 7), dealer=_int(b, 0, 7), samples=_int(b, 1, 4)
    )


def TestOneInput(data: bytes) -> None:  # the name atheris expects
    on_every_core(lambda: _call(Bytes(data)))


if __name__ == "__main__":
    run(TestOneInput)
    sys.exit(0)
