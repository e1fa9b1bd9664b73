"""Input checks of the Monte Carlo decision search (twin of ``check_pos`` and
``check_cand`` in ``csrc/hb_search.c``): the same refusals with the same codes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._py_eval import _Rules

if TYPE_CHECKING:
    from ._py_search import SearchPosition

__all__ = ["SearchError", "check_cand", "check_pos"]

PLAY, AUCTION, TRUMP, DECLARE, EXCHANGE, ORDER, CALL, DEALER_DISCARD, STAY_FOLD, DRAW = range(10)
E_GAME, E_TRUMP, E_CARD, E_LEN, E_DUP, E_NULL, E_MASK = -1, -2, -3, -4, -5, -6, -7
E_SEATS, E_MODE, E_NODEAL, E_CAND = -9, -11, -13, -14
FULL52 = (1 << 52) - 1


class SearchError(Exception):
    """A position or candidate the search refuses; ``code`` is the C core's error code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _phase_game(phase: int) -> int:
    if phase == PLAY:
        return -1
    if phase <= EXCHANGE:
        return 0
    if phase <= DEALER_DISCARD:
        return 2
    return 1


def check_pos(p: SearchPosition, r: _Rules | None) -> None:
    def bad(code: int) -> None:
        raise SearchError(code)

    if not 0 <= p.game <= 2:
        bad(E_GAME)
    if not 0 <= p.phase <= DRAW:
        bad(E_MODE)
    g = _phase_game(p.phase)
    if g >= 0 and g != p.game:
        bad(E_MODE)
    n = p.nseats
    if not 2 <= n <= 8:
        bad(E_SEATS)
    if not (0 <= p.seat < n and 0 <= p.dealer < n):
        bad(E_SEATS)
    if not -1 <= p.trump <= 3:
        bad(E_TRUMP)
    if p.trump < 0 and p.phase not in (AUCTION, TRUMP, ORDER, CALL):
        bad(E_TRUMP)
    if p.pool & ~FULL52 or p.pool < 0:
        bad(E_MASK)
    if not 0 <= p.flags < 1 << 16 or (p.flags >> 8 & 0xFF) >> n:
        bad(E_MODE)
    if len(p.win_bid) != 8 or any(not 0 <= v <= 5 or (i >= n and v) for i, v in enumerate(p.win_bid)):
        bad(E_MODE)
    if len(p.stay_min) != 8 or not all(0 <= v <= 255 for v in p.stay_min):
        bad(E_MODE)
    seen, need = 0, 0
    for i in range(8):
        if i >= n:
            if p.size[i] or p.known[i] or p.voids[i] or p.barred[i]:
                bad(E_SEATS)
            continue
        if (p.known[i] | p.barred[i]) & ~FULL52 or p.known[i] < 0 or p.barred[i] < 0:
            bad(E_MASK)
        if p.known[i] & (seen | p.pool):
            bad(E_DUP)
        seen |= p.known[i]
        if p.size[i] > 6 or p.known[i].bit_count() > p.size[i]:
            bad(E_LEN)
        if p.voids[i] > 15 or p.won[i] > 5:
            bad(E_LEN)
        if p.voids[i] and p.trump < 0:
            bad(E_TRUMP)
        if p.voids[i] and r is not None:
            for s in range(4):
                if p.voids[i] >> s & 1 and p.known[i] & r.masks[s]:
                    bad(E_DUP)
        if i != p.seat:
            need += p.size[i] - p.known[i].bit_count()
    if p.known[p.seat].bit_count() != p.size[p.seat]:
        bad(E_LEN)
    if p.size[p.seat] == 0:
        bad(E_SEATS)
    if need > p.pool.bit_count():
        bad(E_NODEAL)
    if len(p.trick) > 7:
        bad(E_LEN)
    for c in p.trick:
        if not 0 <= c <= 51:
            bad(E_CARD)
        if (seen | p.pool) >> c & 1:
            bad(E_DUP)
        seen |= 1 << c
    if not -1 <= p.turned <= 51:
        bad(E_CARD)
    if p.phase == PLAY:
        order = [i for i in range(n) if p.state[i] & 1]
        if p.leader not in order or len(p.trick) >= len(order):
            bad(E_SEATS)
        lp = order.index(p.leader)
        if order[(lp + len(p.trick)) % len(order)] != p.seat:
            bad(E_SEATS)
        in_trick = {order[(lp + j) % len(order)] for j in range(len(p.trick))}
        for i in range(n):
            if not p.state[i] & 1 and p.size[i] != 0:
                bad(E_LEN)
            if p.state[i] & 1 and p.size[i] + (i in in_trick) != p.size[p.seat]:
                bad(E_LEN)
    else:
        if p.trick:
            bad(E_LEN)
        for i in range(n):  # before play: five cards a hand (the Deer Park dealer's six)
            full = 6 if p.phase == DEALER_DISCARD and i == p.seat else 5
            st = p.state[i] & 7
            out_ok = p.phase in (AUCTION, TRUMP) or st == 1
            if p.size[i] != full and not (p.size[i] == 0 and out_ok and i != p.seat):
                bad(E_LEN)
            if p.size[i] == 0 and ORDER <= p.phase <= DEALER_DISCARD:
                bad(E_LEN)
            if p.size[i] == full and st == 1 and p.phase != AUCTION and p.phase < ORDER:
                bad(E_LEN)
            if p.size[i] == full and st == 1 and p.phase >= STAY_FOLD:
                bad(E_LEN)
    if p.phase == AUCTION:
        if not (0 <= p.high <= 5 and -1 <= p.bidder < n):
            bad(E_MODE)
        if (p.high == 0) != (p.bidder < 0):
            bad(E_MODE)
    if TRUMP <= p.phase <= EXCHANGE:
        if not (2 <= p.high <= 5 and 0 <= p.bidder < n):
            bad(E_MODE)
        if p.phase == TRUMP and p.bidder != p.seat:
            bad(E_SEATS)
    if ORDER <= p.phase <= DEALER_DISCARD:
        if p.turned < 0:
            bad(E_CARD)
        # nobody holds the turned card before the order, but an eight-player dealer, whose last card it is
        if p.phase == ORDER and (p.pool | (seen & ~p.known[p.dealer])) >> p.turned & 1:
            bad(E_DUP)
        if p.phase == DEALER_DISCARD:
            if p.seat != p.dealer or not 0 <= p.bidder < n or not 2 <= p.high <= 3:
                bad(E_SEATS)
        elif p.bidder != -1:
            bad(E_MODE)
    if p.phase >= ORDER:
        if p.turned < 0:
            bad(E_CARD)
        if p.pool >> p.turned & 1:
            bad(E_DUP)
    if not (-1 <= p.bidder < n and 0 <= p.high <= 5):
        bad(E_MODE)


def check_cand(p: SearchPosition, r: _Rules, a: int, cards: int) -> None:
    hand = p.known[p.seat]
    if cards < 0 or cards & ~hand:
        raise SearchError(E_CAND)
    k = cards.bit_count()
    ok: bool
    if p.phase == PLAY:
        ok = k == 1 and bool(r.legal(hand, p.trick[0] if p.trick else -1) & cards)
    elif p.phase == AUCTION:
        ok = not cards and (a == 0 or (2 <= a <= 5 and a > p.high))
    elif p.phase == TRUMP:
        ok = not cards and 0 <= a <= 3
    elif p.phase == DECLARE:
        ok = -1 <= a <= 5 and not (a == -1 and p.seat == p.bidder) and k == (0 if a < 0 else a)
    elif p.phase == EXCHANGE:
        ok = a == 0 and k == p.state[p.seat] - 3
    elif p.phase == ORDER:
        ok = not cards and a in (0, 1)
    elif p.phase == CALL:
        ok = not (a == -1 and p.seat == p.dealer) and not cards and -1 <= a <= 3
    elif p.phase == DEALER_DISCARD:
        ok = a == 0 and k == 1
    elif p.phase == STAY_FOLD:
        ok = not cards and 0 <= a <= 2 and not (a == 2 and not hand >> (13 * p.trump) & 1)
    else:
        ok = a == 0 and k <= 3
    if not ok:
        raise SearchError(E_CAND)
