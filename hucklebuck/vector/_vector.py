""":class:`VectorGame`: many environments of one game stepped in one call."""

from __future__ import annotations

import secrets
import threading
from array import array
from collections.abc import Mapping
from typing import Any, Final, Generic, Literal, TypeVar, cast, overload

from .._core import backend
from .._core._py_eval import SplitMix64
from ..errors import OptionsError
from ..games import (
    BuckEmGame,
    BuckEmOptions,
    DeerParkGame,
    DeerParkOptions,
    HucklebuckGame,
    HucklebuckOptions,
)
from ..games.engine import TrickGame
from ..packs import GameKind
from ._common import (
    MAX_ENVS,
    Buffers,
    Lane,
    check_count,
    check_seat,
    check_seed,
    out_buffer,
    read_actions,
)
from ._pylane import PythonLane
from ._rewards import BUCKEM_HANDS, DEFAULT_REWARD, RewardMode, check_reward, warn_if_not_winning

__all__ = ["VectorGame"]

_CLASSES: Final[dict[GameKind, Any]] = {
    GameKind.HUCKLEBUCK: HucklebuckGame,
    GameKind.BUCKEM: BuckEmGame,
    GameKind.DEERPARK: DeerParkGame,
}
MAX_THREADS: Final = 64

G = TypeVar("G", bound=TrickGame[Any, Any])
_Opts = Mapping[str, Any] | None


class VectorGame(Generic[G]):
    """``num_envs`` environments of one game, stepped together (see :mod:`hucklebuck.vector`).

    ``game`` is ``"hucklebuck"``, ``"buckem"`` or ``"deerpark"`` (or a
    :class:`~hucklebuck.packs.GameKind`); ``players`` and ``options`` are those of
    the game class (same names, same checks).  Each environment is one episode:
    by default (``hands=None``) one whole game, to its target or elimination (a
    Buck 'Em session has no end: 10 rounds), or ``hands`` hands (Buck 'Em:
    rounds).  With the defaults (whole games, ``reward="progress"``) a
    game's rewards sum to its result, so a learner maximising them learns to win;
    episodes cut at ``hands`` hands, and ``reward="hand"`` in Deer Park Euchre,
    warn (:class:`~hucklebuck.vector.RewardWarning`) that they do not.  ``seed``
    (0..2**64-1; None: a random one, see :attr:`seed`) fixes every deal; ``threads`` native threads share the
    C lane's work.  ``reward`` is ``"progress"`` (the default), ``"hand"`` or
    ``"game"`` (see :attr:`rewards`).  The batch is dealt at once.

    The class is generic in its game class: ``VectorGame("deerpark", ...)`` is a
    ``VectorGame[DeerParkGame]``, whose :meth:`game` is a
    :class:`~hucklebuck.games.DeerParkGame` to a type checker too.
    """

    @overload
    def __init__(
        self: VectorGame[HucklebuckGame],
        game: Literal["hucklebuck", GameKind.HUCKLEBUCK],
        players: int,
        num_envs: int,
        *,
        options: HucklebuckOptions | _Opts = None,
        seed: int | None = None,
        hands: int | None = None,
        threads: int = 1,
        reward: RewardMode = DEFAULT_REWARD,
    ) -> None: ...

    @overload
    def __init__(
        self: VectorGame[BuckEmGame],
        game: Literal["buckem", GameKind.BUCKEM],
        players: int,
        num_envs: int,
        *,
        options: BuckEmOptions | _Opts = None,
        seed: int | None = None,
        hands: int | None = None,
        threads: int = 1,
        reward: RewardMode = DEFAULT_REWARD,
    ) -> None: ...

    @overload
    def __init__(
        self: VectorGame[DeerParkGame],
        game: Literal["deerpark", GameKind.DEERPARK],
        players: int,
        num_envs: int,
        *,
        options: DeerParkOptions | _Opts = None,
        seed: int | None = None,
        hands: int | None = None,
        threads: int = 1,
        reward: RewardMode = DEFAULT_REWARD,
    ) -> None: ...

    @overload
    def __init__(
        self: VectorGame[TrickGame[Any, Any]],
        game: GameKind | str,
        players: int,
        num_envs: int,
        *,
        options: Any = None,
        seed: int | None = None,
        hands: int | None = None,
        threads: int = 1,
        reward: str = DEFAULT_REWARD,
    ) -> None: ...

    def __init__(
        self,
        game: GameKind | str,
        players: int,
        num_envs: int,
        *,
        options: Any = None,
        seed: int | None = None,
        hands: int | None = None,
        threads: int = 1,
        reward: str = DEFAULT_REWARD,
    ) -> None:
        kind = GameKind.coerce(game)
        cls = _CLASSES[kind]
        n = check_count("num_envs", num_envs, 1, MAX_ENVS)
        if hands is not None:
            check_count("hands", hands, 1, (1 << 31) - 1)  # the C lane counts hands in 32 bits
        elif kind is GameKind.BUCKEM:
            hands = BUCKEM_HANDS  # a session has no end: episodes of 10 rounds, as PettingZoo's
        self._threads = check_count("threads", threads, 1, MAX_THREADS)
        mode = check_reward(reward, kind, hands)
        warn_if_not_winning(kind, hands, mode, stacklevel=3)
        seed = check_seed(seed)
        if options is not None and not isinstance(options, (Mapping, cls.options_type)):
            raise OptionsError(
                f"options must be {cls.options_type.__name__} or a mapping, not {type(options).__name__}"
            )
        proto = cls(players, options=options, seed=0)  # the game's own checks of players and options
        self._kind, self._cls, self._players, self._n = kind, cls, players, n
        self._options = proto.options
        self._hands = hands
        self._reward: RewardMode = mode
        self._buf = Buffers(n, players, proto.num_distinct_actions(), proto.observation_tensor_shape()[0])
        self._lane: Lane = self._pick_lane()
        self._seed = 0
        self._dealt = False
        # Every call on the batch takes its turn under this lock, except sample_legal and step on the
        # C lane, which are one C call each (the lane's ``fast``): taking and leaving a lock cost some
        # 0.2 us, as much as the rest of a step of a few tables.  The pool's own lock makes those calls
        # take turns with all others, they read or change no Python state of the batch, and copy()
        # takes the states and every output in one C call.
        self._lock = threading.RLock()
        self.reset(seed)

    def _pick_lane(self) -> Lane:
        if backend() == "c":
            from . import _clane

            if _clane.covers(self._kind, self._players, self._options, self._hands):
                lane: Lane = _clane.CLane(
                    self._kind,
                    self._players,
                    self._options,
                    self._hands,
                    self._reward,
                    self._buf,
                    self._threads,
                )
                return lane
        return PythonLane(self._cls, self._players, self._options, self._hands, self._reward, self._buf)

    # ------------------------------------------------------------ the batch
    def reset(self, seed: int | None = None) -> None:
        """Deal every environment afresh.

        With ``seed``, every environment starts again from that seed (episode 0);
        without, each environment deals its next episode, as an auto-reset does
        (episode ``k`` of environment ``i`` deals from
        :func:`~hucklebuck.vector.deal_state` ``(seed, i, k)``).
        """
        seed = check_seed(seed)
        with self._lock:
            fresh = seed is not None or not self._dealt
            if seed is None and fresh:
                seed = secrets.randbits(64)
            if seed is not None:
                self._seed = seed
            self._lane.reset(self._seed, fresh)
            self._dealt = True

    def step(self, actions: object) -> None:
        """Apply one action id per environment (a buffer or sequence of ``num_envs`` ints).

        The whole batch is checked first: an id the rules forbid raises
        :class:`~hucklebuck.errors.IllegalAction` naming the environment and the
        id, an id outside the game's range :class:`~hucklebuck.errors.ActionParseError`,
        and then no environment has changed.  An environment whose episode ended
        at the previous step (:attr:`terminated`) ignores its id and is dealt its
        next episode instead (auto-reset).
        """
        fast = self._lane.fast
        if fast is not None and fast.step(actions):  # the C lane in one C call (no lock: see __init__)
            return
        # anything else: another lane, another kind of ids, or an error (the fast call changed
        # nothing), which the same call here raises with its message
        mv, vals = read_actions(actions, self._n)
        with self._lock:
            self._lane.step(mv, vals)

    # -------------------------------------------------------------- buffers
    @property
    def current_player(self) -> memoryview:
        """int16 ``[num_envs]``: the seat to act in each environment (-1 when terminated)."""
        return self._buf.cp_view.toreadonly()

    @property
    def legal_mask(self) -> memoryview:
        """int8 ``[num_envs, num_distinct_actions]``: 1 for each legal id (the ids of
        :meth:`~hucklebuck.games.engine.TrickGame.legal_action_ids`; all 0 where the episode
        has just ended).  int8 as the PettingZoo environments' ``action_mask`` (and
        Gymnasium's masks)."""
        return self._buf.mask_view.toreadonly()

    @property
    def rewards(self) -> memoryview[float]:
        """float32 ``[num_envs, players]``: what the last step (or reset) paid each seat.

        ``reward="progress"`` (the default, as in the PettingZoo environments and
        the OpenSpiel games): at each hand's end each seat's move toward its goal
        (Hucklebuck: the target; Deer Park Euchre: the nearer of 0 and 50) over the
        distance every seat starts at; the hand that ends a game pays 1.0 to each
        winner less what the seat's earlier hands were paid, so a whole game's
        rewards sum to its result (1.0 to each winner, 0.0 to the others).  Buck
        'Em: the chips won or lost in each round.
        ``reward="hand"``: at each hand's end every seat's score change in it (Deer
        Park Euchre: its fall), plus 1.0 to each winner of a won Hucklebuck or Deer
        Park game.
        ``reward="game"`` (the :meth:`~hucklebuck.games.engine.TrickGame.returns`
        convention): 0 except at the step that ends an episode, which pays the
        game's ``returns()`` then (1.0 to each winner of a won Hucklebuck or Deer
        Park game, else 0; Buck 'Em: chips won or lost over the episode).
        See :doc:`/agents` for what each teaches.
        """
        return self._buf.rewards_view.toreadonly()

    @property
    def terminated(self) -> memoryview:
        """uint8 ``[num_envs]``: 1 where the last step ended the episode by ending the
        game (Buck 'Em, whose session has no end: by playing the episode's rounds)."""
        return self._buf.term_view.toreadonly()

    @property
    def truncated(self) -> memoryview:
        """uint8 ``[num_envs]``: 1 where the last step ended the episode by cutting it at
        ``hands`` hands of a game that was not over (Gymnasium's and PettingZoo's
        ``truncated``: the game could go on, so a learner should bootstrap there, not
        take its value as final).  An episode ends one way: :attr:`terminated` or this."""
        return self._buf.trunc_view.toreadonly()

    @property
    def winners(self) -> memoryview:
        """uint8 ``[num_envs, players]``: 1 for each seat that won the game ended by the last
        step (where :attr:`terminated` is 1 in Hucklebuck and Deer Park Euchre), 0 elsewhere:
        a game still going, an episode cut at ``hands`` hands (:attr:`truncated`), a Buck 'Em
        session (which has no winner).  Whatever the ``reward`` mode.

        Read when asked, not updated in place by :meth:`step` as the other buffers are: each
        read is a new read-only buffer of the batch as it is then.
        """
        with self._lock:
            bits = self._lane.winners()
        p = self._players
        rows = bytes((b >> s) & 1 for b in bits for s in range(p))
        return memoryview(rows).cast("B", (self._n, p))

    def observation_tensor(self, out: object = None, *, seat: int | None = None) -> memoryview[float]:
        """float32 ``[num_envs, T]``: each environment's observation tensor, byte for byte
        :meth:`~hucklebuck.games.engine.TrickGame.observation_tensor` of the acting seat
        (all 0 where nobody acts), or of ``seat`` in every environment.  With ``out``
        (a writable C-contiguous float32 buffer of ``num_envs * T`` items) it is
        written there and a view of ``out`` is returned.
        """
        s = check_seat(seat, self._players)
        size = self._buf.tensor
        target: memoryview[Any]
        if out is None:
            target = memoryview(bytearray(4 * self._n * size)).cast("f")
        else:
            target = out_buffer(out, self._n, size)
        with self._lock:
            self._lane.tensor(target, s)
        return target.cast("B").cast("f", (self._n, size))

    def sample_legal(self, seed: int) -> array[int]:
        """A uniformly random legal id per environment (``array('i')``; -1 where terminated).

        Environment ``i`` draws from splitmix64 started at ``seed ^ (i *
        0xD6E8FEB86659FD93)`` (mod 2**64): the same ids on both lanes.
        """
        fast = self._lane.fast
        if fast is not None:  # the C lane in one C call, no lock (None: not the plain call)
            out: array[int] | None = fast.sample(seed)
            if out is not None:
                return out
        s = check_seed(seed)
        if s is None:
            raise OptionsError("sample_legal needs an integer seed 0 to 2**64-1")
        with self._lock:
            return self._lane.sample(s)

    def game(self, i: int) -> G:
        """Environment ``i`` as an ordinary game object in exactly its state (a new object)."""
        check_count("the environment index", i, 0, self._n - 1)
        with self._lock:
            return cast(G, self._lane.game(i))

    def stream(self, i: int) -> SplitMix64:
        """A new :class:`~hucklebuck.evaluate.SplitMix64` (a :class:`random.Random`) in the
        state environment ``i``'s current episode started from (its ``getstate()[1]`` is
        :func:`~hucklebuck.vector.deal_state` ``(seed, i, episode)``):
        ``GameClass(players, options=options, rng=vg.stream(i))`` driven by the ids
        applied since is :meth:`game` ``(i)``."""
        check_count("the environment index", i, 0, self._n - 1)
        with self._lock:
            return self._lane.stream(i)

    def copy(self) -> VectorGame[G]:
        """An independent copy of the whole batch (on the C lane one memory copy), taken
        between two calls of other threads, never during one."""
        with self._lock:
            new: VectorGame[G] = object.__new__(VectorGame)
            new.__dict__.update(self.__dict__)
            new._lock = threading.RLock()
            new._buf = self._buf.copy()
            new._lane = self._lane.copy(new._buf)
        return new

    def close(self) -> None:
        """Stop the C lane's worker threads (they also stop when the batch is collected).

        The batch stays usable: later calls run in the calling thread.  A call
        running in another thread ends first."""
        with self._lock:
            self._lane.close()

    # -------------------------------------------------------------- queries
    @property
    def lane(self) -> str:
        """``"c"`` when the C state machine steps this batch, ``"python"`` when game objects do
        (the Python core; a Buck 'Em batch whose rounds could take its chips past 64 bits)."""
        return self._lane.name

    @property
    def seed(self) -> int:
        """The batch seed of the last seeded reset (see :func:`~hucklebuck.vector.env_seed`)."""
        return self._seed

    @property
    def episodes(self) -> tuple[int, ...]:
        """Each environment's episode number since the last seeded reset (from 0)."""
        with self._lock:
            return tuple(self._lane.episodes())

    @property
    def num_envs(self) -> int:
        """The number of environments."""
        return self._n

    @property
    def players(self) -> int:
        """Seats per environment."""
        return self._players

    @property
    def kind(self) -> GameKind:
        """The game."""
        return self._kind

    @property
    def options(self) -> Any:
        """The variant options (the game class's options type)."""
        return self._options

    @property
    def reward(self) -> RewardMode:
        """The reward mode (``"progress"``, ``"hand"`` or ``"game"``)."""
        return self._reward

    @property
    def hands(self) -> int | None:
        """Hands per episode (None: whole games)."""
        return self._hands

    @property
    def threads(self) -> int:
        """Native threads the C lane splits the environments across."""
        return self._threads

    def thread_times(self) -> tuple[tuple[float, int], ...]:
        """Per native thread of the C lane, the calling thread first: the seconds it
        has spent working on this batch's calls and the environments it handled
        (each call counts every environment once; a step on more than one thread
        counts it twice, once as its id is checked and once as it is applied), since
        the batch was made.  The environments go to whichever thread is free, so on
        a busy machine the split shows how much a second thread really helped.  Empty on the Python lane.
        """
        with self._lock:
            return tuple(self._lane.busy())

    @property
    def num_distinct_actions(self) -> int:
        """The game's id-space size (columns of :attr:`legal_mask`)."""
        return self._buf.actions

    @property
    def tensor_size(self) -> int:
        """``T``, the length of one observation tensor."""
        return self._buf.tensor

    def __repr__(self) -> str:
        return (
            f"<VectorGame {self._kind.value} players={self._players} num_envs={self._n} "
            f"hands={self._hands} lane={self.lane}>"
        )
