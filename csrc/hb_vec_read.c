/*
 * hb_vec_read.c -- the batched lane's entry points (hb_vec.h) that only read the
 * batch: observation tensors, sampling legal ids, each environment's episode
 * (seed, stream position, ids) and winners.
 */
#include <string.h>
#include "hb_vec_internal.h"

#define SAMPLE_MIX UINT64_C(0xD6E8FEB86659FD93)

int hb_vec_tensor(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, int seat,
                  float *out, size_t out_len, size_t begin, size_t end)
{
    const hb_vec_env *all = (const hb_vec_env *)envs;
    size_t i, size;
    int rc = hb_v_check_envs(cfg, envs, envs_len, num_envs);
    if (rc == HB_OK) rc = hb_v_check_slice(num_envs, begin, end);
    if (rc != HB_OK) return rc;
    if (out == NULL) return HB_E_NULL;
    size = (size_t)cfg->tensor;
    if (out_len != num_envs * size) return HB_E_V_LEN;
    if (seat < -1 || seat >= cfg->players) return HB_E_V_SEAT;
    for (i = begin; i < end; i++)
        if (hb_v_check_env(cfg, &all[i]) != HB_OK) return HB_E_V_STATE;
    for (i = begin; i < end; i++) {
        int s = seat >= 0 ? seat : hb_v_to_act(cfg, &all[i]);
        float *t = out + i * size;
        memset(t, 0, sizeof(float) * size);
        if (s >= 0 && IS_BE(cfg)) hb_v_be_tensor(cfg, &all[i], s, t);
        else if (s >= 0 && IS_HB(cfg)) hb_v_hb_tensor(cfg, &all[i], s, t);
        else if (s >= 0) hb_v_dp_tensor(cfg, &all[i], s, t);
    }
    return HB_OK;
}

/* hb_rng_below (hb_eval.c: the top bits of splitmix64's outputs, hb_v_rng_next, drawn until below n;
   n <= 1 draws nothing) in line: the same draws, without two calls per environment. */
static inline uint64_t rng_below(uint64_t *state, uint64_t n)
{
    int k;
    uint64_t r;
    if (n <= 1) return 0;
#if defined(__GNUC__) || defined(__clang__)
    k = 64 - __builtin_clzll(n);
#else
    for (k = 0, r = n; r; r >>= 1) k++;
#endif
    do {  /* (n <= 128, a count of ids: 64 - k >= 56, hb_v_mix_top's range) */
        r = hb_v_mix_top(*state += HB_V_GAMMA, 64 - k);
    } while (r >= n);
    return r;
}

/* Environments [begin, end) of hb_vec_sample (arguments checked); popcount: the set bits of a
   word, as the build or the processor can count them (a constant at each call: compiled in line). */
#define SAMPLE_RANGE(name, attrs, popcount)                                                           \
    attrs static HB_INLINE_ALWAYS void name##_in(const hb_vec_env *all, uint64_t seed, uint64_t high,  \
                                                 int32_t *out, size_t begin, size_t end, const int far) \
    {                                                                                                 \
        size_t i;                                                                                     \
        for (i = begin; i < end; i++) {  /* from the legal ids the state keeps (only ids come out) */ \
            uint64_t low, bits, state, r;                                                             \
            int count, base = 0;                                                                      \
            if (far && i + AHEAD < end) PREFETCH(&all[i + AHEAD].legal, 0);                           \
            if (all[i].term) {                                                                        \
                out[i] = -1;                                                                          \
                continue;                                                                             \
            }                                                                                         \
            low = all[i].legal[0];                                                                    \
            bits = all[i].legal[1] & high;                                                            \
            state = seed ^ (i * SAMPLE_MIX);                                                          \
            if (!bits) {  /* (most steps: cards, ids below 64) */                                     \
                count = popcount(low);                                                                \
                if (count == 0) {                                                                     \
                    out[i] = -1;                                                                      \
                    continue;                                                                         \
                }                                                                                     \
                r = rng_below(&state, (uint64_t)count);                                               \
                bits = low;                                                                           \
            } else {  /* the r-th of the ids, counted from 0 up */                                    \
                int below = popcount(low);                                                            \
                r = rng_below(&state, (uint64_t)(below + popcount(bits)));                            \
                if (r < (uint64_t)below) bits = low;                                                  \
                else r -= (uint64_t)below, base = 64;                                                 \
            }                                                                                         \
            while (r--) bits &= bits - 1;                                                             \
            out[i] = base + lowest_bit(bits);                                                         \
        }                                                                                             \
    }                                                                                                 \
    /* far: a batch of more than NEAR_ENVS environments, whose states are asked for ahead */         \
    attrs static void name(const hb_vec_env *all, uint64_t seed, uint64_t high, int32_t *out,          \
                           size_t begin, size_t end, int far)                                         \
    {                                                                                                 \
        if (far) name##_in(all, seed, high, out, begin, end, 1);                                      \
        else name##_in(all, seed, high, out, begin, end, 0);                                          \
    }

SAMPLE_RANGE(sample_range, , hb_v_popcount)
/* x86 builds for any x86-64 have no popcnt instruction compiled in: one chosen at run time, where
   the processor has it (all but the oldest), in place of the dozen instructions of each count. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) \
    && !defined(__POPCNT__)
#define HB_POPCNT_AT_RUN_TIME 1
SAMPLE_RANGE(sample_range_popcnt, __attribute__((target("popcnt"))), __builtin_popcountll)
#endif
#ifdef HB_BMI_AT_RUN_TIME
SAMPLE_RANGE(sample_range_bmi, HB_BMI_TARGET, __builtin_popcountll)
#endif

int hb_vec_sample(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, uint64_t seed,
                  int32_t *out, size_t out_len, size_t begin, size_t end)
{
    const hb_vec_env *all = (const hb_vec_env *)envs;
    uint64_t high;
    int rc = hb_v_check_envs(cfg, envs, envs_len, num_envs);
    if (rc == HB_OK) rc = hb_v_check_slice(num_envs, begin, end);
    if (rc != HB_OK) return rc;
    high = (UINT64_C(1) << (cfg->actions - 64)) - 1; /* ids 64 .. actions-1 */
    if (out == NULL) return HB_E_NULL;
    if (out_len != num_envs) return HB_E_V_LEN;
#ifdef HB_BMI_AT_RUN_TIME
    if (hb_v_has_bmi()) {
        sample_range_bmi(all, seed, high, out, begin, end, num_envs > NEAR_ENVS);
        return HB_OK;
    }
#endif
#ifdef HB_POPCNT_AT_RUN_TIME
    __builtin_cpu_init();
    if (__builtin_cpu_supports("popcnt")) {
        sample_range_popcnt(all, seed, high, out, begin, end, num_envs > NEAR_ENVS);
        return HB_OK;
    }
#endif
    sample_range(all, seed, high, out, begin, end, num_envs > NEAR_ENVS);
    return HB_OK;
}

int hb_vec_episode(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, size_t i,
                   uint64_t *seed, uint32_t *episode, uint64_t *start, uint8_t *ids, size_t ids_len,
                   size_t *len)
{
    const hb_vec_env *e;
    const hb_vec_cold *c;
    int rc = hb_v_check_envs(cfg, envs, envs_len, num_envs);
    if (rc != HB_OK) return rc;
    if (seed == NULL || episode == NULL || start == NULL || ids == NULL || len == NULL) return HB_E_NULL;
    if (i >= num_envs) return HB_E_V_INDEX;
    e = (const hb_vec_env *)envs + i;
    c = hb_v_cold_const(envs, num_envs, i);
    if (hb_v_check_env(cfg, e) != HB_OK) return HB_E_V_STATE;
    if (c->log_len > HB_VEC_LOG) return HB_E_V_LOG;
    if (ids_len < (size_t)c->log_len + e->hand_len) return HB_E_V_LEN;
    memcpy(ids, c->log, c->log_len);
    memcpy(ids + c->log_len, e->hand_log, e->hand_len);
    *len = (size_t)c->log_len + e->hand_len;
    *seed = e->seed;
    *episode = e->episode;
    *start = hb_v_deal_state(e->seed, e->env, e->episode);
    return HB_OK;
}

int hb_vec_episodes(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, uint32_t *out,
                    size_t out_len)
{
    const hb_vec_env *all = (const hb_vec_env *)envs;
    size_t i;
    int rc = hb_v_check_envs(cfg, envs, envs_len, num_envs);
    if (rc != HB_OK) return rc;
    if (out == NULL) return HB_E_NULL;
    if (out_len != num_envs) return HB_E_V_LEN;
    for (i = 0; i < num_envs; i++) {
        if (i + AHEAD < num_envs) PREFETCH(&all[i + AHEAD], 0);
        if (hb_v_check_env(cfg, &all[i]) != HB_OK || all[i].env != i) return HB_E_V_STATE;
        out[i] = all[i].episode;
    }
    return HB_OK;
}

/* hb_vec.h: each environment's winners (bits) while its game is over, else 0. */
int hb_vec_winners(const hb_vec_cfg *cfg, const void *envs, size_t envs_len, size_t num_envs, uint8_t *out,
                   size_t out_len)
{
    const hb_vec_env *all = (const hb_vec_env *)envs;
    size_t i;
    int rc = hb_v_check_envs(cfg, envs, envs_len, num_envs);
    if (rc != HB_OK) return rc;
    if (out == NULL) return HB_E_NULL;
    if (out_len != num_envs) return HB_E_V_LEN;
    for (i = 0; i < num_envs; i++) {
        if (hb_v_check_env(cfg, &all[i]) != HB_OK || all[i].env != i) return HB_E_V_STATE;
        out[i] = all[i].phase == HB_PH_GAME_OVER ? all[i].winners : 0;
    }
    return HB_OK;
}
