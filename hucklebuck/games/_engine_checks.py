"""Why an action is refused: the checks of :meth:`hucklebuck.games.engine.TrickGame._check`
(kept apart so the engine module stays readable).

:func:`check` raises :class:`~hucklebuck.errors.IllegalAction` with the reason, in the
player's words, for an action that is not legal now, and changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..actions import Action, Play
from ..cards import Suit
from ..errors import IllegalAction
from .base import Phase

if TYPE_CHECKING:
    from .engine import TrickGame

__all__ = ["check"]

_GAME_OVER: Final = Phase.GAME_OVER
_HAND_OVER: Final = Phase.HAND_OVER


def check(game: TrickGame[Any, Any], action: Action) -> None:
    """Raise IllegalAction if ``action`` is not legal in ``game`` now; never changes state."""
    phase = game._phase
    if phase is _GAME_OVER:
        raise IllegalAction(f"{action}: the game is over")
    if phase is _HAND_OVER:
        raise IllegalAction(f"{action}: the hand is over; deal the next hand first")
    seat = game.to_act
    if action.seat != seat:
        raise IllegalAction(f"{action}: it is seat {seat}'s turn, not seat {action.seat}'s")
    expected = game.phase_actions[phase]
    if not isinstance(action, expected):
        names = " or ".join(getattr(cls, "verb", cls.__name__) for cls in expected)
        raise IllegalAction(f"{action}: in the {phase.value} phase seat {seat} must {names}")
    if isinstance(action, Play):
        held = game._hands[action.seat]
        if not held & action.card.mask:
            raise IllegalAction(f"{action}: seat {action.seat} does not hold {action.card.code}")
        assert game._play is not None
        if not game._play.legal_mask(held) & action.card.mask:
            raise IllegalAction(
                f"{action}: seat {action.seat} must follow the suit led ({led_description(game)})"
            )
        return
    game._check_action(action)


def led_description(game: TrickGame[Any, Any]) -> str:
    """The card led in the current trick and the suit it asks for (the left bower's trump said)."""
    assert game._play is not None and game.trump is not None
    led = game._play.current[0]
    from .._core import get_core

    suits, _ = get_core().rules(game.kind.core_id, int(game.trump))
    suit = Suit(suits[led.index])
    extra = " (the left bower counts as trump)" if suit is not led.suit else ""
    return f"{led.code} was led: {suit.name.lower()}{extra}"
