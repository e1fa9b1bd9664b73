/* What the batched lane's C tests share (test_vec.c, test_vec_reads.c): CHECK, a splitmix64 for
 * the tests' own choices, and a batch with every output buffer. */
#ifndef VEC_KIT_H
#define VEC_KIT_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hb_core.h"
#include "hb_vec.h"
#include "hb_vec_internal.h" /* the struct: tests corrupt chosen fields */

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { failures++; \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

static uint64_t rng_next(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

typedef struct {
    hb_vec_cfg cfg;
    size_t n, bytes;
    unsigned char *envs;
    int16_t *cp;
    uint8_t *mask, *term, *trunc;
    float *rew, *tensor;
    int32_t *acts;
    hb_vec_io io;
} batch;

static int make(batch *b, int game, int players, int flags, int lock_at, int hands, int reward, size_t n,
                int64_t pot_limit)
{
    memset(b, 0, sizeof(*b));
    b->cfg.pot_limit = pot_limit;
    b->cfg.game = game;
    b->cfg.players = players;
    b->cfg.flags = flags;
    b->cfg.lock_at = lock_at;
    b->cfg.hands = hands;
    b->cfg.reward = reward;
    if (hb_vec_config(&b->cfg) != HB_OK) return 0;
    b->n = n;
    b->bytes = n * hb_vec_env_size();
    b->envs = calloc(1, b->bytes);
    b->cp = calloc(n, sizeof(int16_t));
    b->mask = calloc(n * (size_t)b->cfg.actions, 1);
    b->term = calloc(n, 1);
    b->trunc = calloc(n, 1);
    b->rew = calloc(n * (size_t)players, sizeof(float));
    b->tensor = calloc(n * (size_t)b->cfg.tensor, sizeof(float));
    b->acts = calloc(n, sizeof(int32_t));
    if (!b->envs || !b->cp || !b->mask || !b->term || !b->trunc || !b->rew || !b->tensor || !b->acts) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    b->io.current_player = b->cp;
    b->io.legal_mask = b->mask;
    b->io.rewards = b->rew;
    b->io.terminated = b->term;
    b->io.truncated = b->trunc;
    b->io.cp_len = n;
    b->io.mask_len = n * (size_t)b->cfg.actions;
    b->io.rewards_len = n * (size_t)players;
    b->io.term_len = n;
    b->io.trunc_len = n;
    return 1;
}

static void release(batch *b)
{
    free(b->envs); free(b->cp); free(b->mask); free(b->term); free(b->trunc); free(b->rew); free(b->tensor); free(b->acts);
}

#endif
