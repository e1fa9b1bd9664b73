"""At a table, the computer that plays for an absent person is a stand-in: it never shoots a moon
that cannot win the game, whatever player kind the server sits in (``--takeover-player``).

The table is dealt the position a stand-in was seen to bid the moon from: the absent person
(seat 0, first to bid) at -5 with 9♥ 10♥ J♥ J♠ J♣, the leader at 13 of 15.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jsonschema")

import server_kit as kit
from test_players_standin import Reckless, issue_deal

from hucklebuck.cli import common
from hucklebuck.games import HucklebuckGame
from hucklebuck.packs import GameKind
from hucklebuck.players import make_player
from hucklebuck.server import bots, tables

pytestmark = pytest.mark.single_core


class IssueGame(HucklebuckGame):
    """A Hucklebuck game that deals the issue's position (whatever the seed)."""

    def __init__(self, players: int, *, options: Any = None, seed: int | None = None, **given: Any) -> None:
        if given:  # a copy or a restore: as given
            super().__init__(players, options=options, seed=seed, **given)
            return
        super().__init__(players, options=options, **issue_deal(players))


def _seat_zero_moves(monkeypatch: pytest.MonkeyPatch, takeover: str) -> list[str]:
    """The first move the server's computer sends for the absent person at seat 0."""
    monkeypatch.setitem(
        common.GAMES, "hucklebuck", common.GameSpec("hucklebuck", GameKind.HUCKLEBUCK, IssueGame)
    )

    def made(kind: str, game: Any, *, seed: int | None = None) -> Any:
        return Reckless() if kind == "reckless" else make_player(kind, game, seed=seed)

    monkeypatch.setattr(bots, "make_player", made)
    sent: list[str] = []
    lock = threading.Lock()
    original = tables.ServerTable.agent_message

    def spy(self: Any, seat: int, message: Any) -> None:
        if seat == 0:
            with lock:
                sent.append(str(message.action))
        original(self, seat, message)

    monkeypatch.setattr(tables.ServerTable, "agent_message", spy)
    with kit.client(kit.config(takeover_player=takeover, grace=0.05)) as c:
        seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "computer", "player": "heuristic"}] * 3
        t = kit.new_table(c, "hucklebuck", seats)
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            first = kit.receive_state(ws)
            assert first["view"]["to_act"] == 0 and first["view"]["seats"][0]["score"] == -5
        # Ann has gone: after the grace period the computer bids for her
        deadline = time.monotonic() + 60  # only a hang gets there: the loop ends once she has a move
        while time.monotonic() < deadline:
            with lock:
                if sent:
                    return list(sent)
            time.sleep(0.02)
    raise AssertionError("the computer never moved for the absent person")


@pytest.mark.parametrize("takeover", ["reckless", "heuristic", "random"])
def test_the_computer_playing_for_an_absent_person_does_not_shoot_a_moon_that_cannot_win(
    monkeypatch: pytest.MonkeyPatch, takeover: str
) -> None:
    moves = _seat_zero_moves(monkeypatch, takeover)
    assert moves[0] != "0 bid 5"
    if takeover == "reckless":  # (a player bidding every moon it may is held back: it passes)
        assert moves[0] == "0 pass"
