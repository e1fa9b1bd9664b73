"""The one-call functions in C (``hucklebuck._hbcall``, built from ``csrc/py/hb_calls.c``).

The module is imported when the C core is loaded (never under
``HUCKLEBUCK_BACKEND=python`` until the C core is asked for).  Each of its
functions answers a plain, valid call while the C core is the selected core,
and returns ``None`` for anything else (another core, another type, any
error), so the caller takes its Python path, which gives the errors.
:mod:`hucklebuck._core`, :mod:`hucklebuck.cards`, :mod:`hucklebuck.tricks`,
:mod:`hucklebuck.evaluate` and the games' engine (``pick``, a helper for the legal
moves that is the same whatever the core) each link it to their objects with their
own ``_link_calls()``: when they are imported, or, if they were imported first, when
:func:`load` runs.
"""

from __future__ import annotations

import sys
from types import ModuleType

__all__ = ["VERSION", "compiled", "ext", "load"]

#: The interface version this package needs (``HB_CALLS_VERSION`` in ``csrc/py/hb_calls.c``).
VERSION = 5
_LINKED = (
    "hucklebuck._core",
    "hucklebuck.cards",
    "hucklebuck.tricks",
    "hucklebuck.evaluate",
    "hucklebuck.games.base",
    "hucklebuck.games.engine",
    "hucklebuck.games._agent_api",
)

ext: ModuleType | None = None
"""The compiled module once loaded, else ``None`` (everything then runs in Python)."""


def _import() -> ModuleType | None:
    try:
        from . import _hbcall
    except ImportError:  # not built: a pure-Python install, or HUCKLEBUCK_BUILD_C=0
        return None
    if getattr(_hbcall, "VERSION", None) != VERSION:  # a stale build: never used
        return None
    return _hbcall


def compiled() -> ModuleType | None:
    """The compiled module, imported if need be (without linking anything: for its functions
    that read no library object, such as the batched lane's), or None when it is not built."""
    return ext if ext is not None else _import()


def load() -> None:
    """Import the compiled module (the C core is loaded) and link the modules already imported."""
    global ext
    if ext is None:
        ext = _import()
    if ext is None:
        return
    for name in _LINKED:
        link = getattr(sys.modules.get(name), "_link_calls", None)
        if link is not None:
            link()
