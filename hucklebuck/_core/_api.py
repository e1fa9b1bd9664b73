"""The interface both cores implement, and the error codes they share."""

from __future__ import annotations

from array import array
from typing import Final, NoReturn, Protocol

from ..errors import CoreInputError

__all__ = ["ABI_VERSION", "MAX_TRICK", "NO_LEAD", "Core", "check_id", "raise_for"]

#: The C module's ``hb_abi_version()`` must return this, or it is refused.
ABI_VERSION: Final = 6
#: Largest number of cards in one trick (Buck 'Em seats eight).
MAX_TRICK: Final = 8
#: ``lead`` value meaning "this player leads" in legal-play queries.
NO_LEAD: Final = 255

_MESSAGES: Final[dict[int, str]] = {
    -1: "game id out of range (expected 0 hucklebuck, 1 buckem, 2 deerpark)",
    -2: "trump suit out of range (expected 0..3)",
    -3: "card number outside 0..51",
    -4: "trick length outside 1..8",
    -5: "the same card appears twice in one trick",
    -6: "a required buffer is missing",
    -7: "hand mask has bits above 51",
    -8: "the led card is also in the hand",
    -9: "seat count, leader or seat out of range or not in play",
    -10: "transposition table size must be a power of two",
    -11: "unknown evaluation mode (0 playout, 1 solver)",
    -12: "the simulated pot grew past 2**58 chips (set a pot limit)",
}


def raise_for(code: int, index: int = 0) -> NoReturn:
    """Raise the :class:`CoreInputError` for a negative core error code."""
    raise CoreInputError(f"item {index}: {_MESSAGES.get(code, f'error {code}')}", index)


def check_id(value: object, lo: int, hi: int, code: int, index: int = 0) -> int:
    """``value`` as an int in ``lo..hi``, or the :class:`CoreInputError` for ``code``.

    Both cores check their integer arguments with it, so a float, a string or
    ``None`` gets the same error on each (``bool`` counts as an int, as in Python).
    """
    if isinstance(value, int) and lo <= value <= hi:
        return int(value)
    raise_for(code, index)


class Core(Protocol):
    """Trick resolution and legal plays: what the C core and the Python core share.

    Cards are numbers 0..51 (see :mod:`hucklebuck.cards`), hands 64-bit masks,
    games 0..2 (:attr:`hucklebuck.packs.GameKind.core_id`), trumps 0..3.
    Invalid input raises :class:`~hucklebuck.errors.CoreInputError`.
    """

    @property
    def name(self) -> str:
        """``"c"`` or ``"python"``."""
        ...

    def rules(self, game: int, trump: int) -> tuple[bytes, bytes]:
        """The effective-suit and strength tables (52 bytes each) for a game and trump."""
        ...

    def trick_winner(self, game: int, trump: int, cards: bytes) -> int:
        """Index of the winning card of one trick (1..8 card numbers, leader first)."""
        ...

    def legal_mask(self, game: int, trump: int, lead: int, hand: int) -> int:
        """Mask of the cards of ``hand`` that may be played after ``lead`` (NO_LEAD: leading)."""
        ...

    def trick_winners(self, game: int, trumps: bytes, lens: bytes, cards: bytes) -> bytes:
        """Winners of a batch of tricks; ``cards`` holds 8 bytes per trick."""
        ...

    def legal_masks(self, game: int, trumps: bytes, leads: bytes, hands: array[int]) -> array[int]:
        """Legal-play masks of a batch of positions (``hands`` is an ``array('Q')``)."""
        ...

    def rng_fill(self, seed: int, n: int) -> list[int]:
        """The first ``n`` outputs of the specified PRNG (splitmix64) from ``seed``."""
        ...

    def rng_shuffle(self, seed: int, cards: bytes) -> bytes:
        """``cards`` shuffled by the specified algorithm from ``seed``."""
        ...

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
        """Most tricks ``seat`` can be sure of with all ``hands`` (masks per seat; 0 = not in play) open.

        At most ``node_limit`` nodes (0: no limit) and about ``time_limit`` seconds, else
        :class:`~hucklebuck.errors.SolveBudgetExceeded`; Ctrl-C stops it promptly.
        """
        ...

    def solve_counted(
        self, game: int, trump: int, hands: list[int], leader: int, seat: int, node_limit: int = 0
    ) -> tuple[int, int]:
        """``(solve(...), nodes searched)``: both cores count the same nodes."""
        ...

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
        """Histogram (0..5 tricks) of ``seat`` over random deals of ``pool`` (mode 0 playout, 1 solver).

        ``node_limit`` bounds each solve, ``time_limit`` the whole call (see :meth:`solve`).
        """
        ...

    def sim_hucklebuck(self, players: int, seed: int, hands: int) -> list[int]:
        """Statistics of ``hands`` simulated Hucklebuck hands (``HB_SIM_*`` in ``hb_core.h``)."""
        ...

    def sim_deerpark(self, players: int, seed: int, hands: int) -> list[int]:
        """Statistics of ``hands`` simulated Deer Park Euchre hands (``HB_DP_*``)."""
        ...

    def sim_buckem(self, players: int, seed: int, hands: int, ante: int, pot_limit: int) -> list[int]:
        """Statistics of a simulated Buck 'Em session of ``hands`` rounds (``HB_BK_*``)."""
        ...
