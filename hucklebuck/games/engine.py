"""The state machine all three games share.

A game is a sequence of hands.  Each hand is dealt (from the game's random
source or from an explicit deal), then driven by typed actions until it is
scored.  A game built from a seed deals its first hand on first use, not in
its constructor (as OpenSpiel's new state is dealt by later chance actions):
it deals the same cards, and a new game costs no shuffle until it is looked at.
:class:`TrickGame` owns everything that does not depend on the game's
rules: turn and phase checks before an action is applied, the event log, the
record of deals and actions, the five tricks, cheap copies and the JSON form.
A game class supplies its phases, its legal actions and its scoring.
"""

from __future__ import annotations

import abc
import copy
import operator
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, Protocol, TypeVar

from .. import _fast
from ..actions import Action, Play, parse_action
from ..cards import Card, CardSet, Suit
from ..errors import DealError, HucklebuckError, IllegalAction, OptionsError, SeatError
from ..packs import GameKind
from . import _engine_checks as _checks
from . import ids as _ids
from ._agent_api import AgentAPI
from ._lazy_deal import pending_class, real_class
from ._saved import SavedGame
from ._shown import ShownGame
from .base import (
    HAND_SIZE,
    ActionEvent,
    DealEvent,
    Event,
    GameOverEvent,
    HandOverEvent,
    Phase,
    RestockEvent,
    ScoreEvent,
    Trick,
    TrickEvent,
    TrickPlay,
    build_frozen,
)
from .history import History
from .options import OptionsBase

__all__ = ["DealLike", "TrickGame"]

# Phases as module constants: an enum member looked up on its class costs ~60 ns a time.
_GAME_OVER: Final = Phase.GAME_OVER
_HAND_OVER: Final = Phase.HAND_OVER
_PLAY: Final = Phase.PLAY
_new: Final = object.__new__
_BIT: Final = tuple(1 << i for i in range(52)).__getitem__
_card_index: Final = operator.attrgetter("_index")


# The compiled helper (hucklebuck._fast): the items at a mask's set bits in one call; None
# until the compiled module is loaded (and for a call it does not take), then the loop runs.
_pick: Callable[[int, tuple[Any, ...]], list[Any] | None] | None = None
# The same for a legal play (what _quick_play does, in one call: True when applied, None for
# anything else, nothing changed) and for the masks of a deal's hands.
_c_play: Callable[[object, object], bool | None] | None = None
_c_play_id: Callable[[object, object], bool | None] | None = None
_hand_masks: Callable[[object], list[int] | None] | None = None
# The legal plays of the play phase in one call (typed: the shared Plays; else their ids), None
# for anything else; absent from an older build of the compiled module.
_c_legal: Callable[[object, bool], list[Any] | None] | None = None


def _link_calls() -> None:
    """Take the compiled helpers once they are loaded (see :mod:`hucklebuck._fast`)."""
    global _pick, _c_play, _c_play_id, _hand_masks, _c_legal
    ext = _fast.ext
    if ext is not None:
        ext.link_play(_PLAY, Play, TrickPlay, _ids.PLAYS)
        _pick, _c_play, _c_play_id, _hand_masks = ext.pick, ext.play, ext.play_id, ext.hand_masks
        _c_legal = getattr(ext, "legal", None)
        link_trick = getattr(ext, "link_trick", None)  # absent from an older build
        if link_trick is not None:  # a trick completed by play()/play_id() in C (the C core's winner)
            link_trick(Trick, TrickEvent, TrickGame.__dict__["_trick_done"], HAND_SIZE)



class DealLike(Protocol):
    """What the engine needs of a game's deal class."""

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards."""
        ...

    @property
    def restock(self) -> tuple[tuple[Card, ...], ...] | None:
        """The order of each re-formed stock, if given."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """Protocol form."""
        ...

    def public_stock(self) -> tuple[Card, ...]:
        """The cards not in any hand, in deal order (stock, kitty, upcard...)."""
        ...


D = TypeVar("D", bound=DealLike)
OptT = TypeVar("OptT", bound=OptionsBase)
G = TypeVar("G", bound="TrickGame[Any, Any]")
T = TypeVar("T")


class TrickGame(AgentAPI, ShownGame, SavedGame, abc.ABC, Generic[D, OptT]):
    """Base class of the three games (see the module docstring).

    Subclasses set :attr:`kind`, :attr:`options_type`, ``phase_actions``
    and implement the abstract hooks.
    """

    kind: ClassVar[GameKind]
    options_type: ClassVar[type[OptionsBase]]
    phase_actions: ClassVar[Mapping[Phase, tuple[type, ...]]]
    """The action classes each acting phase accepts (for the game classes, not their users).

    :meta private:"""
    seat_private_actions: ClassVar[tuple[type, ...]] = ()
    """Action classes whose history text may differ from seat to seat.

    :meta private:"""
    mutable_state: ClassVar[tuple[str, ...]] = ("_hands", "_actions", "_events", "_restocks")
    """Attributes :meth:`copy` copies (lists and dicts; ``None`` allowed); a game
    class adds its own.  Everything else in a game is immutable and shared, but
    for ``shared_until_written``.

    :meta private:"""
    shared_until_written: ClassVar[tuple[str, ...]] = ("_play", "_rng_obj")
    """Mutable attributes a copy shares until either game changes them (the trick
    state and the random source), then that game takes its own copy.

    :meta private:"""

    # ------------------------------------------------------------ construction
    def _init_common(
        self,
        players: int,
        pack: CardSet,
        options: OptT | Mapping[str, Any] | None,
        seed: int | None,
        rng: random.Random | None,
    ) -> None:
        self._n = players
        self._pack = pack
        otype = self.options_type
        if options is None:
            options = _DEFAULT_OPTIONS.get(otype)  # type: ignore[assignment]
            if options is None:
                options = _DEFAULT_OPTIONS[otype] = otype()  # type: ignore[assignment]
        elif isinstance(options, Mapping):
            options = otype.from_dict(options)  # type: ignore[assignment]
        elif not isinstance(options, otype):
            raise OptionsError(f"options must be {otype.__name__} or a mapping, not {type(options).__name__}")
        self._options: OptT = options  # type: ignore[assignment]
        if rng is not None and seed is not None:
            raise OptionsError("give either seed or rng, not both")
        if rng is not None and not isinstance(rng, random.Random):
            raise OptionsError(f"rng must be a random.Random, not {type(rng).__name__}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise OptionsError(f"seed must be an integer or None, not {type(seed).__name__}")

    def _first_hand(
        self, deal: D | Mapping[str, Any] | None, seed: int | None, rng: random.Random | None
    ) -> None:
        """The constructor's last step, once its arguments are checked: deal the first
        hand now (an explicit ``deal``, or a given ``rng``, which other code may go on
        drawing from), or, from a seed, record the seed and deal on first use.

        A pending game belongs, until it is dealt, to a twin class of its own class
        (same name, made once per class) whose ``__getattr__`` deals when an attribute
        the deal sets is first read (every public accessor reads one), from
        ``random.Random(seed)`` exactly as an eager deal would: same cards, same saved
        form; the game then goes back to its own class.  Dealt games have no
        ``__getattr__``, which would slow every attribute read.  Like OpenSpiel's
        ``new_initial_state``, a new game costs no shuffle until it is used.
        """
        if deal is None and rng is None:
            self._pending_seed = 0 if seed is None else seed
            object.__setattr__(self, "__class__", pending_class(real_class(type(self))))
            return
        self._deal_first_hand(rng if rng is not None else random.Random(0 if seed is None else seed), deal)

    def _deal_first_hand(self, rng: random.Random, deal: D | Mapping[str, Any] | None) -> None:
        """Set every attribute the first deal changes, then deal it."""
        self._rng_obj = rng
        self._rng_shared = False
        self._hand_no = 0
        self._winners: tuple[int, ...] = ()
        self._past_logs: History[tuple[D, tuple[tuple[Card, ...], ...], tuple[Action, ...]]] = History()
        self._past_events: History[Event] = History()
        self._phase = _HAND_OVER
        self._deal: D | None = None
        self._game_start: tuple[int, ...] = ()
        self._hand_start: tuple[int, ...] = ()
        self._before_first_deal()
        self.next_hand(deal)

    def _before_first_deal(self) -> None:
        """Set the game's own attributes that dealing a hand changes (from the checked
        set-up), just before the first deal; nothing by default."""

    def _reset_common(self) -> None:
        self._hands: list[int] = [0] * self._n
        self._actions: list[Action] = []
        # This hand's events; an action stands for its ActionEvent (built when asked for).
        self._events: list[Event | Action] = []
        self._restocks: list[tuple[Card, ...]] = []
        self._turn: int | None = None
        self._play: TrickPlay | None = None
        self._play_shared = False
        self._hist: tuple[str, ...] = ()
        self._hist_private: tuple[int, ...] = ()

    @property
    def _rng(self) -> random.Random:
        """The game's random source, copied first if a :meth:`copy` shares it."""
        if self._rng_shared:
            rng = random.Random() if type(self._rng_obj) is random.Random else copy.copy(self._rng_obj)
            rng.setstate(self._rng_obj.getstate())
            self._rng_obj = rng
            self._rng_shared = False
        return self._rng_obj

    @_rng.setter
    def _rng(self, rng: random.Random) -> None:
        self._rng_obj = rng
        self._rng_shared = False

    def _public_history(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """This hand's actions as protocol text, and the positions of the actions of
        :attr:`seat_private_actions` (built once per action, shared by copies)."""
        acts = self._actions
        hist = self._hist
        k = len(hist)
        if k != len(acts):
            private = self._hist_private
            texts = _ids.PLAY_TEXT
            add: list[str] = []
            for i in range(k, len(acts)):
                a = acts[i]
                if type(a) is Play:
                    add.append(texts[a.seat][a.card._index])
                    continue
                add.append(str(a))
                if isinstance(a, self.seat_private_actions):
                    private = (*private, i)
            self._hist = hist = hist + tuple(add)
            self._hist_private = private
        return hist, self._hist_private

    def _hand_events(self) -> list[Event]:
        """This hand's events, each action as its :class:`ActionEvent`."""
        hand = self._hand_no
        return [
            e if type(e) in _EVENT_TYPES else build_frozen(ActionEvent, {"hand": hand, "action": e})  # type: ignore[misc]
            for e in self._events
        ]

    def _check_seat(self, seat: object, what: str) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise SeatError(f"{what} must be a seat 0..{self._n - 1}, not {seat!r}")

    # -------------------------------------------------------- abstract hooks
    @abc.abstractmethod
    def _coerce_deal(self, deal: object) -> D:
        """Turn a mapping into the game's deal type, or check its type."""

    @abc.abstractmethod
    def _random_deal(self) -> D:
        """Deal from the game's random source."""

    @abc.abstractmethod
    def _validate_deal(self, deal: D) -> None:
        """Raise DealError unless ``deal`` is a legal deal now."""

    @abc.abstractmethod
    def _begin_hand(self, deal: D) -> None:
        """Set up the per-hand state from a validated deal and set phase and turn."""

    @abc.abstractmethod
    def _legal_in_phase(self, seat: int) -> list[Action]:
        """Legal actions of ``seat`` in the current (acting, non-play) phase."""

    @abc.abstractmethod
    def _check_action(self, action: Action) -> None:
        """Game-specific legality of an action already of the right type and seat."""

    @abc.abstractmethod
    def _do_action(self, action: Action) -> None:
        """Apply a legal non-play action."""

    @abc.abstractmethod
    def _hand_played(self) -> None:
        """All five tricks are done: score the hand (call :meth:`_close_hand`)."""

    @abc.abstractmethod
    def _start_state(self) -> dict[str, Any]:
        """The ``start`` object of the JSON form (protocol ``start``)."""

    @classmethod
    @abc.abstractmethod
    def _from_start(
        cls: type[G], players: int, options: Mapping[str, Any], start: Mapping[str, Any], deal: Any
    ) -> G:
        """Build a game from a JSON ``start`` object and its first deal."""

    @classmethod
    @abc.abstractmethod
    def _deal_with_restock(cls, deal: Any, restock: tuple[tuple[Card, ...], ...]) -> Any:
        """The same deal with ``restock`` as its re-formed stocks (for replay)."""

    @classmethod
    @abc.abstractmethod
    def _deal_from_dict(cls, data: Mapping[str, Any]) -> Any:
        """Read a deal in protocol form."""

    # ------------------------------------------------------------------ hands
    def next_hand(self, deal: D | Mapping[str, Any] | None = None) -> None:
        """Deal the next hand: from ``deal`` if given, else from the game's random source.

        Allowed only when the previous hand is over (and when the game starts).
        """
        if self._phase is not _HAND_OVER:
            raise IllegalAction(
                f"a new hand can only be dealt when a hand is over (phase: {self._phase.value})"
            )
        if deal is None:
            d = self._random_deal()  # right by construction: no need to check it
        else:
            d = self._coerce_deal(deal)
            self._validate_deal(d)
        if self._hand_no > 0 and self._deal is not None:
            # O(1) per hand however long the session (a History shares its list with copies)
            self._past_logs = self._past_logs.plus((self._deal, tuple(self._restocks), tuple(self._actions)))
            self._past_events = self._past_events.plus(*self._hand_events())
        self._reset_common()
        start = self.standings
        if self._hand_no == 0:
            self._game_start = start
        self._hand_start = start
        self._hand_no += 1
        self._deal = d
        # each hand's mask: its cards are distinct (dealt, or checked above), so a sum is their OR
        masks = _hand_masks(d.hands) if _hand_masks is not None else None
        self._hands = masks if masks is not None else [sum(map(_BIT, map(_card_index, h))) for h in d.hands]
        event = _new(DealEvent)  # build_frozen, written out: the fields are right by construction
        event.__dict__.update(hand=self._hand_no, dealer=self.dealer, hands=d.hands, stock=d.public_stock())
        self._events.append(event)
        self._begin_hand(d)

    # ---------------------------------------------------------------- queries
    @property
    def players(self) -> int:
        """Number of seats."""
        return self._n

    @property
    def options(self) -> OptT:
        """The variant options."""
        return self._options

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self._phase

    @property
    @abc.abstractmethod
    def dealer(self) -> int:
        """The dealer of the current hand."""

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (None when nobody acts: hand or game over)."""
        phase = self._phase
        if phase is _PLAY:
            play = self._play
            assert play is not None
            return play.seats[len(play.current)]
        if phase is _HAND_OVER or phase is _GAME_OVER:
            return None
        return self._turn

    @property
    def hand_number(self) -> int:
        """1 for the first hand, and so on."""
        return self._hand_no

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self._phase is _GAME_OVER

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seat(s) once the game is over."""
        return self._winners

    @property
    def events(self) -> tuple[Event, ...]:
        """The full event log of the game so far."""
        return (*self._past_events, *self._hand_events())

    @property
    @abc.abstractmethod
    def trump(self) -> Suit | None:
        """Trump, once known."""

    @property
    @abc.abstractmethod
    def standings(self) -> tuple[int, ...]:
        """Per-seat scores (Hucklebuck, Deer Park Euchre) or bankrolls (Buck 'Em)."""

    @abc.abstractmethod
    def observation(self, seat: int | None) -> Any:
        """What ``seat`` may know now (the game's observation type); ``None``: an
        onlooker, who knows only what is public (DEF #84-#89)."""

    # ---------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action now, for the seat to act (empty when nobody acts)."""
        if _c_legal is not None:  # the play phase in one compiled call (None for anything else)
            found_c: list[Action] | None = _c_legal(self, True)
            if found_c is not None:
                return found_c
        if self._phase is _PLAY:
            play = self._play
            assert play is not None
            current = play.current
            seat = play.seats[len(current)]
            mask = self._hands[seat]
            if current:  # follow the suit led if possible
                mask = mask & play.suit_masks[play.suit_of[current[0]._index]] or mask
            plays = _ids.PLAYS[seat]
            if _pick is not None:
                found: list[Action] | None = _pick(mask, plays)
                if found is not None:
                    return found
            out: list[Action] = []
            while mask:
                low = mask & -mask
                out.append(plays[low.bit_length() - 1])
                mask ^= low
            return out
        to_act = self.to_act
        if to_act is None:
            return []
        return self._legal_in_phase(to_act)

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` (an action or its protocol text, as :meth:`apply` takes) may be applied now.

        False for anything that is not an action, and for text that does not read as one.
        """
        if isinstance(action, str):
            try:
                action = parse_action(self.kind, action)
            except HucklebuckError:
                return False
        if not isinstance(action, Action):
            return False
        try:
            self._check(action)
        except (IllegalAction, DealError):
            return False
        return True

    def _check(self, action: Action) -> None:
        """Raise IllegalAction if ``action`` is not legal now; never changes state."""
        _checks.check(self, action)

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action | str) -> None:
        """Apply one action (an :data:`~hucklebuck.actions.Action` or its protocol text).

        Raises :class:`~hucklebuck.errors.IllegalAction` (state unchanged) if the
        rules forbid it, :class:`~hucklebuck.errors.ActionParseError` for text
        that cannot be read.  Integer action ids (``legal_action_ids()``) go to
        :meth:`apply_id`; an integer given here is refused with a message saying so.
        """
        if type(action) is str:
            action = _ids.PLAY_BY_TEXT.get(action, action)
        if _c_play is not None and _c_play(self, action):
            return  # the common case first: a legal play, in one compiled call
        if type(action) is Play and self._phase is _PLAY and self._quick_play(action):
            return  # the same in Python (anything else takes the checked path)
        if isinstance(action, str):
            action = parse_action(self.kind, action)
        if not isinstance(action, self._accepted()):
            if isinstance(action, int) and not isinstance(action, bool):
                raise IllegalAction(
                    f"{action} is an action id, not an action: integer ids go to apply_id({action})"
                )
            raise IllegalAction(f"{action!r} is not a {self.kind.title} action")
        self._check(action)
        self._actions.append(action)
        self._events.append(action)
        if isinstance(action, Play):
            self._do_play(action)
        else:
            self._do_action(action)

    @classmethod
    def _accepted(cls) -> tuple[type, ...]:
        """Every action class of this game (computed once per class)."""
        accepted: tuple[type, ...] | None = cls.__dict__.get("_accepted_cache")
        if accepted is None:
            accepted = tuple({c for classes in cls.phase_actions.values() for c in classes})
            cls._accepted_cache = accepted  # type: ignore[attr-defined]
        return accepted

    def _quick_play(self, action: Play) -> bool:
        """Apply ``action`` and return True if it is the legal play of the seat to play
        now; otherwise change nothing and return False (the caller then takes the
        checked path, which says why it is refused)."""
        play = self._play
        assert play is not None
        current = play.current
        seat = action.seat
        if seat != play.seats[len(current)]:
            return False
        held = self._hands[seat]
        bit = 1 << action.card._index
        if not held & bit:
            return False
        follow = held & play.suit_masks[play.suit_of[current[0]._index]] if current else bit
        if not (follow & bit or not follow):  # neither follows suit nor shows the seat cannot
            return False
        self._actions.append(action)
        self._events.append(action)
        self._hands[seat] = held ^ bit
        if self._play_shared:
            play = self._own_play()
            current = play.current
        # TrickPlay.play written out (a call less per card): the trick completes one card in n
        played = play.played
        played[seat] = (*played[seat], action.card._index)
        current.append(action.card)
        if len(current) == len(play.seats):
            self._trick_done(play, play.finish_trick())
        return True

    def _start_play(self, trump: Suit, order: Sequence[int], leader: int) -> None:
        self._play = TrickPlay(self.kind.core_id, int(trump), order, leader, self._n)
        self._play_shared = False
        self._phase = _PLAY
        self._turn = None

    def _own_play(self) -> TrickPlay:
        """The trick state, copied first if a :meth:`copy` shares it."""
        play = self._play
        assert play is not None
        if self._play_shared:
            play = self._play = play.copy()
            self._play_shared = False
        return play

    def _do_play(self, action: Play) -> None:
        play = self._own_play()
        card = action.card
        self._hands[action.seat] &= ~(1 << card._index)
        trick = play.play(card)
        if trick is not None:
            self._trick_done(play, trick)

    def _trick_done(self, play: TrickPlay, trick: Trick) -> None:
        number = len(play.tricks)
        event = _new(TrickEvent)  # build_frozen, written out: once per trick
        event.__dict__.update(hand=self._hand_no, number=number, trick=trick)
        self._events.append(event)
        if number == HAND_SIZE:
            self._hand_played()

    def _end_game(self, winners: tuple[int, ...], reason: str) -> None:
        self._winners = winners
        self._phase = _GAME_OVER
        self._turn = None
        self._events.append(GameOverEvent(self._hand_no, winners, reason))


_DEFAULT_OPTIONS: dict[type, OptionsBase] = {}
"""Each options class's default instance (options are immutable, so one is shared)."""
_EVENT_TYPES: Final = frozenset(
    {DealEvent, ActionEvent, RestockEvent, TrickEvent, ScoreEvent, HandOverEvent, GameOverEvent}
)

_link_calls()  # here: linking a completed trick needs TrickGame
