"""The table server's work per change, counted rather than timed (the speed itself is measured
by ``python -m hucklebuck.bench server``): what a change needs is worked out once, and what
is worked out once is what a fresh rendering gives."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from hucklebuck.cards import Card, CardSet, Rank, Suit
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.packs import GameKind
from hucklebuck.server import bots, listing, moves, views
from hucklebuck.words.cards import is_trump, sort_hand

GAMES: list[tuple[Any, int]] = [(DeerParkGame, 4), (HucklebuckGame, 4), (BuckEmGame, 5)]


def _to_decision(game: Any, rng: random.Random, steps: int) -> None:
    """Play ``steps`` random moves (dealing when a hand ends)."""
    for _ in range(steps):
        if game.phase.value == "game_over":
            return
        if game.to_act is None:
            game.next_hand()
        else:
            game.apply(rng.choice(game.legal_actions()))


def _forget_listings() -> None:
    listing._LISTED.clear()
    listing._PLAYS_LISTED.clear()


@pytest.mark.parametrize(("cls", "players"), GAMES)
def test_a_computer_seat_s_move_is_read_without_rendering_the_menu(
    cls: Any, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move in protocol form (what computer seats send) is found without the menu's words."""
    game = cls(players, seed=4321)
    _to_decision(game, random.Random(5), 3)
    legal = game.legal_actions()
    moves._menu.cache_clear()

    def no_words(*_args: Any) -> str:
        raise AssertionError("the menu's words were rendered to read a move in protocol form")

    monkeypatch.setattr(moves, "move_text", no_words)
    for action in legal:
        assert moves.MoveReader(game).read(game.to_act, str(action), ["A", "B", "C", "D", "E"]) == action


def test_tables_at_the_same_decision_list_their_moves_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tables at the same decision with the same cards render the menu once between them."""
    rendered = 0
    real = listing.move_text

    def counted(action: Any, game: Any) -> str:
        nonlocal rendered
        rendered += 1
        return real(action, game)

    monkeypatch.setattr(listing, "move_text", counted)
    _forget_listings()
    first, second = BuckEmGame(5, seed=77), BuckEmGame(5, seed=77)  # the same deal at two tables
    for g in (first, second):
        _to_decision(g, random.Random(1), 0)
    seat = first.to_act
    assert seat is not None and len(first.legal_actions()) > 1
    one = views.legal_moves(first, first.legal_actions())
    after_first = rendered
    two = views.legal_moves(second, second.legal_actions())
    assert after_first == len(one) and rendered == after_first
    assert one == two


def test_the_listed_moves_a_caller_gets_are_its_own() -> None:
    """Changing the list a view got changes nothing for the next view of that decision."""
    _forget_listings()
    game = DeerParkGame(4, seed=12)
    one = views.legal_moves(game, game.legal_actions())
    fresh = [dict(m, cards=list(m["cards"])) for m in one]
    one[0]["text"] = "changed"
    one[0]["cards"].append("XX")
    one.append({"id": -1})
    assert views.legal_moves(game, game.legal_actions()) == fresh


@pytest.mark.parametrize(("cls", "players"), GAMES)
def test_moves_listed_from_the_cache_are_those_a_fresh_rendering_gives(cls: Any, players: int) -> None:
    """Many tables in random play share the cache; every listing equals a fresh one (so the cache's
    key holds everything the words and ids follow from: trump, the turned card, the seat's hand)."""
    _forget_listings()
    rng = random.Random(players * 31)
    tables = [cls(players, seed=rng.randrange(6)) for _ in range(12)]  # repeated deals: cache hits
    checked = 0
    for _step in range(60):
        for game in tables:
            _to_decision(game, rng, 1)
            if game.to_act is None or game.phase.value == "game_over":
                continue
            legal = game.legal_actions()
            cached = views.legal_moves(game, legal)
            assert cached == listing._list_moves(game, legal)  # (the menu rendered afresh, uncached)
            assert listing.legal_text(game, legal) == listing.encode(cached)
            checked += 1
    assert checked > 100


def test_computer_seats_share_one_rule_of_thumb_player_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The heuristic player keeps no state: decisions do not each build a new one."""
    made = 0
    real = bots.make_player

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal made
        made += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(bots, "make_player", counted)
    game = DeerParkGame(4, seed=3)
    for seed in range(5):
        seat = game.to_act
        obs = game.observation(seat)
        assert bots.choose_move("heuristic", GameKind.DEERPARK, seed, obs) in obs.legal_actions
    assert made <= 1


def test_a_hand_sorts_as_the_rule_says_under_every_trump() -> None:
    """``sort_hand`` (by a table worked out once per trump) keeps its order: trump first, the
    right bower then the left in Deer Park, then by suit, high to low."""

    def key(c: Card, trump: Suit | None, kind: GameKind) -> tuple[int, int, int]:
        if is_trump(c, trump, kind):
            bower = kind is GameKind.DEERPARK and c.rank is Rank.JACK
            return (0, 0, -(100 if bower and c.suit is trump else 99 if bower else int(c.rank)))
        return (1, -int(c.suit), -int(c.rank))

    rng = random.Random(9)
    deck = [Card.from_index(i) for i in range(52)]
    for kind in GameKind:
        for trump in (None, *Suit):
            for _ in range(30):
                cards = rng.sample(deck, rng.randrange(0, 9))
                want = sorted(cards, key=lambda c: key(c, trump, kind))
                assert sort_hand(cards, trump, kind) == want
                assert sort_hand(CardSet(cards), trump, kind) == want


class _Client:
    """A computer seat's table for :class:`~hucklebuck.server.bots.ComputerSeats`: one fixed observation."""

    def __init__(self, obs: Any, loop: Any) -> None:
        self.obs, self.loop = obs, loop
        self.asked = self.sent_at = -1.0
        self.sent: Any = None

    def observation(self) -> tuple[int, Any]:
        self.asked = self.loop.time()
        return 7, self.obs

    def send(self, message: Any) -> None:
        self.sent_at, self.sent = self.loop.time(), message

    def notice(self, text: str) -> None:
        raise AssertionError(text)


def test_a_batch_of_computer_moves_is_sent_by_one_timer_after_every_pause() -> None:
    """Decisions gathered together are sent together, by one timer of the event loop, and none
    before its own pause is over (one commit for them all, and no timer per move)."""

    async def play() -> tuple[list[_Client], int]:
        loop = asyncio.get_running_loop()
        seats = bots.ComputerSeats(1, pause=0.2)
        timers = 0
        real = loop.call_at

        def counted(when: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
            nonlocal timers
            if getattr(callback, "__name__", "").startswith("_send"):
                timers += 1
            return real(when, callback, *args, **kwargs)

        loop.call_at = counted  # type: ignore[method-assign]
        games = [DeerParkGame(4, seed=s) for s in range(6)]
        clients = [_Client(g.observation(g.to_act), loop) for g in games]
        for i, c in enumerate(clients):
            seats.decide(c, "heuristic", GameKind.DEERPARK, f"t{i}")
        deadline = loop.time() + 60  # only a hang ends the wait
        while any(c.sent is None for c in clients) and loop.time() < deadline:
            await asyncio.sleep(0.01)
        seats.close()
        return clients, timers

    clients, timers = asyncio.run(play())
    assert all(c.sent is not None and c.sent.seq == 7 for c in clients)
    assert all(c.sent_at >= c.asked + 0.2 - 1e-6 for c in clients)  # (a timer may run a tick early)
    assert timers <= 1  # (none when the decisions took longer than the pause: a busy machine sends at once)


def test_paced_timers_fall_due_on_a_common_beat() -> None:
    """Timers of many tables (computer moves, deals) are moved up to the next beat, never earlier,
    so that they fall due together; without a pause nothing waits."""
    beat = bots.GATHER
    for when in (0.0, 0.01, 1.0, 1.049, 1.05, 1.051, 12345.678, 98765.4321):
        due = bots.on_beat(when, beat)
        assert when <= due < when + beat + 1e-9
        assert abs(due / beat - round(due / beat)) < 1e-6
    assert bots.on_beat(1.2345, beat) == bots.on_beat(1.2001, beat)  # two tables, one wake-up
    assert bots.on_beat(7.123, 0) == 7.123


def test_the_running_loop_is_asked_of_asyncio_once_per_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python 3.11's ``asyncio.get_running_loop`` makes a system call each time: the server asks
    it once per loop, and again only once that loop no longer runs (a new loop is found)."""
    asked = 0
    real = asyncio.get_running_loop

    def counted() -> asyncio.AbstractEventLoop:
        nonlocal asked
        asked += 1
        return real()

    monkeypatch.setattr(asyncio, "get_running_loop", counted)
    running = bots.RunningLoop()

    async def use() -> asyncio.AbstractEventLoop:
        loops = {id(running()) for _ in range(50)}
        assert loops == {id(real())}
        return real()

    first = asyncio.run(use())
    assert asked == 1
    second = asyncio.run(use())
    assert asked == 2 and first is not second
