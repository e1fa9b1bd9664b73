# Type stub of the compiled C core (built from csrc/ by cffi).  Only the parts
# used by hucklebuck._core._c are declared, with exact signatures, so no Any
# escapes from the binding.
from typing import Protocol

class _CData(Protocol):
    def __getitem__(self, index: int) -> int: ...

class _Buffer(Protocol):
    def __getitem__(self, index: slice) -> bytes: ...

class _FFI(Protocol):
    def new(self, cdecl: str, init: int = ...) -> _CData: ...
    def buffer(self, cdata: _CData, size: int = ...) -> _Buffer: ...
    def from_buffer(self, cdecl: str, python_buffer: object, require_writable: bool = ...) -> _CData: ...

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

ffi: _FFI
lib: _Lib
