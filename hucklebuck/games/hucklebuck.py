"""Hucklebuck: a whole game (hands to the target), step by step.

Rules from S0 (McLeod) and S2 (how-to-play page), with the defaults and
variants the project fixed where they are silent (DEF #1-#34).

>>> game = HucklebuckGame(4, seed=3)
>>> game.phase, game.to_act, game.dealer
(<Phase.AUCTION: 'auction'>, 1, 0)
>>> game.legal_actions()[:2]
[Pass(seat=1), Bid(seat=1, amount=2)]
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, overload

from ..actions import Action, Bid, Discard, Drop, NameTrump, Pass, Play, Stay
from ..cards import Card, CardSet, Suit
from ..errors import DealError, PlayerCountError, RestoreError
from ..packs import GameKind
from . import _hucklebuck_bidding as _bidding
from . import _hucklebuck_scoring as _scoring
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
from .options import OptionsBase

__all__ = [
    "AllPass",
    "ExchangeOrder",
    "HandResult",
    "HucklebuckDeal",
    "HucklebuckGame",
    "HucklebuckObservation",
    "HucklebuckOptions",
    "InTheHoleReset",
    "LoneMoonBidder",
    "MoonAtZero",
    "TieBreak",
]

# Phases as module constants: an enum member looked up on its class costs ~60 ns a time.
_AUCTION: Final = Phase.AUCTION

OUT_AT: Final = -25


class AllPass(str, enum.Enum):
    """What happens when every player passes in the auction (DEF #4)."""

    DEALER_SCORES_5 = "dealer_scores_5"
    """The dealer scores 5 without play (S0; default)."""
    DEALER_MUST_BID = "dealer_must_bid"
    """The dealer may not pass when nobody has bid (S2)."""


class MoonAtZero(str, enum.Enum):
    """A successful moon from a score of exactly 0 (DEF #12)."""

    RESET_TO_ZERO = "reset_to_zero"
    """The score stays 0 (S2: "from zero or below, back to zero"; default)."""
    WIN = "win"
    """0 counts as positive: the bidder wins the game."""
    SCORE_NORMALLY = "score_normally"
    """The hand scores +5 like any other."""


class LoneMoonBidder(str, enum.Enum):
    """A moon bidder whom everyone else leaves alone (DEF #6)."""

    SCORES_5 = "scores_5"
    """+5 like any lone bidder (S2's rule; default)."""
    WINS_GAME = "wins_game"
    """Wins the game outright, whatever the score."""


class TieBreak(str, enum.Enum):
    """Several players at or past the target after one hand (DEF #17)."""

    HIGHEST_THEN_BIDDER = "highest_then_bidder"
    """Highest score wins; on a tie the bidder if tied, else play on (default)."""
    BIDDER_FIRST = "bidder_first"
    """The bidder wins if at the target; else a single player there; else play on (DEF #17)."""
    SHARED = "shared"
    """The players tied at the top share the win."""


class ExchangeOrder(str, enum.Enum):
    """Order of the exchange (DEF #19); the stay/drop order is unaffected."""

    BIDDER_LEFT_BIDDER_LAST = "bidder_left_bidder_last"
    """From the bidder's left, the bidder last (S0, S2; default)."""
    DEALER_LEFT_DEALER_LAST = "dealer_left_dealer_last"
    """From the dealer's left, the dealer last (DEF #19)."""


class InTheHoleReset(str, enum.Enum):
    """Which successful bids from a negative score reset it to 0 (DEF #13)."""

    MOON_ONLY = "moon_only"
    """Only a successful moon (default)."""
    ANY_BID = "any_bid"
    """Any successful bid sets a negative score to exactly 0."""


@dataclass(frozen=True)
class HucklebuckOptions(OptionsBase):
    """Every Hucklebuck variant option (S0, S2; DEF #1-#34), validated when built.

    >>> HucklebuckOptions(target=11).target
    11
    >>> HucklebuckOptions.from_dict({"all_pass": "dealer_must_bid"}).all_pass
    <AllPass.DEALER_MUST_BID: 'dealer_must_bid'>
    """

    target: int = field(default=15, metadata={"choices": {11, 15}})
    """Game is won at this score or more: 15 (S0, S2) or 11 (S0 header; DEF #20, #34)."""
    all_pass: AllPass = AllPass.DEALER_SCORES_5
    """DEF #4."""
    moon_at_zero: MoonAtZero = MoonAtZero.RESET_TO_ZERO
    """DEF #12."""
    lone_moon_bidder: LoneMoonBidder = LoneMoonBidder.SCORES_5
    """DEF #6."""
    bidder_zero_trick_penalty_stacks: bool = False
    """A bidder with no trick loses 10 (20 on a failed moon) instead of 5 (15) (DEF #8, #14)."""
    tie_break: TieBreak = TieBreak.HIGHEST_THEN_BIDDER
    """DEF #17."""
    exchange_order: ExchangeOrder = ExchangeOrder.BIDDER_LEFT_BIDDER_LAST
    """DEF #19."""
    auction_reentry: bool = False
    """A player who passed may bid again; the auction ends after a full circuit without a bid (DEF #21)."""
    in_the_hole_reset_applies_to: InTheHoleReset = InTheHoleReset.MOON_ONLY
    """DEF #13."""

    def __post_init__(self) -> None:
        self._validate_fields()
        # No pair of Hucklebuck options excludes another: each changes a separate
        # rule.  Combinations are checked here when a game gains such a pair.


@dataclass(frozen=True)
class HucklebuckDeal:
    """An explicit deal: five cards per seat (``[]`` for a seat that is out), the
    stock top first, and optionally the order of each re-formed stock."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    restock: tuple[tuple[Card, ...], ...] | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HucklebuckDeal:
        """Read ``{"hands": [[...], ...], "stock": [...], "restock": [[...]]}`` (protocol codes)."""
        require_keys(data, ("hands", "stock"), "Hucklebuck")
        restock = data.get("restock")
        return cls(
            parse_card_lists(data["hands"], "hands"),
            tuple(parse_deal_cards(data["stock"], "stock")),
            None if restock is None else parse_card_lists(restock, "restock"),
        )

    def public_stock(self) -> tuple[Card, ...]:
        """The stock, top first."""
        return self.stock

    def to_dict(self) -> dict[str, Any]:
        """The protocol form of the deal."""
        out: dict[str, Any] = {
            "hands": [[c.code for c in h] for h in self.hands],
            "stock": [c.code for c in self.stock],
        }
        if self.restock is not None:
            out["restock"] = [[c.code for c in r] for r in self.restock]
        return out


@dataclass(frozen=True)
class HandResult:
    """What one hand came to."""

    hand: int
    dealer: int
    bidder: int | None
    bid: int | None
    trump: Suit | None
    active: tuple[int, ...]
    """Seats that stayed (bidder included); empty after an all-pass or a lone-bidder award."""
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    delta: tuple[int, ...]
    scores: tuple[int, ...]
    out: tuple[int, ...]
    reasons: tuple[str, ...]
    """Per seat, the rule behind its delta ("" for no change)."""
    restock: tuple[tuple[Card, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        """The protocol HAND fields of a complete hand."""
        return {
            "complete": True,
            "restock": [[c.code for c in r] for r in self.restock],
            "dealer": self.dealer,
            "trump": None if self.trump is None else self.trump.symbol,
            "tricks": [t.to_dict() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "bidder": self.bidder,
            "bid": self.bid,
            "active": list(self.active),
            "delta": list(self.delta),
            "scores": list(self.scores),
            "out": list(self.out),
        }


@dataclass(frozen=True)
class HucklebuckObservation:
    """What one seat may know: its own cards and everything public.

    Other players' cards, the stock and other players' discards are hidden
    (their discards show only as a count).
    """

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
    """Each seat's game score."""
    out: tuple[int, ...]
    """Seats out of the game (score at or below -25)."""
    bidder: int | None
    """The seat that won the auction, or None before it ends (or if everyone passed)."""
    bid: int | None
    """The winning bid (2 to 5; 5 shoots the moon), or None."""
    trump: Suit | None
    """The trump suit the bidder named, or None before it is named."""
    declarations: tuple[tuple[int, int | None], ...]
    """(seat, exchange count) for a stay, (seat, None) for a drop, in order."""
    history: tuple[str, ...]
    """This hand's actions in protocol form; others' discards as ``"S discard N cards"``."""
    current_trick: tuple[Card, ...]
    """The cards of the trick being played, leader first (empty between tricks)."""
    trick_leader: int | None
    """The seat that led the current trick, or None outside the play."""
    tricks: tuple[Trick, ...]
    """This hand's finished tricks, in order."""
    tricks_won: tuple[int, ...]
    """Tricks taken this hand, per seat."""
    stock_size: int
    """Cards left in the stock."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds, as far as this seat may know (DEF #85)."""
    game_over: bool
    """Whether the game has ended."""
    winners: tuple[int, ...]
    """The winning seat(s) once the game is over (empty before)."""
    options: HucklebuckOptions
    """The game's variant options."""


@dataclass(frozen=True)
class HucklebuckOnlookerObservation(HucklebuckObservation):
    """What an onlooker of a Hucklebuck table may know (DEF #89): only what is public.
    ``seat`` is None, ``hand`` is empty and ``legal_actions`` is always empty.  ``hand`` stays a
    card set (an onlooker holds no cards), so code that reads any viewer's hand works unchanged;
    the protocol's view (:func:`~hucklebuck.games.observe.view`) says ``null`` instead: no seat."""

    seat: None  # type: ignore[assignment]


def _left(seat: int, n: int) -> int:
    return (seat + 1) % n


class HucklebuckGame(TrickGame[HucklebuckDeal, HucklebuckOptions]):
    """A game of Hucklebuck for 3-7 players, driven one action at a time.

    Deal from ``seed`` / ``rng`` (a :class:`random.Random`; never the global
    one) or from an explicit ``deal``.  ``dealer`` is the first dealer (DEF #3);
    ``scores`` and ``out`` let a game start from a known position.  From a seed
    the first hand is dealt on first use (any look at the game's state), with
    the cards the constructor would have dealt; bad arguments still raise here.

    Each call of :meth:`apply` checks the action first and raises
    :class:`~hucklebuck.errors.IllegalAction` without changing anything when
    the rules forbid it.
    """

    kind: ClassVar[GameKind] = GameKind.HUCKLEBUCK
    options_type: ClassVar[type[OptionsBase]] = HucklebuckOptions
    phase_actions: ClassVar[Mapping[Phase, tuple[type, ...]]] = {
        Phase.AUCTION: (Bid, Pass),
        Phase.TRUMP: (NameTrump,),
        Phase.DECLARE: (Stay, Drop),
        Phase.EXCHANGE: (Discard,),
        Phase.PLAY: (Play,),
    }
    seat_private_actions: ClassVar[tuple[type, ...]] = (Discard,)
    mutable_state: ClassVar[tuple[str, ...]] = (
        *TrickGame.mutable_state,
        "_scores",
        "_start",
        "_out",
        "_passed",
        "_declared",
        "_set_aside",
        "_stock",
        "_restock_queue",
    )

    def __init__(
        self,
        players: int,
        *,
        options: HucklebuckOptions | Mapping[str, Any] | None = None,
        dealer: int = 0,
        scores: Sequence[int] | None = None,
        out: Sequence[int] = (),
        seed: int | None = None,
        rng: random.Random | None = None,
        deal: HucklebuckDeal | Mapping[str, Any] | None = None,
    ) -> None:
        self._init_common(players, pack_of(GameKind.HUCKLEBUCK, players), options, seed, rng)
        self._scores = [0] * players if scores is None else check_int_list(scores, players, "scores")
        out_flags = [False] * players
        if not isinstance(out, (list, tuple, set, frozenset, range)):
            raise PlayerCountError(f"out must be a list of seats, not {type(out).__name__}")
        for s in out:
            self._check_seat(s, "an out seat")
            out_flags[s] = True
        self._out = out_flags
        self._check_seat(dealer, "the dealer")
        if out_flags[dealer]:
            raise PlayerCountError(f"the dealer (seat {dealer}) is out of the game")
        if players - sum(out_flags) < 2:
            raise PlayerCountError("at least two players must still be in the game")
        self._start: dict[str, Any] = {
            "dealer": dealer,
            "scores": list(self._scores),
            "out": sorted(set(out)),
        }
        self._dealer = dealer
        self._results: History[HandResult] = History()
        self._first_hand(deal, seed, rng)

    # ------------------------------------------------------------------ set-up
    def _reset_hand_state(self) -> None:
        self._stock: list[Card] = []
        self._set_aside: list[Card] = []
        self._restock_queue: list[tuple[Card, ...]] | None = None
        self._high: int | None = None
        self._bidder: int | None = None
        self._passed: list[bool] = [False] * self._n
        self._passes_in_row = 0
        self._trump: Suit | None = None
        self._decl_order: tuple[int, ...] = ()
        self._declared: dict[int, int | None] = {}
        self._exch_order: tuple[int, ...] = ()
        self._exch_index = 0

    def _seated(self) -> list[int]:
        return [s for s in range(self._n) if not self._out[s]]

    def _clockwise_from(self, start: int, seats: Sequence[int]) -> tuple[int, ...]:
        """``seats`` in clockwise order beginning at the first one at or after ``start``."""
        return tuple(sorted(seats, key=lambda s: (s - start) % self._n))

    def _next_seated(self, seat: int) -> int:
        s = _left(seat, self._n)
        while self._out[s]:
            s = _left(s, self._n)
        return s

    def _coerce_deal(self, deal: object) -> HucklebuckDeal:
        d: HucklebuckDeal = coerce_deal_type(deal, HucklebuckDeal, "Hucklebuck")
        return d

    @classmethod
    def _deal_from_dict(cls, data: Mapping[str, Any]) -> HucklebuckDeal:
        return HucklebuckDeal.from_dict(data)

    @classmethod
    def _deal_with_restock(
        cls, deal: HucklebuckDeal, restock: tuple[tuple[Card, ...], ...]
    ) -> HucklebuckDeal:
        return HucklebuckDeal(deal.hands, deal.stock, restock)

    def _validate_deal(self, deal: HucklebuckDeal) -> None:
        if len(deal.hands) != self._n:
            raise DealError(f"the deal has {len(deal.hands)} hands for {self._n} seats")
        for s, h in enumerate(deal.hands):
            want = 0 if self._out[s] else HAND_SIZE
            if len(h) != want:
                who = "is out and must get no cards" if want == 0 else f"must get {HAND_SIZE} cards"
                raise DealError(f"seat {s} {who}, not {len(h)}")
        parts = [(f"hand of seat {s}", h) for s, h in enumerate(deal.hands)] + [("stock", deal.stock)]
        check_exact_cards(parts, self._pack, "deal")
        for i, r in enumerate(deal.restock or ()):
            if len(set(r)) != len(r):
                raise DealError(f"restock {i} lists a card twice")
            bad = [c.code for c in r if c not in self._pack]
            if bad:
                raise DealError(f"restock {i} holds {bad[0]}, which is not in the pack")

    def _random_deal(self) -> HucklebuckDeal:
        cards = pack_cards(self._pack)
        shuffle(self._rng, cards)
        seated = self._clockwise_from(_left(self._dealer, self._n), self._seated())
        k = len(seated)
        dealt = HAND_SIZE * k
        hands: list[tuple[Card, ...]] = [()] * self._n
        for i, s in enumerate(seated):  # one at a time, clockwise from eldest (DEF #1)
            hands[s] = tuple(cards[i:dealt:k])
        return HucklebuckDeal(tuple(hands), tuple(cards[dealt:]))

    def _begin_hand(self, deal: HucklebuckDeal) -> None:
        self._reset_hand_state()
        self._stock = list(deal.stock)
        self._restock_queue = None if deal.restock is None else list(deal.restock)
        self._phase = _AUCTION
        self._turn = self._next_seated(self._dealer)  # eldest opens (S2, DEF #24)

    @classmethod
    def _from_start(
        cls, players: int, options: Mapping[str, Any], start: Mapping[str, Any], deal: Any
    ) -> HucklebuckGame:
        if not isinstance(start, Mapping):
            raise RestoreError("'start' must be an object")
        return cls(
            players,
            options=options,
            dealer=start.get("dealer", 0),
            scores=start.get("scores"),
            out=start.get("out", ()),
            deal=deal,
        )

    def _start_state(self) -> dict[str, Any]:
        return {
            "dealer": self._start["dealer"],
            "scores": list(self._start["scores"]),
            "out": list(self._start["out"]),
        }

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
    def out(self) -> tuple[int, ...]:
        """Seats out of the game (score -25 or lower), sorted."""
        return tuple(s for s in range(self._n) if self._out[s])

    @property
    def bidder(self) -> int | None:
        """The high bidder so far (None before any bid)."""
        return self._bidder

    @property
    def bid(self) -> int | None:
        """The high bid so far."""
        return self._high

    @property
    def trump(self) -> Suit | None:
        """Trump, once named."""
        return self._trump

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self._stock)

    @property
    def results(self) -> History[HandResult]:
        """The results of every finished hand."""
        return self._results

    def card_zones(self) -> dict[str, CardSet]:
        """Where every card is now (an omniscient view, for audits and tests).

        ``hands`` (all seats together), ``stock``, ``set_aside`` (dropped hands
        and discards not yet re-formed into a stock) and ``played`` (this hand's
        tricks, the one in progress included).  Together they are the pack.
        """
        return self._common_zones() | {
            "stock": CardSet(self._stock),
            "set_aside": CardSet(self._set_aside),
        }

    def declarations(self) -> tuple[tuple[int, int | None], ...]:
        """Stay/drop decisions so far: (seat, exchange count) or (seat, None) for a drop."""
        return tuple(self._declared.items())

    # ------------------------------------------ phases before play, scoring
    # The auction, trump, declarations and exchange are in _hucklebuck_bidding;
    # scoring a hand and the game's end in _hucklebuck_scoring.
    def _legal_in_phase(self, seat: int) -> list[Action]:
        return _bidding.legal_in_phase(self, seat)

    def _legal_ids_in_phase(self, seat: int) -> list[int] | None:
        # The ids of exactly what _legal_in_phase lists, ascending.
        return _bidding.legal_ids_in_phase(self, seat)

    def _check_action(self, action: Action) -> None:
        _bidding.check_action(self, action)

    def _do_action(self, action: Action) -> None:
        _bidding.do_action(self, action)

    def _hand_played(self) -> None:
        _scoring.score_played_hand(self)

    # ------------------------------------------------------------ observation
    @overload
    def observation(self, seat: int) -> HucklebuckObservation: ...
    @overload
    def observation(self, seat: None) -> HucklebuckOnlookerObservation: ...
    def observation(self, seat: int | None) -> HucklebuckObservation:
        """What ``seat`` may know now (see :class:`HucklebuckObservation`); ``None``: what an
        onlooker may know (:class:`HucklebuckOnlookerObservation`)."""
        self._check_viewer(seat)
        history, private = self._public_history()
        if private:  # others' discards show only as a count
            texts = list(history)
            for i in private:
                a = self._actions[i]
                if a.seat != seat:
                    texts[i] = f"{a.seat} discard {len(a.cards)} cards"  # type: ignore[union-attr]
            history = tuple(texts)
        outs = self._out
        return self._observe(
            HucklebuckObservation if seat is not None else HucklebuckOnlookerObservation,
            seat,
            history,
            {
                "scores": tuple(self._scores),
                "out": tuple(s for s in range(self._n) if outs[s]),
                "bidder": self._bidder,
                "bid": self._high,
                "declarations": tuple(self._declared.items()),
                "stock_size": len(self._stock),
            },
        )
