"""Bulk simulation in pure Python: the twin of
``csrc/hb_sim.c``, giving exactly the C core's counts for the same inputs and seed.

Each game is played out many times with a fixed policy: deals and shuffles from
:class:`~._py_eval.SplitMix64`, card play by the playout policy of
:mod:`._py_eval`, and the bidding, staying and raking rules below (trick
estimates in integer tenths, as in C).
"""

from __future__ import annotations

from typing import Final

from ._api import raise_for
from ._py_eval import SplitMix64, _bits, _playout, _Rules

__all__ = ["SIM_STATS", "sim_buckem", "sim_deerpark", "sim_hucklebuck"]

SIM_STATS: Final = 14
#: Simulation policy: a non-bidder stays with an estimate of this many tenths of a trick.
STAY_AT: Final = 3


def _estimate(hand: int, trump: int) -> int:
    """Integer trick estimate in tenths (identical to the C core's)."""
    est = 0
    tr = hand & (0x1FFF << (13 * trump))
    ntr = tr.bit_count()
    idx = 0
    for rk in range(12, -1, -1):
        if not tr >> (13 * trump + rk) & 1:
            continue
        if rk == 12:
            est += 10
        elif rk == 11:
            est += 8 if ntr >= 2 else 4
        elif rk == 10:
            est += 6 if ntr >= 3 else 3
        else:
            est += 4 if idx >= 2 else 1
        idx += 1
    for s in range(4):
        if s == trump:
            continue
        m = hand & (0x1FFF << (13 * s))
        if m >> (13 * s + 12) & 1:
            est += 7
        if m >> (13 * s + 11) & 1 and m.bit_count() >= 2:
            est += 3
    return est


def _best_suit(hand: int) -> tuple[int, int]:
    best, be = 0, -1
    for s in range(4):
        e = _estimate(hand, s)
        if e >= be:
            be, best = e, s
    return best, be


def _sim_want(hand: int) -> int:
    """The bid the simulated Hucklebuck bidder holding ``hand`` goes up to (0..5)."""
    e = _best_suit(hand)[1]
    w = (e + 3) // 10
    return 5 if e >= 47 or w > 5 else w


def _sim_auction(
    want: list[int], passed: list[bool], live: int, high: int, bidder: int, cur: int
) -> tuple[int, int]:
    """The simulated auction from seat ``cur`` on: a seat raises by one while its
    ``want`` allows, else passes for good.  Returns (high bid, high bidder or -1);
    updates ``passed``."""
    n = len(want)
    while live > 0 and not (bidder >= 0 and live == 1) and high < 5:
        need = high + 1 if high else 2
        if not passed[cur] and cur != bidder:
            if want[cur] >= need:
                high, bidder = need, cur
            else:
                passed[cur] = True
                live -= 1
        cur = (cur + 1) % n
    return high, bidder


def _weak(hand: int, trump: int) -> int:
    return sum(1 << c for c in _bits(hand) if c // 13 != trump and c % 13 < 10)


def _deal_five(deck: bytearray, dealer: int, hands: list[int]) -> int:
    """Deal five cards each, one at a time from the dealer's left (DEF #1); return the cards used."""
    players = len(hands)
    pos = 0
    for _ in range(5):
        for i in range(1, players + 1):
            hands[(dealer + i) % players] |= 1 << deck[pos]
            pos += 1
    return pos


def sim_hucklebuck(players: int, seed: int, hands_n: int) -> list[int]:
    """Play ``hands_n`` Hucklebuck hands with the fixed policy; return the statistics."""
    if not 3 <= players <= 7:
        raise_for(-9)
    stats = [0] * SIM_STATS
    rules = [_Rules(0, t) for t in range(4)]
    rng = SplitMix64(seed)
    for h in range(hands_n):
        hands = [0] * players
        dealer = h % players
        deck = bytearray(range(52))
        rng.shuffle(deck)
        pos = 0
        pos = _deal_five(deck, dealer, hands)
        stock = bytearray(deck[pos:])
        pos = 0
        want = [_sim_want(h) for h in hands]
        high, bidder = _sim_auction(want, [False] * players, players, 0, -1, (dealer + 1) % players)
        if bidder < 0:
            stats[0] += 1
            continue
        trump, _ = _best_suit(hands[bidder])
        aside = 0
        stayed = [False] * players
        others = 0
        for i in range(1, players):
            s = (bidder + i) % players
            if _estimate(hands[s], trump) >= STAY_AT:
                stayed[s] = True
                others += 1
            else:
                aside |= hands[s]
                hands[s] = 0
        stayed[bidder] = True
        if others == 0:
            stats[1] += 1
            continue
        for i in range(1, players + 1):
            s = (bidder + i) % players
            if not stayed[s]:
                continue
            disc = _weak(hands[s], trump)
            k = disc.bit_count()
            if k == 0:
                continue
            hands[s] &= ~disc
            while k > 0:
                if pos >= len(stock):
                    stock = bytearray(_bits(aside))
                    aside = 0
                    pos = 0
                    rng.shuffle(stock)
                    stats[4] += 1
                hands[s] |= 1 << stock[pos]
                pos += 1
                k -= 1
            aside |= disc
        order = [i for i in range(players) if stayed[i]]
        won = [0] * players
        _playout(rules[trump], hands, order, order.index(bidder), won)
        stats[2] += 1
        stats[3] += len(order)
        stats[6 + 2 * (high - 2) + (0 if won[bidder] >= high else 1)] += 1
        stats[5] += sum(1 for s in order if s != bidder and won[s] == 0)
    return stats


def _dp_strength(r: _Rules, hand: int) -> int:
    est = 0
    for c in _bits(hand):
        if r.suit[c] == r.trump:
            k = r.rank[c]
            est += {14: 10, 13: 9, 12: 8, 11: 6, 10: 5}.get(k, 4)
        elif r.rank[c] == 12:
            est += 5
    return est


def _dp_best_suit(rules: list[_Rules], hand: int) -> tuple[int, int]:
    best, be = 0, -1
    for s in range(4):
        e = _dp_strength(rules[s], hand)
        if e >= be:
            be, best = e, s
    return best, be


DP_STATS: Final = 10
BK_STATS: Final = 14


def sim_deerpark(players: int, seed: int, hands_n: int) -> list[int]:
    """Play ``hands_n`` Deer Park Euchre hands with the fixed policy (twin of ``hb_sim_deerpark``)."""
    if not 3 <= players <= 7:
        raise_for(-9)
    stats = [0] * DP_STATS
    rules = [_Rules(2, t) for t in range(4)]
    rng = SplitMix64(seed)
    low = 11 - players
    for h in range(hands_n):
        dealer = h % players
        deck = bytearray(s * 13 + r for s in range(4) for r in range(low, 13))
        rng.shuffle(deck)
        hands = [0] * players
        pos = 0
        pos = _deal_five(deck, dealer, hands)
        turned = deck[pos]
        stats[0] += 1
        maker, req, trump = -1, 0, 0
        if turned // 13 == 0:
            maker, req, trump = dealer, 2, 0
            stats[1] += 1
        else:
            ts = turned // 13
            for i in range(1, players + 1):
                p = (dealer + i) % players
                if _dp_strength(rules[ts], hands[p]) >= 26:
                    maker, req, trump = p, 3, ts
                    break
            if maker >= 0:
                stats[2] += 1
                hands[dealer] |= 1 << turned
                r = rules[trump]
                worst = min(_bits(hands[dealer]), key=r.pkey.__getitem__)
                hands[dealer] &= ~(1 << worst)
            else:
                for i in range(1, players):
                    p = (dealer + i) % players
                    bs, e = _dp_best_suit(rules, hands[p])
                    if e >= 28:
                        maker, req, trump = p, 3, bs
                        break
                if maker >= 0:
                    stats[3] += 1
                else:
                    maker, req = dealer, 2
                    trump, _ = _dp_best_suit(rules, hands[dealer])
                    stats[4] += 1
        won = [0] * players
        _playout(rules[trump], hands, list(range(players)), (dealer + 1) % players, won)
        if req == 3:
            stats[5 if won[maker] >= 3 else 6] += 1
        else:
            stats[7 if won[maker] >= 2 else 8] += 1
        stats[9] += sum(1 for i in range(players) if i != maker and won[i] == 0)
    return stats


def _bk_stays(hand: int, trump: int) -> bool:
    tr = hand & (0x1FFF << (13 * trump))
    if tr.bit_count() >= 2:
        return True
    aces = sum(1 for s in range(4) if s != trump and hand >> (13 * s + 12) & 1)
    return (tr >> (13 * trump + 10)) != 0 and aces > 0


def _bk_rakes(hand: int, trump: int) -> bool:
    tr = hand & (0x1FFF << (13 * trump))
    if tr >> (13 * trump + 12) & 1:
        return True
    return tr.bit_count() >= 2 and (tr & (7 << (13 * trump + 9))) != 0


def sim_buckem(players: int, seed: int, hands_n: int, ante: int = 1, pot_limit: int = 0) -> list[int]:
    """Play a Buck 'Em session of ``hands_n`` rounds with the fixed policy (twin of ``hb_sim_buckem``)."""
    if not 5 <= players <= 8:
        raise_for(-9)
    if ante < 1:
        raise_for(-4)
    stats = [0] * BK_STATS
    rules = [_Rules(1, t) for t in range(4)]
    rng = SplitMix64(seed)
    pot = units = 0
    ante_due = True
    for h in range(hands_n):
        dealer = h % players
        stats[0] += 1
        if ante_due:
            pot += ante * players
            units += 1
            ante_due = False
        deck = bytearray(range(52))
        rng.shuffle(deck)
        hands = [0] * players
        pos = 0
        pos = _deal_five(deck, dealer, hands)
        trump = deck[pos] // 13
        pos += 1
        stock = bytearray(deck[pos:])
        pos = 0
        folded = discards = 0
        stayers = []
        for i in range(1, players + 1):
            p = (dealer + i) % players
            if _bk_stays(hands[p], trump):
                stayers.append(p)
            else:
                folded |= hands[p]
                hands[p] = 0
        if not stayers:
            stats[1] += 1
            ante_due = True
            continue
        if len(stayers) == 1:
            if _bk_rakes(hands[stayers[0]], trump):
                take = pot if units <= 1 else pot // 2
                pot -= take
                stats[2] += 1
                stats[11] += take
                units, ante_due = (1, False) if pot > 0 else (0, True)
            else:
                stats[3] += 1
                ante_due = True
            continue
        for p in stayers:
            weak = sorted(
                (c for c in _bits(hands[p]) if c // 13 != trump and c % 13 < 12), key=lambda c: (c % 13, c)
            )
            disc = sum(1 << c for c in weak[:3])
            k = len(weak[:3])
            hands[p] &= ~disc
            while k > 0:
                if pos >= len(stock):
                    if folded:
                        stock, folded = bytearray(_bits(folded)), 0
                    else:
                        stock, discards = bytearray(_bits(discards)), 0
                    rng.shuffle(stock)
                    pos = 0
                    stats[10] += 1
                hands[p] |= 1 << stock[pos]
                pos += 1
                k -= 1
            discards |= disc
        won = [0] * players
        _playout(rules[trump], hands, stayers, 0, won)
        stats[4] += 1
        stats[9] += len(stayers)
        winners = [p for p in stayers if won[p] >= 2]
        nburn = len(stayers) - len(winners)
        paid = 0
        if len(winners) == 1:
            paid = pot
        elif len(winners) == 2:
            paid = (pot // 2) * 2 + (1 if pot % 2 and won[winners[0]] != won[winners[1]] else 0)
        stats[{0: 7, 1: 5, 2: 6}[len(winners)]] += 1
        match = pot_limit if pot_limit and pot > pot_limit else pot
        stats[11] += paid
        stats[8] += nburn
        if match > 1 << 58:
            raise_for(-12)
        stats[12] += match * nburn
        carry_units = 0 if winners else units
        pot = pot - paid + match * nburn
        if stats[11] > 1 << 62 or stats[12] > 1 << 62:
            raise_for(-12)
        units = carry_units + nburn
        ante_due = nburn == 0
        if pot == 0:
            units = 0
    stats[13] = pot
    return stats
