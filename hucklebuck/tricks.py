"""The trick engine: who wins a trick and which cards may be played.

All three games share one trick rule: follow the suit led if you can,
otherwise play anything; the highest trump wins, else the highest card of the
suit led.  Deer Park Euchre adds the right bower (jack of trump, highest) and
the left bower (the other jack of the same colour), which counts as a trump
for leading, following and winning (S4: the usual Euchre bowers).

Each function calls the active core (:func:`hucklebuck.backend`) once; the
batch functions call it once for a whole batch.  On the C core a plain, valid
call of :func:`trick_winner` or :func:`legal_plays` runs whole in C (see
:mod:`hucklebuck._fast`); anything else, and every error, takes the Python
path below, the same on both cores.

Arguments are checked before the core is called, the same way on both cores:
``game`` is a :class:`~hucklebuck.packs.GameKind` or its name, a suit is a
:class:`~hucklebuck.cards.Suit` or its letter (``"S"``; not a number), cards
are :class:`~hucklebuck.cards.Card` objects and a hand is a
:class:`~hucklebuck.cards.CardSet` or an iterable of cards.  Anything else,
of any type, raises a :class:`~hucklebuck.errors.HucklebuckError` (a
:class:`~hucklebuck.errors.CardError` or
:class:`~hucklebuck.errors.OptionsError`) whose message names the argument.

>>> from hucklebuck import Suit, parse_cards
>>> trick_winner("deerpark", Suit.HEARTS, parse_cards("AH JD KH"))
1
>>> str(legal_plays("hucklebuck", Suit.SPADES, parse_cards("2H 3H AS"), parse_cards("KH")))
'2H 3H'
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence

from . import _fast
from . import _validate as v
from ._core import get_core
from ._core._api import MAX_TRICK, NO_LEAD
from .cards import Card, CardSet, Suit
from .errors import CardError, CoreInputError
from .packs import GameKind

__all__ = [
    "effective_suit",
    "legal_plays",
    "legal_plays_batch",
    "pack_tricks",
    "trick_winner",
    "trick_winners",
]

SuitArg = Suit | str
"""A suit argument: a :class:`~hucklebuck.cards.Suit` or its protocol letter (``"S"``)."""


# Fast paths for arguments already in the library's own types: a GameKind or a game's
# name, a Suit, a tuple or list of Cards.  Anything else goes through the full checks
# of hucklebuck._validate, which give the errors.
_GAME_IDS: dict[object, int] = {k: k.core_id for k in GameKind} | {k.value: k.core_id for k in GameKind}
_INDEX: dict[Card, int] = {Card.from_index(i): i for i in range(52)}
_index = _INDEX.__getitem__
_BITS: tuple[int, ...] = tuple(1 << i for i in range(256))
_FULL = (1 << 52) - 1


def _game_id(game: object) -> int:
    t = type(game)
    if t is GameKind or t is str:
        found = _GAME_IDS.get(game)
        if found is not None:
            return found
    return v.game(game).core_id


def _suit_id(trump: object) -> int:
    if type(trump) is Suit:
        return trump._value_
    return int(v.suit(trump))


def _trick_bytes(cards: object, name: str = "cards", lo: int = 1) -> bytes:
    t = type(cards)
    if t is tuple or t is list:
        try:
            row = bytes(map(_index, cards))  # type: ignore[call-overload]
        except (KeyError, TypeError):  # not all Cards: the full checks name the bad item
            pass
        else:
            if lo <= len(row) <= MAX_TRICK and len(set(row)) == len(row):
                return row
    return _trick_bytes_checked(cards, name, lo)


def _trick_bytes_checked(cards: object, name: str, lo: int) -> bytes:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise CardError(f"{name} must be a sequence of Cards, not {v.shown(cards)}")
    row = list(cards)
    if not lo <= len(row) <= MAX_TRICK:
        raise CardError(f"{name}: a trick holds {lo} to {MAX_TRICK} cards, not {len(row)}")
    seen = 0
    for i, c in enumerate(row):
        c = v.card(c, f"{name} item {i}")
        if seen & c.mask:
            raise CardError(f"{name}: card {c.code} appears twice in the trick")
        seen |= c.mask
    return bytes(c.index for c in row)


def effective_suit(game: GameKind | str, trump: SuitArg, card: Card) -> Suit:
    """The suit a card counts as: its printed suit, except Deer Park's left bower."""
    kind, t, c = v.game(game), v.suit(trump), v.card(card, "card")
    suits, _ = get_core().rules(kind.core_id, int(t))
    return Suit(suits[c.index])


# The compiled one-call functions (hucklebuck._fast): on the C core they answer a plain,
# valid call in C and return None for anything else, which then takes the path below.
_c_trick_winner: Callable[[object, object, object], int | None] | None = None
_c_legal_plays: Callable[[object, object, object, object], CardSet | None] | None = None


def _link_calls() -> None:
    """Give the compiled one-call functions the games (see :mod:`hucklebuck._fast`)."""
    global _c_trick_winner, _c_legal_plays
    if _fast.ext is None:
        return
    games = tuple(sorted(GameKind, key=lambda k: k.core_id))
    _fast.ext.link_games(games, tuple(k.value for k in games))
    _c_trick_winner, _c_legal_plays = _fast.ext.trick_winner, _fast.ext.legal_plays


_link_calls()


def trick_winner(game: GameKind | str, trump: SuitArg, cards: Iterable[Card]) -> int:
    """The 0-based index of the winning card; ``cards`` are in play order, leader first."""
    if _c_trick_winner is not None:
        found = _c_trick_winner(game, trump, cards)
        if found is not None:
            return found
    gid = _GAME_IDS.get(game) if type(game) is GameKind or type(game) is str else None
    t = trump._value_ if type(trump) is Suit else None
    if gid is not None and t is not None and (type(cards) is tuple or type(cards) is list):
        try:
            row = bytes(map(_index, cards))
        except (KeyError, TypeError):  # not all Cards: the full checks below name the bad item
            pass
        else:
            try:  # both cores check the trick's length and repeats themselves
                return get_core().trick_winner(gid, t, row)
            except CoreInputError:
                _trick_bytes_checked(cards, "cards", 1)  # raises the error in the caller's words
                raise
    return get_core().trick_winner(_game_id(game), _suit_id(trump), _trick_bytes(cards))


def legal_plays(
    game: GameKind | str,
    trump: SuitArg,
    hand: Iterable[Card] | CardSet,
    trick: Iterable[Card] = (),
) -> CardSet:
    """The cards of ``hand`` that may be played to ``trick`` (cards already played)."""
    if _c_legal_plays is not None:
        found = _c_legal_plays(game, trump, hand, trick)
        if found is not None:
            return found
    gid = _GAME_IDS.get(game) if type(game) is GameKind or type(game) is str else None
    if gid is None:
        gid = _game_id(game)
    t = trump._value_ if type(trump) is Suit else _suit_id(trump)
    mask = hand._mask if type(hand) is CardSet else v.hand(hand, "hand").mask
    if type(mask) is not int or not 0 <= mask <= _FULL:  # a CardSet forced past its own checks
        raise CardError(f"hand is not a valid set of cards (its mask is {v.shown(mask)}, not 52 bits)")
    row = _trick_bytes(trick, "trick", lo=0)
    if row:
        if mask & sum(_BITS[i] for i in row):
            both = [Card.from_index(i).code for i in row if mask >> i & 1]
            raise CardError(f"card {both[0]} is both in the hand and on the table")
        lead = row[0]
    else:
        lead = NO_LEAD
    return CardSet.from_mask(get_core().legal_mask(gid, t, lead, mask))


def _pairs(items: object, name: str, width: int) -> Iterable[tuple[object, ...]]:
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise CardError(f"{name} must be an iterable of tuples, not {v.shown(items)}")
    for i, item in enumerate(items):
        if isinstance(item, (str, bytes)) or not isinstance(item, Sequence) or len(item) != width:
            raise CardError(f"{name} item {i} must be a tuple of {width}, not {v.shown(item)}")
        yield tuple(item)


def pack_tricks(tricks: Iterable[tuple[SuitArg, Sequence[Card]]]) -> tuple[bytes, bytes, bytes]:
    """Pack ``(trump, cards)`` pairs into the cores' batch layout (trumps, lens, cards)."""
    trumps = bytearray()
    lens = bytearray()
    cards = bytearray()
    for i, (trump, trick) in enumerate(_pairs(tricks, "tricks", 2)):
        row = _trick_bytes(trick, f"tricks item {i} cards")
        trumps.append(v.suit(trump, f"tricks item {i} trump"))
        lens.append(len(row))
        cards += row + bytes(MAX_TRICK - len(row))
    return bytes(trumps), bytes(lens), bytes(cards)


def trick_winners(game: GameKind | str, tricks: Iterable[tuple[SuitArg, Sequence[Card]]]) -> list[int]:
    """Winner indices of many tricks, resolved in one core call."""
    kind = v.game(game)
    trumps, lens, cards = pack_tricks(tricks)
    return list(get_core().trick_winners(kind.core_id, trumps, lens, cards))


def legal_plays_batch(
    game: GameKind | str,
    positions: Iterable[tuple[SuitArg, Iterable[Card] | CardSet, Card | None]],
) -> list[CardSet]:
    """Legal plays of many ``(trump, hand, led card or None)`` positions in one core call."""
    kind = v.game(game)
    trumps = bytearray()
    leads = bytearray()
    hands = array("Q")
    for i, (trump, hand, led) in enumerate(_pairs(positions, "positions", 3)):
        trumps.append(v.suit(trump, f"positions item {i} trump"))
        hand_set = v.hand(hand, f"positions item {i} hand")
        mask = hand_set._mask
        if type(mask) is not int or not 0 <= mask <= _FULL:  # a CardSet forced past its own checks
            raise CardError(
                f"positions item {i} hand is not a valid set of cards "
                f"(its mask is {v.shown(mask)}, not 52 bits)"
            )
        if led is not None:
            led = v.card(led, f"positions item {i} led card")
            if led in hand_set:
                raise CardError(f"positions item {i}: card {led.code} is both in the hand and on the table")
        leads.append(NO_LEAD if led is None else led.index)
        hands.append(mask)
    out = get_core().legal_masks(kind.core_id, bytes(trumps), bytes(leads), hands)
    return [CardSet.from_mask(m) for m in out]
