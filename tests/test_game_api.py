"""Integer actions, observation tensors and returns agree with the typed game API."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hucklebuck.actions import Discard, Play
from hucklebuck.cards import Card
from hucklebuck.errors import ActionParseError, IllegalAction
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase
from hucklebuck.games.base import TrickPlay
from hucklebuck.games.engine import TrickGame

Game = TrickGame[Any, Any]

VARIANTS: list[tuple[str, Callable[[int], Game]]] = [
    ("deerpark-4", lambda s: DeerParkGame(4, seed=s)),
    (
        "deerpark-3-club-r2",
        lambda s: DeerParkGame(
            3, seed=s, options={"club_turnup_pickup": True, "round2_excludes_turned_suit": True}
        ),
    ),
    ("deerpark-7-maker", lambda s: DeerParkGame(7, seed=s, options={"first_lead": "maker", "lock_at": 30})),
    ("deerpark-8", lambda s: DeerParkGame(8, seed=s, options={"eight_player_turnup": "dealer_last_card"})),
    ("hucklebuck-4", lambda s: HucklebuckGame(4, seed=s)),
    (
        "hucklebuck-3-reentry",
        lambda s: HucklebuckGame(3, seed=s, options={"auction_reentry": True, "all_pass": "dealer_must_bid"}),
    ),
    (
        "hucklebuck-7-dealer-order",
        lambda s: HucklebuckGame(
            7, seed=s, options={"exchange_order": "dealer_left_dealer_last", "target": 11}
        ),
    ),
    ("buckem-5", lambda s: BuckEmGame(5, seed=s)),
    (
        "buckem-6-short-scare-swap",
        lambda s: BuckEmGame(
            6, seed=s, options={"short_handed": True, "scare_cards": True, "deuce_swap": False}
        ),
    ),
    (
        "buckem-8-simultaneous-swap",
        lambda s: BuckEmGame(
            8, seed=s, options={"simultaneous_declare": True, "deuce_swap": True, "scare_cards": True}
        ),
    ),
]
IDS = [name for name, _ in VARIANTS]


def random_states(make: Callable[[int], Game], games: int, max_hands: int, seed: int) -> Iterator[Game]:
    """Every state of ``games`` random games (at most ``max_hands`` hands each), one at a time."""
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
def test_ids_and_typed_actions_agree(name: str, make: Callable[[int], Game]) -> None:
    states = 0
    for game in random_states(make, 12, 3, 1):
        legal = game.legal_actions()
        ids = game.legal_action_ids()
        assert ids == sorted(ids)
        assert ids == sorted(game.action_id(a) for a in legal)
        assert all(0 <= i < game.num_distinct_actions() for i in ids)
        for a in legal:
            assert game.action_from_id(game.action_id(a)) == a
            assert game.action_id(str(a)) == game.action_id(a)
        for i in ids:
            assert game.action_id(game.action_from_id(i)) == i
        states += 1
    assert states > 300


@pytest.mark.parametrize(("name", "make"), VARIANTS, ids=IDS)
def test_illegal_ids_raise_the_typed_error_and_change_nothing(name: str, make: Callable[[int], Game]) -> None:
    rng = random.Random(5)
    checked = 0
    for game in random_states(make, 4, 2, 2):
        if game.to_act is None:
            with pytest.raises(IllegalAction, match=r"action id 0: the (hand|game) is over"):
                game.apply_id(0)
            continue
        legal = set(game.legal_action_ids())
        before = game.to_json()
        for i in rng.sample(range(game.num_distinct_actions()), 6):
            if i in legal:
                continue
            try:
                action = game.action_from_id(i)
            except IllegalAction as exc:  # an id naming a card position the hand lacks
                with pytest.raises(IllegalAction) as got:
                    game.apply_id(i)
                assert str(got.value) == str(exc)
                continue
            with pytest.raises(IllegalAction) as typed:
                game.apply(action)
            with pytest.raises(IllegalAction) as by_id:
                game.apply_id(i)
            assert str(by_id.value) == str(typed.value)
            checked += 1
        assert game.to_json() == before
    assert checked > 100
    game = make(0)
    for bad in (-1, game.num_distinct_actions(), True, "3", 2.0):
        with pytest.raises(ActionParseError):
            game.apply_id(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "make"), VARIANTS, ids=IDS)
def test_tensor_shape_and_restore(name: str, make: Callable[[int], Game]) -> None:
    phases: set[Phase] = set()
    rng = random.Random(3)
    for k, game in enumerate(random_states(make, 6, 3, 3)):
        (size,) = game.observation_tensor_shape()
        for seat in range(game.players):
            assert len(game.observation_tensor(seat)) == size
        if k % 10 == 0:
            assert all(type(x) is float for x in game.observation_tensor(0))
        phases.add(game.phase)
        if k % 11 == 0:
            seat = rng.randrange(game.players)
            restored = type(game).from_json(game.to_json())
            assert restored.observation_tensor(seat) == game.observation_tensor(seat)
    assert Phase.PLAY in phases and Phase.HAND_OVER in phases


def _hidden_positions(game: Game, seat: int) -> list[tuple[str, int, int]]:
    """Deal positions (part, index, within) whose card ``seat`` never saw and which
    never moved in this hand, so swapping them keeps every action replayable."""
    deal = game._deal
    assert deal is not None
    out: list[tuple[str, int, int]] = []
    scare = set(getattr(deal, "scare", None) or ())
    for s, hand in enumerate(deal.hands):
        if s == seat:
            continue
        for j, c in enumerate(hand):
            if game._hands[s] & c.mask and c not in scare:
                out.append(("hands", s, j))
    if isinstance(game, DeerParkGame):
        out += [("kitty", 0, j) for j in range(1, len(deal.kitty))]
    elif not game._restocks:  # stock cards nobody received (Hucklebuck, Buck 'Em)
        stock = deal.stock
        left = len(game._stock)
        out += [("stock", 0, j) for j in range(len(stock) - left, len(stock))]
    return out


def _rest_key(deal: Any) -> str:
    return "kitty" if hasattr(deal, "kitty") else "stock"


def _with_cards(deal: Any, changes: dict[tuple[str, int, int], Card]) -> Any:
    hands = [list(h) for h in deal.hands]
    key = _rest_key(deal)
    rest = list(getattr(deal, key))
    for (part, s, j), c in changes.items():
        if part == "hands":
            hands[s][j] = c
        else:
            rest[j] = c
    return dataclasses.replace(deal, hands=tuple(tuple(h) for h in hands), **{key: tuple(rest)})


@pytest.mark.parametrize(("name", "make"), VARIANTS, ids=IDS)
def test_hidden_cards_never_change_a_tensor(name: str, make: Callable[[int], Game]) -> None:
    rng = random.Random(11)
    compared = 0
    for k, game in enumerate(random_states(make, 8, 1, 4)):
        if k % 3 or game._hand_no != 1:
            continue
        seat = rng.randrange(game.players)
        spots = _hidden_positions(game, seat)
        if len(spots) < 2:
            continue
        deal = game._deal
        cards = [_card_at(deal, p) for p in spots]
        shuffled = cards[:]
        rng.shuffle(shuffled)
        if shuffled == cards:
            continue
        other_deal = _with_cards(deal, dict(zip(spots, shuffled, strict=True)))
        try:
            other = type(game).from_dict(_replace_deal(game.to_dict(), other_deal))
        except Exception:  # a shuffled card broke a follow-suit play: not comparable
            continue
        assert other._deal != deal
        if other.observation(seat) != game.observation(seat):
            continue
        assert other.observation_tensor(seat) == game.observation_tensor(seat)
        compared += 1
    assert compared >= 10


def _card_at(deal: Any, pos: tuple[str, int, int]) -> Card:
    part, s, j = pos
    if part == "hands":
        c: Card = deal.hands[s][j]
        return c
    c = getattr(deal, _rest_key(deal))[j]
    return c


def _replace_deal(data: dict[str, Any], deal: Any) -> dict[str, Any]:
    hands = [dict(h) for h in data["hands"]]
    hands[-1]["deal"] = deal.to_dict()
    return {**data, "hands": hands}


def test_returns_and_hand_returns() -> None:
    game = DeerParkGame(4, seed=9)
    assert game.returns() == (0.0,) * 4 and game.hand_returns() == (0.0,) * 4
    rng = random.Random(1)
    while not game.is_over:
        if game.to_act is None:
            before = game.scores
            assert game.hand_returns() == tuple(float(d) for d in game.results[-1].delta)
            game.next_hand()
            assert game.hand_returns() == (0.0,) * 4 and game.scores == before
            continue
        game.apply_id(rng.choice(game.legal_action_ids()))
    assert game.returns() == tuple(1.0 if s in game.winners else 0.0 for s in range(4))
    buck = BuckEmGame(5, seed=2)
    assert buck.returns() == (-1.0,) * 5 and buck.hand_returns() == (-1.0,) * 5
    while buck.to_act is not None:
        buck.apply(rng.choice(buck.legal_actions()))
    assert buck.returns() == tuple(float(b) for b in buck.bankrolls)


def test_relative_discard_ids_name_cards_of_the_hand() -> None:
    game = HucklebuckGame(4, seed=3)
    while game.phase is not Phase.EXCHANGE:
        if game.to_act is None:
            game.next_hand()
            continue
        legal = game.legal_actions()
        stays = [a for a in legal if str(a).endswith("stay 2")]
        game.apply(stays[0] if stays else legal[-1] if game.phase is not Phase.AUCTION else legal[1])
    seat = game.to_act
    assert seat is not None
    hand = list(game.hand(seat))
    for i in game.legal_action_ids():
        action = game.action_from_id(i)
        assert isinstance(action, Discard)
        bits = i - 68
        assert action.cards == tuple(c for j, c in enumerate(hand) if bits >> j & 1)
    assert isinstance(game.action_from_id(hand[0].index), Play)


@pytest.mark.parametrize(("name", "make"), VARIANTS, ids=IDS)
def test_copies_are_independent(name: str, make: Callable[[int], Game]) -> None:
    rng = random.Random(8)
    for k, game in enumerate(random_states(make, 3, 2, 5)):
        mutable = {n for n, v in vars(game).items() if isinstance(v, (list, dict, set, TrickPlay))}
        declared = set(game.mutable_state) | set(game.shared_until_written)
        assert mutable <= declared, mutable - declared
        if k % 5:
            continue
        before = _signature(game)
        other, twin = game.copy(), game.copy()
        for _ in range(12):  # play the copy on, through hand ends
            if other.is_over:
                break
            if other.to_act is None:
                other.next_hand()
                continue
            other.apply_id(rng.choice(other.legal_action_ids()))
        assert _signature(game) == before
        for _ in range(6):  # and the original on: its other copy stays as it was
            if game.to_act is None:
                break
            game.apply(rng.choice(game.legal_actions()))
        assert _signature(twin) == before


def _signature(game: Game) -> tuple[object, ...]:
    """The saved form plus the live trick state and every seat's tensor."""
    tensors = tuple(tuple(game.observation_tensor(s)) for s in range(game.players))
    return (game.to_json(), game.tricks, game.current_trick, game.tricks_won, game.to_act, tensors)


def test_games_pickle_mid_hand() -> None:
    for name, make in VARIANTS[::3]:
        for k, game in enumerate(random_states(make, 1, 1, 6)):
            if k == 9:
                back = pickle.loads(pickle.dumps(game.copy()))
                assert back.to_json() == game.to_json(), name
                assert back.observation_tensor(0) == game.observation_tensor(0)
                break
