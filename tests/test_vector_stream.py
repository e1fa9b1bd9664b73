"""The C lane deals from the project's specified PRNG, splitmix64: episode k of table i is the
engine's game given ``SplitMix64(deal_state(seed, i, k))``, deal for deal (restocks too), over
many episodes; its shuffle is the core's own ``rng_shuffle``, the one the bare simulation deals
with; and ``stream(i)`` is the source the current episode started from."""

from __future__ import annotations

import pytest

import hucklebuck
from hucklebuck._core import get_core
from hucklebuck.evaluate import SplitMix64
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.vector import VectorGame, deal_state

DONE = (Phase.HAND_OVER, Phase.GAME_OVER)
CLASSES = {"deerpark": DeerParkGame, "hucklebuck": HucklebuckGame, "buckem": BuckEmGame}
# one hand per episode on purpose
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")


@pytest.fixture(autouse=True)
def c_core() -> None:
    if "c" not in hucklebuck.available():
        pytest.skip("the C lane needs the C core")


@pytest.mark.parametrize(
    ("game", "players", "options", "hands"),
    [
        ("deerpark", 4, {}, 40),
        ("deerpark", 7, {}, 15),
        ("hucklebuck", 3, {}, 15),
        ("buckem", 5, {"short_handed": True, "short_handed_trump": "removed_card"}, 15),
    ],
)
def test_every_episode_deals_from_its_own_splitmix64_stream(
    game: str, players: int, options: dict[str, object], hands: int
) -> None:
    """One table plays ``hands`` one-hand episodes: each deal (a Hucklebuck stock re-formed in the
    exchange, a Buck 'Em upcard drawn from the removed cards) is the engine's own given
    ``SplitMix64(deal_state(31, 0, k))``, and ``stream(0)`` is that source as the episode began."""
    cls = CLASSES[game]
    with hucklebuck.using("c"):
        vg = VectorGame(game, players, 1, options=options, seed=31, hands=1)
    assert vg.lane == "c"
    ref = cls(players, options=options, rng=SplitMix64(deal_state(31, 0, 0)))
    seen = k = 0
    while seen < hands:
        acts = vg.sample_legal(k)
        k += 1
        ref.apply_id(int(acts[0]))
        vg.step(acts)
        assert vg.game(0).to_dict()["hands"][-1] == ref.to_dict()["hands"][-1]
        if ref.phase in DONE:
            vg.step(vg.sample_legal(k))  # auto-reset: the next episode, from a stream of its own
            k += 1
            seen += 1
            assert vg.episodes[0] == seen
            ref = cls(players, options=options, rng=SplitMix64(deal_state(31, 0, seen)))
            assert vg.game(0).to_dict() == ref.to_dict()
            assert vg.stream(0).getstate() == ("splitmix64", deal_state(31, 0, seen))


@pytest.mark.parametrize("core", ["c", "python"])
def test_a_deer_park_deal_is_the_core_shuffle_the_simulation_uses(core: str) -> None:
    """Table 5's first deal is the pack shuffled by the core's ``rng_shuffle`` (splitmix64, the
    shuffle the bare simulation deals with) from ``deal_state(seed, 5, 0)``, one card at a time
    from the dealer's left; both cores shuffle alike."""
    if core not in hucklebuck.available():
        pytest.skip(f"no {core} core")
    with hucklebuck.using(core):
        vg = VectorGame("deerpark", 4, 8, seed=2026)
        pack = [c for c in range(52) if c % 13 >= 7]  # 9 to ace of each suit, in card order
        cards = get_core().rng_shuffle(deal_state(2026, 5, 0), bytes(pack))
        game = vg.game(5)
    dealt = game.to_dict()["hands"][0]["deal"]
    first = SplitMix64(deal_state(2026, 5, 0))
    ref = DeerParkGame(4, rng=first)
    assert dealt == ref.to_dict()["hands"][0]["deal"]
    hands = [sorted(cards[j] for j in range(o, 20, 4)) for o in range(4)]  # eldest (seat 1) first
    assert [sorted(c.index for c in game.hand(s)) for s in (1, 2, 3, 0)] == hands
