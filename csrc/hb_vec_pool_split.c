/*
 * hb_vec_pool_split.c -- where the batched lane's pool splits a step's environments between its
 * threads (hb_vec_pool.c).
 *
 * A Deer Park step costs some 21 ns for a card played and some 150 ns for a deal (an environment
 * that had ended, dealt its next episode), and a 1,024-table batch holds some 44 of those: by
 * chance one thread's half of it held a few more than the other's, and the other waited for it,
 * about 0.7 us of a 14 us step (the threads' parts are as big as they are so that taking them costs
 * few locked instructions; too big to even out by stealing at the end).  The step's first phase
 * (its check of the ids) reads the word that holds each state's flag of having ended anyway, and
 * counts them per part; once the whole batch has passed it, every thread works out the same parts
 * of equal expected cost from those counts, the deals of a part taken as spread evenly across it.
 */
#include "hb_vec_pool_internal.h"

int hb_p_split(const uint32_t *heavy, int threads, size_t n, uint32_t *bound)
{
    uint64_t total = 0, before = 0, cost = 0, b = 0, len = 0;
    int t, k, any = 0;
    if (threads < 1 || threads > POOL_MAX || n > ((size_t)1 << 24)) return 0;
    for (t = 0; t < threads; t++) {
        uint64_t size = n * (uint64_t)(t + 1) / (uint64_t)threads - n * (uint64_t)t / (uint64_t)threads;
        uint64_t h = heavy[t] < size ? heavy[t] : size;  /* (never more than the part holds) */
        total += size + HEAVY_COST * h;
        any |= h > 0;
    }
    if (!any) return 0;
    bound[0] = 0;
    t = -1;  /* the part the next bound falls in: [b, b + len), costing `cost`, `before` before it */
    for (k = 1; k < threads; k++) {
        const uint64_t target = total * (uint64_t)k / (uint64_t)threads;
        while (t < 0 || (t < threads - 1 && before + cost <= target)) {
            uint64_t h;
            before += cost;
            t++;
            b = n * (uint64_t)t / (uint64_t)threads;
            len = n * (uint64_t)(t + 1) / (uint64_t)threads - b;
            h = heavy[t] < len ? heavy[t] : len;
            cost = len + HEAVY_COST * h;
        }
        bound[k] = (uint32_t)(b + (cost > 0 && target > before ? (target - before) * len / cost : 0));
        if (bound[k] > b + len) bound[k] = (uint32_t)(b + len);
        if (bound[k] < bound[k - 1]) bound[k] = bound[k - 1];
    }
    bound[threads] = (uint32_t)n;
    return 1;
}
