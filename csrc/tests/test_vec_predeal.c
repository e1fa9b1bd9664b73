/* The shuffles a pool's threads do ahead (hb_vec_predeal.c): a batch stepped on a pool of two
 * threads stays byte for byte the same as the same batch stepped on the calling thread alone,
 * while deals take their cards from the memo, and after the states are put back to an earlier
 * step or dealt anew from another seed, when every slot the memo holds is stale (a deal that took
 * a stale slot's cards would differ from the one-thread batch at once).  The test fills the
 * calling thread's memo itself between calls (it owns it then), so the slots are there whatever
 * the timing.  Built with -fsanitize=thread and with address,undefined in CI. */
#include "hb_vec_pool_internal.h"
#include "vec_kit.h"

#if HB_POOL_THREADS
/* Step both batches with the same random ids `steps` times, checking that their states and
   outputs stay the same. */
static void step_both(hb_vec_pool *p, batch *pool_b, batch *one, int steps, uint64_t *seed)
{
    int k;
    size_t n = one->n, bad = 0;
    int64_t bad_id = 0;
    for (k = 0; k < steps; k++) {
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

/* Every shuffle the calling thread's memo was asked for, done now (as between calls). */
static size_t fill_all(hb_vec_pool *p)
{
    size_t done = 0;
    while (hb_v_memo_fill(&p->memo[0])) done++;
    return done;
}

static void against_one(int players, int flags, int hands, size_t n)
{
    batch pool_b, one;
    hb_vec_pool *p = hb_vec_pool_new(2);
    unsigned char *saved = malloc(n * hb_vec_env_size());
    uint64_t seed = 99, hits;
    int k;
    CHECK(p != NULL && saved != NULL);
    if (p == NULL || saved == NULL) exit(2);
    CHECK(make(&pool_b, HB_GAME_DEERPARK, players, flags, 1000, hands, 0, n, 0));
    CHECK(make(&one, HB_GAME_DEERPARK, players, flags, 1000, hands, 0, n, 0));
    CHECK(hb_vec_pool_reset(p, &pool_b.cfg, pool_b.envs, pool_b.bytes, n, &pool_b.io, 7, 1) == HB_OK);
    CHECK(hb_vec_reset(&one.cfg, one.envs, one.bytes, n, &one.io, 7, 1, 0, n) == HB_OK);
    CHECK(memcmp(one.envs, pool_b.envs, one.bytes) == 0);
    step_both(p, &pool_b, &one, 30, &seed);
    memcpy(saved, one.envs, one.bytes);  /* (the same bytes in both) */
    /* deals from the memo: every shuffle asked for done before the next steps */
    for (k = 0; k < 8; k++) {
        fill_all(p);
        step_both(p, &pool_b, &one, 10, &seed);
    }
    hits = p->memo[0].hits;
    CHECK(hits > 0);
    /* every slot stale: the states as they were 80 steps ago, then dealt anew from another seed */
    CHECK(fill_all(p) > 0 || p->memo[0].hits > 0);
    memcpy(one.envs, saved, one.bytes);
    CHECK(hb_vec_pool_copy(p, saved, pool_b.envs, pool_b.bytes) == HB_OK);
    step_both(p, &pool_b, &one, 60, &seed);
    fill_all(p);
    CHECK(hb_vec_pool_reset(p, &pool_b.cfg, pool_b.envs, pool_b.bytes, n, &pool_b.io, 8, 1) == HB_OK);
    CHECK(hb_vec_reset(&one.cfg, one.envs, one.bytes, n, &one.io, 8, 1, 0, n) == HB_OK);
    CHECK(memcmp(one.envs, pool_b.envs, one.bytes) == 0);
    step_both(p, &pool_b, &one, 60, &seed);
    /* and the memo in use again afterwards */
    hits = p->memo[0].hits;
    for (k = 0; k < 4; k++) {
        fill_all(p);
        step_both(p, &pool_b, &one, 10, &seed);
    }
    CHECK(p->memo[0].hits > hits);
    hb_vec_pool_free(p);
    free(saved);
    release(&pool_b);
    release(&one);
}
#endif

int main(void)
{
#if HB_POOL_THREADS
    against_one(4, 0, 1, 256);   /* one hand an episode: each deal asks for the next episode's */
    against_one(4, 0, 0, 256);   /* whole games: the next hand's, or the next episode's once a game ends */
    against_one(6, 0, 0, 100);
    against_one(8, HB_VEC_DP_FLAG_EIGHT, 2, 64);  /* the largest deck, and parts of 32 */
    printf("vector predeal tests: %s\n", failures ? "FAILED" : "all checks passed");
#else
    (void)make;
    (void)release;
    (void)rng_next;
    printf("vector predeal tests: no threads here, nothing to test\n");
#endif
    return failures ? 1 : 0;
}
