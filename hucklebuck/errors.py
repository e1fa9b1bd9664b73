"""The library's exception hierarchy.

Every error the library raises on bad input derives from :class:`HucklebuckError`.
The input-validation errors also derive from :class:`ValueError` so generic
callers can catch them the usual way.

The rule for arguments, the same on the C core and the Python core: a public
function given a wrong value *or a value of the wrong Python type* (a float
seat, a string where a card belongs, ``None`` for a count) raises one of these
errors, with a message that names the argument; it never lets a
:class:`TypeError`, :class:`AttributeError`, :class:`OverflowError` or
:class:`ZeroDivisionError` escape.  Python's own :class:`TypeError` is raised
only for a call with the wrong signature (a missing or unknown argument).
"""

from __future__ import annotations

__all__ = [
    "ActionParseError",
    "BackendError",
    "CardError",
    "ChunkError",
    "CoreInputError",
    "DealError",
    "HucklebuckError",
    "IllegalAction",
    "OptionsError",
    "PlayerCountError",
    "RestoreError",
    "SeatError",
    "SolveBudgetExceeded",
    "UnsupportedOption",
]


class HucklebuckError(Exception):
    """Base class of every error raised by hucklebuck."""


class CardError(HucklebuckError, ValueError):
    """A card or suit string (or number) that does not name a card."""


class PlayerCountError(HucklebuckError, ValueError):
    """A player count outside the range a game supports."""


class SeatError(PlayerCountError):
    """A seat number that is not a seat of the game (the player count itself is fine).

    A subclass of :class:`PlayerCountError`, which such numbers raised before it
    existed, so code that catches that still catches this."""


class OptionsError(HucklebuckError, ValueError):
    """A variant option of the wrong type, an unknown value or an impossible combination."""


class UnsupportedOption(OptionsError):
    """A well-typed option value this library does not offer (protocol: ``unsupported``)."""


class DealError(HucklebuckError, ValueError):
    """An explicit deal that is not a legal deal for the game, players and options."""


class ActionParseError(HucklebuckError, ValueError):
    """An action string that cannot be read (protocol: ``bad_request``)."""


class IllegalAction(HucklebuckError):
    """An action the rules forbid now: out of turn, wrong phase, or against a rule.

    The state is left exactly as it was before the action was attempted.
    """


class RestoreError(HucklebuckError, ValueError):
    """Serialised game data that cannot be restored into a valid game."""


class CoreInputError(HucklebuckError, ValueError):
    """Malformed input to a core (trick-engine) entry point.

    ``index`` is the position of the first bad item in a batch (0 for scalar calls).
    """

    def __init__(self, message: str, index: int = 0) -> None:
        super().__init__(message)
        self.index = index


class SolveBudgetExceeded(HucklebuckError):
    """The solver stopped before finishing: it used up its node budget or ran past its time limit.

    ``reason`` is ``"nodes"`` or ``"time"``; ``nodes`` is how many nodes (cards tried) were searched
    (0 when not known, for example over the samples of an evaluation).  Both cores count nodes the
    same way, so a node budget stops a solve at the same point on either core.
    """

    def __init__(self, message: str, reason: str = "nodes", nodes: int = 0) -> None:
        super().__init__(message)
        self.reason = reason
        self.nodes = nodes


class BackendError(HucklebuckError, ImportError):
    """The requested core cannot be used (for example the C core is not built)."""


class ChunkError(HucklebuckError, RuntimeError):
    """A chunk of parallel work (see :mod:`hucklebuck.parallel`) failed or could not be scheduled.

    ``index``, ``size`` and ``seed`` name the chunk; the original exception is the
    ``__cause__``.  No partial result is returned when this is raised.
    """

    def __init__(self, message: str, index: int, size: int, seed: int) -> None:
        super().__init__(message)
        self.index = index
        self.size = size
        self.seed = seed
