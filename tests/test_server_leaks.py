"""No leak: over whole games of every game and several variants, no message to a
seat or a spectator names a card that seat may not see at that moment (the
others' hands, the stock, the kitty, buried discards), checked against the
engine's full state when the message is sent."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jsonschema")

from server_kit import check_schema
from server_kit_async import cards_in, play_table

pytestmark = pytest.mark.single_core


def _seats(humans: int, bots: int, player: str = "heuristic") -> list[dict[str, Any]]:
    return [{"kind": "human", "name": f"P{i}"} for i in range(humans)] + [
        {"kind": "computer", "player": player} for _ in range(bots)
    ]


VARIANTS = [
    ("hucklebuck", 4, {}, 2),
    ("hucklebuck", 6, {"target": 11, "auction_reentry": True}, 3),
    ("buckem", 5, {}, 2),
    ("buckem", 6, {"simultaneous_declare": True, "deuce_swap": True, "scare_cards": True}, 3),
    ("deerpark", 4, {}, 2),
    ("deerpark", 3, {"club_turnup_pickup": True, "first_lead": "maker"}, 2),
]


@pytest.mark.parametrize(("game", "players", "options", "humans"), VARIANTS)
def test_no_message_names_a_card_its_reader_may_not_see(
    game: str, players: int, options: dict[str, Any], humans: int
) -> None:
    body = {"game": game, "players": players, "options": options, "seats": _seats(humans, players - humans)}
    if game == "buckem":
        body["hands"] = 6
    table, probes = asyncio.run(play_table(body, spectators=1, seed=players))
    assert table.over
    for probe in probes:
        assert probe.messages and not probe.errors, probe.errors
        own_cards_seen = False
        for i, (message, hidden) in enumerate(probe.messages):
            if i % 7 == 0 or message["type"] != "state":
                check_schema(message)  # a sample here; the protocol tests check every message they get
            named = cards_in(message)
            leaked = named & hidden
            assert not leaked, (probe.seat, sorted(leaked), message)
            if message["type"] == "state":
                hand = message["view"]["hand"]
                if probe.seat is None:
                    assert hand == []
                elif hand:
                    own_cards_seen = True
        assert own_cards_seen or probe.seat is None
