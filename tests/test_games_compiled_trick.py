"""A trick completed by the compiled play (``hucklebuck._hbcall.play`` / ``play_id``) is finished
in C while the C core is selected: the same Trick, TrickEvent and trick state as
``TrickPlay.finish_trick`` and ``TrickGame._trick_done`` give, without calling them; anything it
does not take (another core, a corrupted trick state, a game class or game whose ``_trick_done``
is its own) goes to those Python methods.  Deer Park's scoring shares its ScoreEvents and keeps
its caches bounded (issue 60)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import hucklebuck as hb
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games import _deerpark_scoring as scoring
from hucklebuck.games.base import Phase, Trick, TrickEvent, TrickPlay
from hucklebuck.games.engine import TrickGame

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif("c" not in hb.available(), reason="the compiled helpers are built with the C core"),
]

MAKERS: list[Callable[[int], TrickGame[Any, Any]]] = [
    lambda s: DeerParkGame(4, seed=s),
    lambda s: DeerParkGame(7, seed=s),
    lambda s: HucklebuckGame(5, seed=s),
    lambda s: BuckEmGame(6, seed=s),
]
DONE = (Phase.HAND_OVER, Phase.GAME_OVER)


@pytest.fixture
def finishes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the calls of the Python TrickPlay.finish_trick (one item per call)."""
    calls: list[int] = []
    original = TrickPlay.finish_trick

    def counted(self: TrickPlay) -> Trick:
        calls.append(1)
        return original(self)

    monkeypatch.setattr(TrickPlay, "finish_trick", counted)
    yield calls


def _at_last_card(seed: int) -> TrickGame[Any, Any]:
    """A 4-player Deer Park game at the last card of its first trick."""
    game = DeerParkGame(4, seed=seed)
    rng = random.Random(seed)
    while game.phase is not Phase.PLAY:
        game.apply_id(rng.choice(game.legal_action_ids()))
    for _ in range(3):
        game.apply_id(game.legal_action_ids()[0])
    return game


def _play_out(game: TrickGame[Any, Any], rng: random.Random, typed: bool) -> None:
    while game.phase not in DONE:
        if typed:
            game.apply(rng.choice(game.legal_actions()))
        else:
            game.apply_id(rng.choice(game.legal_action_ids()))


def _record(game: TrickGame[Any, Any]) -> tuple[Any, ...]:
    return (game.events, game.to_dict(), [game.observation(s) for s in range(game.players)])


@pytest.mark.parametrize("make", MAKERS)
def test_the_c_core_completes_tricks_without_the_python_methods(
    make: Callable[[int], TrickGame[Any, Any]], finishes: list[int]
) -> None:
    total = 0
    for seed in range(6):
        with hb.using("c"):
            fast = make(seed)
            _play_out(fast, random.Random(seed), typed=seed % 2 == 1)
        assert finishes == []  # every trick finished in C
        with hb.using("python"):  # the Python core: the Python methods, the same game
            slow = make(seed)
            _play_out(slow, random.Random(seed), typed=seed % 2 == 1)
        assert len(finishes) == sum(type(e) is TrickEvent for e in slow.events)
        total += len(finishes)
        finishes.clear()
        assert _record(fast) == _record(slow)
        tricks = [e for e in fast.events if type(e) is TrickEvent]
        assert [e.number for e in tricks] == list(range(1, len(tricks) + 1))
        assert all(type(e.trick) is Trick for e in tricks)
    assert total >= 5


def test_a_trick_finished_in_c_is_the_python_trick(finishes: list[int]) -> None:
    for seed in range(20):
        with hb.using("c"):
            fast, slow = _at_last_card(seed), _at_last_card(seed)
            card = fast.legal_action_ids()[0]
            fast.apply_id(card)
            assert finishes == []
        with hb.using("python"):
            slow.apply_id(card)
        assert finishes == [1]
        finishes.clear()
        assert fast.events == slow.events and fast.to_dict() == slow.to_dict()
        a, b = fast._play, slow._play
        assert a is not None and b is not None
        for name in ("leader", "seats", "current", "tricks", "won", "played"):
            assert getattr(a, name) == getattr(b, name), name
        assert fast.to_act == slow.to_act and fast.legal_action_ids() == slow.legal_action_ids()


CORRUPTIONS: dict[str, Callable[[Any], None]] = {
    "order a list": lambda p: setattr(p, "order", list(p.order)),
    "order without the winner": lambda p: setattr(p, "order", (9, 9, 9, 9)),
    "tricks a list": lambda p: setattr(p, "tricks", list(p.tricks)),
    "won a tuple": lambda p: setattr(p, "won", tuple(p.won)),
    "won too short": lambda p: setattr(p, "won", p.won[:2]),
    "won a float": lambda p: p.won.__setitem__(0, 0.0) or p.won.__setitem__(1, 0.0)
    or p.won.__setitem__(2, 0.0) or p.won.__setitem__(3, 0.0),
    "leader a float": lambda p: setattr(p, "leader", float(p.leader)),
    "game id out of range": lambda p: setattr(p, "game_id", 7),
    "trump out of range": lambda p: setattr(p, "trump", 4),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_a_trick_state_c_does_not_take_goes_to_the_python_methods(name: str, finishes: list[int]) -> None:
    with hb.using("c"):
        game = _at_last_card(5)
        assert game._play is not None
        CORRUPTIONS[name](game._play)
        before = len(game.events)
        card = game.legal_action_ids()[0]
        try:
            game.apply_id(card)
        except Exception:  # the Python methods' own error on a corrupted state (nothing of C's)
            pass
        assert finishes == [1]  # C declined before changing anything: the Python path ran once
        assert len(game.events) in (before + 1, before + 2)  # the play, and the trick if it finished


def test_a_hand_number_c_does_not_take_goes_to_the_python_methods(finishes: list[int]) -> None:
    with hb.using("c"):
        game = _at_last_card(2)
        game._hand_no = "one"  # type: ignore[assignment]
        game.apply_id(game.legal_action_ids()[0])
    assert finishes == [1]
    last: Any = game.events[-1]
    assert last.hand == "one"


def test_a_game_class_with_its_own_trick_done_keeps_it(finishes: list[int]) -> None:
    seen: list[int] = []

    class Counting(DeerParkGame):
        def _trick_done(self, play: TrickPlay, trick: Trick) -> None:
            seen.append(len(play.tricks))
            super()._trick_done(play, trick)

    with hb.using("c"):
        game = Counting(4, seed=3)
        _play_out(game, random.Random(3), typed=False)
    assert seen == [1, 2, 3, 4, 5] and len(finishes) == 5


def test_link_trick_checks_what_it_is_given() -> None:
    from hucklebuck import _fast

    ext: Any = _fast.ext
    assert ext is not None
    done = TrickGame.__dict__["_trick_done"]
    with pytest.raises(TypeError):
        ext.link_trick("Trick", TrickEvent, done, 5)
    with pytest.raises(TypeError):
        ext.link_trick(Trick, TrickEvent, done)
    for size in (0, 53):
        with pytest.raises(ValueError, match="1 to 52 tricks"):
            ext.link_trick(Trick, TrickEvent, done, size)
    ext.link_trick(Trick, TrickEvent, done, 5)  # linked as the engine links it


def test_scoring_shares_its_score_events_and_bounds_its_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    saved = dict(scoring._SCORES), dict(scoring._EVENTS)
    scoring._SCORES.clear()  # (other tests' hands may have filled them near their bound)
    scoring._EVENTS.clear()
    try:
        games = []
        for seed in range(3):
            game = DeerParkGame(4, seed=seed)
            _play_out(game, random.Random(seed), typed=False)
            games.append(game)
        again = DeerParkGame(4, seed=0)
        _play_out(again, random.Random(0), typed=False)
        mine = [e for e in games[0].events if type(e).__name__ == "ScoreEvent"]
        theirs = [e for e in again.events if type(e).__name__ == "ScoreEvent"]
        assert len(mine) == 4  # the same hand scored the same way: the same (shared) events
        assert all(a is b for a, b in zip(mine, theirs, strict=True))
        monkeypatch.setattr(scoring, "_MOST", 2)
        for seed in range(40):
            game = DeerParkGame(4, seed=100 + seed)
            _play_out(game, random.Random(seed), typed=False)
            assert len(scoring._SCORES) <= 2 and len(scoring._EVENTS) <= 2
            with hb.using("python"):
                twin = DeerParkGame(4, seed=100 + seed)
                _play_out(twin, random.Random(seed), typed=False)
            assert game.events == twin.events and game.results == twin.results
    finally:
        scoring._SCORES.clear()
        scoring._SCORES.update(saved[0])
        scoring._EVENTS.clear()
        scoring._EVENTS.update(saved[1])


def _shadowing_class() -> type[DeerParkGame]:
    class Shadowing(DeerParkGame):
        pass

    return Shadowing


def test_the_compiled_calls_read_what_python_reads_when_a_class_shadows_the_dict() -> None:
    from hucklebuck import _fast

    ext: Any = _fast.ext
    cls = _shadowing_class()
    with hb.using("c"):
        game = cls(4, seed=4)
        rng = random.Random(4)
        while game.phase is not Phase.PLAY:
            game.apply_id(rng.choice(game.legal_action_ids()))
        assert ext.legal(game, False) == game.legal_action_ids()  # the plain type, read from its dict
        # now a data descriptor on the class wins over the instance dict (which still says PLAY)
        cls._phase = property(  # type: ignore[assignment]
            lambda self: Phase.HAND_OVER, lambda self, v: self.__dict__.__setitem__("_phase", v)
        )
        try:
            assert game.__dict__["_phase"] is Phase.PLAY
            assert ext.legal(game, False) is None and ext.legal(game, True) is None
            held = list(game._hands)
            seat = game._play.seats[len(game._play.current)]  # type: ignore[union-attr]
            mask = held[seat]
            assert ext.play_id(game, (mask & -mask).bit_length() - 1) is None  # nothing played
            assert game._hands == held and game.__dict__["_phase"] is Phase.PLAY
        finally:
            del cls._phase
        assert ext.legal(game, False) == game.legal_action_ids()  # plain again (its version changed)
