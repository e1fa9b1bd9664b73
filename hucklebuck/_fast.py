"""The one-call functions in C (``hucklebuck._hbcall``, built from ``csrc/py/hb_calls.c``), if built.

Each function of :data:`ext` answers a plain, valid call while the C core is the
selected core, and returns ``None`` for anything else (another core, another
type, any error), so the caller takes its Python path, which gives the errors.
:mod:`hucklebuck.cards`, :mod:`hucklebuck.tricks` and :mod:`hucklebuck._core`
link it to the library's objects when they are imported; until then it answers
``None`` to every call.
"""

from __future__ import annotations

from types import ModuleType

__all__ = ["VERSION", "ext"]

#: The interface version this package needs (``HB_CALLS_VERSION`` in ``csrc/py/hb_calls.c``).
VERSION = 1


def _load() -> ModuleType | None:
    try:
        from . import _hbcall
    except ImportError:  # not built: a pure-Python install, or HUCKLEBUCK_BUILD_C=0
        return None
    if getattr(_hbcall, "VERSION", None) != VERSION:  # a stale build: never used
        return None
    return _hbcall


ext: ModuleType | None = _load()
"""The compiled module, or ``None`` when it is not built (everything then runs in Python)."""
