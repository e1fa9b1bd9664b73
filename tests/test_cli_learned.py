"""A trained policy on the command line: ``--bots learned --learned PATH`` in ``play`` and
``tournament`` says what is missing or wrong before any game, and takes the checkpoint's table size."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")

from hucklebuck.cli import main  # noqa: E402
from hucklebuck.games import DeerParkGame  # noqa: E402
from hucklebuck.learn import Network  # noqa: E402
from hucklebuck.packs import GameKind  # noqa: E402

pytestmark = pytest.mark.single_core


def _checkpoint(tmp_path: Any, players: int) -> str:
    """A small untrained network (what is tested is the seating, not the play)."""
    path = str(tmp_path / f"dp{players}.npz")
    actions = DeerParkGame(players, seed=0).num_distinct_actions()
    Network.new(GameKind.DEERPARK, players, actions, hidden=(8, 8), seed=1).save(path)
    return path


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_bots_learned_without_a_checkpoint_says_what_to_add(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "deerpark", "--bots", "learned"]) == 2
    err = capsys.readouterr().err
    assert "--bots learned needs --learned PATH, the checkpoint it plays" in err, err


@pytest.mark.parametrize(("command", "players"), [("play", "3"), ("tournament", "5")])
def test_a_checkpoint_for_another_table_size_is_refused_before_any_game(
    command: str, players: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _checkpoint(tmp_path, 4)
    assert main([command, "deerpark", "--players", players, "--bots", "learned", "--learned", path]) == 2
    out = capsys.readouterr()
    assert f"the checkpoint {path} was trained for 4 players, not {players} (use --players 4" in out.err
    assert out.out == ""  # no table shown, no game begun


def test_the_tournament_seats_a_checkpoint_at_its_own_table_size(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _checkpoint(tmp_path, 3)
    assert (
        main(["tournament", "deerpark", "--bots", "learned,random", "--games", "6", "--learned", path]) == 0
    )
    shown = capsys.readouterr().out
    assert "Deer Park Euchre, 3 players" in shown and "learned" in shown
