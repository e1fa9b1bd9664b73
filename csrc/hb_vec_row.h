/*
 * hb_vec_row.h -- hb_vec.c's helpers in line (for it only): the memory a pass asks for ahead of the
 * environment it works on, and a step's mask row (one byte per id: 1 legal, 0 not) written from
 * the two words of legal ids a state keeps.
 */
#ifndef HB_VEC_ROW_H
#define HB_VEC_ROW_H

#include <string.h>
#include "hb_vec_internal.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The cold half of environment i: after all the hot structs (see hb_vec_internal.h). */
static inline hb_vec_cold *cold_of(void *envs, size_t num_envs, size_t i)
{
    return (hb_vec_cold *)((unsigned char *)envs + num_envs * sizeof(hb_vec_env)) + i;
}


/* Whether the next step deals (a new episode, or the last card of a hand's last trick when the
   episode goes on): only then are the episode's log and the deal's random state asked for, as
   their lines are far from the state's front.  game, n, hands: the batch's (constants in Deer Park Euchre's pass). */
static inline int deals_next(int game, int n, int hands, const hb_vec_env *e)
{
    if (e->term) return 1;
    /* (Deer Park Euchre counts 4 tricks only in the play of its last: no test of the phase) */
    if ((game != HB_GAME_DEERPARK && e->phase != HB_PH_PLAY) || e->tricks != 4) return 0;
    if (hands > 0 && e->hands_done + 1 >= (uint32_t)hands) return 0;  /* the hand ends the episode */
    return e->tlen + 1 >= (game == HB_GAME_DEERPARK ? n : hb_v_popcount(e->active));
}

static inline void ahead_of(int game, int n, int hands, int near, void *envs, size_t num_envs, size_t i,
                            size_t end)
{
    hb_vec_env *all = (hb_vec_env *)envs;
    size_t k = i + 2 * AHEAD, b;
    if (k < end && !near) {
        unsigned char *p = (unsigned char *)&all[k];
        if (game == HB_GAME_BUCKEM)
            for (b = 0; b < sizeof(hb_vec_env); b += 64) PREFETCH(p + b, 1);
        else  /* (a constant count: unrolled) */
            for (b = 0; b < HB_VEC_FRONT_BYTES; b += 64) PREFETCH(p + b, 1);
        if (game == HB_GAME_HUCKLEBUCK) PREFETCH(&all[k].stock_len, 1);  /* Hucklebuck's small fields */
    }
    k = i + AHEAD;
    if (k >= end) return;
    if (!near && game != HB_GAME_BUCKEM && all[k].hand_len >= 32 && all[k].hand_len < HB_VEC_HAND_LOG)  /* its id's line */
        PREFETCH(&all[k].hand_log[all[k].hand_len], 1);
    if (game == HB_GAME_HUCKLEBUCK && all[k].phase == HB_PH_EXCHANGE)  /* in an exchange, Hucklebuck's piles */
        for (b = offsetof(hb_vec_env, disc) & ~(size_t)63; b < offsetof(hb_vec_env, stock_len); b += 64)
            PREFETCH((unsigned char *)&all[k] + b, 1);
    if (deals_next(game, n, hands, &all[k])) {  /* the episode's log, and the deal's random state */
        PREFETCH(cold_of(envs, num_envs, k), 1);
        if (!near) PREFETCH(&all[k].rng, 1);
    }
}

/* Zero a mask row of 16 < len <= 112 bytes (a constant at each call): 16-byte stores in line,
   where memset was a `rep stos` of some 30 cycles per row.  Written out, not as a loop, which the
   compiler turns back into that memset. */
#define ZERO16(k) do { if ((k) + 16 < len) _mm_storeu_si128((__m128i *)(void *)(row + (k)), z); } while (0)
static inline void zero_row(uint8_t *row, size_t len)
{
#if defined(__SSE2__)
    const __m128i z = _mm_setzero_si128();
    ZERO16(0); ZERO16(16); ZERO16(32); ZERO16(48); ZERO16(64); ZERO16(80);
    _mm_storeu_si128((__m128i *)(void *)(row + len - 16), z);
#else
    memset(row, 0, len);
#endif
}
#undef ZERO16

/* Deer Park Euchre's pass compiled a second time for processors with AVX2 as well as BMI1/BMI2
   (every one with BMI2 but a few low-end models), chosen at run time: its mask rows are then
   written whole, 32 bytes at a time, where the scalar code zeroes the row and stores a byte per
   legal id.  HB_VEC_NO_AVX2 (or HB_VEC_NO_BMI) builds without it. */
#if defined(HB_BMI_AT_RUN_TIME) && !defined(HB_VEC_NO_AVX2)
#include <immintrin.h>
#define HB_DP_AVX2 1
#define HB_DP_AVX2_TARGET __attribute__((target("bmi,bmi2,popcnt,avx2")))
static inline int hb_v_has_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}
/* 32 bytes of a row from the broadcast word v: byte j is bit j of the word's 32-bit half that idx
   names (idx: which byte of the word each byte of the row reads), as 0 or 1 (the bit's value,
   at most 1). */
#define HB_V_SPREAD(v, idx) _mm256_min_epu8(_mm256_and_si256(_mm256_shuffle_epi8(v, idx), sel), one)
/* The row of HB_DP_ACTIONS (110) bytes from the legal ids l0 (ids 0..63) and l1 (ids 64..109). */
HB_DP_AVX2_TARGET static inline void hb_v_dp_row_avx2(uint8_t *row, uint64_t l0, uint64_t l1)
{
    const __m256i sel = _mm256_set1_epi64x((long long)UINT64_C(0x8040201008040201));
    const __m256i one = _mm256_set1_epi8(1);
    const __m256i lo = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                        2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i hi = _mm256_setr_epi8(4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5,
                                        6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7);
    __m256i v = _mm256_set1_epi64x((long long)l0);
    _mm256_storeu_si256((__m256i *)(void *)row, HB_V_SPREAD(v, lo));
    _mm256_storeu_si256((__m256i *)(void *)(row + 32), HB_V_SPREAD(v, hi));
    if (l1) {  /* ids 64..95, then 78..109 (bits 14..45 of l1; 78..95 written twice, alike) */
        v = _mm256_set1_epi64x((long long)l1);
        _mm256_storeu_si256((__m256i *)(void *)(row + 64), HB_V_SPREAD(v, lo));
        v = _mm256_set1_epi64x((long long)(l1 >> 14));
        _mm256_storeu_si256((__m256i *)(void *)(row + HB_DP_ACTIONS - 32), HB_V_SPREAD(v, lo));
    } else {
        _mm256_storeu_si256((__m256i *)(void *)(row + 64), _mm256_setzero_si256());
        _mm256_storeu_si256((__m256i *)(void *)(row + HB_DP_ACTIONS - 32), _mm256_setzero_si256());
    }
}
#undef HB_V_SPREAD
#endif

#endif
