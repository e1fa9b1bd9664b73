"""Benchmarks: both cores (and, where it applies, other libraries) measured in one run.

``python -m hucklebuck.bench`` runs every section; ``python -m hucklebuck.bench
SECTION ...`` runs only those.  Figures depend on the machine, which is printed
first, with the load average.  Each section lives in its own module of this package and exposes
``run(args)``; :data:`SECTIONS` maps the section names to those modules.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform

from . import targets

__all__ = ["OPT_IN", "SECTIONS", "load_line", "main", "mark"]

SECTIONS: dict[str, str] = {
    "core": "hucklebuck.bench.core",
    "dask": "hucklebuck.bench.cluster",
    "sessions": "hucklebuck.bench.sessions",
    "games": "hucklebuck.bench.games",
    "solver": "hucklebuck.bench.solver",
    "players": "hucklebuck.bench.players",
    "calls": "hucklebuck.bench.calls",
    "vector": "hucklebuck.bench.vector",
    "server": "hucklebuck.bench.server",
    "chaos": "hucklebuck.bench.chaos",
    "chaos-cluster": "hucklebuck.bench.chaos_cluster",
    "capacity": "hucklebuck.bench.capacity",
    "cluster": "hucklebuck.bench.servers",
    "mutation": "hucklebuck.bench.mutation",
}
"""Section name -> module with a ``run(args: argparse.Namespace) -> None`` function.  (``dask`` was
called ``cluster`` before ``cluster`` became the several-servers section.)"""

OPT_IN: frozenset[str] = frozenset({"server", "cluster", "mutation", "chaos", "chaos-cluster", "capacity"})
"""Sections too long for the default run: they run only when named."""


DESCRIPTION = """\
Benchmarks: both cores (and, where it applies, other libraries) measured in one
run. With no SECTION every section runs except the long opt-in ones; name
sections to run only those. Figures depend on the machine, which is printed
first with its load. Each figure with a target is marked met or MISS as it is
printed, and all of them again at the end; --guard makes a wide miss of a ratio
fail the run (exit status 1) when the machine was quiet, and only reports it
when the machine was loaded."""


def mark(value: float, target: str) -> str:
    """``[target]``, then ``MISSED`` if ``value`` misses it (``">= 10"``, ``"<= 5"``; ``"-"``: no target)."""
    op, _, bound = target.partition(" ")
    try:
        limit = float(bound)
    except ValueError:
        return f"[{target}]"
    met = value >= limit if op == ">=" else value <= limit if op == "<=" else True
    return f"[{target}]" + ("" if met else "  MISSED")


def load_line() -> str:
    """The machine's load averages over 1, 5 and 15 minutes, against its CPU count."""
    try:
        one, five, fifteen = os.getloadavg()
    except (OSError, AttributeError):  # not on this platform
        return "load: not available here"
    cpus = os.cpu_count() or 1
    busy = "  (busy: figures may be low)" if one >= 0.5 * cpus else ""
    return f"load: {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min) on {cpus} cpus{busy}"


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the chosen sections (all by default)."""
    parser = argparse.ArgumentParser(prog="python -m hucklebuck.bench", description=DESCRIPTION)
    parser.add_argument(
        "sections",
        nargs="*",
        metavar="SECTION",
        help=f"sections: {', '.join(SECTIONS)} (default: all"
        + (f" but {', '.join(sorted(OPT_IN))})" if OPT_IN else ")"),
    )
    parser.add_argument("--items", type=int, default=200_000, help="items per batch")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    parser.add_argument("--scale", type=float, default=1.0, help="scale every workload (CI: 0.5)")
    parser.add_argument(
        "--guard",
        action="store_true",
        help=(
            f"exit 1 when a ratio misses its target by more than {targets.WIDE:.0%} on a quiet machine "
            f"({targets.QUIET})"
        ).replace("%", "%%"),
    )
    parser.add_argument("--record", metavar="FILE", help="append every target's verdict to FILE (JSON lines)")
    args = parser.parse_args(argv)
    unknown = [s for s in args.sections if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r} (choose from {', '.join(SECTIONS)})")
    if args.items < 1 or args.repeat < 1 or args.scale <= 0:
        parser.error("--items and --repeat must be at least 1 and --scale above 0")
    print(
        f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()} "
        f"python={platform.python_version()} ({platform.python_implementation()})"
    )
    before = targets.load()
    print(before.line())
    targets.reset()
    for name in args.sections or [s for s in SECTIONS if s not in OPT_IN]:
        print(f"\n===== {name} =====")
        importlib.import_module(SECTIONS[name]).run(args)
    if args.guard and targets.quiet(before, targets.load()):
        for name in targets.sections_to_confirm():  # a wide miss on a quiet machine: measured once more
            print(f"\n===== {name} (again: a wide miss fails the guard only if it repeats) =====")
            importlib.import_module(SECTIONS[name]).run(args)
    return targets.summary(before, targets.load(), args.guard, args.record)
