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
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* Renew all 624 words of the state (once every 624 outputs): word k from words k, k + 1 and
   k + 397 (mod 624), in place and in order.  With SSE2 four words at a time: each block reads
   words that no earlier block of its loop has renewed, or that one renewed 227 or more words back,
   as the word-by-word loop does. */
#define MT_M 397
#define MT_UPPER 0x80000000U
#define MT_LOWER 0x7fffffffU
#define MT_MATRIX 0x9908b0dfU
static uint32_t twist_one(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t y = (a & MT_UPPER) | (b & MT_LOWER);
    return c ^ (y >> 1) ^ ((0U - (y & 1U)) & MT_MATRIX);
}

#if defined(__SSE2__)
static inline __m128i twist_four(const uint32_t *a, const uint32_t *c)
{
    const __m128i upper = _mm_set1_epi32((int)MT_UPPER), lower = _mm_set1_epi32((int)MT_LOWER);
    const __m128i one = _mm_set1_epi32(1), matrix = _mm_set1_epi32((int)MT_MATRIX);
    __m128i y = _mm_or_si128(_mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)a), upper),
                             _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(a + 1)), lower));
    __m128i odd = _mm_sub_epi32(_mm_setzero_si128(), _mm_and_si128(y, one));
    return _mm_xor_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)c), _mm_srli_epi32(y, 1)),
                         _mm_and_si128(odd, matrix));
}
#endif

static void twist(hb_vec_cold *e)
{
    uint32_t *mt = e->mt;
    int kk = 0;
#if defined(__SSE2__)
    for (; kk + 4 <= HB_MT_N - MT_M; kk += 4)
        _mm_storeu_si128((__m128i *)(void *)(mt + kk), twist_four(mt + kk, mt + kk + MT_M));
#endif
    for (; kk < HB_MT_N - MT_M; kk++) mt[kk] = twist_one(mt[kk], mt[kk + 1], mt[kk + MT_M]);
#if defined(__SSE2__)
    for (; kk + 4 <= HB_MT_N - 1; kk += 4)
        _mm_storeu_si128((__m128i *)(void *)(mt + kk), twist_four(mt + kk, mt + kk + (MT_M - HB_MT_N)));
#endif
    for (; kk < HB_MT_N - 1; kk++) mt[kk] = twist_one(mt[kk], mt[kk + 1], mt[kk + (MT_M - HB_MT_N)]);
    mt[HB_MT_N - 1] = twist_one(mt[HB_MT_N - 1], mt[0], mt[MT_M - 1]);
    e->mti = 0;
}

/* MT19937's tempering of a word into an output. */
static inline uint32_t temper(uint32_t y)
{
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    return y ^ (y >> 18);
}

/* The next output (inline in the shuffle below: a deal draws some 30 of them). */
static inline uint32_t next_output(hb_vec_cold *e)
{
    uint32_t y;
    if (e->mti >= HB_MT_N) twist(e);
    e->draws++;
    y = e->mt[e->mti++];
    return temper(y);
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

/* The next outputs of the stream into out[0 .. 8), or fewer at the end of the state's words (at
   least one: the state is renewed first when all its words are used); how many, and mti moved on. */
static int temper_block(hb_vec_cold *e, uint32_t *mti, uint32_t out[8])
{
    const uint32_t *w;
    int k, m;
    if (*mti >= HB_MT_N) {
        twist(e);
        *mti = 0;
    }
    w = e->mt + *mti;
    m = HB_MT_N - (int)*mti < 8 ? HB_MT_N - (int)*mti : 8;
#if defined(__SSE2__)
    if (m == 8) {
        const __m128i a = _mm_set1_epi32((int)0x9d2c5680U), b = _mm_set1_epi32((int)0xefc60000U);
        for (k = 0; k < 8; k += 4) {
            __m128i y = _mm_loadu_si128((const __m128i *)(const void *)(w + k));
            y = _mm_xor_si128(y, _mm_srli_epi32(y, 11));
            y = _mm_xor_si128(y, _mm_and_si128(_mm_slli_epi32(y, 7), a));
            y = _mm_xor_si128(y, _mm_and_si128(_mm_slli_epi32(y, 15), b));
            y = _mm_xor_si128(y, _mm_srli_epi32(y, 18));
            _mm_storeu_si128((__m128i *)(void *)(out + k), y);
        }
        *mti += 8;
        return 8;
    }
#endif
    for (k = 0; k < m; k++) out[k] = temper(w[k]);
    *mti += (uint32_t)m;
    return m;
}

void hb_v_mt_shuffle(hb_vec_cold *e, uint8_t *cards, int n)
{
    /* random.shuffle's pass, i = n-1 .. 1: each output either is below i + 1 in its top
       bit_length(i + 1) bits, and is the swap's partner, or is passed over.  Written without a
       branch on that (a quarter of the outputs are passed over, at random, and each wrong guess
       cost some 20 cycles): an output passed over swaps card i with itself.  The outputs are
       tempered eight at a time ahead of the pass (with SSE2, four in each instruction); those the
       pass does not take are given back (mti moved back over them: the state's words are not
       changed by tempering, and are renewed only once all of them were taken, as word by word). */
    uint32_t mti = e->mti, i = n > 1 ? (uint32_t)n - 1 : 0, out[8];
    int have = 0, at = 0;
    uint64_t got = 0;  /* outputs tempered */
    while (i > 0) {
        uint32_t r, take, to;
        uint8_t t;
        if (at == have) {
            have = temper_block(e, &mti, out);
            got += (uint64_t)have;
            at = 0;
        }
        r = out[at++] >> (32 - bit_length(i + 1));
        take = r <= i;
        to = take ? r : i;
        t = cards[i];
        cards[i] = cards[to];
        cards[to] = t;
        i -= take;
    }
    e->mti = mti - (uint32_t)(have - at);
    e->draws += got - (uint64_t)(have - at);
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
