"""Build the C core with AddressSanitizer and UndefinedBehaviorSanitizer into a copy of the package.

``python tests/fuzz/build_asan.py DEST`` copies ``hucklebuck/`` to ``DEST/hucklebuck``
and compiles ``_hbc`` there from ``csrc/`` (same sources and declarations as
the normal build, see ``csrc/build_ffi.py``) with ``-fsanitize=address,undefined``,
and the one-call functions ``_hbcall`` (``csrc/py/build_calls.py``) the same way.
Run the harnesses with ``PYTHONPATH=DEST`` and the sanitizer runtimes preloaded
(``.ci/run`` shows how).
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g", "-O1"]


def main(dest: str) -> None:
    """Copy the package to ``dest`` and build the sanitized C core inside it."""
    out = Path(dest).resolve()
    target = out / "hucklebuck"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(
        ROOT / "hucklebuck", target, ignore=shutil.ignore_patterns("_hbc*.so", "_hbcall*.so", "__pycache__")
    )
    spec = importlib.util.spec_from_file_location("build_ffi", ROOT / "csrc" / "build_ffi.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    ffi = build.make_ffi()
    # the normal build's module name, sources and declarations, plus the sanitizer flags
    module, source, ext, kwds = ffi._assigned_source
    kwds = dict(kwds, optional=False)
    for key in ("sources", "include_dirs", "depends"):  # compile() runs in tmpdir: make paths absolute
        kwds[key] = [str(ROOT / p) for p in kwds.get(key, [])]
    kwds["extra_compile_args"] = [*kwds.get("extra_compile_args", []), *FLAGS]
    kwds["extra_link_args"] = [*kwds.get("extra_link_args", []), "-fsanitize=address,undefined"]
    ffi._assigned_source = (module, source, ext, kwds)
    built = ffi.compile(tmpdir=str(out / "build"), verbose=False)
    so = Path(built)
    shutil.copy2(so, target / so.name)
    print(f"sanitized C core: {target / so.name}")
    calls = build_calls(out / "build-calls")
    shutil.copy2(calls, target / calls.name)
    print(f"sanitized one-call functions: {target / calls.name}")


def build_calls(work: Path) -> Path:
    """Compile ``hucklebuck._hbcall`` with the sanitizers into ``work``; the path of the module."""
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    spec = importlib.util.spec_from_file_location("build_calls", ROOT / "csrc" / "py" / "build_calls.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    ext = build.extension(required=True, compile_args=FLAGS, link_args=["-fsanitize=address,undefined"])
    cmd = build_ext(Distribution({"ext_modules": [ext]}))
    cmd.build_lib = str(work / "lib")
    cmd.build_temp = str(work / "temp")
    cmd.force = True
    cmd.ensure_finalized()
    cmd.run()
    return Path(cmd.get_ext_fullpath(ext.name))


if __name__ == "__main__":
    import os

    os.chdir(ROOT)  # the sources are named relative to the project root
    main(sys.argv[1])
