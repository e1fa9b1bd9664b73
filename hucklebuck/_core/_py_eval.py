"""Hand evaluation in pure Python: the twin of ``csrc/hb_eval.c``.

Everything here gives exactly the C core's results for the same inputs and
seed, so a C simulation can be replayed and debugged in Python.

The specified random source is **splitmix64**: ``state += 0x9E3779B97F4A7C15``,
then the output mix ``z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27;
z *= 0x94D049BB133111EB; z ^= z >> 31`` (all mod 2**64).  ``below(n)`` takes
the top ``n.bit_length()`` bits of successive outputs until one is below
``n``; ``shuffle`` is Fisher-Yates from the top (for i = len-1 down to 1, swap
item i with item ``below(i + 1)``).

The **playout policy** used by Monte Carlo evaluation and simulation (the
simulations themselves are in :mod:`._py_sim`): the
leader plays its strongest card (trumps first, then by rank; ties to the
higher card number); a follower plays, among its legal cards, the cheapest one
that would take the lead (ordered by trick key, then card number), else its
cheapest card (trumps last, then by rank, then card number).
"""

from __future__ import annotations

import random
import time
from collections.abc import MutableSequence
from typing import Any, Final, TypeVar

from ._api import raise_for
from ._py import _TABLES
from ._py_solve import E_CANCELLED, TT_SIZE, SolveStopped, solve_position

__all__ = [
    "SplitMix64",
    "mc_eval",
]

M64: Final = (1 << 64) - 1
FULL52: Final = (1 << 52) - 1
GAMMA: Final = 0x9E3779B97F4A7C15
T = TypeVar("T")


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class SplitMix64(random.Random):
    """The project's specified PRNG with :class:`random.Random`'s API.

    ``below`` and ``shuffle`` follow the specification above (identical in C);
    the other methods (``random``, ``randrange``, ``choice`` ...) come from
    :class:`random.Random` on top of this generator.
    """

    _state: int

    def __init__(self, seed: int = 0) -> None:
        """Start from the 64-bit ``seed``."""
        super().__init__(seed)

    def seed(self, a: Any = 0, version: int = 2) -> None:
        """Set the 64-bit state (an integer seed only)."""
        if isinstance(a, bool) or not isinstance(a, int):
            raise TypeError("SplitMix64 needs an integer seed")
        self._state = a & M64
        self.gauss_next = None

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + GAMMA) & M64
        return _mix(self._state)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits (top bits of successive outputs)."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out, have = 0, 0
        while have < k:
            take = min(64, k - have)
            out = (out << take) | (self.next_u64() >> (64 - take))
            have += take
        return out

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits of one output."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (see the module docstring)."""
        if n <= 1:
            return 0
        k = n.bit_length()
        while True:
            r = self.next_u64() >> (64 - k)
            if r < n:
                return r

    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        """Fisher-Yates from the top, with :meth:`below` (written out here: the searches shuffle a
        pack for every sample)."""
        state = self._state
        try:
            for i in range(len(x) - 1, 0, -1):
                n = i + 1
                drop = 64 - n.bit_length()
                while True:
                    state = (state + GAMMA) & M64
                    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & M64
                    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
                    j = (z ^ (z >> 31)) >> drop
                    if j < n:
                        break
                x[i], x[j] = x[j], x[i]
        finally:
            self._state = state

    def getstate(self) -> tuple[str, int]:  # type: ignore[override]
        """The 64-bit state."""
        return ("splitmix64", self._state)

    def setstate(self, state: tuple[str, int]) -> None:  # type: ignore[override]
        """Restore :meth:`getstate` output."""
        if not (isinstance(state, tuple) and len(state) == 2 and state[0] == "splitmix64"):
            raise ValueError("not a SplitMix64 state")
        self._state = int(state[1]) & M64


def rng_fill(seed: int, n: int) -> list[int]:
    """The first ``n`` outputs from ``seed``."""
    r = SplitMix64(seed)
    return [r.next_u64() for _ in range(n)]


def rng_shuffle(seed: int, cards: bytes) -> bytes:
    """``cards`` shuffled from ``seed``."""
    if len(cards) > 52:
        raise_for(-4)
    a = bytearray(cards)
    SplitMix64(seed).shuffle(a)
    return bytes(a)


# --------------------------------------------------------------- play policy
def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _Rules:
    """The trick rules of one game and trump, with the keys the policies sort by, computed once.

    ``pkey[c]`` is ``power(c) * 64 + c`` (trumps above the rest, then rank, then card number);
    ``lkey[lead][c]`` is ``key(lead, c)``, and ``wkey[lead][c]`` that times 64 plus ``c``;
    ``weaker[c]`` the cards of ``c``'s effective suit ranked below it, strongest first (equal
    ranks: lower card number first), for the solver's "next weaker live card"."""

    __slots__ = ("lkey", "masks", "pkey", "rank", "suit", "trump", "weaker", "wkey")

    def __init__(self, game: int, trump: int) -> None:
        self.suit, self.rank, self.masks = _TABLES[(game, trump)]
        self.trump = trump
        derived = _DERIVED.get((game, trump))
        if derived is None:
            derived = _DERIVED[(game, trump)] = self._derive()
        self.pkey, self.lkey, self.wkey, self.weaker = derived

    def _derive(self) -> _Derived:
        pkey = [self.power(c) * 64 + c for c in range(52)]
        lkey = [[self.key(lead, c) for c in range(52)] for lead in range(4)]
        wkey = [[k * 64 + c for c, k in enumerate(row)] for row in lkey]
        rank = self.rank
        weaker = []
        for c in range(52):
            below = [d for d in _bits(self.masks[self.suit[c]]) if -1 < rank[d] < rank[c]]
            weaker.append(tuple(sorted(below, key=lambda d: (-rank[d], d))))
        return pkey, lkey, wkey, weaker

    def power(self, c: int) -> int:
        return ((self.suit[c] == self.trump) << 5) | self.rank[c]

    def key(self, lead: int, c: int) -> int:
        s = self.suit[c]
        return ((s == self.trump) << 5) | ((s == lead) << 4) | self.rank[c]

    def legal(self, hand: int, lead_card: int) -> int:
        if lead_card < 0:
            return hand
        f = hand & self.masks[self.suit[lead_card]]
        return f or hand

    def winner(self, trick: list[int]) -> int:
        lk = self.lkey[self.suit[trick[0]]]
        best, bk = 0, -1
        for i, c in enumerate(trick):
            k = lk[c]
            if k > bk:
                bk, best = k, i
        return best

    def policy(self, hand: int, trick: list[int]) -> int:
        if not trick:
            return max(_bits(hand), key=self.pkey.__getitem__)
        lead = self.suit[trick[0]]
        lk = self.lkey[lead]
        top = max([lk[c] for c in trick])
        f = hand & self.masks[lead]
        cards = _bits(f or hand)
        winners = [c for c in cards if lk[c] > top]
        if winners:
            return min(winners, key=self.wkey[lead].__getitem__)
        return min(cards, key=self.pkey.__getitem__)


_Derived = tuple[list[int], list[list[int]], list[list[int]], list[tuple[int, ...]]]
_DERIVED: dict[tuple[int, int], _Derived] = {}


def _playout(r: _Rules, hands: list[int], order: list[int], leader_pos: int, won: list[int]) -> None:
    nact = len(order)
    while hands[order[leader_pos]]:
        trick: list[int] = []
        seats: list[int] = []
        for i in range(nact):
            s = order[(leader_pos + i) % nact]
            c = r.policy(hands[s], trick)
            hands[s] &= ~(1 << c)
            trick.append(c)
            seats.append(s)
        w = seats[r.winner(trick)]
        won[w] += 1
        leader_pos = order.index(w)


def mc_eval(
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
    deadline: float | None = None,
    tt_size: int = TT_SIZE,
) -> list[int]:
    """Histogram of ``seat``'s tricks over ``samples`` random deals of ``pool``.

    Each solve (mode 1) may search ``node_limit`` nodes (0: no limit); past the
    ``time.monotonic()`` ``deadline`` the evaluation stops.  Either raises
    :class:`~hucklebuck._core._py_solve.SolveStopped`.
    """
    nseats = len(known)
    if not 0 <= game <= 2:
        raise_for(-1)
    if not 0 <= trump <= 3:
        raise_for(-2)
    if not 2 <= nseats <= 8 or len(sizes) < nseats:
        raise_for(-9)
    if pool < 0 or pool & ~FULL52:
        raise_for(-7)
    if mode not in (0, 1):
        raise_for(-11)
    if not 0 <= leader < nseats or sizes[leader] == 0:
        raise_for(-9)
    if not 0 <= seat < nseats or sizes[seat] == 0:
        raise_for(-9)
    known_all = 0
    hand_size = -1
    need = []
    for i in range(nseats):
        k = known[i]
        if k < 0 or k & ~FULL52:
            raise_for(-7)
        if k & (known_all | pool):
            raise_for(-5)
        known_all |= k
        if sizes[i] > 5 or k.bit_count() > sizes[i]:
            raise_for(-4)
        if sizes[i]:
            if hand_size >= 0 and sizes[i] != hand_size:
                raise_for(-4)
            hand_size = sizes[i]
        need.append(sizes[i] - k.bit_count())
    cards = bytearray(_bits(pool))
    if sum(need) > len(cards):
        raise_for(-4)
    r = _Rules(game, trump)
    rng = SplitMix64(seed)
    hist = [0] * 6
    order = [i for i in range(nseats) if sizes[i]]
    for smp in range(samples):
        if smp & 255 == 255 and deadline is not None and time.monotonic() > deadline:
            raise SolveStopped(E_CANCELLED, 0)
        rng.shuffle(cards)
        hands = []
        pos = 0
        for i in range(nseats):
            h = known[i]
            for c in cards[pos : pos + need[i]]:
                h |= 1 << c
            pos += need[i]
            hands.append(h)
        if mode == 0:
            won = [0] * nseats
            _playout(r, hands, order, order.index(leader), won)
            t = won[seat]
        else:
            t = solve_position(game, trump, hands, leader, seat, tt_size, node_limit, deadline)[0]
        hist[t] += 1
    return hist
