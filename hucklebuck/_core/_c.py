"""The C core: typed wrappers over the cffi module ``hucklebuck._hbc``.

Importing this module raises :class:`ImportError` when the compiled module or
cffi is missing, and :class:`~hucklebuck.errors.BackendError` when the module
is stale (its ABI version differs from :data:`ABI_VERSION`).
"""

from __future__ import annotations

import threading
import time
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING

from .._hbc import ffi, lib
from ..errors import BackendError
from ._api import ABI_VERSION, MAX_TRICK, check_id, raise_for
from ._py_solve import E_BUDGET, E_CANCELLED, TT_SIZE, budget_error

__all__ = ["CCore"]

_found = lib.hb_abi_version()
if _found != ABI_VERSION:
    raise BackendError(
        f"the compiled C core has ABI version {_found}, this hucklebuck needs {ABI_VERSION}; "
        "it is a stale build: reinstall hucklebuck to rebuild it"
    )

_MASK_ERROR = 1 << 63
_trick_winner = lib.hb_trick_winner
_legal_mask = lib.hb_legal_mask


if TYPE_CHECKING:
    from .._hbc import _CData

M64 = (1 << 64) - 1
#: Solver transposition-table slots per thread (32 bytes each: 8 MiB); the Python twin uses the same size.
TT_ENTRIES = TT_SIZE
#: A solve first runs in the calling thread with this many nodes (a few milliseconds at most);
#: a longer one is re-run in a worker thread that Ctrl-C and the time limit can stop.
FAST_NODES = 50_000
#: How often (seconds) the waiting thread looks at Ctrl-C and the clock.
POLL = 0.01
_local = threading.local()


def _tt(uses: int = 1) -> tuple[_CData, int]:
    """This thread's transposition table and a fresh generation number (``uses`` of them)."""
    table = getattr(_local, "tt", None)
    if table is None:
        table = _local.tt = ffi.new("hb_tt_entry[]", TT_ENTRIES)
        _local.gen = 0
    if _local.gen + uses + 1 >= 1 << 32:  # generations wrap: forget every old entry
        ffi.buffer(table)[:] = bytes(ffi.sizeof("hb_tt_entry") * TT_ENTRIES)
        _local.gen = 0
    _local.gen += 1
    gen: int = _local.gen
    _local.gen += uses - 1
    return table, gen


#: Simulations of up to this many hands run in the calling thread (tens of milliseconds at
#: most); a longer one runs in a worker thread that Ctrl-C can stop.
FAST_HANDS = 20_000
# The cancel flags of the stoppable calls running now, with the name of the thread that made
# each call: a run of chunks on its own threads stops them on Ctrl-C (cancel_threads).
_running: dict[int, tuple[str, _CData]] = {}
_running_lock = threading.Lock()


def cancel_threads(prefix: str) -> None:
    """Set the cancel flag of every stoppable call made by a thread whose name starts with ``prefix``."""
    with _running_lock:
        for name, flag in _running.values():
            if name.startswith(prefix):
                flag[0] = 1


def _interruptible(call: Callable[[_CData], int], time_limit: float | None) -> int:
    """Run ``call(cancel_flag)`` in a worker thread; Ctrl-C or the time limit sets the flag.

    The C loops poll the flag (the solver every 1024 nodes, a simulation every 1024
    hands, a search every sample), so the call returns within milliseconds; a
    KeyboardInterrupt is then re-raised here.
    """
    cancel = ffi.new("int *")
    box: list[int] = []
    worker = threading.Thread(target=lambda: box.append(call(cancel)), name="hucklebuck-solver", daemon=True)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    key = id(cancel)
    with _running_lock:
        _running[key] = (threading.current_thread().name, cancel)
    try:
        worker.start()
        while worker.is_alive():
            worker.join(POLL)
            if deadline is not None and time.monotonic() >= deadline:
                cancel[0] = 1
    except BaseException:
        cancel[0] = 1
        while worker.is_alive():  # the worker uses this thread's table: let it finish first
            try:
                worker.join()
            except BaseException:  # a second Ctrl-C while it winds down (a millisecond)
                cancel[0] = 1
        raise
    finally:
        with _running_lock:
            _running.pop(key, None)
    return box[0]


def stoppable(call: Callable[[_CData], int], long: bool) -> int:
    """``call(cancel_flag)``: in this thread with no flag when it is short, else :func:`_interruptible`."""
    if not long:
        return call(ffi.NULL)
    rc = _interruptible(call, None)
    if rc == E_CANCELLED:  # stopped from another thread (cancel_threads): the run is being abandoned
        raise KeyboardInterrupt
    return rc


def _u64(x: int) -> int:
    if not 0 <= x <= M64:
        raise_for(-7)
    return x


def _check_game(game: int) -> None:
    if not isinstance(game, int) or not 0 <= game <= 2:
        raise_for(-1)


class CCore:
    """The C core (needs the compiled module and cffi)."""

    @property
    def name(self) -> str:
        """Always ``"c"``."""
        return "c"

    def rules(self, game: int, trump: int) -> tuple[bytes, bytes]:
        """See :meth:`hucklebuck._core._api.Core.rules`."""
        out = ffi.new("hb_rules *")
        rc = lib.hb_rules_init(check_id(game, 0, 2, -1), check_id(trump, 0, 3, -2), out)
        if rc != 0:
            raise_for(rc)
        raw = ffi.buffer(out)[:]
        return raw[:52], raw[52:104]  # the suit masks follow; the Python core derives them

    def trick_winner(self, game: int, trump: int, cards: bytes) -> int:
        """See :meth:`hucklebuck._core._api.Core.trick_winner`."""
        if type(game) is not int or not 0 <= game <= 2:  # the full check only off the usual case
            check_id(game, 0, 2, -1)
        if type(trump) is not int or not 0 <= trump <= 3:
            check_id(trump, 0, 3, -2)
        rc = _trick_winner(game, trump, cards, len(cards))
        if rc < 0:
            raise_for(rc)
        return rc

    def legal_mask(self, game: int, trump: int, lead: int, hand: int) -> int:
        """See :meth:`hucklebuck._core._api.Core.legal_mask`."""
        try:  # the C function checks every argument itself; the checks below only name the error
            out = _legal_mask(game, trump, lead, hand)
        except (OverflowError, TypeError):
            out = _MASK_ERROR
        if not out & _MASK_ERROR:
            return out
        check_id(game, 0, 2, -1)
        check_id(trump, 0, 3, -2)
        check_id(lead, 0, 255, -3)
        check_id(hand, 0, (1 << 52) - 1, -7)
        out = _legal_mask(game, trump, lead, hand)
        if out & _MASK_ERROR:
            raise_for(-(out & 0xFF))
        return out

    def trick_winners(self, game: int, trumps: bytes, lens: bytes, cards: bytes) -> bytes:
        """See :meth:`hucklebuck._core._api.Core.trick_winners`: one C call per batch."""
        _check_game(game)
        n = len(trumps)
        if len(lens) < n or len(cards) < n * MAX_TRICK:
            raise_for(-6)
        winners = ffi.new("uint8_t[]", max(n, 1))
        bad = ffi.new("size_t *")
        rc = lib.hb_trick_winners(game, n, trumps, lens, cards, winners, bad)
        if rc != 0:
            raise_for(rc, bad[0])
        return ffi.buffer(winners, n)[:]

    def legal_masks(self, game: int, trumps: bytes, leads: bytes, hands: array[int]) -> array[int]:
        """See :meth:`hucklebuck._core._api.Core.legal_masks`: one C call per batch."""
        _check_game(game)
        n = len(trumps)
        if len(leads) < n or len(hands) < n:
            raise_for(-6)
        if hands.typecode != "Q":
            hands = array("Q", hands)
        out = array("Q", bytes(8 * max(n, 1)))
        bad = ffi.new("size_t *")
        rc = lib.hb_legal_masks(
            game,
            n,
            trumps,
            leads,
            ffi.from_buffer("uint64_t[]", hands),
            ffi.from_buffer("uint64_t[]", out, require_writable=True),
            bad,
        )
        if rc != 0:
            raise_for(rc, bad[0])
        del out[n:]
        return out

    def rng_fill(self, seed: int, n: int) -> list[int]:
        """See :meth:`hucklebuck._core._api.Core.rng_fill`."""
        out = ffi.new("uint64_t[]", max(n, 1))
        lib.hb_rng_fill(seed & M64, out, n)
        return [out[i] for i in range(n)]

    def rng_shuffle(self, seed: int, cards: bytes) -> bytes:
        """See :meth:`hucklebuck._core._api.Core.rng_shuffle`."""
        if len(cards) > 52:
            raise_for(-4)
        buf = ffi.new("uint8_t[]", max(len(cards), 1))
        ffi.buffer(buf, len(cards))[:] = cards
        lib.hb_rng_shuffle(seed & M64, buf, len(cards))
        return ffi.buffer(buf, len(cards))[:]

    def solve(
        self,
        game: int,
        trump: int,
        hands: list[int],
        leader: int,
        seat: int,
        node_limit: int = 0,
        time_limit: float | None = None,
    ) -> int:
        """See :meth:`hucklebuck._core._api.Core.solve`: one C call per solve (two for a long one)."""
        return self._solve(game, trump, hands, leader, seat, node_limit, time_limit)[0]

    def solve_counted(
        self, game: int, trump: int, hands: list[int], leader: int, seat: int, node_limit: int = 0
    ) -> tuple[int, int]:
        """See :meth:`hucklebuck._core._api.Core.solve_counted`."""
        return self._solve(game, trump, hands, leader, seat, node_limit, None)

    def _solve(
        self,
        game: int,
        trump: int,
        hands: list[int],
        leader: int,
        seat: int,
        node_limit: int,
        time_limit: float | None,
    ) -> tuple[int, int]:
        _check_game(game)
        if not 0 <= trump <= 3:
            raise_for(-2)
        if not 2 <= len(hands) <= 8:
            raise_for(-9)
        for h in hands:
            if not 0 <= h < 1 << 52:
                raise_for(-7)
        if not (-(2**31) < leader < 2**31 and -(2**31) < seat < 2**31):
            raise_for(-9)
        if not 0 <= node_limit < 1 << 64:
            raise_for(-4)
        arr = ffi.new("uint64_t[]", hands)
        result = ffi.new("int *")
        nodes = ffi.new("uint64_t *")
        limit = node_limit

        def run(cancel: _CData, budget: int, table: _CData, gen: int) -> int:
            return int(
                lib.hb_solve_limited(
                    game,
                    trump,
                    arr,
                    len(hands),
                    leader,
                    seat,
                    table,
                    TT_ENTRIES,
                    gen,
                    budget,
                    cancel,
                    result,
                    nodes,
                )
            )

        fast = FAST_NODES if limit == 0 else min(limit, FAST_NODES)
        rc = run(ffi.NULL, fast, *_tt())
        if rc == E_BUDGET and fast != limit:  # a long solve: again, stoppable, with the whole budget
            table, gen = _tt()  # this thread's table, lent to the worker while this thread waits
            rc = _interruptible(lambda cancel: run(cancel, limit, table, gen), time_limit)
        if rc == E_BUDGET or rc == E_CANCELLED:
            raise budget_error(rc, nodes[0], limit, time_limit)
        if rc != 0:
            raise_for(rc)
        return result[0], nodes[0]

    def mc_eval(
        self,
        game: int,
        trump: int,
        known: list[int],
        sizes: list[int],
        pool: int,
        leader: int,
        seat: int,
        seed: int,
        samples: int,
        mode: int,
        node_limit: int = 0,
        time_limit: float | None = None,
    ) -> list[int]:
        """See :meth:`hucklebuck._core._api.Core.mc_eval`: one C call for all samples."""
        _check_game(game)
        if not 0 <= trump <= 3:
            raise_for(-2)
        n = len(known)
        if not 2 <= n <= 8 or len(sizes) < n:
            raise_for(-9)
        if not 0 <= pool < 1 << 52:
            raise_for(-7)
        if mode not in (0, 1):
            raise_for(-11)
        if not (0 <= leader < n and 0 <= seat < n):
            raise_for(-9)
        for k in known:
            if not 0 <= k < 1 << 52:
                raise_for(-7)
        if any(not 0 <= z <= 255 for z in sizes[:n]):
            raise_for(-4)
        if not 0 <= samples < 1 << 32:
            raise_for(-4)
        if not 0 <= node_limit < 1 << 64:
            raise_for(-4)
        hist = ffi.new("uint32_t[]", 6)
        table, gen = _tt(max(samples, 1))
        known_arr = ffi.new("uint64_t[]", known)
        sizes_b = bytes(sizes[:n])

        def run(cancel: _CData) -> int:
            return int(
                lib.hb_mc_eval_limited(
                    game,
                    trump,
                    n,
                    known_arr,
                    sizes_b,
                    pool,
                    leader,
                    seat,
                    seed & M64,
                    samples,
                    mode,
                    table,
                    TT_ENTRIES,
                    gen,
                    node_limit,
                    cancel,
                    hist,
                )
            )

        if mode == 0 and samples <= 100_000 and time_limit is None:
            rc = run(ffi.NULL)  # a few milliseconds at most
        else:
            rc = _interruptible(run, time_limit)
        if rc == E_BUDGET or rc == E_CANCELLED:
            raise budget_error(rc, 0, node_limit, time_limit)
        if rc != 0:
            raise_for(rc)
        return [hist[i] for i in range(6)]

    def sim_hucklebuck(self, players: int, seed: int, hands: int) -> list[int]:
        """See :meth:`hucklebuck._core._api.Core.sim_hucklebuck`: one C call per batch."""
        if not 3 <= players <= 7:
            raise_for(-9)
        if not 0 <= hands < 1 << 32:
            raise_for(-4)
        stats = ffi.new("uint64_t[]", 14)
        rc = stoppable(
            lambda cancel: int(lib.hb_sim_hucklebuck_cancel(players, seed & M64, hands, cancel, stats, 14)),
            hands > FAST_HANDS,
        )
        if rc != 0:
            raise_for(rc)
        return [stats[i] for i in range(14)]

    def sim_deerpark(self, players: int, seed: int, hands: int) -> list[int]:
        """See :meth:`hucklebuck._core._api.Core.sim_deerpark`: one C call per batch."""
        if not 3 <= players <= 7:
            raise_for(-9)
        if not 0 <= hands < 1 << 32:
            raise_for(-4)
        stats = ffi.new("uint64_t[]", 10)
        rc = stoppable(
            lambda cancel: int(lib.hb_sim_deerpark_cancel(players, seed & M64, hands, cancel, stats, 10)),
            hands > FAST_HANDS,
        )
        if rc != 0:
            raise_for(rc)
        return [stats[i] for i in range(10)]

    def sim_buckem(self, players: int, seed: int, hands: int, ante: int, pot_limit: int) -> list[int]:
        """See :meth:`hucklebuck._core._api.Core.sim_buckem`: one C call per batch."""
        if not 5 <= players <= 8:
            raise_for(-9)
        if not 0 <= hands < 1 << 32 or not 1 <= ante < 1 << 31 or not 0 <= pot_limit < 1 << 64:
            raise_for(-4)
        stats = ffi.new("uint64_t[]", 14)
        rc = stoppable(
            lambda cancel: int(
                lib.hb_sim_buckem_cancel(players, seed & M64, hands, ante, pot_limit, cancel, stats, 14)
            ),
            hands > FAST_HANDS,
        )
        if rc != 0:
            raise_for(rc)
        return [stats[i] for i in range(14)]
