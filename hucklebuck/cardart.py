"""Playing-card pictures as SVG, shared by the documentation and the browser table.

Everything is drawn from the suit outlines below (our own drawing): no image
files, no fonts beyond the usual sans-serif faces, no dependencies.  Red suits
are drawn red and black suits black, and the suit shape is always drawn, so the
cards read the same in greyscale.

>>> from hucklebuck.cards import Card
>>> svg = card_svg(Card.parse("TH"))
>>> svg.startswith('<svg class="hb-card"') and 'aria-label="ten of hearts"' in svg
True
>>> card_file("back").startswith("<svg xmlns=")
True
>>> len(card_files())
53
"""

from __future__ import annotations

import html
from typing import Final

from .cards import Card, Rank, Suit, parse_card
from .errors import CardError

__all__ = [
    "BACK",
    "BLACK",
    "RED",
    "SUIT_PATHS",
    "card_file",
    "card_files",
    "card_svg",
    "chip_svg",
    "spoken",
    "suit_svg",
]

SUIT_PATHS: Final[dict[str, str]] = {
    "D": "M50 2 L88 50 L50 98 L12 50 Z",
    "H": "M50 94 C22 70 2 52 4 30 C6 10 30 2 50 24 C70 2 94 10 96 30 C98 52 78 70 50 94 Z",
    "S": "M50 4 C72 30 98 44 96 66 C94 84 70 88 56 74 C58 84 62 92 70 98 L30 98 C38 92 42 84 44 74 "
    "C30 88 6 84 4 66 C2 44 28 30 50 4 Z",
    "C": "M50 6 A20 20 0 0 1 66 40 A20 20 0 1 1 58 74 C60 84 64 92 70 98 L30 98 C36 92 40 84 42 74 "
    "A20 20 0 1 1 34 40 A20 20 0 0 1 50 6 Z",
}
"""Each suit's outline (keyed by the protocol letter) in a 100 x 100 box."""

RED: Final = "#c4172c"
"""The colour of hearts and diamonds."""

BLACK: Final = "#1b1b1f"
"""The colour of clubs and spades."""

BACK: Final = "back"
"""The code :func:`card_file` takes for a face-down card."""

_RANK_WORDS: Final[dict[Rank, str]] = {
    Rank.ACE: "ace", Rank.KING: "king", Rank.QUEEN: "queen", Rank.JACK: "jack", Rank.TEN: "ten",
    Rank.NINE: "nine", Rank.EIGHT: "eight", Rank.SEVEN: "seven", Rank.SIX: "six", Rank.FIVE: "five",
    Rank.FOUR: "four", Rank.THREE: "three", Rank.TWO: "two",
}  # fmt: skip
_SUIT_WORDS: Final[dict[Suit, str]] = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}
_FONT: Final = 'font-family="Arial, Helvetica, sans-serif" font-weight="700"'
_XMLNS: Final = 'xmlns="http://www.w3.org/2000/svg"'


def spoken(card: Card | None) -> str:
    """The card in words, as a screen reader should say it (``ten of hearts``)."""
    if card is None:
        return "a face-down card"
    return f"{_RANK_WORDS[card.rank]} of {_SUIT_WORDS[card.suit]}"


def _colour(card: Card) -> str:
    return RED if card.suit.is_red else BLACK


def suit_svg(suit: Suit | str, x: float, y: float, size: float, colour: str | None = None) -> str:
    """A suit outline as an SVG ``<path>`` of ``size`` units with its top-left corner at ``(x, y)``."""
    s = suit if isinstance(suit, Suit) else Suit.parse(suit)
    fill = colour or (RED if s.is_red else BLACK)
    k = size / 100
    return f'<path transform="translate({x:g} {y:g}) scale({k:g})" d="{SUIT_PATHS[s.symbol]}" fill="{fill}"/>'


def chip_svg(card: Card | None, *, highlight: bool = False) -> str:
    """A small inline chip for running text: rank and suit side by side (``None``: face down)."""
    if card is None:
        return (
            '<svg class="hb-chip" viewBox="0 0 30 40" role="img" aria-label="a face-down card">'
            "<title>face-down card</title>"
            '<rect x="1" y="1" width="28" height="38" rx="4" fill="#2f5d9a" stroke="#1d3c66"/></svg>'
        )
    rank = card.rank.display
    colour = _colour(card)
    w = 52 if len(rank) == 2 else 42
    return (
        f'<svg class="hb-chip{" hb-win" if highlight else ""}" viewBox="0 0 {w} 30" '
        f'style="width:{w / 30 * 1.22:.2f}em" role="img" aria-label="{spoken(card)}">'
        f"<title>{html.escape(card.display)}</title>"
        f'<rect x="1" y="1" width="{w - 2}" height="28" rx="5" fill="#fff" stroke="#8a8f98"/>'
        f'<text x="{4 if len(rank) == 2 else 6}" y="22" {_FONT} font-size="19" fill="{colour}">{rank}</text>'
        f"{suit_svg(card.suit, w - 24, 5, 20, colour)}</svg>"
    )


def _card_body(card: Card | None) -> str:
    if card is None:
        return (
            '<rect x="1" y="1" width="58" height="82" rx="6" fill="#2f5d9a" stroke="#1d3c66"/>'
            '<rect x="6" y="6" width="48" height="72" rx="3" fill="none" stroke="#9db8dc" '
            'stroke-dasharray="3 3"/>'
        )
    rank = card.rank.display
    colour = _colour(card)
    fs = 17 if len(rank) == 2 else 19
    big = 34 if card.rank is Rank.ACE else 28
    corner = (
        f'<text x="5" y="20" {_FONT} font-size="{fs}" fill="{colour}">{rank}</text>'
        f"{suit_svg(card.suit, 5.5, 23, 12, colour)}"
    )
    return (
        '<rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#8a8f98" stroke-width="1.2"/>'
        f"{corner}{suit_svg(card.suit, 30 - big / 2, 46 - big / 2, big, colour)}"
        f'<g transform="rotate(180 30 42)">{corner}</g>'
    )


def card_svg(card: Card | None, *, highlight: bool = False) -> str:
    """A full card for inline HTML: rank and suit in two corners, a large suit in the middle.

    ``None`` draws the back of a card; ``highlight`` adds the ``hb-win`` class
    (the docs outline the winner of a trick with it).
    """
    title = "face-down card" if card is None else card.display
    return (
        f'<svg class="hb-card{" hb-win" if highlight else ""}" viewBox="0 0 60 84" role="img" '
        f'aria-label="{spoken(card)}"><title>{html.escape(title)}</title>{_card_body(card)}</svg>'
    )


def card_file(code: str) -> str:
    """A stand-alone SVG document of one card, for serving as ``image/svg+xml``.

    ``code`` is a card as :func:`~hucklebuck.cards.parse_card` reads it
    (canonical codes such as ``TH``) or :data:`BACK`; anything else raises
    :class:`~hucklebuck.errors.CardError`.
    """
    if not isinstance(code, str):
        raise CardError(f"a card must be a string, not {type(code).__name__}")
    card = None if code.strip().lower() == BACK else parse_card(code)
    title = "face-down card" if card is None else card.display
    return (
        f'<svg {_XMLNS} viewBox="0 0 60 84" width="120" height="168" role="img" aria-label="{spoken(card)}">'
        f"<title>{html.escape(title)}</title>{_card_body(card)}</svg>"
    )


def card_files() -> dict[str, str]:
    """Every card's :func:`card_file` by canonical code (``TH``), and the back as :data:`BACK`.

    53 small documents: a server can build them once and answer from memory.
    """
    out = {c.code: card_file(c.code) for c in (Card.from_index(i) for i in range(52))}
    out[BACK] = card_file(BACK)
    return out
