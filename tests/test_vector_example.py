"""The self-play example of docs/agents.rst, at a reduced size, and its tensor rebuild."""

from __future__ import annotations

import os
import pathlib
import random
import re
import subprocess
import sys

import pytest

from hucklebuck.games import DeerParkGame

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "docs" / "examples" / "vector_selfplay.py"


@pytest.mark.single_core
def test_example_trains_a_policy_that_beats_random_play() -> None:
    pytest.importorskip("numpy")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "--steps", "1000", "--envs", "64", "--games", "80"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=True,
    )
    row = re.search(r"^linear\s+2\s+([\d.]+)\s+\[([\d.]+), ([\d.]+)\]", run.stdout, re.M)
    assert row is not None, run.stdout
    share, low = float(row.group(1)), float(row.group(2))
    assert low > 0.5 and share > 0.5, run.stdout  # better than the even share, with its 95 % interval


def test_tensor_from_observation_is_the_game_tensor() -> None:
    np = pytest.importorskip("numpy")
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import vector_selfplay as example
    finally:
        sys.path.remove(str(EXAMPLE.parent))
    rng = random.Random(3)
    for seed in range(12):
        game = DeerParkGame(4, seed=seed, options={"club_turnup_pickup": seed % 2 == 0, "lock_at": 22})
        while not game.is_over and game.hand_number <= 3:
            if game.phase.value == "hand_over":
                game.next_hand()
                continue
            for seat in range(4):
                want = np.frombuffer(game.observation_tensor(seat), dtype=np.float32)
                assert np.array_equal(example.tensor_from_observation(game.observation(seat)), want)
            game.apply(rng.choice(game.legal_actions()))
