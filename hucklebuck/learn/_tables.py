"""Tables where the learner meets fixed opponents: the batched lane's buffers over game objects.

:class:`OpponentTables` holds ``num_envs`` whole games; in each, some seats are
the learner's and the others are played by a library player (``"heuristic"``,
``"random"``, ...).  It shows the interface of
:class:`~hucklebuck.vector.VectorGame` that the trainer uses
(``current_player``, ``legal_mask``, ``rewards``, ``terminated``,
``truncated``, ``observation_tensor(out=)``, ``step``): only the learner's
decisions surface, the opponents' moves are made inside :meth:`step`, and the
rewards they trigger (``reward="progress"``: each hand's progress, the result
at the game's end) are summed into the step that surfaces next.  The learner's
seats change from game to game, so it plays every position.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..errors import OptionsError
from ..games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase
from ..packs import GameKind
from ..players import make_player
from ..vector._rewards import progress_rewards

__all__ = ["OpponentTables"]

_CLASSES: dict[GameKind, Any] = {
    GameKind.HUCKLEBUCK: HucklebuckGame,
    GameKind.DEERPARK: DeerParkGame,
    GameKind.BUCKEM: BuckEmGame,
}


class OpponentTables:
    """``num_envs`` whole games of ``kind``, the learner in half the seats (rounded down, at least one)."""

    def __init__(self, kind: GameKind, players: int, num_envs: int, opponent: str, seed: int = 0) -> None:
        if kind is GameKind.BUCKEM:
            raise OptionsError("opponent tables play whole games: Hucklebuck or Deer Park, not Buck 'Em")
        self.kind, self.players, self.num_envs = kind, players, num_envs
        self._cls = _CLASSES[kind]
        self._rng = random.Random(seed)
        self._opponent = make_player(opponent, kind, seed=seed)
        proto = self._cls(players, seed=0)
        self.num_distinct_actions = proto.num_distinct_actions()
        self.tensor_size = proto.observation_tensor_shape()[0]
        self._mask = np.zeros((num_envs, self.num_distinct_actions), np.int8)
        self._cp = np.full(num_envs, -1, np.int16)
        self._rewards = np.zeros((num_envs, players), np.float32)
        self._term = np.zeros(num_envs, np.uint8)
        self._trunc = np.zeros(num_envs, np.uint8)
        self._games: list[Any] = [None] * num_envs
        self._mine: list[frozenset[int]] = [frozenset()] * num_envs
        self.games_played = 0
        self.hands_played = 0
        for i in range(num_envs):
            self._deal(i)
            self._advance(i)

    # the buffers, as VectorGame names them
    @property
    def current_player(self) -> np.ndarray:
        """int16 ``[num_envs]``: the learner's seat to act (-1 where the game just ended)."""
        return self._cp

    @property
    def legal_mask(self) -> np.ndarray:
        """int8 ``[num_envs, A]``: the learner's legal ids."""
        return self._mask

    @property
    def rewards(self) -> np.ndarray:
        """float32 ``[num_envs, players]``: what was paid since the previous step."""
        return self._rewards

    @property
    def terminated(self) -> np.ndarray:
        """uint8 ``[num_envs]``: 1 where the game ended in the last step."""
        return self._term

    @property
    def truncated(self) -> np.ndarray:
        """uint8 ``[num_envs]``: always 0 (whole games)."""
        return self._trunc

    def learner_seats(self, i: int) -> frozenset[int]:
        """The learner's seats at table ``i``."""
        return self._mine[i]

    def observation_tensor(self, out: np.ndarray, seat: int | None = None) -> np.ndarray:
        """Each table's tensor of the seat to act (or of ``seat``) into ``out``."""
        for i, game in enumerate(self._games):
            s = int(self._cp[i]) if seat is None else seat
            if s < 0:
                out[i] = 0.0
            else:
                out[i] = np.frombuffer(game.observation_tensor(s), dtype=np.float32)
        return out

    def step(self, actions: np.ndarray) -> None:
        """Apply the learner's id at each table, then the opponents' moves up to its next decision."""
        self._rewards[:] = 0.0
        for i in range(self.num_envs):
            if self._term[i]:
                self._term[i] = 0
                self._deal(i)
            else:
                self._games[i].apply_id(int(actions[i]))
            self._advance(i)

    # ----------------------------------------------------------- internals
    def _deal(self, i: int) -> None:
        self._games[i] = self._cls(self.players, rng=self._rng)
        first = self._rng.randrange(self.players)
        count = max(1, self.players // 2)
        self._mine[i] = frozenset((first + k * (self.players // count)) % self.players for k in range(count))

    def _advance(self, i: int) -> None:
        game, mine = self._games[i], self._mine[i]
        while True:
            phase = game.phase
            if phase is Phase.HAND_OVER or phase is Phase.GAME_OVER:
                self._rewards[i] += progress_rewards(self.kind, game)
                self.hands_played += 1
                if phase is Phase.GAME_OVER:
                    self._term[i] = 1
                    self._cp[i] = -1
                    self._mask[i] = 0
                    self.games_played += 1
                    return
                game.next_hand()
                continue
            seat = game.to_act
            if seat in mine:
                self._cp[i] = seat
                self._mask[i] = 0
                self._mask[i, list(game.legal_action_ids())] = 1
                return
            game.apply(self._opponent.choose(game.observation(seat)))
