/*
 * hb_vec_pool_split.c -- where the calling thread's part of a pass ends (hb_vec_pool.c's parts).
 *
 * With even parts, the two threads of a pool do not end their parts together on average: the
 * worker, which waits while the caller is between calls (in Python, in a training loop), shuffles
 * most of its tables' next deals ahead in that time (hb_vec_predeal.c), and the caller, which
 * waits only for the worker, does fewer; so the caller ends a step last, most of the time.  The
 * caller learns a boundary from the threads' ends over many passes: after each window of passes
 * it moves the boundary by one block of tables towards the thread that ended later, only when the
 * average gap between the ends is larger than what moving one block changes it by (so it does not
 * swing back and forth), and never by more than a block a window.  A table that changes threads
 * finds no shuffle ready in its new thread's memo (it shuffles: the results are the same), and its
 * state moves to the other core once: moves are rare.  The outputs are the same for any boundary.
 */
#include "hb_vec_pool_internal.h"

#define SPLIT_WINDOW 512   /* passes per look at the average gap */
#define SPLIT_BLOCK 8      /* tables moved at a time */
#define SPLIT_MOST 64      /* the caller's part is at most this much shorter or longer than an even share */

#ifdef HB_SPLIT_KNOB
int32_t hb_v_split_fixed = INT32_MIN;  /* (a timing driver's switch: a fixed give, unless INT32_MIN) */
#endif

#if HB_POOL_THREADS
int32_t hb_p_split_open(hb_vec_pool *p, size_t n)
{
    hb_split *s = &p->split;
    int32_t give = s->give;
    int t;
    if (n != s->n || p->threads != s->threads) {  /* another batch size or count of threads: start over */
        memset(s, 0, sizeof(*s));
        s->n = n;
        s->threads = p->threads;
        s->published = INT32_MIN;
        give = 0;
    }
#ifdef HB_SPLIT_KNOB
    if (hb_v_split_fixed != INT32_MIN) give = hb_v_split_fixed;
#endif
    if (give != s->published) {  /* (rare: each thread's copy is on its own part's line) */
        for (t = 0; t < p->threads; t++) __atomic_store_n(&p->parts[t].give, give, __ATOMIC_RELAXED);
        s->published = give;
    }
    return give;
}

void hb_p_split_end(hb_vec_pool *p, uint64_t opened, uint64_t caller_end, uint64_t worker_left, size_t part)
{
    hb_split *s = &p->split;
    int64_t mean, cost, move;
    if (part == 0 || caller_end <= opened) return;
    s->gap += (int64_t)caller_end - (int64_t)worker_left;
    s->busy += caller_end - opened;
    s->tables += part;
    if (++s->passes < SPLIT_WINDOW) return;
    mean = s->gap / (int64_t)s->passes;
    cost = (int64_t)(s->busy / s->tables);  /* ns per table of the caller's, in these passes */
    /* one block moved changes the gap by twice its cost (one thread ends that much sooner, the other
       that much later): move only when the gap is larger than that */
    move = 2 * SPLIT_BLOCK * (cost > 0 ? cost : 1);
    if (mean > move && s->give + SPLIT_BLOCK <= SPLIT_MOST) s->give += SPLIT_BLOCK;
    if (mean < -move && s->give - SPLIT_BLOCK >= -SPLIT_MOST) s->give -= SPLIT_BLOCK;
    s->gap = 0;
    s->busy = s->tables = 0;
    s->passes = 0;
}
#endif
