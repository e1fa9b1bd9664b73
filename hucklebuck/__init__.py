"""hucklebuck: the rules of Hucklebuck, Buck 'Em and Deer Park Euchre.

The trick engine runs on a C core when it is built and cffi is installed
(``pip install 'hucklebuck[speedups]'``), otherwise on a pure-Python core with
identical results.  :func:`backend` tells which one is active.
"""

from __future__ import annotations

from ._core import BackendInfo, available, backend, backend_info, set_backend, using
from .cards import Card, CardSet, Rank, Suit, parse_card, parse_cards, parse_suit
from .errors import (
    ActionParseError,
    BackendError,
    CardError,
    CoreInputError,
    DealError,
    HucklebuckError,
    IllegalAction,
    OptionsError,
    PlayerCountError,
    RestoreError,
    SeatError,
    SolveBudgetExceeded,
)
from .packs import GameKind, pack, player_range
from .tricks import (
    effective_suit,
    legal_plays,
    legal_plays_batch,
    pack_tricks,
    trick_winner,
    trick_winners,
)

__version__ = "0.2.0"

__all__ = [
    "ActionParseError",
    "BackendError",
    "BackendInfo",
    "Card",
    "CardError",
    "CardSet",
    "CoreInputError",
    "DealError",
    "GameKind",
    "HucklebuckError",
    "IllegalAction",
    "OptionsError",
    "PlayerCountError",
    "Rank",
    "RestoreError",
    "SeatError",
    "SolveBudgetExceeded",
    "Suit",
    "__version__",
    "available",
    "backend",
    "backend_info",
    "effective_suit",
    "legal_plays",
    "legal_plays_batch",
    "pack",
    "pack_tricks",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "player_range",
    "set_backend",
    "trick_winner",
    "trick_winners",
    "using",
]
