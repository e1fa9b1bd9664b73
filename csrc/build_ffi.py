"""cffi build script for the C core (out-of-line API mode).

setup.py names this file in ``cffi_modules``.  The cdef is read from the
CDEF-BEGIN/CDEF-END block of ``hb_core.h`` so there is one declaration of the
C API.  ``HUCKLEBUCK_BUILD_C=1`` makes a compile failure fatal; otherwise the
extension is optional and a failure leaves a pure-Python install.
"""

from __future__ import annotations

import os
import pathlib

from cffi import FFI

HERE = pathlib.Path(__file__).resolve().parent
HEADER = HERE / "hb_core.h"
VEC_HEADER = HERE / "hb_vec.h"
THREADS = ["-pthread"] if os.name == "posix" else []
HIDDEN = ["-fvisibility=hidden"] if os.name == "posix" else []
"""Only the module's entry point is exported (GCC and Clang): calls between the C files are then
direct, not through the symbol table, and the compiler may inline within a file."""
"""The batched lane's worker threads (csrc/hb_vec_pool.c) are POSIX threads."""


def read_cdef(header: pathlib.Path = HEADER) -> str:
    """Return the declarations between the CDEF markers of ``header``."""
    text = header.read_text(encoding="utf-8")
    start = text.index("/* CDEF-BEGIN */") + len("/* CDEF-BEGIN */")
    end = text.index("/* CDEF-END */")
    return text[start:end]


def make_ffi() -> FFI:
    """Build the FFI object that compiles ``hucklebuck._hbc``."""
    required = os.environ.get("HUCKLEBUCK_BUILD_C", "auto") == "1"
    ffi = FFI()
    ffi.cdef(read_cdef() + read_cdef(VEC_HEADER))
    ffi.set_source(
        "hucklebuck._hbc",
        '#include "hb_core.h"\n#include "hb_vec.h"',
        sources=[
            "csrc/hb_core.c",
            "csrc/hb_eval.c",
            "csrc/hb_sim.c",
            "csrc/hb_search.c",
            "csrc/hb_search_check.c",
            "csrc/hb_search_reads.c",
            "csrc/hb_maxn.c",
            "csrc/hb_solve.c",
            "csrc/hb_vec.c",
            "csrc/hb_vec_dp.c",
            "csrc/hb_vec_hb.c",
            "csrc/hb_vec_be.c",
            "csrc/hb_vec_rng.c",
            "csrc/hb_vec_read.c",
            "csrc/hb_vec_ids.c",
            "csrc/hb_vec_pool.c",
            "csrc/hb_vec_pool_cpu.c",
            "csrc/hb_vec_predeal.c",
            "csrc/hb_vec_calls.c",
        ],
        include_dirs=["csrc"],
        depends=[
            "csrc/hb_core.h",
            "csrc/hb_internal.h",
            "csrc/hb_solve.h",
            "csrc/hb_vec.h",
            "csrc/hb_vec_internal.h",
            "csrc/hb_vec_row.h",
            "csrc/hb_vec_pool_internal.h",
        ],
        extra_compile_args=["-std=c99", "-O2", *THREADS, *HIDDEN],
        extra_link_args=THREADS,
        optional=not required,
    )
    return ffi


ffibuilder = make_ffi()

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
