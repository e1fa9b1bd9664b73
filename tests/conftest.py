"""Every test runs once per available core (the C core and the pure-Python core).

Tests marked ``single_core`` run once (they compare the cores themselves).
Set ``HUCKLEBUCK_TEST_REQUIRE_C=1`` (CI does) to make a missing C core an error
instead of quietly testing Python alone.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

# Bytecode caches on, whatever the environment says (before the package is imported).  The suite
# starts some hundreds of Python processes (the command line, servers, adapters, six workers), and
# with PYTHONDONTWRITEBYTECODE set each compiled the package, and each worker every test module,
# again: on a 2-core machine that was a quarter of the suite's CPU time (10 min 9 s against 7 min 38 s
# measured, 6 min 4 s against 4 min 44 s of wall clock).  The caches go where Python puts them
# (``__pycache__`` folders, which git ignores), and a stale one is never used.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    sys.dont_write_bytecode = False

# One thread for the linear algebra libraries (NumPy's OpenBLAS, and anything built on OpenMP or MKL),
# set before anything imports NumPy; subprocesses inherit it.  The suite already runs more workers
# than cores, and a BLAS that starts a thread per core and spins it between calls spent most of the
# CPU of the NumPy tests waiting: a learner's training in test_learn_defaults.py took 17 s of CPU with
# OpenBLAS's default threads and 1.8 s with one.
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

import hucklebuck  # noqa: E402 (after the thread settings above)

try:  # Hypothesis times nothing: its per-example deadline and its "too slow" check fail on a busy machine
    from hypothesis import HealthCheck
    from hypothesis import settings as _hypothesis_settings

    _hypothesis_settings.register_profile(
        "busy-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    _hypothesis_settings.load_profile("busy-machine")
except ImportError:  # pragma: no cover - the dev extra installs it
    pass

pytest_plugins = [
    "pg_kit",  # a real PostgreSQL for the tests that ask for it (postgres_server, pg_url)
    "warm_kit",  # what is not collected, and the test modules compiled once for a -n run
    "order_kit",  # the longest units of work first
]

BACKENDS = hucklebuck.available()

# Adapter scripts run as subprocesses by the tests, and the atheris fuzz harnesses
# (replayed by test_hardening_fuzz.py), are not test modules.
collect_ignore_glob = ["fixtures/*", "fuzz/*", "*_kit.py", "*_kit_async.py"]
# (the *_kit modules are helpers the server and browser tests import; --doctest-modules must not
# import them in a venv without the server extra)

if os.environ.get("HUCKLEBUCK_TEST_REQUIRE_C") == "1" and "c" not in BACKENDS:
    raise pytest.UsageError(
        "HUCKLEBUCK_TEST_REQUIRE_C=1 but the C core cannot be loaded: " + hucklebuck.backend_info().reason
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "single_core: run once, not once per core")
    # pytest-xdist 3 hands out ``--dist loadscope`` units biggest-count first, which puts the few
    # long browser and cluster tests last, alone on one worker; keep our order (order_kit.py) instead.
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_report_header(config: pytest.Config) -> str:
    return f"hucklebuck cores under test: {', '.join(BACKENDS)}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "core_name" in metafunc.fixturenames:
        single = metafunc.definition.get_closest_marker("single_core") is not None
        params = [BACKENDS[0]] if single else list(BACKENDS)
        metafunc.parametrize("core_name", params, indirect=True)


@pytest.fixture(autouse=True)
def core_name(request: pytest.FixtureRequest) -> Iterator[str]:
    """The name of the core this test runs against (it is active during the test)."""
    name: str = request.param
    with hucklebuck.using(name):
        yield name


@pytest.hookimpl(optionalhook=True)  # (a hook of pytest-xdist: unknown, and unused, without it)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers more than the cores, at most three per core.

    Part of this suite's time is spent waiting, not computing: on Chromium pages, on servers
    started, killed and restarted, on PostgreSQL, HAProxy and other subprocesses.  One worker per
    core leaves the cores idle through those waits (two workers took 6 min 43 s on a 2-core
    machine).  More workers than that keep the cores busy but make them slower: each worker's
    processes evict the others' caches and are switched more often.  In a fresh clone on a 2-core
    machine, six workers took 269 s of wall clock and 531 s of CPU, four took 250 s and 474 s
    (the same hour, the same load; docs/contributing.rst).
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return min(3 * cores, cores + 2)
