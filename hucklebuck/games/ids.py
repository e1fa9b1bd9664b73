"""Integer action ids: a fixed, documented id space per game.

Learning libraries (OpenSpiel, PettingZoo, ...) number actions ``0 ..
num_distinct_actions() - 1``.  Each game has one id layout, the same for every
player count and option; an id never names the seat, which is always the seat
to act.  Every game starts with the 52 card plays:

=============  ==================================================================
ids            Hucklebuck (100 ids)
=============  ==================================================================
0-51           play the card with that number (``suit * 13 + rank - 2``)
52             pass
53-56          bid 2, 3, 4, 5 (5 shoots the moon)
57-60          name trump: clubs, diamonds, hearts, spades
61             drop
62-67          stay and exchange 0, 1, 2, 3, 4, 5
68-99          discard: ``68 + m`` where bit ``j`` of ``m`` (0-31) discards the
               ``j``-th card of the seat's hand in canonical order (lowest first)
=============  ==================================================================

=============  ==================================================================
ids            Buck 'Em (87 ids)
=============  ==================================================================
0-51           play that card
52             stay
53             stay and swap the 2 of trump for the upcard
54             fold
55-86          draw: ``55 + m``, bit ``j`` of ``m`` discards the ``j``-th card of
               the hand in canonical order (``55`` stands pat; at most 3 bits)
=============  ==================================================================

=============  ==================================================================
ids            Deer Park Euchre (110 ids)
=============  ==================================================================
0-51           play that card
52-103         the dealer discards card ``id - 52``
104            pass
105            order up
106-109        call clubs, diamonds, hearts, spades
=============  ==================================================================

Discard and draw ids of Hucklebuck and Buck 'Em are relative to the hand of
the seat to act (a hand is five cards when it discards), so 32 ids cover every
choice; :meth:`~hucklebuck.games.engine.TrickGame.action_from_id` turns one
into the typed action with the actual cards.  Actions made from ids are shared
(interned) immutable values.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, Final, TypeVar

from ..actions import (
    Action,
    Bid,
    BuckStay,
    Call,
    Discard,
    Draw,
    Drop,
    Fold,
    NameTrump,
    Order,
    Pass,
    Play,
    Stay,
)
from ..cards import Card, Suit
from ..errors import ActionParseError, IllegalAction
from ..packs import GameKind

__all__ = [
    "BE_DRAW",
    "BE_FOLD",
    "BE_STAY",
    "BE_SWAP",
    "DP_CALL",
    "DP_DISCARD",
    "DP_ORDER",
    "DP_PASS",
    "HB_BID",
    "HB_DISCARD",
    "HB_DROP",
    "HB_PASS",
    "HB_STAY",
    "HB_TRUMP",
    "NUM_ACTIONS",
    "PLAYS",
    "PLAY_BY_TEXT",
    "PLAY_IDS",
    "PLAY_TEXT",
    "action_from_id",
    "action_id",
    "check_id",
    "interned",
    "play_action",
    "subset_ids",
]

PLAY_IDS: Final = 52
"""Ids 0-51 play the card with that number, in every game."""

NUM_ACTIONS: Final[dict[GameKind, int]] = {
    GameKind.HUCKLEBUCK: 100,
    GameKind.BUCKEM: 87,
    GameKind.DEERPARK: 110,
}
"""The size of each game's id space."""

_MAX_SEATS: Final = 8
_CARDS: Final = tuple(Card.from_index(i) for i in range(52))
_SUITS: Final = tuple(Suit)
PLAYS: Final = tuple(tuple(Play(s, c) for c in _CARDS) for s in range(_MAX_SEATS))
"""``PLAYS[seat][card]``: the shared play of each card by each seat."""
PLAY_TEXT: Final = tuple(tuple(str(p) for p in row) for row in PLAYS)
"""``PLAY_TEXT[seat][card]``: the protocol text of each play."""
PLAY_BY_TEXT: Final = {
    t: p for text_row, row in zip(PLAY_TEXT, PLAYS, strict=True) for t, p in zip(text_row, row, strict=True)
}
"""Protocol text -> the shared play (``"2 play TH"``)."""

# The first id of each kind of action (see the tables above).
# Hucklebuck
HB_PASS, HB_BID, HB_TRUMP, HB_DROP, HB_STAY, HB_DISCARD = 52, 53, 57, 61, 62, 68
# Buck 'Em
BE_STAY, BE_SWAP, BE_FOLD, BE_DRAW = 52, 53, 54, 55
# Deer Park Euchre
DP_DISCARD, DP_PASS, DP_ORDER, DP_CALL = 52, 104, 105, 106


def play_action(seat: int, index: int) -> Play:
    """The shared :class:`~hucklebuck.actions.Play` of card ``index`` by ``seat``."""
    if seat < _MAX_SEATS:
        return PLAYS[seat][index]
    return Play(seat, _CARDS[index])  # pragma: no cover - no game seats more than eight


A = TypeVar("A")
_INTERNED: dict[tuple[Any, ...], Any] = {}


def interned(cls: Callable[..., A], *args: Any) -> A:
    """The shared action ``cls(*args)`` (only for arguments of small range: seats,
    suits, counts, single cards), built once."""
    key = (cls, *args)
    action: A | None = _INTERNED.get(key)
    if action is None:
        action = _INTERNED[key] = cls(*args)
    return action


_CHOICES: dict[tuple[Any, int, int, int, int], tuple[Any, ...]] = {}
_CHOICES_KEPT: Final = 4096


def card_choices(
    cls: Callable[[int, tuple[Card, ...]], A], seat: int, hand: int, low: int, high: int
) -> tuple[A, ...]:
    """Every ``cls(seat, cards)`` for a choice of ``low``..``high`` of the cards of ``hand`` (a
    mask): fewer cards first, each choice in card order (the order of
    :func:`itertools.combinations`).  The same immutable actions for the same arguments, kept for
    the last few thousand hands: a search asks for them at every visit."""
    key = (cls, seat, hand, low, high)
    found = _CHOICES.get(key)
    if found is None:
        cards = [_CARDS[i] for i in range(52) if hand >> i & 1]
        combos = [combo for k in range(low, high + 1) for combo in combinations(cards, k)]
        if cls is Discard or cls is Draw:  # (checked already: a seat and its own cards, in card order)
            found = tuple([_checked(cls, seat, combo) for combo in combos])
        else:
            found = tuple([cls(seat, combo) for combo in combos])
        if len(_CHOICES) >= _CHOICES_KEPT:
            _CHOICES.clear()
        _CHOICES[key] = found
    return found


def _checked(cls: Any, seat: int, cards: tuple[Card, ...]) -> Any:
    """``cls(seat, cards)`` for a discard or draw whose arguments are known to be right (a seat
    number, and cards in card order as :func:`itertools.combinations` gives them from a sorted
    hand): what its constructor would make, without its checks."""
    action = object.__new__(cls)
    action.__dict__.update(seat=seat, cards=cards)
    return action


_SUBSETS: dict[tuple[int, int, int, int], list[int]] = {}


def subset_ids(base: int, size: int, low: int, high: int) -> list[int]:
    """The ids ``base + m`` of every choice of ``low``..``high`` cards from a hand of
    ``size`` cards (``m`` a bit mask over the hand), ascending; a new list."""
    key = (base, size, low, high)
    ids = _SUBSETS.get(key)
    if ids is None:
        ids = _SUBSETS[key] = [base + m for m in range(1 << min(size, 5)) if low <= m.bit_count() <= high]
    return ids[:]


def check_id(kind: GameKind, i: object) -> int:
    """``i`` as an id of ``kind``, or :class:`~hucklebuck.errors.ActionParseError`."""
    size = NUM_ACTIONS[kind]
    if isinstance(i, bool) or not isinstance(i, int):
        raise ActionParseError(f"an action id must be an integer, not {i!r}")
    if not 0 <= i < size:
        raise ActionParseError(f"{i} is not an action id of {kind.title} (0..{size - 1})")
    return i


def _hand_cards(hand: int) -> list[Card]:
    out = []
    while hand:
        low = hand & -hand
        out.append(_CARDS[low.bit_length() - 1])
        hand ^= low
    return out


def _subset(i: int, m: int, seat: int, hand: int) -> tuple[Card, ...]:
    cards = _hand_cards(hand)
    picked = []
    j = 0
    while m:
        if m & 1:
            if j >= len(cards):
                raise IllegalAction(
                    f"action id {i}: it names card {j + 1} of seat {seat}'s hand, "
                    f"which holds {len(cards)} card(s)"
                )
            picked.append(cards[j])
        m >>= 1
        j += 1
    return tuple(picked)


def _subset_bits(action: Discard | Draw, hand: int) -> int:
    cards = _hand_cards(hand)
    m = 0
    for c in action.cards:
        if not hand & c.mask:
            raise IllegalAction(f"{action}: seat {action.seat} does not hold {c.code}")
        m |= 1 << cards.index(c)
    if m >= 32:
        raise IllegalAction(f"{action}: only the first five cards of a hand have discard ids")
    return m


def action_from_id(kind: GameKind, i: int, seat: int, hand: int) -> Action:
    """The typed action of id ``i`` (already range-checked) for ``seat`` holding ``hand`` (a mask)."""
    if i < PLAY_IDS:
        return play_action(seat, i)
    if kind is GameKind.DEERPARK:
        if i < DP_PASS:
            return interned(Discard, seat, (_CARDS[i - DP_DISCARD],))
        if i == DP_PASS:
            return interned(Pass, seat)
        if i == DP_ORDER:
            return interned(Order, seat)
        return interned(Call, seat, _SUITS[i - DP_CALL])
    if kind is GameKind.HUCKLEBUCK:
        if i == HB_PASS:
            return interned(Pass, seat)
        if i < HB_TRUMP:
            return interned(Bid, seat, i - HB_BID + 2)
        if i < HB_DROP:
            return interned(NameTrump, seat, _SUITS[i - HB_TRUMP])
        if i == HB_DROP:
            return interned(Drop, seat)
        if i < HB_DISCARD:
            return interned(Stay, seat, i - HB_STAY)
        return Discard(seat, _subset(i, i - HB_DISCARD, seat, hand))
    if i == BE_STAY:
        return interned(BuckStay, seat)
    if i == BE_SWAP:
        return interned(BuckStay, seat, True)
    if i == BE_FOLD:
        return interned(Fold, seat)
    return Draw(seat, _subset(i, i - BE_DRAW, seat, hand))


def action_id(kind: GameKind, action: Action, hand: int) -> int:
    """The id of ``action`` in ``kind``'s space; ``hand`` is the acting seat's hand (a mask).

    Raises :class:`~hucklebuck.errors.IllegalAction` for an action the game does
    not have, or a discard or draw of cards the seat does not hold.
    """
    if isinstance(action, Play):
        return action.card.index
    if kind is GameKind.DEERPARK:
        if isinstance(action, Discard) and len(action.cards) == 1:
            return DP_DISCARD + action.cards[0].index
        if isinstance(action, Pass):
            return DP_PASS
        if isinstance(action, Order):
            return DP_ORDER
        if isinstance(action, Call):
            return DP_CALL + int(action.suit)
        if isinstance(action, Discard):
            raise IllegalAction(f"{action}: the dealer discards exactly one card")
    elif kind is GameKind.HUCKLEBUCK:
        if isinstance(action, Pass):
            return HB_PASS
        if isinstance(action, Bid):
            if not 2 <= action.amount <= 5:
                raise IllegalAction(f"{action}: bids are 2 to 5")
            return HB_BID + action.amount - 2
        if isinstance(action, NameTrump):
            return HB_TRUMP + int(action.suit)
        if isinstance(action, Drop):
            return HB_DROP
        if isinstance(action, Stay):
            if not 0 <= action.exchange <= 5:
                raise IllegalAction(f"{action}: a player exchanges 0 to 5 cards")
            return HB_STAY + action.exchange
        if isinstance(action, Discard):
            return HB_DISCARD + _subset_bits(action, hand)
    else:
        if isinstance(action, BuckStay):
            return BE_SWAP if action.swap else BE_STAY
        if isinstance(action, Fold):
            return BE_FOLD
        if isinstance(action, Draw):
            return BE_DRAW + _subset_bits(action, hand)
    raise IllegalAction(f"{action!r} is not a {kind.title} action")
