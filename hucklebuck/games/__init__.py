"""The games: each is a state machine driven one typed action at a time."""

from __future__ import annotations

from .base import Event, Phase, Trick
from .hucklebuck import (
    HandResult,
    HucklebuckDeal,
    HucklebuckGame,
    HucklebuckObservation,
    HucklebuckOptions,
)

__all__ = [
    "Event",
    "HandResult",
    "HucklebuckDeal",
    "HucklebuckGame",
    "HucklebuckObservation",
    "HucklebuckOptions",
    "Phase",
    "Trick",
]
