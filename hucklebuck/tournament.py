"""Duplicate-deal tournaments between computer player kinds.

The line-up (``bots`` cycled over the seats, so ``mc,heuristic`` at four
players seats mc, heuristic, mc, heuristic) plays each *deal* (a game's seed:
the same cards hand after hand) once per rotation of the line-up through the
seats, so every kind sits behind every hand and the luck of the cards cancels.

When the seats do not divide evenly among the kinds (three players, two
kinds), one line-up would favour the kind that holds more seats, so the
tournament plays every *composition*: the line-up cycled from each of its
kinds in turn (``mc,heuristic,mc`` and ``heuristic,mc,heuristic``), each deal
once per composition and rotation.  The table reports each composition (with
each kind's even share in it) and the total over the compositions.

* Hucklebuck and Deer Park Euchre: whole games; a kind scores the share of the
  game's win its seats take (a shared win is split).  Its even share is its
  seats over the players (0.5 with two bots of each of two kinds).
* Buck 'Em: a session of ``rounds`` rounds per game; a kind scores the mean
  chips per round of its seats, and its *margin*: that minus the table's mean
  chips per round per seat (the table as a whole loses what the pot still holds
  at the end, so the margin is the fair comparison; even is 0).

With ``common_seeds`` (``--common-seeds``) the player at a seat keeps its
random seed through the rotations that put another kind in that seat
(:func:`bot_seed`): two kinds that mostly choose alike, such as a player and
the same player with one feature off, then play the same game until their
first different choice (common random numbers).  The expected result is the
same; only the luck of the players' own searches cancels too.

Besides the player kinds (:data:`~hucklebuck.players.PLAYER_KINDS`) a line-up
may seat a *seer* (``seer``, ``seer-solver``: :mod:`hucklebuck.players.seer`),
which reads every hand from the game: not a fair player, but the ceiling of
what inference could gain (``--bots seer,mc-blind``).

To score hand by hand instead of by whole games, see :mod:`hucklebuck.boards`
(``--boards``): the same comparison with every hand's cards shared by both
kinds, which needs about half the games for the same interval.

Each deal (all its compositions and rotations) is one observation, so the 95 %
confidence interval is ``mean ± 1.96 · sd / √deals`` over deals (it needs two
deals or more: with one it is ``nan``).  ``games`` is rounded up to whole deals.
Deals are split into chunks of :data:`CHUNK_DEALS`, each deal seeded from
``seed`` and its number only, so the table is the same inline, on threads, on a
process pool or on a cluster (``executor=``), and on either core.

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
from typing import Any, TypeVar

from . import parallel
from ._core import get_core, using
from ._progress import ProgressLine
from ._tournament_check import check_all as _check_all
from .games import BuckEmGame, DeerParkGame, HucklebuckGame
from .games.base import Phase
from .games.engine import TrickGame
from .packs import GameKind
from .players import make_player
from .players.seer import SEER_KINDS, SeerPlayer, make_seer

__all__ = [
    "CHUNK_DEALS",
    "DEFAULT_PLAYERS",
    "FEW_DEALS",
    "CompositionResult",
    "KindResult",
    "TournamentResult",
    "TournamentStopped",
    "bot_seed",
    "compositions",
    "period",
    "run_tournament",
]

#: Deals per chunk of work (fixed, so the result never depends on how chunks run).
CHUNK_DEALS = 4
#: A Hucklebuck or Deer Park game still going after this many hands is scored on the standings.
MAX_HANDS = 300
#: The player count a tournament uses when none is given.
DEFAULT_PLAYERS: Mapping[GameKind, int] = {GameKind.HUCKLEBUCK: 4, GameKind.DEERPARK: 4, GameKind.BUCKEM: 5}
#: Below this many deals the table warns that its intervals are rough.
FEW_DEALS = 30
_Z95 = 1.959963984540054
T = TypeVar("T")
_BOARD_NOTE = (
    "gain per hand: the change a hand made to the chance that one of the kind's seats wins the game "
    "(after the hand minus before it, in percentage points, by the game-value model), over the "
    "table's mean; even is 0. The interval counts each reference game as one observation.",
    "gain per round: the chips one of the kind's seats won or paid in the round plus its share of "
    "what the pot gained, over the table's mean; even is 0. The interval counts each reference "
    "game as one observation.",
)

_GAMES: dict[GameKind, Any] = {
    GameKind.HUCKLEBUCK: HucklebuckGame,
    GameKind.DEERPARK: DeerParkGame,
    GameKind.BUCKEM: BuckEmGame,
}


@dataclass(frozen=True)
class KindResult:
    """One player kind's result, with its 95 % confidence interval (``nan`` from one deal)."""

    kind: str
    seats: float
    """Seats this kind holds in the line-up (an int; in a total over compositions, their mean)."""
    value: float
    """Share of games won (Hucklebuck, Deer Park) or mean chips per round per seat (Buck 'Em)."""
    low: float
    high: float
    even: float
    """What the kind would score if every kind were equally strong."""


@dataclass(frozen=True)
class CompositionResult:
    """The results of one composition: one line-up, rotated through every seat."""

    lineup: tuple[str, ...]
    """The kind at each seat in the first rotation."""
    results: tuple[KindResult, ...]


@dataclass(frozen=True)
class TournamentResult:
    """The table of a tournament and everything needed to reproduce it.

    ``results`` is the total over :attr:`compositions` (the only composition
    when the seats divide evenly among the kinds).
    """

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
    compositions: tuple[CompositionResult, ...] = ()
    requested: int = 0
    """The games asked for (``games`` is that rounded up to whole deals)."""
    common_seeds: bool = False
    """Whether a seat's player kept its seed through the rotations (see :func:`bot_seed`)."""
    hands: int = 0
    """A board match (:mod:`hucklebuck.boards`): the boards (hands of the reference games) it
    scored; 0 for a tournament of whole games."""

    def table(self) -> str:
        """The result as a text table (what the command line prints)."""
        lineup = ",".join(self.bots)
        ncomp = max(1, len(self.compositions))
        per_deal = self.players * ncomp
        hand = "round" if self.game is GameKind.BUCKEM else "hand"
        if self.hands:
            size = (
                f"; {self.deals} reference game{'s' if self.deals != 1 else ''} with {self.hands} {hand}s, "
                f"each {hand} played {per_deal} times (once per rotation"
                + (" and composition)" if ncomp > 1 else ")")
                + f" = {self.hands * per_deal} {hand}s"
            )
        else:
            size = (
                f"; {self.deals} deal{'s' if self.deals != 1 else ''} x {self.players} rotations"
                + (f" x {ncomp} compositions" if ncomp > 1 else "")
                + f" = {self.games} games"
                + (f" of {self.rounds} rounds" if self.game is GameKind.BUCKEM else "")
            )
        head = (
            f"{self.game.title}, {self.players} players, line-up {lineup} rotated through every seat"
            + (f" in each of its {ncomp} compositions" if ncomp > 1 else "")
            + (f", scored {hand} by {hand} (a board match)" if self.hands else "")
            + size
            + f"; seed {self.seed}"
            + ("; common seeds" if self.common_seeds else "")
            + f"; core {self.core}"
        )
        if self.options:
            head += "; options " + ", ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        rows = [head]
        if self.requested and self.requested != self.games:
            rows.append(
                f"({self.requested} games asked for, rounded up to whole deals: each deal is played "
                f"{per_deal} times, once per rotation of the seats"
                + (" in each composition)" if ncomp > 1 else ")")
            )
        unit = "reference game" if self.hands else "deal"
        if self.deals < 2:
            rows.append(f"(one {unit}: a confidence interval needs two {unit}s or more)")
        elif self.deals < FEW_DEALS:
            rows.append(
                f"(only {self.deals} {unit}s: the intervals are rough below {FEW_DEALS} {unit}s, and with "
                f"every {unit} alike they have no width at all; play more games for a real interval)"
            )
        sections: list[tuple[str, tuple[KindResult, ...]]] = []
        if ncomp > 1:
            for c in self.compositions:
                sections.append((f"composition {','.join(c.lineup)}", c.results))
            sections.append(("total over the compositions", self.results))
        else:
            sections.append(("", self.results))
        for title, results in sections:
            rows.append("")
            if title:
                rows.append(title)
            rows.append(f"{'kind':<16} {'seats':>5}  {self.metric:>24}  {'95% CI':>20}  {'even':>7}")
            for i, r in enumerate(results):
                ci = "n/a" if math.isnan(r.low) else f"[{r.low:.3f}, {r.high:.3f}]"
                seats = f"{r.seats:>5}" if isinstance(r.seats, int) else f"{r.seats:>5.2f}"
                # Buck 'Em: the chips rows (then the margin rows, see _rows) have no even value
                chips = self.game is GameKind.BUCKEM and not self.hands and i < len(results) // 2
                even = "n/a" if chips else f"{r.even:.3f}"
                rows.append(f"{r.kind:<16} {seats}  {r.value:>24.3f}  {ci:>20}  {even:>7}")
        if ncomp > 1:
            rows.append("")
            rows.append("seats in the total: the kind's mean seats over the compositions")
        if self.hands:
            rows.append("")
            rows.append(_BOARD_NOTE[self.game is GameKind.BUCKEM])
        elif self.game is GameKind.BUCKEM:
            rows.append("")
            rows.append(
                "margin: the kind's chips per round minus the table's mean chips per round per seat "
                "(chips left in the pot at the end leave the table, so every kind's chips can be "
                "below 0; the margin compares the kinds, even is 0)"
            )
        return "\n".join(rows)


@dataclass(frozen=True)
class _Spec:
    game: str
    players: int
    lineups: tuple[tuple[str, ...], ...]
    options: Mapping[str, Any]
    rounds: int
    core: str
    seed: int
    extra: tuple[tuple[str, Any], ...] = ()
    """Custom kinds: (name, factory) pairs, ``factory(seed)`` making a player."""
    common: bool = False
    """Common seeds (see :func:`bot_seed`)."""


def _make_bot(spec: _Spec, name: str, kind: GameKind, seed: int) -> Any:
    for extra_name, factory in spec.extra:
        if extra_name == name:
            return factory(seed)
    if name in SEER_KINDS:
        return make_seer(name, seed=seed)
    return make_player(name, kind, seed=seed)


def compositions(bots: Sequence[str], players: int) -> tuple[tuple[str, ...], ...]:
    """The line-ups a tournament plays: ``bots`` cycled over the seats, and, when the
    seats do not divide evenly among them, also cycled from each later bot in turn
    (so each kind is the majority as often as the others)."""
    k = len(bots)
    starts = [0] if players % k == 0 else range(k)
    out: list[tuple[str, ...]] = []
    for j in starts:
        lineup = tuple(bots[(j + s) % k] for s in range(players))
        if lineup not in out:
            out.append(lineup)
    return tuple(out)


def _deal_seed(seed: int, index: int) -> int:
    digest = hashlib.blake2b(f"hucklebuck-tournament:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def period(lineup: Sequence[str]) -> int:
    """The fewest seats the line-up turns by to come back to itself (``mc,heuristic,mc,heuristic``: 2)."""
    n = len(lineup)
    return next(
        p for p in range(1, n + 1) if n % p == 0 and all(lineup[(s + p) % n] == lineup[s] for s in range(n))
    )


def bot_seed(deal_seed: int, seat: int, rotation: int, lineup: Sequence[str], common: bool) -> int:
    """The seed of the player at ``seat`` in one game of a deal.

    By default every game gets its own seeds.  With ``common`` the seat keeps its seed
    through the rotations that seat a different kind there (the line-up's
    :func:`period`), so two kinds that choose alike play the same game: common random
    numbers.  The rotations that repeat the line-up get fresh seeds.
    """
    step = rotation // period(lineup) if common else rotation
    return (deal_seed + 7919 * seat + step) % (1 << 63)


def _seat_bots(
    spec: _Spec, kind: GameKind, lineup: Sequence[str], seed: int, rotation: int, game: TrickGame[Any, Any]
) -> list[Any]:
    """The players of one rotation of ``lineup``, seeded by :func:`bot_seed`; a seer sits in ``game``."""
    n = spec.players
    bots = [
        _make_bot(spec, lineup[(s + rotation) % n], kind, bot_seed(seed, s, rotation, lineup, spec.common))
        for s in range(n)
    ]
    for bot in bots:
        if isinstance(bot, SeerPlayer):  # it reads every hand from the game (a measuring stick)
            bot.watch(game)
    return bots


def _play_one(spec: _Spec, lineup: tuple[str, ...], deal_seed: int, rotation: int) -> list[float]:
    """One game; the score of each seat (win credit, or chips per round)."""
    kind = GameKind(spec.game)
    n = spec.players
    game: TrickGame[Any, Any] = _GAMES[kind](n, options=dict(spec.options), seed=deal_seed)
    bots = _seat_bots(spec, kind, lineup, deal_seed, rotation, game)
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


def _deal_scores(spec: _Spec, index: int) -> list[list[float]]:
    """Each kind's score on one deal per composition, averaged over every rotation."""
    kinds = _kinds(spec.lineups)
    n = spec.players
    seed = _deal_seed(spec.seed, index)
    out = []
    for lineup in spec.lineups:
        totals = [0.0] * len(kinds)
        for rot in range(n):
            scores = _play_one(spec, lineup, seed, rot)
            for s in range(n):
                totals[kinds.index(lineup[(s + rot) % n])] += scores[s]
        if GameKind(spec.game) is GameKind.BUCKEM:  # chips per round per seat
            seats = [lineup.count(k) for k in kinds]
            out.append([totals[i] / (n * seats[i]) if seats[i] else 0.0 for i in range(len(kinds))])
        else:
            out.append([totals[i] / n for i in range(len(kinds))])
    return out


def _kinds(lineups: Sequence[Sequence[str]]) -> list[str]:
    return list(dict.fromkeys(lineups[0]))


def _chunk_task(deal: Callable[[_Spec, int], T], spec: _Spec, chunk: parallel.Chunk) -> list[T]:
    first = chunk.index * CHUNK_DEALS
    if get_core().name == spec.core:
        return [deal(spec, first + i) for i in range(chunk.size)]
    with using(spec.core):
        return [deal(spec, first + i) for i in range(chunk.size)]


def _run_deals(
    deal: Callable[[_Spec, int], T],
    spec: _Spec,
    deals: int,
    *,
    executor: Any,
    workers: int,
    progress: bool | None,
) -> list[T]:
    """``deal(spec, i)`` for every deal ``i``, in seeded chunks of :data:`CHUNK_DEALS` (see
    :mod:`hucklebuck.parallel`), with progress on stderr if asked (default: a terminal)."""
    chunks = parallel.plan(deals, seed=spec.seed, chunk_size=CHUNK_DEALS)
    show = sys.stderr.isatty() if progress is None else progress
    parts = parallel.run_chunks(
        partial(_chunk_task, deal, spec),
        chunks,
        executor=executor,
        workers=workers,
        progress=ProgressLine("tournament", deals) if show else None,
    )
    return [row for part in parts for row in part]


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, math.nan, math.nan
    var = sum((v - m) ** 2 for v in values) / (len(values) - 1)
    half = _Z95 * math.sqrt(var / len(values))
    return m, m - half, m + half


def _rows(
    kind: GameKind,
    kinds: Sequence[str],
    seats: Sequence[float],
    evens: Sequence[float],
    per_deal: list[list[float]],
) -> list[KindResult]:
    """The result rows of ``kinds`` from their per-deal scores (and the Buck 'Em margins)."""
    results = []
    for i, k in enumerate(kinds):
        m, low, high = _mean_ci([row[i] for row in per_deal])
        if kind is not GameKind.BUCKEM and not math.isnan(low):  # a share lies in [0, 1]
            low, high = max(low, 0.0), min(high, 1.0)
        results.append(KindResult(k, _seat_count(seats[i]), m, low, high, evens[i]))
    if kind is GameKind.BUCKEM:  # margins over the table's mean chips per round per seat
        total = sum(seats)
        table_mean = [sum(row[i] * seats[i] for i in range(len(kinds))) / total for row in per_deal]
        for i, k in enumerate(kinds):
            m, low, high = _mean_ci([row[i] - t for row, t in zip(per_deal, table_mean, strict=True)])
            results.append(KindResult(f"{k} margin", _seat_count(seats[i]), m, low, high, 0.0))
    return results


def _seat_count(x: float) -> float:
    return int(x) if float(x).is_integer() else x


def run_tournament(
    game: GameKind | str,
    *,
    players: int | None = None,
    bots: Sequence[str] = ("mc", "heuristic"),
    games: int = 2000,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    rounds: int = 20,
    workers: int = 1,
    executor: Any = None,
    progress: bool | None = None,
    custom: Mapping[str, Callable[[int], Any]] | None = None,
    common_seeds: bool = False,
) -> TournamentResult:
    """Play a duplicate tournament and return its table.

    ``players`` defaults to :data:`DEFAULT_PLAYERS` (4; Buck 'Em 5; Deer Park
    Euchre takes 8 with ``eight_player_turnup=dealer_last_card``).  ``bots``
    are player kinds (:data:`hucklebuck.players.PLAYER_KINDS`), at most one per
    seat, cycled over the seats; when they do not divide the seats evenly every
    composition is played (see :func:`compositions`).  ``games`` is rounded up
    to whole deals (``players`` games per composition each).  ``options`` the
    game's variant options by name; ``rounds`` the rounds of each Buck 'Em
    game.  ``workers`` threads, or any :class:`concurrent.futures.Executor`
    as ``executor``, run the chunks; ``progress`` (default: when stderr is a
    terminal) reports on stderr.  ``custom`` adds kinds of your own: name ->
    ``factory(seed)`` returning a :class:`~hucklebuck.players.Player` (a
    picklable factory for process pools), which ``bots`` may then name.
    ``common_seeds`` gives the player at each seat the same seed in the
    rotations that seat another kind there (common random numbers, see
    :func:`bot_seed`): two kinds that differ in few choices then play the same
    game until they differ, so a small difference between them shows with
    fewer games; the expected result is the same.  Bad input raises
    :class:`~hucklebuck.errors.OptionsError` naming what is allowed.  Ctrl-C
    raises :class:`TournamentStopped` (a :class:`KeyboardInterrupt`) holding the
    table of the deals finished by then, once at least one has.
    """
    kind, players, lineup_in, opts, lineups, extra = _check_all(
        game, players, bots, games, rounds, seed, options, custom, common_seeds
    )
    per_deal_games = players * len(lineups)
    deals = -(-games // per_deal_games)
    spec = _Spec(kind.value, players, lineups, opts, rounds, get_core().name, seed, extra, common_seeds)
    # deal -> composition -> kind
    try:
        per_deal = _run_deals(
            _deal_scores, spec, deals, executor=executor, workers=workers, progress=progress
        )
    except parallel.Interrupted as stop:  # Ctrl-C: the deals finished so far still make a table
        per_deal = [row for _, part in stop.completed for row in part]
        if not per_deal:
            raise
        played = len(per_deal) * per_deal_games  # as asked: no "rounded up" line for a stopped run
        raise TournamentStopped(
            _whole(kind, players, lineup_in, opts, lineups, spec, per_deal, played, common_seeds)
        ) from None
    return _whole(kind, players, lineup_in, opts, lineups, spec, per_deal, games, common_seeds)


class TournamentStopped(KeyboardInterrupt):
    """Ctrl-C during :func:`run_tournament`: ``result`` is the table of the deals finished by then."""

    def __init__(self, result: TournamentResult) -> None:
        """Stopped with ``result`` (its ``deals`` are those finished)."""
        super().__init__(f"stopped after {result.deals} deals")
        self.result = result


def _whole(
    kind: GameKind, players: int, lineup_in: Sequence[str], opts: Mapping[str, Any],
    lineups: Sequence[tuple[str, ...]], spec: _Spec, per_deal: list[list[list[float]]], games: int,
    common_seeds: bool,
) -> TournamentResult:  # fmt: skip
    """The table of a tournament of whole games from each deal's scores."""
    seed, rounds, deals, per_deal_games = spec.seed, spec.rounds, len(per_deal), players * len(lineups)
    kinds = _kinds(lineups)
    buck = kind is GameKind.BUCKEM
    comps = []
    for c, lineup in enumerate(lineups):
        seats = [lineup.count(k) for k in kinds]
        evens = [0.0 if buck else seats[i] / players for i in range(len(kinds))]
        rows = _rows(kind, kinds, seats, evens, [d[c] for d in per_deal])
        comps.append(CompositionResult(lineup, tuple(rows)))
    nc = len(lineups)
    mean_seats = [sum(lu.count(k) for lu in lineups) / nc for k in kinds]
    evens = [0.0 if buck else mean_seats[i] / players for i in range(len(kinds))]
    totals = [[sum(d[c][i] for c in range(nc)) / nc for i in range(len(kinds))] for d in per_deal]
    results = _rows(kind, kinds, mean_seats, evens, totals)
    return TournamentResult(
        game=kind,
        players=players,
        bots=tuple(lineup_in),
        deals=deals,
        games=deals * per_deal_games,
        seed=seed,
        rounds=rounds,
        options=opts,
        core=spec.core,
        results=tuple(results),
        metric="chips per round" if buck else "share of games won",
        compositions=tuple(comps),
        requested=games,
        common_seeds=common_seeds,
    )
