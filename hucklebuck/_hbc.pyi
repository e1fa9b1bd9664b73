# Type stub of the compiled C core (built from csrc/ by cffi).  Only the parts
# used by hucklebuck._core._c are declared, with exact signatures, so no Any
# escapes from the binding.
from typing import Protocol

class _CData(Protocol):
    def __getitem__(self, index: int) -> int: ...
    def __setitem__(self, index: int, value: int) -> None: ...

class _Buffer(Protocol):
    def __getitem__(self, index: slice) -> bytes: ...
    def __setitem__(self, index: slice, value: bytes) -> None: ...

class _FFI(Protocol):
    def new(self, cdecl: str, init: int | list[int] = ...) -> _CData: ...
    def buffer(self, cdata: _CData, size: int = ...) -> _Buffer: ...
    def from_buffer(self, cdecl: str, python_buffer: object, require_writable: bool = ...) -> _CData: ...
    def sizeof(self, cdecl: str) -> int: ...
    NULL: _CData

class _Lib(Protocol):
    HB_OK: int
    HB_NO_LEAD: int
    HB_MAX_TRICK: int
    def hb_abi_version(self) -> int: ...
    def hb_rules_init(self, game: int, trump: int, out: _CData) -> int: ...
    def hb_trick_winner(self, game: int, trump: int, cards: bytes, len: int) -> int: ...
    def hb_legal_mask(self, game: int, trump: int, lead: int, hand: int) -> int: ...
    def hb_trick_winners(
        self,
        game: int,
        n: int,
        trumps: bytes,
        lens: bytes,
        cards: bytes,
        winners: _CData,
        bad: _CData,
    ) -> int: ...
    def hb_legal_masks(
        self,
        game: int,
        n: int,
        trumps: bytes,
        leads: bytes,
        hands: _CData,
        out: _CData,
        bad: _CData,
    ) -> int: ...
    def hb_rng_fill(self, seed: int, out: _CData, n: int) -> int: ...
    def hb_rng_shuffle(self, seed: int, cards: _CData, n: int) -> int: ...
    def hb_solve(
        self,
        game: int,
        trump: int,
        hands: _CData,
        nseats: int,
        leader: int,
        seat: int,
        tt: _CData,
        tt_size: int,
        gen: int,
        result: _CData,
    ) -> int: ...
    def hb_solve_limited(
        self,
        game: int,
        trump: int,
        hands: _CData,
        nseats: int,
        leader: int,
        seat: int,
        tt: _CData,
        tt_size: int,
        gen: int,
        node_limit: int,
        cancel: _CData,
        result: _CData,
        nodes: _CData,
    ) -> int: ...
    def hb_mc_eval_limited(
        self,
        game: int,
        trump: int,
        nseats: int,
        known: _CData,
        sizes: bytes,
        pool: int,
        leader: int,
        seat: int,
        seed: int,
        samples: int,
        mode: int,
        tt: _CData,
        tt_size: int,
        gen: int,
        node_limit: int,
        cancel: _CData,
        hist: _CData,
    ) -> int: ...
    def hb_mc_eval(
        self,
        game: int,
        trump: int,
        nseats: int,
        known: _CData,
        sizes: bytes,
        pool: int,
        leader: int,
        seat: int,
        seed: int,
        samples: int,
        mode: int,
        tt: _CData,
        tt_size: int,
        gen: int,
        hist: _CData,
    ) -> int: ...
    def hb_sim_hucklebuck(self, players: int, seed: int, hands_n: int, stats: _CData, nstats: int) -> int: ...
    def hb_sim_deerpark(self, players: int, seed: int, hands_n: int, stats: _CData, nstats: int) -> int: ...
    def hb_sim_buckem(
        self, players: int, seed: int, hands_n: int, ante: int, pot_limit: int, stats: _CData, nstats: int
    ) -> int: ...
    def hb_sim_hucklebuck_cancel(
        self, players: int, seed: int, hands_n: int, cancel: _CData, stats: _CData, nstats: int
    ) -> int: ...
    def hb_sim_deerpark_cancel(
        self, players: int, seed: int, hands_n: int, cancel: _CData, stats: _CData, nstats: int
    ) -> int: ...
    def hb_sim_buckem_cancel(
        self,
        players: int,
        seed: int,
        hands_n: int,
        ante: int,
        pot_limit: int,
        cancel: _CData,
        stats: _CData,
        nstats: int,
    ) -> int: ...

ffi: _FFI
lib: _Lib
