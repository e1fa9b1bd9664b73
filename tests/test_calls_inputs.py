"""Every input type the one-call functions accept, on both cores and both paths (issue 39, point 17).

On the C core a tuple or list of Cards takes the compiled path (``hucklebuck._hbcall``);
an iterator, a generator, a ``CardSet``, a ``set`` or a ``frozenset`` takes the Python
path.  The Python core always takes the Python path.  Each test runs once per core, so
each input type is checked on every path it can take, with the two of clubs (card
number 0, the one a zero "seen" mask once mistook for a repeat) in every trick.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest

import hucklebuck as hb
from hucklebuck import Card, CardError, CardSet, GameKind, Suit, parse_cards
from hucklebuck.games import BuckEmGame, HucklebuckGame
from hucklebuck.games.base import ScoreEvent

C2, C9, CK = parse_cards("2C 9C KC")
Form = Callable[[tuple[Card, ...]], Iterable[Card]]

# The forms a sequence of cards can take; each gives a fresh object (iterators are one-shot).
FORMS: dict[str, Form] = {
    "tuple": tuple,
    "list": list,
    "iterator": iter,
    "generator": lambda cards: (c for c in cards),
    "CardSet": CardSet,
    "set": set,
    "frozenset": frozenset,
    "dict keys": lambda cards: dict.fromkeys(cards).keys(),
}
ORDERED = ("tuple", "list", "iterator", "generator")  # a trick's order matters: only ordered forms


@pytest.mark.parametrize("form", ORDERED)
@pytest.mark.parametrize("game", ["hucklebuck", GameKind.BUCKEM, "deerpark"])
@pytest.mark.parametrize("trump", [Suit.SPADES, "S"])
def test_trick_winner_takes_every_ordered_form_with_the_two_of_clubs(
    form: str, game: object, trump: object
) -> None:
    # 2C led, 9C then KC follow: the king wins (no trump in the trick)
    assert hb.trick_winner(game, trump, FORMS[form]((C2, C9, CK))) == 2  # type: ignore[arg-type]
    assert hb.trick_winner(game, trump, FORMS[form]((C2,))) == 0  # type: ignore[arg-type]


def test_trick_winner_takes_a_cardset_in_its_canonical_order() -> None:
    # a CardSet iterates 2C, 9C, KC whatever order it was built in: KC (index 2) wins
    assert hb.trick_winner("hucklebuck", Suit.HEARTS, CardSet([CK, C2, C9])) == 2


@pytest.mark.parametrize("form", ORDERED)
@pytest.mark.parametrize("where", [0, 1, 2])
def test_a_bad_item_in_a_one_shot_trick_is_named_not_dropped(form: str, where: int) -> None:
    items: list[object] = [C2, C9, CK]
    items.insert(where, "x")
    with pytest.raises(CardError, match=rf"^cards item {where} must be a Card, not 'x'"):
        hb.trick_winner("hucklebuck", Suit.SPADES, FORMS[form](tuple(items)))  # type: ignore[arg-type]
    items[where] = 7
    with pytest.raises(CardError, match=rf"^trick item {where} must be a Card, not 7$"):
        hb.legal_plays("hucklebuck", Suit.SPADES, [Card.parse("AS")], FORMS[form](tuple(items)))  # type: ignore[arg-type]


@pytest.mark.parametrize("form", ORDERED)
def test_a_repeated_card_in_a_one_shot_trick_is_a_repeat(form: str) -> None:
    with pytest.raises(CardError, match=r"^cards: card 9C appears twice in the trick$"):
        hb.trick_winner("deerpark", Suit.HEARTS, FORMS[form]((C2, C9, C9)))


@pytest.mark.parametrize("hand_form", list(FORMS))
@pytest.mark.parametrize("trick_form", ORDERED)
def test_legal_plays_takes_every_form_of_hand_and_trick(hand_form: str, trick_form: str) -> None:
    hand = parse_cards("2C 3H AS")
    got = hb.legal_plays(
        "hucklebuck", Suit.SPADES, FORMS[hand_form](hand), FORMS[trick_form](parse_cards("KC"))
    )
    assert got == CardSet([C2])  # must follow clubs with the two of clubs
    got = hb.legal_plays("hucklebuck", Suit.SPADES, FORMS[hand_form](hand), FORMS[trick_form](()))
    assert got == CardSet(hand)  # leading: anything


@pytest.mark.parametrize("form", list(FORMS))
def test_legal_plays_takes_a_hand_of_all_52_cards(form: str) -> None:
    everything = tuple(Card.from_index(i) for i in range(52))
    assert hb.legal_plays("buckem", Suit.CLUBS, FORMS[form](everything)) == CardSet(everything)
    rest = everything[1:]  # the two of clubs led: every other club must follow
    got = hb.legal_plays("buckem", Suit.DIAMONDS, FORMS[form](rest), [C2])
    assert got == CardSet(c for c in rest if c.suit is Suit.CLUBS) and len(got) == 12


@pytest.mark.parametrize("form", list(FORMS))
def test_legal_plays_refuses_a_card_both_in_hand_and_trick_in_every_form(form: str) -> None:
    with pytest.raises(CardError, match=r"^card 2C is both in the hand and on the table$"):
        hb.legal_plays("deerpark", Suit.HEARTS, FORMS[form](parse_cards("2C 3H")), [C2])


# ------------------------------------------------------------------ scoring reason texts
def _play_until(
    make: Callable[[int], object], wanted: Callable[[ScoreEvent], bool], seeds: int
) -> ScoreEvent:
    """Random legal play over seeded games until a score event ``wanted`` is seen."""
    import random

    for seed in range(seeds):
        game = make(seed)
        rng = random.Random(seed)
        while not game.is_over:  # type: ignore[attr-defined]
            if game.phase.value == "hand_over":  # type: ignore[attr-defined]
                for e in game.events:  # type: ignore[attr-defined]
                    if isinstance(e, ScoreEvent) and wanted(e):
                        return e
                game.next_hand()  # type: ignore[attr-defined]
                continue
            game.apply(rng.choice(game.legal_actions()))  # type: ignore[attr-defined]
    raise AssertionError("no such score in the games tried")


def test_a_missed_moon_reason() -> None:
    e = _play_until(
        lambda s: HucklebuckGame(4, seed=s), lambda e: e.reason.startswith("missed the moon"), 400
    )
    assert e.delta == -15
    assert e.reason.endswith(": -15 (S0, S2, DEF #14)")
    assert e.reason in {
        f"missed the moon with {t}: -15 (S0, S2, DEF #14)"
        for t in ("0 tricks", "1 trick", "2 tricks", "3 tricks", "4 tricks")
    }


def test_a_missed_moon_with_no_trick_and_the_stacked_penalty() -> None:
    e = _play_until(
        lambda s: HucklebuckGame(4, seed=s, options={"bidder_zero_trick_penalty_stacks": True}),
        lambda e: e.reason.startswith("missed the moon") and "stacked" in e.reason,
        2000,
    )
    assert (e.delta, e.reason) == (
        -20,
        "missed the moon with 0 tricks: -20 (S0, S2, stacked penalty, DEF #14)",
    )


def test_a_one_trick_burn_says_one_trick() -> None:
    e = _play_until(
        lambda s: BuckEmGame(5, seed=s), lambda e: "burned" in e.reason and "took 1 " in e.reason, 200
    )
    assert e.reason.startswith("took 1 trick: burned, pays ") and "tricks" not in e.reason


# ------------------------------------------------------------------ the other one-call functions
TEXT_FORMS: dict[str, Callable[[list[str | Card]], object]] = {
    "list": list,
    "tuple": tuple,
    "iterator": iter,
    "generator": lambda items: (x for x in items),
}


@pytest.mark.parametrize("form", list(TEXT_FORMS))
def test_parse_cards_takes_text_and_every_iterable_of_cards_or_texts(form: str) -> None:
    want = (C2, Card.parse("TH"), Card.parse("AS"))
    assert hb.parse_cards("2c 10h AS") == want and hb.parse_cards("2C,TH,A♠") == want
    assert hb.parse_cards(TEXT_FORMS[form](["2c", " 10h ", Card.parse("AS")])) == want  # type: ignore[arg-type]
    with pytest.raises(CardError, match="'zz'"):
        hb.parse_cards(TEXT_FORMS[form](["2c", "zz"]))  # type: ignore[arg-type]


@pytest.mark.parametrize("form", ORDERED)
def test_the_batch_functions_take_one_shot_iterables_with_the_two_of_clubs(form: str) -> None:
    def tricks() -> Any:  # fresh one-shot iterables for each call
        return FORMS[form](((Suit.SPADES, FORMS[form]((C2, C9, CK))), ("H", FORMS[form]((C9, C2)))))  # type: ignore[arg-type]

    assert hb.trick_winners("hucklebuck", tricks()) == [2, 0]
    positions = [(Suit.SPADES, FORMS[form](parse_cards("2C 3H AS")), CK), ("D", CardSet([C2]), None)]
    got = hb.legal_plays_batch("hucklebuck", FORMS[form](tuple(positions)))  # type: ignore[arg-type]
    assert got == [CardSet([C2]), CardSet([C2])]
    trumps, lens, cards = hb.pack_tricks(tricks())
    assert (
        trumps == bytes([Suit.SPADES, Suit.HEARTS])
        and lens == bytes([3, 2])
        and cards[:3] == bytes([C2.index, C9.index, CK.index])
    )
    assert hb.effective_suit("deerpark", "H", Card.parse("JD")) is Suit.HEARTS  # the left bower
