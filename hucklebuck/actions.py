"""Actions: typed, immutable values, each with its protocol text form.

Every action names the seat that takes it, so acting out of turn is caught.
``str(action)`` is the form the conformance protocol uses (``"1 bid 3"``,
``"2 discard 4C 9H"``) and :func:`parse_action` reads it back.

>>> parse_action("hucklebuck", "1 bid 3")
Bid(seat=1, amount=3)
>>> str(Discard(2, parse_cards("9H 4C")))
'2 discard 4C 9H'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from .cards import Card, Suit, parse_cards
from .errors import ActionParseError, CardError, IllegalAction
from .packs import GameKind

__all__ = [
    "Action",
    "Bid",
    "BuckStay",
    "Call",
    "Discard",
    "Draw",
    "Drop",
    "Fold",
    "NameTrump",
    "Order",
    "Pass",
    "Play",
    "Stay",
    "parse_action",
]


@dataclass(frozen=True)
class _ActionBase:
    seat: int
    verb: ClassVar[str] = ""

    def __post_init__(self) -> None:
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 0:
            raise ActionParseError(f"an action's seat must be a non-negative integer, not {self.seat!r}")

    def _args(self) -> str:
        return ""

    def __str__(self) -> str:
        args = self._args()
        return f"{self.seat} {self.verb}" + (f" {args}" if args else "")


@dataclass(frozen=True)
class Play(_ActionBase):
    """Play ``card`` to the current trick (all games)."""

    card: Card
    verb: ClassVar[str] = "play"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.card, Card):
            raise ActionParseError(f"play needs a Card, not {self.card!r}")

    def _args(self) -> str:
        return self.card.code


@dataclass(frozen=True)
class Pass(_ActionBase):
    """Pass in an auction or a trump-calling round."""

    verb: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Bid(_ActionBase):
    """Hucklebuck: bid ``amount`` tricks (2..5; 5 is shooting the moon)."""

    amount: int
    verb: ClassVar[str] = "bid"

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.amount, bool) or not isinstance(self.amount, int):
            raise ActionParseError(f"a bid must be an integer, not {self.amount!r}")

    def _args(self) -> str:
        return str(self.amount)


@dataclass(frozen=True)
class NameTrump(_ActionBase):
    """Hucklebuck: the high bidder names the trump suit."""

    suit: Suit
    verb: ClassVar[str] = "trump"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.suit, Suit):
            raise ActionParseError(f"trump needs a Suit, not {self.suit!r}")

    def _args(self) -> str:
        return self.suit.symbol


@dataclass(frozen=True)
class Stay(_ActionBase):
    """Hucklebuck: stay in the hand and exchange ``exchange`` cards (0..5)."""

    exchange: int
    verb: ClassVar[str] = "stay"

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.exchange, bool) or not isinstance(self.exchange, int):
            raise ActionParseError(f"an exchange count must be an integer, not {self.exchange!r}")

    def _args(self) -> str:
        return str(self.exchange)


@dataclass(frozen=True)
class Drop(_ActionBase):
    """Hucklebuck: drop out of this hand."""

    verb: ClassVar[str] = "drop"


@dataclass(frozen=True)
class Discard(_ActionBase):
    """Discard these cards (Hucklebuck exchange; Deer Park dealer's discard).

    The cards are kept in canonical order, so equal discards compare equal.
    """

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "discard"

    def __post_init__(self) -> None:
        super().__post_init__()
        cards = tuple(self.cards)
        if not all(isinstance(c, Card) for c in cards):
            raise ActionParseError(f"discard needs Cards, not {self.cards!r}")
        object.__setattr__(self, "cards", tuple(sorted(cards)))

    def _args(self) -> str:
        return " ".join(c.code for c in self.cards)


@dataclass(frozen=True)
class Order(_ActionBase):
    """Deer Park Euchre, round 1: order up the turned card's suit as trump."""

    verb: ClassVar[str] = "order"


@dataclass(frozen=True)
class Call(_ActionBase):
    """Deer Park Euchre, round 2: name ``suit`` as trump."""

    suit: Suit
    verb: ClassVar[str] = "call"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.suit, Suit):
            raise ActionParseError(f"call needs a Suit, not {self.suit!r}")

    def _args(self) -> str:
        return self.suit.symbol


@dataclass(frozen=True)
class BuckStay(_ActionBase):
    """Buck 'Em: stay in the round; with ``swap`` also exchange the dealt 2 of
    trump for the upcard (the deuce-swap variant)."""

    swap: bool = False
    verb: ClassVar[str] = "stay"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.swap, bool):
            raise ActionParseError(f"swap must be True or False, not {self.swap!r}")

    def _args(self) -> str:
        return "swap" if self.swap else ""


@dataclass(frozen=True)
class Fold(_ActionBase):
    """Buck 'Em: fold (sit the round out)."""

    verb: ClassVar[str] = "fold"


@dataclass(frozen=True)
class Draw(_ActionBase):
    """Buck 'Em: discard these cards (0-3) and draw as many; no cards stands pat."""

    cards: tuple[Card, ...] = ()
    verb: ClassVar[str] = "draw"

    def __post_init__(self) -> None:
        super().__post_init__()
        cards = tuple(self.cards)
        if not all(isinstance(c, Card) for c in cards):
            raise ActionParseError(f"draw needs Cards, not {self.cards!r}")
        object.__setattr__(self, "cards", tuple(sorted(cards)))

    def _args(self) -> str:
        return " ".join(c.code for c in self.cards)


Action: TypeAlias = (
    Play | Pass | Bid | NameTrump | Stay | Drop | Discard | Order | Call | BuckStay | Fold | Draw
)
"""Any action of any game."""


_MAX_DIGITS: Final = 18


def _int(text: str, what: str) -> int:
    # Only ASCII digits are numbers in action text (str.isdigit() also accepts
    # "²" and "١"); a number too long for any seat or count is refused before
    # int() is asked to convert thousands of digits.
    if not text or text.strip("0123456789") or not text.isascii():
        raise ActionParseError(f"{what} must be a number (ASCII digits), not {text[:40]!r}")
    if len(text) > _MAX_DIGITS:
        raise ActionParseError(f"{what} has {len(text)} digits; at most {_MAX_DIGITS} are read")
    return int(text)


def _card(text: str) -> Card:
    try:
        return Card.parse(text)
    except CardError as exc:
        raise ActionParseError(str(exc)) from None


def _suit(text: str) -> Suit:
    if len(text) != 1 or text not in "CDHS":
        raise ActionParseError(f"{text!r} is not a suit (expected C, D, H or S)")
    return Suit("CDHS".index(text))


def _canonical(cards: list[Card], text: str) -> tuple[Card, ...]:
    if cards != sorted(cards):
        raise IllegalAction(f"{text!r}: cards must be listed in canonical order")
    if len(set(cards)) != len(cards):
        raise IllegalAction(f"{text!r}: a card is listed twice")
    return tuple(cards)


_Parser = Callable[[int, list[str], str], Action]


def _arity(args: list[str], n: int, text: str) -> None:
    if len(args) != n:
        raise IllegalAction(f"{text!r}: expected {n} argument(s), got {len(args)}")


def _p_play(seat: int, args: list[str], text: str) -> Action:
    _arity(args, 1, text)
    return Play(seat, _card(args[0]))


def _p_pass(seat: int, args: list[str], text: str) -> Action:
    _arity(args, 0, text)
    return Pass(seat)


def _p_bid(seat: int, args: list[str], text: str) -> Action:
    _arity(args, 1, text)
    return Bid(seat, _int(args[0], "a bid"))


def _p_trump(seat: int, args: list[str], text: str) -> Action:
    _arity(args, 1, text)
    return NameTrump(seat, _suit(args[0]))


def _p_stay(seat: int, args: list[str], text: str) -> Action:
    _arity(args, 1, text)
    return Stay(seat, _int(args[0], "an exchange count"))


def _p_drop(seat: int, args: list[str], text: str) -> Action:
    _arity(args, 0, text)
    return Drop(seat)


def _p_order(seat: int, args: list[str], text: str) -> Action:
    _arity(args, 0, text)
    return Order(seat)


def _p_call(seat: int, args: list[str], text: str) -> Action:
    _arity(args, 1, text)
    return Call(seat, _suit(args[0]))


def _p_discard_one(seat: int, args: list[str], text: str) -> Action:
    _arity(args, 1, text)
    return Discard(seat, (_card(args[0]),))


def _p_buck_stay(seat: int, args: list[str], text: str) -> Action:
    if not args:
        return BuckStay(seat)
    _arity(args, 1, text)
    if args[0] != "swap":
        raise IllegalAction(f"{text!r}: 'stay' takes no argument but 'swap'")
    return BuckStay(seat, True)


def _p_fold(seat: int, args: list[str], text: str) -> Action:
    _arity(args, 0, text)
    return Fold(seat)


def _p_draw(seat: int, args: list[str], text: str) -> Action:
    cards = [_card(a) for a in args]
    return Draw(seat, _canonical(cards, text))


def _p_discard(seat: int, args: list[str], text: str) -> Action:
    cards = [_card(a) for a in args]
    return Discard(seat, _canonical(cards, text))


_VERBS: Final[dict[GameKind, dict[str, _Parser]]] = {
    GameKind.HUCKLEBUCK: {
        "play": _p_play,
        "pass": _p_pass,
        "bid": _p_bid,
        "trump": _p_trump,
        "stay": _p_stay,
        "drop": _p_drop,
        "discard": _p_discard,
    },
    GameKind.BUCKEM: {
        "play": _p_play,
        "stay": _p_buck_stay,
        "fold": _p_fold,
        "draw": _p_draw,
    },
    GameKind.DEERPARK: {
        "play": _p_play,
        "pass": _p_pass,
        "order": _p_order,
        "call": _p_call,
        "discard": _p_discard_one,
    },
}


def parse_action(game: GameKind | str, text: str) -> Action:
    """Read an action in protocol form (``"<seat> <verb> [args]"``).

    Text that cannot be read (not a string, no numeric seat, an unknown card or
    suit, a non-numeric count) raises :class:`~hucklebuck.errors.ActionParseError`;
    readable text the rules forbid outright (a verb this game does not have,
    the wrong number of arguments, cards out of canonical order) raises
    :class:`~hucklebuck.errors.IllegalAction` (protocol section 6.2).
    """
    kind = GameKind.coerce(game)
    if not isinstance(text, str):
        raise ActionParseError(f"an action must be a string, not {type(text).__name__}")
    parts = text.split(" ")
    if len(parts) < 2 or any(p == "" for p in parts):
        raise ActionParseError(f"{text!r} is not an action (expected '<seat> <verb> [args]')")
    seat = _int(parts[0], "the seat")
    verbs = _VERBS.get(kind, {})
    parser = verbs.get(parts[1])
    if parser is None:
        raise IllegalAction(f"{text!r}: {kind.title} has no action {parts[1]!r}")
    return parser(seat, parts[2:], text)


def discard_of(seat: int, text: str) -> Discard:
    """Build a discard from leniently typed cards (``"9h 4c"``)."""
    return Discard(seat, parse_cards(text))
