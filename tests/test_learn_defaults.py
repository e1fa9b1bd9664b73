"""The batched lane's defaults teach winning (issue 59, point 1).

A naive learner, written as a downstream developer would write it against the
defaults (``VectorGame("deerpark", 4, n)``, nothing else said): a linear
softmax policy trained by REINFORCE on each decision's reward-to-go, with the
batch mean as baseline.  It is then seated in two seats of whole games against
two uniformly random players.  With the old defaults (one hand per episode of a
fresh game, where progress is only the fall of a score, i.e. taking tricks) the
same code won about 0.1 of the games; with whole games it wins well over half.
"""

from __future__ import annotations

import random
import warnings

import pytest

from hucklebuck.games import DeerParkGame
from hucklebuck.games.tensors import layout
from hucklebuck.vector import RewardWarning, VectorGame

np = pytest.importorskip("numpy")

PLAYERS = 4


def _scale() -> np.ndarray:
    lay = layout("deerpark", PLAYERS)
    scale = np.ones(lay.size, np.float32)
    for name, divide in (("standings", 50.0), ("tricks_won", 5.0)):
        at, size = lay.blocks[name]
        scale[at : at + size] = 1.0 / divide
    return scale


SCALE = _scale()


def _features(tensors: np.ndarray) -> np.ndarray:
    """Scores and trick counts near 0..1, and a bias column."""
    return np.concatenate([tensors * SCALE, np.ones((len(tensors), 1), np.float32)], axis=1)


def _train_on_defaults(updates: int, envs: int, steps: int, seed: int) -> np.ndarray:
    """REINFORCE on the lane's defaults; each decision credited with its seat's rewards from then
    to the end of its episode (terminated or truncated, whatever the defaults make it)."""
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # the defaults must not need any setting; warnings are beside the point
        vg = VectorGame("deerpark", PLAYERS, envs, seed=seed)
    rng = np.random.default_rng(seed)
    mask, cp = np.asarray(vg.legal_mask), np.asarray(vg.current_player)
    rewards, term, trunc = np.asarray(vg.rewards), np.asarray(vg.terminated), np.asarray(vg.truncated)
    tensor = np.zeros((envs, vg.tensor_size), np.float32)
    weights = np.zeros((vg.tensor_size + 1, vg.num_distinct_actions), np.float32)
    paid = np.zeros((envs, PLAYERS))  # what each seat has been paid in its episode so far
    rows = np.arange(envs)
    # Every decision is kept with its episode's number; an episode's ending payments are kept by
    # number, and its decisions are credited once per update (not re-gathered at every ending).
    episode = np.arange(envs)  # the number of each table's current episode
    ends: dict[int, np.ndarray] = {}  # an ended episode's number -> what each seat had been paid
    next_episode = envs
    open_x = np.zeros((0, vg.tensor_size + 1), np.float32)
    open_dir = np.zeros((0, vg.num_distinct_actions))
    open_ep, open_seat, open_paid = np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    for _ in range(updates):
        step_x, step_dir, step_ep, step_seat, step_paid = (
            [open_x],
            [open_dir],
            [open_ep],
            [open_seat],
            [open_paid],
        )
        for _ in range(steps):
            acting = cp >= 0
            vg.observation_tensor(out=tensor)
            x = _features(tensor)
            z = np.where(mask > 0, x @ weights, -np.inf)
            z -= np.where(acting[:, None], z.max(axis=1, keepdims=True), 0)
            p = np.where(mask > 0, np.exp(z), 0.0)
            p /= np.maximum(p.sum(axis=1, keepdims=True), 1e-12)
            pick = np.minimum((p.cumsum(axis=1) < rng.random((envs, 1))).sum(axis=1), p.shape[1] - 1)
            d = -p
            d[rows, pick] += 1.0
            a = rows[acting]
            step_x.append(x[a])
            step_dir.append(d[a])
            step_ep.append(episode[a])
            step_seat.append(cp[a].astype(np.int64))
            step_paid.append(paid[a, cp[a]])
            pick[~acting] = 0
            vg.step(pick.astype(np.int32))
            paid += rewards
            for e in np.flatnonzero((term > 0) | (trunc > 0)):
                ends[int(episode[e])] = paid[e].copy()
                episode[e] = next_episode
                next_episode += 1
                paid[e] = 0.0
        xs, ds = np.concatenate(step_x), np.concatenate(step_dir)
        eps, ss, ps = np.concatenate(step_ep), np.concatenate(step_seat), np.concatenate(step_paid)
        closing = np.isin(eps, np.fromiter(ends, np.int64, len(ends)))
        open_x, open_dir, open_ep, open_seat, open_paid = (
            xs[~closing],
            ds[~closing],
            eps[~closing],
            ss[~closing],
            ps[~closing],
        )
        if closing.any():
            final = np.stack([ends[int(e)] for e in eps[closing]])
            ret = final[np.arange(len(final)), ss[closing]] - ps[closing]
            if len(ret) > 1 and ret.std() > 0:
                adv = (ret - ret.mean()) / ret.std()
                weights += 0.5 * (xs[closing].T @ (adv[:, None] * ds[closing])) / len(ret)
        ends.clear()  # every decision of these episodes has been credited
    vg.close()
    return weights


def _share_against_random(weights: np.ndarray, deals: int, seed: int) -> tuple[float, float]:
    """The policy (greedy) in seats 0 and 2, then 1 and 3, of each deal's whole game against
    random players: its share of the games' wins and the 95 % interval's half-width."""
    shares = []
    for deal in range(deals):
        for first in (0, 1):
            game = DeerParkGame(PLAYERS, seed=seed + deal)
            rng = random.Random(deal * 2 + first)
            mine = {first, first + 2}
            while not game.is_over:
                if game.phase.value == "hand_over":
                    game.next_hand()
                    continue
                seat = game.to_act
                ids = game.legal_action_ids()
                if seat in mine:
                    x = _features(np.frombuffer(game.observation_tensor(seat), np.float32)[None, :])
                    logits = (x @ weights)[0]
                    game.apply_id(max(ids, key=lambda i: logits[i]))
                else:
                    game.apply_id(rng.choice(ids))
            won = set(game.winners)
            shares.append(len(won & mine) / len(won))
    s = np.array(shares)
    return float(s.mean()), float(1.96 * s.std() / np.sqrt(len(s)))


@pytest.mark.single_core
def test_a_policy_trained_on_the_defaults_wins_against_random() -> None:
    weights = _train_on_defaults(updates=30, envs=64, steps=40, seed=3)
    share, half = _share_against_random(weights, deals=60, seed=500)
    assert share - half > 0.5, (share, half)  # above even with its whole 95 % interval


def test_the_defaults_are_whole_games_with_rewards_that_sum_to_the_result() -> None:
    vg = VectorGame("deerpark", PLAYERS, 4, seed=1)
    assert (vg.hands, vg.reward) == (None, "progress")
    assert VectorGame("hucklebuck", 4, 2, seed=1).hands is None
    assert VectorGame("buckem", 5, 2, seed=1).hands == 10  # a session has no end: 10 rounds
    totals = np.zeros((4, PLAYERS))
    ended = 0
    for k in range(3000):
        vg.step(vg.sample_legal(k))
        totals += np.asarray(vg.rewards)
        for i in np.flatnonzero(np.asarray(vg.terminated)):
            won = np.asarray(vg.winners)[i]
            assert won.sum() >= 1
            assert totals[i] == pytest.approx(won.astype(float), abs=1e-5)
            totals[i] = 0.0
            ended += 1
        assert not np.asarray(vg.truncated).any()
        if ended >= 4:
            break
    assert ended >= 4


@pytest.mark.parametrize(
    "args",
    [
        {"game": "deerpark", "players": 4, "num_envs": 2, "hands": 1},
        {"game": "hucklebuck", "players": 4, "num_envs": 2, "hands": 3},
        {"game": "deerpark", "players": 3, "num_envs": 2, "reward": "hand"},
    ],
)
def test_a_setup_that_does_not_teach_winning_warns(args: dict[str, object]) -> None:
    with pytest.warns(RewardWarning, match="hands=None|reward='progress'"):
        VectorGame(**args)  # type: ignore[arg-type]


def test_the_setups_that_teach_winning_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", RewardWarning)
        VectorGame("deerpark", 4, 2)
        VectorGame("hucklebuck", 4, 2, reward="hand")
        VectorGame("deerpark", 5, 2, reward="game")
        VectorGame("buckem", 5, 2, hands=3)  # chips are what a session is for


@pytest.mark.parametrize(("game", "mentions_deerpark"), [("hucklebuck", False), ("deerpark", True)])
def test_the_warning_speaks_of_the_game_in_use(game: str, mentions_deerpark: bool) -> None:
    """The example of a short episode's trap is Deer Park Euchre's own: a Hucklebuck learner is not
    told about another game."""
    with pytest.warns(RewardWarning) as caught:
        VectorGame(game, 4, 2, hands=1)
    assert ("Deer Park" in str(caught[0].message)) is mentions_deerpark
