"""The bench's targets: each section compares its figures with their targets here, and
``python -m hucklebuck.bench`` sums them up at the end, with the machine's load.

A ratio measured in one run with both sides interleaved (C core / Python core,
ours / OpenSpiel) holds up on a busy machine far better than an absolute
figure, but a loaded machine still bends it: the two sides do not suffer the
load equally (the slower side's longer runs catch more interruptions).  So
``--guard`` (what CI runs) fails only on a **wide** miss -- a ratio more than
:data:`WIDE` short of its target -- and only when the machine was **quiet**
(see :func:`quiet`); on a loaded machine a miss is printed and recorded
(``--record FILE``), never failed, because a failure there would say more
about the neighbours than about the code.  Absolute figures (microseconds,
milliseconds) are compared and marked too, but never fail a run.

A quiet load average does not rule out neighbours on a shared host: on a
virtual machine another tenant can take the cache or the memory bandwidth for
seconds without any load showing here (on a two-core virtual machine, one quiet
run measured a ratio 35% short, and runs of the same code minutes apart varied by
a third).  So ``--guard`` measures a section with a wide miss
once more (:func:`sections_to_confirm`), and fails only on a ratio missed
widely **every** time it was measured: a slip in the code repeats, a
neighbour's burst seldom does.  Both measurements are printed and recorded.

Where the hardware itself bounds a ratio (two threads against one), the section measures that
bound in the same rounds -- the same work split between two threads that never wait for each
other -- and passes it as the target's ``ceiling``: a miss where the machine itself fell short of
the target is marked as such and never counts as wide (on one two-core host, two such independent
threads gave anywhere from 1.4 to 1.95 times one thread within an hour).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass

__all__ = [
    "QUIET",
    "RESULTS",
    "WIDE",
    "Load",
    "Target",
    "check",
    "load",
    "quiet",
    "reset",
    "sections_to_confirm",
    "summary",
]

WIDE = 0.20
"""A ratio more than this fraction short of its target is a wide miss (fails ``--guard`` when quiet)."""


@dataclass(frozen=True)
class Target:
    """One figure compared with its target."""

    section: str
    label: str
    value: float
    target: float
    higher: bool
    """True when the figure must be at least the target, False when at most."""
    ratio: bool
    """True for a ratio measured in one run (guarded), False for an absolute figure (only shown)."""
    ceiling: float | None = None
    """For a ratio the hardware bounds (two threads against one): what the machine itself gave at
    the same moments, with no code of ours between the threads (``None``: not measured)."""
    pending: bool = False
    """A raised target the code does not reach yet: measured and shown with its verdict in every run,
    but a miss never fails ``--guard`` (see :data:`PENDING`)."""

    @property
    def met(self) -> bool:
        """Whether the figure meets its target."""
        return self.value >= self.target if self.higher else self.value <= self.target

    @property
    def shortfall(self) -> float:
        """How far short of the target, as a fraction of it (0 when met)."""
        if self.met:
            return 0.0
        if self.higher:
            return 1 - self.value / self.target
        return self.value / self.target - 1 if self.target > 0 else float("inf")

    @property
    def machine_bound(self) -> bool:
        """A miss where the machine itself fell short of the target at the same moments."""
        return not self.met and self.ceiling is not None and not self._meets(self.ceiling)

    def _meets(self, value: float) -> bool:
        return value >= self.target if self.higher else value <= self.target

    @property
    def wide(self) -> bool:
        """A ratio missed by more than :data:`WIDE`, the machine itself having reached the target
        (a miss it bounds says more about the host than about the code)."""
        return self.ratio and not self.pending and self.shortfall > WIDE and not self.machine_bound

    def line(self) -> str:
        """The figure, its target and the verdict, as printed."""
        sign = ">=" if self.higher else "<="
        if self.met:
            verdict = "met"
        else:
            how = "WIDE MISS" if self.wide else "MISS"
            verdict = f"*** {how}: {self.shortfall:.0%} short ***"
            if self.machine_bound:
                verdict += f" (the machine itself gave {self.ceiling:.2f} then)"
        kind = "" if self.ratio else " (absolute: not guarded)"
        if self.ratio and self.pending:
            kind = " (raised target the code does not reach yet: shown, not guarded)"
        return f"{self.label}: {self.value:,.2f} [target {sign} {self.target:g}] {verdict}{kind}"


PENDING: frozenset[tuple[str, str]] = frozenset()
"""Raised targets the code does not reach yet: each is measured and printed as met or missed in
every run, and guarded again once the code reaches it.  None now (December 2026, the project's
two-core machine): the lane against the bare C simulation is at 0.81-0.85 against 0.8, integer
actions against OpenSpiel at 1.04-1.08 against 1.0, and typed actions at 0.94-1.01 against 0.8,
all guarded again."""

RESULTS: list[Target] = []
"""Every target checked in this run, in order."""


def check(
    section: str,
    label: str,
    value: float,
    target: float,
    *,
    higher: bool = True,
    ratio: bool = True,
    ceiling: float | None = None,
) -> str:
    """Record ``value`` against ``target`` (and the machine's own ``ceiling``, when measured) and
    return the line to print (a label in :data:`PENDING` is shown but never guarded)."""
    pending = (section, label) in PENDING
    t = Target(section, label, float(value), float(target), higher, ratio, ceiling, pending)
    RESULTS.append(t)
    return t.line()


def reset() -> None:
    """Forget the targets checked so far (a new run)."""
    RESULTS.clear()


def _measurements() -> dict[tuple[str, str], list[Target]]:
    """Every measurement of each target so far, by section and label, in order."""
    out: dict[tuple[str, str], list[Target]] = {}
    for t in RESULTS:
        out.setdefault((t.section, t.label), []).append(t)
    return out


def sections_to_confirm() -> list[str]:
    """The sections with a target missed widely at its only measurement (run them once more)."""
    return sorted({key[0] for key, ts in _measurements().items() if len(ts) == 1 and ts[0].wide})


@dataclass(frozen=True)
class Load:
    """The machine's load average (1, 5, 15 minutes) and CPU count at one moment."""

    one: float
    five: float
    fifteen: float
    cpus: int

    def line(self) -> str:
        """The load as printed."""
        return (
            f"load average {self.one:.2f} {self.five:.2f} {self.fifteen:.2f} on {self.cpus} CPUs "
            f"({self.one / self.cpus:.2f} per CPU)"
        )


def load() -> Load:
    """The load now (zeros where the system has no load average)."""
    try:
        one, five, fifteen = os.getloadavg()
    except (AttributeError, OSError):  # pragma: no cover - not on Linux
        one = five = fifteen = 0.0
    return Load(one, five, fifteen, os.cpu_count() or 1)


QUIET = "1-minute load at most half the CPUs before the run, and at most that plus one (the bench) after it"
"""What :func:`quiet` asks of the machine."""


def quiet(before: Load, after: Load) -> bool:
    """Whether the machine was quiet enough for a miss to mean the code (see :data:`QUIET`)."""
    return before.one <= before.cpus / 2 and after.one <= after.cpus / 2 + 1


def summary(before: Load, after: Load, guard: bool, record: str | None) -> int:
    """Print every target's verdict and the load; the exit status for ``--guard``."""
    print("\n===== targets =====")
    print(f"before: {before.line()}")
    print(f"after:  {after.line()}")
    calm = quiet(before, after)
    print(f"the machine was {'quiet' if calm else 'LOADED'} (quiet: {QUIET})")
    for t in RESULTS:
        print(f"  [{t.section}] {t.line()}")
    groups = _measurements()
    missed = [ts[-1] for ts in groups.values() if not any(t.met for t in ts)]  # (met once: met)
    wide = [ts[-1] for ts in groups.values() if all(t.wide for t in ts)]  # (wide every time it was measured)
    again = sum(len(ts) > 1 for ts in groups.values())
    if again:
        print(f"({again} target(s) measured twice: a miss counts when it repeats)")
    if not RESULTS:
        print("no targets in the sections run")
    elif not missed:
        print(f"all {len(groups)} targets met")
    else:
        bound = sum(ts[-1].machine_bound for ts in groups.values() if not any(t.met for t in ts))
        print(
            f"{len(missed)} of {len(groups)} targets missed, {len(wide)} of them ratios missed widely"
            + (f"; {bound} where the machine itself fell short" if bound else "")
        )
    if record is not None:
        with open(record, "a", encoding="utf-8") as f:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            for t in RESULTS:
                row = asdict(t) | {"met": t.met, "wide": t.wide, "quiet": calm, "when": stamp}
                row |= {"load_before": before.one, "load_after": after.one, "cpus": before.cpus}
                f.write(json.dumps(row) + "\n")
        print(f"recorded in {record}")
    if not guard or not wide:
        return 0
    if calm:
        print(f"FAILED: {len(wide)} ratio(s) more than {WIDE:.0%} short of target on a quiet machine")
        return 1
    print(f"not failed: {len(wide)} wide miss(es) recorded, but the machine was loaded")
    return 0
