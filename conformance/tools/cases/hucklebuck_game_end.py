"""Hucklebuck cases of the hand that ends the game: players at -25 or lower go
out in that hand too, whether the game ends by the target or by a winning moon
(``hucklebuck/end``, ``hucklebuck/moon``).  An implementation that checks the
end of the game before marking players out passed every other case; the fuzz of
``conformance/tools/weakened.py`` (weakening ``out-not-at-game-end``) found it.

Each expected answer was worked out by hand: the requests are those of
``hucklebuck/end/target-exactly`` and ``hucklebuck/moon/wins-from-positive``
with other start scores, and the losers' -5 (no trick taken) brings them to
-25 or lower.
"""

from __future__ import annotations

import copy
from typing import Any

from .common import CASES, add

HB = "hucklebuck"
OUT = "S0: a player who scores -25 or lower is out; game is 15 points"


def _request(area: str, case_id: str, scores: list[int]) -> dict[str, Any]:
    for c in CASES[HB][area]:
        if c["id"] == case_id:
            req: dict[str, Any] = copy.deepcopy(c["request"])
            req["start"]["scores"] = scores
            return req
    raise KeyError(case_id)


def build() -> None:
    """Add the cases (after the end and moon cases they start from)."""
    add(
        HB,
        "end",
        "out-in-the-hand-reaching-the-target",
        "seat 0 reaches 15 and wins; seat 2, at -20 with no trick, goes out at -25 in that same hand",
        [OUT, "S2: at -25 you are out"],
        [16, 34],
        _request("end", "hucklebuck/end/target-exactly", [12, 4, -20]),
        {
            "hands": [{"delta": [3, -5, -5], "scores": [15, -1, -25], "out": [2]}],
            "final": {"game_over": True, "winners": [0], "scores": [15, -1, -25], "out": [2]},
        },
    )
    add(
        HB,
        "moon",
        "out-in-the-hand-of-a-winning-moon",
        "seat 1 wins on the moon; seats 0 and 2, with no trick, go out in that same hand",
        [OUT, "S0: a successful moon from a positive score wins the game; in the hole it returns to zero"],
        [16, 15],
        _request("moon", "hucklebuck/moon/wins-from-positive", [-20, 3, -22]),
        {
            "hands": [{"delta": [-5, 5, -5], "scores": [-25, 8, -27], "out": [0, 2]}],
            "final": {"game_over": True, "winners": [1], "scores": [-25, 8, -27], "out": [0, 2]},
        },
    )
