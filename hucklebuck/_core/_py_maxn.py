"""The open-cards play of the search's solver method in pure Python: the twin of ``csrc/hb_maxn.c``.

Given every hand of one sampled deal, the current trick and its leader, it
finds how many tricks each seat takes when every seat sees all the cards and
plays to take as many tricks as it can for itself (a Deer Park seat playing for
50: as few as it can).  Each seat maximises its own part of the result, so this
is a *max^n* search, not the one-seat-against-the-rest solve of
:mod:`._py_solve`: a game's score needs every seat's tricks.

The same fixed choices as the C code, so both give the same tricks and count
the same nodes:

* a seat's legal cards are tried weakest first (power, then card number); of
  cards worth the same to that seat the weakest is kept, and once a card
  gives the seat every trick left (a ducking seat: none) no stronger card is
  tried;
* inside a trick, once a seat has a card worth ``k`` of the ``t`` tricks left
  to it, the next seat stops looking as soon as it can make sure of ``t - k``:
  the first seat would then not choose that card (both want tricks; a ducking
  seat neither gives nor takes this bound);
* a card is skipped when the next weaker live card of its effective suit
  (still held, or in the current trick) is the same seat's: they are
  interchangeable;
* a table maps a trick boundary (the cards still held, the leader) to the
  tricks each seat takes from there; it keeps at most :data:`KEEP` positions,
  then is emptied and filled again;
* a node is one card tried; past ``limit`` nodes the search gives up (the
  caller then plays the deal out by the playout policy).

Results are packed four bits per seat (seat ``s`` in bits ``4s`` to ``4s+3``).
"""

from __future__ import annotations

from typing import Final

from ._py_eval import _bits, _Rules

__all__ = ["KEEP", "Table", "maxn"]

NO_BOUND: Final = 99

#: Positions the table keeps before it is emptied (``HB_MAXN_KEEP``).
KEEP: Final = 1 << 14


class Table:
    """The positions solved so far (the C core's ``hb_maxn_tt``)."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: dict[int, int] = {}

    def clear(self) -> None:
        """Forget every position."""
        self.entries.clear()


class _Budget(Exception):
    pass


class _Maxn:
    __slots__ = (
        "all", "duck", "hands", "limit", "nact", "nodes", "order", "r", "table", "tmask", "trick",
    )  # fmt: skip

    def __init__(
        self, r: _Rules, hands: list[int], order: list[int], duck: int, limit: int, table: Table
    ) -> None:
        self.r = r
        self.hands = hands
        self.order = order
        self.nact = len(order)
        self.all = 0
        for s in order:
            self.all |= hands[s]
        self.duck = duck
        self.limit = limit
        self.table = table
        self.nodes = 0
        self.tmask = 0
        self.trick: list[int] = []

    def node(self, lp: int, tlen: int, bound: int = NO_BOUND) -> int:
        key = 0
        entries = self.table.entries
        if tlen == 0:
            if not self.all:
                return 0
            key = self.all | lp << 56
            hit = entries.get(key)
            if hit is not None:
                return hit
        r = self.r
        seat = self.order[(lp + tlen) % self.nact]
        legal = r.legal(self.hands[seat], self.trick[0] if tlen else -1)
        cards = sorted(_bits(legal), key=r.pkey.__getitem__)
        ducks = self.duck >> seat & 1
        own = self.hands[seat]
        top = 0 if ducks else own.bit_count()  # every trick left, or none
        live = self.all | self.tmask
        weaker = r.weaker
        best, bu, have = 0, 0, False
        for c in cards:
            # skipped when the next weaker live card of its effective suit is this seat's own
            for d in weaker[c]:
                if live >> d & 1:
                    break
            else:
                d = -1
            if d >= 0 and own >> d & 1:
                continue
            self.nodes += 1
            if self.limit and self.nodes > self.limit:
                raise _Budget
            bit = 1 << c
            self.hands[seat] &= ~bit
            self.all &= ~bit
            self.trick.append(c)
            self.tmask |= bit
            if tlen + 1 == self.nact:
                wpos = (lp + r.winner(self.trick)) % self.nact
                saved, self.tmask = self.tmask, 0
                saved_trick, self.trick = self.trick, []
                v = self.node(wpos, 0) + (1 << 4 * self.order[wpos])
                self.tmask, self.trick = saved, saved_trick
            else:
                # shallow max^n pruning: see the module docstring
                v = self.node(lp, tlen + 1, top - bu if have and not ducks else NO_BOUND)
            self.trick.pop()
            self.tmask &= ~bit
            self.hands[seat] |= bit
            self.all |= bit
            t = v >> 4 * seat & 15
            u = -t if ducks else t
            if not have or u > bu:
                best, bu, have = v, u, True
            if bu == top:
                break  # nothing can do better for this seat
            if not ducks and bu >= bound:
                break  # the seat before will not let it come to this
        if tlen == 0:
            if len(entries) >= KEEP:
                entries.clear()
            entries[key] = best
        return best


def maxn(
    r: _Rules,
    hands: list[int],
    n: int,
    active: int,
    leader: int,
    trick0: list[int],
    duck: int,
    limit: int,
    table: Table,
    won: list[int],
) -> bool:
    """Add to ``won`` the tricks each seat takes from the position; False past ``limit`` nodes.

    ``won`` is left untouched when the search gives up.

    ``trick0`` is the current trick, leader first (it may be complete);
    ``limit`` 0 means no limit.  Twin of ``hb_i_maxn``.
    """
    order = [i for i in range(n) if active >> i & 1]
    if not order:
        return True
    lp = order.index(leader) if leader in order else 0
    m = _Maxn(r, [hands[i] if active >> i & 1 else 0 for i in range(8)], order, duck, limit, table)
    m.trick = list(trick0)
    for c in trick0:
        m.tmask |= 1 << c
    try:
        if len(trick0) == m.nact:
            wpos = (lp + r.winner(m.trick)) % m.nact
            m.tmask, m.trick = 0, []
            v = m.node(wpos, 0) + (1 << 4 * order[wpos])
        else:
            v = m.node(lp, len(trick0))
    except _Budget:
        return False
    for i in range(n):
        won[i] += v >> 4 * i & 15
    return True
