/* Standalone tests of the batched lane (hb_vec*.c) that need no random batches, built with
 * -fsanitize=address,undefined in CI beside test_vec.c: the deals' random source (each episode
 * from its own splitmix64 stream, shuffled as hb_rng_shuffle shuffles, the shuffle the bare
 * simulation deals with) and what a Deer Park Euchre step reads of a state (a corrupt field it
 * reads stops the step there, nothing changed). */
#define _POSIX_C_SOURCE 200809L
#include "vec_kit.h"

/* The state episode k of environment env deals from, computed here from its definition: output k
   of splitmix64 started at seed ^ (env * 0xC2B2AE3D27D4EB4F). */
static uint64_t deal_state(uint64_t seed, uint32_t env, uint32_t k)
{
    uint64_t s = seed ^ ((uint64_t)env * UINT64_C(0xC2B2AE3D27D4EB4F)), out = 0;
    uint32_t j;
    for (j = 0; j <= k; j++) out = rng_next(&s);
    return out;
}

/* The lane's shuffle against Fisher-Yates written out
   here with hb_rng_below's rejection: the same order and the same state left, for every pack size
   and many states. */
static void shuffles_known(void)
{
    uint64_t seed = 7;
    int n, k, j;
    for (k = 0; k < 300; k++) {
        for (n = 0; n <= 52; n++) {
            uint8_t a[52], b[52];
            uint64_t sa = rng_next(&seed), sb = sa;
            for (j = 0; j < n; j++) a[j] = b[j] = (uint8_t)j;
            hb_v_shuffle(&sa, a, n);
            for (j = n - 1; j > 0; j--) {
                int bits = 0;
                uint64_t r, m = (uint64_t)j + 1;
                uint8_t t;
                while (m) { bits++; m >>= 1; }
                do r = rng_next(&sb) >> (64 - bits); while (r > (uint64_t)j);
                t = b[j], b[j] = b[r], b[r] = t;
            }
            CHECK(sa == sb && memcmp(a, b, (size_t)n) == 0);
        }
    }
}

static void deals_known(void)
{
    batch b;
    size_t i, len = 0;
    uint64_t seed = 0, start = 0, s = 99;
    uint32_t episode = 0;
    uint8_t ids[2048];
    int step, o, j, deals = 0;
    CHECK(hb_vec_version() == HB_VEC_VERSION);
    if (!make(&b, HB_GAME_DEERPARK, 4, 0, 35, 1, 0, 6, 0)) {
        CHECK(0);
        return;
    }
    CHECK(hb_vec_reset(&b.cfg, b.envs, b.bytes, b.n, &b.io, UINT64_C(0xFEEDFACE12345678), 1, 0, b.n) == HB_OK);
    for (step = 0; step < 400; step++) {
        for (i = 0; i < b.n; i++) {
            const hb_vec_env *e = &((const hb_vec_env *)b.envs)[i];
            CHECK(hb_vec_episode(&b.cfg, b.envs, b.bytes, b.n, i, &seed, &episode, &start, ids, sizeof ids, &len)
                  == HB_OK);
            CHECK(seed == UINT64_C(0xFEEDFACE12345678) && start == deal_state(seed, (uint32_t)i, episode));
            if (len == 0 && !e->term) {  /* the episode's first deal, untouched: the pack of 9 to ace shuffled
                                            by hb_rng_shuffle from its start, one card each from the eldest */
                uint8_t cards[24];
                int k = 0;
                for (j = 0; j < 52; j++)
                    if (j % 13 >= 7) cards[k++] = (uint8_t)j;
                CHECK(hb_rng_shuffle(start, cards, 24) == HB_OK);
                for (o = 0; o < 4; o++) {
                    uint64_t hand = 0;
                    for (j = o; j < 20; j += 4) hand |= UINT64_C(1) << cards[j];
                    CHECK(e->hands[(e->dealer + 1 + o) % 4] == hand);
                }
                CHECK(e->turned == cards[20]);
                deals++;
            }
        }
        CHECK(hb_vec_sample(&b.cfg, b.envs, b.bytes, b.n, rng_next(&s), b.acts, b.n, 0, b.n) == HB_OK);
        CHECK(hb_vec_step(&b.cfg, b.envs, b.bytes, b.n, &b.io, b.acts, 4, 1, b.n, 0, b.n, &i, (int64_t *)&seed)
              == HB_OK);
    }
    CHECK(episode > 3 && deals > 20);
    release(&b);
}

/* A Deer Park Euchre step checks the fields its phase reads (hb_v_dp_check_step), not the whole
   state: in the play, scores out of range stop a step only at the hand's last card (the one that
   reads them); a check
   of the batch (hb_vec_check) refuses both everywhere.  A trick card, the trick's length, trump or
   the leader out of range stops the step at that environment, which it leaves as it was. */
static void deerpark_step_reads(void)
{
    batch b;
    uint64_t s = 4242;
    size_t i, bad = 0;
    int64_t bad_id = 0;
    int k, v, seen_mid = 0, seen_last = 0;
    unsigned char *copy, *orig;
    if (!make(&b, HB_GAME_DEERPARK, 4, 0, 35, 1, 0, 16, 0)) {
        CHECK(0);
        return;
    }
    copy = malloc(b.bytes);
    orig = malloc(b.bytes);
    if (!copy || !orig) exit(2);
    CHECK(hb_vec_reset(&b.cfg, b.envs, b.bytes, b.n, &b.io, 5, 1, 0, b.n) == HB_OK);
    for (k = 0; k < 3000 && !(seen_mid && seen_last); k++) {
        hb_vec_env *all = (hb_vec_env *)b.envs;
        CHECK(hb_vec_sample(&b.cfg, b.envs, b.bytes, b.n, rng_next(&s), b.acts, b.n, 0, b.n) == HB_OK);
        for (i = 0; i < b.n; i++) {
            hb_vec_env *e = &all[i];
            int last, rc;
            if (e->term || e->phase != HB_PH_PLAY || e->tlen == 0) continue;
            last = e->tricks == 4 && e->tlen == 3;
            if ((last && seen_last) || (!last && seen_mid)) continue;
            memcpy(orig, b.envs, b.bytes);
            e->scores[2] = 1 << 30;  /* a score the hand's score would overflow */
            memcpy(copy, b.envs, b.bytes);
            rc = hb_vec_check(&b.cfg, b.envs, b.bytes, b.n, b.acts, 4, 1, b.n, &bad, &bad_id);
            CHECK(rc == HB_E_V_STATE && bad == i);
            rc = hb_vec_step(&b.cfg, b.envs, b.bytes, b.n, &b.io, b.acts, 4, 1, b.n, 0, b.n, &bad, &bad_id);
            if (last) {
                CHECK(rc == HB_E_V_STATE && bad == i);
                CHECK(memcmp(copy + i * sizeof(hb_vec_env), b.envs + i * sizeof(hb_vec_env), sizeof(hb_vec_env)) == 0);
                seen_last = 1;
            } else {
                CHECK(rc == HB_OK);
                seen_mid = 1;
                /* what the play reads, each refused by the step itself, nothing changed */
                for (v = 0; v < 4; v++) {
                    memcpy(b.envs, orig, b.bytes);
                    e = &((hb_vec_env *)b.envs)[i];
                    if (v == 0) e->trick[0] = 52;
                    if (v == 1) e->tlen = 4;
                    if (v == 2) e->trump = 4;
                    if (v == 3) e->leader = 9;
                    memcpy(copy, b.envs, b.bytes);
                    rc = hb_vec_step(&b.cfg, b.envs, b.bytes, b.n, &b.io, b.acts, 4, 1, b.n, 0, b.n, &bad, &bad_id);
                    CHECK(rc == HB_E_V_STATE && bad == i);
                    CHECK(memcmp(copy + i * sizeof(hb_vec_env), b.envs + i * sizeof(hb_vec_env), sizeof(hb_vec_env))
                          == 0);
                }
            }
            memcpy(b.envs, orig, b.bytes);
            break;
        }
        CHECK(hb_vec_step(&b.cfg, b.envs, b.bytes, b.n, &b.io, b.acts, 4, 1, b.n, 0, b.n, &bad, &bad_id) == HB_OK);
    }
    CHECK(seen_mid && seen_last);
    free(copy);
    free(orig);
    release(&b);
}


/* A Deer Park Euchre step's mask rows (written 32 bytes at a time where the processor has AVX2, a byte
   per legal id elsewhere: CI builds both) are exactly the legal ids each state keeps, whatever the
   caller's buffer held: 4 players (the pass of its own) and 3 and 5, one hand and whole games. */
static void rows_known(void)
{
    static const int players[3] = {4, 3, 5};
    int p, hands, step, k, high = 0, plays = 0;
    size_t i, bad = 0;
    int64_t bad_id = 0;
    uint64_t s = 7;
    batch b;
    for (p = 0; p < 3; p++)
        for (hands = 0; hands <= 1; hands++) {
            if (!make(&b, HB_GAME_DEERPARK, players[p], 0, 35, hands, 0, 37, 0)) {
                CHECK(0);
                return;
            }
            CHECK(hb_vec_reset(&b.cfg, b.envs, b.bytes, b.n, &b.io, rng_next(&s), 1, 0, b.n) == HB_OK);
            for (step = 0; step < 150; step++) {
                CHECK(hb_vec_sample(&b.cfg, b.envs, b.bytes, b.n, rng_next(&s), b.acts, b.n, 0, b.n) == HB_OK);
                memset(b.mask, step & 1 ? 0xAB : 0x01, b.n * (size_t)b.cfg.actions);  /* the caller's bytes */
                CHECK(hb_vec_step(&b.cfg, b.envs, b.bytes, b.n, &b.io, b.acts, 4, 1, b.n, 0, b.n, &bad, &bad_id)
                      == HB_OK);
                for (i = 0; i < b.n; i++) {
                    const hb_vec_env *e = &((const hb_vec_env *)b.envs)[i];
                    const uint8_t *row = b.mask + i * (size_t)b.cfg.actions;
                    for (k = 0; k < b.cfg.actions; k++)
                        CHECK(row[k] == (e->legal[k >> 6] >> (k & 63) & 1));
                    high += e->legal[1] != 0;
                    plays += !e->term && e->phase == HB_PH_PLAY;
                }
            }
            release(&b);
        }
    CHECK(high > 100 && plays > 1000);  /* rows with ids past 63 (the bidding) and plays */
}

int main(void)
{
    shuffles_known();
    deals_known();
    deerpark_step_reads();
    rows_known();
    if (failures) {
        fprintf(stderr, "batched lane read tests: %d check(s) failed\n", failures);
        return 1;
    }
    printf("batched lane read tests: all checks passed\n");
    return 0;
}
