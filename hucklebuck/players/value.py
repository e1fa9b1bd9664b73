"""The game-value model: from a standing, each seat's chance of winning the game.

What a hand is worth depends on the standing it leads to: ten points are a
win at 5 in Hucklebuck and nothing at -20; taking no trick is what a Deer Park
player at 47 needs and a disaster at 3.  This model turns a standing (every
seat's score, the player count) into each seat's probability of winning the
game, so a player can weigh a hand's outcomes by what they do to that.

**Method** (an *independent-race* model, computed from the games' own
dynamics):

1. *Per-hand outcome distributions.*  Whole games are played by the
   heuristic players (:func:`rebuild`), and every seat's score change in every
   hand is counted, per game and player count; in Deer Park Euchre separately
   for a seat playing for 0 and for 50 (the two ways to finish).  A
   Hucklebuck moon that wins the game outright is counted as a win.
2. *One seat's race.*  Each seat's score is a Markov chain over the scores
   with that per-hand distribution (in Deer Park the seat plays, at each
   score, for the goal it reaches in fewer hands on average: value iteration
   over the scores).  A forward recursion gives the probability
   ``a[s][t]`` that a seat now at score ``s`` finishes (wins, reaches 0 or 50)
   in exactly ``t`` more hands, for ``t`` up to :data:`HORIZON`; a Hucklebuck
   seat that falls to -25 is out and never finishes.
3. *The race of every seat.*  Seat ``i`` wins if it finishes first:
   ``P(i) ∝ Σ_t a_i(t) · Π_{j≠i} (P(T_j > t) + ½ P(T_j = t))`` (a tie in one
   hand is split), normalised over the seats.

The data is shipped in :mod:`hucklebuck.players._value_data` and rebuilt by
``python -m hucklebuck.players.value`` (pure Python, seeded: the same on either
core, and every value here is computed in Python, so both cores give the same
values).  Buck 'Em has no game to win: its value is chips (see
:func:`buckem_value`).

>>> p = win_probabilities("deerpark", (25, 25, 48))
>>> p[2] > p[0] == p[1]
True
"""

from __future__ import annotations

import argparse
import pprint
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from ..errors import OptionsError
from ..packs import GameKind
from ._value_data import DATA

__all__ = [
    "HORIZON",
    "buckem_value",
    "goes_high",
    "rebuild",
    "win_probabilities",
]

#: Hands looked ahead by the race (a game that lasts longer is rare; its tail is shared out).
HORIZON = 40
_WIN = "W"  # a Hucklebuck moon that wins the game outright
_OUT_AT = -25
_DP_LOW, _DP_HIGH = 0, 50


def _dist(counts: dict[str, int]) -> list[tuple[Any, float]]:
    total = sum(counts.values())
    return [(k if k == _WIN else int(k), c / total) for k, c in sorted(counts.items())]


def _n_key(game: GameKind, players: int) -> str:
    table = DATA[game.value]
    if str(players) in table:
        return str(players)
    return min(table, key=lambda k: abs(int(k) - players))  # the nearest player count measured


def _first_passage(states: range, moves: Callable[[int], list[tuple[int | None, float]]]) -> list[_Row]:
    """For every start state, the chance of finishing in exactly ``t + 1`` hands (backward recursion).

    ``moves(s)`` lists the next states with their chances; ``None`` is finishing.
    A state outside ``states`` that is not ``None`` never finishes (out of the game).
    """
    lo = states.start
    table = [moves(s) for s in states]
    prev = [sum(q for t, q in table[i] if t is None) for i in range(len(states))]
    cols = [prev]
    for _ in range(HORIZON - 1):
        cur = [
            sum(q * prev[t - lo] for t, q in table[i] if t is not None and t in states)
            for i in range(len(states))
        ]
        cols.append(cur)
        prev = cur
    return [_row([cols[t][i] for t in range(HORIZON)]) for i in range(len(states))]


@lru_cache(maxsize=64)
def _hb_chain(players: int, target: int) -> tuple[tuple[_Row, ...], int]:
    """Hucklebuck: ``a[s - lo][t]``, the chance a seat at ``s`` wins in exactly ``t + 1`` hands."""
    dist = _dist(DATA["hucklebuck"][_n_key(GameKind.HUCKLEBUCK, players)]["any"])
    lo = _OUT_AT + 1

    def moves(s: int) -> list[tuple[int | None, float]]:
        return [(None if d == _WIN or s + d >= target else s + d, q) for d, q in dist]

    return tuple(_first_passage(range(lo, target), moves)), lo


@lru_cache(maxsize=16)
def _dp_tables(players: int) -> tuple[tuple[bool, ...], tuple[_Row, ...]]:
    """Deer Park: for scores 1-49, whether to play for 50, and ``a[s - 1][t]``."""
    table = DATA["deerpark"][_n_key(GameKind.DEERPARK, players)]
    dists = {m: _dist(table[m]) for m in ("low", "high")}
    inside = range(_DP_LOW + 1, _DP_HIGH)
    # Value iteration: the expected hands to finish, playing at each score for the better goal.
    e = dict.fromkeys(inside, 10.0)

    def mean(mode: str, s: int) -> float:
        return 1.0 + sum(q * e.get(s + d, 0.0) for d, q in dists[mode])

    for _ in range(400):
        change = 0.0
        for s in inside:
            v = min(mean("low", s), mean("high", s))
            change = max(change, abs(v - e[s]))
            e[s] = v
        if change < 1e-9:
            break
    high = tuple(mean("high", s) < mean("low", s) for s in inside)

    def moves(s: int) -> list[tuple[int | None, float]]:
        dist = dists["high" if high[s - 1] else "low"]
        return [(None if s + d <= _DP_LOW or s + d >= _DP_HIGH else s + d, q) for d, q in dist]

    rows = _first_passage(inside, moves)
    return high, tuple(rows)


def goes_high(players: int, score: int) -> bool:
    """Deer Park Euchre: whether the model plays for 50 (rather than 0) at ``score`` (a table look-up)."""
    if score <= _DP_LOW or score >= _DP_HIGH:
        return score >= _DP_HIGH
    return _dp_tables(players)[0][score - 1]


_Row = tuple[tuple[float, ...], tuple[float, ...]]


def _row(a: Sequence[float]) -> _Row:
    """A finishing-time distribution and its ``P(T > t) + ½ P(T = t)`` (the tie split of the race)."""
    surv, left = [], 1.0
    for x in a:
        left -= x
        surv.append(max(left, 0.0) + 0.5 * x)
    return tuple(a), tuple(surv)


_FINISHED: _Row = _row((1.0,) + (0.0,) * (HORIZON - 1))
_NEVER: _Row = ((0.0,) * HORIZON, (1.0,) * HORIZON)


def _race(rows: Sequence[_Row | None]) -> tuple[float, ...]:
    """Each seat's share of the race from its finishing-time distribution (``None``: cannot win)."""
    n = len(rows)
    full = [_NEVER if r is None else r for r in rows]
    raw = [0.0] * n
    for t in range(HORIZON):
        prod = 1.0
        for _, sv in full:
            prod *= sv[t]
        if prod == 0.0:  # some seat surely finished before: recompute without the divisions
            for i, (a, _) in enumerate(full):
                if a[t]:
                    p = a[t]
                    for j, (_, sv) in enumerate(full):
                        if j != i:
                            p *= sv[t]
                    raw[i] += p
            continue
        for i, (a, sv) in enumerate(full):
            if a[t]:
                raw[i] += a[t] * prod / sv[t]
    total = sum(raw)
    if total <= 0.0:  # nobody can finish within the horizon: share among the seats still in
        alive = [r is not None for r in rows]
        k = sum(alive) or n
        return tuple((1.0 / k if (a or not any(alive)) else 0.0) for a in alive)
    return tuple(x / total for x in raw)


def win_probabilities(
    game: GameKind | str, scores: Sequence[int], *, out: Sequence[int] = (), target: int = 15
) -> tuple[float, ...]:
    """Each seat's chance of winning the game from ``scores`` (Hucklebuck, Deer Park Euchre).

    ``out``: Hucklebuck seats already out of the game; ``target``: the
    Hucklebuck target (15 or 11).  A seat already at its goal has finished.
    Buck 'Em has no game to win (:class:`~hucklebuck.errors.OptionsError`;
    see :func:`buckem_value`).
    """
    kind = GameKind.coerce(game)
    if kind is GameKind.BUCKEM:
        raise OptionsError("Buck 'Em has no game to win: its value is chips (see buckem_value)")
    return _win_probabilities(kind, tuple(scores), tuple(sorted(out)), target)


@lru_cache(maxsize=65536)
def _win_probabilities(
    kind: GameKind, scores: tuple[int, ...], out: tuple[int, ...], target: int
) -> tuple[float, ...]:
    n = len(scores)
    rows: list[_Row | None] = []
    if kind is GameKind.HUCKLEBUCK:
        table, lo = _hb_chain(n, target)
        for s, sc in enumerate(scores):
            if s in out or sc <= _OUT_AT:
                rows.append(None)
            elif sc >= target:
                rows.append(_FINISHED)
            else:
                rows.append(table[sc - lo])
        return _race(rows)
    _, dtable = _dp_tables(n)
    for sc in scores:
        if sc <= _DP_LOW or sc >= _DP_HIGH:
            rows.append(_FINISHED)
        else:
            rows.append(dtable[sc - 1])
    return _race(rows)


def buckem_value(chips: float, pot_after: int, players: int) -> float:
    """Buck 'Em: a seat's expected session chips from one round, ``chips`` won or lost.

    The pot that carries over is won later by one of the seats; with players of
    equal skill each expects ``pot_after / players`` of it, so that is added.
    """
    return chips + pot_after / players


# ------------------------------------------------------------------ rebuilding
def _turn(game: Any) -> int:
    seat: int = game.to_act
    return seat


def _collect_hucklebuck(players: int, games: int, seed: int) -> dict[str, dict[str, int]]:
    from ..games import HucklebuckGame
    from ..games.base import Phase
    from .heuristics import HucklebuckHeuristic

    counts: Counter[str] = Counter()
    bot = HucklebuckHeuristic()
    rng = random.Random(seed)
    for _ in range(games):
        g = HucklebuckGame(players, seed=rng.getrandbits(48))
        before = list(g.scores)
        out_before = set(g.out)
        while g.phase is not Phase.GAME_OVER and g.hand_number < 200:
            if g.phase is Phase.HAND_OVER:
                for s in range(players):
                    if s not in out_before:
                        counts[str(g.scores[s] - before[s])] += 1
                g.next_hand()
                before, out_before = list(g.scores), set(g.out)
                continue
            g.apply(bot.choose(g.observation(_turn(g))))
        if g.phase is Phase.GAME_OVER:
            for s in range(players):
                if s in out_before:
                    continue
                won_outright = s in g.winners and g.scores[s] < g.options.target
                counts[_WIN if won_outright else str(g.scores[s] - before[s])] += 1
    return {"any": dict(counts)}


def _collect_deerpark(players: int, games: int, seed: int) -> dict[str, dict[str, int]]:
    from ..games import DeerParkGame
    from ..games.base import Phase
    from .heuristics import DeerParkHeuristic

    opts = {"eight_player_turnup": "dealer_last_card"} if players == 8 else {}
    counts: dict[str, Counter[str]] = {"low": Counter(), "high": Counter()}
    modes: list[str] = []

    class Explorer(DeerParkHeuristic):
        """The heuristic, playing each hand for the goal it was dealt."""

        def goes_high(self, obs: Any) -> bool:
            return bool(modes[obs.seat] == "high")

    bot = Explorer()
    rng = random.Random(seed)
    for _ in range(games):
        g = DeerParkGame(players, seed=rng.getrandbits(48), options=opts)
        while True:
            before = list(g.scores)
            # Each seat plays for a goal drawn at random, so each goal's outcomes are
            # measured against the whole mix of goals at the table, not against one policy's.
            modes[:] = [rng.choice(("low", "high")) for _ in range(players)]
            while g.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
                g.apply(bot.choose(g.observation(_turn(g))))
            for s in range(players):
                counts[modes[s]][str(g.scores[s] - before[s])] += 1
            if g.phase is Phase.GAME_OVER or g.hand_number >= 200:
                break
            g.next_hand()
    return {m: dict(c) for m, c in counts.items()}


def rebuild(games: int = 400, seed: int = 2026) -> dict[str, dict[str, Any]]:
    """Play ``games`` heuristic games per game and player count; the per-hand outcome counts."""
    data: dict[str, dict[str, Any]] = {"hucklebuck": {}, "deerpark": {}}
    for n in range(3, 8):
        data["hucklebuck"][str(n)] = _collect_hucklebuck(n, games, seed + n)
    for n in range(3, 9):
        data["deerpark"][str(n)] = _collect_deerpark(n, games, seed + 100 + n)
    return data


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hucklebuck.players.value [--games N] [--seed S] [--write]``: rebuild the data."""
    ap = argparse.ArgumentParser(
        prog="python -m hucklebuck.players.value",
        description="Rebuild the game-value model's data: play self-play games at every player count "
        "and count each hand's outcome (the shipped data: --games 600 --seed 2026 --write).",
    )
    ap.add_argument(
        "--games", type=int, default=400, metavar="N", help="games per game and player count (default 400)"
    )
    ap.add_argument("--seed", type=int, default=2026, metavar="N", help="random seed (default 2026)")
    ap.add_argument("--write", action="store_true", help="write hucklebuck/players/_value_data.py")
    args = ap.parse_args(argv)
    data = rebuild(args.games, args.seed)
    text = (
        '"""Per-hand outcome counts of the game-value model (see :mod:`hucklebuck.players.value`).\n\n'
        f"Generated by ``python -m hucklebuck.players.value --games {args.games} --seed {args.seed} "
        "--write``.\n"
        '"""\n\n'
        "from typing import Any\n\n"
        f"DATA: dict[str, dict[str, Any]] = {pprint.pformat(data, width=72, compact=True)}\n"
    )
    if args.write:
        from pathlib import Path

        Path(__file__).with_name("_value_data.py").write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
