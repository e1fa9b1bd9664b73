"""Playing cards as inline SVG: the ``:cards:`` role and the ``.. cards::`` directive.

``:cards:`AS KH 10D``` puts small card chips into running text;
``.. cards:: AS KH 10D`` draws a row of full cards.  The block form also takes
one labelled row per content line (``Seat 1: AS KH 10D``).  A card token may
carry ``@label`` (a caption under the card, e.g. the seat that played it) and a
trailing ``*`` (the card is highlighted: the trick's winner); a label that is
a number is shown as "seat N".  ``XX`` is a
face-down card.  Card codes are read by :func:`hucklebuck.parse_card`, so a
mistyped card stops the build.

HTML gets SVG with ``role="img"``, an ``aria-label`` and a ``<title>``; every
other builder (and the search index) gets the text form, e.g. ``10♦``.
No image files are involved: the suit shapes are drawn from the paths below.
"""

from __future__ import annotations

import html
import os
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.writers.html5 import HTML5Translator

import hucklebuck as hb

# Suit shapes in a 100 x 100 box (our own drawing).
SUIT_PATHS = {
    "D": "M50 2 L88 50 L50 98 L12 50 Z",
    "H": "M50 94 C22 70 2 52 4 30 C6 10 30 2 50 24 C70 2 94 10 96 30 C98 52 78 70 50 94 Z",
    "S": "M50 4 C72 30 98 44 96 66 C94 84 70 88 56 74 C58 84 62 92 70 98 L30 98 C38 92 42 84 44 74 "
    "C30 88 6 84 4 66 C2 44 28 30 50 4 Z",
    "C": "M50 6 A20 20 0 0 1 66 40 A20 20 0 1 1 58 74 C60 84 64 92 70 98 L30 98 C36 92 40 84 42 74 "
    "A20 20 0 1 1 34 40 A20 20 0 0 1 50 6 Z",
}
RED = "#c4172c"
BLACK = "#1b1b1f"
RANK_WORDS = {
    "A": "ace",
    "K": "king",
    "Q": "queen",
    "J": "jack",
    "10": "ten",
    "9": "nine",
    "8": "eight",
    "7": "seven",
    "6": "six",
    "5": "five",
    "4": "four",
    "3": "three",
    "2": "two",
}


def _suit_shape(suit: str, x: float, y: float, size: float, colour: str) -> str:
    k = size / 100
    return f'<path transform="translate({x:g} {y:g}) scale({k:g})" d="{SUIT_PATHS[suit]}" fill="{colour}"/>'


class Token:
    """One card token of a role or directive: the card (None: face down), caption, highlight."""

    def __init__(self, text: str) -> None:
        self.highlight = text.endswith("*")
        text = text.rstrip("*")
        text, _, self.label = text.partition("@")
        self.card = None if text.upper() in ("XX", "??") else hb.parse_card(text)

    @property
    def text(self) -> str:
        return "🂠" if self.card is None else self.card.display

    @property
    def spoken(self) -> str:
        if self.card is None:
            return "a face-down card"
        return f"{RANK_WORDS[self.card.rank.display]} of {self.card.suit.name.lower()}"


def parse_tokens(text: str) -> list[Token]:
    """Card tokens separated by spaces or commas."""
    return [Token(t) for t in text.replace(",", " ").split()]


def chip_svg(tok: Token) -> str:
    """A small inline chip: rank and suit side by side."""
    if tok.card is None:
        return (
            '<svg class="hb-chip" viewBox="0 0 30 40" role="img" aria-label="a face-down card">'
            "<title>face-down card</title>"
            '<rect x="1" y="1" width="28" height="38" rx="4" fill="#2f5d9a" stroke="#1d3c66"/></svg>'
        )
    rank = tok.card.rank.display
    suit = tok.card.suit.symbol
    colour = RED if tok.card.suit.is_red else BLACK
    w = 52 if len(rank) == 2 else 42
    return (
        f'<svg class="hb-chip{" hb-win" if tok.highlight else ""}" viewBox="0 0 {w} 30" '
        f'style="width:{w / 30 * 1.22:.2f}em" role="img" aria-label="{tok.spoken}">'
        f"<title>{html.escape(tok.text)}</title>"
        f'<rect x="1" y="1" width="{w - 2}" height="28" rx="5" fill="#fff" stroke="#8a8f98"/>'
        f'<text x="{4 if len(rank) == 2 else 6}" y="22" font-family="Arial, Helvetica, sans-serif" '
        f'font-weight="700" font-size="19" fill="{colour}">{rank}</text>'
        f"{_suit_shape(suit, w - 24, 5, 20, colour)}</svg>"
    )


def card_svg(tok: Token) -> str:
    """A full card: rank and suit in the corners, a large suit in the middle."""
    if tok.card is None:
        return (
            '<svg class="hb-card" viewBox="0 0 60 84" role="img" aria-label="a face-down card">'
            "<title>face-down card</title>"
            '<rect x="1" y="1" width="58" height="82" rx="6" fill="#2f5d9a" stroke="#1d3c66"/>'
            '<rect x="6" y="6" width="48" height="72" rx="3" fill="none" stroke="#9db8dc" '
            'stroke-dasharray="3 3"/></svg>'
        )
    rank = tok.card.rank.display
    suit = tok.card.suit.symbol
    colour = RED if tok.card.suit.is_red else BLACK
    font = 'font-family="Arial, Helvetica, sans-serif" font-weight="700"'
    fs = 17 if len(rank) == 2 else 19
    big = 34 if tok.card.rank is hb.Rank.ACE else 28
    return (
        f'<svg class="hb-card{" hb-win" if tok.highlight else ""}" viewBox="0 0 60 84" role="img" '
        f'aria-label="{tok.spoken}"><title>{html.escape(tok.text)}</title>'
        f'<rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#8a8f98" stroke-width="1.2"/>'
        f'<text x="5" y="20" {font} font-size="{fs}" fill="{colour}">{rank}</text>'
        f"{_suit_shape(suit, 5.5, 23, 12, colour)}"
        f"{_suit_shape(suit, 30 - big / 2, 46 - big / 2, big, colour)}"
        f'<g transform="rotate(180 30 42)"><text x="5" y="20" {font} font-size="{fs}" '
        f'fill="{colour}">{rank}</text>{_suit_shape(suit, 5.5, 23, 12, colour)}</g></svg>'
    )


class cards_inline(nodes.inline):
    """Inline cards; the text child is the fallback for non-HTML builders."""


class cards_block(nodes.container):
    """A block of card rows; the paragraph children are the fallback."""


def _text_of(tokens: list[Token]) -> str:
    parts = []
    for t in tokens:
        s = t.text + ("*" if t.highlight else "")
        label = f"seat {t.label}" if t.label.isdigit() else t.label
        parts.append(f"{s} ({label})" if t.label else s)
    return " ".join(parts)


class CardsRole(SphinxRole):
    """``:cards:`AS KH 10D``` — small card chips in running text."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        try:
            tokens = parse_tokens(self.text)
        except hb.HucklebuckError as exc:
            msg = self.inliner.reporter.error(f"cards: {exc}", line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, msg)], [msg]
        node = cards_inline(self.rawtext, _text_of(tokens), classes=["hb-cards-inline"])
        node["tokens"] = tokens
        return [node], []


class CardsDirective(SphinxDirective):
    """``.. cards:: AS KH 10D`` or one ``label: cards`` row per content line."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "caption": directives.unchanged,
        "class": directives.class_option,
    }

    def run(self) -> list[nodes.Node]:
        rows: list[tuple[str, list[Token]]] = []
        try:
            if self.arguments:
                rows.append(("", parse_tokens(self.arguments[0])))
            for line in self.content:
                if not line.strip():
                    continue
                label, sep, rest = line.rpartition(":")
                rows.append((label.strip() if sep else "", parse_tokens(rest)))
        except hb.HucklebuckError as exc:
            raise self.error(f"cards: {exc}") from exc
        if not rows:
            raise self.error("cards: no cards given")
        node = cards_block(classes=["hb-cards", *self.options.get("class", [])])
        node["rows"] = rows
        node["caption"] = self.options.get("caption", "")
        for label, tokens in rows:
            node += nodes.paragraph("", (f"{label}: " if label else "") + _text_of(tokens))
        if node["caption"]:
            node += nodes.paragraph("", node["caption"])
        self.set_source_info(node)
        return [node]


def visit_inline_html(self: HTML5Translator, node: cards_inline) -> None:
    svgs = "".join(chip_svg(t) for t in node["tokens"])
    self.body.append(f'<span class="hb-cards-inline">{svgs}</span>')
    raise nodes.SkipNode


def visit_block_html(self: HTML5Translator, node: cards_block) -> None:
    out = ['<div class="hb-cards" role="group">']
    for label, tokens in node["rows"]:
        out.append('<div class="hb-cards-row">')
        if label:
            out.append(f'<div class="hb-cards-label">{html.escape(label)}</div>')
        out.append('<div class="hb-cards-hand">')
        for t in tokens:
            label = f"seat {t.label}" if t.label.isdigit() else t.label
            cap = f'<span class="hb-cards-cap">{html.escape(label)}</span>' if t.label else ""
            out.append(f'<span class="hb-cards-one">{card_svg(t)}{cap}</span>')
        out.append("</div></div>")
    if node["caption"]:
        out.append(f'<div class="hb-cards-caption">{html.escape(node["caption"])}</div>')
    out.append("</div>")
    self.body.append("".join(out))
    raise nodes.SkipNode


def _add_static(app: Sphinx) -> None:
    static = os.path.join(os.path.dirname(__file__), "static")
    if static not in app.config.html_static_path:
        app.config.html_static_path.append(static)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_node(cards_inline, html=(visit_inline_html, lambda self, node: None))
    app.add_node(cards_block, html=(visit_block_html, lambda self, node: None))
    app.add_role("cards", CardsRole())
    app.add_directive("cards", CardsDirective)
    app.connect("config-inited", lambda a, c: _add_static(a))
    app.add_css_file("hbdocs.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
