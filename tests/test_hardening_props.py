"""Property tests (issue 16, "keep it so"): every public function, given a random
argument of the wrong type or out of range, raises a library error naming that
argument (the same on both cores) and leaves any game untouched.

Each case lists a function's valid arguments and, per argument, what is valid;
hypothesis draws junk for one argument at a time.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

import hucklebuck as hb
from hucklebuck import CardSet, GameKind, HucklebuckError, Suit, parse_card, parse_cards
from hucklebuck import evaluate as ev
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame

HAND = parse_cards("AS KS QS 2H 3D")

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.binary(max_size=4),
    st.lists(st.integers(-3, 60), max_size=4),
    st.tuples(st.text(max_size=2)),
    st.sampled_from([object(), Suit.SPADES, parse_card("AS"), CardSet(HAND), 2.0, [HAND], {"a": 1}]),
)


def _int_in(lo: int, hi: int) -> Callable[[object], bool]:
    return lambda x: isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi


def _is_suit(x: object) -> bool:
    return isinstance(x, Suit) or (isinstance(x, str) and x in ("C", "D", "H", "S"))


def _is_game(x: object) -> bool:
    return isinstance(x, GameKind) or x in ("hucklebuck", "buckem", "deerpark")


def _never(x: object) -> bool:
    return False


def _seats5(x: object) -> bool:
    """Distinct seats of a five-seat table, as a list or tuple."""
    ok = isinstance(x, (list, tuple)) and all(_int_in(0, 4)(s) for s in x)
    return ok and len(set(x)) == len(x)  # type: ignore[arg-type]


def _cards(x: object) -> bool:
    """A CardSet or a list/tuple of Cards (which may then be valid for the argument)."""
    return isinstance(x, CardSet) or (isinstance(x, (list, tuple)) and all(isinstance(c, hb.Card) for c in x))


@dataclass
class Case:
    fn: Callable[..., object]
    kwargs: dict[str, Any]
    valid: dict[str, Callable[[object], bool]]
    """Per argument: is this value valid (so the call may succeed)?"""

    def __str__(self) -> str:
        return getattr(self.fn, "__qualname__", repr(self.fn))


def _positional(fn: Callable[..., object], names: list[str]) -> Callable[..., object]:
    """Call ``fn`` with ``names`` positionally and the rest by keyword."""

    def call(**kw: Any) -> object:
        args = [kw.pop(n) for n in names]
        return fn(*args, **kw)

    call.__qualname__ = getattr(fn, "__qualname__", "call")
    return call


SEAT4 = _int_in(0, 3)
SAMPLES = _int_in(1, 2**32 - 1)
SEED = _int_in(0, 2**64 - 1)
WORKERS = _int_in(1, 1024)

CASES: list[Case] = [
    Case(
        _positional(hb.trick_winner, ["game", "trump", "cards"]),
        {"game": "deerpark", "trump": Suit.HEARTS, "cards": parse_cards("AH JD KH")},
        {"game": _is_game, "trump": _is_suit, "cards": _cards},
    ),
    Case(
        _positional(hb.legal_plays, ["game", "trump", "hand", "trick"]),
        {"game": "hucklebuck", "trump": "S", "hand": HAND, "trick": parse_cards("KH")},
        {"game": _is_game, "trump": _is_suit, "hand": _cards, "trick": _cards},
    ),
    Case(
        _positional(hb.effective_suit, ["game", "trump", "card"]),
        {"game": "deerpark", "trump": Suit.CLUBS, "card": parse_card("JS")},
        {"game": _is_game, "trump": _is_suit, "card": lambda x: isinstance(x, hb.Card)},
    ),
    Case(
        _positional(hb.trick_winners, ["game", "tricks"]),
        {"game": "hucklebuck", "tricks": [(Suit.SPADES, parse_cards("AS KS"))]},
        {"game": _is_game, "tricks": lambda x: x in ([], (), b"", "")},
    ),
    Case(
        _positional(hb.legal_plays_batch, ["game", "positions"]),
        {"game": "hucklebuck", "positions": [(Suit.SPADES, HAND, None)]},
        {"game": _is_game, "positions": lambda x: x in ([], (), b"", "")},
    ),
    Case(
        _positional(ev.solve, ["game", "trump", "hands"]),
        {
            "game": "hucklebuck",
            "trump": Suit.SPADES,
            "hands": [parse_cards("AS"), parse_cards("AH")],
            "leader": 1,
            "seat": 0,
        },
        {
            "game": _is_game,
            "trump": _is_suit,
            "hands": _never,
            "leader": _int_in(0, 1),
            "seat": _int_in(0, 1),
        },
    ),
    Case(
        _positional(ev.evaluate_hand, ["game", "trump", "hand"]),
        {"game": "hucklebuck", "trump": Suit.SPADES, "hand": HAND, "players": 4, "samples": 20},
        {
            "game": _is_game,
            "trump": _is_suit,
            "hand": _cards,
            "players": _int_in(3, 7),
            "seat": SEAT4,
            "leader": SEAT4,
            "seen": _cards,
            "in_play": lambda x: x is None,
            "samples": SAMPLES,
            "seed": SEED,
            "method": lambda x: x in ("playout", "solver"),
            "workers": WORKERS,
            "short_handed": lambda x: isinstance(x, bool),
        },
    ),
    Case(
        _positional(ev.hucklebuck_advice, ["hand"]),
        {"hand": HAND, "players": 4, "samples": 10},
        {
            "hand": _cards,
            "players": _int_in(3, 7),
            "trump": lambda x: x is None or _is_suit(x),
            "samples": SAMPLES,
            "seed": SEED,
            "workers": WORKERS,
        },
    ),
    Case(
        _positional(ev.rake_qualifies, ["hand", "trump"]),
        {"hand": HAND, "trump": Suit.SPADES},
        {"hand": _cards, "trump": _is_suit},
    ),
    Case(
        _positional(ev.buckem_advice, ["hand", "upcard"]),
        {"hand": HAND, "upcard": parse_card("9H"), "players": 5, "samples": 10},
        {
            "hand": _cards,
            "upcard": lambda x: isinstance(x, hb.Card) and x not in HAND,
            "players": _int_in(5, 8),
            "seat": _int_in(0, 4),
            "dealer": _int_in(0, 4),
            "stayers": lambda x: x is None or _seats5(x),
            "samples": SAMPLES,
            "seed": SEED,
            "workers": WORKERS,
            "short_handed": lambda x: isinstance(x, bool),
        },
    ),
    Case(
        _positional(ev.deerpark_advice, ["hand"]),
        {"hand": parse_cards("AS KS QS JS TS"), "players": 4, "samples": 10},
        {
            "hand": _cards,
            "players": _int_in(3, 7),
            "seat": SEAT4,
            "dealer": SEAT4,
            "seen": _cards,
            "samples": SAMPLES,
            "seed": SEED,
            "workers": WORKERS,
        },
    ),
    Case(
        _positional(ev.simulate_hucklebuck, ["players", "hands"]),
        {"players": 4, "hands": 3},
        {"players": _int_in(3, 7), "hands": _int_in(0, 2**32 - 1), "seed": SEED, "workers": WORKERS},
    ),
    Case(
        _positional(ev.simulate_deerpark, ["players", "hands"]),
        {"players": 4, "hands": 3},
        {"players": _int_in(3, 7), "hands": _int_in(0, 2**32 - 1), "seed": SEED, "workers": WORKERS},
    ),
    Case(
        _positional(ev.simulate_buckem, ["players", "hands"]),
        {"players": 5, "hands": 3},
        {
            "players": _int_in(5, 8),
            "hands": _int_in(0, 2**32 - 1),
            "seed": SEED,
            "ante": _int_in(1, 2**31 - 1),
            "pot_limit": lambda x: x is None or _int_in(1, 2**58)(x),
            "workers": WORKERS,
        },
    ),
    Case(
        _positional(ev.TrickDistribution((1, 1, 1, 1, 1, 1), 6).at_least, ["k"]),
        {"k": 1},
        {"k": lambda x: isinstance(x, int) and not isinstance(x, bool) and abs(x) <= 2**63},
    ),
]

ARGS = [(case, name) for case in CASES for name in case.valid]


def _slow_valid(name: str, value: object) -> bool:
    # a valid but huge count would run for a long time: keep those out
    return name in ("samples", "hands") and isinstance(value, int) and value > 1000


@pytest.mark.single_core
@pytest.mark.parametrize(("case", "name"), ARGS, ids=[f"{c}-{n}" for c, n in ARGS])
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk=JUNK)
def test_a_bad_argument_is_a_library_error_naming_it_on_both_cores(
    case: Case, name: str, junk: object
) -> None:
    assume(not case.valid[name](junk))
    assume(not _slow_valid(name, junk))
    kwargs = dict(case.kwargs, **{name: junk})
    seen = set()
    for core in hb.available():
        with hb.using(core):
            with pytest.raises(HucklebuckError) as info:
                case.fn(**kwargs)
            seen.add((type(info.value).__name__, str(info.value)))
    assert len(seen) == 1, f"the cores disagree: {seen}"
    message = next(iter(seen))[1]
    assert message.startswith(name) or f" {name}" in message or f"{name} " in message, message


# --------------------------------------------------------- games untouched
GAMES = [HucklebuckGame, BuckEmGame, DeerParkGame]


METHODS = (
    "apply",
    "is_legal",
    "hand",
    "observation",
    "next_hand",
    "action_id",
    "action_from_id",
    "apply_id",
    "observation_tensor",
)


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.__name__)
@settings(max_examples=examples(60), deadline=None)
@given(junk=JUNK | st.text(alphabet="0123456789 abcdefghijklmnopqrstuvwxyzCDHSTJQKA²١", max_size=14))
def test_junk_given_to_a_game_is_a_library_error_and_changes_nothing(cls: Any, junk: object) -> None:
    for name in METHODS:
        game = cls(5, seed=3)
        before = game.to_json()
        try:
            result = getattr(game, name)(junk)
        except HucklebuckError:
            assert game.to_json() == before, (name, junk)
        else:
            # junk can be a valid seat, action id or action text; is_legal answers False otherwise
            assert name != "is_legal" or isinstance(result, bool)


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.__name__)
@settings(max_examples=examples(60), deadline=None)
@given(
    players=JUNK,
    seed=JUNK,
)
def test_a_bad_constructor_argument_is_a_library_error(cls: Any, players: object, seed: object) -> None:
    lo, hi = hb.player_range(cls.kind)
    ok_players = isinstance(players, int) and not isinstance(players, bool) and lo <= players <= hi
    ok_seed = seed is None or (isinstance(seed, int) and not isinstance(seed, bool))
    assume(not (ok_players and ok_seed))
    with pytest.raises(HucklebuckError):
        cls(players, seed=seed)


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.__name__)
@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_a_mutated_save_restores_exactly_or_is_a_restore_error(cls: Any, data: st.DataObject) -> None:
    game = cls(5, seed=data.draw(st.integers(0, 50)))
    while game.to_act is not None and data.draw(st.booleans()):
        game.apply(game.legal_actions()[0])
    saved = game.to_dict()
    path: list[Any] = []
    node: Any = saved
    while isinstance(node, (dict, list)) and node and data.draw(st.integers(0, 4)) > 0:
        key = data.draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        node = node[key]
    if not path:
        return
    parent: Any = saved
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = data.draw(JUNK)
    try:
        restored = cls.from_dict(saved)
    except hb.RestoreError:
        return
    # a restored game is a working game: every listed action is legal
    for action in restored.legal_actions():
        assert restored.is_legal(action)


def test_junk_strategy_has_floats_and_nan() -> None:
    # the property tests rely on floats (including nan) reaching every integer argument
    assert math.isnan(float("nan"))


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.__name__)
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_any_constructor_keyword_given_junk_is_an_error_or_works(cls: Any, data: st.DataObject) -> None:
    names = [n for n in inspect.signature(cls).parameters if n != "players"]
    name = data.draw(st.sampled_from(names))
    junk = data.draw(JUNK)
    try:
        game = cls(5, **{name: junk})
    except HucklebuckError:
        return
    assert game.to_act is not None or game.phase.value in ("hand_over", "game_over")


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.__name__)
@settings(max_examples=examples(40), deadline=None)
@given(junk=JUNK)
def test_junk_as_the_next_deal_is_a_library_error_and_changes_nothing(cls: Any, junk: object) -> None:
    assume(junk is not None)
    game = cls(5, seed=4)
    while game.to_act is not None:
        game.apply(game.legal_actions()[0])
    before = game.to_json()
    with pytest.raises(HucklebuckError):
        game.next_hand(junk)
    assert game.to_json() == before


TOP_LEVEL: list[tuple[str, Callable[[object], object]]] = [
    ("parse_card", hb.parse_card),
    ("parse_cards", hb.parse_cards),
    ("parse_suit", hb.parse_suit),
    ("Card.parse", hb.Card.parse),
    ("Card.from_index", hb.Card.from_index),
    ("Card(rank)", lambda x: hb.Card(x, Suit.SPADES)),  # type: ignore[arg-type]
    ("Card(suit)", lambda x: hb.Card(14, x)),  # type: ignore[arg-type]
    ("CardSet", CardSet),  # type: ignore[arg-type]
    ("CardSet.from_mask", CardSet.from_mask),  # type: ignore[arg-type]
    ("CardSet.parse", CardSet.parse),  # type: ignore[arg-type]
    ("pack(game)", lambda x: hb.pack(x, 4)),  # type: ignore[arg-type]
    ("pack(players)", lambda x: hb.pack("buckem", x)),  # type: ignore[arg-type]
    ("pack(short_handed)", lambda x: hb.pack("buckem", 5, short_handed=x)),  # type: ignore[arg-type]
    ("player_range", hb.player_range),  # type: ignore[arg-type]
    ("GameKind.coerce", GameKind.coerce),  # type: ignore[arg-type]
    ("set_backend", hb.set_backend),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("name", "fn"), TOP_LEVEL, ids=[n for n, _ in TOP_LEVEL])
@settings(max_examples=examples(40), deadline=None)
@given(junk=JUNK)
def test_the_top_level_functions_raise_only_library_errors(
    name: str, fn: Callable[[object], object], junk: object
) -> None:
    before = hb.backend()
    try:
        fn(junk)
    except HucklebuckError:
        pass
    if name == "set_backend":
        hb.set_backend(before)
