"""Clubs is suit number 0, yet a trump of clubs must never read as "no trump":
``Suit`` is always true, and the library and the command line show clubs
trump in each game."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

from hucklebuck.cards import Card, Rank, Suit
from hucklebuck.cli.common import Output
from hucklebuck.cli.human import Human
from hucklebuck.cli.table import Table
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase
from hucklebuck.players import make_player


def test_every_suit_is_true_and_keeps_its_number() -> None:
    assert all(bool(s) for s in Suit)
    assert Suit.CLUBS == 0 and int(Suit.CLUBS) == 0 and Suit(0) is Suit.CLUBS
    trump: Suit | None = Suit.CLUBS
    assert (trump or Suit.SPADES) is Suit.CLUBS
    assert sorted(Suit, reverse=True)[-1] is Suit.CLUBS


def _clubs_game(make: Any, players: int) -> Any:
    """The first seeded game whose trump, once chosen by the bots, is clubs."""
    for seed in range(200):
        game = make(players, rng=random.Random(seed))
        bots = [make_player("heuristic", game.kind) for _ in range(players)]
        while game.phase is not Phase.PLAY and game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            seat = game.to_act
            game.apply(bots[seat].choose(game.observation(seat)))
        if game.phase is Phase.PLAY and game.trump is Suit.CLUBS:
            return game, bots
    raise AssertionError("no seed gave clubs trump")  # pragma: no cover


@pytest.mark.parametrize(
    ("make", "players"), [(HucklebuckGame, 4), (DeerParkGame, 4), (BuckEmGame, 5)], ids=lambda x: str(x)
)
def test_clubs_trump_is_shown_and_played_as_trump(make: Any, players: int) -> None:
    game, bots = _clubs_game(make, players)
    assert game.trump is Suit.CLUBS
    assert game.observation(game.to_act).trump is Suit.CLUBS
    buf = io.StringIO()
    out = Output(buf, ascii_only=False)
    table = Table(game, [f"P{s}" for s in range(players)], out, show_all=True)
    table.hand_start()
    table.announce_trump()
    seat = game.to_act
    Human(table, out, lambda prompt: None, save=lambda path: "").screen(seat)
    text = buf.getvalue()
    assert "Trump: ♣ clubs" in text
    assert "not chosen" not in text and "trump ?" not in text
    # Play the hand out: every trick is won by the highest club when clubs were played.
    while game.phase is Phase.PLAY:
        seat = game.to_act
        game.apply(bots[seat].choose(game.observation(seat)))
    euchre = game.kind.value == "deerpark"  # the jack of spades is a club there (left bower)

    def strength(c: Card) -> int:
        if euchre and c.rank is Rank.JACK:
            return 100 if c.suit is Suit.CLUBS else 99
        return int(c.rank)

    for trick in game.tricks:
        trumps = [c for c in trick.cards if c.suit is Suit.CLUBS or (euchre and c == Card.parse("JS"))]
        if trumps:
            assert trick.cards[trick.seats.index(trick.winner)] is max(trumps, key=strength)
