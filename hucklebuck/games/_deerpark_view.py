"""What one seat of a Deer Park Euchre game may know: the body of
:meth:`hucklebuck.games.deerpark.DeerParkGame.observation` (kept apart so the game module
stays readable).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import deerpark as _dp

if TYPE_CHECKING:
    from .deerpark import DeerParkGame, DeerParkObservation

__all__ = ["observe"]


def observe(game: DeerParkGame, seat: int | None) -> DeerParkObservation:
    """What ``seat`` may know now; ``None``: what an onlooker may know."""
    if type(seat) is not int or not 0 <= seat < game._n:  # the full check only off the fast path
        game._check_viewer(seat)
    history, private = game._public_history()
    if private:  # the dealer's discard: others see only that one card went
        texts = list(history)
        for i in private:
            a = game._actions[i]
            if a.seat != seat:
                texts[i] = f"{a.seat} discard 1 card"
        history = tuple(texts)
    assert game._turned is not None
    opts = game._options
    lock_at, permanent, ever = opts.lock_at, opts.lock_permanent, game._ever_locked
    scores = game._scores
    observation: DeerParkObservation = game._observe(
        _dp.DeerParkObservation if seat is not None else _dp.DeerParkOnlookerObservation,
        seat,
        history,
        {
            "scores": tuple(scores),
            "turned": game._turned,
            "maker": game._maker,
            "requirement": game._requirement,
            "locked": ()  # the usual case, found with C-level calls
            if max(scores) < lock_at and not (permanent and True in ever)
            else tuple([s for s in range(game._n) if scores[s] >= lock_at or (permanent and ever[s])]),
        },
    )
    return observation
