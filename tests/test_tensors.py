"""The observation tensors equal a plain reference builder written from the documented
layout, on random states of every game, variant, phase and seat."""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hucklebuck.actions import BuckStay, Discard, Draw, Fold, Pass, Play
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase
from hucklebuck.games.engine import TrickGame
from hucklebuck.games.tensors import layout
from hucklebuck.packs import GameKind

Game = TrickGame[Any, Any]

VARIANTS: list[tuple[str, Callable[[int], Game]]] = [
    ("deerpark-4", lambda s: DeerParkGame(4, seed=s)),
    (
        "deerpark-3-club-r2-perm",
        lambda s: DeerParkGame(
            3,
            seed=s,
            options={"club_turnup_pickup": True, "round2_excludes_turned_suit": True, "lock_permanent": True},
        ),
    ),
    ("deerpark-5-lock", lambda s: DeerParkGame(5, seed=s, options={"lock_at": 10})),
    ("deerpark-8", lambda s: DeerParkGame(8, seed=s, options={"eight_player_turnup": "dealer_last_card"})),
    ("hucklebuck-4", lambda s: HucklebuckGame(4, seed=s)),
    (
        "hucklebuck-3-reentry",
        lambda s: HucklebuckGame(3, seed=s, options={"auction_reentry": True, "all_pass": "dealer_must_bid"}),
    ),
    ("hucklebuck-7", lambda s: HucklebuckGame(7, seed=s, options={"target": 11})),
    ("buckem-5", lambda s: BuckEmGame(5, seed=s)),
    (
        "buckem-6-short-scare",
        lambda s: BuckEmGame(
            6, seed=s, options={"short_handed": True, "scare_cards": True, "deuce_swap": False}
        ),
    ),
    (
        "buckem-8-simultaneous",
        lambda s: BuckEmGame(
            8, seed=s, options={"simultaneous_declare": True, "deuce_swap": True, "scare_cards": True}
        ),
    ),
]
IDS = [name for name, _ in VARIANTS]

_PHASE_INDEX = {p: i for i, p in enumerate(Phase)}

# The documented blocks, in order (see the module docstring of hucklebuck.games.tensors).
_COMMON = [
    ("hand", 52, False),
    ("played", 52, True),
    ("trick", 52, True),
    ("leader", 1, True),
    ("to_act", 1, True),
    ("dealer", 1, True),
    ("trump", 4, False),
    ("phase", len(Phase), False),
    ("tricks_won", 1, True),
    ("standings", 1, True),
]
_EXTRA = {
    GameKind.HUCKLEBUCK: [
        ("bidder", 1, True),
        ("bid", 4, False),
        ("passed", 1, True),
        ("out", 1, True),
        ("declared", 7, True),
        ("own_discard", 52, False),
        ("stock_size", 1, False),
    ],
    GameKind.BUCKEM: [
        ("upcard", 52, False),
        ("scare", 52, True),
        ("decisions", 3, True),
        ("drew", 1, True),
        ("draw_count", 1, True),
        ("own_discard", 52, False),
        ("pot", 1, False),
        ("pot_units", 1, False),
        ("stock_size", 1, False),
    ],
    GameKind.DEERPARK: [
        ("turned", 52, False),
        ("maker", 1, True),
        ("requirement", 2, False),
        ("locked", 1, True),
        ("passed_order", 1, True),
        ("passed_call", 1, True),
        ("own_discard", 52, False),
    ],
}


def _offsets(kind: GameKind, n: int) -> tuple[dict[str, int], int]:
    at: dict[str, int] = {}
    off = 0
    for name, size, per_seat in _COMMON + _EXTRA[kind]:
        at[name] = off
        off += size * n if per_seat else size
    return at, off


def reference_tensor(game: Game, seat: int) -> list[float]:
    """The tensor of ``seat``, built the plain way from the documented layout."""
    n = game.players
    kind = game.kind
    at, size = _offsets(kind, n)
    t = [0.0] * size

    def rel(s: int) -> int:
        return (s - seat) % n

    for c in range(52):
        if game._hands[seat] >> c & 1:
            t[at["hand"] + c] = 1.0
    play = game._play
    phase = game._phase
    to_act = game._turn
    if play is not None:
        for s in range(n):
            for c in play.played[s]:
                t[at["played"] + 52 * rel(s) + c] = 1.0
        for i, card in enumerate(play.current):
            t[at["trick"] + 52 * rel(play.seats[i]) + card._index] = 1.0
        if phase is Phase.PLAY:
            t[at["leader"] + rel(play.leader)] = 1.0
            to_act = play.seats[len(play.current)]
        for s in range(n):
            t[at["tricks_won"] + rel(s)] = float(play.won[s])
    if to_act is not None and phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        t[at["to_act"] + rel(to_act)] = 1.0
    t[at["dealer"] + rel(game._dealer)] = 1.0  # type: ignore[attr-defined]
    if game._trump is not None:  # type: ignore[attr-defined]
        t[at["trump"] + int(game._trump)] = 1.0  # type: ignore[attr-defined]
    t[at["phase"] + _PHASE_INDEX[phase]] = 1.0
    standings = game._bankrolls if kind is GameKind.BUCKEM else game._scores  # type: ignore[attr-defined]
    for s in range(n):
        t[at["standings"] + rel(s)] = float(standings[s])
    pre_play: list[Any] = []
    for a in game._actions:
        if isinstance(a, Play):
            break
        pre_play.append(a)
    g: Any = game
    if kind is GameKind.DEERPARK:
        if g._turned is not None:
            t[at["turned"] + g._turned._index] = 1.0
        if g._maker is not None:
            t[at["maker"] + rel(g._maker)] = 1.0
        if g._requirement is not None:
            t[at["requirement"] + (0 if g._requirement == 2 else 1)] = 1.0
        opts = g._options
        for s in range(n):
            if g._scores[s] >= opts.lock_at or (opts.lock_permanent and g._ever_locked[s]):
                t[at["locked"] + rel(s)] = 1.0
        passes = 0
        for a in pre_play:
            if isinstance(a, Pass):
                t[at["passed_order" if passes < n else "passed_call"] + rel(a.seat)] = 1.0
                passes += 1
            elif isinstance(a, Discard) and a.seat == seat:
                for c in a.cards:
                    t[at["own_discard"] + c._index] = 1.0
    elif kind is GameKind.HUCKLEBUCK:
        if g._bidder is not None:
            t[at["bidder"] + rel(g._bidder)] = 1.0
        if g._high is not None:
            t[at["bid"] + g._high - 2] = 1.0
        for s in range(n):
            if g._passed[s]:
                t[at["passed"] + rel(s)] = 1.0
            if g._out[s]:
                t[at["out"] + rel(s)] = 1.0
        for s, k in g._declared.items():
            t[at["declared"] + 7 * rel(s) + (0 if k is None else 1 + k)] = 1.0
        for a in pre_play:
            if isinstance(a, Discard) and a.seat == seat:
                for c in a.cards:
                    t[at["own_discard"] + c._index] = 1.0
        t[at["stock_size"]] = float(len(g._stock))
    else:
        hidden = g._options.simultaneous_declare and phase is Phase.STAY_FOLD
        upcard = g._upcard
        if hidden and g._swapped is not None and g._swapped != seat and g._deal is not None:
            upcard = g._deal.upcard
        if upcard is not None:
            t[at["upcard"] + upcard._index] = 1.0
        for s in range(n):
            if g._scare[s] is not None:
                t[at["scare"] + 52 * rel(s) + g._scare[s]._index] = 1.0
        for a in pre_play:
            if isinstance(a, (BuckStay, Fold)):
                if hidden and a.seat != seat:
                    continue
                col = 2 if isinstance(a, Fold) else (1 if a.swap else 0)
                t[at["decisions"] + 3 * rel(a.seat) + col] = 1.0
            elif isinstance(a, Draw):
                t[at["drew"] + rel(a.seat)] = 1.0
                t[at["draw_count"] + rel(a.seat)] = float(len(a.cards))
                if a.seat == seat:
                    for c in a.cards:
                        t[at["own_discard"] + c._index] = 1.0
        t[at["pot"]] = float(g._pot)
        t[at["pot_units"]] = float(g._units)
        t[at["stock_size"]] = float(len(g._stock))
    return t


def _states(make: Callable[[int], Game], games: int, max_hands: int, seed: int) -> Iterator[Game]:
    rng = random.Random(seed)
    for g in range(games):
        game = make(seed * 1000 + g)
        hands = 1
        while not game.is_over:
            yield game
            if game.to_act is None:
                if hands >= max_hands:
                    break
                game.next_hand()
                hands += 1
                continue
            game.apply_id(rng.choice(game.legal_action_ids()))


@pytest.mark.parametrize(("name", "make"), VARIANTS, ids=IDS)
def test_tensor_equals_the_reference_builder(name: str, make: Callable[[int], Game]) -> None:
    phases: set[Phase] = set()
    states = 0
    for game in _states(make, 5, 4, 7):
        phases.add(game.phase)
        (size,) = game.observation_tensor_shape()
        assert size == _offsets(game.kind, game.players)[1]
        assert layout(game.kind, game.players).size == size
        for seat in range(game.players):
            got = game.observation_tensor(seat)
            assert type(got) is array and got.typecode == "f"  # (whose items are always Python floats)
            assert got.tolist() == reference_tensor(game, seat), (name, game.phase, seat)
        states += 1
        if states % 17 == 0:  # a copy gives the same tensors, and so does its source after the copy moves on
            other = game.copy()
            assert [other.observation_tensor(s).tolist() for s in range(game.players)] == [
                reference_tensor(game, s) for s in range(game.players)
            ]
    assert states > 100
    assert Phase.PLAY in phases and Phase.HAND_OVER in phases


def test_layout_blocks_follow_the_documented_order() -> None:
    for kind, n in [(GameKind.DEERPARK, 4), (GameKind.HUCKLEBUCK, 6), (GameKind.BUCKEM, 8)]:
        at, size = _offsets(kind, n)
        lay = layout(kind, n)
        assert {name: off for name, (off, _) in lay.blocks.items()} == at
        assert lay.size == size


@pytest.mark.parametrize(("name", "make"), VARIANTS, ids=IDS)
def test_a_new_games_tensor_deals_its_first_hand(name: str, make: Callable[[int], Game]) -> None:
    fresh = make(5)  # a seeded game deals on first use: the tensor must see the dealt hand
    dealt = make(5)
    assert dealt.hand_number == 1  # reading the game deals its first hand
    for seat in range(dealt.players):
        assert fresh.observation_tensor(seat).tolist() == reference_tensor(dealt, seat)
    assert sum(fresh.observation_tensor(0)[:52]) > 0
