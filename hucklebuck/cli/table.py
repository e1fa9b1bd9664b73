"""The card table as text, for the terminal: the narrator lives in :mod:`hucklebuck.words`
(below the terminal and the table server, which both use it); these names stay here for
the code that imports them from the terminal's side."""

from __future__ import annotations

from ..words.cards import (
    LEFT_BOWER_MARK,
    SUIT_NAMES,
    card_text,
    cards_text,
    discard_order,
    is_left_bower,
    is_trump,
    sort_hand,
)
from ..words.lines import (
    CITATIONS,
    describe_action,
    drop_citations,
    game_rules_line,
    order_up_line,
    second_person,
    trick_line,
)
from ..words.narrator import Table

__all__ = [
    "CITATIONS",
    "LEFT_BOWER_MARK",
    "SUIT_NAMES",
    "Table",
    "card_text",
    "cards_text",
    "describe_action",
    "discard_order",
    "drop_citations",
    "game_rules_line",
    "is_left_bower",
    "is_trump",
    "order_up_line",
    "second_person",
    "sort_hand",
    "trick_line",
]
