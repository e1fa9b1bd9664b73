"""Cards in words: suit names, a hand's display order, cards as people write them
(``10♥``) and as a screen reader says them (``ten of hearts``)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from ..cardart import spoken
from ..cards import Card, Rank, Suit
from ..packs import GameKind

__all__ = [
    "LEFT_BOWER_MARK",
    "SUIT_NAMES",
    "card_name",
    "card_text",
    "cards_text",
    "discard_order",
    "is_left_bower",
    "is_trump",
    "sort_hand",
]

SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}
"""Each suit's name in words."""


def is_trump(card: Card, trump: Suit | None, kind: GameKind) -> bool:
    """Whether ``card`` counts as trump (Deer Park Euchre's left bower included)."""
    if trump is None:
        return False
    if card.suit is trump:
        return True
    return kind is GameKind.DEERPARK and card.rank is Rank.JACK and card.suit is trump.partner


def sort_hand(cards: Iterable[Card], trump: Suit | None, kind: GameKind) -> list[Card]:
    """Cards sorted for display: trump first once known, then by suit, high to low."""
    return sorted(cards, key=_sort_keys(trump, kind).__getitem__)


@cache
def _sort_keys(trump: Suit | None, kind: GameKind) -> dict[Card, tuple[int, int, int]]:
    """Every card's place in :func:`sort_hand`'s order under ``trump`` in ``kind`` (worked out once)."""

    def key(c: Card) -> tuple[int, int, int]:
        if is_trump(c, trump, kind):
            bower = kind is GameKind.DEERPARK and c.rank is Rank.JACK
            return (0, 0, -(100 if bower and c.suit is trump else 99 if bower else int(c.rank)))
        return (1, -int(c.suit), -int(c.rank))

    return {c: key(c) for c in map(Card.from_index, range(52))}


LEFT_BOWER_MARK = "*"
"""Printed after Deer Park Euchre's left bower, which plays as a trump of another suit."""


def is_left_bower(card: Card, trump: Suit | None, kind: GameKind | None) -> bool:
    """Whether ``card`` is Deer Park Euchre's left bower (the other jack of trump's colour)."""
    return (
        kind is GameKind.DEERPARK
        and trump is not None
        and card.rank is Rank.JACK
        and card.suit is trump.partner
    )


def card_text(card: Card, trump: Suit | None = None, kind: GameKind | None = None) -> str:
    """One card as people write it (``10♥``); Deer Park's left bower carries a mark (``J♥*``)."""
    return card.display + (LEFT_BOWER_MARK if is_left_bower(card, trump, kind) else "")


def cards_text(cards: Iterable[Card], trump: Suit | None = None, kind: GameKind | None = None) -> str:
    """Cards as people write them (``10♥ A♠``); give ``trump`` and ``kind`` to mark a left bower."""
    return " ".join(card_text(c, trump, kind) for c in cards) or "(none)"


def discard_order(cards: Iterable[Card], trump: Suit | None, kind: GameKind) -> tuple[int, ...]:
    """A sort key for a set of cards to throw away: fewest first, then the weakest
    set (by total worth, every trump worth more than any plain card), so the
    natural discard of the weakest cards comes first in a menu."""

    def worth(c: Card) -> int:
        if is_trump(c, trump, kind):
            return 100 + (30 if kind is GameKind.DEERPARK and c.rank is Rank.JACK else int(c.rank))
        return int(c.rank)

    values = sorted((worth(c) for c in cards), reverse=True)
    return (len(values), sum(values), *values)


def card_name(card: Card) -> str:
    """One card in words, as a screen reader should say it (``queen of hearts``): the card
    pictures' own names (:func:`hucklebuck.cardart.spoken`)."""
    return spoken(card)
