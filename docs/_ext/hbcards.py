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
The drawing itself is :mod:`hucklebuck.cardart`, which the browser table uses too.
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
from hucklebuck import cardart


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
        return cardart.spoken(self.card)


def parse_tokens(text: str) -> list[Token]:
    """Card tokens separated by spaces or commas."""
    return [Token(t) for t in text.replace(",", " ").split()]


def chip_svg(tok: Token) -> str:
    """A small inline chip: rank and suit side by side."""
    return cardart.chip_svg(tok.card, highlight=tok.highlight)


def card_svg(tok: Token) -> str:
    """A full card: rank and suit in the corners, a large suit in the middle."""
    return cardart.card_svg(tok.card, highlight=tok.highlight)


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
