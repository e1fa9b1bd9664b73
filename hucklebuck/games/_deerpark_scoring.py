"""Scoring a Deer Park Euchre hand and deciding whether the game is over (S4;
DEF #65, #66, #73, #74, #81).

Functions of a :class:`~hucklebuck.games.deerpark.DeerParkGame`: each seat's
score change after the five tricks, the hand's result, and the winners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import deerpark as _dp
from .base import HandOverEvent, Phase, ScoreEvent, build_frozen

# Phases as module constants: an enum member looked up on its class costs ~60 ns a time.
_HAND_OVER: Final = Phase.HAND_OVER
_new: Final = object.__new__

if TYPE_CHECKING:
    from .deerpark import DeerParkGame


def _reason(is_maker: bool, need: int, t: int, counted: bool) -> tuple[int, str]:
    """A seat's score change and its reason, for the maker or a defender who needed ``need``
    tricks and took ``t`` (``counted``: the option failed_contract_tricks_count)."""
    role = "the maker" if is_maker else "a defender"
    if t >= need:
        return -t, f"{role} needed {need} and took {t}: -{t} (S4, DEF #65)"
    if is_maker and counted:
        return (
            5 - t,
            f"the maker needed {need} and took {t}: +5 - {t} (failed_contract_tricks_count, DEF #66)",
        )
    # a failing maker's +5 is DEF #66's choice; a defender's +5 for no trick is S4's own rule
    cite = "DEF #66" if is_maker else "DEF #65"
    return 5, f"{role} needed {need} and took {t}: +5 (S4, {cite})"


_SCORES: dict[tuple[int, int, int, tuple[int, ...], bool], tuple[tuple[int, ...], tuple[str, ...]]] = {}
"""Each (players, maker, tricks needed, tricks won by seat, option) seen lately: every seat's
(score change, reason); cleared when it holds :data:`_MOST` (a few thousand exist per player count)."""
_SEAT: dict[tuple[bool, int, int, bool], tuple[int, str]] = {}
"""Each (maker or not, tricks needed, tricks taken, option): one seat's (score change, reason)."""
_EVENTS: dict[tuple[int, tuple[int, int, int, tuple[int, ...], bool]], tuple[ScoreEvent, ...]] = {}
"""Each (hand number, key of :data:`_SCORES`) seen lately: the hand's ScoreEvents, shared (they are
immutable, like the interned actions); cleared when it holds :data:`_MOST`."""
_MOST: Final = 4096


def _changes(
    n: int, maker: int, requirement: int, won: tuple[int, ...], counted: bool
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Every seat's score change and its reason (cached: the same tricks score the same)."""
    key = (n, maker, requirement, won, counted)
    hit = _SCORES.get(key)
    if hit is None:
        parts = []
        for s in range(n):
            seat_key = (s == maker, requirement if s == maker else 1, won[s], counted)
            part = _SEAT.get(seat_key)
            if part is None:
                part = _SEAT[seat_key] = _reason(*seat_key)
            parts.append(part)
        if len(_SCORES) >= _MOST:
            _SCORES.clear()
        hit = _SCORES[key] = (tuple(p[0] for p in parts), tuple(p[1] for p in parts))
    return hit


def _score_events(
    hand: int,
    key: tuple[int, int, int, tuple[int, ...], bool],
    delta: tuple[int, ...],
    reasons: tuple[str, ...],
) -> tuple[ScoreEvent, ...]:
    """Each seat's ScoreEvent of a hand scored as ``key`` says (built once per hand number and key)."""
    events = _EVENTS.get((hand, key))
    if events is None:
        built = []
        for s in range(len(delta)):
            # build_frozen, written out: every field is already right
            event = _new(ScoreEvent)
            event.__dict__.update(hand=hand, seat=s, delta=delta[s], reason=reasons[s])
            built.append(event)
        if len(_EVENTS) >= _MOST:
            _EVENTS.clear()
        events = _EVENTS[(hand, key)] = tuple(built)
    return events


def score_played_hand(game: DeerParkGame) -> None:
    """Score the five tricks just played, record the result, and end the hand or the game."""
    assert game._play is not None and game._maker is not None and game._requirement is not None
    assert game._trump is not None and game._turned is not None
    opts = game._options
    n = game._n
    play = game._play
    won = tuple(play.won)
    maker, requirement, counted = game._maker, game._requirement, opts.failed_contract_tricks_count
    delta, reasons = _changes(n, maker, requirement, won, counted)
    # The records below are built with build_frozen: every field is already right, and a
    # frozen dataclass's own __init__ would cost more than the rest of the scoring.
    hand = game._hand_no
    events = game._events
    events.extend(_score_events(hand, (n, maker, requirement, won, counted), delta, reasons))
    score_list, lock_at, ever = game._scores, opts.lock_at, game._ever_locked
    for s in range(n):
        score_list[s] += delta[s]
        if score_list[s] >= lock_at:
            ever[s] = True
    scores = tuple(score_list)
    events.append(build_frozen(HandOverEvent, {"hand": hand, "scores": scores, "out": ()}))
    game._results = game._results.plus(
        build_frozen(
            _dp.DeerParkHandResult,
            {
                "hand": hand,
                "dealer": game._dealer,
                "turned": game._turned,
                "maker": maker,
                "requirement": requirement,
                "trump": game._trump,
                "tricks": tuple(play.tricks),
                "tricks_won": won,
                "delta": delta,
                "scores": scores,
                "reasons": reasons,
            },
        ),
    )
    winners, why = game._game_end()
    game._turn = None
    game._dealer = (game._dealer + 1) % n  # who deals next (DEF #81)
    if winners:
        game._end_game(winners, why)
    else:
        game._phase = _HAND_OVER


def game_end(game: DeerParkGame) -> tuple[tuple[int, ...], str]:
    """Winners after a hand (S4, DEF #73, #74): the one past a goal, else the farthest past, else
    the tie-break."""
    scores = game._scores
    if _dp.LOW_GOAL < min(scores) and max(scores) < _dp.HIGH_GOAL:
        return (), ""  # the usual case, found with C-level calls

    def distance(s: int) -> int:
        sc = game._scores[s]
        return _dp.LOW_GOAL - sc if sc <= _dp.LOW_GOAL else sc - _dp.HIGH_GOAL
    reached = [s for s in range(game._n) if scores[s] <= _dp.LOW_GOAL or scores[s] >= _dp.HIGH_GOAL]
    if not reached:
        return (), ""
    if len(reached) == 1:
        return (reached[0],), "goal reached"
    far = max(distance(s) for s in reached)
    best = [s for s in reached if distance(s) == far]
    if len(best) == 1:
        return (best[0],), "goal reached, farthest past it"
    if game._options.tie_break is _dp.DeerParkTieBreak.SHARED:
        return tuple(best), "goal reached, shared"
    if game._maker is not None and game._maker in best:
        return (game._maker,), "goal reached, tie broken for the maker"
    return (), ""
