"""The one-call functions in C (issue 24): when the C path answers, its errors, its references.

On the C core ``trick_winner``, ``legal_plays`` and ``parse_cards`` answer a
plain, valid call in C (``hucklebuck._hbcall``); every error comes from the
Python path both cores share.  These tests pin the error wording on both
cores, check that the C path answers exactly when the C core is selected, that
``HUCKLEBUCK_BACKEND=python`` imports no compiled module, and that the C path
holds no references it should not (the interned Cards, the Suits, the games
and the CardSet type keep their reference counts over many calls).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import tracemalloc
from collections.abc import Callable

import pytest

import hucklebuck as hb
from hucklebuck import Card, CardError, CardSet, GameKind, OptionsError, Suit, parse_cards

HAS_C = "c" in hb.available()
needs_c = pytest.mark.skipif(not HAS_C, reason="the C core is not built")
CARDS = parse_cards("AS KS QS 2H 3D 4C 5C 6C 7C")
AS, KS, QS = CARDS[:3]


def _raw_set(mask: object) -> CardSet:
    cards = object.__new__(CardSet)
    object.__setattr__(cards, "_mask", mask)
    return cards


# ------------------------------------------------------------------ the errors, on both cores
@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: hb.trick_winner("deerpark", Suit.HEARTS, [AS, AS]), CardError,
         "cards: card AS appears twice in the trick"),
        (lambda: hb.trick_winner("deerpark", Suit.HEARTS, ()), CardError,
         "cards: a trick holds 1 to 8 cards, not 0"),
        (lambda: hb.trick_winner("deerpark", Suit.HEARTS, CARDS), CardError,
         "cards: a trick holds 1 to 8 cards, not 9"),
        (lambda: hb.trick_winner("poker", Suit.HEARTS, CARDS[:2]), OptionsError,
         "game: 'poker' is not a game (expected one of 'hucklebuck', 'buckem', 'deerpark')"),
        (lambda: hb.trick_winner(2, Suit.HEARTS, CARDS[:2]), OptionsError,
         "game must be a GameKind or one of 'hucklebuck', 'buckem', 'deerpark', not 2"),
        (lambda: hb.trick_winner("deerpark", 3, CARDS[:2]), CardError,
         "trump: 3 is not a suit (give a Suit or one of the letters C, D, H, S)"),
        (lambda: hb.trick_winner("deerpark", True, CARDS[:2]), CardError,
         "trump: True is not a suit (give a Suit or one of the letters C, D, H, S)"),
        (lambda: hb.trick_winner("deerpark", float("nan"), CARDS[:2]), CardError,
         "trump: nan is not a suit (give a Suit or one of the letters C, D, H, S)"),
        (lambda: hb.trick_winner("deerpark", "s", CARDS[:2]), CardError,
         "trump: 's' is not a suit (give a Suit or one of the letters C, D, H, S)"),
        (lambda: hb.trick_winner("deerpark", "H", ["AS"]), CardError,
         "cards item 0 must be a Card, not 'AS' (use parse_card('AS'))"),
        (lambda: hb.trick_winner("deerpark", "H", "AS KS"), CardError,
         "cards must be a sequence of Cards, not 'AS KS'"),
        (lambda: hb.legal_plays("hucklebuck", "S", CardSet(CARDS[:3]), [KS]), CardError,
         "card KS is both in the hand and on the table"),
        (lambda: hb.legal_plays("hucklebuck", "S", [AS, AS]), CardError, "hand: card AS appears twice"),
        (lambda: hb.legal_plays("hucklebuck", "S", _raw_set(True)), CardError,
         "hand is not a valid set of cards (its mask is True, not 52 bits)"),
        (lambda: hb.legal_plays("hucklebuck", "S", _raw_set(-1)), CardError,
         "hand is not a valid set of cards (its mask is -1, not 52 bits)"),
        (lambda: hb.legal_plays("hucklebuck", "S", [], CARDS), CardError,
         "trick: a trick holds 0 to 8 cards, not 9"),
        (lambda: hb.legal_plays("hucklebuck", "S", [], [QS, QS]), CardError,
         "trick: card QS appears twice in the trick"),
        (lambda: hb.parse_cards("AS XX"), CardError,
         "'XX' is not a card (write a rank 2-10, T, J, Q, K or A and a suit C, D, H, S or ♣ ♦ ♥ ♠, "
         "e.g. '10h' or 'AS')"),
        (lambda: hb.parse_cards(5), CardError, "cards must be text or an iterable of cards, not int"),
        (lambda: hb.parse_cards(["AS", 5]), CardError, "a card must be a string, not int"),
    ],
)  # fmt: skip
def test_error_wording(call: Callable[[], object], error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_plain_calls(core_name: str) -> None:
    assert hb.trick_winner("deerpark", Suit.HEARTS, parse_cards("AH JD KH")) == 1
    assert hb.trick_winner(GameKind.HUCKLEBUCK, "S", [AS, KS, Card.parse("2S")]) == 0
    got = hb.legal_plays("hucklebuck", Suit.SPADES, CardSet(parse_cards("2H 3H AS")), parse_cards("KH"))
    assert type(got) is CardSet and str(got) == "2H 3H"
    assert hb.legal_plays("buckem", "C", [AS, KS]) == CardSet([AS, KS])
    assert hb.parse_cards("10h,AS  jd\t2♠") == (Card.parse("TH"), AS, Card.parse("JD"), Card.parse("2S"))
    assert hb.parse_cards("") == () and hb.parse_cards(" , ") == ()
    assert hb.parse_cards(["10h", " as\n", KS]) == (Card.parse("TH"), AS, KS)
    assert hb.parse_cards("\u212aH") == (Card.parse("KH"),)  # the Kelvin sign lowers to k (the Python path)


# ------------------------------------------------------------------ when the C path answers
@needs_c
@pytest.mark.single_core
def test_the_c_path_answers_only_on_the_c_core() -> None:
    from hucklebuck import _fast

    ext = _fast.ext
    assert ext is not None
    trick = parse_cards("AH JD KH")
    calls: list[Callable[[], object]] = [
        lambda: ext.trick_winner("deerpark", Suit.HEARTS, trick),
        lambda: ext.legal_plays("hucklebuck", "S", CardSet(trick), ()),
        lambda: ext.parse_cards("AS KS"),
    ]
    with hb.using("c"):
        assert [f() for f in calls] == [1, CardSet(trick), (AS, KS)]
        assert ext.trick_winner("deerpark", Suit.HEARTS, [trick[0], trick[0]]) is None  # errors: Python's
        assert ext.parse_cards("AS XX") is None and ext.parse_cards("A\u2660 \u00e9S") is None
        seen: list[object] = []
        with hb.using("python"):
            seen += [f() for f in calls]
        t = threading.Thread(target=lambda: seen.append(hb.backend()))  # a thread starts on the default
        t.start()
        t.join()
    with hb.using("python"):
        assert [f() for f in calls] == [None, None, None]
    assert seen[:3] == [None, None, None] and seen[3] == hb.backend()


@pytest.mark.single_core
def test_python_mode_imports_no_compiled_module_until_c_is_asked_for() -> None:
    code = (
        "import sys, hucklebuck as h\n"
        "print(h.backend(), 'hucklebuck._hbcall' in sys.modules, 'hucklebuck._hbc' in sys.modules)\n"
        "if 'c' in h.available():\n"
        "    from hucklebuck import tricks\n"
        "    with h.using('c'):\n"
        "        print(tricks._c_trick_winner('deerpark', h.Suit.HEARTS, h.parse_cards('AH JD')))\n"
    )
    env = os.environ | {"HUCKLEBUCK_BACKEND": "python"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    lines = r.stdout.split("\n")
    assert lines[0] == "python False False", r.stderr
    if HAS_C:  # asked for later, the C core brings its one-call functions, linked
        assert lines[1] == "1", r.stderr


# ------------------------------------------------------------------ references
def _counts() -> list[int]:
    objects: list[object] = [*(Card.from_index(i) for i in range(52)), *Suit, *GameKind, Card, CardSet]
    objects += [k.value for k in GameKind]
    return [sys.getrefcount(o) for o in objects]


@needs_c
@pytest.mark.single_core
def test_the_c_path_keeps_reference_counts_and_memory_flat() -> None:
    long_text = " ".join(c.code for c in CARDS * 20)  # past the parser's stack buffer
    items = [c.code for c in CARDS] * 10
    hand = CardSet(CARDS[3:8])
    with hb.using("c"):

        def round_() -> None:
            hb.trick_winner("deerpark", Suit.HEARTS, CARDS[:4])
            hb.trick_winner(GameKind.BUCKEM, "D", list(CARDS[:8]))
            hb.legal_plays("hucklebuck", Suit.SPADES, hand, CARDS[:2])
            hb.legal_plays("deerpark", "H", list(CARDS[3:6]))
            hb.parse_cards(long_text)
            hb.parse_cards(items)
            hb.parse_cards("10h AS jd")
            for bad in (lambda: hb.trick_winner("deerpark", "H", [AS, AS]), lambda: hb.parse_cards("AS ZZ")):
                try:
                    bad()
                except CardError:
                    pass

        for _ in range(200):  # warm up (caches, the small ints)
            round_()
        before = _counts()
        tracemalloc.start()
        try:
            for _ in range(300):
                round_()
            start, _ = tracemalloc.get_traced_memory()
            for _ in range(3000):
                round_()
            end, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        after = _counts()
    assert after == before
    assert end - start < 20_000  # a leak of one small object per call would be hundreds of kB
