"""Computer seats and hints know no more than their seat (DEF #91): a research
player that reads hidden cards cannot be seated, and a computer seat's random
choices are seeded under a key the server keeps, so a player who knows the
position cannot replay the computer's decision for each hand it might hold."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from hucklebuck.players.seer import SEER_KINDS
from hucklebuck.server.bots import ComputerSeats, _seed
from hucklebuck.server.catalog import read_table_request
from hucklebuck.server.protocol import ProtocolError

pytestmark = pytest.mark.single_core


@pytest.mark.parametrize("kind", SEER_KINDS)
def test_a_player_that_reads_hidden_cards_is_refused_a_seat(kind: str) -> None:
    body = {
        "game": "deerpark",
        "players": 4,
        "seats": [
            {"kind": "human"},
            {"kind": "computer", "player": kind},
            {"kind": "human"},
            {"kind": "human"},
        ],
    }
    with pytest.raises(ProtocolError, match="reads every hand") as info:
        read_table_request(body, 24)
    assert "seat 1" in str(info.value)


def test_computer_seeds_depend_on_a_key_only_the_server_holds() -> None:
    a, b = ComputerSeats(1, 0.0), ComputerSeats(1, 0.0)
    try:
        text = "table:1:2:17"  # what any player knows: the table, game number, seat and state
        assert _seed(text, a._secret) != _seed(text, b._secret)  # a new key at each start
        assert _seed(text, a._secret) == _seed(text, a._secret)  # and one seed per position
        assert len(a._secret) >= 16
        guesses = {_seed(text, bytes(32)), _seed(text, text.encode()[:32])}
        assert _seed(text, a._secret) not in guesses
    finally:
        a.close()
        b.close()
