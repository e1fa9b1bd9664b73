"""Board matches: a duplicate tournament scored hand by hand, in the game's value.

A whole game of Deer Park Euchre lasts a dozen hands or more, and who wins it
turns on all of them: a small difference between two players (a feature on or
off) is lost in that luck, and showing a gain of one point in a hundred games
takes tens of thousands of games.  Bridge has long scored its matches by the
*board* instead: every deal is played at two tables with the line-ups swapped,
and each board is scored on its own.  A board match does the same for these
games:

* Each *deal* is one **reference game**, played from its seed.  At the start of
  each of its hands the standing (every seat's score or chips, the dealer) and
  the cards of that hand make a **board**.
* The board is played once per rotation of the line-up through the seats (and
  per composition, as in :mod:`hucklebuck.tournament`), each time from the same
  standing with the same cards, to the end of the hand.
* Each seat's **gain** is what the hand did to its value: its chance of winning
  the game after the hand minus before it, by the game-value model
  (:func:`hucklebuck.players.value.win_probabilities`; 1, 0 or a share of a tie
  when the hand ends the game), in percentage points; in Buck 'Em the chips it
  won or paid in the round plus its share of what the pot gained (one seat's of
  the pot that carries over, as :func:`~hucklebuck.players.value.buckem_value`
  counts it).
* A kind scores, per board, the mean gain of its seats over the table's mean
  gain, averaged over the rotations.  Every kind sits in every seat equally
  often, so two equal kinds score 0 in expectation: **even is 0**.
* The reference game then goes on from the board's first rotation, so the
  boards come from the standings real games between these kinds reach.

The result is a kind's gain **per hand**, the sum of its boards over the number
of boards; its 95 % interval treats each reference game as one observation (a
ratio estimate: the boards of one game share its standings), so it needs two
deals or more.  It measures what a whole-game tournament does: along any game a
seat's gains add up to its result (its value at the end is 1, 0 or its share of
the win) minus its value at the start, whatever the model's accuracy, so a
kind's gain per hand, times its seats and the hands of a game, estimates its
share of the games won over even.  What it adds is that each hand is compared on the
same cards from the same standing: in Deer Park Euchre at four players, for
the same work, its interval on that share is about 0.7 times as wide as the
whole games' (half the variance).

>>> t = run_board_match("deerpark", players=4, bots=("heuristic", "random"), games=8, seed=1)
>>> [r.kind for r in t.results], t.hands > 8
(['heuristic', 'random'], True)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import parallel
from ._core import get_core
from ._tournament_check import check_all as _check_all
from .games.base import Phase
from .games.engine import TrickGame
from .packs import GameKind
from .players.value import win_probabilities
from .tournament import (
    _GAMES,
    _Z95,
    MAX_HANDS,
    CompositionResult,
    KindResult,
    TournamentResult,
    TournamentStopped,
    _deal_seed,
    _kinds,
    _run_deals,
    _seat_bots,
    _seat_count,
    _Spec,
)

__all__ = ["board_values", "ratio_ci", "run_board_match"]


def board_values(game: TrickGame[Any, Any]) -> list[float]:
    """Hucklebuck, Deer Park Euchre: every seat's chance of winning ``game`` now.

    When the game is over, a winner's share of the win (1, or a share of a tie)
    and 0 for the others; otherwise the game-value model's chance from the
    scores (and, in Hucklebuck, the seats out of the game and the target).
    """
    n = game.players
    kind = game.kind
    if game.phase is Phase.GAME_OVER:
        w = tuple(game.winners)
        return [1.0 / len(w) if s in w else 0.0 for s in range(n)] if w else [1.0 / n] * n
    if kind is GameKind.HUCKLEBUCK:
        g: Any = game
        return list(win_probabilities(kind, g.scores, out=g.out, target=g.options.target))
    return list(win_probabilities(kind, game.standings))


def _gains(kind: GameKind, before: TrickGame[Any, Any], after: TrickGame[Any, Any]) -> list[float]:
    """Each seat's gain from one board: points of the chance to win, or Buck 'Em chips."""
    n = before.players
    if kind is GameKind.BUCKEM:
        b: Any = before
        a: Any = after
        pot = (a.pot - b.pot) / n
        return [a.bankrolls[s] - b.bankrolls[s] + pot for s in range(n)]
    v0, v1 = board_values(before), board_values(after)
    return [100.0 * (v1[s] - v0[s]) for s in range(n)]


def _board_seed(deal_seed: int, hand: int) -> int:
    digest = hashlib.blake2b(f"hucklebuck-board:{deal_seed}:{hand}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _play_board(
    spec: _Spec, kind: GameKind, game: TrickGame[Any, Any], lineup: tuple[str, ...], rot: int, seed: int
) -> TrickGame[Any, Any]:
    """``game`` (at the start of a hand) played to the end of that hand by the rotated line-up."""
    bots = _seat_bots(spec, kind, lineup, seed, rot, game)
    while game.phase is not Phase.HAND_OVER and game.phase is not Phase.GAME_OVER:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.observation(seat)))
    return game


def deal_boards(spec: _Spec, index: int) -> tuple[list[list[float]], int]:
    """One reference game's boards: per composition, each kind's summed board scores; and the boards."""
    kind = GameKind(spec.game)
    n = spec.players
    kinds = _kinds(spec.lineups)
    seed = _deal_seed(spec.seed, index)
    limit = spec.rounds if kind is GameKind.BUCKEM else MAX_HANDS
    game: TrickGame[Any, Any] = _GAMES[kind](n, options=dict(spec.options), seed=seed)
    sums = [[0.0] * len(kinds) for _ in spec.lineups]
    boards = 0
    while True:
        if boards:  # the first hand is dealt by the game itself
            game.next_hand()
        bseed = _board_seed(seed, boards)
        reference = None
        for c, lineup in enumerate(spec.lineups):
            for rot in range(n):
                after = _play_board(spec, kind, game.copy(), lineup, rot, bseed)
                gains = _gains(kind, game, after)
                mean = sum(gains) / n
                for k, name in enumerate(kinds):
                    seats = [s for s in range(n) if lineup[(s + rot) % n] == name]
                    if seats:
                        sums[c][k] += sum(gains[s] - mean for s in seats) / (len(seats) * n)
                if reference is None:
                    reference = after
        boards += 1
        assert reference is not None
        game = reference
        if game.phase is Phase.GAME_OVER or game.hand_number >= limit:
            return sums, boards


def ratio_ci(sums: Sequence[float], counts: Sequence[int]) -> tuple[float, float, float]:
    """``Σ sums / Σ counts`` and its 95 % interval, each (sum, count) pair one observation.

    The interval is the ratio estimator's (the delta method): ``r ± 1.96 · sd(sum − r · count)
    / (mean count · √n)``; with fewer than two observations it is ``nan``, and with no
    observations (or counts summing to 0) the ratio is ``nan`` too.
    """
    total = sum(counts)
    if not total:
        return math.nan, math.nan, math.nan
    r = sum(sums) / total
    m = len(sums)
    if m < 2:
        return r, math.nan, math.nan
    resid = [x - r * c for x, c in zip(sums, counts, strict=True)]
    mr = sum(resid) / m
    var = sum((e - mr) ** 2 for e in resid) / (m - 1)
    half = _Z95 * math.sqrt(var / m) / (total / m)
    return r, r - half, r + half


def run_board_match(
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
    """Play a board match and return its table (a :class:`~hucklebuck.tournament.TournamentResult`).

    The arguments are :func:`~hucklebuck.tournament.run_tournament`'s: ``games``
    is rounded up to whole deals as there (each deal one reference game, each of
    its hands played once per rotation and composition, so a board match costs
    about what a tournament of as many games does).  Each kind's value is its
    gain per hand (see the module docs): percentage points of the chance of
    winning the game, or Buck 'Em chips per round; even is 0.
    """
    kind, players, lineup_in, opts, lineups, extra = _check_all(
        game, players, bots, games, rounds, seed, options, custom, common_seeds
    )
    per_deal = players * len(lineups)
    deals = -(-games // per_deal)
    spec = _Spec(kind.value, players, lineups, opts, rounds, get_core().name, seed, extra, common_seeds)
    # deal -> (composition -> kind -> summed scores, boards)
    try:
        per = _run_deals(deal_boards, spec, deals, executor=executor, workers=workers, progress=progress)
    except parallel.Interrupted as stop:  # Ctrl-C: the deals finished so far still make a table
        per = [row for _, part in stop.completed for row in part]
        if not per:
            raise
        deals = games = len(per)  # as asked: no "rounded up" line for a stopped run
        games *= per_deal
        stopped = True
    else:
        stopped = False
    kinds = _kinds(lineups)
    counts = [b for _, b in per]
    comps = []
    for c, lineup in enumerate(lineups):
        rows = []
        for k, name in enumerate(kinds):
            m, low, high = ratio_ci([d[c][k] for d, _ in per], counts)
            rows.append(KindResult(name, lineup.count(name), m, low, high, 0.0))
        comps.append(CompositionResult(lineup, tuple(rows)))
    nc = len(lineups)
    totals = []
    for k, name in enumerate(kinds):
        m, low, high = ratio_ci([sum(d[c][k] for c in range(nc)) / nc for d, _ in per], counts)
        seats = _seat_count(sum(lu.count(name) for lu in lineups) / nc)
        totals.append(KindResult(name, seats, m, low, high, 0.0))
    buck = kind is GameKind.BUCKEM
    result = TournamentResult(
        game=kind,
        players=players,
        bots=tuple(lineup_in),
        deals=deals,
        games=deals * per_deal,
        seed=seed,
        rounds=rounds,
        options=opts,
        core=spec.core,
        results=tuple(totals),
        metric="chips gained per round" if buck else "points gained per hand",
        compositions=tuple(comps),
        requested=games,
        common_seeds=common_seeds,
        hands=sum(counts),
    )
    if stopped:
        raise TournamentStopped(result)
    return result
