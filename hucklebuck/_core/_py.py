"""The pure-Python core: the reference semantics of the trick engine."""

from __future__ import annotations

import time
from array import array
from typing import Final

from ._api import MAX_TRICK, NO_LEAD, check_id, raise_for

__all__ = ["PythonCore"]

_JACK: Final = 9  # rank number of the jack (2 -> 0 ... A -> 12)
_FULL: Final = (1 << 52) - 1


def _tables(game: int, trump: int) -> tuple[bytes, bytes, tuple[int, ...]]:
    """Effective suit, strength and per-suit masks; Deer Park moves the bowers."""
    suit = bytearray(c // 13 for c in range(52))
    rank = bytearray(c % 13 for c in range(52))
    if game == 2:
        right = trump * 13 + _JACK
        left = (3 - trump) * 13 + _JACK  # same colour: C<->S, D<->H
        rank[right] = 14
        suit[left] = trump
        rank[left] = 13
    masks = tuple(sum(1 << c for c in range(52) if suit[c] == s) for s in range(4))
    return bytes(suit), bytes(rank), masks


_TABLES: Final = {(g, t): _tables(g, t) for g in range(3) for t in range(4)}


def _get(game: int, trump: int) -> tuple[bytes, bytes, tuple[int, ...]]:
    if not isinstance(game, int) or not 0 <= game <= 2:
        raise_for(-1)
    if not isinstance(trump, int) or not 0 <= trump <= 3:
        raise_for(-2)
    return _TABLES[(game, trump)]


def _check_trick(cards: bytes | bytearray | memoryview, index: int) -> None:
    if not 1 <= len(cards) <= MAX_TRICK:
        raise_for(-4, index)
    seen = 0
    for c in cards:
        if c > 51:
            raise_for(-3, index)
        if seen >> c & 1:
            raise_for(-5, index)
        seen |= 1 << c


def _winner(suit: bytes, rank: bytes, trump: int, cards: bytes | memoryview) -> int:
    best = 0
    b = cards[0]
    lead = suit[b]
    b_trump = lead == trump
    for i in range(1, len(cards)):
        c = cards[i]
        s = suit[c]
        if s == trump:
            if not b_trump or rank[c] > rank[b]:
                best, b, b_trump = i, c, True
        elif not b_trump and s == lead and rank[c] > rank[b]:
            best, b = i, c
    return best


def _legal(masks: tuple[int, ...], suit: bytes, lead: int, hand: int, index: int) -> int:
    if hand < 0 or hand & ~_FULL:
        raise_for(-7, index)
    if lead == NO_LEAD:
        return hand
    if not 0 <= lead <= 51:
        raise_for(-3, index)
    if hand >> lead & 1:
        raise_for(-8, index)
    follow = hand & masks[suit[lead]]
    return follow or hand


class PythonCore:
    """The pure-Python core (always available)."""

    def rng_fill(self, seed: int, n: int) -> list[int]:
        """See :meth:`hucklebuck._core._api.Core.rng_fill`."""
        from . import _py_eval

        return _py_eval.rng_fill(seed, n)

    def rng_shuffle(self, seed: int, cards: bytes) -> bytes:
        """See :meth:`hucklebuck._core._api.Core.rng_shuffle`."""
        from . import _py_eval

        return _py_eval.rng_shuffle(seed, cards)

    def solve(
        self,
        game: int,
        trump: int,
        hands: list[int],
        leader: int,
        seat: int,
        node_limit: int = 0,
        time_limit: float | None = None,
    ) -> int:
        """See :meth:`hucklebuck._core._api.Core.solve`."""
        from . import _py_solve

        deadline = None if time_limit is None else time.monotonic() + time_limit
        try:
            return _py_solve.solve(game, trump, hands, leader, seat, node_limit, deadline)[0]
        except _py_solve.SolveStopped as stop:
            raise _py_solve.budget_error(stop.code, stop.nodes, node_limit, time_limit) from None

    def solve_counted(
        self, game: int, trump: int, hands: list[int], leader: int, seat: int, node_limit: int = 0
    ) -> tuple[int, int]:
        """See :meth:`hucklebuck._core._api.Core.solve_counted`."""
        from . import _py_solve

        try:
            return _py_solve.solve(game, trump, hands, leader, seat, node_limit)
        except _py_solve.SolveStopped as stop:
            raise _py_solve.budget_error(stop.code, stop.nodes, node_limit, None) from None

    def mc_eval(
        self,
        game: int,
        trump: int,
        known: list[int],
        sizes: list[int],
        pool: int,
        leader: int,
        seat: int,
        seed: int,
        samples: int,
        mode: int,
        node_limit: int = 0,
        time_limit: float | None = None,
    ) -> list[int]:
        """See :meth:`hucklebuck._core._api.Core.mc_eval`."""
        from . import _py_eval, _py_solve

        deadline = None if time_limit is None else time.monotonic() + time_limit
        try:
            return _py_eval.mc_eval(
                game, trump, known, sizes, pool, leader, seat, seed, samples, mode, node_limit, deadline
            )
        except _py_solve.SolveStopped as stop:
            raise _py_solve.budget_error(stop.code, stop.nodes, node_limit, time_limit) from None

    def sim_hucklebuck(self, players: int, seed: int, hands: int) -> list[int]:
        """See :meth:`hucklebuck._core._api.Core.sim_hucklebuck`."""
        from . import _py_sim

        return _py_sim.sim_hucklebuck(players, seed, hands)

    @property
    def name(self) -> str:
        """Always ``"python"``."""
        return "python"

    def rules(self, game: int, trump: int) -> tuple[bytes, bytes]:
        """See :meth:`hucklebuck._core._api.Core.rules`."""
        suit, rank, _ = _get(game, trump)
        return suit, rank

    def trick_winner(self, game: int, trump: int, cards: bytes) -> int:
        """See :meth:`hucklebuck._core._api.Core.trick_winner`."""
        # Fast path (plain ints, a well-formed trick checked with C-level calls); anything
        # else takes the full checks, which raise the same errors in the same order.
        tables = _TABLES.get((game, trump)) if type(game) is int and type(trump) is int else None
        if tables is None:
            tables = _get(game, trump)
        n = len(cards)
        if not (type(cards) is bytes and 1 <= n <= MAX_TRICK and max(cards) <= 51 and len(set(cards)) == n):
            _check_trick(cards, 0)
        return _winner(tables[0], tables[1], trump, cards)

    def legal_mask(self, game: int, trump: int, lead: int, hand: int) -> int:
        """See :meth:`hucklebuck._core._api.Core.legal_mask`."""
        suit, _, masks = _get(game, trump)
        if not (type(lead) is int and 0 <= lead <= 255):
            check_id(lead, 0, 255, -3)
        if not (type(hand) is int and 0 <= hand < 1 << 52):
            check_id(hand, 0, (1 << 52) - 1, -7)
        return _legal(masks, suit, lead, int(hand), 0)

    def trick_winners(self, game: int, trumps: bytes, lens: bytes, cards: bytes) -> bytes:
        """See :meth:`hucklebuck._core._api.Core.trick_winners`."""
        _get(game, 0)
        n = len(trumps)
        if len(lens) < n or len(cards) < n * MAX_TRICK:
            raise_for(-6)
        view = memoryview(cards)
        out = bytearray(n)
        for i in range(n):
            trump = trumps[i]
            if trump > 3:
                raise_for(-2, i)
            suit, rank, _ = _TABLES[(game, trump)]
            row = view[i * MAX_TRICK : i * MAX_TRICK + lens[i]]
            _check_trick(row, i)
            out[i] = _winner(suit, rank, trump, row)
        return bytes(out)

    def legal_masks(self, game: int, trumps: bytes, leads: bytes, hands: array[int]) -> array[int]:
        """See :meth:`hucklebuck._core._api.Core.legal_masks`."""
        _get(game, 0)
        n = len(trumps)
        if len(leads) < n or len(hands) < n:
            raise_for(-6)
        out = array("Q", bytes(8 * n))
        for i in range(n):
            trump = trumps[i]
            if trump > 3:
                raise_for(-2, i)
            suit, _, masks = _TABLES[(game, trump)]
            out[i] = _legal(masks, suit, leads[i], hands[i], i)
        return out

    def sim_deerpark(self, players: int, seed: int, hands: int) -> list[int]:
        """See :meth:`hucklebuck._core._api.Core.sim_deerpark`."""
        from . import _py_sim

        return _py_sim.sim_deerpark(players, seed, hands)

    def sim_buckem(self, players: int, seed: int, hands: int, ante: int, pot_limit: int) -> list[int]:
        """See :meth:`hucklebuck._core._api.Core.sim_buckem`."""
        from . import _py_sim

        return _py_sim.sim_buckem(players, seed, hands, ante, pot_limit)
