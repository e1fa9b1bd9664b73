"""Moon decisions of every player kind at every Hucklebuck table size, measured cheaply.

``python -m hucklebuck.players.moon_sizes`` takes ``--hands`` hand starts per
table size (the standings of seeded games between the heuristic players: the
scores, dealer and deal of each hand as such games reach them), plays each
hand's auction with every seat of one player kind, and at every decision where
a moon bid is legal asks that seat's player.  Only when it bids the moon is the
hand played on: from the true deal, ``--branches`` times after the moon and as
many after the move the player makes when the moon is taken out of its legal
moves (its best other choice: a lower bid or a pass), every seat of the same
kind, each end of the hand valued as the bidder's **share of the game**: 1, 0
or a share of a tie when the hand ends the game, else its chance of winning by
the game-value model (:func:`hucklebuck.players.value.win_probabilities`).
The mean difference is what the moon did to the bidder's share of the game
against not bidding it.  A hand whose auction has no moon bid costs only its
auction, so a thousand hands per table size take minutes of CPU.

For each kind and table size it reports the auction decisions where the moon
was legal, the moon bids (those from zero or below apart: a moon that cannot
win the game, which a stand-in never bids, see
:mod:`hucklebuck.players.standin`), how often they were made, and the share
gained against the best other choice with its 95 % interval; ``--csv`` prints
the rows of the players page's table.  ``--late`` takes only the hand starts
where some seat is within 4 points of the target (where moons are bid).

Everything is seeded (``--seed``): the same command gives the same figures on
the same core.  ``--minutes`` bounds each kind and size: no hand is started
after it.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, Bid
from ..games.base import Phase
from ..games.hucklebuck import HucklebuckGame
from . import make_player
from .montecarlo import MonteCarloPlayer
from .moon import _finish_hand, _value_after
from .standin import moon_can_win

__all__ = ["SizeReport", "hand_starts", "main", "measure_size"]

KINDS = ("mc", "mc-blind", "heuristic", "random")


@dataclass
class SizeReport:
    """One player kind's moon decisions at one table size."""

    kind: str
    players: int
    hands: int = 0
    decisions: int = 0
    """Auction decisions where a moon bid was legal."""
    cpu: float = 0.0
    """CPU seconds the measurement took (this process)."""
    gains: list[tuple[bool, float, float]] = field(default_factory=list)
    """Per moon bid: whether it could win the game (from above 0), the share of its plays in
    which it was made, and the share of the game after the moon minus after the best other choice."""

    def _part(self, can_win: bool | None) -> list[tuple[bool, float, float]]:
        return [g for g in self.gains if can_win is None or g[0] is can_win]

    def summary(self, can_win: bool | None = None) -> tuple[int, float, float, float]:
        """Bids, share made, mean gain and its 95 % half-width (of the bids that could win the
        game, could not, or all of them with ``None``)."""
        part = self._part(can_win)
        n = len(part)
        if not n:
            return 0, 0.0, 0.0, 0.0
        made = sum(p[1] for p in part) / n
        mean = sum(p[2] for p in part) / n
        sd = math.sqrt(sum((p[2] - mean) ** 2 for p in part) / max(1, n - 1))
        return n, made, mean, 1.96 * sd / math.sqrt(n)

    def row(self) -> list[str]:
        """The players page's table row."""
        cells = [self.kind, str(self.players), str(self.hands), str(self.decisions)]
        for part in (False, True):
            n, made, mean, half = self.summary(part)
            if n:
                cells += [str(n), f"{100 * made:.0f} %", f"{mean:+.3f} ± {half:.3f}"]
            else:
                cells += ["0", "–", "–"]
        return cells

    def lines(self) -> list[str]:
        """The report as text lines."""
        n, made, mean, half = self.summary()
        out = [
            f"{self.kind}, {self.players} players: {self.hands} hands, {self.decisions} decisions "
            f"with the moon legal, {n} moon bids ({self.cpu:.0f} s of CPU)"
        ]
        for name, part in (("from zero or below (cannot win)", False), ("from above 0 (wins if made)", True)):
            k, made, mean, half = self.summary(part)
            if k:
                out.append(
                    f"  {name}: {k} bids, made {100 * made:.0f} %, share of the game against the best "
                    f"other choice {mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f})"
                )
        return out


def hand_starts(players: int, hands: int, seed: int, *, late: bool = False) -> Iterator[HucklebuckGame]:
    """The first ``hands`` hand starts (a copy of each game at its auction's first decision) of
    seeded games between the heuristic players at ``players`` seats (with ``late``, only those
    where some seat is within 4 points of the target)."""
    given = 0
    game_no = 0
    while given < hands:
        game = HucklebuckGame(players, seed=seed * 100_003 + game_no)
        bots = [make_player("heuristic", "hucklebuck") for _ in range(players)]
        game_no += 1
        fresh = True
        while game.phase is not Phase.GAME_OVER and given < hands:
            if game.phase is Phase.HAND_OVER:
                game.next_hand()
                fresh = True
                continue
            if fresh:
                fresh = False
                if not late or max(game.scores) >= game.options.target - 4:
                    given += 1
                    yield game.copy()
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(game.observation(seat)))


def _choices(player: Any, obs: Any, moon: Action) -> tuple[Action, Action]:
    """The player's move, and its move with the moon taken out of its legal moves."""
    if isinstance(player, MonteCarloPlayer):
        ranked = player.analyse(obs)
        return ranked[0][0], next(a for a, _ in ranked if a != moon)
    action = player.choose(obs)
    if action != moon:
        return action, action
    rest = tuple(a for a in obs.legal_actions if a != moon)
    return action, player.choose(dataclasses.replace(obs, legal_actions=rest))


def _plays(
    game: HucklebuckGame, action: Action, kind: str, seat: int, seeds: Sequence[int]
) -> tuple[float, float]:
    """Mean share of the game for ``seat`` after ``action``, and the share of plays with the moon made."""
    share = made = 0.0
    for sd in seeds:
        g = game.copy()
        g.apply(action)
        _finish_hand(g, [make_player(kind, "hucklebuck", seed=sd * 10 + s) for s in range(game.players)])
        share += _value_after(g, seat)
        made += 1.0 if g.bidder == seat and g.tricks_won[seat] == 5 else 0.0
    return share / len(seeds), made / len(seeds)


def measure_size(
    kind: str, players: int, hands: int, seed: int, branches: int, deadline: float, *, late: bool = False
) -> SizeReport:
    """Measure ``kind``'s moon decisions over ``hands`` hand starts at ``players`` seats (no hand
    is started after ``deadline``, a ``time.monotonic`` value; ``late``: see :func:`hand_starts`)."""
    report = SizeReport(kind, players)
    started = time.process_time()
    for h_no, start in enumerate(hand_starts(players, hands, seed, late=late)):
        if time.monotonic() > deadline:
            break
        report.hands += 1
        bots = [make_player(kind, "hucklebuck", seed=(seed * 7919 + h_no) * 16 + s) for s in range(players)]
        game = start
        while game.phase is Phase.AUCTION:
            seat = game.to_act
            assert seat is not None
            obs = game.observation(seat)
            moon = Bid(seat, 5)
            if moon not in obs.legal_actions:
                game.apply(bots[seat].choose(obs))
                continue
            report.decisions += 1
            action, other = _choices(bots[seat], obs, moon)
            if action == moon:
                base = (seed * 7919 + h_no) * 101 + report.decisions * 13
                seeds = [base + k for k in range(branches)]
                after_moon, made = _plays(game, moon, kind, seat, seeds)
                after_other, _ = _plays(game, other, kind, seat, seeds)
                report.gains.append((moon_can_win(obs), made, after_moon - after_other))
                break  # the hand was played on in the branches
            game.apply(action)
    report.cpu = time.process_time() - started
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurement from the command line (see the module docstring)."""
    doc = (__doc__ or "").split("\n")[0]
    ap = argparse.ArgumentParser(prog="python -m hucklebuck.players.moon_sizes", description=doc)
    ap.add_argument("--kinds", default=",".join(KINDS), help="player kinds, comma-separated")
    ap.add_argument("--sizes", default="3,4,5,6,7", help="table sizes, comma-separated")
    ap.add_argument("--hands", type=int, default=1000, help="hand starts per table size")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--branches", type=int, default=3, help="plays after the moon and after the other choice")
    ap.add_argument("--minutes", type=float, default=10.0, help="time for each kind and table size")
    ap.add_argument("--csv", action="store_true", help="also print the rows of the players page's table")
    ap.add_argument(
        "--late", action="store_true", help="only hands where some seat is within 4 points of the target"
    )
    args = ap.parse_args(argv)
    rows = []
    for kind in args.kinds.split(","):
        for n in (int(s) for s in args.sizes.split(",")):
            deadline = time.monotonic() + 60 * args.minutes
            rep = measure_size(kind, n, args.hands, args.seed, args.branches, deadline, late=args.late)
            print("\n".join(rep.lines()), flush=True)
            rows.append(rep.row())
    if args.csv:
        for r in rows:
            print(", ".join(f'"{c}"' if not c.lstrip("+-").replace(".", "").isdigit() else c for c in r))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
