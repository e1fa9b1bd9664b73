"""What a computer decision keeps alive while its move waits for the pause: not the observation
it was decided on (at thousands of tables, observations kept through the pause are a large
part of what the cycle collector walks again and again)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest

pytest.importorskip("starlette")  # the server extra (server_kit imports the app)

import server_kit as kit

from hucklebuck.games import DeerParkGame
from hucklebuck.packs import GameKind
from hucklebuck.server import bots


def test_a_decided_move_lets_its_observation_go_during_its_pause() -> None:
    """Once the pool has decided, nothing of the decision holds the observation any more, though
    the move waits a minute for its pause."""
    game = DeerParkGame(4, seed=8)
    if game.to_act is None:
        game.next_hand()
    seen: list[Any] = []
    decided: list[Any] = []

    class Client:
        def observation(self) -> tuple[int, Any]:
            obs = game.observation(game.to_act)
            seen.append(obs)
            return 0, obs

        def send(self, _message: Any) -> None:
            raise AssertionError("the move went before its pause")

        def notice(self, _text: str) -> None:
            pass

    def held(obs: Any) -> bool:
        return any(isinstance(r, tuple) for r in gc.get_referrers(obs))

    async def run() -> None:
        seats = bots.ComputerSeats(1, pause=60.0)
        real = seats._decided

        def spy(job: Any, part: Any) -> None:
            real(job, part)
            decided.append(part)

        seats._decided = spy  # type: ignore[method-assign]
        try:
            seats.decide(Client(), "heuristic", GameKind.DEERPARK, "t:1:1:0")
            await kit.settle(lambda: bool(decided), "the decision")
            await kit.settle(lambda: not held(seen[0]), "the observation let go")
        finally:
            seats.close()

    asyncio.run(run())
