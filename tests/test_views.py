"""What each seat may know (DEF #84-#91), in the library's views: the onlooker's
view, card counts under simultaneous declaring, the Buck 'Em rake claim, hidden
discards and draws, and the JSON form of a view."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hucklebuck.actions import Fold
from hucklebuck.cards import Rank
from hucklebuck.errors import IllegalAction, PlayerCountError
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase
from hucklebuck.games.observe import observation_json, view
from hucklebuck.players import make_player

GAMES: list[tuple[Any, int, dict[str, Any]]] = [
    (HucklebuckGame, 4, {}),
    (DeerParkGame, 4, {}),
    (BuckEmGame, 6, {}),
    (BuckEmGame, 6, {"simultaneous_declare": True, "deuce_swap": True, "scare_cards": True}),
]


def _walk(cls: Any, n: int, options: dict[str, Any], seed: int) -> list[Any]:
    """Every state of a random game's first two hands (copies)."""
    game = cls(n, options=options, seed=seed)
    rng = random.Random(seed)
    states = [game.copy()]
    while game.hand_number <= 2 and not game.is_over:
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
        else:
            game.apply(rng.choice(game.legal_actions()))
        states.append(game.copy())
    return states


@pytest.mark.parametrize(("cls", "n", "options"), GAMES)
def test_onlooker_sees_the_public_part_of_every_seat_view(cls: Any, n: int, options: dict[str, Any]) -> None:
    for state in _walk(cls, n, options, seed=5):
        public = view(state, None)
        assert public["seat"] is None and public["hand"] is None and public["legal"] == []
        json.dumps(public)  # plain JSON
        for seat in range(n):
            mine = view(state, seat)
            assert mine["hand"] == sorted(
                mine["hand"], key=lambda c: "CDHS".index(c[1]) * 13 + "23456789TJQKA".index(c[0])
            )
            # the onlooker's view is a seat's view without its own cards and moves
            for key in ("phase", "to_act", "tricks", "tricks_won", "trump", "dealer", "game_over", "winners"):
                assert public[key] == mine[key], key
            if not options.get("simultaneous_declare"):
                assert public["hand_sizes"] == mine["hand_sizes"]
            assert len(mine["hand"]) == mine["hand_sizes"][seat] == len(state.hand(seat))
            if state.to_act == seat:
                assert mine["legal"] == sorted(str(a) for a in state.legal_actions())
            else:
                assert mine["legal"] == []


@pytest.mark.parametrize(("cls", "n", "options"), GAMES)
def test_no_view_names_a_card_its_reader_may_not_see(cls: Any, n: int, options: dict[str, Any]) -> None:
    for state in _walk(cls, n, options, seed=11):
        played = {c.code for t in state.tricks for c in t.cards} | {c.code for c in state.current_trick}
        for seat in [None, *range(n)]:
            text = json.dumps(view(state, seat))
            for other in range(n):
                if other == seat:
                    continue
                for card in state.hand(other):
                    if card.code in played:
                        continue
                    public_face = set()
                    if cls is BuckEmGame:
                        o = state.observation(None)
                        public_face = {o.upcard.code, *(c.code for c in o.scare if c is not None)}
                        if o.swapped_upcard is not None:
                            public_face.add(o.swapped_upcard.code)
                        public_face |= {c.code for c in o.rake_shown}
                    if cls is DeerParkGame:
                        public_face = {state.turned.code}
                    if card.code not in public_face:
                        assert f'"{card.code}"' not in text and f" {card.code}" not in text, (
                            seat,
                            other,
                            card,
                        )


def test_a_hidden_fold_keeps_its_card_count_until_everyone_has_declared() -> None:
    for seed in range(40):
        game = BuckEmGame(6, options={"simultaneous_declare": True}, seed=seed)
        if game.phase is not Phase.STAY_FOLD:
            continue
        folder = game.to_act
        assert folder is not None
        if Fold(folder) not in game.legal_actions():
            continue
        game.apply(Fold(folder))
        if game.phase is not Phase.STAY_FOLD:
            continue
        assert len(game.hand(folder)) == 0  # the engine has set the hand aside
        for seat in [None, *(s for s in range(6) if s != folder)]:
            sizes = game.observation(seat).hand_sizes
            assert sizes[folder] == 5, (seed, seat, sizes)
            v = view(game, seat)
            assert v["decisions"] == [] and f"{folder} fold" not in v["history"], v
        assert game.observation(folder).hand_sizes[folder] == 0  # the folder knows
        return
    pytest.fail("no deal let the first player fold")


def _rake_rounds(found: dict[str, int]) -> None:
    for seed in range(400):
        game = BuckEmGame(5, seed=seed)
        stayer = None
        while game.phase is Phase.STAY_FOLD:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions()
            if stayer is None and any(str(a).endswith("stay") for a in legal):
                stayer = seat
                game.apply(next(a for a in legal if str(a).endswith("stay")))
            elif Fold(seat) in legal:
                game.apply(Fold(seat))
            else:
                break
        if stayer is None or game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            continue
        if game.results[-1].stayers != (stayer,):
            continue
        dealt = game._deal.hands[stayer]  # type: ignore[attr-defined]
        trump = game.trump
        trumps = sorted((c for c in dealt if c.suit is trump), key=lambda c: c.index)
        aces = [c for c in trumps if c.rank is Rank.ACE]
        shown = view(game, None)["rake_shown"]
        if game.results[-1].raked == stayer:
            expected = [c.code for c in (aces or trumps)]
            found["aces" if aces else "trumps"] += 1
        else:
            expected = []
            found["none"] += 1
        assert shown == expected, (seed, dealt, trump)
        for seat in range(5):
            assert view(game, seat)["rake_shown"] == expected
        if all(found.values()):
            return


def test_the_rake_claim_shows_only_the_qualifying_cards() -> None:
    found = {"aces": 0, "trumps": 0, "none": 0}
    _rake_rounds(found)
    assert all(found.values()), found


def test_the_deerpark_dealer_discard_is_hidden_from_everyone_else() -> None:
    for seed in range(60):
        game = DeerParkGame(4, seed=seed)
        rng = random.Random(seed)
        while game.phase is not Phase.DEALER_DISCARD and game.phase is not Phase.PLAY:
            acts = game.legal_actions()
            order = [a for a in acts if str(a).endswith("order")]
            game.apply(order[0] if order else rng.choice(acts))
        if game.phase is not Phase.DEALER_DISCARD:
            continue
        dealer = game.to_act
        assert dealer is not None
        discard = game.legal_actions()[0]
        game.apply(discard)
        card = str(discard).split()[-1]
        assert view(game, dealer)["history"][-1] == str(discard)
        for seat in [None, *(s for s in range(4) if s != dealer)]:
            v = view(game, seat)
            assert v["history"][-1] == f"{dealer} discard 1 card"
            assert card not in json.dumps(v) or card == v["turned"]
        return
    pytest.fail("no deal was ordered up")


def test_bad_viewers_are_refused_and_onlookers_cannot_choose() -> None:
    game = HucklebuckGame(4, seed=1)
    for bad in (4, -1, "0", 1.0, True):
        with pytest.raises(PlayerCountError):
            game.observation(bad)  # type: ignore[call-overload]
    with pytest.raises(IllegalAction, match="onlooker"):
        make_player("heuristic", "hucklebuck").choose(game.observation(None))
    with pytest.raises(TypeError):
        observation_json("not a view")  # type: ignore[arg-type]
