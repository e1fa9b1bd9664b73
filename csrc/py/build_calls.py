"""The extension ``hucklebuck._hbcall``: the one-call functions in C (``hb_calls.c``).

setup.py builds it next to the cffi core (``csrc/build_ffi.py``), under the
same ``HUCKLEBUCK_BUILD_C`` switch; tests/fuzz/build_asan.py builds it with the
sanitizers.  It compiles ``csrc/hb_core.c``, ``csrc/hb_solve.c`` and ``csrc/hb_eval.c``
in, so it calls the same rule functions as the cffi core.  Paths are relative to the project root.
"""

from __future__ import annotations

import os

from setuptools import Extension

SOURCES = [
    "csrc/py/hb_calls.c",
    "csrc/py/hb_calls_solve.c",
    "csrc/py/hb_calls_games.c",
    "csrc/py/hb_calls_play.c",
    "csrc/py/hb_calls_trick.c",
    "csrc/py/hb_calls_eval.c",
    "csrc/py/hb_calls_vec.c",
    "csrc/hb_core.c",
    "csrc/hb_solve.c",
    "csrc/hb_eval.c",
]
DEPENDS = [
    "csrc/hb_core.h",
    "csrc/hb_vec.h",
    "csrc/hb_solve.h",
    "csrc/hb_internal.h",
    "csrc/py/hb_calls.h",
    "csrc/py/hb_calls_play.h",
]
HIDDEN = ["-fvisibility=hidden"] if os.name == "posix" else []
"""Only the module's entry point is exported (GCC and Clang): calls between the C files are direct."""


def extension(
    required: bool, compile_args: list[str] | None = None, link_args: list[str] | None = None
) -> Extension:
    """The extension; unless ``required``, a failed compile leaves it out (a pure-Python install)."""
    return Extension(
        "hucklebuck._hbcall",
        sources=list(SOURCES),
        include_dirs=["csrc"],
        depends=list(DEPENDS),
        extra_compile_args=["-std=c99", "-O2", *HIDDEN, *(compile_args or [])],
        extra_link_args=list(link_args or []),
        optional=not required,
    )
