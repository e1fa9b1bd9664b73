"""A quicker start for every test run (a pytest plugin: ``pytest_plugins`` in ``conftest.py``).

**What is not collected.**  pytest reads the docs for their doctest sessions (the ``.rst`` pages).
The Sphinx extensions, the Sphinx configuration and the example programs hold no doctests, and
importing them for ``--doctest-modules`` only loaded Sphinx and docutils into every test worker
(about half a second each); the examples are run by their own tests.

**The test modules compiled once**, in the controller of a ``pytest -n`` run, before its workers start.

pytest rewrites the ``assert`` statements of every test module and keeps the result in
``__pycache__``.  In a fresh clone there is no such cache yet, and the workers of a ``-n`` run all
start at the same moment: each found no cache and rewrote every module itself.  On a 2-core machine
that was about 4 s of CPU per worker (a cold collection took 7.8 s of CPU, a warm one 3.4 s), four
times over, while no test could start.  Here the controller rewrites them first, with pytest's own
functions, split over the cores, and writes the same cache files pytest would; the workers then read
them.  The package is byte-compiled the same way.  Anything unexpected (another pytest, a read-only
folder) leaves the work to the workers, as before: this only saves time.
"""

from __future__ import annotations

import compileall
import os
import sys
from fnmatch import fnmatch
from pathlib import Path

import pytest

_NOT_COLLECTED = ("docs/_ext/", "docs/examples/", "docs/conf.py")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """True for the docs' Python files, which hold no doctests (see the module's docstring)."""
    try:
        where = collection_path.resolve().relative_to(config.rootpath.resolve()).as_posix()
    except ValueError:
        return None
    if where.startswith(_NOT_COLLECTED) or where + "/" in _NOT_COLLECTED:
        return True
    return None


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _test_files(config: pytest.Config) -> list[Path]:
    patterns = [*config.getini("python_files"), "conftest.py"]
    folder = Path(__file__).resolve().parent
    return sorted(p for p in folder.glob("*.py") if any(fnmatch(p.name, pat) for pat in patterns))


def _rewrite(files: list[Path], config: pytest.Config) -> None:
    from _pytest.assertion.rewrite import (
        PYC_TAIL,
        _read_pyc,
        _rewrite_test,
        _write_pyc,
        assertstate_key,
        get_cache_dir,
        try_makedirs,
    )

    state = config.stash[assertstate_key]
    for fn in files:
        cache = get_cache_dir(fn)
        if not try_makedirs(cache):
            return
        pyc = cache / (fn.name[:-3] + PYC_TAIL)
        if _read_pyc(fn, pyc, state.trace) is not None:
            continue
        try:
            source_hash, co = _rewrite_test(fn, config)
        except SyntaxError:  # pytest reports it when the worker collects the module
            continue
        _write_pyc(state, co, source_hash, pyc)


def _work(part: int, parts: int, files: list[Path], config: pytest.Config) -> None:
    _rewrite(files[part::parts], config)
    package = Path(__file__).resolve().parent.parent / "hucklebuck"
    if part == 0 and package.is_dir():
        compileall.compile_dir(str(package), quiet=2)


def pytest_configure(config: pytest.Config) -> None:
    """In the controller of a ``-n`` run (not in a worker, not without xdist): write the rewritten test
    modules' caches before the workers start, in one forked process per core."""
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 2:
        return
    if sys.dont_write_bytecode or config.getoption("assertmode") != "rewrite":
        return
    try:
        files = _test_files(config)
        parts = max(1, min(_cores(), 4)) if hasattr(os, "fork") else 1
        children = []
        for part in range(1, parts):
            pid = os.fork()
            if pid == 0:  # pragma: no cover - a child; it never returns to pytest
                code = 0
                try:
                    _work(part, parts, files, config)
                except BaseException:
                    code = 1
                os._exit(code)
            children.append(pid)
        try:
            _work(0, parts, files, config)
        finally:
            for pid in children:
                os.waitpid(pid, 0)
    except (ImportError, AttributeError, KeyError, OSError):  # another pytest: the workers do it
        return
