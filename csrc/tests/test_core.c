/* Standalone test of the C core, built with -fsanitize=address,undefined in CI.
 * It checks known tricks and the boundary checks, then throws random and
 * hostile input at every entry point: the sanitizers catch any read or write
 * outside the buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hb_core.h"

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { failures++; \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

/* card number from rank (2..14) and suit (0..3) */
static char card(int rank, int suit) { return (char)(suit * 13 + rank - 2); }

#define FULL_MINUS(m) (((UINT64_C(1) << 52) - 1) & ~(m))

static uint64_t rng_next(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static void known_tricks(void)
{
    const char plain[3] = {card(13, 2), card(14, 2), card(2, 2)};
    const char ruff[3] = {card(13, 2), card(2, 3), card(14, 2)};
    int t;
    CHECK(hb_abi_version() == HB_ABI_VERSION_VALUE);
    CHECK(hb_trick_winner(HB_GAME_HUCKLEBUCK, 3, plain, 3) == 1);
    CHECK(hb_trick_winner(HB_GAME_BUCKEM, 3, ruff, 3) == 1);
    for (t = 0; t < 4; t++) {
        char bowers[3];
        bowers[0] = card(14, t);         /* ace of trump */
        bowers[1] = card(11, 3 - t);     /* left bower */
        bowers[2] = card(11, t);         /* right bower */
        CHECK(hb_trick_winner(HB_GAME_DEERPARK, t, bowers, 3) == 2);
        CHECK(hb_trick_winner(HB_GAME_DEERPARK, t, bowers, 2) == 1);
        CHECK(hb_trick_winner(HB_GAME_HUCKLEBUCK, t, bowers, 2) == 0);
        /* the left bower follows trump */
        CHECK(hb_legal_mask(HB_GAME_DEERPARK, t, card(13, t),
                            (UINT64_C(1) << bowers[1]) | (UINT64_C(1) << card(10, 3 - t)))
              == (UINT64_C(1) << bowers[1]));
    }
}

static void boundary(void)
{
    const char two[2] = {1, 1};
    const char bad[2] = {1, 60};
    char nine[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    hb_rules r;
    uint8_t w[2];
    uint64_t hands[1] = {UINT64_C(1) << 60}, out[1];
    size_t badi = 99;
    CHECK(hb_trick_winner(3, 0, nine, 2) == HB_E_GAME);
    CHECK(hb_trick_winner(-1, 0, nine, 2) == HB_E_GAME);
    CHECK(hb_trick_winner(0, 4, nine, 2) == HB_E_TRUMP);
    CHECK(hb_trick_winner(0, 0, nine, 9) == HB_E_LEN);
    CHECK(hb_trick_winner(0, 0, nine, 0) == HB_E_LEN);
    CHECK(hb_trick_winner(0, 0, nine, -5) == HB_E_LEN);
    CHECK(hb_trick_winner(0, 0, two, 2) == HB_E_DUP);
    CHECK(hb_trick_winner(0, 0, bad, 2) == HB_E_CARD);
    CHECK(hb_trick_winner(0, 0, NULL, 2) == HB_E_NULL);
    CHECK(hb_rules_init(0, 0, NULL) == HB_E_NULL);
    CHECK(hb_rules_init(2, 9, &r) == HB_E_TRUMP);
    CHECK(hb_legal_mask(0, 0, 255, UINT64_C(1) << 55) >> 63 == 1);
    CHECK(hb_legal_mask(0, 0, 52, 1) >> 63 == 1);
    CHECK(hb_legal_mask(0, 0, -3, 1) >> 63 == 1);
    CHECK(hb_trick_winners(0, 1, "\0", "\2", NULL, w, &badi) == HB_E_NULL);
    CHECK(hb_trick_winners(0, 1, "\0", "\2", nine, w, NULL) == HB_E_NULL);
    CHECK(hb_legal_masks(0, 1, "\0", "\377", hands, out, &badi) == HB_E_MASK && badi == 0);
    CHECK(hb_trick_winners(7, 0, NULL, NULL, NULL, NULL, &badi) == HB_E_GAME);
}

static void fuzz(void)
{
    uint64_t seed = 12345;
    int round;
    for (round = 0; round < 200000; round++) {
        char cards[HB_MAX_TRICK * 4], trumps[4], lens[4], leads[4];
        uint8_t winners[4];
        uint64_t hands[4], out[4];
        size_t badi = 0;
        int i, rc, game = (int)(rng_next(&seed) % 4) - (round % 97 == 0);
        for (i = 0; i < HB_MAX_TRICK * 4; i++) cards[i] = (char)(rng_next(&seed) % (round % 5 ? 52 : 256));
        for (i = 0; i < 4; i++) {
            trumps[i] = (char)(rng_next(&seed) % (round % 7 ? 4 : 8));
            lens[i] = (char)(rng_next(&seed) % 10);
            leads[i] = (char)(rng_next(&seed) % 4 == 0 ? 255 : rng_next(&seed) % (round % 3 ? 52 : 256));
            hands[i] = rng_next(&seed) & (round % 11 ? ((UINT64_C(1) << 52) - 1) : ~UINT64_C(0));
        }
        rc = hb_trick_winners(game, 4, trumps, lens, cards, winners, &badi);
        CHECK(rc <= 0 && badi < 4);
        if (rc == HB_OK)
            for (i = 0; i < 4; i++) CHECK(winners[i] < (uint8_t)lens[i]);
        rc = hb_legal_masks(game, 4, trumps, leads, hands, out, &badi);
        CHECK(rc <= 0 && badi < 4);
        if (rc == HB_OK)
            for (i = 0; i < 4; i++) CHECK((out[i] & ~hands[i]) == 0 && (out[i] != 0) == (hands[i] != 0));
        rc = hb_trick_winner(game, (int)(rng_next(&seed) % 6) - 1, cards, (int)(rng_next(&seed) % 11) - 1);
        CHECK(rc < HB_MAX_TRICK);
    }
}

/* The node budget and the cancel flag of the solver, on an 8-seat Buck 'Em deal. */
static void solver_budget(hb_tt_entry *tt)
{
    /* the reproduction of issue 16: minutes with the first solver */
    const uint64_t deal[8] = {UINT64_C(206158430281), UINT64_C(275481887776), UINT64_C(17322508544),
                              UINT64_C(2251799814013060), UINT64_C(8830452783104), UINT64_C(1163294039605248),
                              UINT64_C(275382272), UINT64_C(163277476724738)};
    /* a deal that needs millions of nodes (hearts trump, leader 5, seat 7) */
    const uint64_t heavy[8] = {UINT64_C(2260595906850816), UINT64_C(1125968626582080), UINT64_C(71468272582916),
                               UINT64_C(2162864), UINT64_C(562984850571264), UINT64_C(2483027978),
                               UINT64_C(158346855350272), UINT64_C(142941881344)};
    uint64_t nodes = 0, nodes2 = 0, known[8] = {0};
    uint32_t hist[6];
    uint8_t sizes[8] = {5, 5, 5, 5, 5, 5, 5, 5};
    int r = -1, r2 = -1, cancel = 1, i;
    CHECK(hb_solve_limited(1, 0, deal, 8, 3, 4, tt, 1024, 7, 0, NULL, &r, &nodes) == HB_OK);
    CHECK(r >= 0 && r <= 5 && nodes > 0);
    CHECK(hb_solve_limited(1, 0, deal, 8, 3, 4, NULL, 0, 8, 0, NULL, &r2, &nodes2) == HB_OK && r2 == r);
    /* exactly the nodes it needs is enough; one fewer is not */
    CHECK(hb_solve_limited(1, 0, deal, 8, 3, 4, tt, 1024, 9, nodes, NULL, &r2, &nodes2) == HB_OK);
    CHECK(r2 == r && nodes2 == nodes);
    CHECK(hb_solve_limited(1, 0, deal, 8, 3, 4, tt, 1024, 10, nodes - 1, NULL, &r2, &nodes2) == HB_E_BUDGET);
    CHECK(nodes2 == nodes);
    /* a tiny table (cleared whenever full) gives the same value */
    CHECK(hb_solve_limited(1, 0, deal, 8, 3, 4, tt, 2, 11, 0, NULL, &r2, NULL) == HB_OK && r2 == r);
    /* a budget stops a long search at exactly its limit; a set cancel flag at node 1024 */
    CHECK(hb_solve_limited(1, 2, heavy, 8, 5, 7, tt, 1024, 12, 20000, NULL, &r2, &nodes2) == HB_E_BUDGET);
    CHECK(nodes2 == 20001);
    CHECK(hb_solve_limited(1, 2, heavy, 8, 5, 7, tt, 1024, 12, 0, &cancel, &r2, &nodes2) == HB_E_CANCELLED);
    CHECK(nodes2 == 1024);
    CHECK(hb_solve_limited(1, 0, deal, 8, 3, 4, tt, 1024, 13, 0, NULL, NULL, NULL) == HB_E_NULL);
    CHECK(hb_solve_limited(1, 0, deal, 8, 3, 4, tt, 1000, 13, 0, NULL, &r2, NULL) == HB_E_TT);
    /* Monte Carlo with the solver: a budget of one node per solve fails, the cancel flag stops it */
    known[0] = deal[0];
    for (i = 1; i < 8; i++) known[i] = 0;
    CHECK(hb_mc_eval_limited(1, 0, 8, known, sizes, FULL_MINUS(deal[0]), 0, 0, 3, 20, 1, tt, 1024, 20, 1, NULL,
                             hist) == HB_E_BUDGET);
    CHECK(hb_mc_eval_limited(1, 0, 8, known, sizes, FULL_MINUS(deal[0]), 0, 0, 3, 300, 0, tt, 1024, 20, 0,
                             &cancel, hist) == HB_E_CANCELLED);
    CHECK(hb_mc_eval_limited(1, 0, 8, known, sizes, FULL_MINUS(deal[0]), 0, 0, 3, 20, 1, tt, 1024, 20, 0, NULL,
                             hist) == HB_OK);
    CHECK(hist[0] + hist[1] + hist[2] + hist[3] + hist[4] + hist[5] == 20);
    /* a budget shared by all the solves: too small fails, a large one gives the same counts */
    {
        uint32_t shared[6];
        CHECK(hb_mc_eval_total(1, 0, 8, known, sizes, FULL_MINUS(deal[0]), 0, 0, 3, 20, 1, tt, 1024, 40, 0, 1000,
                               NULL, shared) == HB_E_BUDGET);
        CHECK(hb_mc_eval_total(1, 0, 8, known, sizes, FULL_MINUS(deal[0]), 0, 0, 3, 20, 1, tt, 1024, 60, 0,
                               UINT64_C(1) << 40, NULL, shared) == HB_OK);
        for (i = 0; i < 6; i++) CHECK(shared[i] == hist[i]);
        CHECK(hb_mc_eval_total(1, 0, 8, known, sizes, FULL_MINUS(deal[0]), 0, 0, 3, 20, 0, tt, 1024, 80, 0, 1,
                               NULL, shared) == HB_OK);  /* a playout solves nothing */
    }
}

static void evaluation(void)
{
    uint64_t st = 0, hands[4], out[3];
    hb_tt_entry tt[1024];
    uint32_t hist[6];
    uint8_t sizes[4] = {5, 5, 5, 5};
    uint64_t known[4] = {0}, stats[HB_SIM_STATS], seed = 99;
    int r = -1, i, round;
    CHECK(hb_rng_fill(0, out, 3) == HB_OK);
    CHECK(out[0] == UINT64_C(0xE220A8397B1DCDAF) && out[1] == UINT64_C(0x6E789E6AA1B965F4));
    CHECK(hb_rng_next(&st) == UINT64_C(0xE220A8397B1DCDAF));
    /* AS KS against AH KH, spades trump: seat 0 takes both */
    hands[0] = (UINT64_C(1) << card(14, 3)) | (UINT64_C(1) << card(13, 3));
    hands[1] = (UINT64_C(1) << card(14, 2)) | (UINT64_C(1) << card(13, 2));
    CHECK(hb_solve(0, 3, hands, 2, 1, 0, tt, 1024, 1, &r) == HB_OK && r == 2);
    CHECK(hb_solve(0, 3, hands, 2, 1, 0, NULL, 0, 1, &r) == HB_OK && r == 2);
    CHECK(hb_solve(0, 3, hands, 2, 1, 0, tt, 1000, 1, &r) == HB_E_TT);
    CHECK(hb_solve(0, 3, hands, 9, 1, 0, tt, 1024, 1, &r) == HB_E_SEATS);
    CHECK(hb_solve(0, 3, hands, 2, 5, 0, tt, 1024, 1, &r) == HB_E_SEATS);
    CHECK(hb_solve(0, 3, NULL, 2, 1, 0, tt, 1024, 1, &r) == HB_E_NULL);
    hands[1] |= UINT64_C(1) << 60;
    CHECK(hb_solve(0, 3, hands, 2, 1, 0, tt, 1024, 1, &r) == HB_E_MASK);
    solver_budget(tt);
    known[0] = hands[0];
    CHECK(hb_mc_eval(0, 3, 4, known, sizes, FULL_MINUS(hands[0]), 0, 0, 7, 200, 0, NULL, 0, 1, hist) == HB_OK);
    CHECK(hist[0] + hist[1] + hist[2] + hist[3] + hist[4] + hist[5] == 200 && hist[0] == 0 && hist[1] == 0);
    CHECK(hb_mc_eval(0, 3, 4, known, sizes, hands[0], 0, 0, 7, 200, 0, NULL, 0, 1, hist) == HB_E_DUP);
    sizes[0] = sizes[1] = sizes[2] = sizes[3] = 2;
    CHECK(hb_mc_eval(0, 3, 4, known, sizes, FULL_MINUS(hands[0]), 0, 0, 7, 200, 0, NULL, 0, 1, hist) == HB_OK);
    CHECK(hist[2] == 200);
    CHECK(hb_mc_eval(0, 3, 4, known, sizes, FULL_MINUS(hands[0]), 0, 0, 7, 20, 1, tt, 1024, 1, hist) == HB_OK);
    CHECK(hist[2] == 20);
    CHECK(hb_mc_eval(0, 3, 4, known, sizes, FULL_MINUS(hands[0]), 0, 0, 7, 20, 2, tt, 1024, 1, hist) == HB_E_MODE);
    CHECK(hb_sim_hucklebuck(7, 5, 2000, stats, HB_SIM_STATS) == HB_OK);
    CHECK(stats[HB_SIM_ALL_PASS] + stats[HB_SIM_LONE_BIDDER] + stats[HB_SIM_PLAYED] == 2000);
    CHECK(hb_sim_hucklebuck(8, 5, 10, stats, HB_SIM_STATS) == HB_E_SEATS);
    CHECK(hb_sim_deerpark(5, 5, 2000, stats, HB_DP_STATS) == HB_OK && stats[HB_DP_HANDS] == 2000);
    CHECK(hb_sim_deerpark(8, 5, 10, stats, HB_DP_STATS) == HB_E_SEATS);
    CHECK(hb_sim_buckem(8, 5, 2000, 1, 25, stats, HB_BK_STATS) == HB_OK && stats[HB_BK_HANDS] == 2000);
    CHECK(hb_sim_buckem(8, 16, 20000, 1, 0, stats, HB_BK_STATS) == HB_E_OVERFLOW);
    CHECK(hb_sim_buckem(4, 5, 10, 1, 0, stats, HB_BK_STATS) == HB_E_SEATS);
    CHECK(hb_sim_buckem(6, 5, 10, 0, 0, stats, HB_BK_STATS) == HB_E_LEN);
    CHECK(hb_sim_hucklebuck(5, 5, 10, stats, 3) == HB_E_LEN);
    {   /* the cancel flag: unset, the same counts; set, a long run stops */
        uint64_t again[HB_SIM_STATS];
        int off = 0, on = 1;
        CHECK(hb_sim_hucklebuck(7, 5, 2000, stats, HB_SIM_STATS) == HB_OK);
        CHECK(hb_sim_hucklebuck_cancel(7, 5, 2000, &off, again, HB_SIM_STATS) == HB_OK);
        CHECK(memcmp(stats, again, sizeof again) == 0);
        CHECK(hb_sim_hucklebuck_cancel(7, 5, 4000000000u, &on, again, HB_SIM_STATS) == HB_E_CANCELLED);
        CHECK(hb_sim_deerpark_cancel(5, 5, 4000000000u, &on, again, HB_DP_STATS) == HB_E_CANCELLED);
        CHECK(hb_sim_buckem_cancel(8, 5, 4000000000u, 1, 25, &on, again, HB_BK_STATS) == HB_E_CANCELLED);
        CHECK(hb_sim_deerpark_cancel(5, 5, 1000, &on, again, HB_DP_STATS) == HB_OK);  /* under 1024 hands */
    }
    /* fuzz the solver with random, sometimes malformed positions */
    for (round = 0; round < 3000; round++) {
        uint8_t deck[52];
        uint64_t h[8] = {0};
        int n = 2 + (int)(hb_rng_next(&seed) % 7), k = 1 + (int)(hb_rng_next(&seed) % 3), pos = 0, j;
        for (i = 0; i < 52; i++) deck[i] = (uint8_t)i;
        CHECK(hb_rng_shuffle(hb_rng_next(&seed), deck, 52) == HB_OK);
        for (i = 0; i < n && pos + k <= 52; i++)
            for (j = 0; j < k; j++) h[i] |= UINT64_C(1) << deck[pos++];
        if (round % 13 == 0) h[n - 1] |= h[0];
        r = -1;
        i = hb_solve((int)(hb_rng_next(&seed) % 4), (int)(hb_rng_next(&seed) % 5), h, n,
                     (int)(hb_rng_next(&seed) % 9), (int)(hb_rng_next(&seed) % 9), tt, 1024, (uint32_t)round, &r);
        CHECK(i < 0 || (r >= 0 && r <= k));
    }
}

int main(void)
{
    known_tricks();
    boundary();
    fuzz();
    evaluation();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("C core tests: all checks passed\n");
    return 0;
}
