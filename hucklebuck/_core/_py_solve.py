"""The perfect-information solver in pure Python: the twin of ``csrc/hb_solve.c``.

The question: how many of the remaining tricks can ``seat`` be sure of when
every card is open and every other seat plays against it?  The answer is
found by yes/no searches ("can the seat take at least k?") for k = 1, 2, ...

- **Quick bounds** from greedy matchings of trumps: a trump of the seat loses
  only to a higher trump played to the same trick (lower bound); each trump of
  one opponent that the seat cannot cover costs it a trick (upper bound); on
  lead, once its top trumps draw every opposing trump, the seat's side-suit
  winners count too.  Checked at each trick boundary and mid-trick once the
  seat has played or can no longer take the trick.
- **Transposition table** keyed by *relative* ranks: for each effective suit,
  the positions holding the remaining cards in order of strength, and the
  leader.  Positions with the same key play identically.  A solve keeps at
  most ``tt_size // 2`` positions, then empties the table and carries on.
- **Equivalent cards**: of a player's cards that are adjacent in strength
  among the live cards of their suit, one is tried.
- **Move ordering**: a card that takes the trick first for the seat (on lead:
  a top trump, else its cheapest card); for an opponent, the cheapest card
  that covers or overtakes the seat, the cheapest card when the trick is
  decided, and on lead the cheapest card of a suit the seat must follow and
  cannot win, then the cheapest trump; ties by how often a card caused a
  cut-off (history), then by strength.

Every step matches the C core, so both count the same **nodes** (cards
tried) and a node budget stops both at the same point.
"""

from __future__ import annotations

import time
from typing import Final

from ..errors import SolveBudgetExceeded
from ._api import raise_for
from ._py import _TABLES

__all__ = ["TT_SIZE", "SolveStopped", "budget_error", "check_position", "solve", "solve_position"]

FULL52: Final = (1 << 52) - 1
#: Transposition-table slots (the C core's table per thread; a solve keeps half as many positions).
TT_SIZE: Final = 1 << 18
#: Nodes between two looks at the clock (the C core polls its cancel flag as often).
CHECK_EVERY: Final = 1023
#: Core error code for a used-up node budget (``HB_E_BUDGET``).
E_BUDGET: Final = -15
#: Core error code for a cancelled or timed-out search (``HB_E_CANCELLED``).
E_CANCELLED: Final = -16


class SolveStopped(Exception):
    """The search stopped early: ``code`` is E_BUDGET or E_CANCELLED, ``nodes`` the nodes searched."""

    def __init__(self, code: int, nodes: int) -> None:
        super().__init__(code, nodes)
        self.code = code
        self.nodes = nodes


def budget_error(code: int, nodes: int, node_limit: int, time_limit: float | None) -> SolveBudgetExceeded:
    """The library error for a search that stopped with ``code`` after ``nodes`` nodes."""
    if code == E_BUDGET:
        return SolveBudgetExceeded(
            f"the solver used up its budget of {node_limit:,} nodes; raise node_limit or give up on "
            "this position",
            "nodes",
            nodes,
        )
    return SolveBudgetExceeded(
        f"the solver ran past its time limit of {time_limit or 0:g} s (after {nodes:,} nodes)", "time", nodes
    )


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _Solver:
    """One solve: the state of the search (see the module docstring)."""

    def __init__(
        self,
        game: int,
        trump: int,
        hands: list[int],
        leader: int,
        seat: int,
        tt_size: int,
        node_limit: int,
        deadline: float | None,
    ) -> None:
        suit, rank, masks = _TABLES[(game, trump)]
        self.suit, self.rank, self.masks, self.trump = suit, rank, masks, trump
        self.hands: list[int] = []
        self.owner = [0] * 52
        self.all = 0
        self.leader = self.seat = 0
        for i, h in enumerate(hands):
            if not h:
                continue
            if i == leader:
                self.leader = len(self.hands)
            if i == seat:
                self.seat = len(self.hands)
            for c in _bits(h):
                self.owner[c] = len(self.hands)
            self.all |= h
            self.hands.append(h)
        self.nact = len(self.hands)
        self.okey = [((((suit[c] == trump) << 5) | rank[c]) << 6) + c for c in range(52)]
        self.by_suit = [
            sorted((c for c in range(52) if suit[c] == s), key=lambda c: rank[c]) for s in range(4)
        ]
        self.below = [0] * 52  # the cards of each card's effective suit that it beats
        for bs in self.by_suit:
            for i in range(1, len(bs)):
                self.below[bs[i]] = self.below[bs[i - 1]] | 1 << bs[i - 1]
        self.history = [0] * 52
        self.trick = [0] * 8
        self.tt: dict[tuple[int, bytes, bytes, bytes, bytes], list[int]] | None = {} if tt_size else None
        self.tt_limit = tt_size // 2
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline

    def value(self) -> int:
        k = 0
        size = self.hands[self.seat].bit_count()
        while k < size and self.boundary(k + 1):
            k += 1
        return k

    def bounds(self, remaining: int, seat_leads: bool, pending: int) -> tuple[int, int]:
        """Lower and upper bounds on the seat's tricks from the cards held now (see the C twin)."""
        # Greedy matchings of trumps, strongest first (see the C twin).
        loss = [0] * 8
        avail = [0] * 8
        seen_opp = False
        top = mine = opp_free = 0
        alls, owner, seat, nact = self.all, self.owner, self.seat, self.nact
        for c in reversed(self.by_suit[self.trump]):
            if not alls >> c & 1:
                continue
            o = owner[c]
            if o == seat:
                if not seen_opp:
                    top += 1
                if opp_free > 0:
                    opp_free -= 1
                else:
                    mine += 1
                for j in range(nact):
                    avail[j] += 1
            else:
                seen_opp = True
                opp_free += 1
                if avail[o] > 0:
                    avail[o] -= 1
                else:
                    loss[o] += 1
        low = mine
        maxc = max([0, *(loss[i] - (pending >> i & 1) for i in range(nact) if i != seat)])
        if seat_leads:
            trumps = self.masks[self.trump]
            hands = self.hands
            maxt = max([0, *((hands[i] & trumps).bit_count() for i in range(self.nact) if i != seat)])
            if maxt <= top:
                low = (hands[seat] & trumps).bit_count()
                for s in range(4):
                    if s == self.trump:
                        continue
                    for c in reversed(self.by_suit[s]):
                        if not alls >> c & 1:
                            continue
                        if owner[c] != seat:
                            break
                        low += 1
        return low, remaining - maxc

    def decided_mid_trick(self, pos: int, k: int, lead_suit: int, best: int, wpos: int, soff: int) -> int:
        """1 or 0 when the bounds decide the rest of the search mid-trick, -1 otherwise."""
        nact, hands = self.nact, self.hands
        rem = hands[self.seat].bit_count() - (soff >= pos)
        pending = 0
        for i in range(pos, nact):
            pending |= 1 << ((self.leader + i) % nact)
        if soff >= pos or wpos != soff:
            won = 0
        else:
            for i in range(pos, nact):
                h = hands[(self.leader + i) % nact]
                if any(self.key(lead_suit, c) > best for c in _bits(h & self.masks[lead_suit] or h)):
                    return -1
            won = 1
        k -= won
        if k <= 0:
            return 1
        if k > rem:
            return 0
        lo, hi = self.bounds(rem, won == 1, pending)
        if soff >= pos:
            lo -= 1
        if k <= lo:
            return 1
        if k > hi:
            return 0
        return -1

    def key(self, lead_suit: int, c: int) -> int:
        s = self.suit[c]
        return ((s == self.trump) << 5) | ((s == lead_suit) << 4) | self.rank[c]

    def last_trick(self) -> bool:
        hands, nact = self.hands, self.nact
        lead_suit = self.suit[(hands[self.leader] & -hands[self.leader]).bit_length() - 1]
        best, wpos = -1, 0
        for i in range(nact):
            p = (self.leader + i) % nact
            h = hands[p]
            kk = self.key(lead_suit, (h & -h).bit_length() - 1)
            if kk > best:
                best, wpos = kk, p
        return wpos == self.seat

    def boundary(self, k: int) -> bool:
        remaining = self.hands[self.leader].bit_count()
        if k <= 0:
            return True
        if k > remaining:
            return False
        if remaining == 1:
            return self.last_trick()
        lo, hi = self.bounds(remaining, self.leader == self.seat, 0)
        if k <= lo:
            return True
        if k > hi:
            return False
        tt = self.tt
        if tt is not None:
            alls, owner = self.all, self.owner
            b0, b1, b2, b3 = (bytes(owner[c] for c in bs if alls >> c & 1) for bs in self.by_suit)
            key = (self.leader, b0, b1, b2, b3)
            e = tt.get(key)
            if e is not None:
                if k <= e[0]:
                    return True
                if k > e[1]:
                    return False
            else:
                if len(tt) >= self.tt_limit:
                    tt.clear()  # full: start over, as the C core does
                tt[key] = [lo, hi]
        res = self.play_from(0, k)
        if tt is not None:
            e = tt.get(key)
            if e is not None:
                if res:
                    e[0] = max(e[0], k)
                else:
                    e[1] = min(e[1], k - 1)
        return res

    def touching(self, live: int, s: int, lo_card: int, hi_card: int) -> bool:
        rank = self.rank
        lo, hi = rank[lo_card], rank[hi_card]
        return not any(lo < rank[c] < hi and live >> c & 1 for c in self.by_suit[s])

    def play_from(self, pos: int, k: int) -> bool:
        nact, suit, trick = self.nact, self.suit, self.trick
        if pos == nact:  # the trick is complete: its winner leads the next
            lead_suit = suit[trick[0]]
            best, wpos = -1, 0
            for i in range(nact):
                kk = self.key(lead_suit, trick[i])
                if kk > best:
                    best, wpos = kk, i
            saved_leader, saved_trick = self.leader, trick
            self.trick = [0] * 8
            self.leader = (self.leader + wpos) % nact
            res = self.boundary(k - (self.leader == self.seat))
            self.leader, self.trick = saved_leader, saved_trick
            return res
        p = (self.leader + pos) % nact
        hands = self.hands
        legal = hands[p]
        live = self.all
        best, wpos, lead_suit = -1, -1, -1
        if pos > 0:
            lead_suit = suit[trick[0]]
            legal = legal & self.masks[lead_suit] or legal
            for i in range(pos):
                kk = self.key(lead_suit, trick[i])
                live |= 1 << trick[i]
                if kk > best:
                    best, wpos = kk, i
        okey, rank = self.okey, self.rank
        seat = self.seat
        soff = (seat - self.leader) % nact
        seat_beats = True
        seat_top = -1
        if pos > 0 and soff >= pos:
            sh = hands[seat]
            seat_top = max(self.key(lead_suit, c) for c in _bits(sh & self.masks[lead_suit] or sh))
            seat_beats = seat_top > best
        if pos > 0 and (soff < pos or not seat_beats):
            d = self.decided_mid_trick(pos, k, lead_suit, best, wpos, soff)
            if d >= 0:
                return d == 1
        last_kept = [-1, -1, -1, -1]
        cands: list[tuple[int, int]] = []
        for c in sorted(_bits(legal), key=okey.__getitem__, reverse=True):
            s = suit[c]
            if last_kept[s] >= 0 and self.touching(live, s, c, last_kept[s]):
                continue
            last_kept[s] = c
            ok = okey[c]
            wins = pos > 0 and self.key(lead_suit, c) > best
            if pos == 0 and p != seat:  # an opponent leads
                ss = hands[seat] & self.masks[s]
                top = max((rank[x] for x in _bits(ss)), default=-1)
                if ss and rank[c] > top:
                    g = 12288 + 4095 - ok  # the seat must follow and is beaten: cheapest first
                elif s == self.trump:
                    g = 8192 + 4095 - ok  # draw the seat's trumps, cheaply
                else:
                    g = 4096 + ok if ss else 4095 - ok
            elif pos == 0:  # the seat leads: a top trump first, else its cheapest card
                above = self.all & self.masks[self.trump] & ~hands[seat] & ~self.below[c]
                g = 8192 + ok if s == self.trump and not above else 4095 - ok
            elif p == seat:
                g = (8192 + (4095 - ok if pos == nact - 1 else ok)) if wins else 4095 - ok
            elif soff < pos:
                g = 8192 + 4095 - ok if (wpos == soff and wins) else 4095 - ok
            elif seat_beats:  # cover the seat's best card as cheaply as possible first
                g = 8192 + 4095 - ok if self.key(lead_suit, c) > seat_top else 4096 + ok
            else:
                g = 4095 - ok
            cands.append((((g >> 12) << 48) | (self.history[c] << 12) | (g & 4095), c))
        cands.sort(reverse=True)
        maximizing = p == seat
        for _, c in cands:
            self.nodes += 1
            if self.node_limit and self.nodes > self.node_limit:
                raise SolveStopped(E_BUDGET, self.nodes)
            if (
                self.nodes & CHECK_EVERY == 0
                and self.deadline is not None
                and time.monotonic() > self.deadline
            ):
                raise SolveStopped(E_CANCELLED, self.nodes)
            bit = 1 << c
            hands[p] &= ~bit
            self.all &= ~bit
            self.trick[pos] = c
            res = self.play_from(pos + 1, k)
            hands[p] |= bit
            self.all |= bit
            if res == maximizing:
                left = hands[p].bit_count()
                if self.history[c] < 1 << 30:
                    self.history[c] += left * left
                return res
        return not maximizing


def check_position(game: int, trump: int, hands: list[int], nseats: int, leader: int, seat: int) -> int:
    """Raise the core error for an invalid position; return the hand size."""
    if not 0 <= game <= 2:
        raise_for(-1)
    if not 0 <= trump <= 3:
        raise_for(-2)
    if not 2 <= nseats <= 8 or len(hands) < nseats:
        raise_for(-9)
    seen = 0
    size = -1
    for h in hands[:nseats]:
        if h < 0 or h & ~FULL52:
            raise_for(-7)
        if h & seen:
            raise_for(-5)
        seen |= h
        n = h.bit_count()
        if n == 0:
            continue
        if n > 5 or (size >= 0 and n != size):
            raise_for(-4)
        size = n
    if size < 0:
        raise_for(-4)
    if not 0 <= leader < nseats or not hands[leader]:
        raise_for(-9)
    if not 0 <= seat < nseats or not hands[seat]:
        raise_for(-9)
    return size


def solve_position(
    game: int,
    trump: int,
    hands: list[int],
    leader: int,
    seat: int,
    tt_size: int = TT_SIZE,
    node_limit: int = 0,
    deadline: float | None = None,
) -> tuple[int, int]:
    """(value, nodes) of a position already checked; raises :class:`SolveStopped` on a budget."""
    s = _Solver(game, trump, hands, leader, seat, tt_size, node_limit, deadline)
    return s.value(), s.nodes


def solve(
    game: int,
    trump: int,
    hands: list[int],
    leader: int,
    seat: int,
    node_limit: int = 0,
    deadline: float | None = None,
    tt_size: int = TT_SIZE,
) -> tuple[int, int]:
    """(most tricks ``seat`` can be sure of, nodes searched); see :func:`hucklebuck.evaluate.solve`."""
    check_position(game, trump, hands, len(hands), leader, seat)
    return solve_position(game, trump, list(hands), leader, seat, tt_size, node_limit, deadline)
