"""OpenSpiel parameters of the three games: each option's default as a parameter, the options
from parameters, and the bounds of an episode's return (used by :mod:`hucklebuck.openspiel`;
NumPy and OpenSpiel are not needed here)."""

from __future__ import annotations

import dataclasses
import enum
import functools
import sys
from typing import Any

from .games.buckem import BuckEmOptions
from .games.deerpark import DeerParkOptions
from .games.hucklebuck import HucklebuckOptions
from .packs import GameKind
from .vector._rewards import RewardMode

_OPTIONS: dict[GameKind, type[Any]] = {
    GameKind.HUCKLEBUCK: HucklebuckOptions,
    GameKind.BUCKEM: BuckEmOptions,
    GameKind.DEERPARK: DeerParkOptions,
}

def _option_defaults(kind: GameKind) -> dict[str, Any]:
    """Every option with its default as an OpenSpiel parameter value (None -> 0; a new dict)."""
    return dict(_defaults(kind))


@functools.cache
def _defaults(kind: GameKind) -> tuple[tuple[str, Any], ...]:
    defaults = _OPTIONS[kind]()
    out: list[tuple[str, Any]] = []
    for f in dataclasses.fields(defaults):
        value = getattr(defaults, f.name)
        out.append((f.name, value.value if isinstance(value, enum.Enum) else (0 if value is None else value)))
    return tuple(out)


def _options_from_params(kind: GameKind, params: dict[str, Any]) -> dict[str, Any]:
    """The game's options from OpenSpiel parameters (0 -> None where the default is None)."""
    defaults = _OPTIONS[kind]()
    opts: dict[str, Any] = {}
    for name in _option_defaults(kind):
        value = params[name]
        if getattr(defaults, name) is None and value == 0:
            value = None
        opts[name] = value
    return opts


def _utility_bounds(
    kind: GameKind, players: int, hands: int, opts: dict[str, Any], reward: RewardMode
) -> tuple[float, float]:
    """Bounds on an episode's return for one seat (loose but safe)."""
    if kind is not GameKind.BUCKEM and reward == "game":
        return 0.0, 1.0
    if kind is GameKind.DEERPARK and reward == "progress":
        return -0.25, 1.0  # a score 20 from its nearer goal can end 25 from it, or win
    if kind is GameKind.HUCKLEBUCK and reward == "progress":
        return -45.0 / float(opts["target"]), 1.0  # from 0 to -44 at worst: 44 more from the target
    if kind is GameKind.DEERPARK:
        return -5.0 * hands, 5.0 * hands  # a hand moves a score by at most 5
    if kind is GameKind.HUCKLEBUCK:
        # scores start at 0; a seat is out at -25 or below (a hand costs at most 20)
        # and the game ends at the target (a hand gains at most 24, a moon resetting -24)
        return -45.0, float(opts["target"]) + 24.0
    ante, limit = int(opts["ante"]), opts["pot_limit"]
    pot = 0
    lose = gain = 0
    for _ in range(hands):  # the pot and the burn payments at their largest
        pot += players * ante
        match = pot if limit is None else min(pot, limit)
        lose += ante + match
        gain += pot
        pot += players * match
        if gain > _FLOAT_MAX:  # past any float: the pot without a limit grows geometrically
            return -sys.float_info.max, sys.float_info.max
    return -float(lose), float(gain)


_FLOAT_MAX = int(sys.float_info.max)
