"""The game-value model: win probabilities from a standing, its look-up tables,
and the command that rebuilds its data."""

from __future__ import annotations

import pytest

from hucklebuck.errors import OptionsError
from hucklebuck.games import DeerParkGame, HucklebuckGame
from hucklebuck.players import MonteCarloPlayer, value
from hucklebuck.players.heuristics import plays_for_fifty


@pytest.mark.parametrize("n", range(3, 8))
def test_hucklebuck_chances_add_up_and_follow_the_score(n: int) -> None:
    even = value.win_probabilities("hucklebuck", [0] * n)
    assert sum(even) == pytest.approx(1.0) and max(even) - min(even) < 1e-12
    ahead = value.win_probabilities("hucklebuck", [10] + [0] * (n - 1))
    behind = value.win_probabilities("hucklebuck", [-20] + [0] * (n - 1))
    assert ahead[0] > 1 / n > behind[0] and sum(ahead) == pytest.approx(1.0)
    gone = value.win_probabilities("hucklebuck", [5] + [0] * (n - 1), out=[0])
    assert gone[0] == 0.0 and sum(gone) == pytest.approx(1.0)
    assert value.win_probabilities("hucklebuck", [15] + [0] * (n - 1))[0] == pytest.approx(1.0)


@pytest.mark.parametrize("n", range(3, 9))
def test_deerpark_chances_grow_toward_either_goal(n: int) -> None:
    p = [value.win_probabilities("deerpark", [s] + [25] * (n - 1))[0] for s in (2, 12, 25, 38, 48)]
    assert p[0] > p[1] and p[-1] > p[-2]  # nearer a goal is better, at either end
    assert p[2] == pytest.approx(1 / n)
    high = [s for s in range(1, 50) if value.goes_high(n, s)]
    assert high == list(range(high[0], 50))  # plays for 50 from one score on
    assert plays_for_fifty([high[0]] + [25] * (n - 1), 0) and not plays_for_fifty([high[0] - 1] * n, 0)


def test_buckem_has_no_game_to_win() -> None:
    with pytest.raises(OptionsError, match="chips"):
        value.win_probabilities("buckem", [0] * 5)
    assert value.buckem_value(3.0, 10, 5) == 5.0


def test_mc_values_are_chances_of_winning() -> None:
    for game in (HucklebuckGame(4, seed=3), DeerParkGame(3, seed=3)):
        ranked = MonteCarloPlayer(samples=16, seed=1).analyse(game.observation(game.to_act))
        assert all(0.0 <= v <= 1.0 for _, v in ranked)


def test_rebuild_command_makes_the_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert value.main(["--games", "1", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    namespace: dict[str, object] = {}
    exec(compile(text, "_value_data.py", "exec"), namespace)
    data = namespace["DATA"]
    assert isinstance(data, dict)
    assert sorted(data["hucklebuck"]) == [str(n) for n in range(3, 8)]
    assert sorted(data["deerpark"]) == [str(n) for n in range(3, 9)]
    assert set(data["deerpark"]["4"]) == {"low", "high"}
