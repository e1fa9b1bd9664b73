/*
 * hb_vec_rng.c -- the batched lane's deals draw from the project's specified
 * PRNG, splitmix64 (hb_eval.c's hb_rng_next, hb_rng_below and the shuffle of
 * hb_rng_shuffle; twinned by hucklebuck._core._py_eval.SplitMix64): one
 * stream per episode of each environment (hb_v_deal_state), so a deal is a
 * pure function of the batch seed, the environment and the episode.
 */
#include "hb_vec_internal.h"

/* 64 - bit_length(n) for n >= 1: how far an output is shifted to keep its top bit_length(n) bits. */
static inline int drop_of(uint64_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(n);
#else
    int k = 64;
    while (n) { k--; n >>= 1; }
    return k;
#endif
}

uint32_t hb_v_below(uint64_t *state, uint32_t n)
{
    int drop;
    uint64_t r;
    if (n == 0) return 0;
    drop = drop_of(n);
    do {
        r = hb_v_rng_next(state) >> drop;
    } while (r >= n);
    return (uint32_t)r;
}

void hb_v_shuffle(uint64_t *state, uint8_t *cards, int n)
{
    /* Fisher-Yates from the top, i = n-1 .. 1: each output's top bit_length(i + 1) bits either are
       at most i, and are the swap's partner, or are passed over (hb_rng_below's rejection).
       Written without a branch on that (about a quarter of the outputs are passed over, at random,
       and each wrong guess cost some 20 cycles): an output passed over swaps card i with itself. */
    uint64_t s = *state;
    uint32_t i = n > 1 ? (uint32_t)n - 1 : 0;
    while (i > 0) {  /* by runs of i whose i + 1 have one bit length: one shift for the run */
        int drop = drop_of((uint64_t)i + 1);
        uint32_t low = (uint32_t)(UINT64_C(1) << (63 - drop)) - 1;  /* the run's last i */
        do {
            uint64_t r = hb_v_mix_top(s += HB_V_GAMMA, drop);  /* (drop >= 33: i + 1 <= n < 2**31) */
            uint32_t take = r <= i, to = take ? (uint32_t)r : i;
            uint8_t t = cards[i];
            cards[i] = cards[to];
            cards[to] = t;
            i -= take;
        } while (i >= low);  /* (low >= 1) */
    }
    *state = s;
}
