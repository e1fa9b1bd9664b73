"""The Deer Park heuristic's one-pass card play picks what the plain min/max rule picks."""

from __future__ import annotations

import random

from hucklebuck._core import get_core
from hucklebuck.actions import Action, Play
from hucklebuck.cards import Card
from hucklebuck.games import DeerParkGame, Phase
from hucklebuck.games.deerpark import DeerParkObservation
from hucklebuck.packs import GameKind
from hucklebuck.players import DeerParkHeuristic


def reference_play(obs: DeerParkObservation, going_high: bool) -> Action:
    """The rule written plainly: lead the strongest card (the weakest going high);
    following, win as cheaply as possible (going high: lose with the strongest
    card), else throw the weakest; ties go to the earlier legal play."""
    assert obs.trump is not None
    trump = obs.trump
    suits, ranks = get_core().rules(GameKind.DEERPARK.core_id, int(trump))
    cards = [a.card for a in obs.legal_actions if isinstance(a, Play)]

    def strength(c: Card) -> int:
        return ((suits[c.index] == trump) << 5) | ranks[c.index]

    def key(c: Card, lead: int) -> int:
        return strength(c) | ((suits[c.index] == lead) << 4)

    if not obs.current_trick:
        return Play(obs.seat, min(cards, key=strength) if going_high else max(cards, key=strength))
    lead = suits[obs.current_trick[0].index]
    best = max(key(c, lead) for c in obs.current_trick)
    winners = [c for c in cards if key(c, lead) > best]
    losers = [c for c in cards if key(c, lead) <= best]
    if going_high:
        pick = max(losers, key=strength) if losers else min(cards, key=strength)
    else:
        pick = min(winners, key=strength) if winners else min(cards, key=strength)
    return Play(obs.seat, pick)


def test_play_matches_the_plain_rule() -> None:
    checked = 0
    for g in range(24):
        n = 3 + g % 5
        options = {"first_lead": "maker"} if g % 2 else {}
        game = DeerParkGame(n, seed=g, options=options)
        bot = DeerParkHeuristic(high_from=25 if g % 3 == 0 else None)
        rng = random.Random(g)
        hands = 0
        while not game.is_over and hands < 12:
            if game.to_act is None:
                game.next_hand()
                hands += 1
                continue
            obs = game.observation(game.to_act)
            action = bot.choose(obs)
            if obs.phase is Phase.PLAY:
                for going_high in (False, True):  # both goals on every trick position
                    assert bot._play(obs, obs.legal_actions, going_high) == reference_play(obs, going_high)
                assert action == reference_play(obs, bot.goes_high(obs))
                checked += 1
            game.apply(action if rng.random() < 0.7 else rng.choice(game.legal_actions()))
    assert checked > 1000
