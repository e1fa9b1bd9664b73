/* Several threads on one batch of the batched lane (hb_vec_pool.c), built
 * with -fsanitize=thread in CI: every call takes its turn, closing and copying
 * included.  Two threads step one batch of a three-thread pool with the ids
 * they sampled (an id made stale by the other's step must be refused, never
 * applied), one copies the batch between calls and steps its copy on a pool
 * of its own (a torn copy is not a valid batch), one reads episodes and the
 * pool's statistics, and one closes the pool while the others go on (their
 * calls then run in the calling thread).  ThreadSanitizer reports any data
 * race; the checks catch a torn copy or a call on a joined pool.
 * Bounded: each round stops after HB_TEST_THREADS_SECONDS (default 8) of wall clock. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hb_core.h"
#include "hb_vec.h"

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>

static int failures = 0;  /* written under fail_mu */
static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;
#define CHECK(cond) do { if (!(cond)) { pthread_mutex_lock(&fail_mu); failures++; pthread_mutex_unlock(&fail_mu); \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

static double limit_s = 8.0;
/* Past its time, a worker that has done nothing yet goes on until its first piece of work (a
   loaded machine may not have run it at all): only a hang takes this much longer. */
static const double hang_s = 300.0;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One batch: its configuration, environments and output buffers. */
typedef struct {
    hb_vec_cfg cfg;
    size_t n, bytes;
    unsigned char *envs;
    int16_t *cp;
    uint8_t *mask, *term, *trunc;
    float *rew;
    hb_vec_io io;
} batch;

static void make(batch *b, const hb_vec_cfg *cfg, size_t n)
{
    memset(b, 0, sizeof(*b));
    b->cfg = *cfg;
    b->n = n;
    b->bytes = n * hb_vec_env_size();
    b->envs = calloc(1, b->bytes);
    b->cp = calloc(n, sizeof(int16_t));
    b->mask = calloc(n * (size_t)cfg->actions, 1);
    b->term = calloc(n, 1);
    b->trunc = calloc(n, 1);
    b->rew = calloc(n * (size_t)cfg->players, sizeof(float));
    if (!b->envs || !b->cp || !b->mask || !b->term || !b->trunc || !b->rew) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    b->io.current_player = b->cp;
    b->io.legal_mask = b->mask;
    b->io.rewards = b->rew;
    b->io.terminated = b->term;
    b->io.truncated = b->trunc;
    b->io.cp_len = n;
    b->io.mask_len = n * (size_t)cfg->actions;
    b->io.rewards_len = n * (size_t)cfg->players;
    b->io.term_len = n;
    b->io.trunc_len = n;
}

static void release(batch *b) { free(b->envs); free(b->cp); free(b->mask); free(b->term); free(b->trunc); free(b->rew); }

typedef struct {
    batch *b;
    hb_vec_pool *pool;
    double until;
    int role;            /* 0, 1: steppers; 2: copier; 3: reader; 4: closer */
    long done, refused;  /* steps applied and refused (steppers), copies stepped (copier) */
    int *steps_seen;     /* the steppers' progress, read by the closer (atomic) */
} worker;

static void *stepper(worker *w)
{
    batch *b = w->b;
    int32_t *acts = calloc(b->n, sizeof(int32_t));
    uint64_t k = (uint64_t)w->role * 1000003u;
    if (acts == NULL) exit(2);
    while ((now_s() < w->until && w->done < 4000) || (w->done == 0 && now_s() < w->until + hang_s)) {
        size_t bad = 0;
        int64_t bad_id = 0;
        int rc = hb_vec_pool_sample(w->pool, &b->cfg, b->envs, b->bytes, b->n, k++, acts, b->n);
        CHECK(rc == HB_OK);
        /* the other stepper may step between our sample and our step: then an id may be
           illegal (or -1, sampled for a table that has since been dealt again), and the
           whole step must be refused, never half applied */
        rc = hb_vec_pool_step(w->pool, &b->cfg, b->envs, b->bytes, b->n, &b->io, acts, 4, 1, b->n, &bad, &bad_id);
        CHECK(rc == HB_OK || rc == HB_E_V_ILLEGAL || rc == HB_E_V_RANGE);
        if (rc == HB_OK) w->done++;
        else w->refused++;
        __atomic_add_fetch(w->steps_seen, 1, __ATOMIC_RELAXED);
    }
    free(acts);
    return NULL;
}

static void *copier(worker *w)
{
    batch *b = w->b, mine;
    hb_vec_pool *own = hb_vec_pool_new(1);
    int32_t *acts = calloc(b->n, sizeof(int32_t));
    uint64_t k = 77;
    if (own == NULL || acts == NULL) exit(2);
    make(&mine, &b->cfg, b->n);
    while ((now_s() < w->until && w->done < 2000) || (w->done == 0 && now_s() < w->until + hang_s)) {
        size_t bad = 0;
        int64_t bad_id = 0;
        /* a copy taken between two steps is a valid batch: it samples and steps */
        CHECK(hb_vec_pool_copy(w->pool, b->envs, mine.envs, b->bytes) == HB_OK);
        CHECK(hb_vec_pool_sample(own, &mine.cfg, mine.envs, mine.bytes, mine.n, k++, acts, mine.n) == HB_OK);
        CHECK(hb_vec_pool_step(own, &mine.cfg, mine.envs, mine.bytes, mine.n, &mine.io, acts, 4, 1, mine.n, &bad,
                               &bad_id) == HB_OK);
        /* the outputs too: every copied row of the mask has a legal id or the table has just ended */
        CHECK(hb_vec_pool_copy(w->pool, b->mask, mine.mask, b->n * (size_t)b->cfg.actions) == HB_OK);
        w->done++;
    }
    hb_vec_pool_free(own);
    release(&mine);
    free(acts);
    return NULL;
}

static void *reader(worker *w)
{
    batch *b = w->b;
    uint8_t ids[2048];
    size_t i = 0;
    while ((now_s() < w->until && w->done < 20000) || (w->done == 0 && now_s() < w->until + hang_s)) {
        uint64_t seed = 0, draws = 0, busy[4], items[4];
        uint32_t episode = 0;
        size_t len = 0;
        int k, rc = hb_vec_pool_episode(w->pool, &b->cfg, b->envs, b->bytes, b->n, i, &seed, &episode, &draws,
                                        ids, sizeof ids, &len);
        CHECK(rc == HB_OK || rc == HB_E_V_LOG);
        CHECK(rc != HB_OK || (seed == 42 && len <= HB_VEC_LOG));
        if (i < 7) {  /* now and then every episode number, in one call */
            uint32_t *eps = malloc(b->n * sizeof(uint32_t));
            if (!eps) exit(2);
            CHECK(hb_vec_pool_episodes(w->pool, &b->cfg, b->envs, b->bytes, b->n, eps, b->n) == HB_OK);
            free(eps);
        }
        k = hb_vec_pool_threads(w->pool);
        CHECK(k == 1 || k == 3);
        rc = hb_vec_pool_stats(w->pool, busy, items, (size_t)k);
        CHECK(rc == HB_OK || rc == HB_E_V_LEN);  /* the pool may be closed between the two calls */
        i = (i + 7) % b->n;
        w->done++;
    }
    return NULL;
}

static void *closer(worker *w)
{
    /* close once the steppers are going, then close again (a second close changes nothing) */
    while (__atomic_load_n(w->steps_seen, __ATOMIC_RELAXED) < 30 && now_s() < w->until) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    hb_vec_pool_close(w->pool);
    CHECK(hb_vec_pool_threads(w->pool) == 1);
    hb_vec_pool_close(w->pool);
    w->done = 1;
    return NULL;
}

static void *run(void *arg)
{
    worker *w = (worker *)arg;
    switch (w->role) {
    case 0: case 1: return stepper(w);
    case 2: return copier(w);
    case 3: return reader(w);
    default: return closer(w);
    }
}

static void round_of(int game, int players, int hands, size_t n)
{
    hb_vec_cfg cfg;
    batch b;
    hb_vec_pool *pool = hb_vec_pool_new(3);
    pthread_t tid[5];
    worker w[5];
    int steps_seen = 0, r;
    double until = now_s() + limit_s;
    memset(&cfg, 0, sizeof cfg);
    cfg.game = game;
    cfg.players = players;
    cfg.hands = hands;
    cfg.reward = 2;
    cfg.lock_at = game == HB_GAME_DEERPARK ? 1000 : game == HB_GAME_BUCKEM ? 1 : 0;
    CHECK(pool != NULL);
    CHECK(hb_vec_config(&cfg) == HB_OK);
    if (pool == NULL || failures) return;
    make(&b, &cfg, n);
    CHECK(hb_vec_pool_reset(pool, &b.cfg, b.envs, b.bytes, n, &b.io, 42, 1) == HB_OK);
    for (r = 0; r < 5; r++) {
        memset(&w[r], 0, sizeof w[r]);
        w[r].b = &b;
        w[r].pool = pool;
        w[r].until = until;
        w[r].role = r;
        w[r].steps_seen = &steps_seen;
        CHECK(pthread_create(&tid[r], NULL, run, &w[r]) == 0);
    }
    for (r = 0; r < 5; r++) pthread_join(tid[r], NULL);
    CHECK(w[0].done + w[1].done > 0 && w[2].done > 0 && w[3].done > 0 && w[4].done == 1);
    CHECK(hb_vec_pool_threads(pool) == 1);
    printf("game %d, %d players, %zu tables: %ld + %ld steps (%ld refused as stale), %ld copies stepped, "
           "%ld reads\n", game, players, n, w[0].done, w[1].done, w[0].refused + w[1].refused, w[2].done,
           w[3].done);
    hb_vec_pool_free(pool);
    release(&b);
}

int main(void)
{
    const char *env = getenv("HB_TEST_THREADS_SECONDS");
    if (env) limit_s = atof(env);
    round_of(HB_GAME_DEERPARK, 4, 0, 1600);  /* parts of more than two chunks (at least 256 tables each) */
    round_of(HB_GAME_HUCKLEBUCK, 5, 3, 64);
    round_of(HB_GAME_BUCKEM, 6, 4, 40);
    if (failures) {
        fprintf(stderr, "batched lane thread tests: %d check(s) failed\n", failures);
        return 1;
    }
    printf("batched lane thread tests: all checks passed\n");
    return 0;
}
#else
int main(void)
{
    printf("batched lane thread tests: no POSIX threads here\n");
    return 0;
}
#endif
