/*
 * hb_vec_mt.c -- CPython's random.Random in C, for deals identical to the
 * Python engine's: MT19937 seeded with init_by_array over the 32-bit words of
 * the integer seed (lowest first, at least one word), getrandbits(k) as the top
 * k bits of one output (k <= 32), randbelow(n) by rejection with
 * k = bit_length(n), and shuffle as random.shuffle (i = n-1 .. 1, swap with
 * randbelow(i + 1)).
 */
#include <string.h>
#include "hb_vec_internal.h"

static void init_genrand(uint32_t *mt, uint32_t s)
{
    int i;
    mt[0] = s;
    for (i = 1; i < HB_MT_N; i++)
        mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
}

static void init_by_array(uint32_t *mt, const uint32_t *key, int len)
{
    int i = 1, j = 0, k;
    init_genrand(mt, 19650218U);
    for (k = HB_MT_N > len ? HB_MT_N : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= HB_MT_N) { mt[0] = mt[HB_MT_N - 1]; i = 1; }
        if (j >= len) j = 0;
    }
    for (k = HB_MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= HB_MT_N) { mt[0] = mt[HB_MT_N - 1]; i = 1; }
    }
    mt[0] = 0x80000000U;
}

void hb_v_mt_seed(hb_vec_cold *e, uint64_t seed, uint32_t env)
{
    uint32_t key[3];
    int len = 3;
    key[0] = env;
    key[1] = (uint32_t)(seed & 0xFFFFFFFFu);
    key[2] = (uint32_t)(seed >> 32);
    while (len > 1 && key[len - 1] == 0) len--;
    init_by_array(e->mt, key, len);
    e->mti = HB_MT_N;
    e->draws = 0;
}

/* Renew all 624 words of the state (once every 624 outputs). */
static void twist(hb_vec_cold *e)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = e->mt;
    uint32_t y;
    int kk;
    for (kk = 0; kk < HB_MT_N - 397; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1U];
    }
    for (; kk < HB_MT_N - 1; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + (397 - HB_MT_N)] ^ (y >> 1) ^ mag01[y & 1U];
    }
    y = (mt[HB_MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
    mt[HB_MT_N - 1] = mt[396] ^ (y >> 1) ^ mag01[y & 1U];
    e->mti = 0;
}

/* The next output (inline in the shuffle below: a deal draws some 30 of them). */
static inline uint32_t next_output(hb_vec_cold *e)
{
    uint32_t y;
    if (e->mti >= HB_MT_N) twist(e);
    e->draws++;
    y = e->mt[e->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

uint32_t hb_v_mt_next(hb_vec_cold *e) { return next_output(e); }

static int bit_length(uint32_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    return n ? 32 - __builtin_clz(n) : 0;
#else
    int k = 0;
    while (n) { k++; n >>= 1; }
    return k;
#endif
}

void hb_v_mt_shuffle(hb_vec_cold *e, uint8_t *cards, int n)
{
    /* random.shuffle's pass, i = n-1 .. 1: each output either is below i + 1 in its top
       bit_length(i + 1) bits, and is the swap's partner, or is passed over.  Written without a
       branch on that (a quarter of the outputs are passed over, at random, and each wrong guess
       cost some 20 cycles): an output passed over swaps card i with itself.  The stream's
       position and count stay in registers (stores to the cards, bytes, may alias anything). */
    const uint32_t *mt = e->mt;
    uint32_t mti = e->mti, i = n > 1 ? (uint32_t)n - 1 : 0;
    uint64_t draws = e->draws;
    while (i > 0) {
        uint32_t y, r, take, at;
        uint8_t t;
        if (mti >= HB_MT_N) {
            twist(e);
            mti = 0;
        }
        draws++;
        y = mt[mti++];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        r = y >> (32 - bit_length(i + 1));
        take = r <= i;
        at = take ? r : i;
        t = cards[i];
        cards[i] = cards[at];
        cards[at] = t;
        i -= take;
    }
    e->mti = mti;
    e->draws = draws;
}

int hb_vec_mt_fill(uint64_t hi, uint32_t lo, uint32_t *out, size_t n)
{
    hb_vec_cold e;
    size_t i;
    if (out == NULL && n > 0) return HB_E_NULL;
    hb_v_mt_seed(&e, hi, lo);
    for (i = 0; i < n; i++) out[i] = hb_v_mt_next(&e);
    return HB_OK;
}
