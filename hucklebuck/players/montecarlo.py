"""The Monte Carlo player: one search in the core per decision, of every game.

For each decision it deals the cards its seat has not seen at random,
consistently with everything the seat has seen (see
:mod:`hucklebuck.players._search`), plays every legal action out to the end of
the hand on each of those deals, and takes the action with the best mean
**game value** (see :func:`hand_utility`): its chance of winning the game
(Hucklebuck, Deer Park Euchre) or its expected chips (Buck 'Em).  The deals are the same for every
candidate, so the comparison is between actions, not between lucky deals.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .._core import _py_search as pys
from ..actions import Action, Bid
from ..errors import OptionsError
from ..games.base import Phase
from ..games.hucklebuck import OUT_AT
from ..packs import GameKind
from . import _search, inference, value
from .base import check_observation, check_seed

__all__ = ["MonteCarloPlayer", "hand_utility"]

METHODS = ("playout", "solver")
#: Default node budget of one open-cards solve (``method="solver"``); past it that deal is played out.
NODE_LIMIT = 200_000
#: Deals inference draws and weighs for each one the search plays (see ``MonteCarloPlayer``).
RESAMPLE = 4
MOON_BIAS = 0.015
"""What the search still under-rates the other choices of a Hucklebuck auction by, against a moon
bid, in chance of winning: after a pass or a lower bid the seat's own exchange and card play are
taken by the core's fixed policies, which serve those choices worse than the moon (which the
cards mostly settle).  Measured at 222 moon bids of ``mc-blind`` self-play with each choice
played on from the true deal: the search put the best other choice 0.014 below play (the
moon itself 0.014 above: a moon is bid where the search's estimate came out high).  The moon's
value is lowered by this much, so the moon is bid where the search rates it clearly better (see
the players page, "Moon bids": without it the moon bids neither raise nor lower the chance of
winning)."""
#: Decisions the player takes without inference: in Hucklebuck its own naming of trump and its
#: own discards, which turn on its own cards.  There what the others chose says little, and
#: weighing the deals (which leaves fewer different deals to play) made these choices worse
#: when they were valued on the true deal (``python -m hucklebuck.players.accuracy``).
UNREAD: frozenset[tuple[GameKind, Phase]] = frozenset(
    {(GameKind.HUCKLEBUCK, Phase.TRUMP), (GameKind.HUCKLEBUCK, Phase.EXCHANGE)}
)


def _hb_deltas(rec: bytes, obs: Any, n: int) -> tuple[list[int], bool]:
    """Every seat's points for the hand, and whether the bidder's moon won the game outright."""
    tricks = [b - 256 if b > 127 else b for b in rec[:8]]
    status, bidder, bid = rec[10], rec[8], rec[9]
    delta = [0] * n
    opts = obs.options
    if status == 1:
        if opts.all_pass.value == "dealer_scores_5":
            delta[obs.dealer] = 5
        return delta, False
    if status == 2:
        delta[bidder] = 5
        return delta, bid == 5 and opts.lone_moon_bidder.value == "wins_game"
    for s in range(n):
        t = tricks[s]
        if t < 0:
            continue
        if s != bidder:
            delta[s] = t if t >= 1 else -5
            continue
        prior = obs.scores[s]
        stacks = opts.bidder_zero_trick_penalty_stacks and t == 0
        if bid == 5:
            if t == 5:
                # from a positive score the moon wins the game outright (S0, S2, DEF #12)
                if prior > 0 or (prior == 0 and opts.moon_at_zero.value == "win"):
                    return delta, True
                delta[s] = 5 if (prior == 0 and opts.moon_at_zero.value == "score_normally") else -prior
            else:
                delta[s] = -20 if stacks else -15
        elif t >= bid:
            # from the hole, any made bid may reset to 0 (in_the_hole_reset_applies_to, DEF #13)
            any_bid = opts.in_the_hole_reset_applies_to.value == "any_bid"
            delta[s] = -prior if prior < 0 and any_bid else t
        else:
            delta[s] = -10 if stacks else -5
    return delta, False


def _share(me: int, winners: list[int]) -> float:
    return 1.0 / len(winners) if me in winners else 0.0


def _hucklebuck(rec: bytes, obs: Any) -> float:
    n = len(obs.scores)
    me = obs.seat
    delta, moon_wins = _hb_deltas(rec, obs, n)
    if moon_wins:
        return 1.0 if rec[8] == me else 0.0
    target = obs.options.target
    new = [obs.scores[s] + delta[s] for s in range(n)]
    out = [s for s in range(n) if s in obs.out or new[s] <= OUT_AT]  # out of the game (S0, S2, DEF #16)
    there = [s for s in range(n) if new[s] >= target and s not in out]
    if there:
        top = max(new[s] for s in there)
        best = [s for s in there if new[s] == top]
        if len(best) > 1 and rec[8] in best:
            best = [rec[8]]
        return _share(me, best)
    return float(value.win_probabilities(GameKind.HUCKLEBUCK, new, out=out, target=target)[me])


def _deerpark(rec: bytes, obs: Any) -> float:
    n = len(obs.scores)
    me = obs.seat
    maker, req = rec[8], rec[9]
    fail_counts = obs.options.failed_contract_tricks_count
    new = list(obs.scores)
    for s in range(n):
        t = rec[s]
        need = req if s == maker else 1
        if t >= need:
            new[s] -= t
        else:
            new[s] += 5 - t if (s == maker and fail_counts) else 5
    reached = [s for s in range(n) if new[s] <= 0 or new[s] >= 50]
    if reached:
        dist = {s: (-new[s] if new[s] <= 0 else new[s] - 50) for s in reached}
        far = max(dist.values())
        best = [s for s in reached if dist[s] == far]
        if len(best) > 1 and maker in best:
            best = [maker]
        return _share(me, best)
    return float(value.win_probabilities(GameKind.DEERPARK, new)[me])


def _buckem(rec: bytes, obs: Any) -> float:
    me = obs.seat
    pot = obs.pot
    n = len(obs.bankrolls)
    status = rec[10]
    if status == 1:
        return value.buckem_value(0.0, pot, n)
    if status == 2:
        raked = (pot if obs.pot_units <= 1 else pot // 2) if rec[11] else 0
        return value.buckem_value(float(raked if rec[8] == me else 0), pot - raked, n)
    tricks = [b - 256 if b > 127 else b for b in rec[:8]]
    limit = obs.options.pot_limit
    burn = pot if limit is None else min(pot, limit)
    winners = [s for s in range(8) if tricks[s] >= 2]
    burned = sum(1 for s in range(8) if 0 <= tricks[s] < 2)
    t = tricks[me]
    chips = 0.0
    if t >= 2:
        if len(winners) == 1:
            chips = float(pot)
        else:
            other = next(s for s in winners if s != me)
            if obs.options.split.value == "proportional":
                chips = float(pot * t // (t + tricks[other]))
            else:
                chips = float(pot) / 2
    elif t >= 0:
        chips = -float(burn)
    left = 0 if winners else pot  # nobody took two tricks: the pot stays
    return value.buckem_value(chips, left + burned * burn, n)


def hand_utility(game: GameKind, record: bytes, obs: Any) -> float:
    """What one simulated end of the hand is worth to the deciding seat.

    * Hucklebuck and Deer Park Euchre: its chance of winning the game from
      the standing the hand leads to (1 or 0, or a share of a tie, when the
      game ends there), by the game-value model
      (:func:`hucklebuck.players.value.win_probabilities`).
    * Buck 'Em: its expected session chips: the chips won or lost in this
      round (the pot, half a double pot raked, a share of a split pot, the
      burn payment) plus its share of the pot that carries over
      (:func:`hucklebuck.players.value.buckem_value`).
    """
    if game is GameKind.HUCKLEBUCK:
        return _hucklebuck(record, obs)
    if game is GameKind.DEERPARK:
        return _deerpark(record, obs)
    return _buckem(record, obs)


class MonteCarloPlayer:
    """Chooses by Monte Carlo search in the core, for every decision of every game.

    ``samples`` hidden deals are drawn per decision and every legal action is
    played out on each; ``seed`` seeds the player's own random source (one
    64-bit search seed per decision), so the same seed gives the same decisions
    on either core.  ``method`` is how the cards of each simulated hand are
    played:

    * ``"playout"`` (default): by the core's fast playout policy;
    * ``"solver"``: with open cards, every seat taking as many tricks as it
      can for itself (a Deer Park seat playing for 50: as few), solved exactly
      on each deal (a *max^n* search in the core); a deal whose solve would
      try more than ``node_limit`` cards is played out by the policy instead.
      Exact card play on each deal, at 4 to 100 times the median cost of the
      playout method (far more in the worst case).

    The auction, stay and exchange decisions of the other seats are taken by
    the core's fixed policies under both methods.

    With ``inference`` (default) each sampled deal is weighted by how likely
    it makes what the other seats did this hand (bids, passes, stays, drops,
    exchange and draw counts, orders, calls, folds, and in Hucklebuck and
    Deer Park Euchre the cards they played): by how often this player itself
    makes such a choice with such a hand (measured in self-play), or by the
    heuristics' rules where nothing is measured (see
    :mod:`hucklebuck.players.inference`); the deals played are drawn from
    ``resample`` times as many in proportion to those weights.  A Hucklebuck
    player names trump and discards without it (see :data:`UNREAD`).  With ``auction_reentry`` the
    search lets a Hucklebuck seat that passed before the last bid bid again.
    """

    def __init__(
        self,
        *,
        samples: int = 96,
        method: str = "playout",
        seed: int | None = None,
        node_limit: int = NODE_LIMIT,
        inference: bool = True,
        weight_power: float = 1.0,
        resample: int = RESAMPLE,
    ) -> None:
        """See the class docstring.

        ``weight_power`` raises each inference weight to that power (1, the
        default: the likelihood itself; below 1 the weights are flatter, so
        more of the deals count, at the cost of what inference reads).
        ``resample`` is how many deals inference draws and weighs for each
        one played: ``samples`` of the ``samples * resample`` drawn are
        played, drawn in proportion to their weights (1: the ``samples``
        deals are played and weighted, so deals that fit badly count little).

        A bad ``samples``, ``method``, ``node_limit``, ``seed``, ``inference``,
        ``weight_power`` or ``resample`` raises :class:`OptionsError`.
        """
        if not isinstance(inference, bool):
            raise OptionsError(f"inference must be True or False, not {inference!r}")
        if (
            isinstance(weight_power, bool)
            or not isinstance(weight_power, int | float)
            or not 0 < weight_power <= 4
        ):
            raise OptionsError(f"weight_power must be a number above 0 and at most 4, not {weight_power!r}")
        if isinstance(resample, bool) or not isinstance(resample, int) or not 1 <= resample <= 16:
            raise OptionsError(f"resample must be an integer from 1 to 16, not {resample!r}")
        if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 100_000:
            raise OptionsError(f"samples must be an integer from 1 to 100000, not {samples!r}")
        if method not in METHODS:
            raise OptionsError(f"unknown method {method!r} (use one of: {', '.join(METHODS)})")
        if isinstance(node_limit, bool) or not isinstance(node_limit, int) or not 1 <= node_limit <= 1 << 40:
            raise OptionsError(f"node_limit must be an integer from 1 to 2**40, not {node_limit!r}")
        self.samples = samples
        self.inference = inference
        self.weight_power = float(weight_power)
        self.resample = resample
        self.method = method
        self.node_limit = node_limit
        self.rng = random.Random(check_seed(seed))

    def _picks(
        self, observation: Any, game: GameKind, pos: pys.SearchPosition, seed: int
    ) -> tuple[list[int] | None, list[float] | None]:
        """Which of the drawn deals the search plays, and what each counts (``None``: the first
        ``samples`` deals, each once).

        With inference, ``samples * resample`` deals are drawn and weighted by what the
        other seats chose; ``samples`` of them are then drawn in proportion to the weights
        (systematic resampling), so every deal played counts and a deal drawn twice is
        played once and counted twice.  With ``resample=1`` the deals are weighted
        themselves (importance sampling).
        """
        if not self.inference or (game, observation.phase) in UNREAD:
            return None, None
        found = inference.readings(observation, game, pos)
        if found is None:  # nothing to read: no deal needs drawing or weighing
            return None, None
        drawn = self.samples * self.resample
        hands = _search.sample_hands(pos, seed, drawn)
        weights = inference.weigh(found, hands)
        if weights is None:
            return None, None
        if self.weight_power != 1.0:
            weights = [w**self.weight_power for w in weights]
        total = sum(weights)
        if self.resample == 1:
            return list(range(drawn)), [w * self.samples / total for w in weights]
        # systematic resampling: samples evenly spaced points over the cumulative weights
        step = total / self.samples
        point = random.Random(seed).random() * step
        tally: dict[int, int] = {}
        acc = 0.0
        got = 0
        for k, w in enumerate(weights):
            acc += w
            while point < acc and got < self.samples:
                tally[k] = tally.get(k, 0) + 1
                point += step
                got += 1
        if got < self.samples:  # rounding at the top end: the heaviest deal takes the rest
            top = max(range(drawn), key=lambda k: weights[k])
            tally[top] = tally.get(top, 0) + self.samples - got
        picks = sorted(tally)
        return picks, [float(tally[k]) for k in picks]

    @property
    def _method_id(self) -> int:
        return pys.SOLVER if self.method == "solver" else pys.PLAYOUT

    def choose(self, observation: Any) -> Action:
        """The legal action with the best expected game value (chance of winning, or chips)."""
        check_observation(observation)
        legal = observation.legal_actions
        if len(legal) == 1:
            only: Action = legal[0]
            return only
        best: Action = self.analyse(observation)[0][0]
        return best

    def analyse(self, observation: Any) -> list[tuple[Action, float]]:
        """Every legal action with its expected game value, best first (ties keep the legal order).

        The value is the seat's chance of winning the game, 0 to 1 (Hucklebuck,
        Deer Park Euchre), or its expected chips from this round on (Buck 'Em).
        A Hucklebuck moon bid's value is lowered by :data:`MOON_BIAS`.
        """
        game = check_observation(observation)
        try:
            legal, cands = _search.candidates(observation)
            pos = _search.build_position(observation)
        except (AssertionError, AttributeError, TypeError, KeyError, IndexError) as exc:
            # only an observation altered by hand gets here: the game's own are consistent
            detail = f" ({exc})" if str(exc) else ""
            raise OptionsError(f"this observation is not consistent with its game{detail}") from None
        seed = self.rng.getrandbits(64)
        picks, counts = self._picks(observation, game, pos, seed)
        samples = self.samples if picks is None else len(picks)
        values: list[float] = []
        step = pys.MAX_CANDS
        size = samples * pys.REC
        cache: dict[bytes, float] = {}
        drawn = self.samples * self.resample
        for start in range(0, len(cands), step):
            part = cands[start : start + step]
            data = _search.run_search(
                pos, part, seed, samples, self._method_id, self.node_limit, picks, drawn
            )
            for ci in range(len(part)):
                block = data[ci * size : (ci + 1) * size]
                total = 0.0
                if counts is None:
                    tally = Counter(block[k : k + pys.REC] for k in range(0, size, pys.REC))
                    items = tally.items()
                    for rec, cnt in items:
                        v = cache.get(rec)
                        if v is None:
                            v = cache[rec] = hand_utility(game, rec, observation)
                        total += v * cnt
                else:
                    for k in range(samples):
                        rec = block[k * pys.REC : (k + 1) * pys.REC]
                        v = cache.get(rec)
                        if v is None:
                            v = cache[rec] = hand_utility(game, rec, observation)
                        total += v * counts[k]
                values.append(total / self.samples)
        if game is GameKind.HUCKLEBUCK and observation.phase is Phase.AUCTION:
            for i, a in enumerate(legal):
                if isinstance(a, Bid) and a.amount == 5:
                    values[i] = max(0.0, values[i] - MOON_BIAS)
        ranked = sorted(range(len(legal)), key=lambda i: (-values[i], i))
        return [(legal[i], values[i]) for i in ranked]
