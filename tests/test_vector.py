"""VectorGame against the game objects, step by step (both cores, every game and option)."""

from __future__ import annotations

import random
from array import array
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

import hucklebuck
from hucklebuck import backend
from hucklebuck.errors import OptionsError
from hucklebuck.evaluate import SplitMix64
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.games.engine import TrickGame
from hucklebuck.vector import VectorGame, deal_state, env_seed

# episodes of K hands warn (RewardWarning) that they do not teach winning; these tests cut them on purpose
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")

CLASSES: dict[str, type[TrickGame[Any, Any]]] = {
    "hucklebuck": HucklebuckGame,
    "buckem": BuckEmGame,
    "deerpark": DeerParkGame,
}
PLAYERS = {"hucklebuck": (3, 7), "buckem": (5, 8), "deerpark": (3, 8)}
DONE = (Phase.HAND_OVER, Phase.GAME_OVER)
C_LANE = ("deerpark", "hucklebuck", "buckem")
"""The games the C lane steps (every option and player count); the others fall back to game objects."""


def random_options(game: str, rng: random.Random) -> dict[str, Any]:
    """A random assignment of every option of ``game`` (maybe an impossible combination)."""
    out: dict[str, Any] = {}
    for info in CLASSES[game].options_type.describe():  # type: ignore[attr-defined]
        if rng.random() < 0.4:
            continue  # keep the default
        if info.choices:
            out[info.name] = info.parse(rng.choice(info.choices))
        elif info.name == "lock_at":
            out[info.name] = rng.choice([21, 24, 30, 45])
        elif info.name == "pot_limit":
            out[info.name] = rng.choice([None, 1, 3, 10])
        else:
            out[info.name] = rng.randint(1, 3)
    return out


def progress(g: TrickGame[Any, Any]) -> list[float]:
    """The documented "progress" reward of the hand ``g`` has just scored, from its scores."""
    if isinstance(g, BuckEmGame):
        return list(g.hand_returns())
    now = list(g.standings)
    was = [a - int(d) for a, d in zip(now, g.hand_returns(), strict=True)]
    if isinstance(g, DeerParkGame):
        span = 20

        def gap(x: int) -> int:
            return 0 if x <= 0 or x >= 50 else min(x, 50 - x)

    else:
        span = g.options.target

        def gap(x: int) -> int:
            return max(span - x, 0)

    if g.is_over:  # the game's result, less what the earlier hands paid
        return [(1.0 if s in g.winners else 0.0) + (gap(b) - span) / span for s, b in enumerate(was)]
    return [(gap(b) - gap(a)) / span for b, a in zip(was, now, strict=True)]


class Reference:
    """The documented semantics, built from game objects independently of the lanes."""

    def __init__(
        self,
        game: str,
        players: int,
        options: Any,
        n: int,
        seed: int,
        hands: int | None,
        reward: str = "progress",
    ) -> None:
        self.cls, self.players, self.options, self.hands = CLASSES[game], players, options, hands
        self.reward = reward
        self.seed, self.kind = seed, CLASSES[game].kind
        self.eps = [0] * n  # each episode deals from a splitmix64 stream of its own
        self.games = [self.new(i) for i in range(n)]
        self.done = [0] * n
        self.term = [0] * n
        self.trunc = [0] * n
        self.rewards = [[0.0] * players for _ in range(n)]
        for i in range(n):
            self.settle(i)

    def new(self, i: int) -> TrickGame[Any, Any]:
        rng = SplitMix64(deal_state(self.seed, i, self.eps[i]))
        return self.cls(self.players, options=self.options, rng=rng)

    def settle(self, i: int) -> None:
        g = self.games[i]
        while g.phase in DONE:
            self.done[i] += 1
            if self.reward == "progress":
                self.rewards[i] = [a + b for a, b in zip(self.rewards[i], progress(g), strict=True)]
            if self.reward == "hand":  # score changes, Deer Park's fall
                sign = -1.0 if self.cls is DeerParkGame else 1.0
                gain = [sign * d for d in g.hand_returns()]
                if g.is_over and self.cls is not BuckEmGame:
                    gain = [x + (1.0 if s in g.winners else 0.0) for s, x in enumerate(gain)]
                self.rewards[i] = [a + b for a, b in zip(self.rewards[i], gain, strict=True)]
            if g.phase is Phase.GAME_OVER or (self.hands is not None and self.done[i] >= self.hands):
                if g.phase is Phase.GAME_OVER or self.cls is BuckEmGame:
                    self.term[i] = 1
                else:  # the episode was cut: the game goes on
                    self.trunc[i] = 1
                if self.reward == "game":
                    self.rewards[i] = [a + b for a, b in zip(self.rewards[i], g.returns(), strict=True)]
                return
            g.next_hand()

    def step(self, actions: list[int]) -> None:
        for i, a in enumerate(actions):
            self.rewards[i] = [0.0] * self.players
            if self.term[i] or self.trunc[i]:
                self.term[i] = self.trunc[i] = 0
                self.done[i] = 0
                self.eps[i] += 1
                self.games[i] = self.new(i)
            else:
                self.games[i].apply_id(a)
            self.settle(i)


def check_same(vg: VectorGame, ref: Reference, tensors: bool = True) -> None:
    n = vg.num_envs
    assert vg.terminated.tolist() == ref.term
    assert vg.truncated.tolist() == ref.trunc
    assert vg.rewards.tolist() == [array("f", row).tolist() for row in ref.rewards]  # float32, as documented
    cps = vg.current_player.tolist()
    masks = vg.legal_mask.tolist()
    for i, g in enumerate(ref.games):
        if ref.term[i] or ref.trunc[i]:
            assert cps[i] == -1 and not any(masks[i])
        else:
            assert cps[i] == g.to_act
            assert [k for k, v in enumerate(masks[i]) if v] == g.legal_action_ids()
    if tensors:
        size = 4 * vg.tensor_size
        acting = vg.observation_tensor().tobytes()
        for i, g in enumerate(ref.games):
            want = bytes(size) if ref.term[i] or ref.trunc[i] else g.observation_tensor(g.to_act).tobytes()
            assert acting[i * size : (i + 1) * size] == want, i
        for seat in range(vg.players):
            t = vg.observation_tensor(seat=seat).tobytes()
            for i, g in enumerate(ref.games):
                assert t[i * size : (i + 1) * size] == g.observation_tensor(seat).tobytes(), (i, seat)
    if tensors:
        for i in {0, n - 1}:
            assert vg.game(i).to_dict() == ref.games[i].to_dict()


def run_differential(
    game: str,
    players: int,
    options: Any,
    n: int,
    seed: int,
    hands: int | None,
    steps: int,
    play_seed: int,
    reward: str = "progress",
    every: int = 3,
) -> VectorGame:
    vg = VectorGame(game, players, n, options=options, seed=seed, hands=hands, reward=reward)
    assert vg.lane == ("c" if backend() == "c" and game in C_LANE else "python")
    ref = Reference(game, players, vg.options, n, seed, hands, reward)
    check_same(vg, ref)
    for k in range(steps):
        actions = vg.sample_legal(play_seed + k)
        ref.step(actions.tolist())
        vg.step(actions)
        check_same(vg, ref, tensors=k % every == 0)
    return vg


DEERPARK_OPTIONS: list[dict[str, Any]] = [
    {},
    {"club_turnup_pickup": True},
    {"round2_excludes_turned_suit": True, "first_lead": "maker"},
    {"failed_contract_tricks_count": True, "tie_break": "shared"},
    {"lock_at": 21, "lock_permanent": True},
    {"lock_at": 24, "club_turnup_pickup": True, "round2_excludes_turned_suit": True},
    {"eight_player_turnup": "dealer_last_card", "club_turnup_pickup": True},
    {"eight_player_turnup": "dealer_last_card", "first_lead": "maker", "tie_break": "shared"},
]


@pytest.mark.parametrize("index", range(len(DEERPARK_OPTIONS)))
def test_deerpark_whole_games_every_option(index: int) -> None:
    """Whole games (game ends, tie-breaks, locks) through each Deer Park option, both rewards."""
    options = DEERPARK_OPTIONS[index]
    players = 8 if "eight_player_turnup" in options else 3 + index % 5
    for reward in ("progress", "hand", "game"):
        vg = run_differential(
            "deerpark", players, options, 3, 1000 + index, None, 500, index, reward, every=25
        )
        assert max(vg.episodes) >= 1  # at least one game played to its end


HUCKLEBUCK_OPTIONS: list[dict[str, Any]] = [
    {},
    {"target": 11, "all_pass": "dealer_must_bid"},
    {"moon_at_zero": "win", "lone_moon_bidder": "wins_game", "tie_break": "bidder_first"},
    {"moon_at_zero": "score_normally", "bidder_zero_trick_penalty_stacks": True, "tie_break": "shared"},
    {"exchange_order": "dealer_left_dealer_last", "auction_reentry": True},
    {"in_the_hole_reset_applies_to": "any_bid", "auction_reentry": True, "all_pass": "dealer_must_bid"},
]


@pytest.mark.parametrize("index", range(len(HUCKLEBUCK_OPTIONS)))
def test_hucklebuck_whole_games_every_option(index: int) -> None:
    """Whole games (targets, tie-breaks, players out, re-formed stocks) through each Hucklebuck option."""
    options = HUCKLEBUCK_OPTIONS[index]
    players = 3 + (2 * index) % 5
    for reward in ("progress", "hand", "game"):
        vg = run_differential(
            "hucklebuck", players, options, 3, 2000 + index, None, 400, index, reward, every=25
        )
        assert max(vg.episodes) >= 1  # at least one game played to its end


@pytest.mark.parametrize("game", sorted(CLASSES))
def test_seeded_sweep_every_player_count(game: str) -> None:
    lo, hi = PLAYERS[game]
    rng = random.Random(game)
    for players in range(lo, hi + 1):
        options: dict[str, Any] = {}
        if game == "deerpark" and players == 8:
            options = {"eight_player_turnup": "dealer_last_card"}
        run_differential(game, players, options, 3, rng.randrange(2**64), 2, 70, rng.randrange(1000))


@pytest.mark.parametrize("game", sorted(CLASSES))
def test_seeded_sweep_random_options(game: str) -> None:
    rng = random.Random(f"options {game}")
    done = 0
    while done < 4:
        lo, hi = PLAYERS[game]
        players = rng.randint(lo, hi)
        options = random_options(game, rng)
        try:
            CLASSES[game](players, options=options)
        except OptionsError:
            continue
        except Exception:  # a player count the options do not admit (8 at Deer Park)
            continue
        hands = rng.choice([1, 3] if game == "buckem" else [1, 3, None])  # a Buck 'Em session never ends
        run_differential(game, players, options, 2, rng.randrange(2**64), hands, 60, done)
        done += 1


@settings(
    max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_hypothesis_differential(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(sorted(CLASSES)))
    lo, hi = PLAYERS[game]
    players = data.draw(st.integers(lo, hi))
    options = random_options(game, random.Random(data.draw(st.integers(0, 2**32))))
    if game == "deerpark" and players == 8:
        options["eight_player_turnup"] = "dealer_last_card"
    try:
        CLASSES[game](players, options=options)
    except OptionsError:
        return
    seed = data.draw(st.integers(0, 2**64 - 1))
    hands = data.draw(st.sampled_from([1, 2] if game == "buckem" else [1, 2, None]))
    run_differential(game, players, options, data.draw(st.integers(1, 3)), seed, hands, 40, seed % 1000)


def test_each_episode_deals_from_its_own_splitmix64_stream() -> None:
    vg = VectorGame("deerpark", 4, 2, seed=5, hands=1)
    assert vg.game(1).to_dict() == DeerParkGame(4, rng=SplitMix64(deal_state(5, 1, 0))).to_dict()
    assert deal_state(5, 1, 0) == SplitMix64(env_seed(5, 1)).next_u64()  # output k of the table's seed stream
    ref = DeerParkGame(4, rng=SplitMix64(deal_state(5, 0, 0)))
    seen = 0
    for k in range(300):
        acts = vg.sample_legal(k)
        if not vg.truncated[0]:  # one hand of a game that goes on: cut, not terminated
            ref.apply_id(acts[0])
        assert not vg.terminated[0]
        vg.step(acts)
        if not vg.truncated[0] and ref.phase in DONE:  # auto-reset: the next episode's own stream
            seen += 1
            ref = DeerParkGame(4, rng=SplitMix64(deal_state(5, 0, seen)))
            assert vg.episodes[0] == seen
        assert vg.game(0).to_dict() == ref.to_dict()
    assert seen >= 3
    assert vg.stream(0).getstate() == ("splitmix64", deal_state(5, 0, seen))
    fresh = DeerParkGame(4, rng=vg.stream(0))
    assert fresh.to_dict()["hands"][0]["deal"] == vg.game(0).to_dict()["hands"][0]["deal"]


@pytest.mark.parametrize("game", ["hucklebuck", "deerpark"])
def test_reset_without_seed_goes_on_and_with_seed_starts_over(game: str) -> None:
    cls = CLASSES[game]
    vg = VectorGame(game, 4, 2, seed=9, hands=1)
    first = vg.game(1).to_dict()
    vg.reset()
    assert vg.episodes == (1, 1)
    assert vg.game(1).to_dict() == cls(4, rng=SplitMix64(deal_state(9, 1, 1))).to_dict()
    vg.reset(9)
    assert vg.episodes == (0, 0) and vg.game(1).to_dict() == first


@pytest.mark.parametrize("game,players", [("buckem", 5), ("deerpark", 6)])
def test_copy_is_independent(game: str, players: int) -> None:
    vg = VectorGame(game, players, 3, seed=2, hands=1)
    vg.step(vg.sample_legal(1))
    other = vg.copy()
    before = (other.legal_mask.tobytes(), other.current_player.tobytes(), other.game(2).to_dict())
    for k in range(5):
        vg.step(vg.sample_legal(k + 10))
    assert (other.legal_mask.tobytes(), other.current_player.tobytes(), other.game(2).to_dict()) == before
    other.step(other.sample_legal(10))
    assert other.lane == vg.lane
    twin = vg.copy()  # and a copy goes on exactly as the original
    for k in range(40):
        acts = vg.sample_legal(k)
        vg.step(acts)
        twin.step(acts)
        assert vg.legal_mask.tobytes() == twin.legal_mask.tobytes()
        assert vg.rewards.tobytes() == twin.rewards.tobytes()
    assert vg.game(1).to_dict() == twin.game(1).to_dict()
    assert vg.observation_tensor().tobytes() == twin.observation_tensor().tobytes()


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_give_the_same_buffers(threads: int) -> None:
    one = VectorGame("deerpark", 5, 37, seed=3, hands=2, reward="hand")
    many = VectorGame("deerpark", 5, 37, seed=3, hands=2, reward="hand", threads=threads)
    for k in range(90):
        acts = one.sample_legal(k)
        assert acts.tobytes() == many.sample_legal(k).tobytes()
        one.step(acts)
        many.step(acts)
        for a, b in (
            (one.legal_mask, many.legal_mask),
            (one.current_player, many.current_player),
            (one.rewards, many.rewards),
            (one.terminated, many.terminated),
        ):
            assert a.tobytes() == b.tobytes()
        if k % 10 == 0:
            seat = k % 5
            assert one.observation_tensor(seat=seat).tobytes() == many.observation_tensor(seat=seat).tobytes()
    many.close()
    many.step(many.sample_legal(1))  # a closed pool steps in the calling thread


def test_hand_rewards_sum_to_the_score_changes() -> None:
    vg = VectorGame("deerpark", 4, 4, seed=11, hands=None, reward="hand")
    totals = [[0.0] * 4 for _ in range(4)]
    finished = 0
    for k in range(3000):
        vg.step(vg.sample_legal(k))
        rows = vg.rewards.tolist()
        for i in range(4):
            totals[i] = [a + b for a, b in zip(totals[i], rows[i], strict=True)]
            if vg.terminated[i]:
                g = vg.game(i)
                assert g.is_over
                bonus = [1.0 if s in g.winners else 0.0 for s in range(4)]
                want = [20.0 - s + b for s, b in zip(g.scores, bonus, strict=True)]
                assert totals[i] == want
                totals[i] = [0.0] * 4
                finished += 1
        if finished >= 3:
            break
    assert finished >= 3


@pytest.mark.single_core
@pytest.mark.parametrize("reward", ["progress", "game", "hand"])
def test_both_lanes_give_the_same_buffers(reward: str) -> None:
    if "c" not in hucklebuck.available():
        pytest.skip("needs the C core to compare the lanes")  # the CI run without cffi has one lane
    with hucklebuck.using("c"):
        c = VectorGame("deerpark", 5, 6, seed=77, hands=None, reward=reward)
    with hucklebuck.using("python"):
        py = VectorGame("deerpark", 5, 6, seed=77, hands=None, reward=reward)
    lanes_agree(c, py, 400)


def lanes_agree(c: VectorGame, py: VectorGame, steps: int, games: int = 0) -> None:
    """Step the C lane and the Python lane with the same sampled ids: every buffer agrees at
    every step, the tensors every 20 steps (and, with ``games``, the rebuilt game of one of the
    first ``games`` tables)."""
    assert (c.lane, py.lane) == ("c", "python")
    for k in range(steps):
        acts = c.sample_legal(k)
        assert acts.tobytes() == py.sample_legal(k).tobytes()
        c.step(acts)
        with hucklebuck.using("python"):
            py.step(acts)
        pairs = ((c.legal_mask, py.legal_mask), (c.rewards, py.rewards), (c.terminated, py.terminated))
        with hucklebuck.using("python"):
            won = py.winners.tobytes()
        for a, b in (*pairs, (c.truncated, py.truncated)):
            assert a.tobytes() == b.tobytes()
        assert c.winners.tobytes() == won  # who won each game that just ended
        if k % 20 == 0:
            with hucklebuck.using("python"):
                assert c.observation_tensor().tobytes() == py.observation_tensor().tobytes()
                if games:
                    assert c.game(k % games).to_dict() == py.game(k % games).to_dict()
    assert c.episodes == py.episodes  # (the C lane's in one call)
    assert max(c.episodes) >= 1


@pytest.mark.parametrize("game,players", [("deerpark", 4), ("hucklebuck", 4), ("deerpark", 6)])
def test_progress_rewards_of_a_whole_game_sum_to_its_result(game: str, players: int) -> None:
    """The default reward: every hand pays progress toward the goal, and a whole game's
    rewards sum to 1.0 for each winner and 0.0 for the others (so its maximiser wins);
    the hand rewards of Deer Park need not (their maximiser avoids the goal of 50)."""
    vg = VectorGame(game, players, 8, seed=21, hands=None)
    assert vg.reward == "progress"
    totals = [[0.0] * players for _ in range(8)]
    finished = 0
    paid_mid_game = False
    for k in range(4000):
        vg.step(vg.sample_legal(k))
        rows = vg.rewards.tolist()
        for i in range(8):
            totals[i] = [a + b for a, b in zip(totals[i], rows[i], strict=True)]
            if vg.terminated[i]:
                g = vg.game(i)
                assert g.is_over and not vg.truncated[i]
                assert totals[i] == pytest.approx(list(g.returns()), abs=1e-5)
                totals[i] = [0.0] * players
                finished += 1
            elif any(rows[i]):
                paid_mid_game = True
        if finished >= 12:
            break
    assert finished >= 12 and paid_mid_game


def test_default_rewards_give_a_signal_and_a_cut_episode_is_truncated() -> None:
    """One Deer Park hand per episode (hands=1, the default before whole games) pays
    something every hand, and ends truncated, not terminated: the game was not over."""
    vg = VectorGame("deerpark", 4, 16, seed=2, hands=1)
    got = 0.0
    cut = 0
    for k in range(200):
        vg.step(vg.sample_legal(k))
        got += sum(abs(x) for row in vg.rewards.tolist() for x in row)
        cut += sum(vg.truncated.tolist())
        assert not any(vg.terminated.tolist())
    assert got > 0 and cut >= 16
    be = VectorGame("buckem", 5, 4, seed=2, hands=1)  # a Buck 'Em session's rounds: terminated
    for k in range(200):
        be.step(be.sample_legal(k))
        assert not any(be.truncated.tolist())
        if any(be.terminated.tolist()):
            break
    assert any(be.terminated.tolist())


def test_a_reward_that_would_always_be_zero_is_refused() -> None:
    for hands in (1, 2, 3):
        with pytest.raises(OptionsError, match="would always pay 0"):
            VectorGame("deerpark", 4, 2, hands=hands, reward="game")
    VectorGame("deerpark", 4, 2, hands=4, reward="game")  # a game can end in 4 hands
    VectorGame("hucklebuck", 4, 2, hands=1, reward="game")  # a moon can end it in one
