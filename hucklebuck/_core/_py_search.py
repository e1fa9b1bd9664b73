"""The Monte Carlo decision search in pure Python: the twin of ``csrc/hb_search.c``.

Same inputs and seed, same records, so a decision is the same on either core.

**Input.**  A :class:`SearchPosition` is one decision as the deciding seat
sees it: each seat's hand size, the cards known to be in each hand (the
deciding seat's whole hand; a Deer Park dealer's picked-up card, a Buck 'Em
scare card or swapped upcard), the effective suits each seat has shown void
in, the cards that may be in a hidden hand (``pool``: those the seat has not
seen, and seen ones that may have come back into play, such as a scare card
after its owner's draw), the pool cards each seat cannot hold besides its
voids (``barred``: such a scare card for every seat but its owner, unless a
re-formed stock may have dealt it on), the current trick and the
per-seat progress of the phase (``state``):

- play: bit 0 set for the seats in the play;
- Hucklebuck auction: bit 0 set for a seat that has passed; declare and
  exchange: 0 undecided, 1 dropped, 2 exchanged, ``3 + k`` staying with ``k``
  cards still to exchange;
- Deer Park order and call: bit 1 set for a seat locked out of calling;
- Buck 'Em: 0 undecided, 1 folded, 2 stayed, 4 stayed and drawn; bit 3 for a
  seat whose scare card forces it to stay.

Two per-seat Hucklebuck fields shape the simulated stay-or-drop decisions:
``stay_min``, the least trick estimate (tenths of a trick) with which the seat
stays, and ``win_bid``, the least bid with which the seat, making it, wins the
game or reaches the target (0: none); against such a bid every seat stays.

**Sampling.**  The pool's cards in increasing order are shuffled (splitmix64,
Fisher-Yates from the top); the seats that need cards, most constrained first
(fewest allowed cards, then seat number), each take the first cards of the
shuffled pool they may hold (not yet taken, not of a suit they showed void
in, not barred); a seat left short takes its missing cards by augmenting paths (Kuhn's
matching, pool order first: a free card it may hold, or one held by a seat
that can take another in its place), so a deal is found whenever one exists.
If a seat still cannot be filled the pool is shuffled again (up to 64 times).
The cards nobody took, in shuffled order, are the draw pile.

**Playing a candidate out** (on the same deal for every candidate): the rest
of the hand is played by the core's fixed policies (the ones of the bulk
simulations): Hucklebuck bids up to ``(estimate + 3) // 10`` tricks, names
its best suit, stays with an estimate of at least ``stay_min`` (per seat, set
from its score; any hand when the bid, made, would win the bidder the game:
``win_bid``) and exchanges its weakest cards; Deer Park orders up with a
strength of 2.6 and calls with 2.8; Buck 'Em stays with two trumps or a high
trump and an ace, and draws up to three cards that are neither trumps nor
aces.  Draws come from the draw pile, then from the cards set aside in the
simulation (lowest first).  Every card is played by the playout policy of
:mod:`._py_eval`.

**Record** per (candidate, sample), ``REC`` signed bytes: tricks of seats 0-7
(-1 for a seat not playing), the bidder or maker, the bid or requirement, a
status (0 played, 1 nobody played, 2 a lone bidder or stayer) and an extra
byte (trump, or whether a lone Buck 'Em stayer may rake).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Final

from . import _py_maxn
from ._py_eval import SplitMix64, _bits, _playout, _Rules
from ._py_search_check import SearchError, check_cand, check_pos
from ._py_sim import _best_suit, _bk_rakes, _bk_stays, _dp_strength, _estimate, _sim_auction, _sim_want, _weak

__all__ = [
    "MAX_CANDS",
    "PHASES",
    "PLAYOUT",
    "REC",
    "SOLVER",
    "SearchError",
    "SearchPosition",
    "sample",
    "search",
]

REC: Final = 12
MAX_CANDS: Final = 64
MAX_TRIES: Final = 64
PLAY, AUCTION, TRUMP, DECLARE, EXCHANGE, ORDER, CALL, DEALER_DISCARD, STAY_FOLD, DRAW = range(10)
#: Phase numbers shared with the C core.
PHASES: Final = {
    "play": PLAY,
    "auction": AUCTION,
    "trump": TRUMP,
    "declare": DECLARE,
    "exchange": EXCHANGE,
    "order": ORDER,
    "call": CALL,
    "dealer_discard": DEALER_DISCARD,
    "stay_fold": STAY_FOLD,
    "draw": DRAW,
}
E_GAME, E_LEN, E_MODE, E_NODEAL, E_CAND, E_PICK = -1, -4, -11, -13, -14, -18
#: Search methods shared with the C core (``HB_SEARCH_PLAYOUT``, ``HB_SEARCH_SOLVER``).
PLAYOUT, SOLVER = 0, 1


@dataclass
class SearchPosition:
    """The fields of the C core's ``hb_search_pos`` (see the module docstring)."""

    game: int
    phase: int
    nseats: int
    seat: int
    dealer: int
    trump: int = -1
    leader: int = 0
    high: int = 0
    bidder: int = -1
    turned: int = -1
    flags: int = 0
    trick: list[int] = field(default_factory=list)
    size: list[int] = field(default_factory=lambda: [0] * 8)
    voids: list[int] = field(default_factory=lambda: [0] * 8)
    state: list[int] = field(default_factory=lambda: [0] * 8)
    won: list[int] = field(default_factory=lambda: [0] * 8)
    known: list[int] = field(default_factory=lambda: [0] * 8)
    pool: int = 0
    barred: list[int] = field(default_factory=lambda: [0] * 8)
    stay_min: list[int] = field(default_factory=lambda: [3] * 8)
    win_bid: list[int] = field(default_factory=lambda: [0] * 8)


def _weakest(r: _Rules, hand: int, k: int) -> int:
    out = 0
    while k > 0 and hand:
        worst = min(_bits(hand), key=r.pkey.__getitem__)
        hand &= ~(1 << worst)
        out |= 1 << worst
        k -= 1
    return out


def _bk_discards(hand: int, trump: int) -> int:
    disc, k = 0, 0
    for rk in range(12):
        for c in range(rk, 52, 13):
            if k < 3 and hand >> c & 1 and c // 13 != trump:
                disc |= 1 << c
                k += 1
    return disc


class _Pile:
    __slots__ = ("aside", "cards", "pos")

    def __init__(self, cards: list[int]) -> None:
        self.cards = cards
        self.pos = 0
        self.aside = 0

    def draw(self) -> int:
        if self.pos < len(self.cards):
            self.pos += 1
            return self.cards[self.pos - 1]
        if not self.aside:
            return -1
        c = (self.aside & -self.aside).bit_length() - 1
        self.aside &= ~(1 << c)
        return c

    def exchange(self, hands: list[int], s: int, disc: int) -> None:
        avail = (len(self.cards) - self.pos) + self.aside.bit_count()
        while disc.bit_count() > avail:  # never discard more than can be drawn
            disc &= disc - 1
        k = disc.bit_count()
        hands[s] &= ~disc
        for _ in range(k):
            c = self.draw()
            if c >= 0:
                hands[s] |= 1 << c
        self.aside |= disc


def _duck_card(r: _Rules, hand: int, trick: list[int]) -> int:
    """A Deer Park seat playing for 50: its weakest card, or when following its
    strongest card that does not take the lead."""
    pkey = r.pkey
    if not trick:
        return min(_bits(hand), key=pkey.__getitem__)
    lead = r.suit[trick[0]]
    lk = r.lkey[lead]
    top = max([lk[c] for c in trick])
    m = hand & r.masks[lead] or hand
    lo, lo_key, hi, hi_key = -1, 1 << 30, -1, -1  # the weakest card; the strongest that loses
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        k = pkey[c]
        if k < lo_key:
            lo, lo_key = c, k
        if k > hi_key and lk[c] <= top:
            hi, hi_key = c, k
    return hi if hi >= 0 else lo


def _play_rest(
    r: _Rules,
    hands: list[int],
    n: int,
    active: int,
    leader: int,
    trick0: list[int],
    won: list[int],
    duck: int,
) -> None:
    order = [i for i in range(n) if active >> i & 1]
    if not order:
        return
    lp = order.index(leader) if leader in order else 0
    nact = len(order)
    trick = list(trick0)
    seats = [order[(lp + i) % nact] for i in range(len(trick0))]
    if not duck & active:
        if trick0:
            for i in range(len(trick0), nact):
                s = order[(lp + i) % nact]
                c = r.policy(hands[s], trick)
                hands[s] &= ~(1 << c)
                trick.append(c)
                seats.append(s)
            w = seats[r.winner(trick)]
            won[w] += 1
            lp = order.index(w)
        if hands[order[lp]]:
            _playout(r, hands, order, lp, won)
        return
    while trick or hands[order[lp]]:
        for i in range(len(trick), nact):
            s = order[(lp + i) % nact]
            c = _duck_card(r, hands[s], trick) if duck >> s & 1 else r.policy(hands[s], trick)
            hands[s] &= ~(1 << c)
            trick.append(c)
            seats.append(s)
        w = seats[r.winner(trick)]
        won[w] += 1
        lp = order.index(w)
        trick, seats = [], []


class _Finisher:
    """How the rest of a simulated hand is played: by the policies, or with open cards.

    The twin of the C core's ``finisher``.
    """

    __slots__ = ("limit", "table")

    def __init__(self, method: int, limit: int) -> None:
        self.table = _py_maxn.Table() if method == SOLVER else None
        self.limit = limit

    def finish(
        self,
        r: _Rules,
        hands: list[int],
        n: int,
        active: int,
        leader: int,
        trick0: list[int],
        won: list[int],
        duck: int,
    ) -> None:
        if self.table is not None and _py_maxn.maxn(
            r, hands, n, active, leader, trick0, duck, self.limit, self.table, won
        ):
            return
        _play_rest(r, hands, n, active, leader, trick0, won, duck)


def _tricks(n: int, active: int, won: list[int], base: list[int] | None = None) -> list[int]:
    return [(won[i] + (base[i] if base else 0)) if i < n and active >> i & 1 else -1 for i in range(8)]


def _sim_hucklebuck(
    p: SearchPosition, rules: list[_Rules], hands: list[int], pl: _Pile, arg: int, cards: int, fin: _Finisher
) -> list[int]:
    n, me, high, bidder, trump = p.nseats, p.seat, p.high, p.bidder, p.trump
    if p.phase == AUCTION:
        passed = [p.size[i] == 0 or bool(p.state[i] & 1) for i in range(n)]
        live = passed.count(False)
        want = [_sim_want(hands[i]) for i in range(n)]
        want[me] = arg
        if arg == 0:
            passed[me] = True
            live -= 1
        else:
            high, bidder = arg, me
        high, bidder = _sim_auction(want, passed, live, high, bidder, (me + 1) % n)
        if bidder < 0:
            return [-1] * 8 + [-1, 0, 1, -1]
    my_disc = -1
    if p.phase <= TRUMP:
        trump = arg if p.phase == TRUMP else _best_suit(hands[bidder])[0]
        st = [0 if p.size[i] else 1 for i in range(n)]
    else:
        st = list(p.state[:n])
    if p.phase == DECLARE:
        if arg < 0:
            st[me] = 1
        else:
            st[me] = 3 + arg
            my_disc = cards
    if p.phase == EXCHANGE:
        my_disc = cards
    if p.phase <= DECLARE:  # the remaining stay-or-drop decisions, bidder last
        wins = 0 < p.win_bid[bidder] <= high  # everyone stays to stop it
        for i in range(1, n + 1):
            s = (bidder + i) % n
            k = _weak(hands[s], trump).bit_count()
            if st[s] != 0:
                continue
            stays = s == bidder or wins or _estimate(hands[s], trump) >= p.stay_min[s]
            st[s] = 3 + k if stays else 1
    others = 0
    for i in range(n):
        if st[i] == 1:
            pl.aside |= hands[i]
            hands[i] = 0
        elif i != bidder:
            others += 1
    if others == 0:
        return [-1] * 8 + [bidder, high, 2, trump]
    for i in range(1, n + 1):
        s = (bidder + i) % n
        if st[s] < 3:
            continue
        disc = my_disc if s == me and my_disc >= 0 else _weakest(rules[trump], hands[s], st[s] - 3)
        pl.exchange(hands, s, disc)
        st[s] = 2
    active = sum(1 << i for i in range(n) if st[i] == 2)
    won = [0] * 8
    fin.finish(rules[trump], hands, n, active, bidder, [], won, 0)
    return [*_tricks(n, active, won), bidder, high, 0, trump]


def _sim_deerpark(
    p: SearchPosition, rules: list[_Rules], hands: list[int], arg: int, cards: int, fin: _Finisher
) -> list[int]:
    n, me, dealer, turned = p.nseats, p.seat, p.dealer, p.turned
    ts = turned // 13
    maker, req, trump = p.bidder, p.high, p.trump
    k_me = (me - dealer - 1 + 2 * n) % n
    if p.phase == ORDER:
        if arg == 1:
            maker, req, trump = me, 3, ts
        ducks = p.flags >> 8 & 0xFF
        for i in range(k_me + 1, n):
            if maker >= 0:
                break
            s = (dealer + 1 + i) % n
            if p.state[s] & 2:
                continue
            est = _dp_strength(rules[ts], hands[s] | (1 << turned if s == dealer else 0))
            if (est < 16) if ducks >> s & 1 else (est >= 26):
                maker, req, trump = s, 3, ts
        if maker >= 0 and not hands[dealer] >> turned & 1:  # eight players: the dealer holds it already
            hands[dealer] |= 1 << turned
            r = rules[trump]
            if ducks >> dealer & 1:  # a ducking dealer sheds its strongest card
                hands[dealer] &= ~(1 << max(_bits(hands[dealer]), key=r.pkey.__getitem__))
            else:
                hands[dealer] &= ~_weakest(r, hands[dealer], 1)
    if maker < 0:
        first = 0
        if p.phase == CALL:
            first = k_me + 1
            if arg >= 0:
                maker, trump, req = me, arg, 2 if me == dealer else 3
        for i in range(first, n):
            if maker >= 0:
                break
            s = (dealer + 1 + i) % n
            stuck = s == dealer
            if not stuck and p.state[s] & 2:
                continue
            bs, be = -1, -1
            ducking = p.flags >> (8 + s) & 1
            for t in range(4):
                if not stuck and p.flags & 1 and t == ts:
                    continue
                est = _dp_strength(rules[t], hands[s])
                if ducking:
                    est = -est  # a ducking seat looks for its weakest suit
                if est >= be or bs < 0:
                    be, bs = est, t
            if stuck or (-be < 16 if ducking else be >= 28):
                maker, trump, req = s, bs, 2 if stuck else 3
    if p.phase == DEALER_DISCARD:
        hands[me] &= ~cards
    active = sum(1 << i for i in range(n) if p.size[i])
    leader = maker if p.flags & 2 else (dealer + 1) % n
    won = [0] * 8
    fin.finish(rules[trump], hands, n, active, leader, [], won, p.flags >> 8 & 0xFF)
    return [*_tricks(n, active, won), maker, req, 0, trump]


def _sim_buckem(
    p: SearchPosition, rules: list[_Rules], hands: list[int], pl: _Pile, arg: int, cards: int, fin: _Finisher
) -> list[int]:
    n, me, dealer, trump = p.nseats, p.seat, p.dealer, p.trump
    st = [p.state[i] & 7 for i in range(n)]
    if p.phase == STAY_FOLD:
        if arg == 0:
            st[me] = 1
        else:
            st[me] = 2
            if arg == 2:
                hands[me] &= ~(1 << (13 * trump))
                hands[me] |= 1 << p.turned
        for i in range(n):
            if i == me or st[i] != 0 or p.size[i] == 0:
                continue
            st[i] = 2 if (p.state[i] & 8 or _bk_stays(hands[i], trump)) else 1
    nst = 0
    for i in range(n):
        if st[i] in (2, 4):
            nst += 1
        else:
            pl.aside |= hands[i]
            hands[i] = 0
    if nst == 0:
        return [-1] * 8 + [-1, 0, 1, 0]
    if nst == 1:
        lone = next(i for i in range(n) if st[i] in (2, 4))
        return [-1] * 8 + [lone, 0, 2, int(_bk_rakes(hands[lone], trump))]
    lead = next((dealer + i) % n for i in range(1, n + 1) if st[(dealer + i) % n] in (2, 4))
    for i in range(1, n + 1):
        s = (dealer + i) % n
        if st[s] != 2:
            continue
        disc = cards if s == me and p.phase == DRAW else _bk_discards(hands[s], trump)
        pl.exchange(hands, s, disc)
        st[s] = 4
    active = sum(1 << i for i in range(n) if st[i] == 4)
    won = [0] * 8
    fin.finish(rules[trump], hands, n, active, lead, [], won, 0)
    return [*_tricks(n, active, won), -1, 0, 0, 0]


# ------------------------------------------------------------------ sampling
class _Sampler:
    def __init__(self, p: SearchPosition, r: _Rules) -> None:
        self.arr = bytearray(_bits(p.pool))
        self.need = [0] * 8
        self.allowed = [0] * 8
        seats: list[int] = []
        for i in range(p.nseats):
            bad = 0
            for s in range(4):
                if p.voids[i] >> s & 1:
                    bad |= r.masks[s]
            self.need[i] = 0 if i == p.seat else p.size[i] - p.known[i].bit_count()
            self.allowed[i] = p.pool & ~bad & ~p.barred[i]
            if self.need[i] > 0:
                cnt = self.allowed[i].bit_count()
                j = len(seats)
                seats.append(i)
                while j > 0 and self.allowed[seats[j - 1]].bit_count() > cnt:
                    seats[j] = seats[j - 1]
                    j -= 1
                seats[j] = i
        self.seats = seats

    def _augment(self, s: int, owner: list[int], visited: list[int], hands: list[int]) -> bool:
        """One more card for seat ``s`` by an augmenting path (twin of ``augment``)."""
        allowed = self.allowed[s]
        for c in self.arr:
            o = owner[c]
            if not allowed >> c & 1 or visited[0] >> c & 1 or o == s:
                continue
            visited[0] |= 1 << c
            if o < 0 or self._augment(o, owner, visited, hands):
                if o >= 0:
                    hands[o] &= ~(1 << c)
                owner[c] = s
                hands[s] |= 1 << c
                return True
        return False

    def deal(self, p: SearchPosition, rng: SplitMix64) -> tuple[list[int], list[int]]:
        for _ in range(MAX_TRIES):
            rng.shuffle(self.arr)
            owner = [-1] * 52
            hands = [p.known[i] if i < p.nseats else 0 for i in range(8)]
            ok = True
            for s in self.seats:
                got, need, allowed = 0, self.need[s], self.allowed[s]
                for c in self.arr:
                    if got >= need:
                        break
                    if owner[c] >= 0 or not allowed >> c & 1:
                        continue
                    owner[c] = s
                    hands[s] |= 1 << c
                    got += 1
                while got < need and self._augment(s, owner, [0], hands):
                    got += 1
                if got < need:
                    ok = False
                    break
            if ok:
                return hands, [c for c in self.arr if owner[c] < 0]
        raise SearchError(E_NODEAL)


def _rules(p: SearchPosition) -> tuple[list[_Rules], int]:
    if not 0 <= p.game <= 2:
        raise SearchError(E_GAME)
    rules = [_Rules(p.game, t) for t in range(4)]
    return rules, (p.trump if p.trump >= 0 else 0)


def sample(p: SearchPosition, seed: int, samples: int) -> list[list[int]]:
    """The hidden deals the search would draw: 8 hand masks per sample (twin of ``hb_search_sample``)."""
    rules, t = _rules(p)
    check_pos(p, rules[t] if p.trump >= 0 else None)
    sampler = _Sampler(p, rules[t])
    rng = SplitMix64(seed)
    return [sampler.deal(p, rng)[0] for _ in range(samples)]


def search(
    p: SearchPosition,
    cands: list[tuple[int, int]],
    seed: int,
    samples: int,
    method: int = PLAYOUT,
    limit: int = 0,
    picks: list[int] | None = None,
    drawn: int = 0,
) -> bytes:
    """Records for every (candidate, sample), candidate-major (twin of ``hb_search_pick``).

    ``method`` :data:`PLAYOUT` plays the rest of each hand by the policies;
    :data:`SOLVER` plays its cards with open cards (:mod:`._py_maxn`), falling
    back to the policies for a deal whose solve passes ``limit`` nodes (0: no
    limit).  With ``picks`` (strictly increasing, each below ``drawn``) only
    those of the first ``drawn`` deals :func:`sample` draws are played, and
    ``samples`` must be their number.
    """
    rules, t = _rules(p)
    check_pos(p, rules[t] if p.trump >= 0 else None)
    if not 1 <= len(cands) <= MAX_CANDS:
        raise SearchError(E_CAND)
    if picks is None:
        drawn = samples
    if not 1 <= samples <= 1 << 20 or not samples <= drawn <= 1 << 22:
        raise SearchError(E_LEN)
    if picks is not None and (
        len(picks) != samples or picks[-1] >= drawn or any(b <= a for a, b in itertools.pairwise(picks))
    ):
        raise SearchError(E_PICK)
    for a, cards in cands:
        check_cand(p, rules[t], a, cards)
    if method not in (PLAYOUT, SOLVER):
        raise SearchError(E_MODE)
    fin = _Finisher(method, limit)
    sampler = _Sampler(p, rules[t])
    rng = SplitMix64(seed)
    out = [[b""] * samples for _ in cands]
    n = p.nseats
    active = sum(1 << i for i in range(n) if p.state[i] & 1)
    d = 0
    for k in range(samples):
        dealt, rest = sampler.deal(p, rng)
        # the deals before the next pick are drawn (the random stream is the same) and skipped
        while picks is not None and d < picks[k]:
            dealt, rest = sampler.deal(p, rng)
            d += 1
        d += 1
        for ci, (a, cards) in enumerate(cands):
            hands = list(dealt)
            pl = _Pile(rest)
            # one deal's table is kept across the cards played to it (same hands), emptied otherwise
            if fin.table is not None and (ci == 0 or p.phase != PLAY):
                fin.table.clear()
            if p.phase == PLAY:
                c = (cards & -cards).bit_length() - 1
                hands[p.seat] &= ~cards
                won = [0] * 8
                fin.finish(rules[t], hands, n, active, p.leader, [*p.trick, c], won, p.flags >> 8 & 0xFF)
                rec = [*_tricks(n, active, won, p.won), p.bidder, p.high, 0, t]
            elif p.game == 0:
                rec = _sim_hucklebuck(p, rules, hands, pl, a, cards, fin)
            elif p.game == 2:
                rec = _sim_deerpark(p, rules, hands, a, cards, fin)
            else:
                rec = _sim_buckem(p, rules, hands, pl, a, cards, fin)
            out[ci][k] = bytes(x & 0xFF for x in rec)
    return b"".join(b"".join(row) for row in out)
