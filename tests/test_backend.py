"""Core selection: environment variable, fallback without cffi, stale modules."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import hucklebuck
from hucklebuck import BackendError

pytestmark = pytest.mark.single_core
HAS_C = "c" in hucklebuck.available()

BLOCK_CFFI = "import sys; sys.modules['_cffi_backend'] = None\n"


def run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k != "HUCKLEBUCK_BACKEND"} | env
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=full_env, timeout=60
    )


def test_python_mode_never_loads_the_c_module() -> None:
    r = run(
        "import sys, hucklebuck as h; print(h.backend(), 'hucklebuck._hbc' in sys.modules)",
        HUCKLEBUCK_BACKEND="python",
    )
    assert r.stdout.split() == ["python", "False"], r.stderr


def test_without_cffi_auto_falls_back_to_python_with_a_reason() -> None:
    r = run(BLOCK_CFFI + "import hucklebuck as h; i = h.backend_info(); print(i.name); print(i.reason)")
    assert r.returncode == 0, r.stderr
    name, reason = r.stdout.splitlines()
    assert name == "python"
    if HAS_C:  # the module is built, only cffi is missing
        assert "cffi is not installed" in reason
    # and the library still works on the Python core
    r2 = run(
        BLOCK_CFFI + "import hucklebuck as h; "
        "print(h.trick_winner('deerpark', h.Suit.HEARTS, h.parse_cards('AH JD')))"
    )
    assert r2.stdout.strip() == "1", r2.stderr


def test_c_mode_without_cffi_fails_loudly() -> None:
    r = run(BLOCK_CFFI + "import hucklebuck", HUCKLEBUCK_BACKEND="c")
    assert r.returncode != 0
    assert "BackendError" in r.stderr and "HUCKLEBUCK_BACKEND=c" in r.stderr


def test_unknown_mode_is_an_error() -> None:
    r = run("import hucklebuck", HUCKLEBUCK_BACKEND="fortran")
    assert r.returncode != 0 and "must be auto, c or python" in r.stderr


@pytest.mark.skipif(not HAS_C, reason="C core not built")
def test_stale_module_is_refused() -> None:
    code = (
        "import sys, types\n"
        "m = types.ModuleType('hucklebuck._hbc')\n"
        "class L:\n"
        "    def hb_abi_version(self): return 999\n"
        "m.lib, m.ffi = L(), None\n"
        "sys.modules['hucklebuck._hbc'] = m\n"
        "import hucklebuck as h; print(h.backend()); print(h.backend_info().reason)"
    )
    r = run(code)
    assert r.returncode == 0, r.stderr
    name, reason = r.stdout.splitlines()
    assert name == "python" and "ABI version 999" in reason and "stale" in reason
    r = run(
        code.replace("import hucklebuck as h;", "import os; import hucklebuck as h;"), HUCKLEBUCK_BACKEND="c"
    )
    assert r.returncode != 0 and "ABI version 999" in r.stderr


@pytest.mark.skipif(not HAS_C, reason="C core not built")
def test_switching_cores_in_process() -> None:
    before = hucklebuck.backend()
    with hucklebuck.using("python"):
        assert hucklebuck.backend() == "python"
        with hucklebuck.using("c"):
            assert hucklebuck.backend() == "c"
    assert hucklebuck.backend() == before
    hucklebuck.set_backend("python")
    try:
        assert hucklebuck.backend_info().name == "python"
    finally:
        hucklebuck.set_backend(before)


def test_set_backend_rejects_nonsense_and_keeps_the_core() -> None:
    before = hucklebuck.backend()
    with pytest.raises(BackendError):
        hucklebuck.set_backend("gpu")
    assert hucklebuck.backend() == before
