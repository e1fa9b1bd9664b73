"""Machinery the three games share: phases, tricks, events, the play phase,
deal checking and random-state serialisation."""

from __future__ import annotations

import enum
import operator
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias, TypeVar

from .. import _fast
from .._core import get_core
from ..actions import Action
from ..cards import Card, CardSet, Suit
from ..errors import CardError, DealError, HucklebuckError, OptionsError, RestoreError
from ..packs import GameKind, pack

__all__ = [
    "ActionEvent",
    "DealEvent",
    "Event",
    "GameOverEvent",
    "HandOverEvent",
    "Phase",
    "RestockEvent",
    "ScoreEvent",
    "Trick",
    "TrickEvent",
]


class Phase(enum.Enum):
    """Where a game stands; the value is a stable name for JSON and the protocol."""

    # Members are singletons compared by identity: hash them by identity too, in C
    # (Enum's own __hash__ is a Python call on every dict lookup keyed by a phase).
    __hash__ = object.__hash__

    AUCTION = "auction"
    """Hucklebuck: bidding for the right to name trump."""
    TRUMP = "trump"
    """Hucklebuck: the high bidder names trump."""
    DECLARE = "declare"
    """Stay or drop (Hucklebuck)."""
    EXCHANGE = "exchange"
    """Stayers discard the cards they said they would exchange."""
    ORDER = "order"
    """Deer Park Euchre, round 1: order up the turned card's suit, or pass."""
    CALL = "call"
    """Deer Park Euchre, round 2: name a suit, or pass (the stuck dealer must name one)."""
    DEALER_DISCARD = "dealer_discard"
    """Deer Park Euchre: the dealer who picked up the turned card discards one."""
    STAY_FOLD = "stay_fold"
    """Buck 'Em: stay or fold."""
    DRAW = "draw"
    """Buck 'Em: stayers discard and draw 0-3 cards."""
    PLAY = "play"
    """The five tricks."""
    HAND_OVER = "hand_over"
    """The hand is scored; :meth:`next_hand` deals the next one."""
    GAME_OVER = "game_over"
    """The game has ended; nobody acts."""


@dataclass(frozen=True)
class Trick:
    """A completed trick: who led, the cards in play order, who won."""

    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int

    def to_dict(self) -> dict[str, Any]:
        """The protocol form ``{"leader", "cards", "winner"}``."""
        return {"leader": self.leader, "cards": [c.code for c in self.cards], "winner": self.winner}


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


@dataclass(frozen=True)
class DealEvent:
    """A hand was dealt: each seat's cards (``()`` for a seat that is out) and the stock."""

    hand: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "event": "deal",
            "hand": self.hand,
            "dealer": self.dealer,
            "hands": [_codes(h) for h in self.hands],
            "stock": _codes(self.stock),
        }


@dataclass(frozen=True)
class ActionEvent:
    """A player's action was applied."""

    hand: int
    action: Action

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"event": "action", "hand": self.hand, "action": str(self.action)}


@dataclass(frozen=True)
class RestockEvent:
    """The stock ran out and was re-formed from set-aside cards (top first)."""

    hand: int
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"event": "restock", "hand": self.hand, "cards": _codes(self.cards)}


@dataclass(frozen=True)
class TrickEvent:
    """A trick was completed."""

    hand: int
    number: int
    trick: Trick

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"event": "trick", "hand": self.hand, "number": self.number} | self.trick.to_dict()


@dataclass(frozen=True)
class ScoreEvent:
    """One seat's score change for the hand, with the rule that caused it."""

    hand: int
    seat: int
    delta: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "event": "score",
            "hand": self.hand,
            "seat": self.seat,
            "delta": self.delta,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class HandOverEvent:
    """The hand is over: scores after it and the seats that are out."""

    hand: int
    scores: tuple[int, ...]
    out: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"event": "hand_over", "hand": self.hand, "scores": list(self.scores), "out": list(self.out)}


@dataclass(frozen=True)
class GameOverEvent:
    """The game is over."""

    hand: int
    winners: tuple[int, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"event": "game_over", "hand": self.hand, "winners": list(self.winners), "reason": self.reason}


Event: TypeAlias = (
    DealEvent | ActionEvent | RestockEvent | TrickEvent | ScoreEvent | HandOverEvent | GameOverEvent
)
"""Any entry of a game's event log."""


F = TypeVar("F")


_BITS: Final = tuple(n.bit_length() for n in range(65))


def shuffle(rng: random.Random, cards: list[Card]) -> None:
    """``rng.shuffle(cards)``, the same order from the same state, without a Python call
    per card for a plain :class:`random.Random` (``random.shuffle``'s own algorithm
    written out: a Fisher-Yates pass drawing each index by rejection from ``getrandbits``;
    in C once the compiled helpers are loaded, whatever the core).
    Any other random source (a subclass may draw differently) gets its own ``shuffle``."""
    n = len(cards)
    if type(rng) is not random.Random or n > 64:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    ext = _fast.ext
    if ext is not None and ext.shuffle(getrandbits, cards):  # the same pass in C (hb_calls_games.c)
        return
    for i in range(n - 1, 0, -1):
        k = _BITS[i + 1]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def build_frozen(cls: type[F], fields: dict[str, Any]) -> F:
    """An instance of the frozen dataclass ``cls`` from all of its ``fields``, whose
    values are already right (``__init__`` and its per-field ``__setattr__`` skipped)."""
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


_SUIT_TABLES: dict[tuple[type, int, int], tuple[bytes, tuple[int, ...]]] = {}
_KINDS: Final = tuple(sorted(GameKind, key=lambda k: k.core_id))
"""The game kinds by core id (what the compiled ``trick_winner`` takes)."""
_SUITS: Final = tuple(Suit(i) for i in range(4))
"""The suits by number."""
_ext_trick_winner: Callable[[object, object, object], int | None] | None = None
"""The compiled ``trick_winner`` (a winner on the C core, None for anything else), once loaded."""


def _link_calls() -> None:
    """Take the compiled helper once it is loaded (see :mod:`hucklebuck._fast`)."""
    global _ext_trick_winner
    if _fast.ext is not None:
        _ext_trick_winner = _fast.ext.trick_winner


_link_calls()

_ROTATIONS: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
"""The seats of a trick in playing order, by (seats in play, leader): at most 8 x 255 x 8."""
_new: Final = object.__new__
_card_index: Final = operator.attrgetter("_index")


def suit_tables(game_id: int, trump: int) -> tuple[bytes, tuple[int, ...]]:
    """The active core's suit of each card for following (``suit_of[card]``) and the
    mask of each suit's cards, for a game and trump (asked of the core once)."""
    core = get_core()
    key = (type(core), game_id, trump)
    hit = _SUIT_TABLES.get(key)
    if hit is None:
        suits, _ = core.rules(game_id, trump)
        masks = [0, 0, 0, 0]
        for card in range(52):
            masks[suits[card]] |= 1 << card
        hit = _SUIT_TABLES[key] = (bytes(suits), tuple(masks))
    return hit


class TrickPlay:
    """The play phase of one hand: whose turn, legal plays, completing tricks.

    Legal plays follow the active core's suit table for the trump (each card's
    suit for following, the left bower counting as trump in Deer Park Euchre),
    read once per core, game and trump; trick winners come from the active
    core, one call per trick.
    """

    __slots__ = (
        "current",
        "game_id",
        "leader",
        "order",
        "played",
        "seats",
        "suit_masks",
        "suit_of",
        "tricks",
        "trump",
        "won",
    )

    def __init__(self, game_id: int, trump: int, order: Sequence[int], leader: int, players: int) -> None:
        self.game_id = game_id
        self.trump = trump
        self.order: tuple[int, ...] = tuple(order)
        self.leader = leader
        self.seats = self._rotated(leader)
        self.current: list[Card] = []
        self.tricks: tuple[Trick, ...] = ()
        self.won: list[int] = [0] * players
        self.played: list[tuple[int, ...]] = [()] * players
        """Per seat, the numbers of the cards it has played this hand (current trick included)."""
        self.suit_of, self.suit_masks = suit_tables(game_id, trump)

    def _rotated(self, leader: int) -> tuple[int, ...]:
        order = self.order
        key = (order, leader)
        seats = _ROTATIONS.get(key)
        if seats is None:
            i = order.index(leader)
            seats = _ROTATIONS[key] = order[i:] + order[:i]
        return seats

    def copy(self) -> TrickPlay:
        """An independent copy."""
        other = TrickPlay.__new__(TrickPlay)
        other.game_id, other.trump, other.order = self.game_id, self.trump, self.order
        other.leader, other.seats = self.leader, self.seats
        other.current = self.current[:]
        other.tricks = self.tricks
        other.won = self.won[:]
        other.played = self.played[:]
        other.suit_of, other.suit_masks = self.suit_of, self.suit_masks
        return other

    def seats_in_trick(self) -> tuple[int, ...]:
        """The seats in playing order for the current trick, leader first."""
        return self.seats

    def to_act(self) -> int:
        """The seat to play next."""
        return self.seats[len(self.current)]

    def legal_mask(self, hand: int) -> int:
        """The legal plays of ``hand`` now: the cards of the suit led, if it has any."""
        current = self.current
        if not current:
            return hand
        return hand & self.suit_masks[self.suit_of[current[0]._index]] or hand

    def play(self, card: Card) -> Trick | None:
        """Add a card (already checked legal); return the trick if it is now complete."""
        current = self.current
        seats = self.seats
        seat = seats[len(current)]
        self.played[seat] = (*self.played[seat], card._index)
        current.append(card)
        if len(current) < len(seats):
            return None
        return self.finish_trick()

    def finish_trick(self) -> Trick:
        """Complete the trick whose last card was just added (by :meth:`play`, or by a caller
        that wrote out :meth:`play`'s first lines) and return it."""
        current = self.current
        seats = self.seats
        found = (
            _ext_trick_winner(_KINDS[self.game_id], _SUITS[self.trump], current)
            if _ext_trick_winner
            else None
        )
        # the compiled call answers only while the C core is selected: else the core's own call
        index = (
            found
            if found is not None
            else get_core().trick_winner(self.game_id, self.trump, bytes(map(_card_index, current)))
        )
        winner = seats[index]
        trick = _new(Trick)  # build_frozen, written out: once per trick
        trick.__dict__.update(leader=self.leader, seats=seats, cards=tuple(current), winner=winner)
        self.tricks = (*self.tricks, trick)
        self.won[winner] += 1
        self.leader = winner
        self.seats = self._rotated(winner)
        self.current = []
        return trick


def parse_deal_cards(cards: object, what: str) -> list[Card]:
    """Read a list of protocol card codes (or Cards) in a deal, naming the part on error."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise DealError(f"{what} must be a list of cards, not {cards!r}")
    out: list[Card] = []
    for c in cards:
        if isinstance(c, Card):
            out.append(c)
            continue
        try:
            out.append(Card.parse(c))
        except CardError as exc:
            raise DealError(f"{what}: {exc}") from None
    return out


def check_exact_cards(parts: Sequence[tuple[str, Sequence[Card]]], expected: CardSet, what: str) -> None:
    """Check that ``parts`` together hold every card of ``expected`` exactly once."""
    seen: dict[Card, str] = {}
    for name, cards in parts:
        for c in cards:
            if c in seen:
                raise DealError(f"{what}: card {c.code} appears twice ({seen[c]} and {name})")
            if c not in expected:
                raise DealError(f"{what}: card {c.code} ({name}) is not in this game's pack")
            seen[c] = name
    missing = [c.code for c in expected if c not in seen]
    if missing:
        raise DealError(f"{what}: the pack's cards {' '.join(missing[:8])} are missing")


def rng_to_json(rng: random.Random) -> dict[str, Any]:
    """The state of a :class:`random.Random` as JSON-safe data (of a
    :class:`~hucklebuck.evaluate.SplitMix64`, as the batched lane's games deal from: its state)."""
    from .._core._py_eval import SplitMix64

    if isinstance(rng, SplitMix64):
        return {"splitmix64": rng.getstate()[1]}
    version, internal, gauss = rng.getstate()
    return {"version": version, "state": list(internal), "gauss": gauss}


def rng_from_json(data: object) -> random.Random:
    """Rebuild a :class:`random.Random` (or a :class:`~hucklebuck.evaluate.SplitMix64`) from
    :func:`rng_to_json` output."""
    rng = random.Random()
    try:
        if not isinstance(data, dict):
            raise TypeError("expected an object")
        if "splitmix64" in data:
            from .._core._py_eval import SplitMix64

            state = data["splitmix64"]
            if type(state) is not int or not 0 <= state < 1 << 64:
                raise ValueError("'splitmix64' must be an integer 0..2**64-1")
            return SplitMix64(state)
        words = data["state"]
        # Mersenne Twister: 624 words of 32 bits and a position 0..624 (Python would
        # silently truncate a wider word, or overflow on one past 64 bits).
        if not isinstance(words, list) or len(words) != 625:
            raise ValueError("'state' must list 625 integers")
        # (checked with C-level passes: restoring a game must stay cheap)
        if set(map(type, words)) != {int} or min(words) < 0 or max(words) >= 1 << 32:
            raise ValueError("every 'state' word must be an integer 0..2**32-1")
        if not words[-1] <= 624:
            raise ValueError("the last 'state' entry (the position) must be 0..624")
        state = (data["version"], tuple(words), data["gauss"])
        rng.setstate(state)
    except (KeyError, TypeError, ValueError, OverflowError) as exc:  # Overflow: a word past 32 bits
        raise RestoreError(f"the saved random state is not valid ({str(exc)[:200]!r})") from None
    return rng


def serve_from_stock(
    need: int,
    stock: Sequence[Card],
    take_pool: Callable[[], list[Card]],
    queue: Sequence[tuple[Card, ...]] | None,
    rng: random.Random | None,
    formed_before: int,
) -> tuple[list[Card], list[Card], list[tuple[Card, ...]], list[tuple[Card, ...]] | None]:
    """Deal ``need`` cards from the top of ``stock``, re-forming it when it runs out.

    When the stock is empty, ``take_pool()`` gives the cards of the new stock
    (the game's rule says which).  The new stock takes the order of the next
    entry of ``queue`` (an explicit restock, which must be exactly those cards)
    or is shuffled with ``rng`` (not shuffled when ``rng`` is None, which is for
    checking only).  Nothing is changed: returns the cards received, the stock
    afterwards, the stocks formed and the queue afterwards.
    """
    stock = list(stock)
    received: list[Card] = []
    formed: list[tuple[Card, ...]] = []
    left = list(queue) if queue is not None else None
    while len(received) < need:
        if not stock:
            pool = take_pool()
            if left:
                given = left.pop(0)
                if sorted(given) != sorted(pool):
                    raise DealError(
                        f"restock {formed_before + len(formed)} must be exactly the cards "
                        f"{' '.join(c.code for c in sorted(pool))}"
                    )
                stock = list(given)
            else:
                stock = list(pool)
                if rng is not None:
                    rng.shuffle(stock)
            if not stock:  # pragma: no cover - the rules' card counts make this impossible
                raise HucklebuckError("the stock ran out and nothing was left to re-form it")
            formed.append(tuple(stock))
        take = min(need - len(received), len(stock))
        received.extend(stock[:take])
        del stock[:take]
    return received, stock, formed, left


def parse_card_lists(value: object, what: str) -> tuple[tuple[Card, ...], ...]:
    """Read a list of card lists (hands, restocks) in a deal, naming each part on error."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise DealError(f"deal {what!r} must be a list of card lists")
    return tuple(tuple(parse_deal_cards(part, f"{what} {i}")) for i, part in enumerate(value))


def require_keys(data: object, keys: Sequence[str], game: str) -> None:
    """Check that a deal is an object holding ``keys``."""
    if not isinstance(data, Mapping):
        raise DealError(f"a deal must be an object, not {type(data).__name__}")
    for key in keys:
        if key not in data:
            raise DealError(f"a {game} deal needs {key!r}")


HAND_SIZE: Final = 5
"""Cards per hand in all three games."""

_PACKS: dict[tuple[GameKind, int, bool, bool], tuple[CardSet, tuple[Card, ...]]] = {}


def pack_of(
    kind: GameKind, players: int, *, short_handed: bool = False, eight_players: bool = False
) -> CardSet:
    """:func:`~hucklebuck.packs.pack`, built once per game, player count and flags."""
    if type(players) is not int:
        return pack(kind, players, short_handed=short_handed, eight_players=eight_players)
    key = (kind, players, short_handed, eight_players)
    hit = _PACKS.get(key)
    if hit is None:
        p = pack(kind, players, short_handed=short_handed, eight_players=eight_players)
        hit = _PACKS[key] = (p, tuple(p))
    return hit[0]


def pack_cards(cards: CardSet) -> list[Card]:
    """The cards of a pack from :func:`pack_of` as a new list, in canonical order."""
    for p, listed in _PACKS.values():
        if p is cards:
            return list(listed)
    return list(cards)


make_observation = build_frozen
"""Build a game's observation (a frozen dataclass) from all of its fields."""


def mask_of(cards: Sequence[Card]) -> int:
    """The mask of ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c._index
    return m


def check_int_list(values: object, n: int, what: str) -> list[int]:
    """``values`` as a list of ``n`` integers, or an OptionsError naming ``what``."""
    if (
        isinstance(values, (str, bytes))
        or not isinstance(values, Sequence)
        or len(values) != n
        or any(isinstance(v, bool) or not isinstance(v, int) for v in values)
    ):
        raise OptionsError(f"{what} must be {n} integers, not {values!r}")
    return list(values)


def coerce_deal_type(deal: object, deal_type: type[Any], game: str) -> Any:
    """Accept a deal of ``deal_type`` or a mapping in protocol form."""
    if isinstance(deal, Mapping):
        return deal_type.from_dict(deal)
    if not isinstance(deal, deal_type):
        raise DealError(
            f"a {game} deal must be a {deal_type.__name__} or a mapping, not {type(deal).__name__}"
        )
    return deal
