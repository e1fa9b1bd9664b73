"""What a person reads about a game, written once: one narrator below the terminal
(:mod:`hucklebuck.cli`), the browser table (:mod:`hucklebuck.server`) and the docs.

- :mod:`~hucklebuck.words.cards`: cards and suits in words (``10♥``, ``ten of hearts``).
- :mod:`~hucklebuck.words.moves`: a legal move as a menu shows it, and a typed move read back.
- :mod:`~hucklebuck.words.lines`: what a player did, a finished trick, the phase, how a game is won.
- :mod:`~hucklebuck.words.narrator`: the whole table told hand by hand (the terminal's table).
- :mod:`~hucklebuck.words.people`: seats as people count them (from 1), default names,
  the computer players' and the options' friendly names.

Seats are numbered from 0 in the library's API, the table server's protocol and saved games;
every text a person reads counts them from 1 (:func:`~hucklebuck.words.people.seat_label`).
"""

from __future__ import annotations

from .cards import (
    LEFT_BOWER_MARK,
    SUIT_NAMES,
    card_name,
    card_text,
    cards_text,
    discard_order,
    is_left_bower,
    is_trump,
    sort_hand,
)
from .lines import (
    CITATIONS,
    PHASE_WORDS,
    describe_action,
    drop_citations,
    game_rules_line,
    order_up_line,
    score_reason,
    second_person,
    trick_line,
)
from .moves import NotNow, Unreadable, move_text, parse_answer
from .narrator import Narrator

__all__ = [
    "CITATIONS",
    "LEFT_BOWER_MARK",
    "PHASE_WORDS",
    "SUIT_NAMES",
    "Narrator",
    "NotNow",
    "Unreadable",
    "card_name",
    "card_text",
    "cards_text",
    "describe_action",
    "discard_order",
    "drop_citations",
    "game_rules_line",
    "is_left_bower",
    "is_trump",
    "move_text",
    "order_up_line",
    "parse_answer",
    "score_reason",
    "second_person",
    "sort_hand",
    "trick_line",
]
