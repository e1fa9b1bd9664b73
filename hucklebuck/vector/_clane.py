"""The C lane of :class:`~hucklebuck.vector.VectorGame`: the state machine of
``csrc/hb_vec*.c``, one call per step for the whole batch (or for each thread's
slice, the GIL released).

Covered: every game, option and player count; Buck 'Em when its episodes
provably keep every chip count within the state machine's 64-bit integers
(:func:`buckem_chips_fit`; otherwise the batch runs on the Python lane).
"""

from __future__ import annotations

import mmap
import weakref
from array import array
from typing import TYPE_CHECKING, Any, Final

from .._core._py_eval import SplitMix64
from .._fast import compiled
from ..errors import ActionParseError, CoreInputError, HucklebuckError, IllegalAction
from ..games import (
    BuckEmGame,
    BuckEmOptions,
    DeerParkGame,
    DeerParkOptions,
    HucklebuckGame,
    HucklebuckOptions,
)
from ..games.base import Phase
from ..games.buckem import OddChip, RakeHand, RakeRounding, ShortHandedTrump, Split
from ..games.deerpark import DeerParkTieBreak, EightPlayerTurnup, FirstLead
from ..games.engine import TrickGame
from ..games.hucklebuck import AllPass, ExchangeOrder, InTheHoleReset, LoneMoonBidder, MoonAtZero, TieBreak
from ..packs import GameKind
from ._common import Buffers, Lane

if TYPE_CHECKING:
    from .._hbcall import VecCalls

__all__ = ["VERSION", "CLane", "buckem_chips_fit", "covers"]

VERSION: Final = 8
"""The interface version of ``csrc/hb_vec.h`` this module speaks."""

try:
    from .._hbc import ffi as _ffi_typed
    from .._hbc import lib as _lib_typed

    # The batched lane's declarations are not in the typed stub of the binding:
    # every value crossing it is converted with int() / bytes() here.
    _lib: Any = _lib_typed
    _ffi: Any = _ffi_typed
    # A module built from other sources than these (a stale build) leaves the batch to the Python lane.
    _HAVE = (
        hasattr(_lib, "hb_vec_version")
        and int(_lib.hb_vec_version()) == VERSION
        and hasattr(_lib, "hb_vec_pool_new")
        and hasattr(_lib, "hb_vec_pool_close")
        and hasattr(_lib, "hb_vec_pool_winners")
    )
except ImportError:  # pragma: no cover - only without the compiled module
    _HAVE = False

_ERRORS: Final = {
    -40: "a configuration the C lane does not cover",
    -41: "a buffer whose length does not match the batch",
    -44: "an environment whose state is not valid",
    -45: "a seat out of range",
    -46: "an environment index out of range",
    -47: "an episode longer than the C lane's action log (1,024 ids)",
    -17: "memory for a copy of the ids could not be allocated",
}
_DP_FLAGS: Final = (
    ("club_turnup_pickup", 1),
    ("round2_excludes_turned_suit", 2),
    ("failed_contract_tricks_count", 4),
    ("lock_permanent", 16),
)
_SIGNED: Final = frozenset("bhilqn")
_from: Any = _ffi.from_buffer if _HAVE else None  # (one attribute look-up fewer per call)


def _address(cdata: Any) -> int:
    return int(_ffi.cast("uintptr_t", cdata))


def _fast_calls(lane: CLane) -> VecCalls | None:
    """The lane's ``VecCalls`` of :mod:`hucklebuck._hbcall` (its methods ``sample`` and ``step``):
    the pool's two functions called from C, with none of the Python and argument conversions
    of :meth:`CLane.sample` and :meth:`CLane.step`.  None when the module is not built.  The
    object holds the addresses of the lane's own cffi objects, so only the lane keeps it."""
    ext = compiled()
    if ext is None:
        return None
    calls: VecCalls = ext.vec_calls(
        _address(_ffi.addressof(_lib, "hb_vec_pool_sample")),
        _address(_ffi.addressof(_lib, "hb_vec_pool_step")),
        _address(lane.pool),
        _address(lane.cfg),
        _address(lane.envs),
        lane.env_bytes,
        lane.n,
        _address(lane.io),
        _address(lane.fast_bad),  # (its own: the lane's are read after a call under VectorGame's lock)
        _address(lane.fast_bad_id),
        lane.zeros,
    )
    return calls


CHIPS_BOUND: Final = 1 << 58
"""Every chip count of a Buck 'Em episode on the C lane stays below this (the C
state checks hold it to this bound)."""


def buckem_chips_fit(players: int, options: BuckEmOptions, hands: int | None) -> bool:
    """Whether ``hands`` rounds keep every pot and bankroll below :data:`CHIPS_BOUND`.

    A bound, round by round: the ante adds ``players * ante`` to the pot; settling
    adds at most ``players`` matches of at most the pot (or ``pot_limit``) to it,
    and moves at most the pot into or out of each bankroll.  Once the pot reaches
    ``pot_limit`` it grows linearly, and the rest is summed in closed form.
    """
    if hands is None:
        return False
    n, ante, limit = players, options.ante, options.pot_limit
    pot = bank = 0
    for done in range(hands):
        after = pot + n * ante
        if limit is not None and after >= limit:
            left = hands - done
            step = n * ante + n * limit
            pot_end = after + left * step
            bank_end = bank + left * (ante + after) + step * left * (left - 1) // 2
            return max(pot_end, bank_end) < CHIPS_BOUND
        pot = after + n * after
        bank = bank + ante + after
        if max(pot, bank) >= CHIPS_BOUND:
            return False
    return True


def covers(kind: GameKind, players: int, options: Any, hands: int | None = None) -> bool:
    """Whether the C state machine steps this game, player count and options
    (Buck 'Em: episodes of ``hands`` rounds, see :func:`buckem_chips_fit`)."""
    if not _HAVE:
        return False
    if kind is GameKind.BUCKEM:
        fits = isinstance(options, BuckEmOptions) and buckem_chips_fit(players, options, hands)
        return fits and 5 <= players <= 8
    if kind is GameKind.HUCKLEBUCK:
        return isinstance(options, HucklebuckOptions) and 3 <= players <= 7
    if kind is not GameKind.DEERPARK or not isinstance(options, DeerParkOptions):
        return False
    return -(1 << 31) <= options.lock_at < (1 << 31)


_HUGE = 1 << 21
"""Bytes of a huge page (x86-64, arm64 with 4 KiB pages): a batch this big or bigger asks for them."""


def _lines(size: int) -> tuple[Any, Any]:
    """``size`` zeroed bytes that start on a 64-byte boundary (a cache line; the C
    state's fields are laid out by line): the memory to keep, and its first aligned byte.

    A batch of a huge page or more is mapped on its own, aligned to a huge page, and
    the kernel is asked to back it with huge pages (``MADV_HUGEPAGE``, where the
    system offers them): a step over a big batch then walks a few dozen pages instead of
    one or more per environment."""
    if size >= _HUGE and hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            area = mmap.mmap(-1, size + _HUGE, flags=mmap.MAP_PRIVATE)
            area.madvise(mmap.MADV_HUGEPAGE)
        except (OSError, ValueError):
            pass
        else:
            first = _ffi.from_buffer(area)
            skip = -int(_ffi.cast("uintptr_t", first)) % _HUGE
            return (area, first), first + skip
    mem = _ffi.new("uint8_t[]", size + 63)
    return mem, mem + (-int(_ffi.cast("uintptr_t", mem)) % 64)


def _check(rc: int) -> None:
    if rc != 0:
        raise CoreInputError(f"the C lane refused the call: {_ERRORS.get(rc, f'error {rc}')}")


def _dp_flags(options: DeerParkOptions) -> int:
    flags = sum(bit for name, bit in _DP_FLAGS if getattr(options, name))
    if options.first_lead is FirstLead.MAKER:
        flags |= 8
    if options.tie_break is DeerParkTieBreak.SHARED:
        flags |= 32
    if options.eight_player_turnup is EightPlayerTurnup.DEALER_LAST_CARD:
        flags |= 64
    return flags


def _hb_flags(options: HucklebuckOptions) -> int:
    """The hb_vec.h HB_VEC_HB_FLAG_* bits of ``options``."""
    return (
        (options.all_pass is AllPass.DEALER_MUST_BID) * 1
        | (options.moon_at_zero is MoonAtZero.WIN) * 2
        | (options.moon_at_zero is MoonAtZero.SCORE_NORMALLY) * 4
        | (options.lone_moon_bidder is LoneMoonBidder.WINS_GAME) * 8
        | options.bidder_zero_trick_penalty_stacks * 16
        | (options.tie_break is TieBreak.BIDDER_FIRST) * 32
        | (options.tie_break is TieBreak.SHARED) * 64
        | (options.exchange_order is ExchangeOrder.DEALER_LEFT_DEALER_LAST) * 128
        | options.auction_reentry * 256
        | (options.in_the_hole_reset_applies_to is InTheHoleReset.ANY_BID) * 512
        | (options.target == 11) * 1024
    )


def _be_flags(options: BuckEmOptions) -> int:
    """The hb_vec.h HB_VEC_BE_FLAG_* bits of ``options`` (and the scare position, bits 11-13)."""
    return (
        options.short_handed * 1
        | (options.short_handed_trump is ShortHandedTrump.REMOVED_CARD) * 2
        | options.scare_cards * 4
        | options.deuce_swap * 8
        | options.simultaneous_declare * 16
        | (options.split is Split.PROPORTIONAL) * 32
        | (options.odd_chip is OddChip.CARRY) * 64
        | (options.odd_chip is OddChip.FIRST_LEFT_OF_DEALER) * 128
        | (options.rake_hand is RakeHand.AFTER_SWAP) * 256
        | (options.rake_rounding is RakeRounding.CEIL) * 512
        | options.after_void_round_ante * 1024
        | (options.scare_position - 1) << 11
    )


class CLane(Lane):
    """The batch as an array of fixed-size C structs (see ``csrc/hb_vec.h``)."""

    name = "c"

    def __init__(
        self,
        kind: GameKind,
        players: int,
        options: DeerParkOptions | HucklebuckOptions | BuckEmOptions,
        hands: int | None,
        reward: str,
        buffers: Buffers,
        threads: int,
    ) -> None:
        self.kind, self.players, self.options = kind, players, options
        cfg = self.cfg = _ffi.new("hb_vec_cfg *")
        cfg.game, cfg.players, cfg.hands = kind.core_id, players, 0 if hands is None else hands
        cfg.reward = {"game": 0, "hand": 1, "progress": 2}[reward]
        if isinstance(options, HucklebuckOptions):
            cfg.flags, cfg.lock_at = _hb_flags(options), 0
        elif isinstance(options, BuckEmOptions):
            cfg.flags, cfg.lock_at = _be_flags(options), options.ante
            cfg.pot_limit = options.pot_limit or 0
        else:
            cfg.flags, cfg.lock_at = _dp_flags(options), options.lock_at
        _check(_lib.hb_vec_config(cfg))
        n = buffers.n
        self.n = n
        self.env_bytes = n * int(_lib.hb_vec_env_size())
        self._mem, self.envs = _lines(self.env_bytes)
        self.threads = threads
        self._attach(buffers)

    def _attach(self, buffers: Buffers) -> None:
        """Point the C outputs at ``buffers`` and start the worker threads."""
        self.buf = buffers
        io = self.io = _ffi.new("hb_vec_io *")
        self._keep = (
            _ffi.from_buffer("int16_t[]", buffers.cp),
            _ffi.from_buffer("uint8_t[]", buffers.mask),
            _ffi.from_buffer("float[]", buffers.rewards),
            _ffi.from_buffer("uint8_t[]", buffers.term),
            _ffi.from_buffer("uint8_t[]", buffers.trunc),
        )
        io.current_player, io.legal_mask, io.rewards, io.terminated, io.truncated = self._keep
        io.cp_len, io.mask_len = self.n, self.n * buffers.actions
        io.rewards_len, io.term_len, io.trunc_len = self.n * self.players, self.n, self.n
        self.zeros = array("i", bytes(4 * self.n))
        self.bad = _ffi.new("size_t *")
        self.bad_id = _ffi.new("int64_t *")
        self.fast_bad = _ffi.new("size_t *")
        self.fast_bad_id = _ffi.new("int64_t *")
        self._start(min(self.threads, self.n))
        self.fast = _fast_calls(self)

    def _start(self, threads: int) -> None:
        """A pool of ``threads`` threads (the calling one included), joined when the
        lane is collected, closed or the interpreter exits."""
        pool = _lib.hb_vec_pool_new(threads)
        if pool == _ffi.NULL:
            raise HucklebuckError(f"the system refused to start {threads - 1} worker threads for the batch")
        self.pool = pool
        self._free = weakref.finalize(self, _lib.hb_vec_pool_free, pool)

    def close(self) -> None:
        # joins the workers in place, between calls: the pool stays valid and the
        # batch goes on in the calling thread (freed only when the lane is collected)
        _lib.hb_vec_pool_close(self.pool)

    def busy(self) -> list[tuple[float, int]]:
        """Per thread of the pool (the calling one first): seconds spent on the
        batch's calls and environments handled, since the batch was made."""
        k = int(_lib.hb_vec_pool_threads(self.pool))
        ns = _ffi.new("uint64_t[]", k)
        items = _ffi.new("uint64_t[]", k)
        _check(_lib.hb_vec_pool_stats(self.pool, ns, items, k))
        return [(int(ns[i]) / 1e9, int(items[i])) for i in range(k)]

    # ------------------------------------------------------------------ batch
    def reset(self, seed: int, fresh: bool) -> None:
        _check(
            _lib.hb_vec_pool_reset(
                self.pool, self.cfg, self.envs, self.env_bytes, self.n, self.io, seed, fresh
            )
        )

    def step(self, mv: memoryview | None, vals: list[int] | None) -> None:
        if mv is None:
            assert vals is not None
            try:
                mv = memoryview(array("q", vals))
            except OverflowError:
                i = next(i for i, v in enumerate(vals) if not -(1 << 63) <= v < 1 << 63)
                raise ActionParseError(f"environment {i}: {vals[i]} is not an action id") from None
        # one call for the whole batch, the GIL released: the pool copies the ids, checks
        # every one, and only then applies them (so an error changes no environment)
        bad = self.bad
        rc = int(
            _lib.hb_vec_pool_step(
                self.pool,
                self.cfg,
                self.envs,
                self.env_bytes,
                self.n,
                self.io,
                _from(mv),
                mv.itemsize,
                mv.format[-1] in _SIGNED,
                self.n,
                bad,
                self.bad_id,
            )
        )
        if rc == 0:
            return
        if rc == -42:
            raise ActionParseError(
                f"environment {bad[0]}: {self.bad_id[0]} is not an action id of {self.kind.title} "
                f"(0..{self.buf.actions - 1})"
            )
        if rc == -43:
            i, k = int(bad[0]), int(self.bad_id[0])
            raise IllegalAction(f"environment {i}: action id {k} is not legal now ({self._describe(i, k)})")
        _check(rc)

    def _describe(self, i: int, k: int) -> str:
        try:
            self.game(i).apply_id(k)
        except IllegalAction as exc:
            return str(exc)
        except HucklebuckError:
            pass
        return "refused"  # pragma: no cover - the state machine and the game agree

    # ---------------------------------------------------------------- queries
    def tensor(self, out: memoryview[Any], seat: int | None) -> None:
        ptr = _ffi.from_buffer("float[]", out)
        s = -1 if seat is None else seat
        n = self.n
        _check(
            _lib.hb_vec_pool_tensor(
                self.pool, self.cfg, self.envs, self.env_bytes, n, s, ptr, n * self.buf.tensor
            )
        )

    def sample(self, seed: int) -> array[int]:
        out = self.zeros[:]  # a copy of a zero array: cheaper than a new one
        n = self.n
        rc = _lib.hb_vec_pool_sample(
            self.pool, self.cfg, self.envs, self.env_bytes, n, seed, _from("int32_t[]", out), n
        )
        if rc:
            _check(rc)
        return out

    def _episode(self, i: int) -> tuple[int, int, int, bytes]:
        seed = _ffi.new("uint64_t *")
        episode = _ffi.new("uint32_t *")
        start = _ffi.new("uint64_t *")
        ids = _ffi.new("uint8_t[]", 2048)
        length = _ffi.new("size_t *")
        args = (self.cfg, self.envs, self.env_bytes, self.n, i, seed, episode, start, ids, 2048, length)
        rc = int(_lib.hb_vec_pool_episode(self.pool, *args))  # between calls, never during one
        if rc == -47:
            raise HucklebuckError(
                f"environment {i}'s episode is longer than the C lane records (1,024 actions), so it cannot "
                "be rebuilt as a game object; use hands=K to keep episodes short, or the Python core"
            )
        _check(rc)
        return int(seed[0]), int(episode[0]), int(start[0]), bytes(_ffi.buffer(ids, int(length[0])))

    def episodes(self) -> list[int]:
        out = array("I", bytes(4 * self.n))  # one call for the whole batch
        ptr = _from("uint32_t[]", out)
        n = self.n
        _check(int(_lib.hb_vec_pool_episodes(self.pool, self.cfg, self.envs, self.env_bytes, n, ptr, n)))
        return out.tolist()

    def winners(self) -> bytes:
        out = bytearray(self.n)  # one call for the whole batch, between calls
        n = self.n
        rc = _lib.hb_vec_pool_winners(self.pool, self.cfg, self.envs, self.env_bytes, n, _from(out), n)
        _check(int(rc))
        return bytes(out)

    def stream(self, i: int) -> SplitMix64:
        return SplitMix64(self._episode(i)[2])

    def game(self, i: int) -> TrickGame[Any, Any]:
        _, _, start, ids = self._episode(i)
        rng = SplitMix64(start)
        g: TrickGame[Any, Any]
        if isinstance(self.options, HucklebuckOptions):
            g = HucklebuckGame(self.players, options=self.options, rng=rng)
        elif isinstance(self.options, BuckEmOptions):
            g = BuckEmGame(self.players, options=self.options, rng=rng)
        else:
            g = DeerParkGame(self.players, options=self.options, rng=rng)
        hands = self.cfg.hands
        done = 0
        for k in ids:
            g.apply_id(k)
            if g.phase is Phase.HAND_OVER or g.phase is Phase.GAME_OVER:
                done += 1  # as the state machine: the next hand is dealt unless the episode is over
                if not g.is_over and done != hands:
                    g.next_hand()
        return g

    def copy(self, buffers: Buffers) -> CLane:
        new = object.__new__(CLane)
        new.__dict__.update(self.__dict__)
        new.cfg = _ffi.new("hb_vec_cfg *", self.cfg[0])
        new.threads = int(_lib.hb_vec_pool_threads(self.pool))  # a closed batch's copy stays closed
        new._mem, new.envs = _lines(self.env_bytes)
        new._attach(buffers)
        # the states and every output at one moment between calls (a call of another thread may
        # run meanwhile: sample_legal and step take no Python lock on this lane, see VectorGame)
        _check(_lib.hb_vec_pool_copy_batch(self.pool, self.envs, new.envs, self.env_bytes, self.io, new.io))
        return new
