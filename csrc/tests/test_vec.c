/* Standalone test of the batched lane (hb_vec*.c), built with
 * -fsanitize=address,undefined in CI.  It plays random batches of Deer Park
 * Euchre, Hucklebuck and Buck 'Em through every option and player count
 * (Buck 'Em with antes up to the largest, pot limits or none; random legal ids, tensors for
 * every seat, episodes, copies), checks invariants the rules guarantee, and
 * throws hostile input at every entry point: wrong lengths, bad ids, corrupted
 * environments.  The same batches stepped by pools of 1, 2 and 3 threads must stay
 * byte-identical (and a pool must refuse an illegal id without changing anything,
 * serve two threads at once, and work in a forked child).
 * Bounded in time: it stops after HB_TEST_VEC_SECONDS (default 20). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#define HAVE_POSIX 1
#else
#define HAVE_POSIX 0
#endif
#include "vec_kit.h"


/* Invariants of one batch's outputs. */
static void check_outputs(const batch *b)
{
    size_t i;
    int k;
    for (i = 0; i < b->n; i++) {
        int legal = 0;
        for (k = 0; k < b->cfg.actions; k++) legal += b->mask[i * (size_t)b->cfg.actions + (size_t)k];
        CHECK(!(b->term[i] && b->trunc[i]));  /* an episode ends one way */
        CHECK(!b->trunc[i] || b->cfg.hands > 0);  /* only a cut episode is truncated */
        if (b->term[i] || b->trunc[i]) {
            CHECK(b->cp[i] == -1 && legal == 0);
        } else {
            CHECK(b->cp[i] >= 0 && b->cp[i] < b->cfg.players && legal > 0);
        }
    }
}

static void hostile(batch *b, uint64_t *s)
{
    size_t bad = 0, len = 0;
    int64_t bad_id = 0;
    uint64_t seed;
    uint32_t episode;
    uint64_t draws;
    uint8_t ids[2048];
    hb_vec_io io = b->io;
    hb_vec_cfg cfg = b->cfg;
    size_t i = (size_t)(rng_next(s) % b->n);
    CHECK(hb_vec_check(&b->cfg, b->envs, b->bytes - 1, b->n, b->acts, 4, 1, b->n, &bad, &bad_id) == HB_E_V_LEN);
    CHECK(hb_vec_check(&b->cfg, b->envs, b->bytes, b->n, b->acts, 3, 1, b->n, &bad, &bad_id) == HB_E_V_LEN);
    CHECK(hb_vec_check(&b->cfg, b->envs, b->bytes, b->n, b->acts, 4, 1, b->n + 1, &bad, &bad_id) == HB_E_V_LEN);
    CHECK(hb_vec_check(&b->cfg, NULL, b->bytes, b->n, b->acts, 4, 1, b->n, &bad, &bad_id) == HB_E_NULL);
    io.mask_len--;
    CHECK(hb_vec_step(&b->cfg, b->envs, b->bytes, b->n, &io, b->acts, 4, 1, b->n, 0, b->n, &bad, &bad_id)
          == HB_E_V_LEN);
    CHECK(hb_vec_step(&b->cfg, b->envs, b->bytes, b->n, &b->io, b->acts, 4, 1, b->n, 1, 0, &bad, &bad_id)
          == HB_E_V_INDEX);
    CHECK(hb_vec_step(&b->cfg, b->envs, b->bytes, b->n, &b->io, b->acts, 4, 1, b->n, 0, b->n + 1, &bad,
                      &bad_id) == HB_E_V_INDEX);
    cfg.players = 9;
    CHECK(hb_vec_step(&cfg, b->envs, b->bytes, b->n, &b->io, b->acts, 4, 1, b->n, 0, b->n, &bad, &bad_id)
          == HB_E_V_CFG);
    cfg = b->cfg;
    cfg.tensor++;
    CHECK(hb_vec_tensor(&cfg, b->envs, b->bytes, b->n, -1, b->tensor, b->n * (size_t)b->cfg.tensor, 0, b->n)
          == HB_E_V_CFG);
    CHECK(hb_vec_tensor(&b->cfg, b->envs, b->bytes, b->n, b->cfg.players, b->tensor,
                        b->n * (size_t)b->cfg.tensor, 0, b->n) == HB_E_V_SEAT);
    CHECK(hb_vec_tensor(&b->cfg, b->envs, b->bytes, b->n, -1, b->tensor, b->n * (size_t)b->cfg.tensor - 1, 0,
                        b->n) == HB_E_V_LEN);
    CHECK(hb_vec_sample(&b->cfg, b->envs, b->bytes, b->n, 1, b->acts, b->n - 1, 0, b->n) == HB_E_V_LEN);
    CHECK(hb_vec_sample(&b->cfg, b->envs, b->bytes, b->n, 1, b->acts, b->n, 2, 1) == HB_E_V_INDEX);
    CHECK(hb_vec_episode(&b->cfg, b->envs, b->bytes, b->n, b->n, &seed, &episode, &draws, ids, sizeof ids, &len)
          == HB_E_V_INDEX);
    CHECK(hb_vec_episode(&b->cfg, b->envs, b->bytes, b->n, i, &seed, &episode, &draws, ids, sizeof ids, &len)
          == HB_OK);
    /* every episode number in one call: the one hb_vec_episode gives each environment */
    {
        uint32_t *eps = malloc(b->n * sizeof(uint32_t));
        size_t k;
        if (!eps) exit(2);
        CHECK(hb_vec_episodes(&b->cfg, b->envs, b->bytes, b->n, eps, b->n - 1) == HB_E_V_LEN);
        CHECK(hb_vec_episodes(&b->cfg, b->envs, b->bytes, b->n, NULL, b->n) == HB_E_NULL);
        CHECK(hb_vec_episodes(&b->cfg, b->envs, b->bytes - 1, b->n, eps, b->n) != HB_OK);
        CHECK(hb_vec_episodes(&b->cfg, b->envs, b->bytes, b->n, eps, b->n) == HB_OK);
        for (k = 0; k < b->n; k++) {
            CHECK(hb_vec_episode(&b->cfg, b->envs, b->bytes, b->n, k, &seed, &episode, &draws, ids, sizeof ids,
                                 &len) == HB_OK);
            CHECK(eps[k] == episode);
        }
        {  /* an episode too long for its log cannot be rebuilt, but its number is still there */
            hb_vec_cold *c = (hb_vec_cold *)(b->envs + b->n * sizeof(hb_vec_env)) + i;
            uint32_t kept = c->log_len;
            c->log_len = HB_VEC_LOG + 1;
            CHECK(hb_vec_episode(&b->cfg, b->envs, b->bytes, b->n, i, &seed, &episode, &draws, ids, sizeof ids,
                                 &len) == HB_E_V_LOG);
            CHECK(hb_vec_episodes(&b->cfg, b->envs, b->bytes, b->n, eps, b->n) == HB_OK);
            CHECK(eps[i] == ((const hb_vec_env *)b->envs)[i].episode);
            c->log_len = kept;
        }
        free(eps);
    }
    /* an illegal id and an id out of range, then a corrupted environment: refused, nothing changed */
    {
        unsigned char *copy = malloc(b->bytes);
        uint8_t *mask = malloc(b->io.mask_len), *term = malloc(b->n), *trunc = malloc(b->n);
        int16_t *cp = malloc(b->n * sizeof(int16_t));
        size_t k;
        int rc;
        if (!copy || !mask || !term || !trunc || !cp) exit(2);
        memcpy(copy, b->envs, b->bytes);
        memcpy(mask, b->mask, b->io.mask_len);
        memcpy(term, b->term, b->n);
        memcpy(trunc, b->trunc, b->n);
        memcpy(cp, b->cp, b->n * sizeof(int16_t));
        CHECK(hb_vec_sample(&b->cfg, b->envs, b->bytes, b->n, rng_next(s), b->acts, b->n, 0, b->n) == HB_OK);
        if (!b->term[i] && !b->trunc[i]) {
            for (k = 0; k < (size_t)b->cfg.actions; k++)
                if (!b->mask[i * (size_t)b->cfg.actions + k]) break;
            b->acts[i] = (int32_t)k;
            rc = hb_vec_step(&b->cfg, b->envs, b->bytes, b->n, &b->io, b->acts, 4, 1, b->n, 0, b->n, &bad,
                             &bad_id);
            CHECK(rc == HB_E_V_ILLEGAL && bad == i && bad_id == (int64_t)k);
            b->acts[i] = (rng_next(s) & 1) ? -1 : b->cfg.actions + (int32_t)(rng_next(s) % 1000);
            rc = hb_vec_check(&b->cfg, b->envs, b->bytes, b->n, b->acts, 4, 1, b->n, &bad, &bad_id);
            CHECK(rc == HB_E_V_RANGE && bad == i);
        }
        CHECK(memcmp(copy, b->envs, b->bytes) == 0);
        /* random bytes in one environment's state: every call must refuse or stay in bounds */
        for (k = 0; k < 8; k++) b->envs[(size_t)(rng_next(s) % b->bytes)] = (unsigned char)rng_next(s);
        hb_vec_sample(&b->cfg, b->envs, b->bytes, b->n, rng_next(s), b->acts, b->n, 0, b->n);
        hb_vec_tensor(&b->cfg, b->envs, b->bytes, b->n, -1, b->tensor, b->n * (size_t)b->cfg.tensor, 0, b->n);
        hb_vec_step(&b->cfg, b->envs, b->bytes, b->n, &b->io, b->acts, 4, 1, b->n, 0, b->n, &bad, &bad_id);
        hb_vec_episode(&b->cfg, b->envs, b->bytes, b->n, i, &seed, &episode, &draws, ids, sizeof ids, &len);
        {
            uint32_t *eps = malloc(b->n * sizeof(uint32_t));
            if (!eps) exit(2);
            hb_vec_episodes(&b->cfg, b->envs, b->bytes, b->n, eps, b->n);
            free(eps);
        }
        memcpy(b->envs, copy, b->bytes);  /* and the outputs the last calls may have written */
        memcpy(b->mask, mask, b->io.mask_len);
        memcpy(b->term, term, b->n);
        memcpy(b->trunc, trunc, b->n);
        memcpy(b->cp, cp, b->n * sizeof(int16_t));
        free(copy);
        free(mask);
        free(term);
        free(trunc);
        free(cp);
    }
}

static void play(uint64_t *s)
{
    batch b;
    int pick = (int)(rng_next(s) % 3);
    int game = pick == 0 ? HB_GAME_HUCKLEBUCK : pick == 1 ? HB_GAME_DEERPARK : HB_GAME_BUCKEM;
    int players = 3 + (int)(rng_next(s) % (game == HB_GAME_HUCKLEBUCK ? 5 : 6));
    int64_t pot_limit = 0;
    int flags = (int)(rng_next(s) % 64) | (players == 8 ? 64 : 0);
    int lock_at = 15 + (int)(rng_next(s) % 40);
    int hands = (int)(rng_next(s) % 4); /* 0: whole games */
    size_t n = 1 + (size_t)(rng_next(s) % 40), i;
    int step, seat;
    size_t bad;
    int64_t bad_id;
    if (game == HB_GAME_HUCKLEBUCK) { /* every option; the two pairs that exclude each other, one of each */
        flags = (int)(rng_next(s) % 2048);
        if ((flags & 6) == 6) flags &= ~4;
        if ((flags & 96) == 96) flags &= ~64;
    }
    if (game == HB_GAME_BUCKEM) { /* every option: the odd chip's two, the removed card's pack, a scare position */
        players = 5 + (int)(rng_next(s) % 4);
        flags = (int)(rng_next(s) % 2048) | (int)(rng_next(s) % 5) << HB_VEC_BE_SCARE_SHIFT;
        if ((flags & 192) == 192) flags &= ~128;
        if (!((flags & 1) && players <= 6)) flags &= ~2;
        lock_at = (rng_next(s) & 3) ? 1 + (int)(rng_next(s) % 3) : INT32_MAX; /* the ante */
        if (rng_next(s) & 1) pot_limit = 1 + (int64_t)(rng_next(s) % ((uint64_t)1 << 58));
        hands = 1 + (int)(rng_next(s) % 4); /* a session has no end of its own */
    }
    if (!make(&b, game, players, flags, lock_at, hands, (int)(rng_next(s) % 3), n, pot_limit)) {
        failures++;
        fprintf(stderr, "config refused: game %d players %d flags %d\n", game, players, flags);
        return;
    }
    CHECK(hb_vec_reset(&b.cfg, b.envs, b.bytes, n, &b.io, rng_next(s), 1, 0, n) == HB_OK);
    check_outputs(&b);
    for (step = 0; step < 300; step++) {
        CHECK(hb_vec_sample(&b.cfg, b.envs, b.bytes, n, rng_next(s), b.acts, n, 0, n) == HB_OK);
        for (i = 0; i < n; i++)
            CHECK(b.term[i] || b.trunc[i] ? b.acts[i] == -1
                            : b.acts[i] >= 0 && b.mask[i * (size_t)b.cfg.actions + (size_t)b.acts[i]] == 1);
        CHECK(hb_vec_check(&b.cfg, b.envs, b.bytes, n, b.acts, 4, 1, n, &bad, &bad_id) == HB_OK);
        CHECK(hb_vec_step(&b.cfg, b.envs, b.bytes, n, &b.io, b.acts, 4, 1, n, 0, n / 2, &bad, &bad_id) == HB_OK);
        CHECK(hb_vec_step(&b.cfg, b.envs, b.bytes, n, &b.io, b.acts, 4, 1, n, n / 2, n, &bad, &bad_id) == HB_OK);
        check_outputs(&b);
        if (game == HB_GAME_BUCKEM && b.cfg.reward == 0 && lock_at < 4) /* chips are conserved: the */
            for (i = 0; i < n; i++) {                                  /* bankrolls sum to minus the pot */
                double sum = 0;
                for (seat = 0; seat < players; seat++) sum += b.rew[i * (size_t)players + (size_t)seat];
                CHECK(!b.term[i] || (sum <= 0 && sum > -1e6));
            }
        seat = (int)(rng_next(s) % (uint64_t)(players + 1)) - 1;
        CHECK(hb_vec_tensor(&b.cfg, b.envs, b.bytes, n, seat, b.tensor, n * (size_t)b.cfg.tensor, 0, n) == HB_OK);
        if (step % 50 == 0) hostile(&b, s);
        if (step % 97 == 0) CHECK(hb_vec_reset(&b.cfg, b.envs, b.bytes, n, &b.io, 0, 0, 0, n) == HB_OK);
    }
    release(&b);
}

/* Buck 'Em configurations the state machine refuses. */
static void buckem_refusals(void)
{
    hb_vec_cfg good, cfg;
    memset(&good, 0, sizeof good);
    good.game = HB_GAME_BUCKEM;
    good.players = 5;
    good.hands = 3;
    good.lock_at = 1;
    CHECK(hb_vec_config(&good) == HB_OK && good.actions == 87 && good.tensor == 52 + 109 * 5 + 16 + 57 * 5 + 107);
#define REFUSED(field, value) do { cfg = good; cfg.field = value; CHECK(hb_vec_config(&cfg) == HB_E_V_CFG); } while (0)
    REFUSED(players, 4);
    REFUSED(players, 9);
    REFUSED(hands, 0);       /* a session has no end of its own */
    REFUSED(lock_at, 0);     /* the ante */
    REFUSED(pot_limit, -1);
    REFUSED(pot_limit, ((int64_t)1 << 58) + 1);
    REFUSED(flags, HB_VEC_BE_FLAG_REMOVED_CARD);          /* the removed card needs the short pack */
    REFUSED(flags, HB_VEC_BE_FLAG_ODD_CARRY | HB_VEC_BE_FLAG_ODD_FIRST_LEFT);
    REFUSED(flags, 5 << HB_VEC_BE_SCARE_SHIFT);         /* scare positions 1-5 only */
    REFUSED(flags, 1 << 14);
    cfg = good;
    cfg.players = 7;
    cfg.flags = HB_VEC_BE_FLAG_SHORT | HB_VEC_BE_FLAG_REMOVED_CARD; /* seven players keep all 52 cards */
    CHECK(hb_vec_config(&cfg) == HB_E_V_CFG);
#undef REFUSED
}

/* A Hucklebuck step reads the stock, the set-aside pile and the discards only in the exchange
   (their cache lines stay in memory through the rest of the hand): a corrupt card in the stock
   stops a step that reaches its environment in the exchange, never one in the play, and a check
   of the batch (hb_vec_check) refuses it in every phase. */
static void hucklebuck_piles(void)
{
    batch b;
    uint64_t s = 99;
    size_t i, bad = 0;
    int64_t bad_id = 0;
    int k, seen_play = 0, seen_exchange = 0;
    unsigned char *copy;
    if (!make(&b, HB_GAME_HUCKLEBUCK, 4, 0, 0, 1, 0, 16, 0)) {
        CHECK(0);
        return;
    }
    copy = malloc(b.bytes);
    if (!copy) exit(2);
    CHECK(hb_vec_reset(&b.cfg, b.envs, b.bytes, b.n, &b.io, 7, 1, 0, b.n) == HB_OK);
    for (k = 0; k < 2000 && !(seen_play && seen_exchange); k++) {
        hb_vec_env *all = (hb_vec_env *)b.envs;
        CHECK(hb_vec_sample(&b.cfg, b.envs, b.bytes, b.n, rng_next(&s), b.acts, b.n, 0, b.n) == HB_OK);
        for (i = 0; i < b.n; i++) {
            int phase = all[i].phase, rc;
            if (all[i].term || all[i].stock_len == 0) continue;
            if (!(phase == HB_PH_PLAY && !seen_play) && !(phase == HB_PH_EXCHANGE && !seen_exchange)) continue;
            memcpy(copy, b.envs, b.bytes);
            all[i].stock[0] = 200;
            rc = hb_vec_check(&b.cfg, b.envs, b.bytes, b.n, b.acts, 4, 1, b.n, &bad, &bad_id);
            CHECK(rc == HB_E_V_STATE && bad == i);
            rc = hb_vec_step(&b.cfg, b.envs, b.bytes, b.n, &b.io, b.acts, 4, 1, b.n, 0, b.n, &bad, &bad_id);
            if (phase == HB_PH_EXCHANGE) {
                CHECK(rc == HB_E_V_STATE && bad == i);
                seen_exchange = 1;
            } else {
                CHECK(rc == HB_OK);
                seen_play = 1;
            }
            memcpy(b.envs, copy, b.bytes);
            break;
        }
        CHECK(hb_vec_step(&b.cfg, b.envs, b.bytes, b.n, &b.io, b.acts, 4, 1, b.n, 0, b.n, &bad, &bad_id) == HB_OK);
    }
    CHECK(seen_play && seen_exchange);
    free(copy);
    release(&b);
}

/* ------------------------------------------------------------------ pools */

#define SAME(a, b, field, len) CHECK(memcmp((a)->field, (b)->field, (len)) == 0)

static void same_batches(const batch *a, const batch *b)
{
    SAME(a, b, envs, a->bytes);
    SAME(a, b, cp, a->n * sizeof(int16_t));
    SAME(a, b, mask, a->io.mask_len);
    SAME(a, b, term, a->n);
    SAME(a, b, trunc, a->n);
    SAME(a, b, rew, a->io.rewards_len * sizeof(float));
}

#if HAVE_POSIX
typedef struct {
    hb_vec_pool *pool;
    const batch *b;
    int32_t *out;
    int rc;
} sampler;

static void *sample_twice(void *arg)
{
    sampler *t = (sampler *)arg;
    int k;
    t->rc = HB_OK;
    for (k = 0; k < 20 && t->rc == HB_OK; k++)
        t->rc = hb_vec_pool_sample(t->pool, &t->b->cfg, t->b->envs, t->b->bytes, t->b->n, 99, t->out, t->b->n);
    return NULL;
}
#endif

static void pools(uint64_t *s, int forked)
{
    batch b[3];
    hb_vec_pool *pool[3];
    int game = (rng_next(s) & 1) ? HB_GAME_HUCKLEBUCK : HB_GAME_DEERPARK;
    int players = 3 + (int)(rng_next(s) % (game == HB_GAME_HUCKLEBUCK ? 5 : 6));
    int hands = (int)(rng_next(s) % 3), reward = (int)(rng_next(s) % 3), k, step;
    size_t n = 1 + (size_t)(rng_next(s) % 300), bad = 0, i;
    int64_t bad_id = 0;
    uint64_t seed = rng_next(s), busy[3], items[3];
    int32_t *acts2;
    CHECK(hb_vec_pool_new(0) == NULL && hb_vec_pool_new(65) == NULL);
    for (k = 0; k < 3; k++) {
        if (!make(&b[k], game, players, players == 8 ? 64 : 0, 30, hands, reward, n, 0)) {
            failures++;
            return;
        }
        pool[k] = hb_vec_pool_new(k + 1);
        CHECK(pool[k] != NULL && hb_vec_pool_threads(pool[k]) == k + 1);
        if (pool[k] == NULL) exit(2);
        CHECK(hb_vec_pool_reset(pool[k], &b[k].cfg, b[k].envs, b[k].bytes, n, &b[k].io, seed, 1) == HB_OK);
    }
    acts2 = calloc(n, sizeof(int32_t));
    if (!acts2) exit(2);
    for (step = 0; step < 200; step++) {
        uint64_t draw = rng_next(s);
        int seat = (int)(rng_next(s) % (uint64_t)(players + 1)) - 1;
        for (k = 0; k < 3; k++) {
            CHECK(hb_vec_pool_sample(pool[k], &b[k].cfg, b[k].envs, b[k].bytes, n, draw, b[k].acts, n) == HB_OK);
            CHECK(hb_vec_pool_step(pool[k], &b[k].cfg, b[k].envs, b[k].bytes, n, &b[k].io, b[k].acts, 4, 1, n, &bad,
                                   &bad_id) == HB_OK);
            CHECK(hb_vec_pool_tensor(pool[k], &b[k].cfg, b[k].envs, b[k].bytes, n, seat, b[k].tensor,
                                     n * (size_t)b[k].cfg.tensor) == HB_OK);
        }
        for (k = 1; k < 3; k++) {
            SAME(&b[0], &b[k], acts, n * sizeof(int32_t));
            SAME(&b[0], &b[k], tensor, n * (size_t)b[0].cfg.tensor * sizeof(float));
            same_batches(&b[0], &b[k]);
        }
        if (step % 40 == 7) {  /* one illegal id (and one more later in the batch): refused, nothing changed */
            batch *t = &b[2];
            unsigned char *copy = malloc(t->bytes);
            size_t j = (size_t)(rng_next(s) % n);
            if (!copy) exit(2);
            memcpy(copy, t->envs, t->bytes);
            CHECK(hb_vec_pool_sample(pool[2], &t->cfg, t->envs, t->bytes, n, draw, t->acts, n) == HB_OK);
            for (i = j; i < n && (t->term[i] || t->trunc[i]); i++) {
            }
            if (i < n) {
                int id = 0;
                while (t->mask[i * (size_t)t->cfg.actions + (size_t)id]) id++;
                t->acts[i] = id;
                if (i + 1 < n) t->acts[n - 1] = -1;
                CHECK(hb_vec_pool_step(pool[2], &t->cfg, t->envs, t->bytes, n, &t->io, t->acts, 4, 1, n, &bad,
                                       &bad_id) == HB_E_V_ILLEGAL);
                CHECK(bad == i && bad_id == id);
                same_batches(&b[0], t);
                CHECK(memcmp(copy, t->envs, t->bytes) == 0);
            }
            free(copy);
        }
        if (step % 67 == 66) {
            /* a state that is not one: the reset of the next episodes refuses the whole batch first */
            batch *t = &b[2];
            unsigned char *copy = malloc(t->bytes);
            size_t j = (size_t)(rng_next(s) % n);
            if (!copy) exit(2);
            memcpy(copy, t->envs, t->bytes);
            ((hb_vec_env *)t->envs)[j].env = (uint32_t)(j + 1);
            memcpy(copy, t->envs, t->bytes);
            CHECK(hb_vec_pool_reset(pool[2], &t->cfg, t->envs, t->bytes, n, &t->io, 0, 0) == HB_E_V_STATE);
            CHECK(memcmp(copy, t->envs, t->bytes) == 0);
            ((hb_vec_env *)t->envs)[j].env = (uint32_t)j;
            free(copy);
            for (k = 0; k < 3; k++)
                CHECK(hb_vec_pool_reset(pool[k], &b[k].cfg, b[k].envs, b[k].bytes, n, &b[k].io, 0, 0) == HB_OK);
        }
    }
#if HAVE_POSIX
    {  /* two threads calling one pool at once take turns: the same ids */
        pthread_t other;
        sampler t;
        t.pool = pool[2];
        t.b = &b[2];
        t.out = acts2;
        CHECK(pthread_create(&other, NULL, sample_twice, &t) == 0);
        for (k = 0; k < 20; k++)
            CHECK(hb_vec_pool_sample(pool[2], &b[2].cfg, b[2].envs, b[2].bytes, n, 99, b[2].acts, n) == HB_OK);
        pthread_join(other, NULL);
        CHECK(t.rc == HB_OK && memcmp(acts2, b[2].acts, n * sizeof(int32_t)) == 0);
    }
    if (forked) {  /* a child of fork() has no workers: the pool runs its calls in the calling thread */
        pid_t child;
        fflush(stderr);
        child = fork();
        if (child == 0) {
            int ok = hb_vec_pool_step(pool[2], &b[2].cfg, b[2].envs, b[2].bytes, n, &b[2].io, b[2].acts, 4, 1, n,
                                      &bad, &bad_id) == HB_OK
                     && hb_vec_pool_sample(pool[2], &b[2].cfg, b[2].envs, b[2].bytes, n, 5, b[2].acts, n) == HB_OK;
            hb_vec_pool_free(pool[2]);
            _exit(ok ? 0 : 1);
        }
        if (child > 0) {
            int status = 0;
            CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
        }
    }
#else
    (void)forked;
#endif
    CHECK(hb_vec_pool_stats(pool[2], busy, items, 3) == HB_OK && items[0] + items[1] + items[2] > 0);
    CHECK(hb_vec_pool_stats(pool[2], busy, items, 2) == HB_E_V_LEN);
    for (k = 0; k < 3; k++) {
        hb_vec_pool_free(pool[k]);
        release(&b[k]);
    }
    free(acts2);
}

int main(void)
{
    uint64_t s = 12345;
    double limit = 20.0;
    const char *env = getenv("HB_TEST_VEC_SECONDS");
    clock_t start = clock();
    int rounds = 0;
    if (env) limit = atof(env);
    buckem_refusals();
    hucklebuck_piles();
    do {
        play(&s);
        pools(&s, rounds == 0);
        rounds++;
    } while ((double)(clock() - start) / CLOCKS_PER_SEC < limit && rounds < 400);
    if (failures) {
        fprintf(stderr, "batched lane tests: %d check(s) failed\n", failures);
        return 1;
    }
    printf("batched lane tests: all checks passed (%d random batches)\n", rounds);
    return 0;
}
