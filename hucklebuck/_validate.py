"""Argument checks shared by the public API, run once above both cores.

Every public function of :mod:`hucklebuck.tricks` and :mod:`hucklebuck.evaluate`
checks each of its arguments here before anything reaches a core, so the C
core and the pure-Python core only ever see valid input and both raise the
same error for the same bad argument.  (The C boundary keeps its own checks
as a second wall.)

The rules these checkers enforce:

* **Errors are the library's own.**  A wrong value *or a wrong Python type*
  for an argument raises a :class:`~hucklebuck.errors.HucklebuckError`
  subclass (which is also a :class:`ValueError`) whose message starts with the
  argument's name, never a bare :class:`TypeError`, :class:`AttributeError` or
  :class:`OverflowError`.  Only calling a function with a wrong *signature*
  (a missing or unknown keyword) raises Python's own :class:`TypeError`.
* **Suits** are given as a :class:`~hucklebuck.cards.Suit` or as the suit's
  protocol letter ``"C"``, ``"D"``, ``"H"`` or ``"S"``.  Plain numbers, other
  strings and floats are refused (:class:`~hucklebuck.errors.CardError`).
* **Cards** are :class:`~hucklebuck.cards.Card` objects and **hands** are a
  :class:`~hucklebuck.cards.CardSet` or an iterable of cards (not a string:
  use :func:`~hucklebuck.cards.parse_cards` first).
* **Integers** (seats, counts, seeds) are :class:`int` and not :class:`bool`;
  a float such as ``2.0`` is refused rather than truncated.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .cards import Card, CardSet, Suit
from .errors import CardError, HucklebuckError, OptionsError, PlayerCountError
from .packs import GameKind

__all__ = [
    "MAX_SEED",
    "boolean",
    "card",
    "game",
    "hand",
    "integer",
    "seat",
    "seat_list",
    "shown",
    "suit",
]

#: Seeds are 64-bit: 0 .. 2**64 - 1.
MAX_SEED: Final = (1 << 64) - 1
_LETTERS: Final = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES}


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not replace the real error
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def integer(
    value: object,
    name: str,
    lo: int,
    hi: int,
    error: type[HucklebuckError] = OptionsError,
) -> int:
    """``value`` as an int in ``lo..hi`` (inclusive), else ``error`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{name} must be an integer {lo}..{hi}, not {shown(value)} ({type(value).__name__})")
    if not lo <= value <= hi:
        raise error(f"{name} must be an integer {lo}..{hi}, not {shown(value)}")
    return int(value)


def boolean(value: object, name: str) -> bool:
    """``value`` if it is a bool, else :class:`OptionsError` naming ``name``."""
    if not isinstance(value, bool):
        raise OptionsError(f"{name} must be True or False, not {shown(value)}")
    return value


def seat(value: object, name: str, players: int) -> int:
    """A seat number ``0..players-1``, else :class:`PlayerCountError` naming ``name``."""
    return integer(value, name, 0, players - 1, PlayerCountError)


def seat_list(value: object, name: str, players: int) -> list[int]:
    """Distinct seats ``0..players-1`` in ascending order, from a list, tuple or set of ints."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise PlayerCountError(f"{name} must be a list of seats, not {shown(value)}")
    seats = [seat(s, f"{name} entry", players) for s in value]
    if len(set(seats)) != len(seats):
        raise PlayerCountError(f"{name} lists a seat twice: {shown(value)}")
    return sorted(seats)


def game(value: object, name: str = "game") -> GameKind:
    """A :class:`GameKind` from itself or its protocol name."""
    if isinstance(value, GameKind):
        return value
    if not isinstance(value, str):
        raise OptionsError(
            f"{name} must be a GameKind or one of 'hucklebuck', 'buckem', 'deerpark', not {shown(value)}"
        )
    try:
        return GameKind.coerce(value)
    except OptionsError as exc:
        raise OptionsError(f"{name}: {exc}") from None


def suit(value: object, name: str = "trump") -> Suit:
    """A :class:`Suit` from itself or its protocol letter (the one rule for suit arguments)."""
    if isinstance(value, Suit):
        return value
    if isinstance(value, str):
        found = _LETTERS.get(value)
        if found is not None:
            return found
    raise CardError(f"{name}: {shown(value)} is not a suit (give a Suit or one of the letters C, D, H, S)")


def card(value: object, name: str) -> Card:
    """``value`` if it is a :class:`Card`, else :class:`CardError` naming ``name``."""
    if not isinstance(value, Card):
        hint = f" (use parse_card({value!r}))" if isinstance(value, str) and len(value) < 8 else ""
        raise CardError(f"{name} must be a Card, not {shown(value)}{hint}")
    return value


def hand(value: object, name: str) -> CardSet:
    """A :class:`CardSet` from itself or an iterable of distinct cards."""
    if isinstance(value, CardSet):
        return value
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise CardError(
            f"{name} must be a CardSet or a list of Cards, not {shown(value)} (parse text with parse_cards)"
        )
    mask = 0
    for i, c in enumerate(value):
        c = card(c, f"{name} item {i}")
        if mask & c.mask:
            raise CardError(f"{name}: card {c.code} appears twice")
        mask |= c.mask
    return CardSet.from_mask(mask)
