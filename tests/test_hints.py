"""Hints: every legal move's chance of winning (or chips), best first, with one plain reason."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hucklebuck.cards import CardSet
from hucklebuck.errors import IllegalAction, OptionsError
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.packs import GameKind
from hucklebuck.players import MonteCarloPlayer, _search, inference, make_player
from hucklebuck.players.hints import Hint, hint

CASES: list[tuple[Any, int, str]] = [
    (HucklebuckGame, 4, "%"),
    (DeerParkGame, 3, "%"),
    (BuckEmGame, 5, "chips"),
]


@pytest.mark.parametrize(("cls", "n", "unit"), CASES)
def test_hint_rates_every_move_best_first(cls: Any, n: int, unit: str) -> None:
    game = cls(n, seed=5)
    obs = game.observation(game.to_act)
    h = hint(obs, samples=48, seed=2)
    assert isinstance(h, Hint) and h.unit == unit and h.samples == 48
    assert sorted(map(str, (m.action for m in h.moves))) == sorted(map(str, obs.legal_actions))
    values = [m.value for m in h.moves]
    assert values == sorted(values, reverse=True) and h.best == h.moves[0].action
    if unit == "%":
        assert all(0.0 <= v <= 100.0 for v in values)
    assert h.reason.endswith(".") and h.reason.count(". ") == 0 and "; the best move gives you" in h.reason
    lines = h.lines()
    assert "sampled deals" in lines[0] and len(lines) == len(h.moves) + 2
    data = json.loads(json.dumps(h.to_dict()))
    assert data["unit"] == unit and [m["action"] for m in data["moves"]] == [str(m.action) for m in h.moves]
    assert hint(obs, samples=48, seed=2) == h  # a seed repeats the figures


def test_hint_reasons_speak_of_the_goal_and_the_hand() -> None:
    game = DeerParkGame(3, seed=2)
    h = hint(game.observation(game.to_act), samples=32, seed=1)
    assert h.reason.startswith(("Playing for 0", "Playing for 50"))
    game = HucklebuckGame(4, seed=1)
    h = hint(game.observation(game.to_act), samples=32, seed=1)
    assert h.reason.startswith(("Bid ", "Pass: ")) and "tricks" in h.reason


def test_hint_refuses_what_is_not_a_position() -> None:
    game = HucklebuckGame(4, seed=1)
    with pytest.raises(IllegalAction):
        hint(game.observation((game.to_act + 1) % 4))
    with pytest.raises(OptionsError):
        hint(None)
    with pytest.raises(OptionsError):
        hint(game.observation(game.to_act), samples=0)


def test_inference_weighs_deals_by_what_others_chose() -> None:
    """A Buck 'Em seat that stayed is more likely to hold trumps: deals giving it two weigh more."""
    bot = make_player("heuristic", "buckem")
    for seed in range(1, 40):
        game = BuckEmGame(5, seed=seed)
        obs = game.observation(game.to_act)
        while obs.phase is Phase.STAY_FOLD and not any(d.startswith("stay") for _, d in obs.decisions):
            game.apply(bot.choose(obs))
            obs = game.observation(game.to_act)
        if obs.phase is Phase.STAY_FOLD:
            break
    stayer = next(s for s, d in obs.decisions if d.startswith("stay"))
    hands = _search.sample_hands(_search.build_position(obs), 3, 200)
    weights = inference.sample_weights(obs, GameKind.BUCKEM, hands)
    assert weights is not None and len(weights) == 200
    trumps = [len(CardSet.from_mask(h[stayer]).of_suit(obs.trump)) for h in hands]
    rich = [w for w, t in zip(weights, trumps, strict=True) if t >= 2]
    poor = [w for w, t in zip(weights, trumps, strict=True) if t == 0]
    assert rich and poor and min(rich) > max(poor)
    blind = MonteCarloPlayer(samples=64, seed=3, inference=False).analyse(obs)
    seen = MonteCarloPlayer(samples=64, seed=3).analyse(obs)
    assert sorted(map(str, (a for a, _ in blind))) == sorted(map(str, (a for a, _ in seen)))
    with pytest.raises(OptionsError, match="inference must be True or False"):
        MonteCarloPlayer(inference=1)  # type: ignore[arg-type]
