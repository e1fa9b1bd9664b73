"""Scoring a Hucklebuck hand and deciding whether the game is over (S0, S2;
DEF #7-#17, #31, #34).

Functions of a :class:`~hucklebuck.games.hucklebuck.HucklebuckGame`: the score
of each seat after a played hand, recording any hand's result, and the winners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import hucklebuck as _hb
from .base import HandOverEvent, Phase, ScoreEvent

# Phases as module constants: an enum member looked up on its class costs ~60 ns a time.
_HAND_OVER: Final = Phase.HAND_OVER

if TYPE_CHECKING:
    from .hucklebuck import HucklebuckGame


def score_played_hand(game: HucklebuckGame) -> None:
    assert game._play is not None and game._bidder is not None and game._high is not None
    opts = game._options
    delta = [0] * game._n
    reasons = [""] * game._n
    moon_win: int | None = None
    active = tuple(sorted(s for s, k in game._declared.items() if k is not None))
    for s in active:
        t = game._play.won[s]
        if s != game._bidder:
            if t >= 1:
                delta[s], reasons[s] = t, f"stayed and took {_tricks(t)}: +{t} (S0, S2)"
            else:
                delta[s], reasons[s] = -5, "stayed and took no trick: -5 (S0, S2, DEF #10)"
            continue
        bid, prior = game._high, game._scores[s]
        stacks = opts.bidder_zero_trick_penalty_stacks and t == 0
        if bid == 5:
            if t == 5:
                if prior > 0 or (prior == 0 and opts.moon_at_zero is _hb.MoonAtZero.WIN):
                    moon_win = s
                    delta[s] = 5
                    reasons[s] = (
                        "shot the moon from a positive score: wins the game (S0, S2, DEF #15)"
                        if prior > 0
                        else "shot the moon from 0: wins the game (moon_at_zero=win, DEF #12, #15)"
                    )
                elif prior == 0 and opts.moon_at_zero is _hb.MoonAtZero.SCORE_NORMALLY:
                    delta[s] = 5
                    reasons[s] = "shot the moon from 0: scores 5 (moon_at_zero=score_normally, DEF #12)"
                else:
                    delta[s] = -prior
                    reasons[s] = "shot the moon from zero or below: back to 0 (S0, S2, DEF #12)"
            else:
                delta[s] = -20 if stacks else -15
                reasons[s] = f"missed the moon with {_tricks(t)}: {delta[s]} (S0, S2" + (
                    ", stacked penalty, DEF #14)" if stacks else ", DEF #14)"
                )
        elif t >= bid:
            if prior < 0 and opts.in_the_hole_reset_applies_to is _hb.InTheHoleReset.ANY_BID:
                delta[s] = -prior
                reasons[s] = (
                    f"made the bid of {bid} from the hole: back to 0 "
                    "(in_the_hole_reset_applies_to=any_bid, DEF #13)"
                )
            else:
                delta[s] = t
                reasons[s] = f"made the bid of {bid} with {_tricks(t)}: +{t} (S0, DEF #9)"
        else:
            delta[s] = -10 if stacks else -5
            reasons[s] = f"set: bid {bid}, took {t}: {delta[s]} (S0, S2, DEF #7" + (
                ", stacked penalty, DEF #8)" if stacks else ", #8)"
            )
    finish_hand(game, delta, reasons, active=active, winner_by_moon=moon_win)


def finish_hand(
    game: HucklebuckGame,
    delta: list[int],
    reasons: list[str],
    *,
    active: tuple[int, ...],
    winner_by_moon: int | None,
) -> None:
    for s in range(game._n):
        game._scores[s] += delta[s]
        if delta[s] or reasons[s]:
            game._events.append(ScoreEvent(game._hand_no, s, delta[s], reasons[s]))
    for s in range(game._n):  # out at -25 or lower (S0, S2, DEF #16)
        if not game._out[s] and game._scores[s] <= _hb.OUT_AT:
            game._out[s] = True
    out = game.out
    game._events.append(HandOverEvent(game._hand_no, tuple(game._scores), out))
    play = game._play
    game._results = game._results.plus(
        _hb.HandResult(
            hand=game._hand_no,
            dealer=game._dealer,
            bidder=game._bidder,
            bid=game._high,
            trump=game._trump,
            active=active,
            tricks=tuple(play.tricks) if play else (),
            tricks_won=tuple(play.won) if play else (0,) * game._n,
            delta=tuple(delta),
            scores=tuple(game._scores),
            out=out,
            reasons=tuple(reasons),
            restock=tuple(game._restocks),
        ),
    )
    winners, why = _game_end(game, winner_by_moon)
    game._turn = None
    if not all(game._out):
        game._dealer = game._next_seated(game._dealer)  # who deals next (S2, DEF #31)
    if winners:
        game._end_game(winners, why)
    else:
        game._phase = _HAND_OVER


def _game_end(game: HucklebuckGame, moon: int | None) -> tuple[tuple[int, ...], str]:
    """Winners after a hand, checked in order: a winning moon (DEF #15), the
    target (DEF #17, #34), the last survivor (DEF #16)."""
    if moon is not None:
        return (moon,), "moon"
    alive = game._seated()
    target = game._options.target
    at_target = [s for s in alive if game._scores[s] >= target]
    bidder = game._bidder if game._high is not None else None
    if at_target:
        top = max(game._scores[s] for s in at_target)
        tied = [s for s in at_target if game._scores[s] == top]
        tb = game._options.tie_break
        if tb is _hb.TieBreak.HIGHEST_THEN_BIDDER:
            if len(tied) == 1:
                return (tied[0],), "target"
            if bidder is not None and bidder in tied:
                return (bidder,), "target, tie broken for the bidder"
        elif tb is _hb.TieBreak.BIDDER_FIRST:
            if bidder is not None and bidder in at_target:
                return (bidder,), "target, bidder first"
            if len(at_target) == 1:
                return (at_target[0],), "target"
        else:
            return tuple(tied), "target, shared"
    if len(alive) == 1:
        return (alive[0],), "last player not out"
    if not alive:
        top = max(game._scores)
        return tuple(s for s in range(game._n) if game._scores[s] == top), "everyone out: highest score"
    return (), ""


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"
