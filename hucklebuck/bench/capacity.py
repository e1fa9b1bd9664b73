"""Benchmark section ``capacity`` (opt-in: ``python -m hucklebuck.bench capacity``): the CPU one
server process spends per table change, alone on the PostgreSQL database and with a second
process beside it on the same database, so that how the servers scale can be judged on a
machine that is not shared with the clients, whatever this one is doing.

Each run starts fresh ``hucklebuck serve`` processes on a fresh database of one throw-away
PostgreSQL with the advised settings (:mod:`hucklebuck.bench.pgtemp`); every process holds
:data:`TABLES` tables at the default pacing, each with one scripted person (section
``cluster``'s :func:`~hucklebuck.bench.servers.measure`, which also checks that no
acknowledged move was lost).  The CPU time of the server processes and of PostgreSQL's own
processes is read from ``/proc`` over the timed part and divided by the table changes made
(moves and deals).  The 1-process and 2-process runs alternate (:data:`ROUNDS` of each), so
that a change in what else the machine runs falls on both; the median of each is reported, and
their ratio, with the load average.  Target: a second process raises the per-change cost of a
process by at most 10 %.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess

from . import mark

__all__ = ["ROUNDS", "TABLES", "per_change", "run"]

TABLES = 100
"""Tables per server process."""
ROUNDS = 3
"""Runs of each kind, alternating."""


def per_change(run: object) -> tuple[float, float, int]:
    """Milliseconds of server CPU and of PostgreSQL CPU per table change in a run of
    :func:`~hucklebuck.bench.servers.measure`, and the changes counted."""
    changes = max(1.0, getattr(run, "rate", 0.0) * getattr(run, "window", 0.0))
    return getattr(run, "cpu", 0.0) / changes * 1e3, getattr(run, "db_cpu", 0.0) / changes * 1e3, int(changes)


def run(args: argparse.Namespace) -> None:
    """Print the figures (see the module docstring)."""
    try:
        import psycopg  # noqa: F401
        import websockets  # noqa: F401
    except ImportError:
        print("capacity: skipped, needs the server and postgres extras "
              "(pip install 'hucklebuck[server,postgres]')")  # fmt: skip
        return
    from .pgtemp import start_postgres
    from .servers import measure

    try:
        pg = start_postgres(durable=True)
    except (FileNotFoundError, RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"capacity: skipped, no PostgreSQL to start ({exc})")
        return
    seconds = max(10.0, 40.0 * args.scale)
    print(
        f"capacity: {TABLES} tables per server process at the default pacing, {seconds:.0f} s timed per run, "
        f"1 and 2 processes on one PostgreSQL alternating, {ROUNDS} runs each"
    )
    found: dict[int, list[tuple[float, float, int, float]]] = {1: [], 2: []}
    try:
        for _round in range(ROUNDS):
            for processes in (1, 2):
                r = measure("postgres", processes, TABLES * processes, seconds, pg)
                server, db, changes = per_change(r)
                load = sum(r.load) / 2
                found[processes].append((server, db, changes, load))
                problems = f"; PROBLEMS: {r.problems[:3]}" if r.problems else ""
                print(
                    f"  {processes} process{'es' if processes > 1 else ''}: {changes} changes, "
                    f"{server:.2f} ms server CPU a change, {db:.2f} ms PostgreSQL CPU a change "
                    f"(load average {load:.1f}){problems}",
                    flush=True,
                )
    finally:
        pg.stop()
    one = statistics.median(s for s, _d, _c, _l in found[1])
    two = statistics.median(s for s, _d, _c, _l in found[2])
    db_one = statistics.median(d for _s, d, _c, _l in found[1])
    db_two = statistics.median(d for _s, d, _c, _l in found[2])
    rise = two / one - 1 if one > 0 else float("nan")
    loads = [lo for runs in found.values() for _s, _d, _c, lo in runs]
    print(
        f"server CPU a change, per process: {one:.2f} ms alone, {two:.2f} ms beside a second process: "
        f"{rise * 100:+.1f} % {mark(rise * 100, '<= 10')}"
    )
    print(f"PostgreSQL CPU a change (apart): {db_one:.2f} ms with 1 process, {db_two:.2f} ms with 2")
    print(f"load average during the runs: {min(loads):.1f} to {max(loads):.1f} on {os.cpu_count()} cpus")
