"""The C lane's deals are random.Random's shuffles, output for output, over many renewals of the
Mersenne Twister's state (the C shuffle tempers its outputs in blocks and gives back those it does
not take, and renews the 624 words four at a time)."""

from __future__ import annotations

import random

import pytest

import hucklebuck
from hucklebuck.games import DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.vector import VectorGame, env_seed

DONE = (Phase.HAND_OVER, Phase.GAME_OVER)
# one hand per episode on purpose
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")


@pytest.fixture(autouse=True)
def c_core() -> None:
    if "c" not in hucklebuck.available():
        pytest.skip("the C lane needs the C core")


@pytest.mark.parametrize(
    ("game", "players", "hands"), [("deerpark", 4, 70), ("deerpark", 7, 30), ("hucklebuck", 3, 25)]
)
def test_every_deal_of_a_long_run_is_random_random_s(game: str, players: int, hands: int) -> None:
    """One table plays ``hands`` one-hand episodes (some 1,500 to 2,500 outputs: the state renewed
    three times or more): each deal is the engine's own from random.Random, and the stream the lane
    reports for the last episode is random.Random's where that episode's deal began."""
    cls = DeerParkGame if game == "deerpark" else HucklebuckGame
    with hucklebuck.using("c"):
        vg = VectorGame(game, players, 1, seed=31, hands=1)
    assert vg.lane == "c"
    rng = random.Random(env_seed(31, 0))
    start = rng.getstate()  # where the episode's stream starts
    ref = cls(players, rng=rng)
    seen = k = 0
    while seen < hands:
        acts = vg.sample_legal(k)
        k += 1
        ref.apply_id(int(acts[0]))
        vg.step(acts)
        assert vg.game(0).to_dict()["hands"][-1] == ref.to_dict()["hands"][-1]
        if ref.phase in DONE:
            vg.step(vg.sample_legal(k))  # auto-reset: the next episode from the same stream
            k += 1
            seen += 1
            start = rng.getstate()
            ref = cls(players, rng=rng)
            assert vg.game(0).to_dict() == ref.to_dict()
    rng.setstate(start)  # the stream the episode was dealt from
    assert vg.stream(0).getstate() == rng.getstate()
