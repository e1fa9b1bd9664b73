"""The games: each is a state machine driven one typed action at a time."""

from __future__ import annotations

from .base import Event, Phase, Trick
from .buckem import BuckEmDeal, BuckEmGame, BuckEmHandResult, BuckEmObservation, BuckEmOptions
from .deerpark import DeerParkDeal, DeerParkGame, DeerParkHandResult, DeerParkObservation, DeerParkOptions
from .hucklebuck import (
    HandResult,
    HucklebuckDeal,
    HucklebuckGame,
    HucklebuckObservation,
    HucklebuckOptions,
)

__all__ = [
    "BuckEmDeal",
    "BuckEmGame",
    "BuckEmHandResult",
    "BuckEmObservation",
    "BuckEmOptions",
    "DeerParkDeal",
    "DeerParkGame",
    "DeerParkHandResult",
    "DeerParkObservation",
    "DeerParkOptions",
    "Event",
    "HandResult",
    "HucklebuckDeal",
    "HucklebuckGame",
    "HucklebuckObservation",
    "HucklebuckOptions",
    "Phase",
    "Trick",
]
