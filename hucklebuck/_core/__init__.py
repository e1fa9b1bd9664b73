"""Core selection: the C core when it can be used, else the pure-Python core.

``HUCKLEBUCK_BACKEND`` (read at import) chooses: ``auto`` (default) uses the C
core when the compiled module and cffi import and fall back silently to
Python otherwise; ``c`` requires the C core and raises
:class:`~hucklebuck.errors.BackendError` saying why it cannot be had;
``python`` never touches the compiled modules (until the C core is asked for).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

from .. import _fast
from ..errors import BackendError
from ._api import Core
from ._py import PythonCore

__all__ = ["BackendInfo", "Core", "available", "backend", "backend_info", "get_core", "set_backend", "using"]

BackendName = Literal["c", "python"]


@dataclass(frozen=True)
class BackendInfo:
    """Which core is active, and why."""

    name: BackendName
    """``"c"`` or ``"python"``."""
    reason: str
    """Why this core was chosen (for example why the C core could not be loaded)."""
    c_available: bool
    """Whether the C core has been loaded in this process (``False`` also when it
    was never tried, as under ``HUCKLEBUCK_BACKEND=python``; :func:`available` tries)."""


_PYTHON: PythonCore = PythonCore()
_c_core: Core | None = None
_c_error: str | None = None
_c_tried = False


def _load_c() -> Core | None:
    """Try to import the C core once; remember why it failed."""
    global _c_core, _c_error, _c_tried
    if _c_tried:
        return _c_core
    _c_tried = True
    try:
        from ._c import CCore
    except BackendError as exc:
        _c_error = str(exc)
    except ImportError as exc:
        if getattr(exc, "name", None) == "_cffi_backend" or "_cffi_backend" in str(exc):
            _c_error = "cffi is not installed (pip install 'hucklebuck[speedups]')"
        else:
            _c_error = f"the C core is not built in this install ({exc})"
    else:
        _c_core = CCore()
        _fast.load()  # the one-call functions in C, used while the C core is selected
    return _c_core


def _link_calls() -> None:
    """Tell the compiled one-call functions (:mod:`hucklebuck._fast`) how to find the selected core."""
    if _fast.ext is not None and "_override" in globals():  # (at import: once _override exists)
        _fast.ext.link_core(_override, globals(), _c_core)


def _select(mode: str) -> tuple[Core, str]:
    mode = mode.strip().lower() or "auto"
    if mode == "python":
        return _PYTHON, "HUCKLEBUCK_BACKEND=python"
    if mode not in ("auto", "c"):
        raise BackendError(f"HUCKLEBUCK_BACKEND must be auto, c or python, not {mode!r}")
    core = _load_c()
    if core is not None:
        return core, f"C core loaded (HUCKLEBUCK_BACKEND={mode})"
    if mode == "c":
        raise BackendError(f"HUCKLEBUCK_BACKEND=c but the C core cannot be used: {_c_error}")
    return _PYTHON, f"pure-Python core: {_c_error}"


# The process default, and the core of the innermost ``using`` block of this
# thread or task (a context variable: each thread starts with none, so a block
# in one thread never changes the core another thread sees).
_default: tuple[Core, str] = _select(os.environ.get("HUCKLEBUCK_BACKEND", "auto"))
_override: ContextVar[tuple[Core, str] | None] = ContextVar("hucklebuck_core", default=None)
_link_calls()


def _current() -> tuple[Core, str]:
    return _override.get() or _default


def get_core() -> Core:
    """The active core object (of the innermost :func:`using` block of this thread, else the default)."""
    chosen = _override.get()
    return chosen[0] if chosen is not None else _default[0]


def backend() -> BackendName:
    """The name of the active core: ``"c"`` or ``"python"``."""
    return "c" if get_core() is not _PYTHON else "python"


def backend_info() -> BackendInfo:
    """The active core, the reason it was chosen, and whether C could be loaded."""
    return BackendInfo(backend(), _current()[1], _c_core is not None)


def available() -> tuple[BackendName, ...]:
    """The cores this process can use, C first."""
    return ("c", "python") if _load_c() is not None else ("python",)


def set_backend(name: str) -> None:
    """Switch the active core (``"c"``, ``"python"`` or ``"auto"``).

    Outside any :func:`using` block this sets the process default, which every
    thread without a block of its own sees.  Inside a block it switches that
    block only (the block's exit restores what was active before it).

    Raises :class:`~hucklebuck.errors.BackendError` if ``"c"`` is asked for and
    cannot be loaded; the active core is then unchanged.
    """
    global _default
    if not isinstance(name, str):
        raise BackendError(f"a core name must be a string, not {type(name).__name__}")
    chosen = _select(name)
    if _override.get() is not None:
        _override.set(chosen)
    else:
        _default = chosen


@contextmanager
def using(name: str) -> Iterator[Core]:
    """Use one core inside a ``with`` block, then restore the previous one.

    The choice belongs to the current thread (or asyncio task): blocks in
    several threads at once never see or undo each other's choice, and the
    process default (:func:`set_backend` outside any block) is left as it was.
    A new thread starts on the process default, not on its creator's block;
    library code that runs work on threads hands them its core object.
    """
    if not isinstance(name, str):
        raise BackendError(f"a core name must be a string, not {type(name).__name__}")
    chosen = _select(name)
    token = _override.set(chosen)
    try:
        yield chosen[0]
    finally:
        _override.reset(token)
