"""The agent-facing half of every game: integer actions, observation tensors and returns.

:class:`AgentAPI` is a base class of :class:`~hucklebuck.games.engine.TrickGame`
(kept apart so the engine module stays readable); its methods are documented
with each game class.  Ids are defined in :mod:`hucklebuck.games.ids`, tensor
layouts in :mod:`hucklebuck.games.tensors`.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final

from .. import _fast
from ..actions import Action, Play, parse_action
from ..errors import IllegalAction
from ..packs import GameKind
from . import ids as _ids
from . import tensors as _tensors
from .base import Phase, TrickPlay

__all__ = ["AgentAPI"]

# Phases as module constants: an enum member looked up on its class costs ~60 ns a time.
_GAME_OVER: Final = Phase.GAME_OVER
_PLAY: Final = Phase.PLAY
_PLAY_IDS: Final = _ids.PLAY_IDS
_PLAYS: Final = _ids.PLAYS
_NUMBERS: Final = tuple(range(52))
_NUM_ACTIONS: Final = _ids.NUM_ACTIONS


# The compiled helper (hucklebuck._fast): the items at a mask's set bits in one call; None
# until the compiled module is loaded (and for a call it does not take), then the loop runs.
_pick: Callable[[int, tuple[Any, ...]], list[Any] | None] | None = None
# The compiled legal play of an id (see engine._c_play): True when applied, None for anything else.
_c_play_id: Callable[[object, object], bool | None] | None = None
# The compiled legal plays of the play phase (see engine._c_legal): the ids, or None for anything else.
_c_legal: Callable[[object, bool], list[int] | None] | None = None


def _link_calls() -> None:
    """Take the compiled helper once it is loaded (see :mod:`hucklebuck._fast`)."""
    global _pick, _c_play_id, _c_legal
    if _fast.ext is not None:
        _pick, _c_play_id = _fast.ext.pick, _fast.ext.play_id
        _c_legal = getattr(_fast.ext, "legal", None)


_link_calls()


class AgentAPI:
    """Integer actions, tensors and returns of a game (a base class of every game)."""

    if TYPE_CHECKING:  # what the methods below use of the game (set by TrickGame)
        kind: ClassVar[GameKind]
        _n: int
        _phase: Phase
        _play: TrickPlay | None
        _play_shared: bool
        _hands: list[int]
        _actions: list[Action]
        _events: list[Any]
        _hand_start: tuple[int, ...]
        _winners: tuple[int, ...]

        @property
        def to_act(self) -> int | None: ...

        @property
        def standings(self) -> tuple[int, ...]: ...

        def apply(self, action: Action | str) -> None: ...

        def _legal_in_phase(self, seat: int) -> list[Action]: ...

        def _do_action(self, action: Action) -> None: ...

        @classmethod
        def _accepted(cls) -> tuple[type, ...]: ...

        def _check_seat(self, seat: object, what: str) -> None: ...

        def _quick_play(self, action: Play) -> bool: ...

    # -------------------------------------------------------- integer actions
    def num_distinct_actions(self) -> int:
        """The size of this game's action-id space (see :mod:`hucklebuck.games.ids`).

        Fixed per game: the same for every player count and option.
        """
        return _ids.NUM_ACTIONS[self.kind]

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`, sorted ascending (empty when nobody acts)."""
        if _c_legal is not None:  # the play phase in one compiled call (None for anything else)
            found_c: list[int] | None = _c_legal(self, False)
            if found_c is not None:
                return found_c
        if self._phase is _PLAY:
            play = self._play
            assert play is not None
            mask = self._hands[play.seats[len(play.current)]]
            if play.current:
                mask = mask & play.suit_masks[play.suit_of[play.current[0]._index]] or mask
            if _pick is not None:
                found: list[int] | None = _pick(mask, _NUMBERS)
                if found is not None:
                    return found
            out = []
            while mask:
                low = mask & -mask
                out.append(low.bit_length() - 1)
                mask ^= low
            return out
        seat = self.to_act
        if seat is None:
            return []
        ids = self._legal_ids_in_phase(seat)
        if ids is not None:
            return ids
        hand = self._hands[seat]
        return sorted(_ids.action_id(self.kind, a, hand) for a in self._legal_in_phase(seat))

    def _legal_ids_in_phase(self, seat: int) -> list[int] | None:
        """The legal ids of ``seat`` in this (non-play) phase when a game knows them
        without listing the actions; None to derive them from :meth:`_legal_in_phase`."""
        return None

    def action_id(self, action: Action | str) -> int:
        """The id of ``action`` (typed or protocol text) for the seat it names, in this state.

        Discard and draw ids depend on that seat's hand now.  Raises
        :class:`~hucklebuck.errors.IllegalAction` for an action this game does
        not have or cards the seat does not hold; legality is not checked
        otherwise (see :meth:`is_legal`).
        """
        if isinstance(action, str):
            action = parse_action(self.kind, action)
        if not isinstance(action, self._accepted()):
            raise IllegalAction(f"{action!r} is not a {self.kind.title} action")
        hand = self._hands[action.seat] if action.seat < self._n else 0
        return _ids.action_id(self.kind, action, hand)

    def _nobody_acts(self, i: int) -> IllegalAction:
        if self._phase is _GAME_OVER:
            return IllegalAction(f"action id {i}: the game is over")
        return IllegalAction(f"action id {i}: the hand is over; deal the next hand first")

    def action_from_id(self, i: int) -> Action:
        """The typed action of id ``i`` for the seat to act now.

        Raises :class:`~hucklebuck.errors.ActionParseError` for an id outside
        ``0 .. num_distinct_actions() - 1`` and
        :class:`~hucklebuck.errors.IllegalAction` when nobody acts.  The action
        need not be legal (:meth:`apply_id` checks).
        """
        i = _ids.check_id(self.kind, i)
        seat = self.to_act
        if seat is None:
            raise self._nobody_acts(i)
        return _ids.action_from_id(self.kind, i, seat, self._hands[seat])

    def apply_id(self, i: int) -> None:
        """Apply the action of id ``i`` for the seat to act.

        An id the rules forbid raises the same :class:`~hucklebuck.errors.IllegalAction`
        (same message) as the typed action would; an id out of range raises
        :class:`~hucklebuck.errors.ActionParseError`.  State is unchanged on error.
        """
        if _c_play_id is not None and _c_play_id(self, i):
            return  # a legal play, in one compiled call
        if self._phase is _PLAY and type(i) is int and 0 <= i < _PLAY_IDS:
            play = self._play
            assert play is not None
            action = _PLAYS[play.seats[len(play.current)]][i]
            if self._quick_play(action):
                return
            self.apply(action)  # raises the typed action's error
            raise AssertionError("unreachable")  # pragma: no cover
        kind = self.kind
        if type(i) is not int or not 0 <= i < _NUM_ACTIONS[kind]:  # the full check off the usual case
            i = _ids.check_id(kind, i)
        to_act = self.to_act
        if to_act is None:
            raise self._nobody_acts(i)
        chosen = _ids.action_from_id(kind, i, to_act, self._hands[to_act])
        legal = self._legal_ids_in_phase(to_act) if self._phase is not _PLAY else None
        if legal is not None and i in legal:  # legal by the phase's own list: no second check
            self._actions.append(chosen)
            self._events.append(chosen)
            self._do_action(chosen)
            return
        self.apply(chosen)  # the checked path: applies it, or says why it is refused

    # ---------------------------------------------------- tensors and returns
    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`observation_tensor`: ``(length,)``, fixed per game and
        player count (see :mod:`hucklebuck.games.tensors` for the layout)."""
        return (_tensors.layout(self.kind, self._n).size,)

    def observation_tensor(self, seat: int) -> array[float]:
        """What ``seat`` may know now as a flat float32 :class:`array.array` (layout in
        :mod:`hucklebuck.games.tensors`); never shows a card the seat may not see.

        ``tensor.tolist()`` gives a list; NumPy views it without a copy
        (``numpy.frombuffer(tensor, dtype=numpy.float32)``).
        """
        if type(seat) is not int or not 0 <= seat < self._n:  # the full check only off the fast path
            self._check_seat(seat, "seat")
        game: Any = self
        return _tensors.observation_tensor(game, seat)

    def hand_returns(self) -> tuple[float, ...]:
        """Per seat, how :attr:`standings` changed in the current hand: the standings
        now minus those just before it was dealt (Buck 'Em's ante included).

        Mid-hand this is 0 (Buck 'Em: minus the ante); once the hand is scored
        (``HAND_OVER`` or ``GAME_OVER``) it is the hand's score change.  In Deer Park
        Euchre a player wins at 0 or at 50, so a score change there is not a
        reward in itself.
        """
        return tuple(float(a - b) for a, b in zip(self.standings, self._hand_start, strict=True))

    def returns(self) -> tuple[float, ...]:
        """Per seat, the reward of the whole game: 0.0 for everyone until the game is
        over, then 1.0 for each winner and 0.0 for the others.

        Buck 'Em overrides this (a session has no end; see its :meth:`returns`).
        """
        if self._phase is not _GAME_OVER:
            return (0.0,) * self._n
        won = set(self._winners)
        return tuple(1.0 if s in won else 0.0 for s in range(self._n))
