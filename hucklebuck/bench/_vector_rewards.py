"""Part of benchmark section ``vector``: how well each reward mode's summed reward picks the
winner of whole random games (:func:`reward_agreement`, re-exported by
:mod:`hucklebuck.bench.vector`)."""

from __future__ import annotations

from typing import cast

from ..vector import VectorGame

__all__ = ["print_rewards", "reward_agreement"]


def reward_agreement(
    game: str, players: int, games: int, seed: int = 1, tables: int = 64
) -> dict[str, tuple[float, float, float]]:
    """How well each reward mode's summed reward over a whole random game picks its winner.

    ``games`` whole games of uniformly random legal play (the same games for every
    mode: the same seed and ids); per mode, the share of games in which a winner
    has the highest summed reward (ties for the highest counted as a miss unless
    every tied seat won), the correlation over all seats of every game
    between the summed reward and having won (1 for a winner, else 0), and the
    same correlation for the reward summed before the hand that ended the game
    (what the signal said while the game was still open).
    """
    out: dict[str, tuple[float, float, float]] = {}
    winners: list[list[set[int]]] = [[] for _ in range(tables)]  # each table's games, in order
    for mode in ("game", "progress", "hand"):  # "game" first: it pays exactly the winners
        vg = VectorGame(game, players, tables, seed=seed, hands=None, reward=mode)
        totals = [[0.0] * players for _ in range(tables)]
        ended = [0] * tables
        picked = done = 0
        xs: list[float] = []
        ys: list[float] = []
        early: list[float] = []
        k = 0
        while done < games:
            vg.step(vg.sample_legal(k))  # the same ids in every mode: the same games
            k += 1
            rows = cast("list[list[float]]", vg.rewards.tolist())  # two-dimensional
            term = vg.terminated.tolist()
            for i in range(tables):
                before = totals[i]
                totals[i] = [a + b for a, b in zip(totals[i], rows[i], strict=True)]
                if not term[i]:
                    continue
                if mode == "game":
                    winners[i].append({s for s, r in enumerate(rows[i]) if r == 1.0})
                won = winners[i][ended[i]]
                ended[i] += 1
                if done < games:
                    top = max(totals[i])
                    picked += all(s in won for s, t in enumerate(totals[i]) if t == top)
                    xs.extend(totals[i])
                    early.extend(before)
                    ys.extend(1.0 if s in won else 0.0 for s in range(players))
                    done += 1
                totals[i] = [0.0] * players
        vg.close()
        out[mode] = (picked / games, _correlation(xs, ys), _correlation(early, ys))
    return out


def _correlation(xs: list[float], ys: list[float]) -> float:
    """Pearson's correlation of two equally long lists (nan when one is constant)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else float("nan")


def print_rewards(games: int) -> None:
    """The reward modes against winning, over ``games`` whole random games per game."""
    print(f"\nreward modes against winning ({games:,} whole games of random play each; see docs/agents.rst):")
    head = f"{'reward':>10}{'winner tops the sum':>22}{'corr(sum, won)':>16}{'before last hand':>18}"
    print(f"  {'game':16}{head}")
    for game, players in (("deerpark", 4), ("deerpark", 3), ("hucklebuck", 4)):
        for mode, (top, corr, early) in reward_agreement(game, players, games).items():
            shown = "-" if early != early else f"{early:+.3f}"  # nan: "game" pays nothing before the end
            print(f"  {game + f' {players}p':16}{mode:>10}{top:>22.3f}{corr:>+16.3f}{shown:>18}")
