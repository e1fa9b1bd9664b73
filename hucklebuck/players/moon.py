"""How the Monte Carlo players bid the moon in Hucklebuck, measured in self-play.

``python -m hucklebuck.players.moon`` plays whole games of Hucklebuck with
every seat of one player kind and reports, per kind:

* how often it bids the moon (per game, and per auction decision),
* from which scores (its own, and the leader's among the others),
* how often the moon is made,
* whether the moon raised the bidder's chance of winning the game compared
  with its best other choice: at every moon bid the hand is played on from
  the true deal twice, once after the moon and once after the player's best
  other choice (its next-ranked action: a lower bid, or a pass), ``--branches``
  times each with fresh player seeds, and each end of the hand is valued by
  the game-value model (:func:`hucklebuck.players.value.win_probabilities`;
  1 or 0 when the hand ends the game).  The mean difference is the moon's
  gain in the chance of winning, with its 95% interval.
* how the search's own values of the moon and of the best other choice
  (the moon's before the correction, ``montecarlo.MOON_BIAS``) compare with
  those plays: search minus play for each, with its 95% interval.

With ``--versus-before`` it instead plays each kind against itself as it was
before the search's simulated seats stayed or dropped by score and by the bid
(every seat staying with an estimate of 0.3 tricks, the moon correction 0.03),
two seats each, the seats swapped every other game, and reports the share of
the wins the current player took.

Everything is seeded (``--seed``): the same command gives the same figures on
the same core.  ``--minutes`` bounds the run: it stops starting games then.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, Bid
from ..games.base import Phase
from ..games.hucklebuck import HucklebuckGame
from ..packs import GameKind
from . import _search, make_player, montecarlo, value
from .montecarlo import MonteCarloPlayer

__all__ = ["MoonBid", "MoonReport", "main", "measure"]

KINDS = ("mc", "mc-blind", "mc-solver")


@dataclass
class MoonBid:
    """One moon bid: the standing it was made from and what came of it."""

    seat: int
    """The bidder."""
    own: int
    """The bidder's score before the hand."""
    leader: int
    """The highest score among the other seats still in the game."""
    made: bool
    """Whether the bidder took all five tricks."""
    won_game: bool
    """Whether the bidder went on to win the game."""
    gain: float | None
    """Mean chance of winning after the moon minus after the best other choice (None: not branched)."""
    rated: tuple[float, float] = (0.0, 0.0)
    """The search's values of the moon (before the correction) and of the best other choice."""
    played: tuple[float, float] | None = None
    """The mean chance of winning after each of the two, played on from the true deal (None: not branched)."""


@dataclass
class MoonReport:
    """What one player kind did over the games measured."""

    kind: str
    players: int
    games: int = 0
    decisions: int = 0
    """Auction decisions with a moon bid among the legal ones."""
    bids: list[MoonBid] = field(default_factory=list)
    wins_with_moon: int = 0
    """Games won by a seat that bid the moon in that game."""
    seats_with_moon: int = 0
    """(game, seat) pairs in which the seat bid the moon at least once."""

    def lines(self) -> list[str]:
        """The report as text lines."""
        n = len(self.bids)
        out = [
            f"{self.kind}, {self.players} players: {self.games} games, {n} moon bids "
            f"({n / max(1, self.games):.2f} a game, {100 * n / max(1, self.decisions):.1f}% of "
            f"{self.decisions} auction decisions where 5 was legal)"
        ]
        if not n:
            return out
        made = sum(b.made for b in self.bids)
        out.append(f"  made {made} of {n} ({100 * made / n:.0f}%)")
        groups = (
            ("own score < 0", [b for b in self.bids if b.own < 0]),
            ("own score = 0", [b for b in self.bids if b.own == 0]),
            ("own score > 0", [b for b in self.bids if b.own > 0]),
            ("a rival within 4 of the target", [b for b in self.bids if b.leader >= 11]),
        )
        for name, part in groups:
            if part:
                m = sum(b.made for b in part)
                gains = [b.gain for b in part if b.gain is not None]
                gain = f", gain {sum(gains) / len(gains):+.3f}" if gains else ""
                out.append(f"  from {name}: {len(part)} bids, made {m}{gain}")
        gains = [b.gain for b in self.bids if b.gain is not None]
        if gains:
            mean = sum(gains) / len(gains)
            sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, len(gains) - 1))
            half = 1.96 * sd / math.sqrt(len(gains))
            out.append(
                f"  chance of winning, moon minus best other choice: {mean:+.3f} "
                f"({mean - half:+.3f} to {mean + half:+.3f}) over {len(gains)} bids"
            )
            worse = sum(1 for g in gains if g < 0)
            out.append(f"  the moon was the worse choice at {worse} of {len(gains)} bids")
            both = [b for b in self.bids if b.played is not None]
            over = [b.rated[0] - b.played[0] for b in both if b.played is not None]
            under = [b.rated[1] - b.played[1] for b in both if b.played is not None]
            rated = [b.rated[0] - b.rated[1] for b in both]
            out.append(
                f"  the search rated the moon {_mean(rated):+.3f} against the best other choice "
                "(before the correction)"
            )
            out.append(f"  search minus play: moon {_interval(over)}, best other {_interval(under)}")
        if self.seats_with_moon:
            out.append(
                f"  seats that bid the moon in a game won it {self.wins_with_moon} of "
                f"{self.seats_with_moon} times (a seat's fair share: {1 / self.players:.2f})"
            )
        return out


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _interval(xs: Sequence[float]) -> str:
    """Mean with its 95% interval."""
    mean = _mean(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1))
    half = 1.96 * sd / math.sqrt(max(1, len(xs)))
    return f"{mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f})"


def _value_after(game: HucklebuckGame, seat: int) -> float:
    """The seat's chance of winning the game from where ``game`` stands (hand over or game over)."""
    if game.phase is Phase.GAME_OVER:
        w = game.winners
        return 1.0 / len(w) if seat in w else 0.0
    probs = value.win_probabilities(
        GameKind.HUCKLEBUCK, game.scores, out=game.out, target=game.options.target
    )
    return float(probs[seat])


def _finish_hand(game: HucklebuckGame, players: Sequence[Any]) -> None:
    while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.observation(seat)))


def _branch(game: HucklebuckGame, action: Action, kind: str, seat: int, seeds: Sequence[int]) -> float:
    """Mean chance of winning for ``seat`` after ``action``, the hand played on ``len(seeds)`` times."""
    total = 0.0
    for sd in seeds:
        g = game.copy()
        g.apply(action)
        players = [make_player(kind, "hucklebuck", seed=sd * 10 + s) for s in range(game.players)]
        _finish_hand(g, players)
        total += _value_after(g, seat)
    return total / len(seeds)


def measure(kind: str, players: int, games: int, seed: int, branches: int, deadline: float) -> MoonReport:
    """Play up to ``games`` self-play games of ``kind`` (stopping at ``deadline``, a ``time.monotonic``
    value) and measure its moon bids; ``branches`` plays of each branch (0: no branching)."""
    report = MoonReport(kind, players)
    for g_no in range(games):
        if time.monotonic() > deadline:
            break
        game = HucklebuckGame(players, seed=seed + g_no)
        bots = [make_player(kind, "hucklebuck", seed=(seed + g_no) * 16 + s) for s in range(players)]
        mooned: set[int] = set()
        first = len(report.bids)
        open_bids: list[tuple[int, MoonBid]] = []
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.HAND_OVER:
                game.next_hand()
                continue
            seat = game.to_act
            assert seat is not None
            obs = game.observation(seat)
            bot = bots[seat]
            moon = Bid(seat, 5)
            if obs.phase is Phase.AUCTION and moon in obs.legal_actions and isinstance(bot, MonteCarloPlayer):
                report.decisions += 1
                ranked = bot.analyse(obs)
                action = ranked[0][0]
                if action == moon:
                    others = [s for s in range(players) if s != seat and s not in game.out]
                    bid = MoonBid(
                        seat=seat,
                        own=game.scores[seat],
                        leader=max(game.scores[s] for s in others) if others else 0,
                        made=False,
                        won_game=False,
                        gain=None,
                        rated=(ranked[0][1] + montecarlo.MOON_BIAS, ranked[1][1]),
                    )
                    if branches:
                        base = seed * 7919 + g_no * 101 + len(report.bids) * 13
                        seeds = [base + k for k in range(branches)]
                        alt = ranked[1][0]
                        after_moon = _branch(game, moon, kind, seat, seeds)
                        after_alt = _branch(game, alt, kind, seat, seeds)
                        bid.gain = after_moon - after_alt
                        bid.played = (after_moon, after_alt)
                    report.bids.append(bid)
                    open_bids.append((seat, bid))
                    mooned.add(seat)
            else:
                action = bot.choose(obs)
            game.apply(action)
            if game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                for s, b in open_bids:
                    b.made = game.bidder == s and game.tricks_won[s] == 5
                open_bids = []
        report.games += 1
        for b in report.bids[first:]:
            b.won_game = b.seat in game.winners
        for s in mooned:
            report.seats_with_moon += 1
            if s in game.winners:
                report.wins_with_moon += 1
    return report


class _Before:
    """A player deciding as the search did before the score- and bid-aware stays."""

    def __init__(self, player: Any) -> None:
        self.player = player

    def choose(self, observation: Any) -> Action:
        saved = (_search.stay_min, _search.win_bid, montecarlo.MOON_BIAS)
        _search.stay_min = lambda score, target: 3
        _search.win_bid = lambda obs, seat: 0
        montecarlo.MOON_BIAS = 0.03
        try:
            action: Action = self.player.choose(observation)
            return action
        finally:
            _search.stay_min, _search.win_bid, montecarlo.MOON_BIAS = saved


def versus_before(kind: str, games: int, seed: int, deadline: float) -> tuple[int, float, float]:
    """Games played, and the current player's mean share of the wins with its 95% half-width, two
    seats of four against two of the player before (stopping at ``deadline``)."""
    shares: list[float] = []
    for g in range(games):
        if time.monotonic() > deadline:
            break
        game = HucklebuckGame(4, seed=seed + g // 2)
        new = (0, 2) if g % 2 == 0 else (1, 3)
        bots = [make_player(kind, "hucklebuck", seed=(seed + g) * 16 + s) for s in range(4)]
        seats = [b if s in new else _Before(b) for s, b in enumerate(bots)]
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.HAND_OVER:
                game.next_hand()
                continue
            seat = game.to_act
            assert seat is not None
            game.apply(seats[seat].choose(game.observation(seat)))
        shares.append(sum(1 for s in game.winners if s in new) / len(game.winners))
    n = len(shares)
    mean = _mean(shares)
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / max(1, n - 1))
    return n, mean, 1.96 * sd / math.sqrt(max(1, n))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurement from the command line (see the module docstring)."""
    doc = (__doc__ or "").split("\n")[0]
    ap = argparse.ArgumentParser(prog="python -m hucklebuck.players.moon", description=doc)
    ap.add_argument("--kinds", default=",".join(KINDS), help="player kinds, comma-separated")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100, help="games per kind (at most)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--branches", type=int, default=4, help="plays of each branch at a moon bid (0: none)")
    ap.add_argument("--minutes", type=float, default=10.0, help="time for each kind")
    ap.add_argument(
        "--moon-bias",
        type=float,
        default=None,
        help=f"the players' moon correction for this run (default {montecarlo.MOON_BIAS}; 0: none)",
    )
    ap.add_argument(
        "--versus-before",
        action="store_true",
        help="play each kind against itself as it was before the score-aware stays (see above)",
    )
    args = ap.parse_args(argv)
    if args.moon_bias is not None:
        montecarlo.MOON_BIAS = args.moon_bias
    print(f"moon correction {montecarlo.MOON_BIAS}, seed {args.seed}", flush=True)
    for kind in args.kinds.split(","):
        deadline = time.monotonic() + 60 * args.minutes
        if args.versus_before:
            n, mean, half = versus_before(kind, args.games, args.seed, deadline)
            print(
                f"{kind} against itself before: {n} games, it took {mean:.3f} of the wins "
                f"({mean - half:.3f} to {mean + half:.3f}; an equal player 0.5)",
                flush=True,
            )
            continue
        rep = measure(kind, args.players, args.games, args.seed, args.branches, deadline)
        print("\n".join(rep.lines()), flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
