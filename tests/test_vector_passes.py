"""The C lane steps a Deer Park Euchre batch of up to 1,024 tables with a pass of its own (nothing
asked ahead of the states it reads; a bigger batch's pass asks for them): both give the same
environments the same outputs, step by step."""

from __future__ import annotations

import pytest

import hucklebuck
from hucklebuck.vector import VectorGame

# one hand per episode on purpose
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")


@pytest.mark.parametrize("hands", [1, None])
def test_a_small_and_a_big_batch_step_their_common_tables_alike(hands: int | None) -> None:
    if "c" not in hucklebuck.available():
        pytest.skip("the C lane needs the C core")
    with hucklebuck.using("c"):
        small = VectorGame("deerpark", 4, 1024, seed=12, hands=hands)
        big = VectorGame("deerpark", 4, 1030, seed=12, hands=hands)
    assert (small.lane, big.lane) == ("c", "c")
    rows = 1024 * small.num_distinct_actions
    ended = 0
    for k in range(60):
        acts = small.sample_legal(k)
        more = big.sample_legal(k)
        assert acts.tobytes() == more.tobytes()[: 4 * 1024]  # table i's ids depend on i alone
        small.step(acts)
        big.step(more)
        assert small.legal_mask.tobytes() == big.legal_mask.tobytes()[:rows]
        assert small.rewards.tobytes() == big.rewards.tobytes()[: 4 * 4 * 1024]
        assert small.current_player.tobytes() == big.current_player.tobytes()[: 2 * 1024]
        assert small.terminated.tobytes() == big.terminated.tobytes()[:1024]
        assert small.truncated.tobytes() == big.truncated.tobytes()[:1024]
        ended += small.terminated.tobytes().count(1) + small.truncated.tobytes().count(1)
    if hands == 1:
        assert ended > 1024  # each table past its first episode's end, on average
    else:
        assert len(small.game(0).to_dict()["hands"]) >= 2  # dealt again within the game
    assert small.game(1023).to_dict() == big.game(1023).to_dict()
    small.close()
    big.close()
