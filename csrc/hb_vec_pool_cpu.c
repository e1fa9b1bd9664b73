/*
 * hb_vec_pool_cpu.c -- which core a thread of the batched lane's pool runs on, and moving a worker
 * off the caller's core (Linux; elsewhere the pool does without).
 *
 * A worker that sleeps between calls is woken by the caller, and the kernel often wakes it on the
 * caller's own core (where its wakee's data is thought to be warm) while the other core idles.  The
 * two threads of a pass then share one core, each spinning while it waits for the other, until the
 * kernel's load balancing moves one of them, milliseconds later: at 1,024 Deer Park tables a step
 * then took 42 us, no less than on one thread (40), where two threads on two cores took 22 (in a
 * run of short bursts of steps, the worker ran on the caller's core in 1,974 of 3,548 passes, and
 * in 1,972 of the 2,029 that took over 30 us).  So a
 * worker that joins a pass on the core the caller opened it on moves itself off that core: it
 * leaves the core out of its own set for a moment (which moves it at once) and takes its set back
 * as it was (which does not move it again).  A thread whose set is that one core stays.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif
#include "hb_vec_pool_internal.h"

#if HB_POOL_THREADS && defined(__linux__)
#include <sched.h>

int hb_p_cpu(void) { return sched_getcpu(); }

int hb_p_move_off(int cpu)
{
    cpu_set_t mine, others;
    if (cpu < 0 || cpu >= CPU_SETSIZE) return 0;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) return 0;
    others = mine;
    CPU_CLR(cpu, &others);
    if (CPU_COUNT(&others) == 0) return 0;  /* its only core */
    if (sched_setaffinity(0, sizeof others, &others) != 0) return 0;
    (void)sched_setaffinity(0, sizeof mine, &mine);
    return 1;
}
#else
int hb_p_cpu(void) { return -1; }

int hb_p_move_off(int cpu)
{
    (void)cpu;
    return 0;
}
#endif
