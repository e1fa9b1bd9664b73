"""What every game shows: the tricks of the hand, a seat's cards, and the fields every
game's observation shares.

:class:`ShownGame` is a base class of :class:`~hucklebuck.games.engine.TrickGame`
(kept apart so the engine module stays readable); its members are documented with
each game class.  What a seat may know is decided by each game's ``observation``;
this part only assembles the fields every game shares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeVar

from ..actions import Action
from ..cards import Card, CardSet, Suit
from .base import DealEvent, Phase, Trick, TrickPlay, build_frozen

__all__ = ["ShownGame"]

_GAME_OVER: Final = Phase.GAME_OVER
_HAND_OVER: Final = Phase.HAND_OVER
T = TypeVar("T")


class ShownGame:
    """The tricks, the hands and the shared observation fields of a game (a base class of
    every game class)."""

    if TYPE_CHECKING:  # what the members below use of the game (set by TrickGame)
        _n: int
        _hand_no: int
        _phase: Phase
        _play: TrickPlay | None
        _hands: list[int]
        _winners: tuple[int, ...]
        _options: Any
        _events: list[Any]

        @property
        def to_act(self) -> int | None: ...

        @property
        def dealer(self) -> int: ...

        @property
        def trump(self) -> Suit | None: ...

        def legal_actions(self) -> list[Action]: ...

        def _check_seat(self, seat: object, what: str) -> None: ...

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks of the current hand."""
        return tuple(self._play.tricks) if self._play else ()

    @property
    def current_trick(self) -> tuple[Card, ...]:
        """Cards played to the trick in progress, leader first."""
        return tuple(self._play.current) if self._play else ()

    @property
    def trick_leader(self) -> int | None:
        """Who leads (or led) the trick in progress."""
        return self._play.leader if self._play else None

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks won per seat in the current hand."""
        return tuple(self._play.won) if self._play else (0,) * self._n

    def _check_viewer(self, seat: object) -> None:
        """``seat`` must be a seat of this game or ``None`` (an onlooker)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self._n):
            self._check_seat(seat, "seat")  # (the full check, with its reason, off the usual path)

    def _hand_sizes(self, seat: int | None) -> tuple[int, ...]:
        """How many cards each seat holds, as ``seat`` may know it (counts are public)."""
        return tuple(map(int.bit_count, self._hands))

    def _observe(self, cls: type[T], seat: int | None, history: tuple[str, ...], fields: dict[str, Any]) -> T:
        """An observation of type ``cls`` for ``seat`` (``None``: an onlooker): the
        fields every game shares (seat, phase, turn, legal actions, hand, card
        counts, dealer, trump, history, tricks, the end of the game, options)
        plus the game's own ``fields``."""
        to_act = self.to_act
        play = self._play
        fields["seat"] = seat
        fields["phase"] = self._phase
        fields["to_act"] = to_act
        fields["legal_actions"] = tuple(self.legal_actions()) if to_act == seat and seat is not None else ()
        fields["hand"] = CardSet.from_mask(self._hands[seat]) if seat is not None else CardSet()
        fields["hand_sizes"] = self._hand_sizes(seat)
        fields["game_over"] = self._phase is _GAME_OVER
        fields["winners"] = self._winners
        fields["hand_number"] = self._hand_no
        fields["dealer"] = self._view_dealer()
        fields["trump"] = self.trump
        fields["history"] = history
        fields["current_trick"] = tuple(play.current) if play else ()
        fields["trick_leader"] = play.leader if play else None
        fields["tricks"] = tuple(play.tricks) if play else ()
        fields["tricks_won"] = tuple(play.won) if play else (0,) * self._n
        fields["options"] = self._options
        return build_frozen(cls, fields)

    def _view_dealer(self) -> int:
        """The dealer of the hand a view describes: the hand in play, or once a hand
        is scored (``hand_over``, ``game_over``) the hand just scored, where
        :attr:`dealer` already names who deals next."""
        if self._phase is _HAND_OVER or self._phase is _GAME_OVER:
            events = self._events
            if events and type(events[0]) is DealEvent:
                return int(events[0].dealer)
        return int(self.dealer)

    def _common_zones(self) -> dict[str, CardSet]:
        """``hands`` (all seats together) and ``played`` (this hand's tricks, the current one included)."""
        played: list[Card] = []
        if self._play is not None:
            for t in self._play.tricks:
                played.extend(t.cards)
            played.extend(self._play.current)
        hands = 0
        for h in self._hands:
            hands |= h
        return {"hands": CardSet.from_mask(hands), "played": CardSet(played)}

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now."""
        self._check_seat(seat, "seat")
        return CardSet.from_mask(self._hands[seat])
