"""The games: each is a state machine driven one typed action at a time."""

from __future__ import annotations

from .base import Event, Phase, Trick
from .buckem import (
    BuckEmDeal,
    BuckEmGame,
    BuckEmHandResult,
    BuckEmObservation,
    BuckEmOnlookerObservation,
    BuckEmOptions,
)
from .deerpark import (
    DeerParkDeal,
    DeerParkGame,
    DeerParkHandResult,
    DeerParkObservation,
    DeerParkOnlookerObservation,
    DeerParkOptions,
)
from .hucklebuck import (
    HandResult,
    HucklebuckDeal,
    HucklebuckGame,
    HucklebuckObservation,
    HucklebuckOnlookerObservation,
    HucklebuckOptions,
)

__all__ = [
    "BuckEmDeal",
    "BuckEmGame",
    "BuckEmHandResult",
    "BuckEmObservation",
    "BuckEmOnlookerObservation",
    "BuckEmOptions",
    "DeerParkDeal",
    "DeerParkGame",
    "DeerParkHandResult",
    "DeerParkObservation",
    "DeerParkOnlookerObservation",
    "DeerParkOptions",
    "Event",
    "HandResult",
    "HucklebuckDeal",
    "HucklebuckGame",
    "HucklebuckObservation",
    "HucklebuckOnlookerObservation",
    "HucklebuckOptions",
    "Phase",
    "Trick",
]
