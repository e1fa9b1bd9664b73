"""A stand-in (the computer playing for an absent person) never takes a risk whose best outcome
cannot help that person: no Hucklebuck moon that cannot win the game, from any player kind.

The position is the one a stand-in was seen to shoot the moon from: the absent person at -5
holding 9♥ 10♥ J♥ J♠ J♣ (no ace, king or queen), the leader at 13 of 15.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from hucklebuck.actions import Action, Bid, Pass
from hucklebuck.cards import Suit, parse_cards
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.packs import GameKind, pack
from hucklebuck.players import PLAYER_KINDS, make_player
from hucklebuck.players.standin import StandIn, hopeless_moves, make_stand_in, moon_can_win, safe_moves

ISSUE_HAND = parse_cards("9H TH JH JS JC")


def issue_deal(players: int = 4, *, own: int = -5, before: int = 0, seed: int = 1) -> dict[str, Any]:
    """The game's arguments: seat 0 holds the issue's hand at ``own``, seat 1 leads at 13, and
    ``before`` seats bid before seat 0."""
    rest = [c for c in pack(GameKind.HUCKLEBUCK, players) if c not in ISSUE_HAND]
    random.Random(seed).shuffle(rest)
    hands = [[c.code for c in ISSUE_HAND]]
    hands += [[c.code for c in rest[5 * i : 5 * i + 5]] for i in range(players - 1)]
    return {
        "dealer": (players - before - 1) % players,  # the auction starts left of the dealer
        "scores": [own, 13] + [2] * (players - 2),
        "deal": {"hands": hands, "stock": [c.code for c in rest[5 * (players - 1) :]]},
    }


def issue_position(
    players: int = 4, *, own: int = -5, bids: tuple[int | None, ...] = (), seed: int = 1, **options: Any
) -> HucklebuckGame:
    """Seat 0 holds the issue's hand at ``own`` with seat 1 leading at 13; the seats before it in
    the auction made ``bids`` (``None``: a pass); seat 0 is to act."""
    game = HucklebuckGame(
        players, options=options, **issue_deal(players, own=own, before=len(bids), seed=seed)
    )
    for b in bids:
        seat = game.to_act
        assert seat is not None
        game.apply(Pass(seat) if b is None else Bid(seat, b))
    assert game.to_act == 0
    return game


class Reckless:
    """A player that shoots the moon whenever it may (else the first legal move)."""

    def choose(self, observation: Any) -> Action:
        moon = Bid(observation.seat, 5)
        legal: tuple[Action, ...] = observation.legal_actions
        return moon if moon in legal else legal[0]


def test_a_moon_that_cannot_win_is_the_hopeless_move() -> None:
    obs = issue_position().observation(0)
    assert hopeless_moves(obs) == (Bid(0, 5),)
    assert Bid(0, 5) not in safe_moves(obs) and len(safe_moves(obs)) == len(obs.legal_actions) - 1
    # from above 0 a made moon wins the game: the stand-in's player may bid it
    assert hopeless_moves(issue_position(own=3).observation(0)) == ()
    # from exactly 0 only where a made moon wins there
    assert hopeless_moves(issue_position(own=0).observation(0)) == (Bid(0, 5),)
    assert not moon_can_win(issue_position(own=0, moon_at_zero="score_normally").observation(0))
    assert moon_can_win(issue_position(own=0, moon_at_zero="win").observation(0))
    # after a bid of 4 the moon is the only bid left: passing is safe
    assert safe_moves(issue_position(bids=(4,)).observation(0)) == (Pass(0),)


def test_no_hopeless_move_in_the_other_games() -> None:
    for game in (DeerParkGame(4, seed=3), BuckEmGame(5, seed=3)):
        seat = game.to_act
        assert seat is not None
        obs = game.observation(seat)
        assert hopeless_moves(obs) == () and safe_moves(obs) == obs.legal_actions


@pytest.mark.single_core  # (the stand-in's rule is the same on both cores; the searches are slow in Python)
@pytest.mark.parametrize("kind", [*PLAYER_KINDS, "reckless"])
def test_a_stand_in_of_every_kind_never_bids_a_moon_that_cannot_win(kind: str) -> None:
    for bids in ((), (None,), (3,), (4,)):
        game = issue_position(bids=bids)
        obs = game.observation(0)
        for seed in range({"mc-solver": 1, "mc": 2, "mc-blind": 2}.get(kind, 25)):
            player = Reckless() if kind == "reckless" else make_player(kind, "hucklebuck", seed=seed)
            action = StandIn(player).choose(obs)
            assert action in obs.legal_actions and action != Bid(0, 5), (kind, bids, seed)


def test_the_stand_in_asks_its_player_among_the_safe_moves_only() -> None:
    """The player is shown the legal moves without the hopeless ones and its choice is kept; a
    player that returns a hopeless move anyway gets the first safe one."""
    seen: list[tuple[Action, ...]] = []

    class Watcher:
        def choose(self, observation: Any) -> Action:
            seen.append(observation.legal_actions)
            return observation.legal_actions[-1]

    obs = issue_position().observation(0)
    assert StandIn(Watcher()).choose(obs) == Bid(0, 4)
    assert seen == [tuple(a for a in obs.legal_actions if a != Bid(0, 5))]
    assert StandIn(Reckless()).choose(obs) == Pass(0)  # (Reckless then plays its first legal move)

    class Stubborn:
        def choose(self, observation: Any) -> Action:
            return Bid(0, 5)

    assert StandIn(Stubborn()).choose(obs) == Pass(0)


def test_a_stand_in_still_bids_a_moon_that_wins_the_game() -> None:
    """From above 0 a made moon wins: the stand-in leaves that judgement to its player."""
    obs = issue_position(own=3).observation(0)
    assert StandIn(Reckless()).choose(obs) == Bid(0, 5)
    assert make_stand_in("heuristic", "hucklebuck").choose(obs) == make_player(
        "heuristic", "hucklebuck"
    ).choose(obs)


def test_a_stand_in_plays_every_game_to_the_end() -> None:
    """Whole games with stand-ins of the random player at every seat stay legal in all three games."""
    rng = random.Random(5)
    for game in (HucklebuckGame(4, seed=11), DeerParkGame(3, seed=11), BuckEmGame(5, seed=11)):
        seats = [make_stand_in("random", game.kind, seed=rng.randrange(1 << 30)) for _ in range(game.players)]
        for _ in range(400):
            seat = game.to_act
            if seat is None:
                if game.is_over:
                    break
                game.next_hand()
                continue
            obs = game.observation(seat)
            action = seats[seat].choose(obs)
            assert action in safe_moves(obs)
            game.apply(action)


def test_the_observation_shown_to_the_player_is_the_seat_s_own() -> None:
    """Only the legal moves differ: the player decides on what the seat may know, nothing more."""
    obs = issue_position().observation(0)
    shown: list[Any] = []

    class Keep:
        def choose(self, observation: Any) -> Action:
            shown.append(observation)
            return Pass(0)

    StandIn(Keep()).choose(obs)
    assert dataclasses.replace(shown[0], legal_actions=obs.legal_actions) == obs


@pytest.mark.single_core
def test_the_heuristic_itself_passes_the_issue_s_hand() -> None:
    """The default takeover player never bids this moon: its estimate of the hand is 1.15 tricks
    (three small trumps, 0.4 for naming trump and exchanging), far from the four or so it bids 5 on."""
    from hucklebuck.players.heuristics import EXCHANGE_GAIN, estimate_tricks

    assert max(estimate_tricks(ISSUE_HAND, s) for s in Suit) + EXCHANGE_GAIN == pytest.approx(1.15)
    for players in range(3, 8):
        for bids in ((), (None,), (2,), (4,), (None, 3)):
            if len(bids) >= players:
                continue
            for options in ({}, {"all_pass": "dealer_must_bid"}, {"target": 11}, {"moon_at_zero": "win"}):
                obs = issue_position(players, bids=bids, **options).observation(0)
                assert make_player("heuristic", "hucklebuck").choose(obs) != Bid(0, 5)
