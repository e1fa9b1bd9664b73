"""Issue 24: Ctrl-C stops every long call into the C core.

Each test starts a process that makes one long C call (a bulk simulation, a
search by each method, a Monte Carlo evaluation by each method), sends it
SIGINT once the call is under way, and checks that the process ends soon
after with a KeyboardInterrupt.  Before, each of these calls ran to its end
(one to several minutes of work) whatever Ctrl-C said.  The work is sized so
that an uninterrupted call would take far longer than the wait allowed here.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hb_helpers import busy_for, default_sigint, interrupt

import hucklebuck

pytestmark = pytest.mark.single_core

if "c" not in hucklebuck.available():  # pragma: no cover - CI builds the C core
    pytest.skip("the C core is not built here: these tests are about its long calls", allow_module_level=True)

#: CPU seconds the process may use after SIGINT (the C loops look at the cancel flag every
#: few milliseconds; the rest is the interpreter winding down).  CPU time, not wall time: other
#: jobs on the machine make the wait longer but not the work.  An uninterrupted call runs for
#: minutes, so the bound tells a stopped call from one run to its end.
ENDS_WITHIN = 1.0
#: CPU seconds the call uses before the signal (it is inside the C call by then).
UNDER_WAY = 0.4

SETUP = {
    "simulation": "import hucklebuck.evaluate as ev\ncall = lambda: ev.simulate_hucklebuck(4, 30_000_000)",
    "simulation on threads": (
        "import hucklebuck.evaluate as ev\ncall = lambda: ev.simulate_deerpark(4, 60_000_000, workers=2)"
    ),
    "search, solver": (
        "from hucklebuck.games import HucklebuckGame\n"
        "from hucklebuck.players import MonteCarloPlayer\n"
        "g = HucklebuckGame(4, seed=1)\n"
        "p = MonteCarloPlayer(samples=100_000, method='solver', seed=1)\n"
        "call = lambda: p.choose(g.observation(g.to_act))"
    ),
    "search, playout": (
        "from hucklebuck.games import HucklebuckGame\n"
        "from hucklebuck.players import MonteCarloPlayer\n"
        "g = HucklebuckGame(4, seed=1)\n"
        "p = MonteCarloPlayer(samples=100_000, method='playout', seed=1)\n"
        "call = lambda: [p.choose(g.observation(g.to_act)) for _ in range(1000)]"
    ),
    "evaluation, playout": (
        "import hucklebuck as hb\nfrom hucklebuck.evaluate import evaluate_hand\n"
        "call = lambda: evaluate_hand('hucklebuck', hb.Suit.SPADES, hb.parse_cards('AS KS QS 2H 3D'),"
        " players=4, samples=2**32 - 1)"
    ),
    "evaluation, solver": (
        "import hucklebuck as hb\nfrom hucklebuck.evaluate import evaluate_hand\n"
        "call = lambda: evaluate_hand('hucklebuck', hb.Suit.SPADES, hb.parse_cards('AS KS QS 2H 3D'),"
        " players=4, samples=10**7, method='solver')"
    ),
}


@pytest.mark.parametrize("what", list(SETUP))
def test_sigint_ends_a_long_c_call_at_once(what: str) -> None:
    script = (
        "import hucklebuck, sys\n"
        "hucklebuck.set_backend('c')\n"
        f"{SETUP[what]}\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    call()\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n"
        "print('finished', flush=True)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        busy_for(proc, UNDER_WAY)
        try:
            out, err, took = interrupt(proc)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{what}: still running 120 s after SIGINT")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 3 and out.strip() == "interrupted", (out, err)
    assert took < ENDS_WITHIN, f"{what}: used {took:.2f} s of CPU after SIGINT"
