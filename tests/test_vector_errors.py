"""VectorGame's bad arguments and illegal ids: the library's own errors, nothing changed."""

from __future__ import annotations

import subprocess
import sys
from array import array
from pathlib import Path

import pytest

from hucklebuck.errors import (
    ActionParseError,
    HucklebuckError,
    IllegalAction,
    OptionsError,
    PlayerCountError,
    UnsupportedOption,
)
from hucklebuck.vector import MAX_ENVS, VectorGame

# episodes of K hands warn (RewardWarning) that they do not teach winning; these tests cut them on purpose
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")


def snapshot(vg: VectorGame) -> tuple[bytes, ...]:
    return (
        vg.current_player.tobytes(),
        vg.legal_mask.tobytes(),
        vg.rewards.tobytes(),
        vg.terminated.tobytes(),
        vg.observation_tensor().tobytes(),
        *(vg.observation_tensor(seat=s).tobytes() for s in range(vg.players)),
        repr([vg.game(i).to_dict() for i in range(vg.num_envs)]).encode(),
    )


@pytest.mark.parametrize("game,players", [("deerpark", 4), ("hucklebuck", 5), ("buckem", 6)])
def test_illegal_id_in_one_env_changes_nothing(game: str, players: int) -> None:
    vg = VectorGame(game, players, 5, seed=3, hands=1)
    for k in range(7):
        vg.step(vg.sample_legal(k))
    before = snapshot(vg)
    actions = vg.sample_legal(77)
    live = [i for i in range(5) if not vg.terminated[i]]
    bad_env = live[-1]
    row = vg.legal_mask.tolist()[bad_env]
    bad_id = next(k for k, v in enumerate(row) if not v)
    actions[bad_env] = bad_id
    with pytest.raises(IllegalAction, match=rf"environment {bad_env}: action id {bad_id}\b"):
        vg.step(actions)
    assert snapshot(vg) == before
    actions[bad_env] = vg.num_distinct_actions
    with pytest.raises(ActionParseError, match=f"environment {bad_env}"):
        vg.step(actions)
    assert snapshot(vg) == before
    actions[bad_env] = -1
    with pytest.raises(ActionParseError, match=f"environment {bad_env}"):
        vg.step(actions)
    assert snapshot(vg) == before
    vg.step(vg.sample_legal(77))  # and the batch still steps


def test_bad_arguments() -> None:
    with pytest.raises(OptionsError, match="num_envs"):
        VectorGame("deerpark", 4, 0, hands=1)
    with pytest.raises(OptionsError, match="num_envs"):
        VectorGame("deerpark", 4, MAX_ENVS + 1, hands=1)
    with pytest.raises(OptionsError, match="num_envs"):
        VectorGame("deerpark", 4, 2.0, hands=1)  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="threads"):
        VectorGame("deerpark", 4, 2, threads=0, hands=1)
    with pytest.raises(OptionsError, match="hands"):
        VectorGame("deerpark", 4, 2, hands=0)
    assert VectorGame("buckem", 5, 2, hands=None).hands == 10  # a session has no end: 10 rounds
    with pytest.raises(OptionsError, match="seed"):
        VectorGame("deerpark", 4, 2, seed=-1, hands=1)
    with pytest.raises(OptionsError, match="reward"):
        VectorGame("deerpark", 4, 2, reward="points", hands=1)
    with pytest.raises(OptionsError, match="not a game"):
        VectorGame("euchre", 4, 2, hands=1)
    with pytest.raises(UnsupportedOption, match="no option 'speed'"):
        VectorGame("deerpark", 4, 2, options={"speed": 1}, hands=1)
    with pytest.raises(OptionsError):
        VectorGame("deerpark", 4, 2, options=["lock_at"], hands=1)
    with pytest.raises(PlayerCountError):
        VectorGame("deerpark", 8, 2, hands=1)
    with pytest.raises(PlayerCountError):
        VectorGame("buckem", 4, 2, hands=1)


def test_bad_buffers_and_seats() -> None:
    vg = VectorGame("deerpark", 4, 3, seed=1, hands=1)
    before = snapshot(vg)
    bad_inputs = (array("i", [0, 0]), [0, 0, 0, 0], array("d", [0.0] * 3), "abc", 5, [0, 1.5, 0], [True] * 3)
    for bad in bad_inputs:
        with pytest.raises(ActionParseError):
            vg.step(bad)
    assert snapshot(vg) == before
    with pytest.raises(PlayerCountError):
        vg.observation_tensor(seat=4)
    with pytest.raises(PlayerCountError):
        vg.observation_tensor(seat=-1)
    with pytest.raises(OptionsError, match="floats"):
        vg.observation_tensor(out=array("f", [0.0]) * 5)
    with pytest.raises(OptionsError, match="float32"):
        vg.observation_tensor(out=array("d", [0.0]) * (3 * vg.tensor_size))
    with pytest.raises(OptionsError, match="writable"):
        vg.observation_tensor(out=bytes(4 * 3 * vg.tensor_size))
    with pytest.raises(OptionsError):
        vg.game(3)
    with pytest.raises(OptionsError):
        vg.sample_legal(-5)
    assert snapshot(vg) == before


def test_out_buffer_and_int_buffers() -> None:
    vg = VectorGame("deerpark", 4, 3, seed=1, hands=1)
    out = array("f", [1.0]) * (3 * vg.tensor_size)
    view = vg.observation_tensor(out=out, seat=2)
    assert out.tobytes() == vg.observation_tensor(seat=2).tobytes() == view.tobytes()
    acts = vg.sample_legal(4)
    other = vg.copy()
    vg.step(acts)
    other.step(bytes(acts.tolist()))  # any buffer of integers
    assert vg.legal_mask.tobytes() == other.legal_mask.tobytes()
    assert isinstance(IllegalAction("x"), HucklebuckError)


def test_numpy_views_are_zero_copy() -> None:
    np = pytest.importorskip("numpy")
    vg = VectorGame("deerpark", 4, 4, seed=8, hands=1)
    mask = np.asarray(vg.legal_mask)
    cp = np.asarray(vg.current_player)
    assert mask.shape == (4, vg.num_distinct_actions) and mask.dtype == np.int8  # as PettingZoo's masks
    assert cp.dtype == np.int16 and np.asarray(vg.rewards).dtype == np.float32
    vg.step(np.asarray(vg.sample_legal(1), dtype=np.int64))
    assert mask.tobytes() == vg.legal_mask.tobytes()  # the same memory, updated in place
    assert cp.tolist() == vg.current_player.tolist()
    out = np.zeros((4, vg.tensor_size), dtype=np.float32)
    vg.observation_tensor(out=out)
    assert out.tobytes() == vg.observation_tensor().tobytes()


def test_hands_past_32_bits_is_our_error_and_the_largest_count_works() -> None:
    for hands in (2**31, 2**40):
        with pytest.raises(OptionsError, match=r"hands must be 1 to 2,147,483,647, not "):
            VectorGame("deerpark", 4, 2, hands=hands)
    vg = VectorGame("deerpark", 4, 2, seed=3, hands=2**31 - 1)
    vg.step(vg.sample_legal(1))
    assert vg.hands == 2**31 - 1


def test_the_module_docs_give_the_seed_formulas_env_seed_and_deal_state_compute() -> None:
    import hucklebuck.vector as vector
    from hucklebuck.evaluate import SplitMix64
    from hucklebuck.vector import deal_state, env_seed

    doc = " ".join((vector.__doc__ or "").split())
    assert "env_seed(s, i) = (s ^ (i * 0xC2B2AE3D27D4EB4F)) mod 2**64" in doc
    assert "SplitMix64(deal_state(s, i, k))" in doc and "output ``k`` of splitmix64 started at" in doc
    s, i = 0xDEADBEEF12345678, 77
    assert env_seed(s, i) == (s ^ (i * 0xC2B2AE3D27D4EB4F)) % 2**64
    outputs = SplitMix64(env_seed(s, i))
    assert [deal_state(s, i, k) for k in range(4)] == [outputs.next_u64() for _ in range(4)]


TYPED = """\
from typing import Any, assert_type

from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.engine import TrickGame
from hucklebuck.packs import GameKind
from hucklebuck.vector import VectorGame

assert_type(VectorGame("deerpark", 4, 2).game(0), DeerParkGame)
assert_type(VectorGame(GameKind.HUCKLEBUCK, 4, 2).game(0), HucklebuckGame)
assert_type(VectorGame("buckem", 5, 2).copy().game(0), BuckEmGame)
name: str = "deerpark"
assert_type(VectorGame(name, 4, 2).game(0), TrickGame[Any, Any])
"""


@pytest.mark.single_core
def test_game_of_an_environment_is_typed_as_its_game_class(tmp_path: Path) -> None:
    """``VectorGame("deerpark", ...).game(i)`` is a DeerParkGame to mypy --strict too (it was
    ``TrickGame[Any, Any]`` whatever the game)."""
    pytest.importorskip("mypy")
    (tmp_path / "typed.py").write_text(TYPED, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "typed.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
