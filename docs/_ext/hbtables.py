"""Tables generated from the engine and the conformance suite, so they cannot drift.

* ``.. pack-table:: GAME`` — the pack for each player count, read from
  :func:`hucklebuck.pack` (Buck 'Em also shows the optional short pack).
* ``.. trump-order-table::`` — Deer Park Euchre's trumps, highest first, for each
  trump suit, ordered by :func:`hucklebuck.trick_winner` itself.
* ``.. decision-cases:: FIRST LAST`` — for each ``DEF #n`` in the range, the
  conformance cases (``conformance/cases``) that cite it, each with an anchor.
* ``:def-cases:`59``` — a link from a rule decision to those cases.
"""

from __future__ import annotations

import functools
import json
import os
from collections import defaultdict
from typing import Any

from docutils import nodes
from hbcards import Token, _text_of, cards_inline
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective, SphinxRole

import hucklebuck as hb

CASES_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "conformance", "cases")
CASES_DOC = "rules/cases"
MAX_LISTED = 8


def _chips(cards: list[hb.Card]) -> cards_inline:
    tokens = [Token(c.code) for c in cards]
    node = cards_inline("", _text_of(tokens), classes=["hb-cards-inline"])
    node["tokens"] = tokens
    return node


def _table(header: list[str], rows: list[list[nodes.Node | str]], widths: list[int]) -> nodes.table:
    table = nodes.table(classes=["hb-table"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for w in widths:
        group += nodes.colspec(colwidth=w)
    thead = nodes.thead()
    group += thead
    hrow = nodes.row()
    for h in header:
        hrow += nodes.entry("", nodes.paragraph("", h))
    thead += hrow
    tbody = nodes.tbody()
    group += tbody
    for r in rows:
        row = nodes.row()
        for cell in r:
            para = nodes.paragraph()
            para += nodes.Text(cell) if isinstance(cell, str) else cell
            row += nodes.entry("", para)
        tbody += row
    return table


def _lowest_rank(cards: hb.CardSet) -> hb.Rank:
    return min(c.rank for c in cards)


class PackTable(SphinxDirective):
    """The pack per player count for one game."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        kind = hb.GameKind.coerce(self.arguments[0])
        lo, hi = hb.player_range(kind)
        rows: list[list[nodes.Node | str]] = []
        short = kind is hb.GameKind.BUCKEM
        for n in range(lo, hi + 1):
            full = hb.pack(kind, n)
            row: list[nodes.Node | str] = [str(n), f"{len(full)} cards, {_lowest_rank(full).display} to A"]
            row.append(f"{len(full) - 5 * n}")
            if short:
                sh = hb.pack(kind, n, short_handed=True)
                row.append(f"{len(sh)} cards, {_lowest_rank(sh).display} to A; {len(sh) - 5 * n} left")
            rows.append(row)
        if kind is hb.GameKind.DEERPARK:
            eight = hb.pack(kind, 8, eight_players=True)
            rows.append(
                [
                    "8",
                    f"{len(eight)} cards, {_lowest_rank(eight).display} to A (option)",
                    "0 + the dealer's last card is turned",
                ]
            )
        header = ["players", "pack", "cards left after the deal"]
        widths = [12, 40, 28]
        if short:
            header.append("short pack (short_handed)")
            widths = [10, 30, 20, 40]
        return [_table(header, rows, widths)]


def _trump_order(trump: hb.Suit, pack_cards: hb.CardSet) -> list[hb.Card]:
    trumps = [c for c in pack_cards if hb.effective_suit("deerpark", trump, c) is trump]

    def cmp(a: hb.Card, b: hb.Card) -> int:  # a trick led with a: does b beat it?
        return 1 if hb.trick_winner("deerpark", trump, [a, b]) == 1 else -1

    return sorted(trumps, key=functools.cmp_to_key(cmp))


class TrumpOrderTable(SphinxDirective):
    """Deer Park Euchre's trumps for each trump suit (seven-player pack), highest first."""

    def run(self) -> list[nodes.Node]:
        full = hb.pack("deerpark", 7)
        rows: list[list[nodes.Node | str]] = []
        for trump in (hb.Suit.SPADES, hb.Suit.HEARTS, hb.Suit.DIAMONDS, hb.Suit.CLUBS):
            order = _trump_order(trump, full)
            same = trump.partner
            rest = sorted(
                (c for c in full if c.suit is same and hb.effective_suit("deerpark", trump, c) is same),
                key=lambda c: -c.rank,
            )
            rows.append([f"{trump.glyph} {trump.name.lower()}", _chips(order), _chips(rest)])
        table = _table(
            ["trump", "trumps, highest first (right bower, left bower, A ...)", "same-colour suit: no jack"],
            rows,
            [12, 52, 36],
        )
        return [table]


@functools.cache
def _cases_by_def() -> dict[int, list[tuple[str, str, str]]]:
    found: dict[int, list[tuple[str, str, str]]] = defaultdict(list)
    for game in sorted(os.listdir(CASES_DIR)):
        gdir = os.path.join(CASES_DIR, game)
        if not os.path.isdir(gdir):
            continue
        for name in sorted(os.listdir(gdir)):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(gdir, name), encoding="utf-8") as fh:
                data = json.load(fh)
            for case in data.get("cases", []):
                for d in case.get("decisions", []):
                    num = int(str(d).split("#")[-1])
                    found[num].append((case["id"], case.get("title", ""), f"conformance/cases/{game}/{name}"))
    return dict(found)


class DecisionCases(SphinxDirective):
    """For each DEF #n from FIRST to LAST, the conformance cases citing it."""

    required_arguments = 2

    def run(self) -> list[nodes.Node]:
        first, last = int(self.arguments[0]), int(self.arguments[1])
        self.env.note_dependency(os.path.abspath(CASES_DIR))
        std = self.env.domains.standard_domain
        out: list[nodes.Node] = []
        for num in range(first, last + 1):
            cases = _cases_by_def().get(num, [])
            anchor = f"def-{num}"
            target = nodes.target("", "", ids=[anchor])
            std.note_hyperlink_target(f"hb-def-{num}", self.env.docname, anchor, f"DEF #{num}")
            para = nodes.paragraph(classes=["hb-def-cases"])
            para += nodes.strong("", f"DEF #{num}")
            if not cases:
                para += nodes.Text(" — no conformance case cites it (a definition, not a testable outcome).")
                out += [target, para]
                continue
            para += nodes.Text(f" — {len(cases)} case{'s' if len(cases) != 1 else ''}")
            files = sorted({f for _, _, f in cases})
            para += nodes.Text(" in ")
            for i, f in enumerate(files):
                if i:
                    para += nodes.Text(", ")
                para += nodes.literal("", f)
            para += nodes.Text(":")
            items = nodes.bullet_list()
            for cid, title, _ in cases[:MAX_LISTED]:
                item = nodes.list_item()
                p = nodes.paragraph()
                p += nodes.literal("", cid)
                p += nodes.Text(f" — {title}")
                item += p
                items += item
            if len(cases) > MAX_LISTED:
                item = nodes.list_item()
                item += nodes.paragraph("", f"and {len(cases) - MAX_LISTED} more")
                items += item
            out += [target, para, items]
        return out


class DefCasesRole(SphinxRole):
    """``:def-cases:`59``` — "cases" linking to the conformance cases citing DEF #59."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        nums = [int(x) for x in self.text.replace("#", "").replace(",", " ").split()]
        out: list[nodes.Node] = []
        for i, num in enumerate(nums):
            n = len(_cases_by_def().get(num, []))
            if i:
                out.append(nodes.Text(", "))
            label = f"{n} case{'s' if n != 1 else ''}" if n else "no case"
            if len(nums) > 1:
                label = f"#{num}: {label}"
            ref = addnodes.pending_xref(
                "",
                refdomain="std",
                reftype="ref",
                reftarget=f"hb-def-{num}",
                refexplicit=True,
                refdoc=self.env.docname,
                refwarn=True,
            )
            ref += nodes.inline("", label, classes=["hb-def-link"])
            out.append(ref)
        return out, []


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("pack-table", PackTable)
    app.add_directive("trump-order-table", TrumpOrderTable)
    app.add_directive("decision-cases", DecisionCases)
    app.add_role("def-cases", DefCasesRole())
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
