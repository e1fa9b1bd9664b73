"""Both cores refuse the same integer arguments with the same error.

The cores' own methods take plain ints (game 0..2, trump 0..3, a led card
0..51 or 255, a 52-bit hand mask).  A float, a string, ``None``, NaN or an
out-of-range number must give the same :class:`CoreInputError` on each core,
and an accepted value the same answer; the C core must not convert what the
Python core refuses (``1.0`` as a game) or fail with Python's own errors.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

import hucklebuck
from hucklebuck._core import get_core, using
from hucklebuck.errors import CoreInputError

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif("c" not in hucklebuck.available(), reason="needs both cores to compare"),
]

VALUES: list[object] = [0, 1, 2, True, -1, 3, 4, 51, 52, 255, 256, 2**52, 2**70]
VALUES += [None, "1", 1.0, float("nan"), 1j]


def outcome(call: Callable[[], object]) -> tuple[str, str]:
    try:
        return "ok", repr(call())
    except Exception as e:  # the comparison is the point
        return type(e).__name__, str(e)


def both(call: Callable[[object], object]) -> tuple[tuple[str, str], tuple[str, str]]:
    out = []
    for name in ("c", "python"):
        with using(name):
            core = get_core()
            out.append(outcome(lambda core=core: call(core)))
    return out[0], out[1]


def test_rules_and_trick_winner() -> None:
    differ = []
    for game, trump in itertools.product(VALUES, repeat=2):
        for call in (
            lambda core, g=game, t=trump: core.rules(g, t),
            lambda core, g=game, t=trump: core.trick_winner(g, t, b"\x01\x02"),
        ):
            c, py = both(call)
            if c != py or c[0] not in ("ok", "CoreInputError"):
                differ.append((game, trump, c, py))
    assert differ == []


def test_legal_mask() -> None:
    differ = []
    for lead, hand in itertools.product(VALUES, repeat=2):
        for game, trump in ((0, 0), (2, 3), (1.0, 0), (0, "1"), (None, None)):
            c, py = both(lambda core, g=game, t=trump, le=lead, h=hand: core.legal_mask(g, t, le, h))
            if c != py or c[0] not in ("ok", "CoreInputError"):
                differ.append((game, trump, lead, hand, c, py))
    assert differ == []


def test_a_float_game_is_refused() -> None:
    for name in ("c", "python"):
        with using(name), pytest.raises(CoreInputError, match="game id out of range"):
            get_core().rules(1.0, 0)  # type: ignore[arg-type]
