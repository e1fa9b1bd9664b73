"""A computer seat whose player fails to decide does not freeze its table: another
player (or else a legal move) moves for it, and the table is told so."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jsonschema")

import server_kit as kit

from hucklebuck.errors import CoreInputError
from hucklebuck.games import BuckEmGame, HucklebuckGame
from hucklebuck.packs import GameKind
from hucklebuck.players import make_player
from hucklebuck.server import bots

pytestmark = pytest.mark.single_core

FAILURE = "search: no deal of the unseen cards fits the hand sizes and the voids shown"


class _Failing:
    """A player whose every decision raises, as the Monte Carlo players did in some positions."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    def choose(self, observation: Any) -> Any:
        raise self.exc


def _failing_kinds(monkeypatch: pytest.MonkeyPatch, kinds: set[str], exc: Exception) -> None:
    def made(kind: str, game: Any, *, seed: int | None = None) -> Any:
        return _Failing(exc) if kind in kinds else make_player(kind, game, seed=seed)

    monkeypatch.setattr(bots, "make_player", made)


def _seq(c: Any, table: dict[str, Any]) -> int:
    seq: int = c.get(f"/api/tables/{table['id']}").json()["seq"]
    return seq


def _moved_on(c: Any, table: dict[str, Any]) -> bool:
    summary = c.get(f"/api/tables/{table['id']}").json()
    return bool(summary["seq"] >= 40 or (summary["over"] and summary["seq"] >= 20))


def test_a_table_whose_computer_player_raises_keeps_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    _failing_kinds(monkeypatch, {"mc"}, CoreInputError(FAILURE))
    with kit.client(kit.config()) as c:
        t = kit.new_table(c, "hucklebuck", kit.humans_and_bots(0, 4, "mc"))
        deadline = time.monotonic() + 120  # the loop ends as soon as it is there; a busy machine is slow
        while not _moved_on(c, t) and time.monotonic() < deadline:
            time.sleep(0.05)
        # the computer seats went on moving (it used to stop at the first), to the end of the game if
        # that came first (a made moon ends it in one hand)
        assert _moved_on(c, t), c.get(f"/api/tables/{t['id']}").json()
        with c.websocket_connect(kit.ws_url(t, None)) as spectator:
            notices = kit.receive_state(spectator)["view"]["notices"]
    assert notices
    assert all("could not decide" in n for n in notices)
    assert all(": the mc computer player" in n for n in notices)  # after the seat's name
    assert f"({FAILURE})" in notices[-1]
    assert "the heuristic player's move was played instead" in notices[-1]


def test_fallback_order(monkeypatch: pytest.MonkeyPatch) -> None:
    game = HucklebuckGame(4, seed=3)
    obs = game.observation(game.to_act)
    # the player decides: no note
    action, note = bots.choose_or_fall_back("heuristic", GameKind.HUCKLEBUCK, 1, obs)
    assert note is None and game.is_legal(action)
    # the player fails: the heuristic player moves
    _failing_kinds(monkeypatch, {"mc"}, CoreInputError(FAILURE))
    action, note = bots.choose_or_fall_back("mc", GameKind.HUCKLEBUCK, 1, obs)
    assert game.is_legal(action)
    assert note == (
        f"the mc computer player could not decide ({FAILURE}), "
        "so the heuristic player's move was played instead"
    )
    # both fail, with a bug rather than a library error: a legal move, and no Python text shown
    _failing_kinds(monkeypatch, {"mc", "heuristic"}, KeyError("x"))
    action, note = bots.choose_or_fall_back("mc", GameKind.HUCKLEBUCK, 1, obs)
    assert action == obs.legal_actions[0]
    assert note == (
        "the mc computer player could not decide (an internal error), "
        "so the first legal move was played instead"
    )
    # the heuristic player itself fails: a legal move
    action, note = bots.choose_or_fall_back("heuristic", GameKind.HUCKLEBUCK, 1, obs)
    assert action == obs.legal_actions[0] and note is not None and "KeyError" not in note


def test_a_position_of_the_report_is_played_by_the_table_player() -> None:
    """The report's failing position (8-player Buck 'Em, scare cards, re-formed stock): the seat's
    own player decides it now, without a fallback."""
    from pathlib import Path

    path = Path(__file__).parent / "fixtures" / "buckem8_scare_restock.json"
    game = BuckEmGame.from_json(path.read_text())
    obs = game.observation(game.to_act)
    action, note = bots.choose_or_fall_back("mc", GameKind.BUCKEM, 7, obs)
    assert note is None and game.is_legal(action)
