"""Cards, suits, ranks and sets of cards.

A card has a number, ``suit * 13 + (rank - 2)`` with suits ordered clubs,
diamonds, hearts, spades.  Sorting by that number is the canonical order of the
conformance protocol (by suit C, D, H, S, then rank 2 ... A), and a set of cards
is a 64-bit mask with bit ``number`` set.  The C core uses the same encoding.

>>> Card.parse("TH")
Card('TH')
>>> parse_card("10♥").display
'10♥'
>>> str(CardSet.parse("AS KS 2C"))
'2C KS AS'
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from typing import Final

from . import _fast
from .errors import CardError

__all__ = ["Card", "CardSet", "Rank", "Suit", "parse_card", "parse_cards", "parse_suit"]


class Suit(enum.IntEnum):
    """The four suits, in canonical order.

    Every suit is true, clubs included: ``bool(Suit.CLUBS)`` is ``True`` even
    though its number is 0, so ``if game.trump:`` means "trump is known" for
    every suit.  (Write ``if game.trump is not None:`` to be explicit; use
    ``int(suit)`` or ``suit.value`` for the number.)

    >>> bool(Suit.CLUBS), int(Suit.CLUBS)
    (True, 0)
    """

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    def __bool__(self) -> bool:
        """Always ``True``: a suit is a suit, whatever its number (clubs is 0)."""
        return True

    @property
    def symbol(self) -> str:
        """The protocol letter: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self.value]

    @property
    def glyph(self) -> str:
        """The display glyph: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self.value]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (clubs/spades, diamonds/hearts)."""
        return Suit(3 - self.value)

    def __str__(self) -> str:
        return self.symbol

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter or glyph, case-insensitively (``"h"``, ``"H"``, ``"♥"``)."""
        return parse_suit(text)


class Rank(enum.IntEnum):
    """The thirteen ranks, valued 2 (deuce) to 14 (ace)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """The protocol character: ``2`` ... ``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return "23456789TJQKA"[self.value - 2]

    @property
    def display(self) -> str:
        """The friendly form: ``10`` for the ten, otherwise the symbol."""
        return "10" if self is Rank.TEN else self.symbol

    def __str__(self) -> str:
        return self.symbol


_SUIT_TOKENS: Final[dict[str, Suit]] = {
    "c": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "d": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "h": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "s": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}  # fmt: skip
_RANK_TOKENS: Final[dict[str, Rank]] = {r.symbol.lower(): r for r in Rank} | {"10": Rank.TEN}


def parse_suit(text: str) -> Suit:
    """Parse a suit: a letter ``C D H S`` (any case) or a glyph.

    Raises :class:`~hucklebuck.errors.CardError` naming the text otherwise.
    """
    if not isinstance(text, str):
        raise CardError(f"a suit must be a string, not {type(text).__name__}")
    suit = _SUIT_TOKENS.get(text.strip().lower())
    if suit is None:
        raise CardError(f"{text!r} is not a suit (expected one of C, D, H, S or ♣ ♦ ♥ ♠)")
    return suit


class Card:
    """One playing card: immutable, hashable and totally ordered (canonical order).

    There is exactly one instance per card, so ``is`` and ``==`` agree.
    """

    __slots__ = ("_index",)
    _index: int

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """Return the card of ``rank`` (2..14) and ``suit`` (0..3)."""
        if isinstance(rank, bool) or not isinstance(rank, int) or not 2 <= rank <= 14:
            raise CardError(f"{rank!r} is not a rank (expected 2..14)")
        if isinstance(suit, bool) or not isinstance(suit, int) or not 0 <= suit <= 3:
            raise CardError(f"{suit!r} is not a suit (expected 0..3)")
        return _ALL[int(suit) * 13 + int(rank) - 2]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "_index", index)
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with number ``index`` (0..51)."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 51:
            raise CardError(f"{index!r} is not a card number (expected 0..51)")
        return _ALL[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the strict protocol notation: rank then suit, upper case (``TH``, ``AS``)."""
        if not isinstance(text, str):
            raise CardError(f"a card must be a string, not {type(text).__name__}")
        card = _STRICT.get(text)
        if card is None:
            raise CardError(
                f"{text!r} is not a card in protocol notation "
                "(rank 2-9, T, J, Q, K, A then suit C, D, H, S, e.g. 'TH')"
            )
        return card

    @property
    def index(self) -> int:
        """The card number, ``suit * 13 + rank - 2`` (0..51)."""
        return self._index

    @property
    def suit(self) -> Suit:
        """The printed suit (Deer Park Euchre's left bower keeps its printed suit here)."""
        return _SUIT_OF[self._index]

    @property
    def rank(self) -> Rank:
        """The printed rank."""
        return _RANK_OF[self._index]

    @property
    def mask(self) -> int:
        """The single-bit mask of this card."""
        return 1 << self._index

    @property
    def code(self) -> str:
        """The protocol notation, e.g. ``TH``."""
        return _CODES[self._index]

    @property
    def display(self) -> str:
        """A friendly form for people, e.g. ``10♥``."""
        return _DISPLAYS[self._index]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self._index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __hash__(self) -> int:
        return self._index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index < other._index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index <= other._index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index > other._index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index >= other._index

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


_ALL: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(52))
_CODES: Final[tuple[str, ...]] = tuple(Rank(i % 13 + 2).symbol + Suit(i // 13).symbol for i in range(52))
_SUIT_OF: Final[tuple[Suit, ...]] = tuple(Suit(i // 13) for i in range(52))
_DISPLAYS: Final[tuple[str, ...]] = tuple(Rank(i % 13 + 2).display + Suit(i // 13).glyph for i in range(52))
"""Each card's :attr:`Card.display`, by its index (a trick's line and a move's words show several)."""
_RANK_OF: Final[tuple[Rank, ...]] = tuple(Rank(i % 13 + 2) for i in range(52))
_STRICT: Final[dict[str, Card]] = {c.code: c for c in _ALL}


def parse_card(text: str) -> Card:
    """Parse a card the way people type it.

    Accepts the protocol form (``TH``) and lenient forms: any case, ``10`` for
    the ten, suit glyphs, surrounding spaces (``10h``, ``10♥``, ``ah``, ``Qs``).
    Raises :class:`~hucklebuck.errors.CardError` naming the bad text.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"a card must be a string, not {type(text).__name__}")
    s = text.strip()
    if len(s) >= 2:
        rank = _RANK_TOKENS.get(s[:-1].lower())
        suit = _SUIT_TOKENS.get(s[-1].lower())
        if rank is not None and suit is not None:
            return Card(rank, suit)
    raise CardError(
        f"{text!r} is not a card (write a rank 2-10, T, J, Q, K or A and a suit C, D, H, S "
        "or ♣ ♦ ♥ ♠, e.g. '10h' or 'AS')"
    )


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse several cards: a whitespace- or comma-separated string, or an iterable."""
    if _c_parse_cards is not None:  # the C core's parser answers plain, valid text (else None)
        found = _c_parse_cards(text)
        if found is not None:
            return found
    items: Iterable[str | Card]
    items = text.replace(",", " ").split() if isinstance(text, str) else text
    try:
        items = iter(items)
    except TypeError:
        raise CardError(f"cards must be text or an iterable of cards, not {type(text).__name__}") from None
    return tuple(parse_card(t) if not isinstance(t, Card) else t for t in items)


class CardSet:
    """An immutable set of cards backed by a 64-bit mask; iterates in canonical order."""

    __slots__ = ("_mask",)
    _mask: int

    _FULL: Final = (1 << 52) - 1

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        """Build a set from cards; a duplicate card is an error (it would be lost)."""
        mask = 0
        try:
            cards = iter(cards)
        except TypeError:
            raise CardError(f"a CardSet needs an iterable of Cards, not {type(cards).__name__}") from None
        for card in cards:
            if not isinstance(card, Card):
                raise CardError(f"{card!r} is not a Card")
            bit = 1 << card._index
            if mask & bit:
                raise CardError(f"card {card.code} appears twice")
            mask |= bit
        object.__setattr__(self, "_mask", mask)

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """The set whose bits are ``mask`` (only bits 0..51 may be set)."""
        if isinstance(mask, bool) or not isinstance(mask, int) or mask < 0 or mask > cls._FULL:
            raise CardError(f"{mask!r} is not a card mask (bits 0..51 only)")
        s = object.__new__(cls)
        object.__setattr__(s, "_mask", mask)
        return s

    @classmethod
    def parse(cls, text: str | Iterable[str | Card]) -> CardSet:
        """Parse cards leniently (see :func:`parse_cards`) into a set."""
        return cls(parse_cards(text))

    @property
    def mask(self) -> int:
        """The 64-bit mask."""
        return self._mask

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (CardSet.from_mask, (self._mask,))

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self._mask & card.mask)

    def __iter__(self) -> Iterator[Card]:
        m = self._mask
        while m:
            low = m & -m
            yield _ALL[low.bit_length() - 1]
            m ^= low

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __bool__(self) -> bool:
        return self._mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other._mask == self._mask

    def __hash__(self) -> int:
        return hash(("CardSet", self._mask))

    def __or__(self, other: CardSet) -> CardSet:
        return _set_of(self._mask | other._mask)

    def __and__(self, other: CardSet) -> CardSet:
        return _set_of(self._mask & other._mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return _set_of(self._mask & ~other._mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return _set_of(self._mask ^ other._mask)

    def __le__(self, other: CardSet) -> bool:
        return self._mask & ~other._mask == 0

    def add(self, card: Card) -> CardSet:
        """A new set with ``card`` added."""
        return CardSet.from_mask(self._mask | card.mask)

    def remove(self, card: Card) -> CardSet:
        """A new set without ``card``; raises :class:`CardError` if it is not there."""
        if not self._mask & card.mask:
            raise CardError(f"card {card.code} is not in the set")
        return CardSet.from_mask(self._mask & ~card.mask)

    def of_suit(self, suit: Suit) -> CardSet:
        """The cards of one printed suit."""
        return CardSet.from_mask(self._mask & (0x1FFF << (13 * int(suit))))

    def codes(self) -> list[str]:
        """The protocol codes in canonical order."""
        return [c.code for c in self]

    def __str__(self) -> str:
        return " ".join(self.codes())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


def _set_of(mask: int) -> CardSet:
    """The set of a mask known to be valid (made from valid masks): :meth:`CardSet.from_mask`
    without its checks."""
    s = _new_object(CardSet)
    _set_attr(s, "_mask", mask)
    return s


_new_object, _set_attr = object.__new__, object.__setattr__

_c_parse_cards: Callable[[object], tuple[Card, ...] | None] | None = None


def _link_calls() -> None:
    """Let the compiled one-call functions (:mod:`hucklebuck._fast`) read the cards directly."""
    global _c_parse_cards
    if _fast.ext is None:
        return
    try:
        _fast.ext.link_cards(Card, CardSet, _ALL, tuple(Suit))
    except (TypeError, ValueError):  # pragma: no cover - a build that does not fit these classes
        return
    _c_parse_cards = _fast.ext.parse_cards


_link_calls()
