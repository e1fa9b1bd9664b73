"""Randomised differential tests: the C core and the Python core agree.

Each hypothesis example is a batch of 60-100 random tricks (or legal-play
positions), so 200 examples per game cover well over 10,000 of each, bowers
included (every trump suit, jacks are as likely as any card).
"""

from __future__ import annotations

from array import array

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

import hucklebuck
from hucklebuck.errors import CoreInputError

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif("c" not in hucklebuck.available(), reason="C core not built"),
]

GAMES = [0, 1, 2]
EXAMPLES = 200


def cores() -> tuple[hucklebuck._core.Core, hucklebuck._core.Core]:
    from hucklebuck._core._c import CCore
    from hucklebuck._core._py import PythonCore

    return CCore(), PythonCore()


@st.composite
def trick(draw: st.DrawFn) -> tuple[int, bytes]:
    trump = draw(st.integers(0, 3))
    n = draw(st.integers(1, 8))
    cards = draw(st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True))
    return trump, bytes(cards)


@st.composite
def position(draw: st.DrawFn) -> tuple[int, int, int]:
    trump = draw(st.integers(0, 3))
    cards = draw(st.lists(st.integers(0, 51), min_size=2, max_size=6, unique=True))
    lead = cards[0] if draw(st.booleans()) else 255
    hand = sum(1 << c for c in cards[1:])
    return trump, lead, hand


settings_ = settings(
    max_examples=examples(EXAMPLES),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("game", GAMES)
@settings_
@given(st.lists(trick(), min_size=60, max_size=100))
def test_trick_winners_agree(game: int, tricks: list[tuple[int, bytes]]) -> None:
    c, py = cores()
    trumps = bytes(t for t, _ in tricks)
    lens = bytes(len(cs) for _, cs in tricks)
    packed = b"".join(cs + bytes(8 - len(cs)) for _, cs in tricks)
    batch_c = c.trick_winners(game, trumps, lens, packed)
    assert batch_c == py.trick_winners(game, trumps, lens, packed)
    for (trump, cs), w in zip(tricks, batch_c, strict=False):
        assert c.trick_winner(game, trump, cs) == py.trick_winner(game, trump, cs) == w


@pytest.mark.parametrize("game", GAMES)
@settings_
@given(st.lists(position(), min_size=60, max_size=100))
def test_legal_masks_agree(game: int, positions: list[tuple[int, int, int]]) -> None:
    c, py = cores()
    trumps = bytes(p[0] for p in positions)
    leads = bytes(p[1] for p in positions)
    hands = array("Q", [p[2] for p in positions])
    batch_c = c.legal_masks(game, trumps, leads, hands)
    assert batch_c == py.legal_masks(game, trumps, leads, hands)
    for (trump, lead, hand), m in zip(positions, batch_c, strict=False):
        assert c.legal_mask(game, trump, lead, hand) == py.legal_mask(game, trump, lead, hand) == m


@settings(max_examples=examples(500), deadline=None)
@given(st.integers(-2, 4), st.integers(-1, 5), st.binary(max_size=10))
def test_both_cores_reject_the_same_bad_tricks(game: int, trump: int, cards: bytes) -> None:
    results = []
    for core in cores():
        try:
            results.append(("ok", core.trick_winner(game, trump, cards)))
        except CoreInputError as exc:
            results.append(("error", str(exc)))
    assert results[0] == results[1]


@settings(max_examples=examples(500), deadline=None)
@given(st.integers(-1, 3), st.integers(0, 4), st.integers(-3, 260), st.integers(-1, 1 << 64))
def test_both_cores_reject_the_same_bad_positions(game: int, trump: int, lead: int, hand: int) -> None:
    results = []
    for core in cores():
        try:
            results.append(("ok", core.legal_mask(game, trump, lead, hand)))
        except CoreInputError as exc:
            results.append(("error", str(exc)))
    assert results[0] == results[1]
