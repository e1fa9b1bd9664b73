"""The C core: typed wrappers over the cffi module ``hucklebuck._hbc``.

Importing this module raises :class:`ImportError` when the compiled module or
cffi is missing, and :class:`~hucklebuck.errors.BackendError` when the module
is stale (its ABI version differs from :data:`ABI_VERSION`).
"""

from __future__ import annotations

from array import array

from .._hbc import ffi, lib
from ..errors import BackendError
from ._api import ABI_VERSION, MAX_TRICK, raise_for

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
        rc = lib.hb_rules_init(int(game), int(trump), out)
        if rc != 0:
            raise_for(rc)
        raw = ffi.buffer(out)[:]
        return raw[:52], raw[52:104]  # the suit masks follow; the Python core derives them

    def trick_winner(self, game: int, trump: int, cards: bytes) -> int:
        """See :meth:`hucklebuck._core._api.Core.trick_winner`."""
        _check_game(game)
        if not 0 <= trump <= 3:
            raise_for(-2)
        rc = _trick_winner(game, trump, cards, len(cards))
        if rc < 0:
            raise_for(rc)
        return rc

    def legal_mask(self, game: int, trump: int, lead: int, hand: int) -> int:
        """See :meth:`hucklebuck._core._api.Core.legal_mask`."""
        _check_game(game)
        if not 0 <= trump <= 3:
            raise_for(-2)
        if not 0 <= hand < 1 << 52:
            raise_for(-7)
        if not 0 <= lead <= 255:
            raise_for(-3)
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
