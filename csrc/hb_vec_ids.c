/*
 * hb_vec_ids.c -- the batched lane's first pass over a step's ids (sample_legal's int32 ids), four
 * environments at a time with AVX2 where the processor has it (chosen at run time).
 *
 * hb_vec.c's check_range asks, before a step changes anything, whether every id of the batch is in
 * range and legal by its environment's legal ids (or the environment has ended).  Here each block
 * of four environments takes one load of its ids, two gathers (the legal word each id falls in, and
 * the word holding each state's term flag) and a few vector instructions, where the scalar loop
 * takes some twenty instructions per environment.  An id out of range is replaced by 0 before the
 * gather, so no read leaves the batch's states whatever the ids hold.  This pass only finds where
 * the first block with a refused id starts: check_range goes on from there one environment at a
 * time, so the error, the environment and the id it reports are the scalar loop's.
 */
#include "hb_vec_internal.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(HB_VEC_NO_AVX2)
#include <immintrin.h>

/* The environment's words, in 64-bit units: a gather's indices count those (a signed 32-bit index
   reaches 2^31 words, 16 GB: a batch's states are checked to fit far below that by the caller). */
#define ENV_WORDS ((int)(sizeof(hb_vec_env) / 8))
#define TERM_WORD ((int)(offsetof(hb_vec_env, term) / 8))
#define TERM_SHIFT ((int)(offsetof(hb_vec_env, term) % 8) * 8) /* (little-endian: x86) */
typedef char hb_vec_ids_layout[offsetof(hb_vec_env, legal) == 0 && sizeof(hb_vec_env) % 8 == 0 ? 1 : -1];

__attribute__((target("avx2"))) static size_t ids_ok_avx2(const hb_vec_env *all, const unsigned char *ids,
                                                          int actions, size_t begin, size_t end)
{
    const long long *base = (const long long *)(const void *)all;
    const __m128i lanes = _mm_setr_epi32(0, ENV_WORDS, 2 * ENV_WORDS, 3 * ENV_WORDS);
    const __m128i top = _mm_set1_epi32(actions - 1), zero = _mm_setzero_si128();
    const __m256i one = _mm256_set1_epi64x(1), low6 = _mm256_set1_epi64x(63), tmask = _mm256_set1_epi64x(0xFF);
    size_t i = begin;
    if (end - begin > (size_t)(INT32_MAX / ENV_WORDS) - 8) return begin; /* (indices would not fit) */
    for (; i + 4 <= end; i += 4) {
        const __m128i id = _mm_loadu_si128((const __m128i *)(const void *)(ids + 4 * i));
        const __m128i out = _mm_or_si128(_mm_cmpgt_epi32(zero, id), _mm_cmpgt_epi32(id, top));
        const __m128i safe = _mm_andnot_si128(out, id); /* (0 for an id out of range) */
        const __m128i at = _mm_add_epi32(lanes, _mm_set1_epi32((int)((i - begin) * (size_t)ENV_WORDS)));
        const long long *b = base + begin * (size_t)ENV_WORDS;
        __m256i word = _mm256_i32gather_epi64(b, _mm_add_epi32(at, _mm_srli_epi32(safe, 6)), 8);
        __m256i term = _mm256_i32gather_epi64(b, _mm_add_epi32(at, _mm_set1_epi32(TERM_WORD)), 8);
        __m256i bit = _mm256_and_si256(_mm256_srlv_epi64(word, _mm256_and_si256(_mm256_cvtepi32_epi64(safe), low6)), one);
        __m256i ended = _mm256_and_si256(_mm256_srli_epi64(term, TERM_SHIFT), tmask);
        /* a lane passes when its environment has ended, or its id is in range and legal */
        __m256i ok = _mm256_andnot_si256(_mm256_cvtepi32_epi64(out), _mm256_cmpeq_epi64(bit, one));
        ok = _mm256_or_si256(ok, _mm256_xor_si256(_mm256_cmpeq_epi64(ended, _mm256_setzero_si256()),
                                                  _mm256_set1_epi64x(-1)));
        if (_mm256_movemask_pd(_mm256_castsi256_pd(ok)) != 0xF) return i;
    }
    return i;
}

size_t hb_v_ids_ok(const hb_vec_env *all, const void *ids, int actions, size_t begin, size_t end)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) return begin;
    return ids_ok_avx2(all, (const unsigned char *)ids, actions, begin, end);
}
#else
size_t hb_v_ids_ok(const hb_vec_env *all, const void *ids, int actions, size_t begin, size_t end)
{
    (void)all, (void)ids, (void)actions, (void)end;
    return begin;
}
#endif
