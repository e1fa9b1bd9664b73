"""The compiled play (``hucklebuck._hbcall.play`` / ``play_id``, behind ``apply`` and
``apply_id`` in the play phase) and the compiled masks of a deal do exactly what the
Python path does, refuse anything but the plain case having changed nothing, and keep
no reference they should not (issue 40)."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import hucklebuck as hb
from hucklebuck.actions import Play
from hucklebuck.cards import Card
from hucklebuck.errors import HucklebuckError
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame, _agent_api, engine
from hucklebuck.games.base import Phase
from hucklebuck.games.engine import TrickGame
from hucklebuck.games.ids import PLAYS

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif("c" not in hb.available(), reason="the compiled helpers are built with the C core"),
]

MAKERS: list[Callable[[int], TrickGame[Any, Any]]] = [
    lambda s: DeerParkGame(4, seed=s),
    lambda s: DeerParkGame(6, seed=s),
    lambda s: HucklebuckGame(5, seed=s),
    lambda s: BuckEmGame(6, seed=s),
]
DONE = (Phase.HAND_OVER, Phase.GAME_OVER)


def _ext() -> Any:
    from hucklebuck import _fast

    assert _fast.ext is not None
    return _fast.ext


@contextmanager
def python_path() -> Iterator[None]:
    """The engine without its compiled play and masks (the Python twin)."""
    saved = engine._c_play, engine._c_play_id, engine._hand_masks, _agent_api._c_play_id
    engine._c_play = engine._c_play_id = engine._hand_masks = _agent_api._c_play_id = None
    try:
        yield
    finally:
        engine._c_play, engine._c_play_id, engine._hand_masks, _agent_api._c_play_id = saved


def snapshot(game: TrickGame[Any, Any]) -> tuple[Any, ...]:
    """Everything a user can read of a game, and the engine's own lists."""
    to_act = game.to_act
    return (
        game.to_dict(),
        game.events,
        game.phase,
        to_act,
        game.legal_action_ids(),
        [game.observation(s) for s in range(game.players)],
        list(game._hands),
        list(game._actions),
    )


def attempt(game: TrickGame[Any, Any], how: str, move: Any) -> str | None:
    """Apply ``move``; the refusal's class and message, or None when applied."""
    try:
        if how == "id":
            game.apply_id(move)
        else:
            game.apply(move)
    except HucklebuckError as e:
        return f"{type(e).__name__}: {e}"
    return None


def moves(game: TrickGame[Any, Any], rng: random.Random) -> list[tuple[str, Any]]:
    """A legal move both ways and a few that are not (in the play phase: another card, another
    seat's card, a card of a seat not to play, a play out of turn)."""
    ids = game.legal_action_ids()
    out: list[tuple[str, Any]] = [("id", rng.choice(ids))]
    if game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        out += [("id", rng.randrange(52)), ("typed", PLAYS[seat][rng.randrange(52)])]
        out += [
            ("typed", PLAYS[(seat + 1) % game.players][rng.randrange(52)]),
            ("typed", Play(seat, Card.from_index(rng.randrange(52)))),
        ]
        out += [("id", 52), ("id", -1), ("id", True), ("typed", "not an action")]
    return out


@pytest.mark.parametrize("make", MAKERS)
def test_the_compiled_play_is_the_python_play(make: Callable[[int], TrickGame[Any, Any]]) -> None:
    plays = 0
    for seed in range(12):
        fast, rng = make(seed), random.Random(seed)
        with python_path():
            slow = make(seed)
            assert snapshot(slow) == snapshot(fast)
        hands = 0
        while hands < 2:
            if fast.phase in DONE:
                if fast.phase is Phase.GAME_OVER:
                    break
                hands += 1
                fast.next_hand()
                with python_path():
                    slow.next_hand()
                    assert snapshot(slow) == snapshot(fast)
                continue
            if rng.random() < 0.1:  # a copy shares the trick state until one side plays
                fast = fast.copy()
                with python_path():
                    slow = slow.copy()
            for how, move in moves(fast, rng):
                got = attempt(fast, how, move)
                with python_path():
                    want = attempt(slow, how, move)
                    assert got == want, (how, move)
                    assert snapshot(slow) == snapshot(fast)
                if got is None:
                    plays += fast.phase is Phase.PLAY
                    break
    assert plays > 100


def test_a_copy_keeps_its_own_trick_when_the_compiled_play_plays() -> None:
    game = DeerParkGame(4, seed=3)
    rng = random.Random(3)
    while game.phase is not Phase.PLAY:
        game.apply_id(rng.choice(game.legal_action_ids()))
    before = game.to_dict()
    twin = game.copy()
    for _ in range(7):  # past a trick's end
        twin.apply_id(twin.legal_action_ids()[0])
    assert game.to_dict() == before and twin.to_dict() != before
    assert len(twin.tricks) == 1 and game.tricks == () and game.current_trick == ()


def _at_play(seed: int = 5) -> DeerParkGame:
    game = DeerParkGame(4, seed=seed)
    rng = random.Random(seed)
    while game.phase is not Phase.PLAY:
        game.apply_id(rng.choice(game.legal_action_ids()))
    game.apply_id(game.legal_action_ids()[0])  # a trick under way: the suit led counts
    return game


def _first_legal(game: DeerParkGame) -> tuple[int, int, Play]:
    """The seat to play, its lowest legal id, and that id's shared Play."""
    seat = game.to_act
    assert seat is not None
    legal = game.legal_action_ids()[0]
    return seat, legal, PLAYS[seat][legal]


def _raw(game: Any) -> tuple[Any, ...]:
    play = game._play
    return (
        game._phase,
        game._play_shared,
        repr(game._hands),
        list(game._actions),
        list(game._events),
        list(play.current),
        repr(play.played),
        play.seats,
        play.tricks,
    )


CORRUPT: list[tuple[str, Callable[[Any], None]]] = [
    ("hands a tuple", lambda g: setattr(g, "_hands", tuple(g._hands))),
    ("a hand a bool", lambda g: g._hands.__setitem__(g.to_act, True)),
    ("a hand negative", lambda g: g._hands.__setitem__(g.to_act, -1)),
    ("a hand past 52 cards", lambda g: g._hands.__setitem__(g.to_act, g._hands[g.to_act] | 1 << 60)),
    ("a hand huge", lambda g: g._hands.__setitem__(g.to_act, 1 << 200)),
    ("hands short", lambda g: setattr(g, "_hands", g._hands[:1])),
    ("actions a tuple", lambda g: setattr(g, "_actions", tuple(g._actions))),
    ("events gone", lambda g: delattr(g, "_events")),
    ("trick shared", lambda g: setattr(g, "_play_shared", 1)),
    ("trick state another object", lambda g: setattr(g, "_play", object())),
    ("current a tuple", lambda g: setattr(g._play, "current", tuple(g._play.current))),
    ("current holds a str", lambda g: g._play.current.__setitem__(0, "AS")),
    ("seats a list", lambda g: setattr(g._play, "seats", list(g._play.seats))),
    ("seats name a seat past the table", lambda g: setattr(g._play, "seats", (9, 9, 9, 9))),
    ("seats empty", lambda g: setattr(g._play, "seats", ())),
    ("suit table short", lambda g: setattr(g._play, "suit_of", b"\x00")),
    ("suit table past the suits", lambda g: setattr(g._play, "suit_of", bytes([7]) * 52)),
    ("suit masks a list", lambda g: setattr(g._play, "suit_masks", list(g._play.suit_masks))),
    ("played a tuple", lambda g: setattr(g._play, "played", tuple(g._play.played))),
    ("played of a seat a list", lambda g: g._play.played.__setitem__(g.to_act, [])),
    ("played short", lambda g: setattr(g._play, "played", [()])),
    ("phase another", lambda g: setattr(g, "_phase", Phase.ORDER)),
]


@pytest.mark.parametrize(("what", "corrupt"), CORRUPT, ids=[c[0] for c in CORRUPT])
def test_the_compiled_play_refuses_a_state_it_does_not_take(
    what: str, corrupt: Callable[[Any], None]
) -> None:
    ext = _ext()
    game = _at_play()
    _, legal, action = _first_legal(game)
    corrupt(game)
    try:
        before = _raw(game)
    except AttributeError:
        before = None
    assert ext.play_id(game, legal) is None
    assert ext.play(game, action) is None
    if before is not None:
        assert _raw(game) == before


def test_the_compiled_play_refuses_what_is_not_a_plain_legal_play() -> None:
    ext = _ext()
    game = _at_play()
    seat = game.to_act
    assert seat is not None
    legal = set(game.legal_action_ids())
    before = _raw(game)
    for i in [*(k for k in range(52) if k not in legal), 52, -1, 1 << 70, True, 3.0, "3", None]:
        assert ext.play_id(game, i) is None
    for k in range(52):
        if k not in legal:
            assert ext.play(game, PLAYS[seat][k]) is None
        assert ext.play(game, PLAYS[(seat + 1) % 4][k]) is None
    for bad in ["AS", 5, None, Play(seat, Card.from_index(0)).__dict__, game]:
        assert ext.play(game, bad) is None
    for other in [object(), None, 3, "game", DeerParkGame(4, seed=1)]:  # the last: not in its play phase
        assert ext.play_id(other, min(legal)) is None
        assert ext.play(other, PLAYS[seat][min(legal)]) is None
    assert _raw(game) == before
    with pytest.raises(TypeError):
        ext.play_id(game)
    with pytest.raises(TypeError):
        ext.play(game, 1, 2)


def test_the_compiled_play_keeps_no_reference_it_should_not() -> None:
    ext = _ext()
    game = _at_play()
    seat, legal, action = _first_legal(game)
    refs = sys.getrefcount(action)
    allowed = set(game.legal_action_ids())
    for i in range(52):
        if i not in allowed:  # refused: no reference taken or dropped
            assert ext.play_id(game, i) is None and ext.play(game, PLAYS[seat][i]) is None
    assert sys.getrefcount(action) == refs
    assert ext.play_id(game, legal) is True
    assert sys.getrefcount(action) == refs + 2  # the hand's actions and events hold it
    del game
    assert sys.getrefcount(action) == refs


def test_a_trick_completed_by_the_compiled_play_raises_what_the_game_raises() -> None:
    ext = _ext()
    game = _at_play()
    for _ in range(2):
        game.apply_id(game.legal_action_ids()[0])
    last = game.legal_action_ids()[0]

    class Broken(Exception):
        pass

    def boom(play: Any, trick: Any) -> None:
        raise Broken("the game's own completion failed")

    game._trick_done = boom  # type: ignore[method-assign]
    with pytest.raises(Broken):
        ext.play_id(game, last)


def test_the_compiled_masks_are_the_sum_of_the_cards() -> None:
    ext = _ext()
    rng = random.Random(7)
    for _ in range(200):
        cards = rng.sample(range(52), rng.randrange(0, 40))
        cut = sorted(rng.sample(range(len(cards) + 1), 2)) if len(cards) > 1 else [0, 0]
        hands = tuple(
            tuple(Card.from_index(c) for c in part)
            for part in (cards[: cut[0]], cards[cut[0] : cut[1]], cards[cut[1] :])
        )
        assert ext.hand_masks(hands) == [sum(1 << c.index for c in h) for h in hands]
    assert ext.hand_masks(()) == []
    C0, C1 = Card.from_index(0), Card.from_index(1)
    for bad in [[(C0,)], ((C0, C0),), ((0,),), ([C0],), "AS", None, ((C1,), "x")]:
        assert ext.hand_masks(bad) is None


@pytest.mark.parametrize("make", MAKERS)
def test_a_deal_has_the_same_hands_with_and_without_the_compiled_masks(
    make: Callable[[int], TrickGame[Any, Any]],
) -> None:
    for seed in range(20):
        fast = make(seed)
        fast_hands = list(fast._hands)
        with python_path():
            slow = make(seed)
            assert list(slow._hands) == fast_hands
        assert fast._deal is not None
        dealt = fast._deal.hands
        assert _ext().hand_masks(dealt) == [sum(c.mask for c in h) for h in dealt]
