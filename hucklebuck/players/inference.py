"""Inference: how likely each sampled deal makes what the other seats did.

The Monte Carlo player deals the unseen cards at random, consistently with
what its seat has seen (the cards, the voids).  What the other seats *chose*
says more: a Deer Park player who ordered up is likely to hold trumps, a
Hucklebuck player who stayed and exchanged one card kept four good ones, a
Buck 'Em player who folded holds little.  :func:`sample_weights` gives each
sampled deal the likelihood of those choices under a model of the others'
play: the heuristic players' own rules (:mod:`hucklebuck.players.heuristics`),
softened to a logistic curve around each rule's threshold so that a near miss
is likely and a far one unlikely, never impossible (:data:`FLOOR`).  The
player then weighs each deal's outcome by its weight (importance sampling).

The hand a seat decided with is rebuilt from the sample: the cards it holds
in the sample plus those it has played this hand.  A seat's choices before it
exchanged or drew cards are read only while that hand is still the one it
holds (a Hucklebuck auction before the exchange, a Buck 'Em stay before the
draw); after the exchange, what it kept (five minus the cards it exchanged)
is read from the cards it holds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any

from ..cards import Card, CardSet, Rank, Suit
from ..packs import GameKind
from . import likelihood
from .heuristics import EXCHANGE_GAIN, _tables, estimate_tricks, plays_for_fifty

__all__ = ["FLOOR", "sample_weights"]

#: The least likelihood any single choice gets (a model of others is never certain).
FLOOR = 0.02
_Test = Callable[[int], float]


def _logistic(x: float, width: float) -> float:
    """The chance of a choice whose rule asks ``x > 0``, softened over ``width``."""
    p = 1.0 / (1.0 + math.exp(-x / width))
    return FLOOR + (1.0 - 2 * FLOOR) * p


@lru_cache(maxsize=8)
def _dp_values(core_trump: tuple[str, int]) -> tuple[float, ...]:
    """Deer Park trick values of every card for a trump (as :func:`euchre_strength` counts them)."""
    suits, ranks = _tables(Suit(core_trump[1]))
    trump_value = {14: 1.0, 13: 0.85, 12: 0.75, 11: 0.55, 10: 0.45}
    out = []
    for i in range(52):
        if suits[i] == core_trump[1]:
            out.append(trump_value.get(ranks[i], 0.175))
        elif i % 13 == 12:  # an ace (card numbers run 2..A within a suit)
            out.append(0.5)
        else:
            out.append(0.0)
    return tuple(out)


def _dp_strength(mask: int, trump: int) -> float:
    from .._core import get_core

    values = _dp_values((get_core().name, trump))
    total = 0.0
    m = mask
    while m:
        low = m & -m
        total += values[low.bit_length() - 1]
        m ^= low
    return total


@lru_cache(maxsize=1 << 16)
def _hb_estimate(mask: int, trump: int) -> float:
    return estimate_tricks(CardSet.from_mask(mask), Suit(trump))


def _hb_best(mask: int) -> float:
    return max(_hb_estimate(mask, t) for t in range(4)) + EXCHANGE_GAIN


def _keepers(mask: int, trump: int) -> int:
    """Cards a heuristic keeps (trumps, aces; in Hucklebuck also kings with a second card of the suit)."""
    hand = CardSet.from_mask(mask)
    return sum(
        1
        for c in hand
        if c.suit == trump or c.rank == Rank.ACE or (c.rank == Rank.KING and len(hand.of_suit(c.suit)) >= 2)
    )


def _played(obs: Any, n: int) -> list[int]:
    """The cards each seat has played this hand (from the hand's history)."""
    masks = [0] * n
    for entry in obs.history:
        parts = entry.split()
        if len(parts) == 3 and parts[1] == "play":
            masks[int(parts[0])] |= Card.parse(parts[2]).mask
    return masks


def _measured(key: str, label: str, choice: str, arg: int, extra: int, mask: int) -> float:
    """The measured likelihood of a choice (see :mod:`hucklebuck.players.likelihood`)."""
    return likelihood.likelihood(key, likelihood.bucket(likelihood.feature(choice, mask, arg, extra)), label)


def _deerpark_tests(obs: Any, n: int) -> list[tuple[int, _Test]]:
    turned = obs.turned
    ts = int(turned.suit)
    excluded = ts if obs.options.round2_excludes_turned_suit else -1
    tests: list[tuple[int, _Test]] = []
    ordering = True
    count = 0
    for entry in obs.history:
        parts = entry.split()
        if len(parts) < 2 or parts[1] not in ("pass", "order", "call"):
            continue
        s = int(parts[0])
        count += 1
        first = count == 1
        if count > n:
            ordering = False
        if s == obs.seat or s in obs.locked:  # a locked seat's pass is forced
            continue
        high = plays_for_fifty(obs.scores, s)
        dealer = s == obs.dealer
        if ordering:
            key = likelihood.context_key("dp-order", n, likelihood.dp_order_context(high, dealer, first))
            label = "order" if parts[1] == "order" else "pass"
            extra = turned.mask if dealer else 0
            tests.append((s, partial(_measured, key, label, "dp-order", ts, extra)))
        elif not (dealer and parts[1] == "call"):  # the dealer may be stuck with the call
            key = likelihood.context_key("dp-call", n, likelihood.dp_call_context(high, dealer))
            label = "call" if parts[1] == "call" else "pass"
            tests.append((s, partial(_measured, key, label, "dp-call", excluded, 1 if high else 0)))
    return tests


def _order_test(ts: int, extra: int, high: bool, ordered: bool) -> _Test:
    def test(mask: int) -> float:
        st = _dp_strength(mask | extra, ts)
        p = _logistic(1.6 - st, 0.175) if high else _logistic(st - 2.6, 0.175)
        return p if ordered else 1.0 - p

    return test


def _call_test(t: int, high: bool) -> _Test:
    def test(mask: int) -> float:
        st = _dp_strength(mask, t)
        return _logistic(1.6 - st, 0.175) if high else _logistic(st - 2.6, 0.175)

    return test


def _pass_test(excluded: int, high: bool) -> _Test:
    def test(mask: int) -> float:
        sts = [_dp_strength(mask, t) for t in range(4) if t != excluded]
        return 1.0 - (_logistic(1.6 - min(sts), 0.175) if high else _logistic(max(sts) - 2.6, 0.175))

    return test


def _hb_pass(mask: int) -> float:
    return 1.0 - _logistic(_hb_best(mask) - 2.5, 0.2)


def _hb_bid(amount: int, mask: int) -> float:
    return _logistic(_hb_best(mask) - (amount + 0.4), 0.2)


def _kept(trump: int, kept: int, mask: int) -> float:
    """A seat that exchanged or drew all but ``kept`` cards holds about ``kept`` good ones."""
    return _logistic(_keepers(mask, trump) - kept + 0.5, 0.25)


def _holds(trump: int, kept: int, mask: int) -> float:
    """A seat that will exchange all but ``kept`` cards holds about ``kept`` good ones now."""
    k = _keepers(mask, trump)
    return _logistic(k - kept + 0.5, 0.25) * _logistic(kept - k + 0.5, 0.25)


def _bk_stay(trump: int, mask: int) -> float:
    return _logistic(_bk_goodness(mask, trump), 0.25)


def _hucklebuck_tests(obs: Any) -> list[tuple[int, _Test]]:
    tests: list[tuple[int, _Test]] = []
    n = len(obs.scores)
    exchanged = {int(e.split()[0]) for e in obs.history if e.split()[1:2] == ["discard"]}
    trump = int(obs.trump) if obs.trump is not None else -1
    reentry = bool(obs.options.auction_reentry)
    five_rule = obs.options.all_pass.value == "dealer_scores_5"
    high: int | None = None
    for entry in obs.history:
        parts = entry.split()
        if len(parts) < 2:
            continue
        s = int(parts[0])
        if parts[1] in ("pass", "bid"):
            need = 2 if high is None else high + 1
            five = five_rule and s == obs.dealer and high is None
            if parts[1] == "bid":
                high = int(parts[2])
            # the hand it bid with is the one it holds until it exchanges
            if s != obs.seat and s not in exchanged:
                ctx = likelihood.hb_auction_context(need, five, reentry)
                key = likelihood.context_key("hb-auction", n, ctx)
                tests.append((s, partial(_measured, key, parts[1], "hb-auction", 0, 0)))
            continue
        if s == obs.seat:
            continue
        if parts[1] == "stay" and trump >= 0:
            kept = 5 - int(parts[2])
            tests.append((s, partial(_kept, trump, kept) if s in exchanged else partial(_holds, trump, kept)))
    return tests


def _buckem_tests(obs: Any) -> list[tuple[int, _Test]]:
    tests: list[tuple[int, _Test]] = []
    trump = int(obs.trump)
    drew = {int(e.split()[0]): e for e in obs.history if e.split()[1:2] == ["draw"]}
    for s, d in obs.decisions:
        if s == obs.seat or d == "fold" or not d.startswith("stay"):
            continue
        if s not in drew:
            tests.append((s, partial(_bk_stay, trump)))
        else:
            words = drew[s].split()
            k = int(words[2]) if len(words) >= 4 and words[3].startswith("card") else len(words) - 2
            tests.append((s, partial(_kept, trump, 5 - k)))
    return tests


def _bk_goodness(mask: int, trump: int) -> float:
    """Above 0 when the Buck 'Em heuristic stays: two trumps, or a high trump with an ace."""
    hand = CardSet.from_mask(mask)
    trumps = [c for c in hand if c.suit == trump]
    high = any(c.rank >= Rank.QUEEN for c in trumps)
    aces = sum(1 for c in hand if c.rank == Rank.ACE and c.suit != trump)
    return len(trumps) - 1.5 + (1.0 if high and aces else 0.0)


def sample_weights(obs: Any, game: GameKind, hands: Sequence[Sequence[int]]) -> list[float] | None:
    """The weight of each sampled deal (8 hand masks each), or ``None`` when nothing is to be read."""
    n = len(obs.bankrolls) if game is GameKind.BUCKEM else len(obs.scores)
    if game is GameKind.DEERPARK:
        tests = _deerpark_tests(obs, n)
    elif game is GameKind.HUCKLEBUCK:
        tests = _hucklebuck_tests(obs)
    else:
        tests = _buckem_tests(obs)
    if not tests:
        return None
    played = _played(obs, n)
    weights = []
    for deal in hands:
        w = 1.0
        for s, test in tests:
            w *= test(deal[s] | played[s])
        weights.append(w)
    total = sum(weights)
    if total <= 0.0:
        return None
    return weights
