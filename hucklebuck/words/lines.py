"""One line of a game in words: what a player did, a finished trick, an order up,
the phase, how the game is won; rule citations kept or left out."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
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
from ..cards import Card, Suit
from ..games.base import Phase
from ..games.engine import TrickGame
from ..packs import GameKind
from .cards import SUIT_NAMES, card_text, cards_text, sort_hand

__all__ = [
    "CITATIONS",
    "PHASE_WORDS",
    "describe_action",
    "drop_citations",
    "game_rules_line",
    "order_up_line",
    "score_reason",
    "second_person",
    "trick_line",
]

CITATIONS = (
    "S0-S4 name the rule sources and DEF #n the library's rule decisions where they are "
    "silent (both listed in the rules pages of the documentation)."
)
"""What the citations on scoring lines mean, said once where they are shown."""

_CITE_PART = re.compile(r"^(S\d( header)?|DEF #\d+(-#\d+)?|#\d+(-#\d+)?|DEF)$")
_PAREN = re.compile(r"\s*\(([^()]*)\)")


def drop_citations(text: str) -> str:
    """``text`` without rule citations: ``(S0, S2, DEF #7)`` goes, and
    ``(moon_at_zero=score_normally, DEF #12)`` keeps only ``(moon_at_zero=score_normally)``."""

    def clean(m: re.Match[str]) -> str:
        parts = [p.strip() for p in m.group(1).split(",")]
        kept = [p for p in parts if not _CITE_PART.match(p)]
        if len(kept) == len(parts):
            return m.group(0)
        return f" ({', '.join(kept)})" if kept else ""

    return _PAREN.sub(clean, text)


def describe_action(
    action: Action,
    name: str,
    *,
    show_cards: bool = True,
    trump: Suit | None = None,
    kind: GameKind | None = None,
) -> str:
    """One line saying what a player did (``P2 bids 3``); with ``trump`` and ``kind``
    the cards are listed as the hand shows them, a left bower marked."""

    def shown_cards(cards: Iterable[Card]) -> str:
        if kind is None:
            return cards_text(cards)
        return cards_text(sort_hand(cards, trump, kind), trump, kind)

    if isinstance(action, Bid):
        return f"{name} bids {action.amount}" + (" (to shoot the moon)" if action.amount == 5 else "")
    if isinstance(action, Pass):
        return f"{name} passes"
    if isinstance(action, NameTrump):
        return f"{name} names trump: {action.suit.glyph} {SUIT_NAMES[action.suit]}"
    if isinstance(action, Stay):
        return f"{name} stays, exchanging {action.exchange} card" + ("" if action.exchange == 1 else "s")
    if isinstance(action, Drop):
        return f"{name} drops"
    if isinstance(action, Order):
        return f"{name} orders it up"
    if isinstance(action, Call):
        return f"{name} calls {action.suit.glyph} {SUIT_NAMES[action.suit]}"
    if isinstance(action, Discard):
        n = len(action.cards)
        shown = f": {shown_cards(action.cards)}" if show_cards else ""
        return f"{name} discards {n} card" + ("" if n == 1 else "s") + shown
    if isinstance(action, BuckStay):
        return f"{name} stays" + (" and swaps the deuce for the upcard" if action.swap else "")
    if isinstance(action, Fold):
        return f"{name} folds"
    if isinstance(action, Draw):
        n = len(action.cards)
        if not n:
            return f"{name} stands pat"
        shown = f" {shown_cards(action.cards)}" if show_cards else f" {n}"
        return f"{name} discards{shown} and draws {n}"
    if isinstance(action, Play):
        return f"{name} plays {card_text(action.card, trump, kind)}"
    return f"{name}: {action}"  # pragma: no cover - every action type is handled above


def order_up_line(name: str, upcard: Card, dealer: str) -> str:
    """Deer Park Euchre's order up in words (``Ben orders up J♦: diamonds are trump; Ann picks it up``)."""
    trump = SUIT_NAMES[upcard.suit]
    if dealer == name:
        takes = "and pick it up" if name == "You" else "and picks it up"
        return f"{name} orders up {upcard.display} {takes}: {trump} are trump"
    takes = "you pick it up" if dealer == "You" else f"{dealer} picks it up"
    return f"{name} orders up {upcard.display}: {trump} are trump; {takes}"


def trick_line(
    number: int,
    seats: Sequence[int],
    cards: Sequence[Card],
    winner: int,
    names: Sequence[str],
    trump: Suit | None = None,
    kind: GameKind | None = None,
) -> str:
    """A completed trick in words (``Trick 2: Ann 10♥, Ben A♥  -> Ben wins it``); give ``trump``
    and ``kind`` to mark Deer Park's left bower."""
    plays = ", ".join([f"{names[s]} {card_text(c, trump, kind)}" for s, c in zip(seats, cards, strict=True)])
    return f"Trick {number}: {plays}  -> {names[winner]} wins it"


_SECOND_PERSON = {
    "bids": "bid", "passes": "pass", "names": "name", "stays": "stay", "drops": "drop",
    "orders": "order", "calls": "call", "discards": "discard", "folds": "fold", "stands": "stand",
    "plays": "play", "deals": "deal", "gets": "get", "wins": "win", "is": "are", "shoots": "shoot",
    "swaps": "swap", "draws": "draw", "goes": "go", "has": "have", "leads": "lead",
    "picks": "pick", "takes": "take", "needs": "need", "rakes": "rake",
}  # fmt: skip
_YOU_VERB = re.compile(r"\b(You|and) (" + "|".join(_SECOND_PERSON) + r")\b")


def second_person(line: str) -> str:
    """``You bids 3`` becomes ``You bid 3`` (the narration is written for named seats)."""
    if "You" not in line:
        return line
    line = line.replace("You's ", "Your ")
    return _YOU_VERB.sub(lambda m: f"{m.group(1)} {_SECOND_PERSON[m.group(2)]}", line)


def game_rules_line(game: TrickGame[Any, Any]) -> str:
    """How the game is won, in one sentence."""
    kind = game.kind
    if kind is GameKind.HUCKLEBUCK:
        target = game.options.target
        return (
            f"First to {target} points wins; a successful moon (bid 5, take all five) wins at once "
            "from a positive score; a player at -25 or below is out (S0, S2)."
        )
    if kind is GameKind.DEERPARK:
        return (
            "Everyone starts at 20 and races to one of two goals: down to 0 (meeting your "
            "requirement counts a point down for each trick) or up to 50 (missing it adds 5). The "
            "maker needs 3 tricks (a stuck dealer 2), everyone else 1. The first to reach either "
            "goal wins (S4)."
        )
    return (
        "Each hand everyone antes into the pot (not after a burn). A stayer who takes two or more "
        "tricks wins the pot (two such split it); a stayer with fewer is burned and pays the pot's "
        "size into the next one. A player who stays alone plays no cards: holding the ace of "
        "trump, or two trumps one of them a king, queen or jack, they rake the pot (half of a "
        "double or larger pot); otherwise the pot carries. A session has no natural end: it "
        "stops after --hands hands "
        "(10 unless told) and the biggest bankroll leads (S3)."
    )


_TOOK = re.compile(r"\btook (\d+)( tricks?)?(?![\d.])")


def score_reason(text: str) -> str:
    """A scoring line's reason in one voice: ``took 0`` and ``took 0 tricks`` read ``took no
    trick``; ``took 1 tricks`` reads ``took 1 trick``; a bare ``took 3`` reads ``took 3 tricks``."""

    def took(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return "took no trick" if n == 0 else f"took {n} trick{'' if n == 1 else 's'}"

    return _TOOK.sub(took, text)


PHASE_WORDS = {
    Phase.AUCTION: "the auction",
    Phase.TRUMP: "naming trump",
    Phase.DECLARE: "stay or drop",
    Phase.EXCHANGE: "the exchange",
    Phase.ORDER: "order up or pass (round 1)",
    Phase.CALL: "call a suit or pass (round 2)",
    Phase.DEALER_DISCARD: "the dealer's discard",
    Phase.STAY_FOLD: "stay or fold",
    Phase.DRAW: "the draw",
    Phase.PLAY: "the play",
    Phase.HAND_OVER: "the hand is over",
    Phase.GAME_OVER: "the game is over",
}
"""Each phase of a hand in words."""
