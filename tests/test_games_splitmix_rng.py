"""A game whose random source is a SplitMix64 (as the batched lane's games are) is saved,
restored and copied with it, and deals on from it."""

from __future__ import annotations

import pytest

from hucklebuck.errors import RestoreError
from hucklebuck.evaluate import SplitMix64
from hucklebuck.games import DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase, rng_from_json


def _play_hand(game: DeerParkGame | HucklebuckGame) -> None:
    while game.phase is not Phase.HAND_OVER and game.phase is not Phase.GAME_OVER:
        game.apply_id(min(game.legal_action_ids()))


@pytest.mark.parametrize("cls", [DeerParkGame, HucklebuckGame])
def test_a_splitmix64_game_saves_restores_and_deals_on_alike(
    cls: type[DeerParkGame] | type[HucklebuckGame],
) -> None:
    game = cls(4, rng=SplitMix64(77))
    _play_hand(game)
    saved = game.to_dict()
    assert saved["rng"] == {"splitmix64": game._rng.getstate()[1]}
    again = cls.from_dict(saved)
    twin = game.copy()  # shares the source until one of them deals
    for g in (game, again, twin):
        g.next_hand()
    assert again.to_dict() == game.to_dict() == twin.to_dict()  # the same next deal, from the same state
    assert type(twin._rng) is SplitMix64 and twin._rng is not game._rng


@pytest.mark.parametrize("bad", [-1, 1 << 64, "12", 1.5, True, None])
def test_a_bad_splitmix64_state_is_refused(bad: object) -> None:
    with pytest.raises(RestoreError, match="saved random state is not valid"):
        rng_from_json({"splitmix64": bad})
