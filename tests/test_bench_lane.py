"""Issue 60, point 4: the batched lane against the engine alone counts what the engine counts.

The bare simulation's figure is hands per CPU-second; the lane's must be too, so its batch plays
one hand per episode (its episodes ended are then its hands).  With the lane's default of whole
games the bench set some 45 hands' work against one, and printed about 0.03 for a lane near 0.45.
"""

from __future__ import annotations

from typing import Any

import pytest

from hucklebuck.bench import vector_engine
from hucklebuck.bench.vector import play_random
from hucklebuck.vector import VectorGame

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning"),  # one hand per episode on purpose
]


def test_the_lane_is_timed_on_episodes_of_one_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[dict[str, Any]] = []

    def spy(*args: Any, **kwargs: Any) -> VectorGame[Any]:
        made.append(kwargs)
        return VectorGame(*args, **kwargs)

    monkeypatch.setattr(vector_engine, "VectorGame", spy)
    got = vector_engine.lane_against_engine(0.0, rounds=1)
    assert len(made) == 1 and made[0].get("hands") == 1
    assert made[0].get("threads") == 1 and len(got) <= 1


def test_the_lane_s_count_is_one_per_hand_played() -> None:
    vg = vector_engine.lane_batch()
    try:
        assert (vg.num_envs, vg.players) == (1024, 4)
        hands, _secs, _cpu = play_random(vg, 40, 0)
    finally:
        vg.close()
    # a four-player hand takes 20 cards and at most 9 other ids (two rounds of bids, a discard):
    # 40 steps end at least one hand at every table, and at most two
    assert 1024 <= hands <= 2 * 1024
