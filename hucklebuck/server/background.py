"""Threads of the server that do background work (computer players' thinking, hints, syncing the
store's log) give way to the event loop, which answers every person.

On Linux such a thread runs under the ``SCHED_BATCH`` policy: when it wakes, it does not take the
CPU from the thread running there (the event loop, often), but waits for a free core or the
scheduler's next tick (4 ms at most on common kernels).  Its share of the CPU is unchanged: the
work is done as soon as before when a core is free, and a moment later when none is.  The event
loop is then interrupted less often, and each interruption costs it more than its length: its
caches are cold afterwards.  Elsewhere nothing changes.
"""

from __future__ import annotations

import os

__all__ = ["background_thread"]


def background_thread() -> None:
    """Mark the calling thread as background work (see the module); nothing if the system has no
    such policy or refuses it."""
    setter = getattr(os, "sched_setscheduler", None)
    batch = getattr(os, "SCHED_BATCH", None)
    if setter is None or batch is None:
        return
    try:
        setter(0, batch, os.sched_param(0))  # (0: the calling thread)
    except OSError:
        pass
