"""Buck 'Em: a session of rounds around one pot, with antes, burns and rakes.

Rules from S3 with the project's defaults and variants where S3 is silent
(DEF #35-#64).  Buck 'Em has no end: a session goes on until the host stops
it, so :attr:`BuckEmGame.is_over` stays False.  Chips are conserved:
bankrolls plus the pot never change except by antes, payouts and burns.

>>> game = BuckEmGame(5, seed=1)
>>> game.pot, game.bankrolls
(5, (-1, -1, -1, -1, -1))
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, overload

from .._validate import MAX_ANTE, MAX_POT_LIMIT
from ..actions import Action, BuckStay, Draw, Fold, Play
from ..cards import Card, CardSet, Rank, Suit
from ..errors import OptionsError, RestoreError
from ..packs import GameKind
from . import _buckem_deal as _dealing
from . import _buckem_settle as _settle
from . import _buckem_view as _view
from .base import (
    Phase,
    ScoreEvent,
    Trick,
    check_int_list,
    coerce_deal_type,
    pack_of,
    parse_card_lists,
    parse_deal_cards,
    require_keys,
)
from .engine import TrickGame
from .history import History
from .options import OptionsBase

__all__ = [
    "BuckEmDeal",
    "BuckEmGame",
    "BuckEmHandResult",
    "BuckEmObservation",
    "BuckEmOptions",
    "OddChip",
    "RakeHand",
    "RakeRounding",
    "ShortHandedTrump",
    "Split",
]

# Phases as module constants: an enum member looked up on its class costs ~60 ns a time.
_STAY_FOLD: Final = Phase.STAY_FOLD

MAX_DRAW: Final = _view.MAX_DRAW
FULL_PACK: Final = CardSet.from_mask((1 << 52) - 1)
_REMOVED: dict[int, tuple[CardSet, bool]] = {}
"""Per pack (its mask): the cards it leaves out, and whether no 2 is among them."""


class ShortHandedTrump(str, enum.Enum):
    """How trump is set with the short-handed pack (DEF #58)."""

    FLIP = "flip"
    """Turn the top card of the deck (default)."""
    REMOVED_CARD = "removed_card"
    """Pick one of the removed low cards at random; no upcard comes from the deck."""


class OddChip(str, enum.Enum):
    """Where the odd chip of an equal split goes (DEF #37)."""

    BUCKUP = "buckup"
    """To the 3-trick winner in a 3-2 split; stays in the pot in a 2-2 split (default, DEF #37)."""
    CARRY = "carry"
    """Always stays in the pot."""
    FIRST_LEFT_OF_DEALER = "first_left_of_dealer"
    """To the winner first clockwise from the dealer's left."""


class Split(str, enum.Enum):
    """How two winners share the pot (DEF #38)."""

    EQUAL = "equal"
    """Halves (S3; default)."""
    PROPORTIONAL = "proportional"
    """floor(pot x own tricks / winners' tricks) each; the rest stays in the pot."""


class RakeHand(str, enum.Enum):
    """Which hand the rake test looks at (DEF #42)."""

    AS_DEALT = "as_dealt"
    """The hand as dealt, before any deuce swap (default)."""
    AFTER_SWAP = "after_swap"
    """The hand after a deuce swap."""


class RakeRounding(str, enum.Enum):
    """Raking half of an odd pot (DEF #45)."""

    FLOOR = "floor"
    """The raker takes floor(pot / 2) (default)."""
    CEIL = "ceil"
    """The raker takes ceil(pot / 2)."""


@dataclass(frozen=True)
class BuckEmOptions(OptionsBase):
    """Every Buck 'Em variant option (S3; DEF #35-#64), validated when built.

    >>> BuckEmOptions(ante=2, pot_limit=20).pot_limit
    20
    """

    ante: int = field(default=1, metadata={"min": 1, "max": MAX_ANTE})
    """Chips each player antes in a normal round, 1 to 2**31 - 1 (DEF #35)."""
    short_handed: bool = False
    """Five players use 44 cards (no 2s or 3s), six use 48 (no 2s) (S3, DEF #58)."""
    short_handed_trump: ShortHandedTrump = ShortHandedTrump.FLIP
    """DEF #58; ``removed_card`` needs the short pack."""
    scare_cards: bool = False
    """One card of each hand is dealt face up; a trump there forces a stay (S3, DEF #55)."""
    scare_position: int = field(default=5, metadata={"choices": {1, 2, 3, 4, 5}})
    """Which card dealt to each player is the scare card (DEF #55)."""
    deuce_swap: bool = False
    """A player dealt the 2 of trump may swap it for the upcard when staying (S3, DEF #54)."""
    simultaneous_declare: bool = False
    """Stay/fold decisions are hidden until everyone has declared (S3, DEF #59)."""
    pot_limit: int | None = field(default=None, metadata={"min": 1, "max": MAX_POT_LIMIT})
    """A burned player pays at most this much, 1 to 2**58 (DEF #57)."""
    odd_chip: OddChip = OddChip.BUCKUP
    """DEF #37."""
    split: Split = Split.EQUAL
    """DEF #38."""
    rake_hand: RakeHand = RakeHand.AS_DEALT
    """DEF #42."""
    rake_rounding: RakeRounding = RakeRounding.FLOOR
    """DEF #45."""
    after_void_round_ante: bool = True
    """After a round with no stayers or an unqualified lone stayer, everyone antes (DEF #47, #48)."""

    def __post_init__(self) -> None:
        self._validate_fields()
        if self.short_handed_trump is ShortHandedTrump.REMOVED_CARD and not self.short_handed:
            raise OptionsError(
                "short_handed_trump='removed_card' needs short_handed=true: "
                "without a short pack there is no removed card"
            )


@dataclass(frozen=True)
class BuckEmDeal:
    """An explicit deal: five cards per seat, the upcard, the stock top first,
    the scare cards (one per seat, from its hand; only with ``scare_cards``) and
    optionally the order of each re-formed stock."""

    hands: tuple[tuple[Card, ...], ...]
    upcard: Card
    stock: tuple[Card, ...]
    scare: tuple[Card, ...] | None = None
    restock: tuple[tuple[Card, ...], ...] | None = None

    def public_stock(self) -> tuple[Card, ...]:
        """The upcard then the stock."""
        return (self.upcard, *self.stock)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BuckEmDeal:
        """Read the protocol form (``hands``, ``upcard``, ``stock``, ``scare``, ``restock``)."""
        require_keys(data, ("hands", "upcard", "stock"), "Buck 'Em")
        scare = data.get("scare")
        restock = data.get("restock")
        return cls(
            parse_card_lists(data["hands"], "hands"),
            parse_deal_cards([data["upcard"]], "upcard")[0],
            tuple(parse_deal_cards(data["stock"], "stock")),
            None if scare is None else tuple(parse_deal_cards(scare, "scare")),
            None if restock is None else parse_card_lists(restock, "restock"),
        )

    def to_dict(self) -> dict[str, Any]:
        """The protocol form of the deal."""
        out: dict[str, Any] = {
            "hands": [[c.code for c in h] for h in self.hands],
            "upcard": self.upcard.code,
            "stock": [c.code for c in self.stock],
        }
        if self.scare is not None:
            out["scare"] = [c.code for c in self.scare]
        if self.restock is not None:
            out["restock"] = [[c.code for c in r] for r in self.restock]
        return out


@dataclass(frozen=True)
class BuckEmHandResult:
    """What one round came to."""

    hand: int
    dealer: int
    trump: Suit
    stayers: tuple[int, ...]
    raked: int | None
    winners: tuple[int, ...]
    burned: tuple[int, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    payouts: tuple[int, ...]
    delta: tuple[int, ...]
    bankrolls: tuple[int, ...]
    pot: int
    pot_units: int
    ante_due: bool
    restock: tuple[tuple[Card, ...], ...]
    reasons: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The protocol HAND fields of a complete round."""
        return {
            "complete": True,
            "restock": [[c.code for c in r] for r in self.restock],
            "dealer": self.dealer,
            "trump": self.trump.symbol,
            "tricks": [t.to_dict() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "stayers": list(self.stayers),
            "raked": self.raked,
            "winners": list(self.winners),
            "burned": list(self.burned),
            "payouts": list(self.payouts),
            "delta": list(self.delta),
            "bankrolls": list(self.bankrolls),
            "pot": self.pot,
            "pot_units": self.pot_units,
            "ante_due": self.ante_due,
        }


@dataclass(frozen=True)
class BuckEmObservation:
    """What one seat may know: its own cards, the upcard, the scare cards and
    everything public.  Under ``simultaneous_declare`` other players'
    decisions (and any deuce swap) stay hidden until everyone has declared."""

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
    trump: Suit
    """The trump suit: the upcard's suit."""
    upcard: Card
    """The card turned up for trump."""
    swapped_upcard: Card | None
    """The upcard a deuce swapper took into its hand (seen by everyone when it was
    face up), once this seat may see the swap; None without a swap."""
    scare: tuple[Card | None, ...]
    """Each seat's scare card (face up for everyone), or None for a seat without one."""
    decisions: tuple[tuple[int, str], ...]
    """(seat, "stay" / "stay swap" / "fold") in order, as far as this seat may see them."""
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
    bankrolls: tuple[int, ...]
    """Each seat's chips won or lost so far (may be negative)."""
    pot: int
    """Chips in the pot."""
    pot_units: int
    """The pot's unit count (antes and burns in it); over one unit the pot is double and a rake takes half."""
    stock_size: int
    """Cards left in the stock."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds, as far as this seat may know (DEF #85)."""
    game_over: bool
    """Whether the game has ended."""
    winners: tuple[int, ...]
    """The winning seat(s) once the game is over (empty before)."""
    rake_shown: tuple[Card, ...]
    """The cards a lone stayer showed to rake the pot (DEF #88): the Ace of trump if
    it was dealt one, otherwise every trump it was dealt; empty without a rake."""
    options: BuckEmOptions
    """The game's variant options."""


@dataclass(frozen=True)
class BuckEmOnlookerObservation(BuckEmObservation):
    """What an onlooker of a Buck 'Em table may know (DEF #89): only what is public.
    ``seat`` is None, ``hand`` is empty and ``legal_actions`` is always empty.  ``hand`` stays a
    card set (an onlooker holds no cards), so code that reads any viewer's hand works unchanged;
    the protocol's view (:func:`~hucklebuck.games.observe.view`) says ``null`` instead: no seat."""

    seat: None  # type: ignore[assignment]


class BuckEmGame(TrickGame[BuckEmDeal, BuckEmOptions]):
    """A session of Buck 'Em for 5-8 players.

    ``bankrolls`` (default all 0; they may go negative, DEF #62), ``pot``,
    ``pot_units`` and ``ante_due`` set a known starting position.  Deal from
    ``seed`` / ``rng`` or an explicit ``deal``.  From a seed the first round is
    dealt (and the ante taken) on first use (any look at the game's state), with
    the cards the constructor would have dealt; bad arguments still raise here.
    """

    kind: ClassVar[GameKind] = GameKind.BUCKEM
    options_type: ClassVar[type[OptionsBase]] = BuckEmOptions
    phase_actions: ClassVar[Mapping[Phase, tuple[type, ...]]] = {
        Phase.STAY_FOLD: (BuckStay, Fold),
        Phase.DRAW: (Draw,),
        Phase.PLAY: (Play,),
    }
    seat_private_actions: ClassVar[tuple[type, ...]] = (BuckStay, Fold, Draw)
    mutable_state: ClassVar[tuple[str, ...]] = (
        *TrickGame.mutable_state,
        "_bankrolls",
        "_start",
        "_ante_delta",
        "_dealt",
        "_decisions",
        "_delta",
        "_discards",
        "_folded_pool",
        "_scare",
        "_stock",
        "_restock_queue",
    )

    def __init__(
        self,
        players: int,
        *,
        options: BuckEmOptions | Mapping[str, Any] | None = None,
        dealer: int = 0,
        bankrolls: Sequence[int] | None = None,
        pot: int = 0,
        pot_units: int = 0,
        ante_due: bool = True,
        seed: int | None = None,
        rng: random.Random | None = None,
        deal: BuckEmDeal | Mapping[str, Any] | None = None,
    ) -> None:
        opts = BuckEmOptions.from_dict(options) if isinstance(options, Mapping) else options
        short = isinstance(opts, BuckEmOptions) and opts.short_handed
        the_pack = pack_of(GameKind.BUCKEM, players, short_handed=short)
        self._init_common(players, the_pack, opts, seed, rng)
        if self._options.short_handed_trump is ShortHandedTrump.REMOVED_CARD and len(the_pack) == 52:
            raise OptionsError(
                f"short_handed_trump='removed_card' needs a short pack, "
                f"and {players} players keep all 52 cards"
            )
        removed = _REMOVED.get(the_pack.mask)
        if removed is None:
            removed = _REMOVED[the_pack.mask] = (
                FULL_PACK - the_pack,
                all(c.rank is not Rank.TWO for c in FULL_PACK - the_pack),
            )
        self._removed = removed[0]
        # With the 2s removed there is no 2 of trump, so no deuce swap (DEF #58).
        self._swap_on = self._options.deuce_swap and removed[1]
        bankrolls = [0] * players if bankrolls is None else check_int_list(bankrolls, players, "bankrolls")
        for name, value in (("pot", pot), ("pot_units", pot_units)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise OptionsError(f"{name} must be a non-negative integer, not {value!r}")
        if not isinstance(ante_due, bool):
            raise OptionsError(f"ante_due must be true or false, not {ante_due!r}")
        self._check_seat(dealer, "the dealer")
        self._dealer = dealer
        self._start: dict[str, Any] = {
            "dealer": dealer,
            "bankrolls": list(bankrolls),
            "pot": pot,
            "pot_units": pot_units,
            "ante_due": ante_due,
        }
        self._results: History[BuckEmHandResult] = History()
        self._first_hand(deal, seed, rng)

    # ------------------------------------------------------------------ set-up
    def _before_first_deal(self) -> None:
        # The first deal takes the ante, so the money is set with it (from the set-up).
        start = self._start
        self._bankrolls = list(start["bankrolls"])
        self._pot: int = start["pot"]
        self._units: int = start["pot_units"]
        self._ante_due: bool = start["ante_due"]

    def _reset_hand_state(self) -> None:
        self._stock: list[Card] = []
        self._upcard: Card | None = None
        self._trump: Suit | None = None
        self._scare: list[Card | None] = [None] * self._n
        self._dealt: list[int] = [0] * self._n
        self._decisions: dict[int, bool] = {}
        self._swapped: int | None = None
        self._folded_pool: list[Card] = []
        self._discards: list[Card] = []
        self._restock_queue: list[tuple[Card, ...]] | None = None
        self._order: tuple[int, ...] = ()
        self._index = 0
        self._delta: list[int] = [0] * self._n
        self._ante_delta: list[int] = [0] * self._n

    def _coerce_deal(self, deal: object) -> BuckEmDeal:
        d: BuckEmDeal = coerce_deal_type(deal, BuckEmDeal, "Buck 'Em")
        return d

    @classmethod
    def _deal_from_dict(cls, data: Mapping[str, Any]) -> BuckEmDeal:
        return BuckEmDeal.from_dict(data)

    @classmethod
    def _deal_with_restock(cls, deal: BuckEmDeal, restock: tuple[tuple[Card, ...], ...]) -> BuckEmDeal:
        return BuckEmDeal(deal.hands, deal.upcard, deal.stock, deal.scare, restock)

    def _validate_deal(self, deal: BuckEmDeal) -> None:
        _dealing.validate_deal(self, deal)

    def _random_deal(self) -> BuckEmDeal:
        return _dealing.random_deal(self)

    def _begin_hand(self, deal: BuckEmDeal) -> None:
        self._reset_hand_state()
        # The ante (S3, DEF #35): every seat, in a normal round.
        if self._ante_due:
            a = self._options.ante
            for s in range(self._n):
                self._bankrolls[s] -= a
                self._ante_delta[s] = -a
            self._pot += a * self._n
            self._units += 1
            self._ante_due = False
            for s in range(self._n):
                self._events.append(ScoreEvent(self._hand_no, s, -a, f"ante {a} (S3, DEF #35)"))
        self._delta = list(self._ante_delta)
        self._stock = list(deal.stock)
        self._upcard = deal.upcard
        self._trump = deal.upcard.suit
        self._dealt = [CardSet(h).mask for h in deal.hands]
        if self._options.scare_cards and deal.scare is not None:
            self._scare = list(deal.scare)
        self._restock_queue = None if deal.restock is None else list(deal.restock)
        eldest = (self._dealer + 1) % self._n
        self._order = tuple((eldest + i) % self._n for i in range(self._n))
        self._index = 0
        self._phase = _STAY_FOLD
        self._turn = self._order[0]

    @classmethod
    def _from_start(
        cls, players: int, options: Mapping[str, Any], start: Mapping[str, Any], deal: Any
    ) -> BuckEmGame:
        if not isinstance(start, Mapping):
            raise RestoreError("'start' must be an object")
        return cls(
            players,
            options=options,
            dealer=start.get("dealer", 0),
            bankrolls=start.get("bankrolls"),
            pot=start.get("pot", 0),
            pot_units=start.get("pot_units", 0),
            ante_due=start.get("ante_due", True),
            deal=deal,
        )

    def _start_state(self) -> dict[str, Any]:
        return dict(self._start, bankrolls=list(self._start["bankrolls"]))

    # --------------------------------------------------------------- queries
    @property
    def dealer(self) -> int:
        """The dealer of the current round; once a round is over, who deals next."""
        return self._dealer

    @property
    def trump(self) -> Suit | None:
        """Trump: the suit of the upcard (or of the removed card)."""
        return self._trump

    @property
    def upcard(self) -> Card:
        """The face-up card (after a deuce swap, the 2 of trump)."""
        assert self._upcard is not None
        return self._upcard

    @property
    def bankrolls(self) -> tuple[int, ...]:
        """Each player's chips (may be negative)."""
        return tuple(self._bankrolls)

    @property
    def standings(self) -> tuple[int, ...]:
        """The bankrolls."""
        return tuple(self._bankrolls)

    @property
    def pot(self) -> int:
        """Chips in the pot."""
        return self._pot

    @property
    def pot_units(self) -> int:
        """Antes and matches the pot was built from: 1 or less is a single pot (DEF #41)."""
        return self._units

    @property
    def ante_due(self) -> bool:
        """Whether the next round starts with an ante."""
        return self._ante_due

    @property
    def stayers(self) -> tuple[int, ...]:
        """Seats that stayed so far this round, sorted."""
        return tuple(sorted(s for s, stay in self._decisions.items() if stay))

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self._stock)

    @property
    def results(self) -> History[BuckEmHandResult]:
        """The results of every finished round."""
        return self._results

    def scare_card(self, seat: int) -> Card | None:
        """The seat's face-up scare card (None without the variant)."""
        self._check_seat(seat, "seat")
        return self._scare[seat]

    def card_zones(self) -> dict[str, CardSet]:
        """Where every card of the pack is: ``hands``, ``upcard`` (empty when it is a
        removed card), ``stock``, ``folded`` (unused folded hands), ``discards``
        (unused) and ``played``."""
        return _view.card_zones(self)

    # ------------------------------------------- deciding, drawing, settling
    # Dealing, staying, folding and the draw are in _buckem_deal; settling the
    # pot and the round's result in _buckem_settle.
    def _legal_in_phase(self, seat: int) -> list[Action]:
        return _dealing.legal_in_phase(self, seat)

    def _legal_ids_in_phase(self, seat: int) -> list[int] | None:
        # The ids of exactly what _legal_in_phase lists, ascending.
        return _dealing.legal_ids_in_phase(self, seat)

    def _check_action(self, action: Action) -> None:
        _dealing.check_action(self, action)

    def _do_action(self, action: Action) -> None:
        _dealing.do_action(self, action)

    def _hand_played(self) -> None:
        _settle.hand_played(self)

    def returns(self) -> tuple[float, ...]:
        """Per seat, the chips won or lost since the session began: bankroll now minus
        the starting bankroll.  A session never ends, so this is the running total
        (after a round it includes that round; mid-round it includes the ante)."""
        return tuple(float(a - b) for a, b in zip(self._bankrolls, self._game_start, strict=True))

    # ------------------------------------------------------------ observation
    @overload
    def observation(self, seat: int) -> BuckEmObservation: ...
    @overload
    def observation(self, seat: None) -> BuckEmOnlookerObservation: ...
    def observation(self, seat: int | None) -> BuckEmObservation:
        """What ``seat`` may know now (see :class:`BuckEmObservation`); ``None``: what an
        onlooker may know (:class:`BuckEmOnlookerObservation`)."""
        self._check_viewer(seat)
        history, fields = _view.view(self, seat)
        kind = BuckEmObservation if seat is not None else BuckEmOnlookerObservation
        return self._observe(kind, seat, history, fields)

    def _hand_sizes(self, seat: int | None) -> tuple[int, ...]:
        return _view.hand_sizes(self, seat)
