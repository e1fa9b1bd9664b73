"""The trick engine: who wins a trick and which cards may be played.

All three games share the Rams-family rule: follow the suit led if you can,
otherwise play anything; the highest trump wins, else the highest card of the
suit led.  Deer Park Euchre adds the right bower (jack of trump, highest) and
the left bower (the other jack of the same colour), which counts as a trump
for leading, following and winning (rules-decisions section 1.3.6).

Each function calls the active core (:func:`hucklebuck.backend`) once; the
batch functions call it once for a whole batch.

>>> from hucklebuck import Suit, parse_cards
>>> trick_winner("deerpark", Suit.HEARTS, parse_cards("AH JD KH"))
1
>>> str(legal_plays("hucklebuck", Suit.SPADES, parse_cards("2H 3H AS"), parse_cards("KH")))
'2H 3H'
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence

from ._core import get_core
from ._core._api import MAX_TRICK, NO_LEAD
from .cards import Card, CardSet, Suit
from .errors import CardError
from .packs import GameKind

__all__ = [
    "effective_suit",
    "legal_plays",
    "legal_plays_batch",
    "pack_tricks",
    "trick_winner",
    "trick_winners",
]


def _trump(trump: Suit | int) -> int:
    if isinstance(trump, bool) or not isinstance(trump, int) or not 0 <= trump <= 3:
        raise CardError(f"{trump!r} is not a trump suit (expected a Suit)")
    return int(trump)


def _trick_bytes(cards: Sequence[Card]) -> bytes:
    if not 1 <= len(cards) <= MAX_TRICK:
        raise CardError(f"a trick holds 1 to {MAX_TRICK} cards, not {len(cards)}")
    seen = 0
    for c in cards:
        if not isinstance(c, Card):
            raise CardError(f"{c!r} is not a Card")
        if seen & c.mask:
            raise CardError(f"card {c.code} appears twice in the trick")
        seen |= c.mask
    return bytes(c.index for c in cards)


def effective_suit(game: GameKind | str, trump: Suit | int, card: Card) -> Suit:
    """The suit a card counts as: its printed suit, except Deer Park's left bower."""
    suits, _ = get_core().rules(GameKind.coerce(game).core_id, _trump(trump))
    return Suit(suits[card.index])


def trick_winner(game: GameKind | str, trump: Suit | int, cards: Sequence[Card]) -> int:
    """The 0-based index of the winning card; ``cards`` are in play order, leader first."""
    return get_core().trick_winner(GameKind.coerce(game).core_id, _trump(trump), _trick_bytes(cards))


def legal_plays(
    game: GameKind | str,
    trump: Suit | int,
    hand: Iterable[Card] | CardSet,
    trick: Sequence[Card] = (),
) -> CardSet:
    """The cards of ``hand`` that may be played to ``trick`` (cards already played)."""
    hand_set = hand if isinstance(hand, CardSet) else CardSet(hand)
    if trick:
        _trick_bytes(trick)
        both = [c.code for c in trick if c in hand_set]
        if both:
            raise CardError(f"card {both[0]} is both in the hand and on the table")
    lead = trick[0].index if trick else NO_LEAD
    mask = get_core().legal_mask(GameKind.coerce(game).core_id, _trump(trump), lead, hand_set.mask)
    return CardSet.from_mask(mask)


def pack_tricks(tricks: Iterable[tuple[Suit | int, Sequence[Card]]]) -> tuple[bytes, bytes, bytes]:
    """Pack ``(trump, cards)`` pairs into the cores' batch layout (trumps, lens, cards)."""
    trumps = bytearray()
    lens = bytearray()
    cards = bytearray()
    for trump, trick in tricks:
        row = _trick_bytes(trick)
        trumps.append(_trump(trump))
        lens.append(len(row))
        cards += row + bytes(MAX_TRICK - len(row))
    return bytes(trumps), bytes(lens), bytes(cards)


def trick_winners(game: GameKind | str, tricks: Iterable[tuple[Suit | int, Sequence[Card]]]) -> list[int]:
    """Winner indices of many tricks, resolved in one core call."""
    trumps, lens, cards = pack_tricks(tricks)
    return list(get_core().trick_winners(GameKind.coerce(game).core_id, trumps, lens, cards))


def legal_plays_batch(
    game: GameKind | str,
    positions: Iterable[tuple[Suit | int, CardSet, Card | None]],
) -> list[CardSet]:
    """Legal plays of many ``(trump, hand, led card or None)`` positions in one core call."""
    trumps = bytearray()
    leads = bytearray()
    hands = array("Q")
    for trump, hand, led in positions:
        trumps.append(_trump(trump))
        if led is not None and led in hand:
            raise CardError(f"card {led.code} is both in the hand and on the table")
        leads.append(NO_LEAD if led is None else led.index)
        hands.append(hand.mask)
    out = get_core().legal_masks(GameKind.coerce(game).core_id, bytes(trumps), bytes(leads), hands)
    return [CardSet.from_mask(m) for m in out]
