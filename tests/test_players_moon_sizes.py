"""The cheap measurement of moon decisions at every table size (python -m hucklebuck.players.moon_sizes)."""

from __future__ import annotations

import time

import pytest

from hucklebuck.games.base import Phase
from hucklebuck.players import moon_sizes

pytestmark = pytest.mark.single_core


def test_hand_starts_are_auctions_of_heuristic_games_with_their_scores() -> None:
    starts = list(moon_sizes.hand_starts(5, 30, seed=3))
    assert len(starts) == 30
    assert all(g.phase is Phase.AUCTION and g.players == 5 for g in starts)
    assert not any(g.observation(None).history for g in starts)
    assert len({tuple(g.scores) for g in starts}) > 5  # the standings move on from hand to hand
    again = list(moon_sizes.hand_starts(5, 30, seed=3))
    assert [g.scores for g in again] == [g.scores for g in starts]


def test_moon_bids_are_counted_and_played_on_against_the_other_choice() -> None:
    far = time.monotonic() + 600
    wild = moon_sizes.measure_size("random", 4, 40, seed=2, branches=2, deadline=far)
    assert wild.hands == 40 and wild.decisions >= 40 and len(wild.gains) > 5
    # a random moon is a poor bet: made rarely, and it costs share of the game on the whole
    n, made, mean, half = wild.summary()
    assert n == len(wild.gains) and made < 0.3 and mean + half < 0
    assert {g[0] for g in wild.gains} == {True, False}  # from above 0 and from zero or below
    calm = moon_sizes.measure_size("heuristic", 4, 40, seed=2, branches=2, deadline=far)
    assert calm.decisions >= 40 and calm.gains == []
    row = wild.row()
    assert row[:4] == ["random", "4", "40", str(wild.decisions)]
