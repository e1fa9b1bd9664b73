/* Where the calling thread's part of a pass ends (hb_vec_pool_split.c, part_start): the parts of
 * a pass cover every environment once for any boundary; a batch stepped on two threads stays byte
 * for byte the same as the same batch on one thread while the boundary moves at every call, both
 * ways and to either end (so every table is stepped once a call whichever thread has it, and a
 * table that changes threads with a shuffle ready in its old thread's memo is dealt the same); and
 * the boundary learnt from the threads' ends moves one block towards the thread that ended later,
 * only when the gap is larger than what a block changes, within its bounds.  Built with
 * -fsanitize=thread and with address,undefined in CI. */
#include "hb_vec_pool_internal.h"
#include "vec_kit.h"

/* The parts tile [0, n) in order, the caller's is the even share less `give` (within [0, n]), and
   give 0 is the even split. */
static void parts_tile(void)
{
    static const size_t sizes[] = {1, 2, 7, 64, 100, 1024, 1025, 4096};
    static const int32_t gives[] = {0, 1, 8, -8, 64, -64, 600, -600, 5000, -5000};
    size_t i, g;
    int threads, t;
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (threads = 1; threads <= 5; threads++)
            for (g = 0; g < sizeof(gives) / sizeof(gives[0]); g++) {
                size_t n = sizes[i], even = n / (size_t)threads, caller;
                int64_t want = (int64_t)even - gives[g];
                CHECK(part_start(n, threads, gives[g], 0) == 0);
                CHECK(part_start(n, threads, gives[g], threads) == n);
                for (t = 0; t < threads; t++)
                    CHECK(part_start(n, threads, gives[g], t) <= part_start(n, threads, gives[g], t + 1));
                if (threads == 1) continue;
                caller = part_start(n, threads, gives[g], 1);
                CHECK((int64_t)caller == (want < 0 ? 0 : want > (int64_t)n ? (int64_t)n : want));
                if (gives[g] == 0)
                    for (t = 0; t <= threads; t++)
                        CHECK(part_start(n, threads, 0, t) == n * (size_t)t / (size_t)threads);
            }
}

#if HB_POOL_THREADS
/* The boundary of the pool's next pass over n: `give` (as if learnt; no window ends meanwhile). */
static void set_give(hb_vec_pool *p, size_t n, int32_t give)
{
    p->split.n = n;
    p->split.threads = p->threads;
    p->split.give = give;
    p->split.passes = 0;
}

static void step_both(hb_vec_pool *p, batch *pool_b, batch *one, int steps, uint64_t *seed, uint64_t *pick)
{
    int k;
    size_t n = one->n, bad = 0;
    int64_t bad_id = 0;
    for (k = 0; k < steps; k++) {
        /* anywhere from the whole batch on the worker to the whole of it on the caller */
        int32_t give = (int32_t)(rng_next(pick) % (n + 1)) - (int32_t)(n / 2);
        if (k % 4 == 1) give = 0;
        set_give(p, n, give);
        while (hb_v_memo_fill(&p->memo[0])) {  /* (the caller's memo ready: moved tables meet stale slots) */
        }
        CHECK(hb_vec_sample(&one->cfg, one->envs, one->bytes, n, rng_next(seed), one->acts, n, 0, n) == HB_OK);
        CHECK(hb_vec_step(&one->cfg, one->envs, one->bytes, n, &one->io, one->acts, 4, 1, n, 0, n, &bad, &bad_id)
              == HB_OK);
        CHECK(hb_vec_pool_step(p, &pool_b->cfg, pool_b->envs, pool_b->bytes, n, &pool_b->io, one->acts, 4, 1, n,
                               &bad, &bad_id) == HB_OK);
        CHECK(memcmp(one->envs, pool_b->envs, one->bytes) == 0);
        CHECK(memcmp(one->mask, pool_b->mask, n * (size_t)one->cfg.actions) == 0);
        CHECK(memcmp(one->rew, pool_b->rew, n * (size_t)one->cfg.players * sizeof(float)) == 0);
        CHECK(memcmp(one->cp, pool_b->cp, n * sizeof(int16_t)) == 0);
        CHECK(memcmp(one->term, pool_b->term, n) == 0 && memcmp(one->trunc, pool_b->trunc, n) == 0);
    }
}

static void moving_boundary(int players, int hands, size_t n)
{
    batch pool_b, one;
    hb_vec_pool *p = hb_vec_pool_new(2);
    uint64_t seed = 5, pick = 11;
    CHECK(p != NULL);
    if (p == NULL) exit(2);
    CHECK(make(&pool_b, HB_GAME_DEERPARK, players, 0, 1000, hands, 0, n, 0));
    CHECK(make(&one, HB_GAME_DEERPARK, players, 0, 1000, hands, 0, n, 0));
    CHECK(hb_vec_pool_reset(p, &pool_b.cfg, pool_b.envs, pool_b.bytes, n, &pool_b.io, 3, 1) == HB_OK);
    CHECK(hb_vec_reset(&one.cfg, one.envs, one.bytes, n, &one.io, 3, 1, 0, n) == HB_OK);
    step_both(p, &pool_b, &one, 200, &seed, &pick);
    CHECK(p->memo[0].hits > 0);  /* (the memo was in use across the moves) */
    hb_vec_pool_free(p);
    release(&pool_b);
    release(&one);
}

/* Feed `passes` passes of the caller's part (`part` tables at `per` ns each) ending `gap` ns after
   the last worker (before it when negative). */
static void feed(hb_vec_pool *p, int passes, size_t part, uint64_t per, int64_t gap)
{
    int k;
    const uint64_t opened = 1000000, end = opened + part * per;
    for (k = 0; k < passes; k++) hb_p_split_end(p, opened, end, (uint64_t)((int64_t)end - gap), part);
}

static void learning(void)
{
    hb_vec_pool *p = hb_vec_pool_new(2);
    const size_t n = 1024;
    int k;
    CHECK(p != NULL);
    if (p == NULL) exit(2);
    CHECK(hb_p_split_open(p, n) == 0);  /* a new batch: even parts */
    /* a block of 8 at 30 ns a table changes the gap by 480 ns: a smaller gap moves nothing */
    feed(p, 512, 512, 30, 400);
    CHECK(hb_p_split_open(p, n) == 0);
    feed(p, 511, 512, 30, 2000);  /* (not a whole window yet) */
    CHECK(hb_p_split_open(p, n) == 0);
    feed(p, 1, 512, 30, 2000);
    CHECK(hb_p_split_open(p, n) == 8);  /* the caller ended later: it gives a block */
    CHECK(p->parts[1].give == 8 && part_start(n, 2, p->parts[1].give, 1) == 504);
    feed(p, 512, 504, 30, 4000);
    CHECK(hb_p_split_open(p, n) == 16);  /* one block a window, whatever the gap */
    feed(p, 512, 496, 30, -300);
    CHECK(hb_p_split_open(p, n) == 16);  /* within what a block changes: it stays */
    feed(p, 512, 496, 30, -700);
    CHECK(hb_p_split_open(p, n) == 8);   /* the worker ended later: a block back */
    for (k = 0; k < 20; k++) feed(p, 512, 500, 30, 5000);
    CHECK(hb_p_split_open(p, n) == 64);  /* never beyond its bound */
    for (k = 0; k < 40; k++) feed(p, 512, 500, 30, -5000);
    CHECK(hb_p_split_open(p, n) == -64);
    CHECK(hb_p_split_open(p, 2048) == 0);  /* another batch size: even parts again */
    CHECK(p->parts[0].give == 0 && p->parts[1].give == 0);
    hb_vec_pool_free(p);
}
#endif

int main(void)
{
    parts_tile();
#if HB_POOL_THREADS
    learning();
    moving_boundary(4, 1, 256);
    moving_boundary(4, 0, 200);
    moving_boundary(5, 2, 97);
    printf("vector split tests: %s\n", failures ? "FAILED" : "all checks passed");
#else
    (void)make;
    (void)release;
    (void)rng_next;
    printf("vector split tests: %s\n", failures ? "FAILED" : "all checks passed");
#endif
    return failures ? 1 : 0;
}
