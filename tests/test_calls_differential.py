"""The one-call functions answer in C on the C core (issue 24): same results, same errors.

On the C core a plain, valid call of ``trick_winner``, ``legal_plays`` or
``parse_cards`` is answered whole by the compiled module ``hucklebuck._hbcall``;
anything else takes the Python path both cores share.  Each property draws
arguments -- valid ones, and hostile ones: Card subclasses and look-alikes,
non-interned or corrupted Cards and CardSets, objects whose attributes raise,
long and nested sequences, str subclasses, bool/float/NaN suits, repeated
cards, cards both in hand and trick -- and calls the function on both cores:
the same result (the same objects) or the same exception class and message.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

import hucklebuck as hb
from hucklebuck import Card, CardSet, GameKind, Suit

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif("c" not in hb.available(), reason="the C core is not built"),
]

ALL = [Card.from_index(i) for i in range(52)]
SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


class SubCard(Card):
    """A Card subclass that claims to equal everything."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 5


class LookAlike:
    """Not a Card, but with a Card's attributes (and equal to everything)."""

    def __init__(self, index: int) -> None:
        self._index = self.index = index
        self.mask = 1 << index
        self.code = "AS"

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return self._index


class Raising:
    """Every attribute, hash, comparison and iteration raises."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"no {name}")

    def __hash__(self) -> int:
        raise RuntimeError("no hash")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    def __iter__(self) -> Any:
        raise RuntimeError("no iter")

    def __len__(self) -> int:
        raise RuntimeError("no len")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class RaisingSet(CardSet):
    """A CardSet whose mask raises."""

    __slots__ = ()

    @property
    def _mask(self) -> int:  # type: ignore[override]
        raise RuntimeError("no mask")


class Name(str):
    """A str subclass (its methods are its own)."""

    def replace(self, *args: Any) -> str:  # type: ignore[override]
        return "AS"


class CardList(list):  # type: ignore[type-arg]
    """A list subclass."""


def _raw_card(index: object) -> Card:
    card = object.__new__(Card)
    object.__setattr__(card, "_index", index)
    return card


def _raw_set(mask: object) -> CardSet:
    cards = object.__new__(CardSet)
    object.__setattr__(cards, "_mask", mask)
    return cards


# A recipe is drawn by hypothesis and built afresh for each core (generators are used up).
Recipe = Callable[[], object]


def _const(value: object) -> Recipe:
    return lambda: value


CARD = st.sampled_from(ALL)
ODD_CARD = st.one_of(
    st.integers(0, 51).map(lambda i: SubCard._make(i)),
    st.integers(0, 51).map(LookAlike),
    st.sampled_from([0, 5, 51, 52, 99, 255, 300, -1, True, 2.0, "x", None]).map(_raw_card),
    st.builds(lambda: object.__new__(Card)),  # no _index at all
    st.builds(Raising),
    st.sampled_from(["AS", "10h", 3, None, b"AS", Suit.SPADES, 2.5]),
)
ANY_CARD = st.one_of(CARD, CARD, CARD, ODD_CARD)


def _sequence(items: st.SearchStrategy[object], max_size: int) -> st.SearchStrategy[Recipe]:
    """A list, tuple, list subclass, generator, set or dict of drawn items."""
    lists = st.lists(items, max_size=max_size)
    return st.one_of(
        lists.map(lambda xs: lambda: list(xs)),
        lists.map(lambda xs: lambda: tuple(xs)),
        lists.map(lambda xs: lambda: CardList(xs)),
        lists.map(lambda xs: lambda: (x for x in xs)),
        st.lists(CARD, max_size=max_size).map(lambda xs: lambda: set(xs)),
        st.lists(CARD, max_size=max_size).map(lambda xs: lambda: dict.fromkeys(xs)),
    )


ODD_SEQUENCE = st.sampled_from(
    [
        _const(ALL * 3),  # long, every card repeated
        _const(tuple(ALL[:9])),  # one card too many for a trick
        lambda: [ALL[:2]],  # nested
        lambda: [[ALL[0]], [ALL[1]]],
        _const("AS KS"),
        _const(b"\x01\x02"),
        _const(None),
        _const(3),
        _const(Raising()),
        _const(CardSet(ALL[:3])),
        lambda: object.__new__(RaisingSet),
        lambda: _raw_set(-1),
        lambda: _raw_set(1 << 52),
        lambda: _raw_set(True),
        lambda: _raw_set(3.0),
        lambda: _raw_set("x"),
        lambda: _raw_set(None),
        lambda: object.__new__(CardSet),  # no _mask at all
        lambda: list(range(10**5)),
    ]
)
CARDS = st.one_of(
    st.lists(CARD, min_size=1, max_size=8, unique=True).map(lambda xs: lambda: tuple(xs)),
    st.lists(CARD, min_size=1, max_size=8, unique=True).map(lambda xs: lambda: list(xs)),
    _sequence(ANY_CARD, 9),
    ODD_SEQUENCE,
)
GAME = st.one_of(
    st.sampled_from(list(GameKind)),
    st.sampled_from([k.value for k in GameKind]),
    st.sampled_from(
        [
            Name("hucklebuck"),
            "HUCKLEBUCK",
            "Deerpark",
            " buckem",
            "",
            None,
            0,
            2,
            True,
            1.0,
            b"deerpark",
            Suit.SPADES,
        ]
    ),
    st.builds(Raising),
    st.text(max_size=10),
)
SUIT = st.one_of(
    st.sampled_from(list(Suit)),
    st.sampled_from(["C", "D", "H", "S"]),
    st.sampled_from(
        [Name("S"), "s", "SS", "♠", "", None, 0, 3, 4, -1, True, False, 1.0, math.nan, math.inf, b"S"]
    ),
    st.builds(Raising),
    st.text(max_size=3),
)


def outcome(call: Callable[[], object]) -> tuple[object, ...]:
    """``("ok", result)`` or ``("error", class, message)``."""
    try:
        result = call()
    except Exception as exc:  # the point: every exception, whatever its class
        return ("error", type(exc), str(exc))
    if isinstance(result, tuple):  # parse_cards: the very same (interned) Card objects
        return ("ok", tuple, tuple(map(id, result)))
    return ("ok", type(result), result)


def both(fn: Callable[..., object], *recipes: Recipe) -> tuple[tuple[object, ...], tuple[object, ...]]:
    out = []
    for name in ("c", "python"):
        with hb.using(name):
            args = [r() for r in recipes]
            out.append(outcome(lambda: fn(*args)))  # noqa: B023 (called at once)
    return out[0], out[1]


@SETTINGS
@given(GAME, SUIT, CARDS)
def test_trick_winner_same_on_both_cores(game: object, trump: object, cards: Recipe) -> None:
    c, py = both(hb.trick_winner, _const(game), _const(trump), cards)
    assert c == py


HAND = st.one_of(
    st.lists(CARD, max_size=10, unique=True).map(lambda xs: lambda: CardSet(xs)),
    st.lists(CARD, max_size=10, unique=True).map(lambda xs: lambda: tuple(xs)),
    st.lists(CARD, max_size=10).map(lambda xs: lambda: list(xs)),  # repeats now and then
    _sequence(ANY_CARD, 6),
    ODD_SEQUENCE,
)
TRICK = st.one_of(
    st.lists(CARD, max_size=7, unique=True).map(lambda xs: lambda: tuple(xs)),
    st.lists(CARD, max_size=7, unique=True).map(lambda xs: lambda: list(xs)),
    _sequence(ANY_CARD, 9),
    ODD_SEQUENCE,
)


@SETTINGS
@given(GAME, SUIT, HAND, TRICK)
def test_legal_plays_same_on_both_cores(game: object, trump: object, hand: Recipe, trick: Recipe) -> None:
    c, py = both(hb.legal_plays, _const(game), _const(trump), hand, trick)
    assert c == py


@SETTINGS
@given(st.data())
def test_legal_plays_when_the_trick_shares_a_card_with_the_hand(data: st.DataObject) -> None:
    hand = data.draw(st.lists(CARD, min_size=1, max_size=8, unique=True))
    trick = data.draw(st.lists(CARD, max_size=3, unique=True)) + [data.draw(st.sampled_from(hand))]
    game, trump = _const("hucklebuck"), _const(Suit.SPADES)
    c, py = both(hb.legal_plays, game, trump, _const(CardSet(hand)), _const(trick))
    assert c == py and c[0] == "error"


TOKEN = st.one_of(
    st.sampled_from([c.code for c in ALL]),
    st.builds(
        lambda r, s: r + s,
        st.sampled_from(["2", "9", "10", "t", "T", "j", "Q", "k", "A", "a", "1", "11", "0", "K", "", "AA"]),
        st.sampled_from(["c", "D", "h", "S", "♣", "♧", "♦", "♢", "♥", "♡", "♠", "♤", "x", "", "♟"]),
    ),
    st.text(max_size=4),
)
SEPARATOR = st.sampled_from([" ", ",", ", ", "\t", "\n", "\x1c", "\x85", "\u00a0", "\u3000", "", ",,"])
TEXT = st.builds(
    lambda parts: "".join(a + b for a, b in parts),
    st.lists(st.tuples(SEPARATOR, TOKEN), max_size=8),
)


@SETTINGS
@given(st.one_of(TEXT, TEXT, st.text(max_size=12)))
def test_parse_cards_text_same_on_both_cores(text: str) -> None:
    c, py = both(hb.parse_cards, _const(text))
    assert c == py


ODD_ITEM = st.sampled_from([Name("AS"), None, b"AS", 7])
ITEM = st.one_of(TOKEN, TOKEN.map(lambda t: f" {t}\n"), ANY_CARD, ODD_ITEM)


@SETTINGS
@given(
    st.one_of(
        _sequence(ITEM, 6),
        st.sampled_from(
            [
                _const(Name("AS KS")),
                _const(Name("")),
                _const(b"AS"),
                _const(None),
                _const(5),
                _const(Raising()),
                _const(["AS"] * 1000),
                _const(("10h",) * 3 + (ALL[0],)),
                lambda: [["AS"]],
            ]
        ),
    )
)
def test_parse_cards_iterables_same_on_both_cores(items: Recipe) -> None:
    c, py = both(hb.parse_cards, items)
    assert c == py
