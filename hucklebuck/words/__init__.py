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

from .cards import SUIT_NAMES, card_name, card_text, cards_text, sort_hand
from .lines import describe_action, trick_line
from .moves import move_text, parse_answer
from .narrator import Narrator

__all__ = [
    "SUIT_NAMES",
    "Narrator",
    "card_name",
    "card_text",
    "cards_text",
    "describe_action",
    "move_text",
    "parse_answer",
    "sort_hand",
    "trick_line",
]
