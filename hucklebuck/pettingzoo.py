"""PettingZoo environments for the three games (the ``pettingzoo`` extra).

``env(game, players=N)`` returns an AEC (agent-environment-cycle) environment:
one seat acts at a time, exactly as the rules order turns.  Agents are named
``player_0`` ... ``player_{N-1}`` (seat numbers).  ``parallel_env(...)`` wraps it
in PettingZoo's parallel API.

Observations
    A dict: ``"observation"`` is the seat's observation tensor (float32, the
    layout of :mod:`hucklebuck.games.tensors`; never a card the seat may not
    see) and ``"action_mask"`` (int8, one entry per action id of
    :mod:`hucklebuck.games.ids`) marks the legal ids -- all zero for a seat whose
    turn it is not.  Actions are those integer ids (``Discrete``).

Episodes
    The deal is the environment's chance event: every hand is dealt from the
    game's own random source, seeded by ``reset(seed=...)``.  When a hand is
    scored the next one is dealt at once.  Hucklebuck and Deer Park Euchre
    episodes end (``terminations``) when the game is won; ``hands=K`` cuts them
    short after K hands (``truncations``).  A Buck 'Em session has no natural
    end: an episode is ``hands`` rounds (default 10) and then terminates.
    ``max_cycles=M`` truncates an episode after M actions.

Rewards (``reward="progress"``, the default)
    When a hand is scored every seat receives its move toward its goal
    (Hucklebuck: the target; Deer Park Euchre: the nearer of 0 and 50) over
    the distance every seat starts at; the hand that ends the game pays 1.0 to
    each winner less what the seat's earlier hands paid, so a whole game's
    rewards sum to its result (1.0 to each winner, 0.0 to the others) and their
    maximiser plays to win.  Buck 'Em: each seat's chips won or lost in the
    round.  The batched lane (:mod:`hucklebuck.vector`) and the OpenSpiel games
    pay the same by default.
Rewards (``reward="hand"``)
    When a hand is scored every seat receives its score change in that hand:
    Hucklebuck points; Buck 'Em chips (won from the pot, less the ante and any
    burn payment); Deer Park Euchre the *fall* of its score (scores count down
    from 20 towards 0, so a trick taken is +1).  When a Hucklebuck or Deer Park
    game ends each winner receives a further 1.0.  In Deer Park Euchre this
    works against winning: most games are won by a seat pushed up to 50.
Rewards (``reward="game"``)
    0 until the episode ends; then 1.0 to each winner (Hucklebuck, Deer Park
    Euchre) or each seat's chips won or lost over the session (Buck 'Em).  A
    Deer Park Euchre episode cut at fewer than 4 hands can never end a game,
    so ``reward="game"`` with it is refused.

Illegal actions
    ``illegal="raise"`` (default): stepping an illegal id raises
    :class:`~hucklebuck.errors.IllegalAction` and changes nothing (rewards included).
    ``illegal="penalize"``: the acting seat receives ``illegal_reward`` (default
    -1.0), the state is unchanged and the same seat acts again -- for agents that
    sample without the mask (and PettingZoo's ``max_cycles_test``).

Bad arguments
    An action is an integer id (a Python ``int`` or a NumPy integer; not a bool,
    a float such as ``52.9`` or ``nan``, a string or a list): anything else raises
    :class:`~hucklebuck.errors.ActionParseError`, and an id out of range too.  Seeds
    are integers ``0 .. 2**64 - 1`` (NumPy integers too), else
    :class:`~hucklebuck.errors.OptionsError`; so is an unknown agent name, a
    non-finite or non-numeric ``illegal_reward`` and options that are not a
    mapping.  Stepping or calling ``last()`` before ``reset()`` or once every agent
    has left raises :class:`~hucklebuck.errors.IllegalAction`.  A refused call
    changes nothing: not the game, not the rewards, not whose turn it is.

Rendering
    ``render_mode="ansi"``: :meth:`TrickGameAECEnv.render` returns the table
    narration since the last call, in the words of the command line
    (``python -m hucklebuck play``); ``"human"`` prints it after every step.

The parallel API: a card game is turn-based, so each parallel step applies the
action of the one seat to act and ignores the others' (their masks are all zero).

Nothing here is imported by ``import hucklebuck``.
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Mapping
from typing import Any, Literal

try:
    import numpy as np
    from gymnasium import logger, spaces
    from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
except ImportError as _exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"hucklebuck.pettingzoo needs the 'pettingzoo' extra ({_exc.name} is missing): "
        "pip install 'hucklebuck[pettingzoo]'"
    ) from _exc

from ._validate import MAX_SEED, shown
from .actions import Action
from .errors import ActionParseError, IllegalAction, OptionsError
from .games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase
from .games.engine import TrickGame
from .packs import GameKind
from .vector._rewards import DEFAULT_REWARD, RewardMode, check_reward, progress_rewards, warn_if_not_winning

__all__ = [
    "HucklebuckAECEnv",
    "HucklebuckParallelEnv",
    "RewardMode",
    "TrickGameAECEnv",
    "TrickGameParallelEnv",
    "env",
    "parallel_env",
    "raw_env",
]

IllegalMode = Literal["raise", "penalize"]

_GAMES: dict[GameKind, type[TrickGame[Any, Any]]] = {
    GameKind.HUCKLEBUCK: HucklebuckGame,
    GameKind.BUCKEM: BuckEmGame,
    GameKind.DEERPARK: DeerParkGame,
}
BUCKEM_HANDS = 10
"""Rounds in a Buck 'Em episode unless ``hands`` says otherwise."""


def _integer(value: object) -> int | None:
    """``value`` as an int when it is a Python or NumPy integer (not a bool), else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _seed(value: object) -> int:
    seed = _integer(value)
    if seed is None or not 0 <= seed <= MAX_SEED:
        raise OptionsError(f"seed must be None or an integer 0..2**64-1, not {shown(value)}")
    return seed


def _reward(value: object, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise OptionsError(f"{name} must be a number, not {shown(value)}")
    out = float(value)
    if not math.isfinite(out):
        raise OptionsError(f"{name} must be a finite number, not {shown(value)}")
    return out


class TrickGameAECEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment of any of the three games (see the module docs)."""

    def __init__(
        self,
        game: GameKind | str = "hucklebuck",
        players: int = 4,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        reward: RewardMode = DEFAULT_REWARD,
        hands: int | None = None,
        max_cycles: int | None = None,
        illegal: IllegalMode = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        """See :func:`env`."""
        super().__init__()
        self.kind = GameKind.coerce(game)
        if render_mode not in (None, "human", "ansi"):
            raise OptionsError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if illegal not in ("raise", "penalize"):
            raise OptionsError(f"illegal must be 'raise' or 'penalize', not {illegal!r}")
        for name, value in (("hands", hands), ("max_cycles", max_cycles)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise OptionsError(f"{name} must be a positive integer or None, not {value!r}")
        if options is not None and not isinstance(options, Mapping):
            raise OptionsError(f"options must be a mapping of option names to values, not {shown(options)}")
        self.players = players
        self.game_options: dict[str, Any] = dict(options or {})
        self.render_mode = render_mode
        self.hands = hands if hands is not None or self.kind is not GameKind.BUCKEM else BUCKEM_HANDS
        self.reward_mode: RewardMode = check_reward(reward, self.kind, self.hands)
        warn_if_not_winning(self.kind, hands if self.kind is not GameKind.BUCKEM else None, self.reward_mode)
        self.max_cycles = max_cycles
        self.illegal: IllegalMode = illegal
        self.illegal_reward = _reward(illegal_reward, "illegal_reward")
        probe = self._new_game(0)  # checks the player count and the options
        self.metadata: dict[str, Any] = {
            "render_modes": ["human", "ansi"],
            "name": f"{self.kind.value}_v0",
            "is_parallelizable": True,
        }
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._num_actions = probe.num_distinct_actions()
        (size,) = probe.observation_tensor_shape()
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(self._num_actions))
        self._seeder = random.Random()
        self.game: TrickGame[Any, Any] = probe
        self._lines: list[str] = []
        self._table: Any = None
        self._steps = 0
        self._hands_done = 0
        self.agents: list[str] = []

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(num_distinct_actions)``."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------- life
    def _new_game(self, seed: int) -> TrickGame[Any, Any]:
        return _GAMES[self.kind](self.players, options=self.game_options, seed=seed)  # type: ignore[call-arg]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` makes the deals (and so the episode) reproducible."""
        if seed is not None:
            self._seeder = random.Random(_seed(seed))
        self.game = self._new_game(self._seeder.getrandbits(63))
        if self.game.phase is Phase.HAND_OVER:
            self.game.next_hand()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._hands_done = 0
        self._lines = []
        self._table = None
        if self.render_mode is not None:
            self._start_table()
        self._select()

    def _select(self) -> None:
        seat = self.game.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's observation tensor and its action mask."""
        seat = self._seat(agent)
        mask = np.zeros(self._num_actions, np.int8)
        if self.game.to_act == seat:
            mask[self.game.legal_action_ids()] = 1
        return {
            "observation": np.frombuffer(self.game.observation_tensor(seat), dtype=np.float32),
            "action_mask": mask,
        }

    def _seat(self, agent: object) -> int:
        """The seat of agent name ``agent``, else :class:`OptionsError`."""
        if isinstance(agent, str) and agent in self.possible_agents:
            return self.possible_agents.index(agent)
        first, last = self.possible_agents[0], self.possible_agents[-1]
        raise OptionsError(f"no agent {shown(agent)} (the agents are {first} .. {last})")

    def _acting(self, what: str) -> str:
        """The agent to act now, or :class:`IllegalAction` before reset() and after the episode."""
        if not hasattr(self, "agent_selection"):
            raise IllegalAction(f"call reset() before {what}")
        if not self.agents:
            raise IllegalAction(f"the episode is over (every agent has left): call reset() before {what}")
        return self.agent_selection

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The acting agent's observation, reward so far, termination, truncation and info."""
        agent = self._acting("last()")
        obs = self.observe(agent) if observe else None
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        """Apply the action id of the agent to act (``None`` for an agent whose episode ended).

        Everything is checked before anything changes: a refused action leaves the
        game, the rewards and the turn exactly as they were.
        """
        agent = self._acting("step()")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalAction(f"{agent}'s episode has ended: step it with None, not {shown(action)}")
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must act: None is only for an agent whose episode has ended")
        action_id = _integer(action)
        if action_id is None:
            raise ActionParseError(f"an action is an integer action id, not {shown(action)}")
        seat = self.possible_agents.index(agent)
        game = self.game
        if self.illegal == "penalize" and action_id not in game.legal_action_ids():
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            self.rewards[agent] = self.illegal_reward
        else:
            typed = game.action_from_id(action_id) if self._table is not None else None
            before = game.hand(seat)
            game.apply_id(action_id)  # raises IllegalAction or ActionParseError, state unchanged
            self._cumulative_rewards[agent] = 0.0  # the action is taken: now the bookkeeping moves
            self._clear_rewards()
            self._narrate(seat, typed, before)
            if game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                self._hand_scored()
        self._steps += 1
        if self.max_cycles is not None and self._steps >= self.max_cycles and not self._done():
            self.truncations = dict.fromkeys(self.agents, True)
            self._episode_rewards()
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _done(self) -> bool:
        return any(self.terminations.values()) or any(self.truncations.values())

    def _hand_scored(self) -> None:
        game = self.game
        self._hands_done += 1
        if self.reward_mode == "progress":
            for a, x in zip(self.possible_agents, progress_rewards(self.kind, game), strict=True):
                self.rewards[a] += x
        elif self.reward_mode == "hand":
            sign = -1.0 if self.kind is GameKind.DEERPARK else 1.0
            for a, delta in zip(self.possible_agents, game.hand_returns(), strict=True):
                self.rewards[a] += sign * delta + 0.0
        if game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            self._episode_rewards(final=True)
        elif self.hands is not None and self._hands_done >= self.hands:
            if self.kind is GameKind.BUCKEM:
                self.terminations = dict.fromkeys(self.agents, True)
                self._episode_rewards(final=True)
            else:
                self.truncations = dict.fromkeys(self.agents, True)
                self._episode_rewards()
        else:
            game.next_hand()
            if self._table is not None:
                self._table.hand_start()
        if self._table is not None and self._done():
            self._table.game_end()

    def _episode_rewards(self, final: bool = False) -> None:
        """Game-end rewards: the win bonus ("hand") or the whole reward ("game");
        "progress" pays its game end with the hand that ends the game."""
        if self.reward_mode == "progress" or (not final and self.reward_mode == "hand"):
            return
        returns = self.game.returns()
        if self.reward_mode == "game" or self.kind is not GameKind.BUCKEM:
            for a, r in zip(self.possible_agents, returns, strict=True):
                self.rewards[a] += float(r)

    # ----------------------------------------------------------------- render
    def _start_table(self) -> None:
        from .cli.table import Table

        names = [f"player_{i}" for i in range(self.players)]
        self._table = Table(self.game, names, self._lines.append, show_all=True)
        self._table.intro(f"{self.kind.title}, {self.players} players", ", ".join(names))
        self._table.hand_start()
        if self.game.phase is Phase.PLAY:
            self._table.announce_trump()

    def _narrate(self, seat: int, action: Action | None, before: Any) -> None:
        table = self._table
        if table is None or action is None:
            return
        was_play = self.game.phase is Phase.PLAY
        table.action(seat, action, before)
        if self.game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            table.hand_end()
        elif self.game.phase is Phase.PLAY and not was_play:
            table.announce_trump()

    def render(self) -> str | None:
        """The table narration since the last call: returned (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            logger.warn("render() was called without a render_mode (pass render_mode='ansi' or 'human')")
            return None
        text = "\n".join(self._lines)
        self._lines.clear()
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class TrickGameParallelEnv(ParallelEnv):  # type: ignore[misc]
    """The parallel-API view of :class:`TrickGameAECEnv`: each step applies the
    action of the seat to act; the other seats' actions are ignored."""

    def __init__(self, aec: TrickGameAECEnv) -> None:
        """Wrap ``aec``."""
        self.aec = aec
        self.metadata = aec.metadata
        self.possible_agents = aec.possible_agents
        self.render_mode = aec.render_mode
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """See :meth:`TrickGameAECEnv.observation_space`."""
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """See :meth:`TrickGameAECEnv.action_space`."""
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Start a new game: every agent's observation and info."""
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        """Apply the acting seat's action from ``actions``; the others are ignored."""
        aec = self.aec
        agent = aec._acting("step()")
        if not isinstance(actions, Mapping):
            raise OptionsError(f"actions must map agent names to action ids, not {shown(actions)}")
        if agent not in actions:
            raise IllegalAction(f"{agent} is to act but has no action in this step")
        aec.step(actions[agent])
        agents = self.agents
        obs = {a: aec.observe(a) for a in agents}
        rewards = {a: float(aec.rewards[a]) for a in agents}
        terms = {a: bool(aec.terminations[a]) for a in agents}
        truncs = {a: bool(aec.truncations[a]) for a in agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if all(terms[a] or truncs[a] for a in agents):
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        """See :meth:`TrickGameAECEnv.render`."""
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release."""
        self.aec.close()


HucklebuckAECEnv = TrickGameAECEnv
"""The former name of :class:`TrickGameAECEnv` (kept for compatibility)."""
HucklebuckParallelEnv = TrickGameParallelEnv
"""The former name of :class:`TrickGameParallelEnv` (kept for compatibility)."""


def raw_env(
    game: GameKind | str = "hucklebuck",
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> TrickGameAECEnv:
    """The AEC environment (same as :func:`env`; PettingZoo's naming)."""
    return TrickGameAECEnv(game, players, options, render_mode, **kwargs)


def env(
    game: GameKind | str = "hucklebuck",
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> TrickGameAECEnv:
    """An AEC environment for ``game`` (``"hucklebuck"``, ``"buckem"``, ``"deerpark"``).

    ``options`` are the game's variant options by name (as in
    ``HucklebuckGame(options=...)``); keyword arguments ``reward``, ``hands``,
    ``max_cycles``, ``illegal`` and ``illegal_reward`` are described in the module docs.

    >>> e = env("deerpark", players=3)
    >>> e.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = e.last()
    >>> int(obs["action_mask"].sum()) > 0
    True
    """
    return raw_env(game, players, options, render_mode, **kwargs)


def parallel_env(
    game: GameKind | str = "hucklebuck",
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> TrickGameParallelEnv:
    """The parallel-API environment for ``game`` (arguments as :func:`env`)."""
    return TrickGameParallelEnv(raw_env(game, players, options, render_mode, **kwargs))
