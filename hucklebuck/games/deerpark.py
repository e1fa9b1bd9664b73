"""Deer Park Euchre: a whole game from 20 points each to 0 or 50.

Rules from S4 with the project's defaults and variants where S4 is silent
(DEF #65-#83).  Trick play follows Euchre: the right bower (jack of trump) and
the left bower (the other jack of the same colour) top the trump suit, and the
left bower belongs to trump for every purpose.

>>> game = DeerParkGame(3, seed=4)
>>> game.phase in (Phase.ORDER, Phase.PLAY, Phase.DEALER_DISCARD)
True
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, overload

from ..actions import Action, Call, Discard, Order, Pass, Play
from ..cards import Card, CardSet, Suit
from ..errors import DealError, PlayerCountError, RestoreError
from ..packs import GameKind
from . import _deerpark_checks as _checks
from . import _deerpark_scoring as _scoring
from . import _deerpark_view as _view
from . import engine as _engine
from .base import (
    HAND_SIZE,
    Phase,
    Trick,
    check_exact_cards,
    check_int_list,
    coerce_deal_type,
    pack_cards,
    pack_of,
    parse_card_lists,
    parse_deal_cards,
    require_keys,
    shuffle,
)
from .engine import TrickGame
from .history import History
from .ids import DP_CALL, DP_DISCARD, DP_ORDER, DP_PASS, interned
from .options import OptionsBase

__all__ = [
    "DeerParkDeal",
    "DeerParkGame",
    "DeerParkHandResult",
    "DeerParkObservation",
    "DeerParkOptions",
    "DeerParkTieBreak",
    "EightPlayerTurnup",
    "FirstLead",
]

# Phases as module constants: an enum member looked up on its class costs ~60 ns a time.
_CALL: Final = Phase.CALL
_DEALER_DISCARD: Final = Phase.DEALER_DISCARD
_ORDER: Final = Phase.ORDER
_DISCARD_IDS: Final = tuple(DP_DISCARD + k for k in range(52))
"""The dealer's discard id of each card, by card number."""
_new: Final = object.__new__

_ORDERS: dict[tuple[int, int], tuple[int, ...]] = {}
"""Each (first seat, players): the seats in turn from that seat (at most 8 x 8 entries)."""


def _seat_order(first: int, n: int) -> tuple[int, ...]:
    """The ``n`` seats in turn from ``first`` (one shared tuple each)."""
    order = _ORDERS.get((first, n))
    if order is None:
        order = _ORDERS[(first, n)] = tuple((first + i) % n for i in range(n))
    return order


START_SCORE: Final = 20
LOW_GOAL: Final = 0
HIGH_GOAL: Final = 50


class FirstLead(str, enum.Enum):
    """Who leads the first trick (DEF #71)."""

    ELDEST = "eldest"
    """The dealer's left, as in Euchre (default)."""
    MAKER = "maker"
    """The player who made trump."""


class DeerParkTieBreak(str, enum.Enum):
    """Several players reach a goal in the same hand (DEF #74)."""

    DISTANCE_THEN_MAKER = "distance_then_maker"
    """Farthest past the goal wins; then the maker; else play on (default)."""
    SHARED = "shared"
    """Farthest past the goal wins; players tied there share the win."""


class EightPlayerTurnup(str, enum.Enum):
    """Whether eight can play (DEF #70)."""

    NONE = "none"
    """At most seven players (default)."""
    DEALER_LAST_CARD = "dealer_last_card"
    """Eight may play with fives to aces: the dealer's last card is turned for trump."""


@dataclass(frozen=True)
class DeerParkOptions(OptionsBase):
    """Every Deer Park Euchre variant option (S4; DEF #65-#83), validated when built.

    >>> DeerParkOptions(lock_at=40).lock_at
    40
    """

    club_turnup_pickup: bool = False
    """The dealer takes a turned-up club and discards one (DEF #67)."""
    round2_excludes_turned_suit: bool = False
    """Round 2 may not name the turned-down suit, except by the stuck dealer (DEF #68)."""
    failed_contract_tricks_count: bool = False
    """A maker who fails scores +5 - t instead of +5 (DEF #66)."""
    first_lead: FirstLead = FirstLead.ELDEST
    """DEF #71."""
    lock_at: int = 45
    """At this score or more a player may not call trump, unless stuck (S4, DEF #75)."""
    lock_permanent: bool = False
    """Once locked, always locked, even if the score falls again (DEF #75 variant)."""
    tie_break: DeerParkTieBreak = DeerParkTieBreak.DISTANCE_THEN_MAKER
    """DEF #74."""
    eight_player_turnup: EightPlayerTurnup = EightPlayerTurnup.NONE
    """DEF #70."""

    def __post_init__(self) -> None:
        self._validate_fields()


@dataclass(frozen=True)
class DeerParkDeal:
    """An explicit deal: five cards per seat and the kitty, top first (its first
    card is the one turned up).  With eight players the kitty is empty."""

    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]

    @property
    def restock(self) -> None:
        """Deer Park Euchre never re-forms a stock."""
        return None

    def public_stock(self) -> tuple[Card, ...]:
        """The kitty, top first."""
        return self.kitty

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DeerParkDeal:
        """Read ``{"hands": [[...], ...], "kitty": [...]}`` (protocol codes)."""
        require_keys(data, ("hands", "kitty"), "Deer Park Euchre")
        return cls(parse_card_lists(data["hands"], "hands"), tuple(parse_deal_cards(data["kitty"], "kitty")))

    def to_dict(self) -> dict[str, Any]:
        """The protocol form of the deal."""
        return {"hands": [[c.code for c in h] for h in self.hands], "kitty": [c.code for c in self.kitty]}


@dataclass(frozen=True)
class DeerParkHandResult:
    """What one hand came to."""

    hand: int
    dealer: int
    turned: Card
    maker: int
    requirement: int
    trump: Suit
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    delta: tuple[int, ...]
    scores: tuple[int, ...]
    reasons: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The protocol HAND fields of a complete hand."""
        return {
            "complete": True,
            "restock": [],
            "dealer": self.dealer,
            "trump": self.trump.symbol,
            "tricks": [t.to_dict() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "maker": self.maker,
            "requirement": self.requirement,
            "delta": list(self.delta),
            "scores": list(self.scores),
        }


@dataclass(frozen=True)
class DeerParkObservation:
    """What one seat may know: its own cards and everything public (not the
    others' cards, the kitty below the turned card, or the dealer's discard)."""

    seat: int
    """The seat this observation belongs to (0-based)."""
    phase: Phase
    """The phase of the hand now."""
    to_act: int | None
    """The seat whose turn it is, or None when nobody is to act (hand or game over)."""
    legal_actions: tuple[Action, ...]
    """The seat's legal actions now (empty unless it is this seat's turn)."""
    hand: CardSet
    """This seat's own cards."""
    hand_number: int
    """The number of this hand in the game, from 1."""
    dealer: int
    """The seat that dealt this hand."""
    scores: tuple[int, ...]
    """Each seat's game score (the first to 0 or 50 wins)."""
    turned: Card
    """The turned-up card (face down again after round 1, but everyone saw it)."""
    maker: int | None
    """The seat that made trump (ordered up or called it), or None before it is made."""
    requirement: int | None
    """Tricks the maker must take this hand, or None before trump is made."""
    trump: Suit | None
    """The trump suit, or None before it is made."""
    locked: tuple[int, ...]
    """Seats that may not call trump now (the 45 rule): the game's :attr:`DeerParkGame.locked_seats`."""
    history: tuple[str, ...]
    """This hand's actions in protocol form, as far as this seat may see them."""
    current_trick: tuple[Card, ...]
    """The cards of the trick being played, leader first (empty between tricks)."""
    trick_leader: int | None
    """The seat that led the current trick, or None outside the play."""
    tricks: tuple[Trick, ...]
    """This hand's finished tricks, in order."""
    tricks_won: tuple[int, ...]
    """Tricks taken this hand, per seat."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds, as far as this seat may know (DEF #85)."""
    game_over: bool
    """Whether the game has ended."""
    winners: tuple[int, ...]
    """The winning seat(s) once the game is over (empty before)."""
    options: DeerParkOptions
    """The game's variant options."""

    def is_locked(self, seat: int) -> bool:
        """Whether ``seat`` may not call trump now: ``seat in locked`` (as the game says)."""
        return seat in self.locked


@dataclass(frozen=True)
class DeerParkOnlookerObservation(DeerParkObservation):
    """What an onlooker of a Deer Park Euchre table may know (DEF #89): only what is public.
    ``seat`` is None, ``hand`` is empty and ``legal_actions`` is always empty.  ``hand`` stays a
    card set (an onlooker holds no cards), so code that reads any viewer's hand works unchanged;
    the protocol's view (:func:`~hucklebuck.games.observe.view`) says ``null`` instead: no seat."""

    seat: None  # type: ignore[assignment]


class DeerParkGame(TrickGame[DeerParkDeal, DeerParkOptions]):
    """A game of Deer Park Euchre for 3-7 players (8 with a variant).

    Everyone starts at 20 (``scores`` can set another start); the first to 0 or
    50 wins.  Deal from ``seed`` / ``rng`` or an explicit ``deal``.  From a seed
    the first hand is dealt on first use (any look at the game's state), with
    the cards the constructor would have dealt; bad arguments still raise here.
    """

    kind: ClassVar[GameKind] = GameKind.DEERPARK
    options_type: ClassVar[type[OptionsBase]] = DeerParkOptions
    phase_actions: ClassVar[Mapping[Phase, tuple[type, ...]]] = {
        Phase.ORDER: (Order, Pass),
        Phase.CALL: (Call, Pass),
        Phase.DEALER_DISCARD: (Discard,),
        Phase.PLAY: (Play,),
    }
    seat_private_actions: ClassVar[tuple[type, ...]] = (Discard,)
    mutable_state: ClassVar[tuple[str, ...]] = (
        *TrickGame.mutable_state,
        "_scores",
        "_start",
        "_ever_locked",
        "_kitty",
        "_discarded",
    )

    def __init__(
        self,
        players: int,
        *,
        options: DeerParkOptions | Mapping[str, Any] | None = None,
        dealer: int = 0,
        scores: Sequence[int] | None = None,
        seed: int | None = None,
        rng: random.Random | None = None,
        deal: DeerParkDeal | Mapping[str, Any] | None = None,
    ) -> None:
        opts = options
        if opts is not None and isinstance(opts, Mapping):  # (None: no abstract-class check)
            opts = DeerParkOptions.from_dict(opts)
        eight = (
            isinstance(opts, DeerParkOptions)
            and opts.eight_player_turnup is EightPlayerTurnup.DEALER_LAST_CARD
        )
        if players == 8 and not eight:
            raise PlayerCountError(
                "Deer Park Euchre is for 3 to 7 players, not 8 "
                "(eight need the option eight_player_turnup=dealer_last_card)"
            )
        self._init_common(players, pack_of(GameKind.DEERPARK, players, eight_players=eight), opts, seed, rng)
        scores = [START_SCORE] * players if scores is None else check_int_list(scores, players, "scores")
        self._scores = list(scores)
        if type(dealer) is not int or not 0 <= dealer < players:  # the full check off the usual case
            self._check_seat(dealer, "the dealer")
        self._dealer = dealer
        self._start: dict[str, Any] = {"dealer": dealer, "scores": list(scores)}
        lock_at = self._options.lock_at
        self._ever_locked = [s >= lock_at for s in scores] if max(scores) >= lock_at else [False] * players
        self._results: History[DeerParkHandResult] = History._view([], 0)
        self._first_hand(deal, seed, rng)

    # ------------------------------------------------------------------ set-up
    def _reset_hand_state(self) -> None:
        self._kitty: list[Card] = []
        self._turned: Card | None = None
        self._trump: Suit | None = None
        self._maker: int | None = None
        self._requirement: int | None = None
        self._discarded: list[Card] = []
        self._order: tuple[int, ...] = ()
        self._index = 0

    def _coerce_deal(self, deal: object) -> DeerParkDeal:
        d: DeerParkDeal = coerce_deal_type(deal, DeerParkDeal, "Deer Park Euchre")
        return d

    @classmethod
    def _deal_from_dict(cls, data: Mapping[str, Any]) -> DeerParkDeal:
        return DeerParkDeal.from_dict(data)

    @classmethod
    def _deal_with_restock(cls, deal: DeerParkDeal, restock: tuple[tuple[Card, ...], ...]) -> DeerParkDeal:
        if restock:
            raise RestoreError("Deer Park Euchre never re-forms a stock")
        return deal

    def _validate_deal(self, deal: DeerParkDeal) -> None:
        if len(deal.hands) != self._n:
            raise DealError(f"the deal has {len(deal.hands)} hands for {self._n} seats")
        for s, h in enumerate(deal.hands):
            if len(h) != HAND_SIZE:
                raise DealError(f"seat {s} must get {HAND_SIZE} cards, not {len(h)}")
        want_kitty = len(self._pack) - HAND_SIZE * self._n
        if len(deal.kitty) != want_kitty:
            raise DealError(
                f"the kitty must hold {want_kitty} cards with {self._n} players, not {len(deal.kitty)}"
            )
        parts = [(f"hand of seat {s}", h) for s, h in enumerate(deal.hands)] + [("kitty", deal.kitty)]
        check_exact_cards(parts, self._pack, f"deal (the {len(self._pack)}-card pack for {self._n} players)")

    def _random_deal(self) -> DeerParkDeal:
        cards = pack_cards(self._pack)
        shuffle(self._rng, cards)
        n = self._n
        dealt = HAND_SIZE * n
        # one at a time from eldest (S4, DEF #72): every n-th card, seat by seat in deal order
        hands = [tuple(cards[i:dealt:n]) for i in range(n)]
        first = (self._dealer + 1) % n  # eldest's hand is hands[0]: turn the list to seat order
        deal = _new(DeerParkDeal)  # build_frozen, written out: right by construction
        deal.__dict__.update(hands=(*hands[n - first :], *hands[: n - first]), kitty=tuple(cards[dealt:]))
        return deal

    def _begin_hand(self, deal: DeerParkDeal) -> None:
        self._reset_hand_state()
        self._kitty = list(deal.kitty)
        eldest = (self._dealer + 1) % self._n
        # With eight players the dealer's last card is turned (DEF #70 variant).
        self._turned = deal.kitty[0] if deal.kitty else deal.hands[self._dealer][-1]
        if self._turned.suit is Suit.CLUBS:
            # A turned club: clubs are trump, the dealer makes with 2 to take (S4, DEF #67, #76).
            self._trump, self._maker, self._requirement = Suit.CLUBS, self._dealer, 2
            if self._options.club_turnup_pickup and deal.kitty:
                self._pick_up()
            else:
                self._begin_play()
            return
        self._phase = _ORDER
        self._order = _seat_order(eldest, self._n)
        self._index = 0
        self._turn = self._order[0]

    def _pick_up(self) -> None:
        assert self._turned is not None
        if self._kitty and self._kitty[0] == self._turned:
            self._kitty.pop(0)
            self._hands[self._dealer] |= self._turned.mask
            self._phase = _DEALER_DISCARD
            self._turn = self._dealer
        else:  # eight players: the dealer already holds the turned card
            self._begin_play()

    @classmethod
    def _from_start(
        cls, players: int, options: Mapping[str, Any], start: Mapping[str, Any], deal: Any
    ) -> DeerParkGame:
        if not isinstance(start, Mapping):
            raise RestoreError("'start' must be an object")
        return cls(
            players, options=options, dealer=start.get("dealer", 0), scores=start.get("scores"), deal=deal
        )

    def _start_state(self) -> dict[str, Any]:
        return {"dealer": self._start["dealer"], "scores": list(self._start["scores"])}

    # --------------------------------------------------------------- queries
    @property
    def dealer(self) -> int:
        """The dealer of the current hand; once a hand is over, who deals next."""
        return self._dealer

    @property
    def scores(self) -> tuple[int, ...]:
        """Current scores."""
        return tuple(self._scores)

    @property
    def standings(self) -> tuple[int, ...]:
        """The scores (see :attr:`TrickGame.standings`)."""
        return tuple(self._scores)

    @property
    def trump(self) -> Suit | None:
        """Trump, once made."""
        return self._trump

    @property
    def turned(self) -> Card:
        """The card turned up this hand."""
        assert self._turned is not None
        return self._turned

    @property
    def maker(self) -> int | None:
        """Who made trump (the dealer after a turned club or when stuck)."""
        return self._maker

    @property
    def requirement(self) -> int | None:
        """Tricks the maker needs: 3 for a voluntary call, 2 for the dealer after a
        turned club or when stuck."""
        return self._requirement

    @property
    def results(self) -> History[DeerParkHandResult]:
        """The results of every finished hand."""
        return self._results

    @property
    def locked_seats(self) -> tuple[int, ...]:
        """Seats that may not call trump now, in order: what an observation's ``locked`` holds."""
        return tuple(s for s in range(self._n) if self.is_locked(s))

    def is_locked(self, seat: int) -> bool:
        """Whether ``seat`` may not call trump now (score at or above ``lock_at``).

        The observation has the same method, and the seats as a tuple in its field ``locked``
        (here :attr:`locked_seats`).
        """
        return self.locked(seat)

    def locked(self, seat: int) -> bool:
        """The same as :meth:`is_locked` (kept for code written before it; prefer :meth:`is_locked`)."""
        self._check_seat(seat, "seat")
        return self._locked(seat)

    def _locked(self, seat: int) -> bool:
        """:meth:`locked` for a seat known to be one."""
        if self._options.lock_permanent and self._ever_locked[seat]:
            return True
        return self._scores[seat] >= self._options.lock_at

    def card_zones(self) -> dict[str, CardSet]:
        """Where every card is: ``hands``, ``kitty``, ``discarded`` (dead) and ``played``."""
        return self._common_zones() | {
            "kitty": CardSet(self._kitty),
            "discarded": CardSet(self._discarded),
        }

    # ---------------------------------------------------------- legal actions
    def _stuck(self, seat: int) -> bool:
        return self._phase is _CALL and seat == self._dealer

    def _callable_suits(self, seat: int) -> list[Suit]:
        assert self._turned is not None
        if self._stuck(seat) or not self._options.round2_excludes_turned_suit:
            return list(Suit)
        return [s for s in Suit if s is not self._turned.suit]

    def _legal_ids_in_phase(self, seat: int) -> list[int] | None:
        # The ids of exactly what _legal_in_phase lists, ascending.
        if self._phase is _ORDER:
            return [DP_PASS] if self._locked(seat) else [DP_PASS, DP_ORDER]
        if self._phase is _CALL:
            if self._stuck(seat):
                return [DP_CALL, DP_CALL + 1, DP_CALL + 2, DP_CALL + 3]
            if self._locked(seat):
                return [DP_PASS]
            return [DP_PASS, *(DP_CALL + s for s in self._callable_suits(seat))]
        mask = self._hands[seat]
        pick = _engine._pick  # the compiled helper once loaded (the same whatever the core)
        if pick is not None:
            found: list[int] | None = pick(mask, _DISCARD_IDS)
            if found is not None:
                return found
        out = []
        while mask:
            low = mask & -mask
            out.append(DP_DISCARD + low.bit_length() - 1)
            mask ^= low
        return out

    def _legal_in_phase(self, seat: int) -> list[Action]:
        if self._phase is _ORDER:
            if self._locked(seat):
                return [interned(Pass, seat)]
            return [interned(Order, seat), interned(Pass, seat)]
        if self._phase is _CALL:
            if self._stuck(seat):  # stick the dealer: must name a suit, whatever the score
                return [interned(Call, seat, s) for s in Suit]
            if self._locked(seat):
                return [interned(Pass, seat)]
            return [*(interned(Call, seat, s) for s in self._callable_suits(seat)), interned(Pass, seat)]
        return [interned(Discard, seat, (c,)) for c in self.hand(seat)]

    def _check_action(self, action: Action) -> None:
        _checks.check_action(self, action)

    # ------------------------------------------------------------------ apply
    def _do_action(self, action: Action) -> None:
        seat = action.seat
        if isinstance(action, Pass):  # the most common bid first
            self._index += 1
            if self._phase is _ORDER and self._index == self._n:
                # Round 2: the card is turned down and nobody picks it up (DEF #69).
                self._phase = _CALL
                self._index = 0
            self._turn = self._order[self._index]
        elif isinstance(action, Order):
            assert self._turned is not None
            # A voluntary maker needs 3; the dealer picks the card up (S4, DEF #78, #79).
            self._trump, self._maker, self._requirement = self._turned.suit, seat, 3
            self._pick_up()
        elif isinstance(action, Call):
            self._trump, self._maker = action.suit, seat
            self._requirement = 2 if seat == self._dealer else 3  # DEF #79
            self._begin_play()
        elif isinstance(action, Discard):
            card = action.cards[0]
            self._hands[seat] &= ~card.mask
            self._discarded.append(card)
            self._begin_play()

    def _begin_play(self) -> None:
        assert self._trump is not None and self._maker is not None
        eldest = (self._dealer + 1) % self._n
        leader = self._maker if self._options.first_lead is FirstLead.MAKER else eldest
        self._start_play(self._trump, range(self._n), leader)

    # ---------------------------------------------------------------- scoring
    def _hand_played(self) -> None:
        _scoring.score_played_hand(self)

    def _game_end(self) -> tuple[tuple[int, ...], str]:
        """Winners after a hand (S4, DEF #73, #74)."""
        return _scoring.game_end(self)

    # ------------------------------------------------------------ observation
    @overload
    def observation(self, seat: int) -> DeerParkObservation: ...
    @overload
    def observation(self, seat: None) -> DeerParkOnlookerObservation: ...
    def observation(self, seat: int | None) -> DeerParkObservation:
        """What ``seat`` may know now (see :class:`DeerParkObservation`); ``None``: what an
        onlooker may know (:class:`DeerParkOnlookerObservation`)."""
        return _view.observe(self, seat)
