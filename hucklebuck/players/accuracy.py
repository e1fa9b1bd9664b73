"""How much inference sharpens the Monte Carlo player's picture of the hidden cards.

Plays whole games with computer players and, at every decision with a choice,
draws the deals the Monte Carlo search would draw for the deciding seat (the
same sampler, :func:`hucklebuck.players._search.sample_hands`) and weighs them
as inference does (:func:`hucklebuck.players.inference.sample_weights`).  The
true hands are then read from the game (never by a player), and each deal
scores the share of the other seats' unseen cards it places in the right
hand.  Reported per phase: that share averaged over the deals with equal
weights (no inference) and with the inference weights, and the effective
sample size of the weights, ``(Σw)² / Σw²`` over the number of deals, and
how often the Monte Carlo player's choice with inference differs from its
choice without it (same seed).  Where they differ, both choices are then
valued on the *true* deal (the search run with every hand known, only the
stock left to chance): the mean gain of the inferred choice over the blind
one, in points of the chance of winning the game (Buck 'Em: chips), with its
95 % interval over the changed choices; and how much better on the true deal
the best action is than the blind choice, on average over all decisions
("perfect information").  That last figure is the search's own valuation of
the cards it would see, not a gain in games: a tournament of the seer
(:mod:`hucklebuck.players.seer`, ``--bots seer,mc-blind``) measures that.

Run it with ``python -m hucklebuck.players.accuracy GAME`` (see ``--help``).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._core import _py_search as pys
from ..games import BuckEmGame, DeerParkGame, HucklebuckGame
from ..games.base import Phase
from ..games.buckem import BuckEmOptions
from ..games.deerpark import DeerParkOptions
from ..games.hucklebuck import HucklebuckOptions
from ..packs import GameKind
from . import _search, inference, make_player
from .montecarlo import MonteCarloPlayer

__all__ = ["PhaseAccuracy", "main", "measure"]

_GAMES: dict[GameKind, Any] = {
    GameKind.HUCKLEBUCK: HucklebuckGame,
    GameKind.DEERPARK: DeerParkGame,
    GameKind.BUCKEM: BuckEmGame,
}

_OPTIONS: dict[GameKind, Any] = {
    GameKind.HUCKLEBUCK: HucklebuckOptions,
    GameKind.DEERPARK: DeerParkOptions,
    GameKind.BUCKEM: BuckEmOptions,
}


@dataclass
class PhaseAccuracy:
    """The sums behind one phase's row (divide by ``positions``)."""

    positions: int = 0
    weighted_positions: int = 0
    blind: float = 0.0
    inferred: float = 0.0
    ess: float = 0.0
    changed: int = 0
    value_gain: float = 0.0
    value_gain_sq: float = 0.0
    perfect_gain: float = 0.0

    def value_row(self) -> tuple[float, float]:
        """The mean true-deal gain of a changed choice, and the half-width of its 95 % interval."""
        k = self.changed
        if k == 0:
            return 0.0, 0.0
        mean = self.value_gain / k
        var = max(self.value_gain_sq / k - mean * mean, 0.0) * k / max(k - 1, 1)
        return mean, 1.96 * (var / k) ** 0.5

    def row(self) -> tuple[int, float, float, float, float]:
        """positions, blind share, inferred share, gain, mean effective sample fraction."""
        n = max(self.positions, 1)
        return (
            self.positions,
            self.blind / n,
            self.inferred / n,
            (self.inferred - self.blind) / n,
            self.ess / n,
        )


def _score(obs: Any, game: Any, hands: Sequence[Sequence[int]], pool: int, n: int) -> list[float]:
    """Each deal's share of the unseen cards of the other seats placed in the right hand."""
    truth = [game.hand(s).mask & pool if s != obs.seat else 0 for s in range(n)]
    total = sum(t.bit_count() for t in truth)
    if total == 0:
        return []
    return [sum((deal[s] & truth[s]).bit_count() for s in range(n)) / total for deal in hands]


def true_values(
    obs: Any, game: Any, actions: Sequence[Any], seed: int, samples: int, method: str = "playout"
) -> list[float]:
    """The value of each of ``actions`` on the true deal: the search with every other hand known
    (read from ``game``, never by a player), only the undealt cards left to chance.

    ``method`` is how the rest of the hand is played, as for :class:`MonteCarloPlayer`:
    ``"playout"`` (the core's playout policy) or ``"solver"`` (solved with open cards).
    """
    from .montecarlo import NODE_LIMIT, hand_utility

    pos = _search.build_position(obs)
    legal, cands = _search.candidates(obs)
    for s in range(pos.nseats):
        hand = game.hand(s).mask
        # (a card the search places in a hand, e.g. the turned card a Deer Park dealer took
        # up, may have been discarded: the true hand replaces it)
        if s != obs.seat and hand.bit_count() == pos.size[s]:
            pos.known[s] = hand
            pos.pool &= ~hand
    chosen = [cands[legal.index(a)] for a in actions]
    if method == "solver":
        data = _search.run_search(pos, chosen, seed, samples, pys.SOLVER, NODE_LIMIT)
    else:
        data = _search.run_search(pos, chosen, seed, samples)
    kind = _search.game_of(obs)
    size = samples * 12
    out = []
    for ci in range(len(chosen)):
        block = data[ci * size : (ci + 1) * size]
        recs = [block[k : k + 12] for k in range(0, size, 12)]
        out.append(sum(hand_utility(kind, r, obs) for r in recs) / samples)
    return out


def measure(
    game: GameKind | str,
    *,
    players: int = 4,
    bots: Sequence[str] = ("mc",),
    games: int = 10,
    samples: int = 96,
    seed: int = 1,
    options: Any = None,
    rounds: int = 10,
) -> dict[str, PhaseAccuracy]:
    """Play ``games`` games with ``bots`` cycled over the seats and measure every decision with a choice."""
    kind = GameKind.coerce(game)
    rng = random.Random(seed)
    picks = random.Random(seed + 1)  # the compared choices' seeds, apart from the games'
    out: dict[str, PhaseAccuracy] = defaultdict(PhaseAccuracy)
    for _ in range(games):
        table = _GAMES[kind](players, options=options, seed=rng.getrandbits(62))
        seats = [make_player(bots[s % len(bots)], kind, seed=rng.getrandbits(62)) for s in range(players)]
        hands_played = 0
        while table.phase is not Phase.GAME_OVER:
            if table.phase is Phase.HAND_OVER:
                hands_played += 1
                if hands_played >= (rounds if kind is GameKind.BUCKEM else 60):
                    break
                table.next_hand()
                continue
            seat = table.to_act
            obs = table.observation(seat)
            if len(obs.legal_actions) > 1:
                pos = _search.build_position(obs)
                deals = _search.sample_hands(pos, rng.getrandbits(64), samples)
                scores = _score(obs, table, deals, pos.pool, players)
                if scores:
                    weights = inference.sample_weights(obs, kind, deals, pos)
                    acc = out[obs.phase.value]
                    acc.positions += 1
                    k = picks.getrandbits(62)
                    with_inference = MonteCarloPlayer(samples=samples, seed=k).choose(obs)
                    blind_choice = MonteCarloPlayer(samples=samples, seed=k, inference=False).choose(obs)
                    scale = 1.0 if kind is GameKind.BUCKEM else 100.0
                    legal = list(obs.legal_actions)
                    truth = dict(zip(legal, true_values(obs, table, legal, k, samples), strict=True))
                    acc.perfect_gain += (max(truth.values()) - truth[blind_choice]) * scale
                    if with_inference != blind_choice:
                        acc.changed += 1
                        gain = (truth[with_inference] - truth[blind_choice]) * scale
                        acc.value_gain += gain
                        acc.value_gain_sq += gain * gain
                    blind = sum(scores) / len(scores)
                    acc.blind += blind
                    if weights is None:
                        acc.inferred += blind
                        acc.ess += 1.0
                    else:
                        tw = sum(weights)
                        acc.weighted_positions += 1
                        acc.inferred += sum(w * x for w, x in zip(weights, scores, strict=True)) / tw
                        acc.ess += tw * tw / sum(w * w for w in weights) / len(weights)
            table.apply(seats[seat].choose(obs))
    return dict(out)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: print the table of :func:`measure`."""
    ap = argparse.ArgumentParser(
        prog="python -m hucklebuck.players.accuracy", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("game", choices=[k.value for k in GameKind])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="mc", help="player kinds cycled over the seats (default: mc)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--samples", type=int, default=96)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args(argv)
    options = _OPTIONS[GameKind.coerce(args.game)].from_assignments(args.option)
    res = measure(
        args.game,
        players=args.players,
        bots=args.bots.split(","),
        games=args.games,
        samples=args.samples,
        seed=args.seed,
        options=options,
    )
    head = f"{'phase':<16}{'positions':>10}{'read':>7}{'blind':>9}{'inferred':>10}{'gain':>9}{'ess':>7}"
    print(f"{head}{'changed':>9}{'true-deal gain':>22}{'perfect':>9}")
    total = PhaseAccuracy()
    for phase, acc in sorted(res.items()):
        n, b, i, gain, ess = acc.row()
        row = f"{phase:<16}{n:>10}{acc.weighted_positions:>7}{b:>9.4f}{i:>10.4f}{gain:>+9.4f}{ess:>7.2f}"
        mean, half = acc.value_row()
        perfect = acc.perfect_gain / max(n, 1)
        print(f"{row}{acc.changed / max(n, 1):>9.3f}{mean:>+13.3f} ± {half:.3f}{perfect:>+9.3f}")
        total.positions += n
        total.perfect_gain += acc.perfect_gain
        total.changed += acc.changed
        total.value_gain += acc.value_gain
        total.value_gain_sq += acc.value_gain_sq
    mean, half = total.value_row()
    unit = "chips" if GameKind.coerce(args.game) is GameKind.BUCKEM else "points of the chance of winning"
    print(f"all phases: {total.changed} of {total.positions} choices changed; on the true deal a changed")
    per = mean * total.changed / max(total.positions, 1)
    print(f"choice gains {mean:+.3f} ± {half:.3f} {unit} (95 %), {per:+.4f} a decision; seeing every")
    print(
        f"card, the search values its best choice {total.perfect_gain / max(total.positions, 1):+.4f} "
        "higher a decision (its own valuation: a tournament of --bots seer,mc-blind measures it in games)"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
