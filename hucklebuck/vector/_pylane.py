"""The pure-Python lane of :class:`~hucklebuck.vector.VectorGame`: one game object
per environment (the engine itself, so it is the C lane's exact twin)."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any, Final

from .._core._py_eval import GAMMA, M64, SplitMix64, _mix
from ..errors import ActionParseError, IllegalAction
from ..games.base import Phase
from ..games.engine import TrickGame
from ..packs import GameKind
from ._common import Buffers, Lane, deal_state, sample_seed_state
from ._rewards import progress_rewards

__all__ = ["PythonLane"]

_HAND_OVER: Final = Phase.HAND_OVER
_GAME_OVER: Final = Phase.GAME_OVER


def _below(state: int, n: int) -> int:
    """``SplitMix64(state).below(n)`` (the C core's ``hb_rng_below``), without the object."""
    if n <= 1:
        return 0
    shift = 64 - n.bit_length()
    while True:
        state = (state + GAMMA) & M64
        r = _mix(state) >> shift
        if r < n:
            return r


def _copy_game(game: TrickGame[Any, Any]) -> TrickGame[Any, Any]:
    """``game.copy()``, each of the two games then holding a :class:`SplitMix64` of its own in the
    same state (a copy shares its random source until one deals, and the engine would then take the
    source's state as a :class:`random.Random`'s)."""
    new = game.copy()
    for g in (game, new):
        g._rng = SplitMix64(g.__dict__["_rng_obj"].getstate()[1])
    return new


class PythonLane(Lane):
    """Drives ``num_envs`` game objects with the same ids as the C lane."""

    name = "python"

    def __init__(
        self,
        cls: Callable[..., TrickGame[Any, Any]],
        players: int,
        options: Any,
        hands: int | None,
        reward: str,
        buffers: Buffers,
    ) -> None:
        self.cls, self.players, self.options, self.hands = cls, players, options, hands
        self.reward = reward
        self.buf = buffers
        self.kind: GameKind = cls.kind  # type: ignore[attr-defined]
        self.seed = 0
        n = buffers.n
        self.games: list[TrickGame[Any, Any]] = []
        self.starts: list[Any] = [None] * n  # each stream's state before the episode's first deal
        self.eps: list[int] = [0] * n
        self.done: list[int] = [0] * n  # hands finished in the current episode
        self.legal: list[list[int]] = [[] for _ in range(n)]  # each table's legal ids, ascending
        self.zero_row = bytes(buffers.actions)
        self.zero_rewards = bytes(4 * buffers.players)

    # ----------------------------------------------------------------- set-up
    def _new_game(self, i: int) -> TrickGame[Any, Any]:
        """Environment ``i``'s episode ``self.eps[i]``, dealt from its own stream."""
        start = self.starts[i] = deal_state(self.seed, i, self.eps[i])
        return self.cls(self.players, options=self.options, rng=SplitMix64(start))

    def reset(self, seed: int, fresh: bool) -> None:
        n = self.buf.n
        if fresh:
            self.seed = seed
            self.eps = [0] * n
        else:
            self.eps = [e + 1 for e in self.eps]
        self.done = [0] * n
        self.games = [self._new_game(i) for i in range(n)]
        self.buf.rewards[:] = bytes(len(self.buf.rewards))
        self.buf.term[:] = bytes(n)
        self.buf.trunc[:] = bytes(n)
        for i in range(n):
            self._settle(i, self.games[i])
            self._write(i)

    def episodes(self) -> list[int]:
        return list(self.eps)

    def winners(self) -> bytes:
        out = bytearray(self.buf.n)
        for i, game in enumerate(self.games):
            if game.phase is _GAME_OVER:
                for s in game.winners:
                    out[i] |= 1 << s
        return bytes(out)

    def stream(self, i: int) -> SplitMix64:
        return SplitMix64(self.starts[i])

    def copy(self, buffers: Buffers) -> PythonLane:
        new = object.__new__(PythonLane)
        new.__dict__.update(self.__dict__)
        new.buf = buffers
        new.games = [_copy_game(g) for g in self.games]
        new.eps = self.eps[:]
        new.starts = self.starts[:]
        new.legal = self.legal[:]
        new.done = self.done[:]
        return new

    # ------------------------------------------------------------------ steps
    def _settle(self, i: int, game: TrickGame[Any, Any]) -> None:
        """After a deal or an action: count finished hands, end the episode or deal on."""
        rew = self.buf.rewards_flat
        p = self.players
        while True:
            phase = game.phase
            if phase is not _HAND_OVER and phase is not _GAME_OVER:
                return
            self.done[i] += 1
            if self.reward == "progress":
                for s, x in enumerate(progress_rewards(self.kind, game)):
                    rew[i * p + s] += x
            elif self.reward == "hand":
                sign = -1.0 if self.kind is GameKind.DEERPARK else 1.0
                for s, d in enumerate(game.hand_returns()):
                    rew[i * p + s] += sign * d
                if phase is _GAME_OVER and self.kind is not GameKind.BUCKEM:
                    for s in game.winners:
                        rew[i * p + s] += 1.0
            if phase is _GAME_OVER or (self.hands is not None and self.done[i] >= self.hands):
                if self.reward == "game":
                    for s, r in enumerate(game.returns()):
                        rew[i * p + s] += r
                if phase is _GAME_OVER or self.kind is GameKind.BUCKEM:
                    self.buf.term[i] = 1
                else:  # cut at ``hands`` hands of a game not over
                    self.buf.trunc[i] = 1
                return
            game.next_hand()

    def _write(self, i: int) -> None:
        """Current player and legal mask of environment ``i``."""
        buf = self.buf
        a = buf.actions
        mask = buf.mask
        mask[i * a : (i + 1) * a] = self.zero_row
        if buf.term[i] or buf.trunc[i]:
            buf.cp_view[i] = -1
            self.legal[i] = []
            return
        game = self.games[i]
        seat = game.to_act
        buf.cp_view[i] = -1 if seat is None else seat
        base = i * a
        ids = self.legal[i] = game.legal_action_ids()
        for k in ids:
            mask[base + k] = 1

    def step(self, mv: memoryview | None, vals: list[int] | None) -> None:
        acts = vals if vals is not None else mv.tolist()  # type: ignore[union-attr]
        buf = self.buf
        a = buf.actions
        mask, term, trunc = buf.mask, buf.term, buf.trunc
        for i, k in enumerate(acts):  # the whole batch first: nothing changes on error
            if term[i] or trunc[i]:
                continue
            if not 0 <= k < a:
                raise ActionParseError(
                    f"environment {i}: {k} is not an action id of {self.kind.title} (0..{a - 1})"
                )
            if not mask[i * a + k]:
                why = self._describe(i, k)
                raise IllegalAction(f"environment {i}: action id {k} is not legal now ({why})")
        buf.rewards[:] = bytes(len(buf.rewards))
        games = self.games
        for i, k in enumerate(acts):
            if term[i] or trunc[i]:  # auto-reset: the next episode, from the environment's own seed
                term[i] = trunc[i] = 0
                self.eps[i] += 1
                self.done[i] = 0
                game = games[i] = self._new_game(i)
            else:
                game = games[i]
                game.apply_id(k)
            self._settle(i, game)
            self._write(i)

    def _describe(self, i: int, k: int) -> str:
        game = self.games[i]
        try:
            _copy_game(game).apply_id(k)
        except IllegalAction as exc:
            return str(exc)
        return "refused"  # pragma: no cover - the mask and the game agree

    # ---------------------------------------------------------------- queries
    def tensor(self, out: memoryview[Any], seat: int | None) -> None:
        size = self.buf.tensor
        raw = out.cast("B")
        zero = bytes(4 * size)
        for i, game in enumerate(self.games):
            s = seat
            if s is None:
                s = -1 if self.buf.term[i] or self.buf.trunc[i] else game.to_act
            at = 4 * size * i
            if s is None or s < 0:
                raw[at : at + 4 * size] = zero
            else:
                raw[at : at + 4 * size] = memoryview(game.observation_tensor(s)).cast("B")

    def sample(self, seed: int) -> array[int]:
        out = array("i", [-1]) * self.buf.n
        for i, ids in enumerate(self.legal):
            if ids:
                out[i] = ids[_below(sample_seed_state(seed, i), len(ids))]
        return out

    def close(self) -> None:
        """Nothing to release."""

    def game(self, i: int) -> TrickGame[Any, Any]:
        return self.games[i].copy()
