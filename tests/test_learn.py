"""The NumPy learner (issue 59, points 2 and 3) and the settled surprises of point 5."""

from __future__ import annotations

import inspect
import io
import os
import subprocess
import sys
from typing import Any

import pytest

from hucklebuck.errors import OptionsError, PlayerCountError, SeatError
from hucklebuck.games import DeerParkGame, HucklebuckGame
from hucklebuck.games.observe import view
from hucklebuck.players import make_player

np = pytest.importorskip("numpy")

from hucklebuck.learn import Network, TrainConfig, train  # noqa: E402
from hucklebuck.learn._cli import main as learn_main  # noqa: E402
from hucklebuck.learn.player import LearnedPlayer  # noqa: E402
from hucklebuck.tournament import run_tournament  # noqa: E402


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A small network trained for a few updates, self-play and against the heuristic."""
    out = str(tmp_path_factory.mktemp("learn"))
    cfg = TrainConfig(
        envs=16,
        steps=8,
        hidden=(16, 16),
        opponent="heuristic",
        opponent_envs=8,
        cpu_budget=1e9,
        updates=3,
        checkpoints=(0.0,),
        out=out,
    )
    log = io.StringIO()
    train(cfg, log=log)
    text = log.getvalue()
    assert "hands/CPU-s" in text and "update     3" in text, text  # the progress line
    assert "checkpoint" in text
    return os.path.join(out, "cpu00000.npz")


@pytest.mark.single_core
def test_a_checkpoint_keeps_the_weights_and_where_they_came_from(checkpoint: str) -> None:
    net = Network.load(checkpoint)
    assert (net.kind.value, net.players, net.meta["hidden"]) == ("deerpark", 4, [16, 16])
    info = net.meta["training"]
    assert info["updates"] >= 1 and info["hands"] >= 0 and info["cpu_seconds"] >= 0
    again = Network.load(os.path.join(os.path.dirname(checkpoint), "final.npz"))
    assert set(again.params) == set(net.params)


@pytest.mark.single_core
def test_a_checkpoint_is_a_player_in_the_tournament(checkpoint: str) -> None:
    player = make_player("learned", "deerpark", path=checkpoint)
    assert isinstance(player, LearnedPlayer)
    game = DeerParkGame(4, seed=3)
    while not game.is_over:  # a whole game through game objects, every seat the network
        if game.phase.value == "hand_over":
            game.next_hand()
            continue
        game.apply(player.choose(game.observation(game.to_act)))
    result = run_tournament(
        "deerpark",
        bots=("learned", "heuristic"),
        games=8,
        custom={"learned": lambda seed: make_player("learned", "deerpark", path=checkpoint, seed=seed)},
    )
    assert result.games == 8 and {r.kind for r in result.results} == {"learned", "heuristic"}


def test_the_learned_kind_checks_what_it_is_given(tmp_path: Any, checkpoint: str) -> None:
    with pytest.raises(OptionsError, match="path="):
        make_player("learned", "deerpark")
    with pytest.raises(OptionsError, match="plays Deer Park Euchre, not Hucklebuck"):
        make_player("learned", "hucklebuck", path=checkpoint)
    with pytest.raises(OptionsError, match="for the 'learned' player kind only"):
        make_player("heuristic", "deerpark", path=checkpoint)
    with pytest.raises(OptionsError, match="cannot load"):
        make_player("learned", "deerpark", path=str(tmp_path / "missing.npz"))
    player = make_player("learned", "deerpark", path=checkpoint)
    with pytest.raises(OptionsError, match="trained for 4 players"):
        player.choose(DeerParkGame(3, seed=1).observation(DeerParkGame(3, seed=1).to_act))


@pytest.mark.single_core
def test_the_command_trains_and_evaluates(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "run")
    args = ["train", "--envs", "8", "--steps", "4", "--updates", "2", "--checkpoints", "0", "--out", out]
    assert learn_main(args) == 0
    assert "hands/CPU-s" in capsys.readouterr().out
    path = os.path.join(out, "cpu00000.npz")
    record = str(tmp_path / "curve.jsonl")
    assert learn_main(["evaluate", path, "--against", "random", "--games", "8", "--json", record]) == 0
    shown = capsys.readouterr().out
    assert "learned" in shown and "share of games won" in shown
    with open(record, encoding="utf-8") as fh:
        assert '"random"' in fh.read()


def test_import_hucklebuck_stays_free_of_numpy() -> None:
    code = (
        "import sys, hucklebuck, hucklebuck.players, hucklebuck.vector, hucklebuck.games.tensors; "
        "assert 'numpy' not in sys.modules, 'numpy imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_a_bad_seat_number_is_a_seat_error() -> None:
    """Point 5: a seat out of range is a SeatError (still a PlayerCountError for older code)."""
    game = HucklebuckGame(4, seed=1)
    for bad in (4, -1):
        with pytest.raises(SeatError, match="seat"):
            game.observation(bad)
        with pytest.raises(PlayerCountError):
            game.observation_tensor(bad)


def test_the_onlookers_hand_is_empty_in_the_typed_view_and_null_in_the_protocol() -> None:
    """Point 5, settled as documented: the typed onlooker observation keeps ``hand`` a card
    set (empty: an onlooker holds no cards), the protocol's view says ``null`` (no seat)."""
    game = DeerParkGame(4, seed=2)
    assert len(game.observation(None).hand) == 0
    assert view(game, None)["hand"] is None


def test_make_players_run_time_signature_names_its_general_type() -> None:
    """Point 5: the signature seen at run time is the general one, not Player[Any]."""
    shown = str(inspect.signature(make_player).return_annotation)
    assert "AnyObservation" in shown and "Any]" not in shown.replace("AnyObservation", "")


@pytest.mark.single_core
def test_the_tournament_command_seats_a_checkpoint(
    checkpoint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from hucklebuck.cli import main as cli_main

    args = ["tournament", "deerpark", "--bots", "learned,random", "--games", "8", "--learned", checkpoint]
    assert cli_main(args) == 0
    shown = capsys.readouterr().out
    assert "learned" in shown and "8 games" in shown
    assert cli_main(["tournament", "deerpark", "--bots", "learned,random", "--games", "8"]) == 2
    assert "--bots learned needs --learned PATH" in capsys.readouterr().err


@pytest.mark.single_core
def test_the_terminal_seats_a_checkpoint(checkpoint: str, capsys: pytest.CaptureFixture[str]) -> None:
    from hucklebuck.cli import main as cli_main

    args = ["play", "deerpark", "--bots", "learned,heuristic", "--learned", checkpoint, "--seed", "3"]
    assert cli_main([*args, "--hands", "1"]) == 0
    shown = capsys.readouterr().out
    assert "computer: learned (learned)" in shown and "Stopped after 1 hand" in shown


def test_the_command_says_what_is_wrong_in_one_line(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    for args, words in (
        (["evaluate", str(tmp_path / "none.npz"), "--games", "4"], "cannot load a learned player"),
        (["train", "--opponent", "wizard", "--updates", "1", "--out", str(tmp_path)], "unknown player kind"),
        (["train", "--players", "9", "--updates", "1", "--out", str(tmp_path)], "3 to 7 players, not 9"),
    ):
        with pytest.raises(SystemExit) as stop:
            learn_main(args)
        assert stop.value.code == 2
        assert words in capsys.readouterr().err


def test_sampling_never_draws_an_id_of_probability_zero() -> None:
    # A float32 row of probabilities sums to a little under 1: a draw above its total used to
    # fall through to the last id (Deer Park's "call spades"), illegal in the play phase, and
    # stopped a training run after 13 million decisions.
    np = pytest.importorskip("numpy")
    from hucklebuck.learn import masked_softmax, sample_ids

    class Edge:
        def __init__(self, u: float) -> None:
            self.u = u

        def random(self, shape: tuple[int, int]) -> object:
            return np.full(shape, self.u)

    probs = np.array([[0.3, 0.69999, 0.0], [0.0, 0.5, 0.5], [0.0, 0.0, 0.0]], np.float32)
    for u in (0.0, 0.3, 0.9999999, 1.0 - 2**-53):
        pick = sample_ids(probs, Edge(u))  # type: ignore[arg-type]
        assert probs[0, pick[0]] > 0 and probs[1, pick[1]] > 0 and pick[2] == 0, (u, pick)
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(4096, 110)).astype(np.float32) * 8
    mask = (rng.random((4096, 110)) < 0.1).astype(np.int8)
    mask[:, 7] = 1
    probs = masked_softmax(logits, mask)
    for _ in range(20):
        pick = sample_ids(probs, rng)
        assert (mask[np.arange(4096), pick] == 1).all()
