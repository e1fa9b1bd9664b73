"""A step's first look at its ids (sample_legal's int32 ids, in the C lane four tables at a time with
AVX2): an id out of range or not legal anywhere in the batch, in any position of a block of four
or in the tail, is refused with the lowest such table and id named and nothing changed; an ended
table's id is not read (both cores)."""

from __future__ import annotations

import pytest

from hucklebuck.errors import ActionParseError, IllegalAction
from hucklebuck.vector import VectorGame

# one hand per episode on purpose (tables end, and their ids are not read)
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")


def snapshot(vg: VectorGame) -> tuple[bytes, ...]:
    return (
        vg.current_player.tobytes(),
        vg.legal_mask.tobytes(),
        vg.rewards.tobytes(),
        vg.terminated.tobytes(),
        vg.truncated.tobytes(),
        vg.observation_tensor().tobytes(),
        repr([vg.game(i).to_dict() for i in range(vg.num_envs)]).encode(),
    )


@pytest.mark.parametrize(
    "game,players,num_envs", [("deerpark", 4, 11), ("deerpark", 4, 70), ("hucklebuck", 5, 70)]
)
def test_a_bad_id_anywhere_is_refused_and_the_lowest_is_named(game: str, players: int, num_envs: int) -> None:
    vg = VectorGame(game, players, num_envs, seed=5, hands=1)
    for k in range(400):  # until some tables have just ended and most are in their play
        vg.step(vg.sample_legal(k))
        done = sum(vg.terminated.tolist()) + sum(vg.truncated.tolist())
        if 0 < done < num_envs - 8:
            break
    before = snapshot(vg)
    good = vg.sample_legal(99)
    live = [i for i in range(num_envs) if not vg.terminated[i] and not vg.truncated[i]]
    ended = [i for i in range(num_envs) if vg.terminated[i] or vg.truncated[i]]
    assert len(live) > 8 and ended, "the run should leave both live and ended tables"
    if game == "hucklebuck":
        assert any(vg.legal_mask.tolist()[i][0] for i in live), "some table should have id 0 legal"
    rows = vg.legal_mask.tolist()
    zero = [i for i in live if rows[i][0]][:4]  # (id 0 legal: where an id out of range must not pass as 0)
    spots = sorted({*live[:6], *live[-6:], live[len(live) // 2], *zero})
    for env in spots:
        illegal = next(k for k, v in enumerate(rows[env]) if not v)
        later = live[-1] if env != live[-1] else None
        for bad, error in [
            (illegal, IllegalAction),
            (vg.num_distinct_actions, ActionParseError),
            (-1, ActionParseError),
            (2**31 - 1, ActionParseError),
            (-(2**31), ActionParseError),
        ]:
            ids = vg.sample_legal(99)
            ids[env] = bad
            if later is not None:  # a second bad id further on: the first is the one named
                ids[later] = -1
            with pytest.raises(error, match=rf"environment {env}\b"):
                vg.step(ids)
            assert snapshot(vg) == before, (env, bad)
    for env in ended:  # an ended table's id is not read: any one passes (its next episode starts)
        good[env] = 2**31 - 1
    vg.step(good)
    assert snapshot(vg) != before
