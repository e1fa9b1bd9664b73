"""Inference: how likely each sampled deal makes what the other seats did.

The Monte Carlo player deals the unseen cards at random, consistently with
what its seat has seen (the cards, the voids).  What the other seats *chose*
says more: a Hucklebuck player who bid 4 holds a strong hand, a stayer who
exchanged one card kept four good ones, a Buck 'Em player who folded holds
little.  :func:`sample_weights` gives each sampled deal the likelihood of
those choices under a model of the others' play, and the player plays the
deals it draws in proportion to their weights (see ``MonteCarloPlayer``'s
``resample``).

* **Measured choices** (:mod:`hucklebuck.players.likelihood`): the Deer Park
  orders, passes and calls, and the Hucklebuck bids and passes, by how often
  the default player itself makes that choice with a hand like the sampled
  one (counted in self-play).  The heuristics' own thresholds were the first
  model and pointed the wrong way: the default player orders up and bids on
  far weaker hands than they do.
* **The suit named as trump** (measured the same way): a Hucklebuck bidder,
  until it exchanges, and a Deer Park caller (the stuck dealer too) hold a
  hand whose best suit (playing for 50: whose weakest) is the one named, with
  the measured chance that the default player names that suit; any other
  suit it may name shares the rest.
* **Cards played** (:func:`play_reads`; Hucklebuck, Deer Park Euchre): each
  card another seat played this hand, by whether the search's own playout
  policy would have played it from the hand the seat held then, with the
  measured chance that the default player plays the policy's card (one call
  into the core for every card on every deal).
* **Rules of thumb**, softened to a logistic curve around the heuristic's
  threshold so that a near miss is likely and a far one unlikely, never
  impossible (:data:`FLOOR`): the number of cards each Hucklebuck stayer
  (the bidder too) exchanges (it keeps about five minus that many trumps,
  aces and guarded kings; before its exchange, about exactly that many), the
  Buck 'Em stays (two trumps, or a high trump and an ace) and draw counts.

The hand a seat decided with is rebuilt from the sample: the cards it holds
in the sample plus those it has played this hand.  A seat's choices before it
exchanged or drew cards are read only while that hand is still the one it
holds (a Hucklebuck bid until the bidder's exchange, a Buck 'Em stay before
the draw); after the exchange, what it kept (five minus the cards it
exchanged) is read from the cards it holds.  How much this sharpens the
sampled hands is measured by ``python -m hucklebuck.players.accuracy``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from .._core import _py_search as pys
from .._core._py_reads import Read
from ..cards import Card, CardSet, Rank, Suit
from ..games.base import Phase
from ..packs import GameKind
from . import _search, likelihood
from .heuristics import EXCHANGE_GAIN, _tables, plays_for_fifty

__all__ = ["FLOOR", "Readings", "play_reads", "readings", "sample_weights", "weigh"]

#: The least likelihood any single choice gets (a model of others is never certain).
FLOOR = 0.02
_ALL_SUITS = (0, 1, 2, 3)
_Test = Callable[[int], float]


def _logistic(x: float, width: float) -> float:
    """The chance of a choice whose rule asks ``x > 0``, softened over ``width``."""
    p = 1.0 / (1.0 + math.exp(-x / width))
    return FLOOR + (1.0 - 2 * FLOOR) * p


@lru_cache(maxsize=8)
def _dp_values(core_trump: tuple[str, int]) -> tuple[float, ...]:
    """Deer Park trick values of every card for a trump (as :func:`euchre_strength` counts
    them, but a trump below the queen counts half as much: the feature the likelihoods are
    measured on)."""
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


def _suit_tables() -> tuple[list[float], list[float], list[int]]:
    """Per 13-bit pattern of one suit's cards (bit 0 the two, bit 12 the ace): its trick
    value as trumps and as a side suit (as :func:`estimate_tricks` counts them), and the
    cards of a side suit a heuristic keeps (its ace, a king with a second card)."""
    as_trump, as_side, keep_side = [], [], []
    for p in range(1 << 13):
        n = p.bit_count()
        est = 0.0
        i = 0
        for r in range(12, -1, -1):
            if not p >> r & 1:
                continue
            if r == 12:
                est += 1.0
            elif r == 11:
                est += 0.85 if n >= 2 else 0.45
            elif r == 10:
                est += 0.6 if n >= 3 else 0.3
            elif i >= 2:
                est += 0.45
            else:
                est += 0.15
            i += 1
        as_trump.append(est)
        ace, king = p >> 12 & 1, p >> 11 & 1 and n >= 2
        as_side.append((0.75 if ace else 0.0) + (0.3 if king else 0.0))
        keep_side.append(ace + (1 if king else 0))
    return as_trump, as_side, keep_side


_AS_TRUMP, _AS_SIDE, _KEEP_SIDE = _suit_tables()
#: What naming a suit as trump adds to its trick value, per 13-bit pattern.
_GAIN = [t - sd for t, sd in zip(_AS_TRUMP, _AS_SIDE, strict=True)]


def _hb_estimate(mask: int, trump: int) -> float:
    """:func:`estimate_tricks` of a hand given as a card mask (table look-ups)."""
    est = 0.0
    for s in range(4):
        p = mask >> (13 * s) & 0x1FFF
        est += _AS_TRUMP[p] if s == trump else _AS_SIDE[p]
    return est


def _hb_best(mask: int) -> float:
    """The best suit's trick estimate plus what the exchange gains."""
    p0, p1, p2, p3 = mask & 0x1FFF, mask >> 13 & 0x1FFF, mask >> 26 & 0x1FFF, mask >> 39 & 0x1FFF
    side = _AS_SIDE[p0] + _AS_SIDE[p1] + _AS_SIDE[p2] + _AS_SIDE[p3]
    return side + max(_GAIN[p0], _GAIN[p1], _GAIN[p2], _GAIN[p3]) + EXCHANGE_GAIN


def _keepers(mask: int, trump: int) -> int:
    """Cards a heuristic keeps (trumps, aces; in Hucklebuck also kings with a second card of the suit)."""
    total = 0
    for s in range(4):
        p = mask >> (13 * s) & 0x1FFF
        total += p.bit_count() if s == trump else _KEEP_SIDE[p]
    return total


def _played(obs: Any, n: int) -> list[int]:
    """The cards each seat has played this hand (from the hand's history)."""
    masks = [0] * n
    for entry in obs.history:
        parts = entry.split()
        if len(parts) == 3 and parts[1] == "play":
            masks[int(parts[0])] |= Card.parse(parts[2]).mask
    return masks


def _measured(key: str, label: str, choice: str, arg: int, extra: int) -> _Test:
    """The measured likelihood of a choice as a test of a hand's mask (see
    :mod:`hucklebuck.players.likelihood`): the chance in each bucket is looked up once."""
    table = [likelihood.likelihood(key, b, label) for b in range(likelihood.TOP + 1)]
    steps, top = likelihood.STEPS, likelihood.TOP
    if choice == "hb-auction":
        feature: Callable[[int], float] = _hb_best
    else:
        feature = partial(likelihood.feature, choice, arg=arg, extra=extra)

    def test(mask: int) -> float:
        return table[max(0, min(int(feature(mask) * steps + 1e-9), top))]

    return test


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
            tests.append((s, _measured(key, label, "dp-order", ts, extra)))
        else:
            # the dealer may be stuck with the call: then only its suit is a choice
            stuck = dealer and parts[1] == "call"
            if not stuck:
                key = likelihood.context_key("dp-call", n, likelihood.dp_call_context(high, dealer))
                label = "call" if parts[1] == "call" else "pass"
                tests.append((s, _measured(key, label, "dp-call", excluded, 1 if high else 0)))
            match = likelihood.suit_match(GameKind.DEERPARK, high, stuck)
            if parts[1] == "call" and match is not None:
                allowed = [t for t in range(4) if t != excluded]
                named = int(Suit.parse(parts[2]))
                tests.append((s, _named(_dp_strength, named, allowed, high, match)))
    return tests


def _named(
    values: Callable[[int, int], float], named: int, allowed: Sequence[int], low: bool, match: float
) -> _Test:
    """A seat that named ``named`` as trump holds a hand whose best suit (by ``values``;
    ``low``: whose weakest) is that one, with the measured chance ``match``; any other
    allowed suit shares the rest."""

    def test(mask: int) -> float:
        per = [values(mask, t) if t in allowed else 0.0 for t in range(4)]
        best = likelihood.best_suits(per, allowed, low)
        if named in best:
            return match / len(best)
        return (1.0 - match) / (len(allowed) - len(best))

    return test


def _kept(trump: int, kept: int) -> _Test:
    """A seat that exchanged or drew all but ``kept`` cards holds about ``kept`` good ones."""
    table = [_logistic(k - kept + 0.5, 0.25) for k in range(53)]
    return lambda mask: table[_keepers(mask, trump)]


def _holds(trump: int, kept: int) -> _Test:
    """A seat that will exchange all but ``kept`` cards holds about ``kept`` good ones now."""
    table = [_logistic(k - kept + 0.5, 0.25) * _logistic(kept - k + 0.5, 0.25) for k in range(53)]
    return lambda mask: table[_keepers(mask, trump)]


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
                tests.append((s, _measured(key, parts[1], "hb-auction", 0, 0)))
            continue
        if s == obs.seat:
            continue
        if parts[1] == "trump" and s not in exchanged:  # named with the hand it bid with
            match = likelihood.suit_match(GameKind.HUCKLEBUCK, False, False)
            if match is not None:
                tests.append((s, _named(_hb_estimate, int(Suit.parse(parts[2])), _ALL_SUITS, False, match)))
        if parts[1] == "stay" and trump >= 0:
            kept = 5 - int(parts[2])
            tests.append((s, _kept(trump, kept) if s in exchanged else _holds(trump, kept)))
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
            tests.append((s, _kept(trump, 5 - k)))
    return tests


def _bk_goodness(mask: int, trump: int) -> float:
    """Above 0 when the Buck 'Em heuristic stays: two trumps, or a high trump with an ace."""
    hand = CardSet.from_mask(mask)
    trumps = [c for c in hand if c.suit == trump]
    high = any(c.rank >= Rank.QUEEN for c in trumps)
    aces = sum(1 for c in hand if c.rank == Rank.ACE and c.suit != trump)
    return len(trumps) - 1.5 + (1.0 if high and aces else 0.0)


def play_reads(obs: Any, game: GameKind, pos: pys.SearchPosition) -> list[Read]:
    """The cards the other seats played this hand, each with the measured chance that such
    a seat plays the card the search's playout policy would (Hucklebuck, Deer Park Euchre;
    none in Buck 'Em, where nothing is measured)."""
    if game is GameKind.BUCKEM or obs.phase is not Phase.PLAY:
        return []
    ducking = pos.flags >> 8 & 0xFF if game is GameKind.DEERPARK else 0
    plays: list[tuple[int, int, tuple[int, ...]]] = []
    for t in obs.tricks:
        cards = [c.index for c in t.cards]
        plays += [(s, cards[i], tuple(cards[:i])) for i, s in enumerate(t.seats)]
    current = [c.index for c in obs.current_trick]
    n = pos.nseats
    order = [s for s in range(n) if pos.state[s] & 1]
    if current and pos.leader in order:
        i = order.index(pos.leader)
        seats = (order[i:] + order[:i])[: len(current)]
        plays += [(s, current[k], tuple(current[:k])) for k, s in enumerate(seats)]
    out: list[Read] = []
    later = [0] * 8
    for s, card, before in reversed(plays):
        if s != obs.seat:
            match = likelihood.play_match(game, not before, bool(ducking >> s & 1))
            if match is not None:
                out.append(Read(s, card, before, later[s], match))
        later[s] |= 1 << card
    return out[::-1]


@dataclass(frozen=True)
class Readings:
    """What inference reads in one observation: the tests of each seat's choices, the cards
    played (see :func:`play_reads`) and what each seat has played this hand."""

    tests: list[tuple[int, _Test]]
    reads: list[Read]
    played: list[int]
    pos: pys.SearchPosition | None


def readings(obs: Any, game: GameKind, pos: pys.SearchPosition | None = None) -> Readings | None:
    """What there is to read in ``obs`` (``None``: nothing, so no deal needs weighing).

    With the search position ``pos`` the cards the other seats played are read too.
    """
    n = len(obs.bankrolls) if game is GameKind.BUCKEM else len(obs.scores)
    if game is GameKind.DEERPARK:
        tests = _deerpark_tests(obs, n)
    elif game is GameKind.HUCKLEBUCK:
        tests = _hucklebuck_tests(obs)
    else:
        tests = _buckem_tests(obs)
    reads = play_reads(obs, game, pos) if pos is not None else []
    if not tests and not reads:
        return None
    return Readings(tests, reads, _played(obs, n), pos)


def weigh(found: Readings, hands: Sequence[Sequence[int]]) -> list[float] | None:
    """The weight of each sampled deal (8 hand masks each) by what :func:`readings` found
    (``None`` when every weight is 0)."""
    played = found.played
    if found.reads and found.pos is not None:
        weights = _search.read_weights(found.pos, hands, found.reads)
    else:
        weights = [1.0] * len(hands)
    for k, deal in enumerate(hands):
        w = weights[k]
        for s, test in found.tests:
            w *= test(deal[s] | played[s])
        weights[k] = w
    if sum(weights) <= 0.0:
        return None
    return weights


def sample_weights(
    obs: Any, game: GameKind, hands: Sequence[Sequence[int]], pos: pys.SearchPosition | None = None
) -> list[float] | None:
    """The weight of each sampled deal (8 hand masks each), or ``None`` when nothing is to be read.

    With the search position ``pos`` the cards the other seats played are read too
    (:func:`play_reads`).
    """
    found = readings(obs, game, pos)
    return None if found is None else weigh(found, hands)
