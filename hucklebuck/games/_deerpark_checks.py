"""Why a Deer Park Euchre bid or discard is refused: the body of
``DeerParkGame._check_action`` (kept apart so the game module stays readable).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action, Call, Discard, Order, Pass
from ..errors import IllegalAction

if TYPE_CHECKING:
    from .deerpark import DeerParkGame

__all__ = ["check_action"]


def check_action(game: DeerParkGame, action: Action) -> None:
    """Raise IllegalAction unless ``action`` (of the right type and seat) is allowed now."""
    seat = action.seat
    if isinstance(action, Order):
        if game._locked(seat):
            raise IllegalAction(
                f"{action}: seat {seat} has {game._scores[seat]} points and may not call trump "
                f"(the {game._options.lock_at} rule)"
            )
    elif isinstance(action, Call):
        if game._stuck(seat):
            return
        if game._locked(seat):
            raise IllegalAction(
                f"{action}: seat {seat} has {game._scores[seat]} points and may not call trump "
                f"(the {game._options.lock_at} rule)"
            )
        if action.suit not in game._callable_suits(seat):
            raise IllegalAction(f"{action}: the turned-down suit may not be named in round 2")
    elif isinstance(action, Pass):
        if game._stuck(seat):
            raise IllegalAction(f"{action}: everyone passed twice, so the dealer must name trump")
    elif isinstance(action, Discard):
        if len(action.cards) != 1:
            raise IllegalAction(f"{action}: the dealer discards exactly one card")
        if not game._hands[seat] & action.cards[0].mask:
            raise IllegalAction(f"{action}: the dealer does not hold {action.cards[0].code}")
