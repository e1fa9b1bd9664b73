"""What both lanes of :class:`~hucklebuck.vector.VectorGame` share: the seed
derivation, argument checks, the buffers and the lane interface."""

from __future__ import annotations

import abc
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from .._core._py_eval import GAMMA, SplitMix64, _mix
from ..errors import ActionParseError, OptionsError, SeatError

if TYPE_CHECKING:
    from .._hbcall import VecCalls
    from ..games.engine import TrickGame

__all__ = ["MAX_ENVS", "Buffers", "Lane", "deal_state", "env_seed", "read_actions", "sample_seed_state"]

MAX_ENVS: Final = 1 << 20
"""The most environments one :class:`VectorGame` holds (1,048,576)."""
M64: Final = (1 << 64) - 1
_INT_FORMATS: Final = frozenset("bBhHiIlLqQnN")
DEAL_MIX: Final = 0xC2B2AE3D27D4EB4F
"""Environment ``env``'s deals start from ``(seed ^ (env * DEAL_MIX)) mod 2**64`` (:func:`env_seed`)."""
SAMPLE_MIX: Final = 0xD6E8FEB86659FD93
"""``sample_legal(seed)``: environment ``i`` draws from splitmix64 started at
``(seed ^ (i * SAMPLE_MIX)) mod 2**64``."""


def env_seed(seed: int, env: int) -> int:
    """The seed of environment ``env``'s deals in a batch seeded ``seed``:
    ``(seed ^ (env * DEAL_MIX)) mod 2**64``, with ``DEAL_MIX = 0xC2B2AE3D27D4EB4F``.

    Episode ``k`` of the environment deals from its own splitmix64 stream, started
    at output ``k`` of splitmix64 started at this seed (:func:`deal_state`).
    """
    return (seed ^ (env * DEAL_MIX)) & M64


def deal_state(seed: int, env: int, episode: int) -> int:
    """The splitmix64 state episode ``episode`` of environment ``env`` (in a batch
    seeded ``seed``) deals from: output ``episode`` of splitmix64 started at
    :func:`env_seed`.  ``GameClass(players, options=options,
    rng=SplitMix64(deal_state(seed, env, episode)))`` driven by the episode's ids is
    the episode (:class:`~hucklebuck.evaluate.SplitMix64`; see
    :meth:`~hucklebuck.vector.VectorGame.stream`)."""
    return _mix((env_seed(seed, env) + (episode + 1) * GAMMA) & M64)


def sample_seed_state(seed: int, env: int) -> int:
    """The splitmix64 state environment ``env`` draws ``sample_legal(seed)`` from."""
    return (seed ^ (env * SAMPLE_MIX)) & M64


def read_actions(actions: object, n: int) -> tuple[memoryview | None, list[int] | None]:
    """``actions`` as a one-dimensional integer memoryview of length ``n`` (a buffer),
    or as a list of ``n`` ints (a sequence); ActionParseError otherwise."""
    if type(actions) is array and actions.typecode in _INT_FORMATS and len(actions) == n:
        return memoryview(actions), None  # the usual case (sample_legal's ids): nothing to convert
    try:
        mv = memoryview(actions)  # type: ignore[arg-type]
    except TypeError:
        mv = None
    if mv is not None:
        fmt = mv.format[1:] if mv.format[:1] in ("@", "=") else mv.format
        if fmt not in _INT_FORMATS:
            raise ActionParseError(
                "actions must be a buffer of native integers (one id per environment), "
                f"not format {mv.format!r}"
            )
        if mv.ndim != 1:
            raise ActionParseError(f"actions must be one-dimensional, not of shape {mv.shape}")
        if len(mv) != n:
            raise ActionParseError(f"actions must hold one id per environment ({n}), not {len(mv)}")
        cast: Any = memoryview.cast  # the format is only known at run time
        if not mv.c_contiguous:
            mv = cast(memoryview(mv.tobytes()), fmt)
        elif fmt != mv.format:
            mv = cast(mv.cast("B"), fmt)
        return mv, None
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
        raise ActionParseError(
            f"actions must be a buffer or a sequence of integers, not {type(actions).__name__}"
        )
    vals = list(actions)
    if len(vals) != n:
        raise ActionParseError(f"actions must hold one id per environment ({n}), not {len(vals)}")
    for i, v in enumerate(vals):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ActionParseError(f"environment {i}: an action id must be an integer, not {v!r}"[:200])
    return None, vals


def check_count(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``, or OptionsError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionsError(f"{name} must be an integer, not {value!r}"[:200])
    if not low <= value <= high:
        raise OptionsError(f"{name} must be {low} to {high:,}, not {value:,}")
    return value


def check_seed(seed: object) -> int | None:
    """A batch seed: None or an int 0..2**64-1."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= M64:
        raise OptionsError(f"seed must be None or an integer 0 to 2**64-1, not {seed!r}"[:200])
    return seed


def check_seat(seat: object, players: int) -> int | None:
    """A tensor seat: None (the acting seat) or 0..players-1."""
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise SeatError(f"seat must be None or a seat 0..{players - 1}, not {seat!r}"[:200])
    return seat


class Buffers:
    """The batch's output buffers (one allocation each, updated in place)."""

    def __init__(self, n: int, players: int, actions: int, tensor: int) -> None:
        self.n, self.players, self.actions, self.tensor = n, players, actions, tensor
        self.cp = bytearray(2 * n)
        self.mask = bytearray(n * actions)
        self.rewards = bytearray(4 * n * players)
        self.term = bytearray(n)
        self.trunc = bytearray(n)
        self.views()

    def views(self) -> None:
        """(Re)build the typed views over the buffers."""
        n = self.n
        self.cp_view = memoryview(self.cp).cast("h")
        self.mask_view = memoryview(self.mask).cast("b", (n, self.actions))  # int8, as Gymnasium masks
        self.rewards_view = memoryview(self.rewards).cast("f", (n, self.players))
        self.rewards_flat = memoryview(self.rewards).cast("f")
        self.term_view = memoryview(self.term)
        self.trunc_view = memoryview(self.trunc)

    def copy(self) -> Buffers:
        """Independent copies of every buffer."""
        new = object.__new__(Buffers)
        new.n, new.players, new.actions, new.tensor = self.n, self.players, self.actions, self.tensor
        new.cp, new.mask = bytearray(self.cp), bytearray(self.mask)
        new.rewards, new.term = bytearray(self.rewards), bytearray(self.term)
        new.trunc = bytearray(self.trunc)
        new.views()
        return new


def out_buffer(out: object, n: int, size: int) -> memoryview[Any]:
    """The caller's ``out`` as a writable flat float32 memoryview of ``n * size`` items."""
    try:
        mv = memoryview(out)  # type: ignore[arg-type]
    except TypeError:
        raise OptionsError(f"out must be a writable float32 buffer, not {type(out).__name__}") from None
    if mv.readonly:
        raise OptionsError("out must be a writable buffer (this one is read-only)")
    if mv.format not in ("f", "@f", "=f", "<f") or mv.itemsize != 4:
        raise OptionsError(f"out must hold float32 items, not format {mv.format!r}")
    if not mv.c_contiguous:
        raise OptionsError("out must be C-contiguous")
    if mv.nbytes != 4 * n * size:
        raise OptionsError(f"out must hold {n} x {size} = {n * size:,} floats, not {mv.nbytes // 4:,}")
    return mv.cast("B").cast("f")


class Lane(abc.ABC):
    """One way of stepping the batch (the game objects, or the C state machine)."""

    name: str
    fast: VecCalls | None = None
    """The C lane's ``sample_legal`` and ``step`` in one C call each (a ``VecCalls`` of
    :mod:`hucklebuck._hbcall`: ``fast.sample(seed)``, ``fast.step(actions)``, each None when it
    is not the plain call), or None (none on this lane)."""

    @abc.abstractmethod
    def reset(self, seed: int, fresh: bool) -> None:
        """Deal a new episode everywhere (``fresh``: episode 0 of streams seeded from
        ``seed``; else each environment's next episode) and fill the buffers."""

    @abc.abstractmethod
    def step(self, mv: memoryview | None, vals: list[int] | None) -> None:
        """Check the whole batch (raising, changing nothing), then apply it."""

    @abc.abstractmethod
    def tensor(self, out: memoryview[Any], seat: int | None) -> None:
        """Write every environment's tensor into ``out`` (flat float32)."""

    @abc.abstractmethod
    def sample(self, seed: int) -> array[int]:
        """A uniformly random legal id per environment (-1 where it is terminated)."""

    @abc.abstractmethod
    def game(self, i: int) -> TrickGame[Any, Any]:
        """Environment ``i`` as a game object."""

    @abc.abstractmethod
    def episodes(self) -> list[int]:
        """Each environment's episode number."""

    @abc.abstractmethod
    def winners(self) -> bytes:
        """Each environment's winning seats as bits (seat s: bit s) while its game is over, else 0."""

    @abc.abstractmethod
    def stream(self, i: int) -> SplitMix64:
        """The random source environment ``i``'s current episode started from."""

    @abc.abstractmethod
    def copy(self, buffers: Buffers) -> Lane:
        """An independent copy writing into ``buffers``."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release threads, if any."""

    def busy(self) -> list[tuple[float, int]]:
        """Per native thread (the calling one first): seconds spent on the batch's
        calls and environments handled (none on a lane without threads)."""
        return []
