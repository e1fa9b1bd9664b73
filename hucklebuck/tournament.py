"""Duplicate-deal tournaments between computer player kinds.

The line-up (``bots`` cycled over the seats, so ``mc,heuristic`` at four
players seats mc, heuristic, mc, heuristic) plays each *deal* (a game's seed:
the same cards hand after hand) once per rotation of the line-up through the
seats, so every kind sits behind every hand and the luck of the cards cancels.

* Hucklebuck and Deer Park Euchre: whole games; a kind scores the share of the
  game's win its seats take (a shared win is split).  With two bots of each of
  two kinds the even share is 0.5.
* Buck 'Em: a session of ``rounds`` rounds per game; a kind scores the mean
  chips per round of its seats, and its margin over the table's mean.

Each deal (all its rotations) is one observation, so the 95 % confidence
interval is ``mean ± 1.96 · sd / √deals`` over deals.  Deals are split into
chunks of :data:`CHUNK_DEALS`, each deal seeded from ``seed`` and its number
only, so the table is the same inline, on threads, on a process pool or on a
cluster (``executor=``), and on either core.

>>> t = run_tournament("deerpark", players=4, bots=("heuristic", "random"), games=8, seed=1)
>>> [r.kind for r in t.results]
['heuristic', 'random']
"""

from __future__ import annotations

import hashlib
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from . import parallel
from ._core import get_core, using
from .errors import OptionsError
from .games import BuckEmGame, DeerParkGame, HucklebuckGame
from .games.base import Phase
from .games.engine import TrickGame
from .packs import GameKind, player_range
from .players import PLAYER_KINDS, make_player

__all__ = ["CHUNK_DEALS", "KindResult", "TournamentResult", "run_tournament"]

#: Deals per chunk of work (fixed, so the result never depends on how chunks run).
CHUNK_DEALS = 4
#: A Hucklebuck or Deer Park game still going after this many hands is scored on the standings.
MAX_HANDS = 300
_Z95 = 1.959963984540054

_GAMES: dict[GameKind, Any] = {
    GameKind.HUCKLEBUCK: HucklebuckGame,
    GameKind.DEERPARK: DeerParkGame,
    GameKind.BUCKEM: BuckEmGame,
}


@dataclass(frozen=True)
class KindResult:
    """One player kind's result, with its 95 % confidence interval."""

    kind: str
    seats: int
    """Seats this kind holds in the line-up."""
    value: float
    """Share of games won (Hucklebuck, Deer Park) or mean chips per round per seat (Buck 'Em)."""
    low: float
    high: float
    even: float
    """What the kind would score if every kind were equally strong."""


@dataclass(frozen=True)
class TournamentResult:
    """The table of a tournament and everything needed to reproduce it."""

    game: GameKind
    players: int
    bots: tuple[str, ...]
    deals: int
    games: int
    seed: int
    rounds: int
    options: Mapping[str, Any]
    core: str
    results: tuple[KindResult, ...]
    metric: str = field(default="share of games won")

    def table(self) -> str:
        """The result as a text table (what the command line prints)."""
        lineup = ",".join(self.bots)
        head = (
            f"{self.game.title}, {self.players} players, line-up {lineup} rotated through every seat; "
            f"{self.deals} deals x {self.players} rotations = {self.games} games"
            + (f" of {self.rounds} rounds" if self.game is GameKind.BUCKEM else "")
            + f"; seed {self.seed}; core {self.core}"
        )
        if self.options:
            head += "; options " + ", ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        rows = [head, "", f"{'kind':<16} {'seats':>5}  {self.metric:>24}  {'95% CI':>20}  {'even':>7}"]
        for r in self.results:
            ci = f"[{r.low:.3f}, {r.high:.3f}]"
            rows.append(f"{r.kind:<16} {r.seats:>5}  {r.value:>24.3f}  {ci:>20}  {r.even:>7.3f}")
        return "\n".join(rows)


@dataclass(frozen=True)
class _Spec:
    game: str
    players: int
    lineup: tuple[str, ...]
    options: Mapping[str, Any]
    rounds: int
    core: str
    seed: int
    extra: tuple[tuple[str, Any], ...] = ()
    """Custom kinds: (name, factory) pairs, ``factory(seed)`` making a player."""


def _make_bot(spec: _Spec, name: str, kind: GameKind, seed: int) -> Any:
    for extra_name, factory in spec.extra:
        if extra_name == name:
            return factory(seed)
    return make_player(name, kind, seed=seed)


def _deal_seed(seed: int, index: int) -> int:
    digest = hashlib.blake2b(f"hucklebuck-tournament:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _play_one(spec: _Spec, deal_seed: int, rotation: int) -> list[float]:
    """One game; the score of each seat (win credit, or chips per round)."""
    kind = GameKind(spec.game)
    n = spec.players
    game: TrickGame[Any, Any] = _GAMES[kind](n, options=dict(spec.options), seed=deal_seed)
    bots = [
        _make_bot(spec, spec.lineup[(s + rotation) % n], kind, (deal_seed + 7919 * s + rotation) % (1 << 63))
        for s in range(n)
    ]
    start = list(game.standings)
    limit = spec.rounds if kind is GameKind.BUCKEM else MAX_HANDS
    while True:
        if game.phase is Phase.GAME_OVER:
            break
        if game.phase is Phase.HAND_OVER:
            if game.hand_number >= limit:
                break
            game.next_hand()
            continue
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.observation(seat)))
    if kind is GameKind.BUCKEM:
        return [(game.standings[s] - start[s]) / spec.rounds for s in range(n)]
    winners = tuple(game.winners) if game.is_over else ()
    if not winners:  # scored on the standings (DEF #17-style: the best score; a tie is shared)
        std = game.standings
        best = max(std) if kind is GameKind.HUCKLEBUCK else max(abs(x - 25) for x in std)
        winners = tuple(
            s for s in range(n) if (std[s] if kind is GameKind.HUCKLEBUCK else abs(std[s] - 25)) == best
        )
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]


def _deal_scores(spec: _Spec, index: int) -> list[float]:
    """Each kind's score on one deal, averaged over every rotation (kinds in line-up order)."""
    kinds = list(dict.fromkeys(spec.lineup))
    n = spec.players
    seed = _deal_seed(spec.seed, index)
    totals = [0.0] * len(kinds)
    seats = [sum(1 for k in spec.lineup if k == kind) for kind in kinds]
    for rot in range(n):
        scores = _play_one(spec, seed, rot)
        for s in range(n):
            totals[kinds.index(spec.lineup[(s + rot) % n])] += scores[s]
    if GameKind(spec.game) is GameKind.BUCKEM:  # chips per round per seat
        return [totals[i] / (n * seats[i]) for i in range(len(kinds))]
    return [totals[i] / n for i in range(len(kinds))]


def _chunk_task(spec: _Spec, chunk: parallel.Chunk) -> list[list[float]]:
    first = chunk.index * CHUNK_DEALS
    if get_core().name == spec.core:
        return [_deal_scores(spec, first + i) for i in range(chunk.size)]
    with using(spec.core):
        return [_deal_scores(spec, first + i) for i in range(chunk.size)]


def _stderr_progress(done: int, total: int) -> None:
    sys.stderr.write(f"\rtournament: {done}/{total} deals")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, m, m
    var = sum((v - m) ** 2 for v in values) / (len(values) - 1)
    half = _Z95 * math.sqrt(var / len(values))
    return m, m - half, m + half


def run_tournament(
    game: GameKind | str,
    *,
    players: int,
    bots: Sequence[str] = ("mc", "heuristic"),
    games: int = 2000,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    rounds: int = 20,
    workers: int = 1,
    executor: Any = None,
    progress: bool | None = None,
    custom: Mapping[str, Callable[[int], Any]] | None = None,
) -> TournamentResult:
    """Play a duplicate tournament and return its table.

    ``games`` is rounded up to whole deals (``players`` games each).  ``bots``
    are player kinds (:data:`hucklebuck.players.PLAYER_KINDS`), cycled over
    the seats; ``options`` the game's variant options by name; ``rounds`` the
    rounds of each Buck 'Em game.  ``workers`` threads, or any
    :class:`concurrent.futures.Executor` as ``executor``, run the chunks;
    ``progress`` (default: when stderr is a terminal) reports on stderr.
    ``custom`` adds kinds of your own: name -> ``factory(seed)`` returning a
    :class:`~hucklebuck.players.Player` (a picklable factory for process pools),
    which ``bots`` may then name.  Bad input raises :class:`~hucklebuck.errors.OptionsError` naming what is
    allowed.
    """
    kind = GameKind.coerce(game)
    lo, hi = player_range(kind)
    if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
        raise OptionsError(f"{kind.title} is for {lo} to {hi} players, not {players!r}")
    lineup_in = (
        [b.strip() for b in bots] if not isinstance(bots, str) else [b.strip() for b in bots.split(",")]
    )
    extra = tuple((str(k), f) for k, f in (custom or {}).items())
    if any(not callable(f) for _, f in extra):
        raise OptionsError("custom must map each kind's name to a factory taking a seed")
    known = (*PLAYER_KINDS, *(k for k, _ in extra))
    bad = [b for b in lineup_in if b not in known]
    if bad or not lineup_in:
        raise OptionsError(
            f"unknown bot kind {bad[0] if bad else ''!r} "
            f"(use a comma-separated list of: {', '.join(known)})"
        )
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionsError(f"games must be a positive integer, not {games!r}")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise OptionsError(f"rounds must be a positive integer, not {rounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionsError(f"seed must be an integer, not {seed!r}")
    opts = dict(options or {})
    _GAMES[kind].options_type.from_dict(opts)  # unknown or bad options fail here, naming the known ones
    lineup = tuple(lineup_in[s % len(lineup_in)] for s in range(players))
    deals = -(-games // players)
    spec = _Spec(kind.value, players, lineup, opts, rounds, get_core().name, seed, extra)
    chunks = parallel.plan(deals, seed=seed, chunk_size=CHUNK_DEALS)
    show = sys.stderr.isatty() if progress is None else progress
    parts = parallel.run_chunks(
        partial(_chunk_task, spec),
        chunks,
        executor=executor,
        workers=workers,
        progress=_stderr_progress if show else None,
    )
    per_deal = [row for part in parts for row in part]
    kinds = list(dict.fromkeys(lineup))
    results = []
    for i, k in enumerate(kinds):
        seats = sum(1 for x in lineup if x == k)
        m, low, high = _mean_ci([row[i] for row in per_deal])
        if kind is not GameKind.BUCKEM:  # a share lies in [0, 1]
            low, high = max(low, 0.0), min(high, 1.0)
        even = seats / players if kind is not GameKind.BUCKEM else 0.0
        results.append(KindResult(k, seats, m, low, high, even))
    if kind is GameKind.BUCKEM:  # margins over the table's mean chips per round
        table_mean = [
            sum(row[i] * lineup.count(k) for i, k in enumerate(kinds)) / players for row in per_deal
        ]
        for i, k in enumerate(kinds):
            m, low, high = _mean_ci([row[i] - t for row, t in zip(per_deal, table_mean, strict=True)])
            results.append(KindResult(f"{k} margin", results[i].seats, m, low, high, 0.0))
    return TournamentResult(
        game=kind,
        players=players,
        bots=tuple(lineup_in),
        deals=deals,
        games=deals * players,
        seed=seed,
        rounds=rounds,
        options=opts,
        core=spec.core,
        results=tuple(results),
        metric="chips per round" if kind is GameKind.BUCKEM else "share of games won",
    )
