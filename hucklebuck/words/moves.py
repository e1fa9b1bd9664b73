"""A move in words, both ways: the menu's text for a legal move (``bid 3``, ``order up J♦``),
and reading a move a person typed (``10h``, ``trump hearts``, ``stay 2``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
from ..cards import Card, Suit, parse_cards, parse_suit
from ..errors import CardError
from ..games.base import Phase
from ..packs import GameKind
from .cards import SUIT_NAMES, card_text, cards_text, sort_hand

__all__ = ["NotNow", "Unreadable", "move_text", "parse_answer"]


class Unreadable(ValueError):
    """An answer that is not a move, a number or a command."""


class NotNow(Unreadable):
    """An answer that was understood (cards, say) but is no kind of move at this point of the hand."""


def move_text(action: Action, game: Any) -> str:
    """A legal move as the menu shows it (no seat: it is the reader's own)."""
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Bid):
        return f"bid {action.amount}" + (" (shoot the moon)" if action.amount == 5 else "")
    if isinstance(action, NameTrump):
        return f"trump {action.suit.glyph} {SUIT_NAMES[action.suit]}"
    if isinstance(action, Stay):
        return f"stay, exchange {action.exchange}"
    if isinstance(action, Drop):
        return "drop"
    if isinstance(action, Order):
        turned = getattr(game, "turned", None)
        if turned is None:
            return "order up"
        return f"order up {turned.display} ({turned.suit.glyph} {SUIT_NAMES[turned.suit]} trump)"
    if isinstance(action, Call):
        return f"call {action.suit.glyph} {SUIT_NAMES[action.suit]}"
    if isinstance(action, Discard):
        return f"discard {cards_text(sort_hand(action.cards, game.trump, game.kind), game.trump, game.kind)}"
    if isinstance(action, BuckStay):
        return "stay, swap the deuce for the upcard" if action.swap else "stay"
    if isinstance(action, Fold):
        return "fold"
    if isinstance(action, Draw):
        if not action.cards:
            return "stand pat"
        shown = cards_text(sort_hand(action.cards, game.trump, game.kind), game.trump, game.kind)
        return f"draw {len(action.cards)} for {shown}"
    if isinstance(action, Play):
        return card_text(action.card, game.trump, game.kind)
    return str(action)  # pragma: no cover - every action type is handled above


_SUIT_WORDS = {name: suit for suit, name in SUIT_NAMES.items()} | {
    name[:-1]: suit for suit, name in SUIT_NAMES.items()
}


def _suit(word: str) -> Suit:
    suit = _SUIT_WORDS.get(word)
    return suit if suit is not None else parse_suit(word)


def _cards(words: Sequence[str]) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(" ".join(words))))


def _int(word: str, what: str) -> int:
    if not word.isascii() or not word.isdigit() or len(word) > 3:
        raise Unreadable(f"{what} must be a number, not {word!r}")
    return int(word)


def parse_answer(kind: GameKind, phase: Phase, seat: int, text: str) -> Action:
    """Read a move typed by a person, leniently: ``bid 3``, ``pass``, ``10h``,
    ``trump hearts``, ``stay 2``, ``discard 3c 4d``, ``draw 2h 3h``, ``stand``...

    Raises :class:`Unreadable` or :class:`~hucklebuck.errors.CardError` saying why.
    """
    words = text.lower().replace(",", " ").replace("*", " ").split()  # '*' marks a left bower
    if not words:
        raise Unreadable("empty answer")
    verb, rest = words[0], words[1:]
    try:
        if verb == "pass":
            return Pass(seat)
        if verb == "drop":
            return Drop(seat)
        if verb == "fold":
            return Fold(seat)
        if verb == "order":
            return Order(seat)
        if verb == "bid":
            if len(rest) != 1:
                raise Unreadable("say how many tricks you bid, e.g. 'bid 3'")
            return Bid(seat, _int(rest[0], "a bid"))
        if verb in ("trump", "name", "call"):
            if len(rest) != 1:
                raise Unreadable(f"say which suit, e.g. '{verb} hearts' or '{verb} h'")
            suit = _suit(rest[0])
            return Call(seat, suit) if kind is GameKind.DEERPARK else NameTrump(seat, suit)
        if verb == "stay":
            if kind is GameKind.BUCKEM:
                if rest and rest != ["swap"]:
                    raise Unreadable("write 'stay' or 'stay swap'")
                return BuckStay(seat, bool(rest))
            if len(rest) != 1:
                raise Unreadable("say how many cards you will exchange, e.g. 'stay 2'")
            return Stay(seat, _int(rest[0], "the number of cards to exchange"))
        if verb == "swap":
            return BuckStay(seat, True)
        if verb in ("stand", "pat", "keep"):
            return Draw(seat, ())
        if verb == "draw":
            if rest in ([], ["0"], ["none"], ["nothing"]):
                return Draw(seat, ())
            return Draw(seat, _cards(rest))
        if verb == "discard":
            if not rest:
                raise Unreadable("say which cards, e.g. 'discard 3c 4d'")
            return Discard(seat, _cards(rest))
        if verb == "play":
            if len(rest) != 1:
                raise Unreadable("say which card, e.g. 'play 10h'")
            return Play(seat, _cards(rest)[0])
        if len(words) == 1 and phase in (Phase.TRUMP, Phase.CALL):
            suit = _suit(verb)
            return Call(seat, suit) if phase is Phase.CALL else NameTrump(seat, suit)
        if phase not in _CARD_PHASES:
            try:
                _cards(words)
            except CardError:
                raise Unreadable("that is not a move") from None
            during = phase.value.replace("_", " ")
            raise NotNow(f"no card is played now, during the {during}; ? lists your moves")
        cards = _cards(words)
    except CardError as exc:
        raise Unreadable(str(exc)) from None
    if phase is Phase.PLAY:
        if len(cards) != 1:
            raise Unreadable("play one card at a time")
        return Play(seat, cards[0])
    if phase in (Phase.EXCHANGE, Phase.DEALER_DISCARD):
        return Discard(seat, cards)
    if phase is Phase.DRAW:
        return Draw(seat, cards)
    raise NotNow("cards are not an answer now; ? lists your moves")




_CARD_PHASES = frozenset({Phase.PLAY, Phase.EXCHANGE, Phase.DEALER_DISCARD, Phase.DRAW})
