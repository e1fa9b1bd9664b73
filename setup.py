"""Build hook: decides whether the C core is compiled.

``HUCKLEBUCK_BUILD_C`` selects the mode:

The C core is two compiled modules: ``hucklebuck._hbc`` (cffi, from ``csrc/*.c``)
and ``hucklebuck._hbcall`` (the one-call functions, ``csrc/py/hb_calls.c``).

* ``auto`` (default): build the C core when cffi and a compiler are there;
  otherwise install the pure-Python core and print a warning.
* ``1``: the C core is required; a missing cffi or a failed compile is an error
  (use it for release wheels and CI).
* ``0``: never build it (a pure-Python install).

All metadata lives in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithSuite(build_py):
    """Also copy the conformance suite (conformance/) into hucklebuck/conformance/suite,
    so ``python -m hucklebuck.conformance run`` works from any install."""

    def run(self) -> None:
        super().run()
        src = Path(__file__).resolve().parent / "conformance"
        dst = Path(self.build_lib) / "hucklebuck" / "conformance" / "suite"
        if not (src / "cases").is_dir():
            return
        if dst.exists():
            shutil.rmtree(dst)
        for f in [src / "suite.json", *sorted((src / "cases").rglob("*.json"))]:
            target = dst / f.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, target)


HERE = Path(__file__).resolve().parent
MODE = os.environ.get("HUCKLEBUCK_BUILD_C", "auto").strip().lower()
if MODE not in {"auto", "1", "0"}:
    sys.exit(f"error: HUCKLEBUCK_BUILD_C must be auto, 1 or 0, not {MODE!r}")

kwargs: dict[str, object] = {"cmdclass": {"build_py": BuildPyWithSuite}}
if MODE != "0":
    try:
        import cffi  # noqa: F401
    except ImportError:
        if MODE == "1":
            sys.exit(
                "error: HUCKLEBUCK_BUILD_C=1 but cffi cannot be imported at build "
                "time; install cffi or build with build isolation"
            )
        sys.stderr.write(
            "WARNING: cffi is not available at build time; installing hucklebuck "
            "with the pure-Python core only (slower, same results)\n"
        )
    else:
        kwargs["cffi_modules"] = ["csrc/build_ffi.py:ffibuilder"]
        # The one-call functions in C (csrc/py/hb_calls.c, a CPython extension that links the
        # same rule functions): used only while the C core is the selected core.
        spec = importlib.util.spec_from_file_location("build_calls", HERE / "csrc" / "py" / "build_calls.py")
        assert spec is not None and spec.loader is not None
        build_calls = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(build_calls)
        kwargs["ext_modules"] = [build_calls.extension(required=MODE == "1")]

setup(**kwargs)  # type: ignore[arg-type]
